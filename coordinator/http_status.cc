#include "coordinator/http_status.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "cluster/outcomes.h"
#include "google/protobuf/util/json_util.h"

namespace fcrawl::embedded {
// coordinator/status_page.html, embedded at build time (CMakeLists.txt).
extern const char status_page_html[];
extern const unsigned long status_page_html_size;
}  // namespace fcrawl::embedded

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

  // Pages fetched by HTTP status and by content type (Heritrix's reports
  // of the same), sorted.
  m.Family("fcrawl_http_responses_total", "counter",
           "Pages fetched, by HTTP status (\"none\": no answer).");
  for (const auto& [code, n] : std::map<std::string, int64_t>(
           status.http_statuses().begin(), status.http_statuses().end())) {
    m.Sample("status", code, n);
  }
  m.Family("fcrawl_content_types_total", "counter",
           "Pages fetched, by the content type they came with.");
  for (const auto& [type, n] : std::map<std::string, int64_t>(
           status.content_types().begin(), status.content_types().end())) {
    m.Sample("type", type, n);
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

  m.Family("fcrawl_coordinator_memory_bytes", "gauge",
           "Resident memory of the coordinator process.");
  m.Sample(status.coordinator_memory_bytes());

  // The crawl's id as a label, for joining a crawl's series across
  // coordinator restarts and telling crawls apart (1 while one is known).
  if (!status.crawl_id().empty()) {
    m.Family("fcrawl_crawl_info", "gauge",
             "The crawl the coordinator runs or ran last, by its id.");
    m.Sample("crawl_id", status.crawl_id(), int64_t{1});
  }

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
      {"fcrawl_worker_fetched_bytes_total", "counter",
       "Body bytes of the pages the worker fetched.",
       [](const proto::WorkerStatus& w) {
         return static_cast<double>(w.stats().bytes_fetched());
       }},
      {"fcrawl_worker_memory_bytes", "gauge",
       "Resident memory of the worker process.",
       [](const proto::WorkerStatus& w) {
         return static_cast<double>(w.stats().memory_bytes());
       }},
      {"fcrawl_worker_idle", "gauge",
       "1 when the worker has nothing to do, else 0.",
       [](const proto::WorkerStatus& w) { return w.idle() ? 1.0 : 0.0; }},
      {"fcrawl_worker_draining", "gauge",
       "1 when the worker was asked to leave, else 0.",
       [](const proto::WorkerStatus& w) { return w.draining() ? 1.0 : 0.0; }},
      {"fcrawl_worker_paused", "gauge",
       "1 when the worker starts no fetch of its own accord (its disk is "
       "full), else 0.",
       [](const proto::WorkerStatus& w) {
         return w.stats().paused().empty() ? 0.0 : 1.0;
       }},
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
  static const std::string* const kPage = new std::string(
      embedded::status_page_html, embedded::status_page_html_size);
  return *kPage;
}

}  // namespace fcrawl::coordinator
