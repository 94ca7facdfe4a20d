// The crawl loop's two doors to the cluster (docs/design.md "The cluster"):
// ClusterHooks, what the loop asks of the cluster member
// (worker/member/cluster_node.h implements it), and ClusterContext, what the
// loop offers the member while it services it. Apart from worker/crawler.h so
// that the loop's rooms (frontier, host scheduler, page committer, hand-over)
// see these and not the crawler that assembles them.
//
// Thread-safety: both are called only from the crawl thread.
#ifndef FCRAWL_WORKER_CLUSTER_HOOKS_H_
#define FCRAWL_WORKER_CLUSTER_HOOKS_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "focus/strategy.h"
#include "proto/link_state.pb.h"
#include "worker/fetch_outcomes.h"

namespace fcrawl::worker {

// What the crawl loop offers its cluster side (worker/member/cluster_node.h)
// while it runs: called only from the crawl thread, inside
// ClusterHooks::Service.
class ClusterContext {
 public:
  virtual ~ClusterContext() = default;
  // Merges routed links (QUEUED records) into the frontier: an unknown URL
  // is queued (a record of depth 0 without a parent is a seed and gets the
  // strategy's seed state), a queued one gets the merged strategy state and
  // the smaller depth, a settled one stays as it is. Out-of-scope or
  // malformed URLs are dropped. `link_contexts` is empty or holds, per
  // record, what the finder's strategy knew of the link
  // (focus::Strategy::LinkContext; untrusted). Committed when this returns
  // OK.
  virtual absl::Status AddLinks(
      const std::vector<proto::LinkRecord>& records,
      const std::vector<std::string>& link_contexts) = 0;
  // Merges a handed-over host: its records (a settled record replaces a
  // queued one; two queued ones merge), its host record (when this worker
  // has none) and its site state (the learned URL patterns).
  virtual absl::Status AddHost(const std::string& host,
                               const std::vector<proto::LinkRecord>& records,
                               const proto::HostRecord* host_record,
                               const std::string& site_state) = 0;
  // Ranking feedback: stores each rank (mean-1 scale) on the URL's record
  // and re-scores the queued ones with Strategy::WithRank. URLs this worker
  // does not know are skipped. Committed when this returns OK. `applied`
  // counts the records that got a rank, `requeued` the queued ones whose
  // frontier state changed.
  virtual absl::Status ApplyRanks(
      const std::vector<std::pair<std::string, double>>& ranks,
      int64_t* applied, int64_t* requeued) = 0;
  // Hosts with state in the database.
  virtual absl::StatusOr<std::vector<std::string>> Hosts() = 0;
  // A transfer, redirect hop, retry or parse of `host` is under way.
  virtual bool HostBusy(const std::string& host) = 0;
  // Reads a host's state for handing it over: its records, host record
  // (nullopt when none) and site state ("" when none).
  virtual absl::Status ReadHost(const std::string& host,
                                std::vector<proto::LinkRecord>* records,
                                std::optional<proto::HostRecord>* host_record,
                                std::string* site_state) = 0;
  // Forgets a host that was handed over (its fetched pages stay).
  virtual absl::Status DropHost(const std::string& host) = 0;
  // Ownership, quota or pause changed: every host is ranked again.
  virtual void RescheduleAll() = 0;
  // URLs in the frontier, transfers under way, pages fetched over all runs
  // of this output folder.
  virtual void Figures(int64_t* queued, int64_t* in_flight,
                       int64_t* pages_total) = 0;
  // The best score queued (to within 1/256), nullopt when nothing is.
  virtual std::optional<double> BestQueuedScore() = 0;
  // URLs not fetched in this run, by reason (HostScheduler::skipped).
  virtual std::map<std::string, int64_t> Skipped() = 0;
  // This run's URLs by what became of them (worker/fetch_outcomes.h).
  virtual FetchOutcomeCounts FetchOutcomes() = 0;
  // The folders in which fetches failed (focus::Strategy::DeadFolders).
  virtual std::vector<focus::FolderOutcome> DeadFolders() = 0;
  // Why this worker starts no fetch of its own accord ("disk full on
  // /data: 3 MiB free (budget.min_free_disk_mb 256)"), "" while it fetches.
  virtual std::string Paused() = 0;
  // The strategy's lessons (focus::Strategy::TakeLessons, LearnLessons):
  // what it learned from this worker's pages, and the other workers'.
  virtual std::string TakeLessons() = 0;
  virtual absl::Status LearnLessons(absl::string_view bytes) = 0;
  // The best queued scores with their counts (storage::LinkDb::TopQueued).
  virtual std::vector<std::pair<double, int64_t>> TopQueued(
      int64_t entries, size_t max_buckets) = 0;
};

// The crawl loop's view of the cluster (implemented by
// worker/member/cluster_node.h). Called only from the crawl thread.
class ClusterHooks {
 public:
  virtual ~ClusterHooks() = default;
  // URLs of `host` may be fetched now: this worker owns it and the host is
  // not moving between workers.
  virtual bool MayFetch(const std::string& host) = 0;
  // Links to `host` belong in this worker's frontier (else: Route).
  virtual bool Owns(const std::string& host) = 0;
  // A page of the global budget is available (TakePage will succeed).
  virtual bool HasPage() = 0;
  // Takes one page of the global budget for a URL about to be fetched.
  virtual void TakePage() = 0;
  // Gives it back: the URL was not fetched after all (robots.txt, scope).
  virtual void ReturnPage() = 0;
  // A link to a host another worker owns (a QUEUED record), with what this
  // worker's strategy knows of it (focus::Strategy::LinkContext, may be "").
  virtual void Route(proto::LinkRecord record, std::string link_context) = 0;
  // The links Route took since the last call, each as a serialized
  // proto::RoutedLink with the number it is stored under: the crawl
  // commits them with the page that routed them (storage/link_db.h's
  // outbox), so a worker killed before a link reached its owner sends it
  // again after its restart.
  virtual std::vector<std::pair<uint64_t, std::string>> RoutesToPersist() = 0;
  // Numbers of stored links their owners now have: the crawl erases them.
  virtual std::vector<uint64_t> TakeDelivered() = 0;
  // At the start of a run: the links stored and not delivered by an
  // earlier one, to send again.
  virtual void RestoreRoutes(
      std::vector<std::pair<uint64_t, std::string>> stored) = 0;
  // A URL's outcome: `fetched` when a request was made; `on_topic` the
  // page's on-topic decision (focus/page_judge.h; false when it was not
  // parsed); `error` "" when none.
  virtual void PageDone(const proto::LinkRecord& record, bool fetched,
                        bool on_topic, const std::string& error) = 0;
  // Each loop turn: apply what arrived, hand over what moved. `idle`: no
  // transfer or parse under way and nothing that may be fetched now.
  virtual absl::Status Service(ClusterContext& context, bool idle) = 0;
  // The cluster paused the crawl: no new transfers.
  virtual bool Paused() = 0;
  // The crawl is over for this worker (stopped, done, drained): Run()
  // returns with this reason; "" while it goes on.
  virtual std::string Finished() = 0;
};

}  // namespace fcrawl::worker

#endif  // FCRAWL_WORKER_CLUSTER_HOOKS_H_
