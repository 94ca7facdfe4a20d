// Internal to worker/ (the worker_cluster library): ClusterNode::Impl, the
// state of a cluster member (worker/member/cluster_node.h), and what its parts
// hand each other. Not a public header: only worker/member/cluster_node.cc,
// worker/member/cluster_service.cc and worker/member/cluster_handover.cc
// include it.
//
// The node's state (view, tokens, inbox, outbox, hand-over jobs) lives under
// one mutex shared by the gRPC service, the heartbeat, send and handoff
// threads and the crawl thread's hooks, and what one thread may do depends on
// what the others hold (a host is fetched only under a settled view; a view
// settles only when its hand-overs are done), so the protocol's state reads in
// one place: this class. Its code is in three files:
//
// - cluster_node.cc: start and shutdown, registration and heartbeats with the
//   coordinator, the crawl hooks (what arrived applied, tokens, figures,
//   lessons) and the run loop;
// - cluster_service.cc: the Worker service's handlers, what others send this
//   node (routed links, ranks, hosts handed over, export and stats requests);
// - cluster_handover.cc: what this node sends others (links routed to their
//   owners, hosts handed over when the view changes).
//
// The crawl side of a hand-over is worker/hand_over.h's.
#ifndef FCRAWL_WORKER_MEMBER_CLUSTER_NODE_IMPL_H_
#define FCRAWL_WORKER_MEMBER_CLUSTER_NODE_IMPL_H_

#include <atomic>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/hash/hash.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "cluster/rendezvous.h"
#include "cluster/rpc.h"
#include "core/file.h"
#include "proto/cluster.grpc.pb.h"
#include "worker/crawler.h"
#include "worker/member/cluster_node.h"

namespace fcrawl::worker {

// Links in one AcceptLinks call, at most: what a peer may send (hostile
// input) and what the send thread puts in one call.
inline constexpr int kMaxLinksPerCall = cluster::kMaxLinksPerAccept;
// Page tokens below which the node asks the coordinator for more.
inline constexpr int64_t kTokenLowWater = 64;

// Something that arrived for the crawl thread to apply; the handler that
// queued it waits for `done`.
struct InboxItem {
  enum class Kind { kLinks, kHost, kRanks } kind = Kind::kLinks;
  std::vector<proto::LinkRecord> records;
  std::vector<std::string> link_contexts;             // kLinks: one per record
  std::vector<std::pair<std::string, double>> ranks;  // kRanks
  int64_t ranks_applied = 0, ranks_requeued = 0;      // set by the crawl
  std::string host;
  std::optional<proto::HostRecord> host_record;
  std::string site_state;
  absl::Status status;
  absl::Notification done;
};

// A host read for handing over.
struct HostPayload {
  std::string host;
  std::vector<proto::LinkRecord> records;
  std::optional<proto::HostRecord> host_record;
  std::string site_state;
};

struct HandoffJob {
  std::string owner;    // name
  std::string address;  // its Worker service
  uint64_t view_version = 0;
  std::vector<HostPayload> hosts;
  absl::Status result;  // set by the handoff thread
};

class ClusterNode::Impl : public ClusterHooks {
 public:
  explicit Impl(ClusterNodeOptions options) : options_(std::move(options)) {}
  ~Impl() override { Shutdown(); }

  absl::Status Start();
  absl::Status Run(std::atomic<int>* stop, absl::Duration give_up);
  const std::string& address() const { return address_; }

  // --- ClusterHooks (crawl thread)
  bool MayFetch(const std::string& host) override {
    if (acting_ == nullptr || acting_->Owner(host) != options_.name) {
      return false;
    }
    if (acting_->version() == settled_version_) return true;
    return settled_ != nullptr && settled_->Owner(host) == options_.name;
  }
  bool Owns(const std::string& host) override {
    return acting_ != nullptr && acting_->Owner(host) == options_.name;
  }
  bool HasPage() override {
    const int64_t left = tokens_.load();
    // Ask ahead, so that a fast crawl does not wait a heartbeat round trip
    // each time its tokens run out.
    if (left < kTokenLowWater) wants_quota_.store(true);
    return left > 0;
  }
  void TakePage() override { tokens_.fetch_sub(1); }
  void ReturnPage() override { tokens_.fetch_add(1); }
  void Route(proto::LinkRecord record, std::string link_context) override;
  std::vector<std::pair<uint64_t, std::string>> RoutesToPersist() override;
  std::vector<uint64_t> TakeDelivered() override;
  void RestoreRoutes(
      std::vector<std::pair<uint64_t, std::string>> stored) override;
  void PageDone(const proto::LinkRecord& record, bool fetched, bool on_topic,
                const std::string& error) override;
  absl::Status Service(ClusterContext& context, bool idle) override;
  bool Paused() override { return state_.load() == proto::PAUSED; }
  std::string Finished() override;

