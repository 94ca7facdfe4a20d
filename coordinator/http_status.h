// The coordinator's HTTP side (docs/design.md "Components": status page and
// metrics): Prometheus text for /metrics, JSON for /status.json and the
// /status page that draws the crawl live from it. Pure functions of a
// StatusResponse (and the sampled history), so they are tested without a
// cluster; coordinator_main serves them with cpp-httplib.
//
// Thread-safety: the functions are pure; StatusHistory is internally
// synchronised.
#ifndef FCRAWL_COORDINATOR_HTTP_STATUS_H_
#define FCRAWL_COORDINATOR_HTTP_STATUS_H_

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "proto/cluster.pb.h"

namespace fcrawl::coordinator {

// One point of the crawl's history (one per second while a crawl runs).
struct StatusSample {
  double seconds = 0;  // since the crawl started
  int64_t pages = 0;   // fetched so far, all workers
  double pages_per_second = 0;
  double harvest = 0;            // on_topic / pages (relevance threshold)
  double labelled_harvest = -1;  // labelled_on_topic / pages; -1 unlabelled
  int workers = 0;
  int64_t queued = 0;
};

// The last `capacity` samples.
class StatusHistory {
 public:
  explicit StatusHistory(size_t capacity = 3600) : capacity_(capacity) {}
  void Add(const StatusSample& s) ABSL_LOCKS_EXCLUDED(mu_);
  void Clear() ABSL_LOCKS_EXCLUDED(mu_);
  std::vector<StatusSample> Snapshot() const ABSL_LOCKS_EXCLUDED(mu_);

 private:
  const size_t capacity_;
  mutable absl::Mutex mu_;
  std::deque<StatusSample> samples_ ABSL_GUARDED_BY(mu_);
};

// The sample a status snapshot gives.
StatusSample SampleOf(const proto::StatusResponse& status);

// Prometheus text exposition format 0.0.4 (serve it as
// "text/plain; version=0.0.4"): fcrawl_pages_fetched_total,
// fcrawl_on_topic_pages_total, fcrawl_errors_total{kind=...} (errors a
// worker counted without a kind as kind="other", so the series sum to the
// total), fcrawl_fetch_outcomes_total{outcome=...} (one series per class
// of proto::FetchOutcomeCounts, zeros too) and fcrawl_on_topic_hosts,
// fcrawl_pages_per_second, fcrawl_queue_urls, fcrawl_workers (the
// members of the current view), fcrawl_harvest_rate (and
// fcrawl_labelled_harvest_rate and fcrawl_labelled_on_topic_pages_total when
// labels were given), fcrawl_crawl_state{state=...} (1 for the current
// state, 0 for the others), fcrawl_quota_granted_total,
// fcrawl_budget_pages, fcrawl_links_routed_total, fcrawl_lesson_bytes_total
// {direction}, fcrawl_elapsed_seconds,
// fcrawl_coordinator_cpu_seconds_total, and per worker
// fcrawl_worker_pages_fetched_total{worker=...}, _queue_urls, _hosts,
// _in_flight, _errors_total, _cpu_seconds_total, _idle, _draining. Every
// family has # HELP and # TYPE lines; counters end in _total. Label values
// are escaped (backslash, quote, newline). tests/prometheus_check.py checks
// the output with prometheus_client's parser.
std::string RenderMetrics(const proto::StatusResponse& status);

// {"status": <StatusResponse as proto3 JSON: lowerCamelCase names, default
// values printed, 64-bit integers as strings>, "history": [{"seconds",
// "pages", "pages_per_second", "harvest", "labelled_harvest" (null when
// unlabelled), "workers", "queued"}, ...]}. Non-finite numbers become null.
std::string RenderStatusJson(const proto::StatusResponse& status,
                             const std::vector<StatusSample>& history);

// The /status page (coordinator/status_page.html, embedded at build time):
// self-contained HTML + JS (no external resources) that polls status.json
// (relative; with a cluster token, sent in the Authorization header: the
// page asks for the token when a request is refused and keeps it in
// sessionStorage) every second and shows the crawl state, the fetch
// outcomes (each class's share) and the on-topic hosts, the workers (hosts,
// pages, queue, idle/draining), the folders whose fetches keep failing and
// throughput and harvest rate over time as two SVG charts. Data reaches the
// DOM as text only (textContent), never as markup.
const std::string& StatusPageHtml();

}  // namespace fcrawl::coordinator

#endif  // FCRAWL_COORDINATOR_HTTP_STATUS_H_
