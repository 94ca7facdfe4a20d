#include "coordinator/http_status.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "cluster/outcomes.h"
#include "google/protobuf/util/json_util.h"

namespace fcrawl::coordinator {
namespace {

// A value in the exposition format: Prometheus spells the non-finite floats
// "NaN", "+Inf" and "-Inf"; whole numbers are written exactly (a counter of
// 12345678901 must not become 1.23456789e+10), others with 9 significant
// digits, plenty for rates and CPU seconds.
std::string MetricValue(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  if (v == std::trunc(v) && std::fabs(v) < 9007199254740992.0) {  // 2^53
    return absl::StrCat(static_cast<int64_t>(v));
  }
  return absl::StrFormat("%.9g", v);
}

std::string MetricValue(int64_t v) { return absl::StrCat(v); }

// A label value in the exposition format 0.0.4: backslash, double quote and
// line feed are the only characters that must be escaped.
std::string EscapeLabelValue(absl::string_view v) {
  std::string out;
  out.reserve(v.size());
  for (char c : v) {
    switch (c) {
      case '\\':
        out += "\\\\";
        break;
      case '"':
        out += "\\\"";
        break;
      case '\n':
        out += "\\n";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// Writes one metric family at a time: the # HELP and # TYPE lines, then its
// samples, so a family's samples are never split (the format requires them
// to be together).
class MetricsWriter {
 public:
  void Family(absl::string_view name, absl::string_view type,
              absl::string_view help) {
    name_ = std::string(name);
    // HELP texts are constants here; nothing in them needs escaping.
    absl::StrAppend(&out_, "# HELP ", name, " ", help, "\n# TYPE ", name, " ",
                    type, "\n");
  }
  template <typename T>
  void Sample(T value) {
    absl::StrAppend(&out_, name_, " ", MetricValue(value), "\n");
  }
  template <typename T>
  void Sample(absl::string_view label, absl::string_view label_value, T value) {
    absl::StrAppend(&out_, name_, "{", label, "=\"",
                    EscapeLabelValue(label_value), "\"} ", MetricValue(value),
                    "\n");
  }
  std::string Take() { return std::move(out_); }

 private:
  std::string out_;
  std::string name_;
};

double Ratio(int64_t num, int64_t den) {
  return den > 0 ? static_cast<double>(num) / static_cast<double>(den) : 0.0;
}

// A worker's name: the member's (what the view knows it by), else the name
// it reports in its stats.
const std::string& WorkerName(const proto::WorkerStatus& w) {
  return w.member().name().empty() ? w.stats().name() : w.member().name();
}

// A JSON number for the history; JSON has no NaN or infinity, so those (and
// an unlabelled harvest) become null.
std::string JsonNumber(double v) {
  if (!std::isfinite(v)) return "null";
  return absl::StrFormat("%.6g", v);
}

}  // namespace

void StatusHistory::Add(const StatusSample& s) {
  absl::MutexLock lock(&mu_);
  if (capacity_ == 0) return;
  while (samples_.size() >= capacity_) samples_.pop_front();
  samples_.push_back(s);
}

void StatusHistory::Clear() {
  absl::MutexLock lock(&mu_);
  samples_.clear();
}

std::vector<StatusSample> StatusHistory::Snapshot() const {
  absl::MutexLock lock(&mu_);
  return std::vector<StatusSample>(samples_.begin(), samples_.end());
}

StatusSample SampleOf(const proto::StatusResponse& status) {
  StatusSample s;
  s.seconds = status.elapsed_seconds();
  s.pages = status.pages_fetched();
  s.pages_per_second = status.pages_per_second();
  s.harvest = Ratio(status.on_topic(), status.pages_fetched());
  s.labelled_harvest = status.labelled() ? Ratio(status.labelled_on_topic(),
                                                 status.pages_fetched())
                                         : -1.0;
  // The owners of the current view: draining workers have left it.
  s.workers = status.view().members_size();
  s.queued = status.queued();
  return s;
}

std::string RenderMetrics(const proto::StatusResponse& status) {
  MetricsWriter m;

  m.Family("fcrawl_pages_fetched_total", "counter",
           "Pages fetched by all workers (a redirect chain counts once).");
  m.Sample(status.pages_fetched());

  m.Family("fcrawl_on_topic_pages_total", "counter",
           "Fetched pages the crawl judged on the topic.");
  m.Sample(status.on_topic());

  if (status.labelled()) {
    m.Family("fcrawl_labelled_on_topic_pages_total", "counter",
             "Fetched pages among the URLs labelled on topic.");
    m.Sample(status.labelled_on_topic());
  }

  // Errors by kind, sorted for a stable output. Errors a worker counted
  // without a kind show as kind="other", so the series sum to the total.
  m.Family("fcrawl_errors_total", "counter",
           "Failed fetches by kind (http_4xx, timeout, ...).");
  std::map<std::string, int64_t> kinds(status.errors_by_kind().begin(),
                                       status.errors_by_kind().end());
  int64_t by_kind = 0;
  for (const auto& [kind, n] : kinds) by_kind += n;
  if (status.errors() > by_kind) kinds["other"] += status.errors() - by_kind;
  for (const auto& [kind, n] : kinds) m.Sample("kind", kind, n);

  // URLs not fetched, by reason (robots, strategy, host unreachable,
  // out-of-scope links), sorted.
  m.Family("fcrawl_skipped_urls_total", "counter",
           "URLs not fetched, by reason.");
  for (const auto& [reason, n] : std::map<std::string, int64_t>(
           status.skipped().begin(), status.skipped().end())) {
    m.Sample("reason", reason, n);
  }

  // URLs by what became of them (cluster/outcomes.h), in the message's
  // order: one series per class, zeros too, so every class has a series
  // from the start and rate() sees it begin.
  m.Family("fcrawl_fetch_outcomes_total", "counter",
           "URLs the workers set out to fetch, by what became of them "
           "(on_topic, not_found, robots, ...).");
  for (const auto& [outcome, n] :
       cluster::OutcomeClasses(status.fetch_outcomes())) {
    m.Sample("outcome", outcome, n);
  }
  m.Family("fcrawl_on_topic_hosts", "gauge",
           "Hosts with at least one page judged on the topic.");
  m.Sample(status.fetch_outcomes().on_topic_hosts());

  m.Family("fcrawl_pages_per_second", "gauge",
           "Pages fetched per second over the last few seconds.");
  m.Sample(status.pages_per_second());

  m.Family("fcrawl_queue_urls", "gauge", "URLs in the workers' frontiers.");
  m.Sample(status.queued());

  m.Family("fcrawl_workers", "gauge", "Workers in the current view.");
  m.Sample(static_cast<int64_t>(status.view().members_size()));

  m.Family("fcrawl_harvest_rate", "gauge",
           "Pages judged on the topic / pages fetched.");
  m.Sample(Ratio(status.on_topic(), status.pages_fetched()));

  if (status.labelled()) {
    m.Family("fcrawl_labelled_harvest_rate", "gauge",
             "Pages labelled on topic / pages fetched.");
    m.Sample(Ratio(status.labelled_on_topic(), status.pages_fetched()));
  }

  // One series per state, 1 for the current one: the usual way to expose an
  // enum, so alerts can select state="RUNNING".
  m.Family("fcrawl_crawl_state", "gauge",
           "1 for the crawl's current state, 0 for the others.");
  const google::protobuf::EnumDescriptor* states =
      proto::CrawlState_descriptor();
  for (int i = 0; i < states->value_count(); ++i) {
    const google::protobuf::EnumValueDescriptor* v = states->value(i);
    if (v->number() == proto::CRAWL_STATE_UNSPECIFIED) continue;
    m.Sample("state", v->name(),
             static_cast<int64_t>(v->number() == status.state() ? 1 : 0));
  }

  m.Family("fcrawl_quota_granted_total", "counter",
           "Page tokens handed out to workers.");
  m.Sample(status.quota_granted());

  m.Family("fcrawl_budget_pages", "gauge",
           "The crawl's page budget (max_pages).");
  m.Sample(status.budget());

  m.Family("fcrawl_links_routed_total", "counter",
           "Links the workers sent to their owners (acknowledged).");
  m.Sample(status.links_routed());

  m.Family("fcrawl_lesson_bytes_total", "counter",
           "Bytes of lessons the coordinator relayed, in from the workers "
           "and out to them.");
  m.Sample("direction", "in", status.lessons_in_bytes());
  m.Sample("direction", "out", status.lessons_out_bytes());

  m.Family("fcrawl_elapsed_seconds", "gauge",
           "Seconds since the crawl started.");
  m.Sample(status.elapsed_seconds());

  m.Family("fcrawl_coordinator_cpu_seconds_total", "counter",
           "CPU time of the coordinator process.");
  m.Sample(status.coordinator_cpu_seconds());

  // Per worker. Each family lists every worker before the next family
  // starts, as the format requires.
  const auto& workers = status.workers();
  struct PerWorker {
    const char* name;
    const char* type;
    const char* help;
    double (*value)(const proto::WorkerStatus&);
  };
  static const PerWorker kPerWorker[] = {
      {"fcrawl_worker_pages_fetched_total", "counter",
       "Pages fetched by the worker.",
       [](const proto::WorkerStatus& w) {
         return static_cast<double>(w.stats().pages_fetched());
       }},
      {"fcrawl_worker_queue_urls", "gauge", "URLs in the worker's frontier.",
       [](const proto::WorkerStatus& w) {
         return static_cast<double>(w.stats().queued());
       }},
      {"fcrawl_worker_hosts", "gauge", "Hosts in the worker's database.",
       [](const proto::WorkerStatus& w) {
         return static_cast<double>(w.stats().hosts_owned());
       }},
      {"fcrawl_worker_in_flight", "gauge", "The worker's transfers under way.",
       [](const proto::WorkerStatus& w) {
         return static_cast<double>(w.stats().in_flight());
       }},
      {"fcrawl_worker_errors_total", "counter", "The worker's failed fetches.",
       [](const proto::WorkerStatus& w) {
         return static_cast<double>(w.stats().errors());
       }},
      {"fcrawl_worker_cpu_seconds_total", "counter",
       "CPU time of the worker process.",
       [](const proto::WorkerStatus& w) { return w.stats().cpu_seconds(); }},
      {"fcrawl_worker_idle", "gauge",
       "1 when the worker has nothing to do, else 0.",
       [](const proto::WorkerStatus& w) { return w.idle() ? 1.0 : 0.0; }},
      {"fcrawl_worker_draining", "gauge",
       "1 when the worker was asked to leave, else 0.",
       [](const proto::WorkerStatus& w) { return w.draining() ? 1.0 : 0.0; }},
  };
  for (const PerWorker& f : kPerWorker) {
    m.Family(f.name, f.type, f.help);
    for (const proto::WorkerStatus& w : workers) {
      m.Sample("worker", WorkerName(w), f.value(w));
    }
  }
  return m.Take();
}

std::string RenderStatusJson(const proto::StatusResponse& status,
                             const std::vector<StatusSample>& history) {
  google::protobuf::util::JsonPrintOptions options;
  // Zeros and empty strings too, so the page never has to guess a default.
  options.always_print_primitive_fields = true;
  std::string status_json;
  if (!google::protobuf::util::MessageToJsonString(status, &status_json,
                                                   options)
           .ok()) {
    // Only an invalid UTF-8 string could get here, and proto3 parsing
    // already refused those; an empty object keeps the page alive.
    status_json = "{}";
  }
  std::string out = absl::StrCat("{\"status\":", status_json, ",\"history\":[");
  for (size_t i = 0; i < history.size(); ++i) {
    const StatusSample& s = history[i];
    absl::StrAppend(
        &out, i == 0 ? "" : ",", "{\"seconds\":", JsonNumber(s.seconds),
        ",\"pages\":", s.pages,
        ",\"pages_per_second\":", JsonNumber(s.pages_per_second),
        ",\"harvest\":", JsonNumber(s.harvest), ",\"labelled_harvest\":",
        s.labelled_harvest < 0 ? "null" : JsonNumber(s.labelled_harvest),
        ",\"workers\":", s.workers, ",\"queued\":", s.queued, "}");
  }
  out += "]}";
  return out;
}

const std::string& StatusPageHtml() {
  static const std::string* const kPage = new std::string(R"HTML(<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>fcrawl cluster status</title>
<style>
  :root { --fg: #1d2330; --muted: #667085; --line: #d9dee7; --bg: #f6f7f9;
          --card: #fff; --pps: #2563eb; --harvest: #d97706; --labelled: #059669; }
  * { box-sizing: border-box; }
  body { margin: 0; font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif;
         color: var(--fg); background: var(--bg); }
  header { display: flex; align-items: baseline; gap: 16px; padding: 14px 24px;
           background: #1d2330; color: #fff; }
  header h1 { margin: 0; font-size: 18px; font-weight: 600; }
  header .id { font-family: ui-monospace, monospace; font-size: 15px; color: #c7d2fe; }
  header .conn { margin-left: auto; font-size: 12px; color: #a5b4fc; }
  header .conn.bad { color: #fca5a5; }
  main { padding: 16px 24px; max-width: 1200px; }
  .cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(170px, 1fr));
           gap: 12px; }
  .card { background: var(--card); border: 1px solid var(--line); border-radius: 8px;
          padding: 10px 14px; }
  .card .k { color: var(--muted); font-size: 12px; text-transform: uppercase;
             letter-spacing: .04em; }
  .card .v { font-size: 22px; font-weight: 600; font-variant-numeric: tabular-nums; }
  .card .s { color: var(--muted); font-size: 12px; min-height: 1.4em; }
  .bar { height: 6px; background: var(--line); border-radius: 3px; margin-top: 6px;
         overflow: hidden; }
  .bar > div { height: 100%; background: var(--pps); width: 0; }
  .state-RUNNING { color: #2563eb; } .state-DONE { color: #059669; }
  .state-PAUSED, .state-STOPPING { color: #d97706; } .state-STOPPED { color: #dc2626; }
  .state-IDLE { color: var(--muted); }
  h2 { font-size: 15px; margin: 22px 0 8px; }
  .panel { background: var(--card); border: 1px solid var(--line); border-radius: 8px;
           padding: 8px; }
  svg { display: block; width: 100%; height: auto; }
  svg text { font: 11px system-ui, sans-serif; fill: var(--muted); }
  svg .title { font-size: 12px; font-weight: 600; fill: var(--fg); }
  svg .grid { stroke: #eef0f4; } svg .axis { stroke: #98a2b3; }
  svg .empty { font-size: 13px; }
  table { border-collapse: collapse; width: 100%; background: var(--card); }
  th, td { padding: 6px 10px; border-bottom: 1px solid var(--line); text-align: right;
           font-variant-numeric: tabular-nums; white-space: nowrap; }
  th { color: var(--muted); font-weight: 600; font-size: 12px; background: #fafbfc; }
  th:first-child, td:first-child, th:nth-child(2), td:nth-child(2),
  th:nth-child(7), td:nth-child(7) { text-align: left; }
  td.name { font-weight: 600; } td.addr { font-family: ui-monospace, monospace; font-size: 12px; }
  .tag { display: inline-block; padding: 0 6px; border-radius: 9px; font-size: 11px;
         background: #eef2ff; color: #3730a3; }
  .tag.idle { background: #ecfdf5; color: #065f46; }
  .tag.draining { background: #fff7ed; color: #9a3412; }
  .none { color: var(--muted); text-align: left !important; }
  form.search { display: flex; gap: 8px; }
  form.search input { flex: 1; font: inherit; padding: 7px 10px; border: 1px solid var(--line);
                      border-radius: 6px; }
  form.search button { font: inherit; padding: 7px 16px; border: 0; border-radius: 6px;
                       background: #1d2330; color: #fff; cursor: pointer; }
  #search-info { color: var(--muted); font-size: 12px; margin: 8px 0 4px; }
  ol.hits { margin: 0; padding-left: 24px; }
  ol.hits li { background: var(--card); border: 1px solid var(--line); border-radius: 8px;
               padding: 8px 12px; margin-bottom: 8px; }
  ol.hits .t { font-weight: 600; color: #1d4ed8; text-decoration: none; }
  ol.hits .u { font-family: ui-monospace, monospace; font-size: 12px; color: #067647; }
  ol.hits .m { color: var(--muted); font-size: 12px; }
  ol.hits .sn { margin-top: 3px; }
</style>
</head>
<body>
<header>
  <h1>fcrawl cluster</h1>
  <span class="id" id="crawl-id">no crawl</span>
  <span class="conn" id="conn">connecting…</span>
</header>
<main>
  <section class="cards">
    <div class="card"><div class="k">State</div><div class="v" id="state">–</div>
      <div class="s" id="stop-reason"></div></div>
    <div class="card"><div class="k">Pages</div><div class="v" id="pages">–</div>
      <div class="s" id="budget"></div><div class="bar"><div id="budget-bar"></div></div></div>
    <div class="card"><div class="k">Pages/s</div><div class="v" id="pps">–</div>
      <div class="s" id="elapsed"></div></div>
    <div class="card"><div class="k">Harvest rate</div><div class="v" id="harvest">–</div>
      <div class="s" id="labelled"></div></div>
    <div class="card"><div class="k">Queue</div><div class="v" id="queue">–</div>
      <div class="s">URLs in the frontiers</div></div>
    <div class="card"><div class="k">Workers</div><div class="v" id="nworkers">–</div>
      <div class="s" id="view"></div></div>
    <div class="card"><div class="k">Errors</div><div class="v" id="errors">–</div>
      <div class="s" id="error-kinds"></div></div>
    <div class="card"><div class="k">Not fetched</div><div class="v" id="skipped">–</div>
      <div class="s" id="skip-reasons"></div></div>
    <div class="card"><div class="k">Fetch outcomes</div><div class="v" id="outcomes">–</div>
      <div class="s" id="outcome-shares"></div></div>
    <div class="card"><div class="k">On-topic hosts</div><div class="v" id="on-topic-hosts">–</div>
      <div class="s">hosts with a page on the topic</div></div>
  </section>

  <h2>Throughput and harvest rate over time</h2>
  <div class="panel" id="chart"></div>

  <h2>Workers</h2>
  <table>
    <thead><tr><th>Name</th><th>Address</th><th>Hosts</th><th>Pages</th><th>Queue</th>
      <th>In flight</th><th>Activity</th><th>Lease left</th></tr></thead>
    <tbody id="workers"></tbody>
  </table>

  <h2>Folders that keep failing</h2>
  <table>
    <thead><tr><th>Folder</th><th>Fetches</th><th>Pages</th><th>Failed</th>
      <th>P(page) of a new link</th><th>Worker</th></tr></thead>
    <tbody id="dead-folders"></tbody>
  </table>
  <div class="s">Where fetches gave no page to read (404s, errors, files that are no
    page), as the <code>learned</code> strategy counts them; a link into such a folder
    scores that much less. <code>worker list-outcomes</code> lists every folder.</div>

  <h2>Search the crawl</h2>
  <form class="search" id="search-form">
    <input id="q" name="q" type="search" placeholder="words, &quot;a phrase&quot;, title:word"
           aria-label="search the crawled pages">
    <button type="submit">Search</button>
  </form>
  <div id="search-info">BM25 over the pages' titles, anchors and main content, plus their
    block-level rank and the crawl's on-topic score.</div>
  <ol class="hits" id="hits"></ol>
</main>
<script>
"use strict";
(function () {
  var SVG = "http://www.w3.org/2000/svg";
  var STATES = ["IDLE", "RUNNING", "PAUSED", "STOPPING", "STOPPED", "DONE"];
  var DATA_URL = "status.json";
  // A cluster with a token: the data needs "Authorization: Bearer <token>".
  // The page asks for the token once a request is refused and keeps it
  // for this tab only (sessionStorage), never in the URL.
  var TOKEN_KEY = "fcrawl-token";
  function authHeaders() {
    var t = window.sessionStorage && sessionStorage.getItem(TOKEN_KEY);
    return t ? {"Authorization": "Bearer " + t} : {};
  }

  function $(id) { return document.getElementById(id); }
  function setText(id, s) { $(id).textContent = s; }
  // proto3 JSON writes 64-bit integers as strings.
  function num(v) { var n = Number(v); return isFinite(n) ? n : 0; }
  function fmtInt(n) { return Math.round(num(n)).toLocaleString("en-US"); }
  function fmtPct(x) { return (100 * x).toFixed(1) + "%"; }
  function fmtDuration(s) {
    s = Math.max(0, Math.floor(num(s)));
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
    function two(x) { return (x < 10 ? "0" : "") + x; }
    return h > 0 ? h + ":" + two(m) + ":" + two(r) : m + ":" + two(r);
  }

  function el(tag, attrs, text) {
    var e = document.createElementNS(SVG, tag);
    for (var k in attrs) e.setAttribute(k, String(attrs[k]));
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // Round step for about `count` ticks over `span`: 1, 2 or 5 times 10^k.
  function niceStep(span, count) {
    var raw = span / Math.max(1, count);
    var p = Math.pow(10, Math.floor(Math.log10(raw)));
    var f = raw / p;
    return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p;
  }
  function timeStep(span) {
    var steps = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600,
                 7200, 14400, 21600, 43200, 86400];
    for (var i = 0; i < steps.length; i++) if (span / steps[i] <= 8) return steps[i];
    return niceStep(span, 8);
  }
  function fmtTick(v, step) {
    var d = step >= 1 ? 0 : Math.min(6, Math.ceil(-Math.log10(step)));
    return v.toFixed(d);
  }

  // At most `max` points, evenly spread, first and last kept: a chart of
  // 3600 samples draws no more points than it has pixels.
  function thin(points, max) {
    if (points.length <= max) return points;
    var out = [], step = (points.length - 1) / (max - 1);
    for (var i = 0; i < max; i++) out.push(points[Math.round(i * step)]);
    return out;
  }

  // One panel: series = [{name, color, dash, values: [[t, y], ...]}];
  // y from 0 to the largest value (at least yMin), with ticks and labels.
  function panel(svg, top, height, x0, x1, width, title, yLabel, series, yMin, yFmt) {
    var left = 64, right = 16, plotW = width - left - right;
    var plotTop = top + 22, plotH = height - 22 - 30;
    var ymax = yMin;
    series.forEach(function (s) {
      s.values.forEach(function (p) { if (p[1] > ymax) ymax = p[1]; });
    });
    ymax *= 1.05;  // headroom: the highest point does not touch the top
    var ystep = niceStep(ymax, 4);
    ymax = Math.ceil(ymax / ystep - 1e-9) * ystep;
    function X(t) { return left + (t - x0) / (x1 - x0) * plotW; }
    function Y(v) { return plotTop + plotH - v / ymax * plotH; }

    svg.appendChild(el("text", {x: left, y: top + 14, "class": "title"}, title));
    // Legend in the title row, after the title; text widths are estimated
    // (about 6.5 px a character at 11 px), so entries never overlap.
    var lx = left + 140;
    series.forEach(function (s) {
      svg.appendChild(el("line", {x1: lx, x2: lx + 22, y1: top + 10, y2: top + 10,
        stroke: s.color, "stroke-width": 2.5, "stroke-dasharray": s.dash || "none"}));
      svg.appendChild(el("text", {x: lx + 28, y: top + 14}, s.name));
      lx += 28 + 6.5 * s.name.length + 24;
    });
    // Y grid, ticks and labels.
    for (var v = 0; v <= ymax + ystep / 2; v += ystep) {
      var y = Y(v);
      svg.appendChild(el("line", {x1: left, x2: left + plotW, y1: y, y2: y, "class": "grid"}));
      svg.appendChild(el("line", {x1: left - 4, x2: left, y1: y, y2: y, "class": "axis"}));
      svg.appendChild(el("text", {x: left - 7, y: y + 4, "text-anchor": "end"}, yFmt(v, ystep)));
    }
    var yl = el("text", {x: 12, y: plotTop + plotH / 2, "text-anchor": "middle",
      transform: "rotate(-90 12 " + (plotTop + plotH / 2) + ")"}, yLabel);
    svg.appendChild(yl);
    // X ticks (time since the crawl started).
    var tstep = timeStep(x1 - x0);
    for (var t = Math.ceil(x0 / tstep) * tstep; t <= x1 + 1e-9; t += tstep) {
      var x = X(t);
      svg.appendChild(el("line", {x1: x, x2: x, y1: plotTop + plotH, y2: plotTop + plotH + 4,
        "class": "axis"}));
      svg.appendChild(el("text", {x: x, y: plotTop + plotH + 16, "text-anchor": "middle"},
        fmtDuration(t)));
    }
    svg.appendChild(el("line", {x1: left, x2: left, y1: plotTop, y2: plotTop + plotH,
      "class": "axis"}));
    svg.appendChild(el("line", {x1: left, x2: left + plotW, y1: plotTop + plotH,
      y2: plotTop + plotH, "class": "axis"}));
    // The series.
    series.forEach(function (s) {
      var pts = thin(s.values, Math.max(2, Math.floor(plotW)));
      if (pts.length === 1) {
        svg.appendChild(el("circle", {cx: X(pts[0][0]), cy: Y(pts[0][1]), r: 3,
          fill: s.color}));
      } else if (pts.length > 1) {
        var d = pts.map(function (p) {
          return X(p[0]).toFixed(1) + "," + Y(p[1]).toFixed(1);
        }).join(" ");
        svg.appendChild(el("polyline", {points: d, fill: "none", stroke: s.color,
          "stroke-width": 2, "stroke-linejoin": "round",
          "stroke-dasharray": s.dash || "none"}));
      }
    });
    return plotTop + plotH;
  }

  function drawChart(history) {
    var width = 1000, panelH = 200, gap = 20;
    var svg = el("svg", {viewBox: "0 0 " + width + " " + (2 * panelH + gap + 20),
      role: "img", "aria-label": "pages per second and harvest rate over time"});
    var h = Array.isArray(history) ? history : [];
    var t = h.map(function (s) { return num(s.seconds); });
    var x0 = t.length ? t[0] : 0, x1 = t.length ? t[t.length - 1] : 60;
    if (!(x1 > x0)) x1 = x0 + 60;
    var pps = h.map(function (s, i) { return [t[i], num(s.pages_per_second)]; });
    var harvest = h.map(function (s, i) { return [t[i], 100 * num(s.harvest)]; });
    var labelled = [];
    h.forEach(function (s, i) {
      if (s.labelled_harvest !== null && s.labelled_harvest !== undefined) {
        labelled.push([t[i], 100 * num(s.labelled_harvest)]);
      }
    });
    panel(svg, 0, panelH, x0, x1, width, "Throughput", "pages/s",
      [{name: "pages/s", color: "#2563eb", values: pps}], 1,
      function (v, step) { return fmtTick(v, step); });
    var hs = [{name: "harvest (relevance)", color: "#d97706", values: harvest}];
    if (labelled.length) {
      hs.push({name: "harvest (labelled)", color: "#059669", dash: "6 4", values: labelled});
    }
    panel(svg, panelH + gap, panelH, x0, x1, width, "Harvest rate", "% on topic", hs, 10,
      function (v, step) { return fmtTick(v, step) + "%"; });
    svg.appendChild(el("text", {x: width / 2, y: 2 * panelH + gap + 14,
      "text-anchor": "middle"}, "time since the crawl started"));
    if (!h.length) {
      svg.appendChild(el("text", {x: width / 2, y: panelH / 2 + 10, "text-anchor": "middle",
        "class": "empty"}, "no samples yet"));
    }
    var box = $("chart");
    while (box.firstChild) box.removeChild(box.firstChild);
    box.appendChild(svg);
  }

  function cell(tr, text, cls) {
    var td = document.createElement("td");
    td.textContent = text;
    if (cls) td.className = cls;
    tr.appendChild(td);
    return td;
  }

  function drawWorkers(workers) {
    var body = $("workers");
    while (body.firstChild) body.removeChild(body.firstChild);
    var list = (Array.isArray(workers) ? workers : []).slice();
    function name(w) {
      return String((w.member && w.member.name) || (w.stats && w.stats.name) || "");
    }
    list.sort(function (a, b) { return name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0; });
    if (!list.length) {
      var tr = document.createElement("tr");
      var td = cell(tr, "no workers registered", "none");
      td.colSpan = 8;
      body.appendChild(tr);
      return;
    }
    list.forEach(function (w) {
      var st = w.stats || {};
      var tr = document.createElement("tr");
      cell(tr, name(w), "name");
      cell(tr, String((w.member && w.member.address) || ""), "addr");
      cell(tr, fmtInt(st.hostsOwned));
      cell(tr, fmtInt(st.pagesFetched));
      cell(tr, fmtInt(st.queued));
      cell(tr, fmtInt(st.inFlight));
      var act = document.createElement("td");
      var tag = document.createElement("span");
      tag.className = "tag" + (w.draining ? " draining" : w.idle ? " idle" : "");
      tag.textContent = w.draining ? "draining" : w.idle ? "idle" : "working";
      act.appendChild(tag);
      tr.appendChild(act);
      cell(tr, (num(w.leaseLeftMs) / 1000).toFixed(1) + " s");
      body.appendChild(tr);
    });
  }

  function drawDeadFolders(folders) {
    var body = $("dead-folders");
    while (body.firstChild) body.removeChild(body.firstChild);
    var list = Array.isArray(folders) ? folders : [];
    if (!list.length) {
      var tr = document.createElement("tr");
      var td = cell(tr, "none (or the strategy does not count fetch outcomes)", "none");
      td.colSpan = 6;
      body.appendChild(tr);
      return;
    }
    list.forEach(function (f) {
      var tr = document.createElement("tr");
      cell(tr, String(f.folder || ""), "name");
      cell(tr, fmtInt(f.fetches));
      cell(tr, fmtInt(f.pages));
      cell(tr, fmtInt(num(f.fetches) - num(f.pages)));
      cell(tr, num(f.pageProbability).toFixed(2));
      cell(tr, String(f.worker || ""), "addr");
      body.appendChild(tr);
    });
  }

  function draw(data) {
    var s = (data && data.status) || {};
    var state = String(s.state || "IDLE");
    setText("crawl-id", s.crawlId ? String(s.crawlId) : "no crawl");
    var stateEl = $("state");
    stateEl.textContent = state;
    stateEl.className = "v" + (STATES.indexOf(state) >= 0 ? " state-" + state : "");
    setText("stop-reason", s.stopReason ? "stop reason: " + String(s.stopReason) : "");
    var pages = num(s.pagesFetched), budget = num(s.budget);
    setText("pages", fmtInt(pages));
    setText("budget", budget > 0 ? "of a budget of " + fmtInt(budget) : "no budget set");
    $("budget-bar").style.width = (budget > 0 ? Math.min(100, 100 * pages / budget) : 0) + "%";
    setText("pps", num(s.pagesPerSecond).toFixed(1));
    setText("elapsed", "elapsed " + fmtDuration(s.elapsedSeconds));
    setText("harvest", pages > 0 ? fmtPct(num(s.onTopic) / pages) : "–");
    setText("labelled", s.labelled
      ? "labelled " + (pages > 0 ? fmtPct(num(s.labelledOnTopic) / pages) : "–")
      : "judged on topic by the crawl");
    setText("queue", fmtInt(s.queued));
    var members = (s.view && Array.isArray(s.view.members)) ? s.view.members.length : 0;
    setText("nworkers", String(members));
    setText("view", "view " + num(s.view && s.view.version) + ", settled " + num(s.settledVersion));
    setText("errors", fmtInt(s.errors));
    var kinds = s.errorsByKind || {};
    var parts = Object.keys(kinds).sort(function (a, b) { return num(kinds[b]) - num(kinds[a]); })
      .slice(0, 4).map(function (k) { return k + " " + fmtInt(kinds[k]); });
    setText("error-kinds", parts.join(", "));
    var skipped = s.skipped || {}, total = 0;
    Object.keys(skipped).forEach(function (k) { total += num(skipped[k]); });
    setText("skipped", fmtInt(total));
    setText("skip-reasons", Object.keys(skipped)
      .sort(function (a, b) { return num(skipped[b]) - num(skipped[a]); })
      .map(function (k) { return k + " " + fmtInt(skipped[k]); }).join(", ") || "none");
    // What became of the URLs set out to fetch: every class the status
    // carries (fetchOutcomes' fields but the hosts), largest share first.
    var fo = s.fetchOutcomes || {}, counted = 0;
    var classes = Object.keys(fo).filter(function (k) { return k !== "onTopicHosts"; });
    classes.forEach(function (k) { counted += num(fo[k]); });
    setText("outcomes", fmtInt(counted));
    setText("outcome-shares", counted > 0 ? classes
      .filter(function (k) { return num(fo[k]) > 0; })
      .sort(function (a, b) { return num(fo[b]) - num(fo[a]); })
      .map(function (k) {
        return k.replace(/[A-Z]/g, function (c) { return " " + c.toLowerCase(); }) +
          " " + fmtPct(num(fo[k]) / counted);
      }).join(", ") : "none yet");
    setText("on-topic-hosts", fmtInt(fo.onTopicHosts));
    document.title = "fcrawl " + state + " " + fmtInt(pages) + " pages";
    drawWorkers(s.workers);
    drawDeadFolders(s.deadFolders);
    drawChart(data && data.history);
  }

  function poll() {
    var started = Date.now();
    fetch(DATA_URL, {cache: "no-store", headers: authHeaders()}).then(function (r) {
      if (r.status === 401 && window.sessionStorage) {
        var t = window.prompt("This cluster needs its token:");
        if (t) sessionStorage.setItem(TOKEN_KEY, t.trim());
      }
      if (!r.ok) throw new Error("HTTP " + r.status);
      return r.json();
    }).then(function (data) {
      draw(data);
      var c = $("conn");
      c.className = "conn";
      c.textContent = "updated " + new Date().toLocaleTimeString();
    }).catch(function (e) {
      var c = $("conn");
      c.className = "conn bad";
      c.textContent = "cannot load status: " + String(e && e.message || e);
    }).then(function () {
      setTimeout(poll, Math.max(100, 1000 - (Date.now() - started)));
    });
  }

  // Search: /search.json answers from the index the coordinator was given
  // (--search_index); everything it says goes into the page as text.
  function search(q) {
    var info = $("search-info"), list = $("hits");
    while (list.firstChild) list.removeChild(list.firstChild);
    info.textContent = "searching…";
    fetch("search.json?limit=10&q=" + encodeURIComponent(q),
          {cache: "no-store", headers: authHeaders()}).then(function (r) {
      return r.json().then(function (body) { return {ok: r.ok, body: body}; });
    }).then(function (a) {
      if (!a.ok) { info.textContent = String(a.body.error || "search failed"); return; }
      var hits = a.body.hits || [];
      info.textContent = fmtInt(a.body.matches) + " pages match \u201c" + q + "\u201d";
      hits.forEach(function (h) {
        var li = document.createElement("li");
        var t = document.createElement("a");
        t.className = "t";
        t.textContent = String(h.title || h.url);
        if (/^https?:\/\//i.test(String(h.url))) t.href = String(h.url);
        li.appendChild(t);
        var u = document.createElement("div");
        u.className = "u";
        u.textContent = String(h.url);
        li.appendChild(u);
        var m = document.createElement("div");
        m.className = "m";
        m.textContent = "weight " + num(h.weight).toFixed(2) +
          (h.rank !== null && h.rank !== undefined ? " · block rank #" + fmtInt(h.rank) : "") +
          (h.on_topic ? " · on topic" : "") + (num(h.media) > 0 ? " · " + fmtInt(h.media) + " media" : "");
        li.appendChild(m);
        // The snippet is text; each match sits between U+0002 and U+0003
        // and becomes a <b> element (no markup is parsed).
        var sn = document.createElement("div");
        sn.className = "sn";
        String(h.snippet || "").split("\u0002").forEach(function (part, i) {
          var end = part.indexOf("\u0003");
          if (i > 0 && end >= 0) {
            var b = document.createElement("b");
            b.textContent = part.slice(0, end);
            sn.appendChild(b);
            part = part.slice(end + 1);
          }
          sn.appendChild(document.createTextNode(part));
        });
        li.appendChild(sn);
        list.appendChild(li);
      });
    }).catch(function (e) {
      info.textContent = "cannot search: " + String(e && e.message || e);
    });
  }
  $("search-form").addEventListener("submit", function (e) {
    e.preventDefault();
    var q = $("q").value.trim();
    if (q) {
      history.replaceState(null, "", "?q=" + encodeURIComponent(q));
      search(q);
    }
  });
  // The one thing read from the page's URL: the query (never the token).
  var initial = new URLSearchParams(window.location.search).get("q");
  if (initial) { $("q").value = initial; search(initial); }

  drawChart([]);
  drawWorkers([]);
  poll();
})();
</script>
</body>
</html>
)HTML");
  return *kPage;
}

}  // namespace fcrawl::coordinator