  // --- Worker service handlers (gRPC threads)
  grpc::Status TakeHosts(grpc::ServerReader<proto::HostChunk>* reader,
                         proto::TakeHostsResponse* response);
  grpc::Status AcceptLinks(const proto::AcceptLinksRequest& request,
                           proto::AcceptLinksResponse* response);
  grpc::Status Export(const proto::ExportRequest& request,
                      proto::ExportResponse* response);
  proto::WorkerStats Stats();

 private:
  class WorkerService;

  void Shutdown();
  // UNAVAILABLE for `what` ("links", "hosts") sent to a draining node.
  grpc::Status Leaving(absl::string_view what) const;
  // Waits until the crawl `crawl_id` ("" any) runs here, then queues the
  // items and waits for the crawl thread to apply them.
  grpc::Status Deliver(const std::string& crawl_id,
                       std::vector<std::shared_ptr<InboxItem>> items);
  absl::Status Register();
  void HeartbeatLoop();
  void SendLoop();
  void HandoffLoop();
  void ApplyHeartbeat(const proto::HeartbeatResponse& r);
  // Crawl thread: starts handing over hosts that are not busy.
  absl::Status StartHandoffs(ClusterContext& context);
  absl::Status FinishHandoffs(ClusterContext& context);
  void Publish(ClusterContext& context, bool idle);
  // Applies the other workers' lessons and queues this one's for the next
  // heartbeat (crawl thread).
  void ExchangeLessons(ClusterContext& context);
  std::shared_ptr<proto::Coordinator::Stub> coordinator() {
    return coordinator_stub_;
  }

  const ClusterNodeOptions options_;
  std::string address_;
  std::string export_root_;  // resolved options_.export_root
  std::unique_ptr<WorkerService> service_;
  std::unique_ptr<cluster::RpcServer> server_;
  std::shared_ptr<proto::Coordinator::Stub> coordinator_stub_;

  // Written by the heartbeat thread, read everywhere.
  std::atomic<int> state_{proto::IDLE};
  std::atomic<bool> drain_{false};
  std::atomic<bool> exit_{false};
  std::atomic<bool> shutting_down_{false};
  std::atomic<int64_t> tokens_{0};
  std::atomic<bool> wants_quota_{false};
  std::atomic<bool> quota_arrived_{false};

  mutable absl::Mutex mu_;
  absl::CondVar heartbeat_cv_;
  absl::CondVar send_cv_;
  absl::CondVar handoff_cv_;
  absl::CondVar crawl_cv_;  // running_crawl_id_ changed
  bool registered_ ABSL_GUARDED_BY(mu_) = false;
  absl::Duration heartbeat_interval_ ABSL_GUARDED_BY(mu_) =
      absl::Milliseconds(250);
  proto::ClusterView view_ ABSL_GUARDED_BY(mu_);
  bool view_changed_ ABSL_GUARDED_BY(mu_) = false;
  proto::ClusterView settled_view_ ABSL_GUARDED_BY(mu_);
  uint64_t settled_version_shared_ ABSL_GUARDED_BY(mu_) = 0;
  bool settled_changed_ ABSL_GUARDED_BY(mu_) = false;
  std::optional<proto::CrawlAssignment> assignment_ ABSL_GUARDED_BY(mu_);
  // Lessons (focus::Strategy::TakeLessons): this worker's, waiting for a
  // heartbeat, and the other workers', waiting for the crawl thread; the
  // relay's epoch and the last batch received.
  std::deque<std::string> lessons_out_ ABSL_GUARDED_BY(mu_);
  size_t lessons_out_bytes_ ABSL_GUARDED_BY(mu_) = 0;
  std::deque<std::string> lessons_in_ ABSL_GUARDED_BY(mu_);
  size_t lessons_in_bytes_ ABSL_GUARDED_BY(mu_) = 0;
  uint64_t lessons_epoch_ ABSL_GUARDED_BY(mu_) = 0;
  uint64_t lessons_seen_ ABSL_GUARDED_BY(mu_) = 0;

