// What crawlctl prints (crawlctl.h): the progress line, the summary, the
// scale and export reports, and the small formatting they share (tables,
// percentages, durations, strings made safe for a terminal). The commands
// that fetch what is printed are crawlctl.cc.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/string_view.h"
#include "cluster/outcomes.h"
#include "crawlctl/crawlctl.h"
#include "proto/cluster.pb.h"

namespace fcrawl::crawlctl {

namespace {

double Ratio(int64_t num, int64_t den) {
  return den > 0 ? static_cast<double>(num) / static_cast<double>(den) : 0.0;
}

std::string Percent(double ratio) {
  return absl::StrFormat("%.1f%%", 100 * ratio);
}

// "45.0 s", "3m 05s", "2h 03m 04s".
std::string Duration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) seconds = 0;
  if (seconds < 60) return absl::StrFormat("%.1f s", seconds);
  const int64_t s = static_cast<int64_t>(seconds);
  if (s < 3600) return absl::StrFormat("%dm %02ds", s / 60, s % 60);
  return absl::StrFormat("%dh %02dm %02ds", s / 3600, (s % 3600) / 60, s % 60);
}

const std::string& WorkerName(const proto::WorkerStatus& w) {
  return w.member().name().empty() ? w.stats().name() : w.member().name();
}

// Columns two spaces apart, no trailing blanks; the first left-aligned, the
// others right-aligned when `numbers` (else left-aligned too).
std::string Table(const std::vector<std::vector<std::string>>& rows,
                  bool numbers) {
  std::vector<size_t> width;
  for (const auto& row : rows) {
    if (width.size() < row.size()) width.resize(row.size(), 0);
    for (size_t i = 0; i < row.size(); ++i) {
      width[i] = std::max(width[i], row[i].size());
    }
  }
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      const std::string pad(width[i] - row[i].size(), ' ');
      if (i == 0) {
        absl::StrAppend(&line, row[i], pad);
      } else if (!numbers) {
        absl::StrAppend(&line, "  ", row[i], pad);
      } else {
        absl::StrAppend(&line, "  ", pad, row[i]);
      }
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    absl::StrAppend(&out, line, "\n");
  }
  return out;
}

}  // namespace

std::string Printable(absl::string_view s) {
  std::string out(s);
  for (char& c : out) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) c = '?';
  }
  return out;
}

std::string StateName(proto::CrawlState state) {
  if (state == proto::CRAWL_STATE_UNSPECIFIED) return "UNSPECIFIED";
  if (proto::CrawlState_IsValid(state)) return proto::CrawlState_Name(state);
  return absl::StrCat("UNKNOWN(", static_cast<int>(state), ")");
}

std::string ProgressLine(const proto::StatusResponse& s) {
  std::string line = absl::StrCat("pages ", s.pages_fetched());
  if (s.budget() > 0) absl::StrAppend(&line, "/", s.budget());
  absl::StrAppend(&line, "  ", absl::StrFormat("%.1f", s.pages_per_second()),
                  " pages/s  harvest ",
                  Percent(Ratio(s.on_topic(), s.pages_fetched())));
  if (s.labelled()) {
    absl::StrAppend(&line, " (labelled ",
                    Percent(Ratio(s.labelled_on_topic(), s.pages_fetched())),
                    ")");
  }
  absl::StrAppend(&line, "  workers ", s.view().members_size(), "  queue ",
                  s.queued(), "  state ", StateName(s.state()));
  std::vector<std::string> paused;
  for (const proto::WorkerStatus& w : s.workers()) {
    if (!w.stats().paused().empty()) paused.push_back(Printable(WorkerName(w)));
  }
  if (!paused.empty()) {
    std::sort(paused.begin(), paused.end());
    absl::StrAppend(&line, "  paused ", absl::StrJoin(paused, ", "));
  }
  return line;
}

