// The crawl's frontier rules on top of the link database (storage/link_db.h):
// how a URL enters the queue and how a new offer for a queued URL merges
// with it, whoever makes the offer (a seed, a fetched page's out-link, a
// link routed by the coordinator, a host handed over by another worker, the
// strategy's re-scores, the ranker's pushed ranks), and the pop of a host's
// best URL (docs/design.md "One page, from fetch to ranker", steps 1 and 8;
// "The cluster", hand-over and link routing).
//
// Owns: the set of URLs settled in this run (fetched, in flight or
// recorded: a status goes back to QUEUED within a run only when the
// strategy defers a popped URL (Defer), so links to them skip the database) and
// the sum of the queued URLs' scores (kept only when the strategy has a queue
// minimum, Hopfield's stop rule). Borrows the database, the strategy, the scope
// rules and the cluster hooks (nullptr for a crawl on its own), which must
// outlive it.
//
// Thread-safety: the crawl thread only (it is the database's one writer:
// every method reads records and commits a batch built from what it read).
//
// Errors: the database's; a malformed or out-of-scope URL offered is
// dropped, not an error.
#ifndef FCRAWL_WORKER_FRONTIER_H_
#define FCRAWL_WORKER_FRONTIER_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/hash/hash.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "focus/strategy.h"
#include "proto/link_state.pb.h"
#include "storage/link_db.h"
#include "worker/cluster_hooks.h"
#include "worker/crawl_task.h"
#include "worker/url_scope.h"

namespace fcrawl::worker {

// From the config (worker/crawl_setup.h's FrontierOptionsOf).
struct FrontierOptions {
  // The start pages QueueSeeds queues (formats::SeedUrlsOf).
  std::vector<std::string> seeds;
  int32_t max_depth;  // budget.max_depth; 0 = no limit
};

class Frontier {
 public:
  // Told of the host of every URL newly queued, with the URL's scheme (the
  // scheduler fetches the host's robots.txt with it).
  using HostSeen =
      std::function<void(const std::string& host, absl::string_view scheme)>;

  Frontier(FrontierOptions options, const UrlScope* scope, storage::LinkDb* db,
           focus::Strategy* strategy, ClusterHooks* cluster,
           HostSeen host_seen);

  // Reads the queued scores of a resumed crawl (only when the strategy has
  // a queue minimum).
  absl::Status Init();
  // Queues the seeds (options.seeds) that are not known yet, with the
  // strategy's seed state. For a crawl on its own; in a cluster the coordinator
  // routes the seeds.
  absl::Status QueueSeeds();

  // The best queued URL of `host`, moved to IN_FLIGHT (LinkDb::Pop);
  // nullopt when the host's queue is empty.
  absl::StatusOr<std::optional<proto::LinkRecord>> Pop(absl::string_view host);
  // `url` is known now and not queued (a redirect hop recorded IN_FLIGHT).
  void MarkSettled(const std::string& url);
  // `url` got the page of another URL (the canonical URL it declared,
  // protocol/canonical.h) and leaves the queue if `known` says it was queued
  // (the caller's batch writes its new record).
  void Adopt(const std::string& url,
             const std::optional<proto::LinkRecord>& known);
  // Puts a popped URL back into its host's queue with `score` (the strategy
  // deferred it, Admission::defer_score): QUEUED again, no longer settled.
  // Commits.
  absl::Status Defer(const proto::LinkRecord& popped, double score);

  // A fetched page's out-links in two steps around one database read (the
  // caller reads other records of the page in the same GetMany). First:
  // links to hosts other workers own are routed (cluster), links to URLs
  // settled in this run are dropped; the rest need their records read.
  std::vector<const OutLink*> LinksToLookUp(const proto::LinkRecord& parent,
                                            const std::vector<OutLink>& links,
                                            absl::Time now);
  // Then, with `known[i]` the stored record of `links[i]`: unknown URLs are
  // queued as children of `parent`, queued ones get the merged strategy
  // state and the smaller depth, into `batch`.
  void QueueLinks(const proto::LinkRecord& parent,
                  absl::Span<const OutLink* const> links,
                  absl::Span<const std::optional<proto::LinkRecord>> known,
                  absl::Time now, storage::LinkBatch* batch);

  // ClusterContext::AddLinks: links routed to this worker (and seeds, depth
  // 0 without a parent), with their link contexts (empty, or one per
  // record), which the strategy adopts for the links it queues; contexts
  // it refuses are logged on stderr (the first, then every 1,000th) and
  // the links queued without them. Commits.
  absl::Status AddRouted(const std::vector<proto::LinkRecord>& records,
                         const std::vector<std::string>& link_contexts = {});
  // ClusterContext::AddHost's records, host record and site state, merged
  // and committed.
  absl::Status AddHandedOver(const std::string& host,
                             const std::vector<proto::LinkRecord>& records,
                             const proto::HostRecord* host_record,
                             const std::string& site_state);
  // ClusterContext::ApplyRanks.
  absl::Status ApplyRanks(
      const std::vector<std::pair<std::string, double>>& ranks,
      int64_t* applied, int64_t* requeued);
  // Stores the new scores of queued URLs the strategy re-scored (at most a
  // few thousand per call, so a large re-score does not stall fetching).
  absl::Status ApplyRescores();
  // ClusterContext::ReadHost and the database part of DropHost.
  absl::Status ReadHost(const std::string& host,
                        std::vector<proto::LinkRecord>* records,
                        std::optional<proto::HostRecord>* host_record,
                        std::string* site_state);
  absl::Status DropHost(const std::string& host);

  // The mean score of the queued URLs is below the strategy's minimum.
  bool QueueMeanTooLow();

 private:
  // The record of a seed not known yet (strategy's seed state).
  proto::LinkRecord SeedRecord(const url::Url& u, int64_t now_ms);
  bool Settled(const std::string& url) const {
    return settled_.contains(url_hash_(url));
  }
  void AddQueuedScore(double delta) {
    if (track_queued_scores_) queued_score_sum_ += delta;
  }

  const FrontierOptions options_;
  const UrlScope& scope_;
  storage::LinkDb& db_;
  focus::Strategy& strategy_;
  ClusterHooks* const cluster_;
  const HostSeen host_seen_;

  bool track_queued_scores_ = false;
  int64_t link_contexts_refused_ = 0;
  double queued_score_sum_ = 0;
  // Hashes of the URLs known in this run not to be QUEUED. About 16 bytes
  // per fetched URL; a 64-bit hash collision (odds ~n²/2^65) would drop one
  // link.
  absl::flat_hash_set<size_t> settled_;
  absl::Hash<std::string> url_hash_;
};

}  // namespace fcrawl::worker

#endif  // FCRAWL_WORKER_FRONTIER_H_