  std::string running_crawl_id_ ABSL_GUARDED_BY(mu_);
  std::deque<std::shared_ptr<InboxItem>> inbox_ ABSL_GUARDED_BY(mu_);
  // Routed links with the number they are stored under in the crawl's
  // database (ClusterHooks::RoutesToPersist) until their owner has them.
  struct Routed {
    uint64_t seq = 0;
    proto::RoutedLink link;
  };
  std::deque<Routed> outbox_ ABSL_GUARDED_BY(mu_);
  // Numbers of links the coordinator delivered (TakeDelivered).
  std::vector<uint64_t> delivered_ ABSL_GUARDED_BY(mu_);
  int64_t sending_ ABSL_GUARDED_BY(mu_) = 0;  // links of a RouteLinks call
  std::deque<std::shared_ptr<HandoffJob>> handoff_jobs_ ABSL_GUARDED_BY(mu_);
  std::deque<std::shared_ptr<HandoffJob>> handoff_done_ ABSL_GUARDED_BY(mu_);
  int64_t quota_unused_ ABSL_GUARDED_BY(mu_) = 0;
  // Figures for heartbeats and GetStats.
  proto::WorkerStats stats_ ABSL_GUARDED_BY(mu_);
  bool idle_ ABSL_GUARDED_BY(mu_) = false;
  uint64_t acting_version_shared_ ABSL_GUARDED_BY(mu_) = 0;
  uint64_t handed_over_version_ ABSL_GUARDED_BY(mu_) = 0;
  int64_t links_routed_ ABSL_GUARDED_BY(mu_) = 0;
  std::string data_folder_ ABSL_GUARDED_BY(mu_);  // the running crawl's
  std::string finished_crawl_;  // Run's thread: the crawl that ended here

  // Crawl thread only.
  std::shared_ptr<cluster::HostPartition> acting_;
  std::shared_ptr<cluster::HostPartition> settled_;
  uint64_t settled_version_ = 0;
  std::vector<Routed> route_buffer_;
  // Links routed since the crawl's last commit, to be stored with it.
  std::vector<std::pair<uint64_t, std::string>> to_persist_;
  uint64_t last_route_seq_ = 0;
  absl::flat_hash_map<uint64_t, double> routed_;  // URL hash → score sent
  absl::Hash<std::string> hash_;
  // Hosts to hand over → not yet sent; hosts in a running handoff job (and
  // whether links arrived for them meanwhile).
  absl::flat_hash_set<std::string> to_hand_over_;
  absl::flat_hash_map<std::string, bool> in_handoff_;
  absl::Time next_handoff_try_ = absl::InfinitePast();
  absl::flat_hash_set<std::string> on_topic_urls_;
  int64_t on_topic_ = 0, labelled_ = 0, errors_ = 0;
  int64_t bytes_fetched_ = 0;  // body bytes of the pages fetched
  // Pages fetched by HTTP status and by content type (WorkerStats).
  std::map<std::string, int64_t> http_statuses_, content_types_;
  std::map<std::string, int64_t> errors_by_kind_;
  int64_t links_accepted_ = 0, hosts_taken_ = 0, hosts_handed_over_ = 0;
  int64_t ranks_applied_ = 0, ranks_requeued_ = 0;
  int64_t lessons_applied_ = 0, lessons_refused_ = 0;
  absl::Time next_lessons_ = absl::InfinitePast();
  file::FolderLock data_lock_;  // options_.data_dir, held while running
  int64_t hosts_owned_ = 0;
  // The strategy's worst folders (Publish: every 250 ms and when the last
  // transfer ends).
  std::vector<proto::FolderOutcome> dead_folders_;
  absl::Time next_dead_folders_ = absl::InfinitePast();
  bool dead_folders_at_rest_ = false;
  absl::Time next_publish_ = absl::InfinitePast();
  absl::Time idle_since_ = absl::InfiniteFuture();
  absl::Time tokens_arrived_ = absl::InfinitePast();
  absl::Time next_host_count_ = absl::InfinitePast();

  std::thread heartbeat_thread_, send_thread_, handoff_thread_;
};

// The Worker service: gRPC's adapter to the handlers (cluster_service.cc).
class ClusterNode::Impl::WorkerService : public proto::Worker::Service {
 public:
  explicit WorkerService(Impl* impl) : impl_(impl) {}
  grpc::Status TakeHosts(grpc::ServerContext*,
                         grpc::ServerReader<proto::HostChunk>* reader,
                         proto::TakeHostsResponse* response) override {
    return impl_->TakeHosts(reader, response);
  }
  grpc::Status AcceptLinks(grpc::ServerContext*,
                           const proto::AcceptLinksRequest* request,
                           proto::AcceptLinksResponse* response) override {
    return impl_->AcceptLinks(*request, response);
  }
  grpc::Status Export(grpc::ServerContext*, const proto::ExportRequest* request,
                      proto::ExportResponse* response) override {
    return impl_->Export(*request, response);
  }
  grpc::Status GetStats(grpc::ServerContext*, const proto::StatsRequest*,
                        proto::WorkerStats* response) override {
    *response = impl_->Stats();
    return grpc::Status::OK;
  }

 private:
  Impl* const impl_;
};

}  // namespace fcrawl::worker

#endif  // FCRAWL_WORKER_MEMBER_CLUSTER_NODE_IMPL_H_