std::string Summary(const proto::StatusResponse& s) {
  std::vector<std::vector<std::string>> head;
  auto row = [&head](std::string key, std::string value) {
    head.push_back({std::move(key), std::move(value)});
  };
  row("crawl",
      s.crawl_id().empty() ? "(none started)" : Printable(s.crawl_id()));
  std::string state = StateName(s.state());
  if (!s.stop_reason().empty()) {
    absl::StrAppend(&state, " (", Printable(s.stop_reason()), ")");
  }
  row("state", state);
  row("pages", s.budget() > 0 ? absl::StrCat(s.pages_fetched(),
                                             " of a budget of ", s.budget())
                              : absl::StrCat(s.pages_fetched()));
  row("on topic",
      absl::StrCat(s.on_topic(), " (harvest ",
                   Percent(Ratio(s.on_topic(), s.pages_fetched())), ", ",
                   s.fetch_outcomes().on_topic_hosts(), " hosts)"));
  if (s.labelled()) {
    row("labelled",
        absl::StrCat(s.labelled_on_topic(), " on topic (harvest ",
                     Percent(Ratio(s.labelled_on_topic(), s.pages_fetched())),
                     ")"));
  }
  // Errors by kind, most frequent first; errors counted without a kind
  // show as "other", as in /metrics.
  std::map<std::string, int64_t> kinds(s.errors_by_kind().begin(),
                                       s.errors_by_kind().end());
  int64_t by_kind = 0;
  for (const auto& [k, n] : kinds) by_kind += n;
  if (s.errors() > by_kind) kinds["other"] += s.errors() - by_kind;
  std::vector<std::pair<std::string, int64_t>> sorted(kinds.begin(),
                                                      kinds.end());
  std::stable_sort(
      sorted.begin(), sorted.end(),
      [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string errors = absl::StrCat(std::max(s.errors(), by_kind));
  if (!sorted.empty()) {
    std::vector<std::string> parts;
    for (const auto& [k, n] : sorted) {
      parts.push_back(absl::StrCat(Printable(k), " ", n));
    }
    absl::StrAppend(&errors, " (", absl::StrJoin(parts, ", "), ")");
  }
  row("errors", errors);
  // URLs not fetched, by reason, most frequent first.
  std::vector<std::pair<std::string, int64_t>> skipped(s.skipped().begin(),
                                                       s.skipped().end());
  std::sort(skipped.begin(), skipped.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  int64_t not_fetched = 0;
  std::vector<std::string> reasons;
  for (const auto& [reason, n] : skipped) {
    not_fetched += n;
    reasons.push_back(absl::StrCat(Printable(reason), " ", n));
  }
  row("skipped",
      reasons.empty()
          ? "0"
          : absl::StrCat(not_fetched, " (", absl::StrJoin(reasons, ", "), ")"));
  // What became of the URLs set out to fetch, every class in the
  // message's order (so two summaries read side by side), with its share.
  const std::vector<std::pair<std::string, int64_t>> outcomes =
      cluster::OutcomeClasses(s.fetch_outcomes());
  int64_t counted = 0;
  for (const auto& [outcome, n] : outcomes) counted += n;
  std::vector<std::string> shares;
  for (const auto& [outcome, n] : outcomes) {
    if (n == 0) continue;
    shares.push_back(absl::StrCat(absl::StrReplaceAll(outcome, {{"_", " "}}),
                                  " ", n, " (", Percent(Ratio(n, counted)),
                                  ")"));
  }
  row("outcomes", shares.empty() ? "0"
                                 : absl::StrCat(counted, ": ",
                                                absl::StrJoin(shares, ", ")));
  // Pages by HTTP status and by content type, largest first (shown when
  // the workers report them).
  for (const auto& [name, counts] :
       {std::pair<const char*,
                  const google::protobuf::Map<std::string, int64_t>*>{
            "statuses", &s.http_statuses()},
        {"types", &s.content_types()}}) {
    if (counts->empty()) continue;
    std::vector<std::pair<std::string, int64_t>> sorted(counts->begin(),
                                                        counts->end());
    std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
      return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    std::vector<std::string> parts;
    for (const auto& [key, n] : sorted) {
      parts.push_back(absl::StrCat(Printable(key), " ", n));
    }
    row(name, absl::StrJoin(parts, ", "));
  }
  row("elapsed", Duration(s.elapsed_seconds()));
  const double average =
      s.elapsed_seconds() > 0 ? s.pages_fetched() / s.elapsed_seconds() : 0;
  row("pages/s", absl::StrFormat("%.1f average", average));
  row("workers", absl::StrCat(s.view().members_size(), " in the view, ",
                              s.workers_size(), " reporting"));
  // Workers that start no fetch of their own accord, and why ("w1 paused:
  // disk full on /data: 3 MiB free ...").
  std::vector<std::string> paused;
  for (const proto::WorkerStatus& w : s.workers()) {
    if (w.stats().paused().empty()) continue;
    paused.push_back(absl::StrCat(Printable(WorkerName(w)), ": ",
                                  Printable(w.stats().paused())));
  }
  if (!paused.empty()) {
    std::sort(paused.begin(), paused.end());
    row("paused", absl::StrJoin(paused, "; "));
  }
  std::string out = Table(head, /*numbers=*/false);

  double workers_cpu = 0;
  if (s.workers_size() > 0) {
    std::vector<const proto::WorkerStatus*> workers;
    for (const proto::WorkerStatus& w : s.workers()) workers.push_back(&w);
    std::sort(workers.begin(), workers.end(), [](const auto* a, const auto* b) {
      return WorkerName(*a) < WorkerName(*b);
    });
    std::vector<std::vector<std::string>> rows = {
        {"worker", "pages", "hosts", "links routed", "links accepted",
         "hosts taken", "hosts handed over", "CPU s"}};
    for (const proto::WorkerStatus* w : workers) {
      const proto::WorkerStats& st = w->stats();
      workers_cpu += st.cpu_seconds();
      rows.push_back(
          {Printable(WorkerName(*w)), absl::StrCat(st.pages_fetched()),
           absl::StrCat(st.hosts_owned()), absl::StrCat(st.links_routed()),
           absl::StrCat(st.links_accepted()), absl::StrCat(st.hosts_taken()),
           absl::StrCat(st.hosts_handed_over()),
           absl::StrFormat("%.1f", st.cpu_seconds())});
    }
    absl::StrAppend(&out, "\n", Table(rows, /*numbers=*/true));
  }
  const double coordinator = s.coordinator_cpu_seconds();
  const double cluster = coordinator + workers_cpu;
  absl::StrAppend(&out, "\ncoordinator CPU ",
                  absl::StrFormat("%.2f s", coordinator));
  if (cluster > 0) {
    absl::StrAppend(
        &out, absl::StrFormat(" = %.1f%% of the cluster's %.2f s (coordinator "
                              "+ workers listed)",
                              100 * coordinator / cluster, cluster));
  }
  absl::StrAppend(&out, "\n");
  return out;
}

std::string ScaleReport(const proto::ScaleResponse& r) {
  std::string out = absl::StrCat("members ", r.members(), "\n");
  if (r.draining_size() == 0) {
    absl::StrAppend(&out, "draining none\n");
  } else {
    std::vector<std::string> names;
    for (const std::string& n : r.draining()) names.push_back(Printable(n));
    absl::StrAppend(&out, "draining ", r.draining_size(), " (",
                    absl::StrJoin(names, ", "), ")\n");
  }
  absl::StrAppend(&out, "missing ", r.missing(), "\n");
  if (r.missing() > 0) {
    absl::StrAppend(&out, "hint: start ", r.missing(), " more worker",
                    r.missing() == 1 ? "" : "s",
                    " with `deploy/cluster.sh add ", r.missing(), "`\n");
  }
  return out;
}

std::string ExportReport(const proto::ExportGraphResponse& r, bool corpus) {
  std::vector<const proto::WorkerExport*> workers;
  for (const proto::WorkerExport& w : r.workers()) workers.push_back(&w);
  std::sort(workers.begin(), workers.end(),
            [](const auto* a, const auto* b) { return a->name() < b->name(); });
  std::vector<std::vector<std::string>> rows = {
      {"worker", "pages", corpus ? "" : "links",
       corpus ? "folder or error" : "shards or error"}};
  std::vector<std::string> folders;
  int64_t pages = 0, links = 0;
  for (const proto::WorkerExport* w : workers) {
    const bool ok = w->error().empty();
    rows.push_back({Printable(w->name()), ok ? absl::StrCat(w->pages()) : "-",
                    corpus ? ""
                    : ok   ? absl::StrCat(w->links())
                           : "-",
                    Printable(ok ? w->out_dir() : w->error())});
    if (ok) {
      folders.push_back(Printable(w->out_dir()));
      pages += w->pages();
      links += w->links();
    }
  }
  std::string out = Table(rows, /*numbers=*/false);
  if (corpus) {
    absl::StrAppend(&out, "\nexported the corpus records of ", pages,
                    " pages from ", folders.size(), " of ", workers.size(),
                    " workers\n");
    if (!folders.empty()) {
      absl::StrAppend(&out, "merge and export with: worker corpus ",
                      absl::StrJoin(folders, " "), " --out corpus.jsonl\n");
    }
    return out;
  }
  absl::StrAppend(&out, "\nexported ", pages, " pages and ", links,
                  " links from ", folders.size(), " of ", workers.size(),
                  " workers\n");
  if (!folders.empty()) {
    absl::StrAppend(&out, "rank with: ranker run --out ranking.tsv ",
                    absl::StrJoin(folders, " "), "\n");
  }
  return out;
}

}  // namespace fcrawl::crawlctl
