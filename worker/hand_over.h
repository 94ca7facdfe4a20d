// The crawl loop's side of the cluster hand-over (docs/design.md "The
// cluster": link routing, hand-over, ranks): the ClusterContext that
// worker/member/cluster_node.h drives, inside ClusterHooks::Service, on the
// crawl thread. Records go through the frontier's merge rules
// (worker/frontier.h); a host handed over in or out is forgotten by the
// scheduler (worker/host_scheduler.h) unless something of it is under way,
// so its robots.txt and page count are read again from the database.
//
// Owns nothing: borrows the database, the frontier, the scheduler and the
// page committer's fetch outcomes, and asks `transfers` for the transfers
// running. Thread-safety: the crawl
// thread only. Errors: the database's.
#ifndef FCRAWL_WORKER_HAND_OVER_H_
#define FCRAWL_WORKER_HAND_OVER_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "proto/link_state.pb.h"
#include "storage/link_db.h"
#include "worker/cluster_hooks.h"
#include "worker/fetch_outcomes.h"
#include "worker/frontier.h"
#include "worker/host_scheduler.h"

namespace fcrawl::worker {

class HandOver : public ClusterContext {
 public:
  HandOver(storage::LinkDb* db, Frontier* frontier, HostScheduler* scheduler,
           focus::Strategy* strategy, const FetchOutcomeCounts* outcomes,
           std::function<int64_t()> transfers, const std::string* paused)
      : db_(*db),
        frontier_(*frontier),
        scheduler_(*scheduler),
        strategy_(*strategy),
        outcomes_(*outcomes),
        transfers_(std::move(transfers)),
        paused_(*paused) {}

  absl::Status AddLinks(const std::vector<proto::LinkRecord>& records,
                        const std::vector<std::string>& link_contexts) override;
  absl::Status AddHost(const std::string& host,
                       const std::vector<proto::LinkRecord>& records,
                       const proto::HostRecord* host_record,
                       const std::string& site_state) override;
  absl::Status ApplyRanks(
      const std::vector<std::pair<std::string, double>>& ranks,
      int64_t* applied, int64_t* requeued) override;
  absl::StatusOr<std::vector<std::string>> Hosts() override;
  bool HostBusy(const std::string& host) override;
  absl::Status ReadHost(const std::string& host,
                        std::vector<proto::LinkRecord>* records,
                        std::optional<proto::HostRecord>* host_record,
                        std::string* site_state) override;
  absl::Status DropHost(const std::string& host) override;
  void RescheduleAll() override;
  void Figures(int64_t* queued, int64_t* in_flight,
               int64_t* pages_total) override;
  std::optional<double> BestQueuedScore() override;
  std::map<std::string, int64_t> Skipped() override {
    return scheduler_.skipped();
  }
  FetchOutcomeCounts FetchOutcomes() override { return outcomes_; }
  std::vector<focus::FolderOutcome> DeadFolders() override {
    return strategy_.DeadFolders();
  }
  std::string Paused() override { return paused_; }
  std::string TakeLessons() override { return strategy_.TakeLessons(); }
  std::vector<std::pair<double, int64_t>> TopQueued(
      int64_t entries, size_t max_buckets) override {
    return db_.TopQueued(entries, max_buckets);
  }
  absl::Status LearnLessons(absl::string_view bytes) override {
    return strategy_.LearnLessons(bytes);
  }

 private:
  storage::LinkDb& db_;
  Frontier& frontier_;
  HostScheduler& scheduler_;
  focus::Strategy& strategy_;
  const FetchOutcomeCounts& outcomes_;  // the page committer's, kept current
  const std::function<int64_t()> transfers_;
  const std::string& paused_;  // the crawl's, kept current (Crawler::Impl)
};

}  // namespace fcrawl::worker

#endif  // FCRAWL_WORKER_HAND_OVER_H_
