// ClusterNode (worker/cluster_node.h). Over 800 lines for a reason: the
// node's state (view, tokens, inbox, outbox, hand-over jobs) lives under one
// mutex shared by the gRPC service, the heartbeat and send threads and the
// crawl thread's hooks, and what one thread may do depends on what the
// others hold (a host is fetched only under a settled view; a view settles
// only when its hand-overs are done), so the protocol reads in one place.
// The crawl side of a hand-over is worker/hand_over.h's.
#include "worker/cluster_node.h"

#include <limits.h>
#include <stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <functional>
#include <limits>
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
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "cluster/ranks.h"
#include "cluster/rendezvous.h"
#include "core/file.h"
#include "core/url.h"
#include "corpus/corpus.h"
#include "focus/strategy.h"
#include "formats/crawl_config.h"
#include "formats/crawl_log.h"
#include "proto/cluster.grpc.pb.h"
#include "storage/link_db.h"
#include "worker/graph_export.h"

namespace fcrawl::worker {
namespace {

using proto::LinkRecord;

// Bounds on what peers may send in one call (hostile input).
constexpr int kMaxLinksPerCall = cluster::kMaxLinksPerAccept;
constexpr int64_t kMaxRecordsPerHandoff = 5000000;
constexpr size_t kMaxUrlBytes = 2048;
constexpr size_t kMaxHostBytes = 300;
// Outbox links remembered to skip routing the same URL again.
constexpr size_t kMaxRoutedMemory = 1 << 20;
// Page tokens below which the node asks the coordinator for more.
constexpr int64_t kTokenLowWater = 64;
// URLs, and histogram buckets at most, of the best queued ones each worker
// reports (the crawl's order window is far smaller).
constexpr int64_t kBestQueuedEntries = 64;
// Lessons waiting in either direction, at most (the oldest are dropped).
constexpr size_t kMaxLessonBacklog = 8 << 20;

// The kind of a recorded problem, for errors_by_kind.
std::string ErrorKind(const LinkRecord& r, const std::string& error) {
  if (r.http_status() >= 500) return "http_5xx";
  if (r.http_status() >= 400) return "http_4xx";
  if (absl::StrContains(error, "imed out") ||
      absl::StrContains(error, "imeout")) {
    return "timeout";
  }
  if (absl::StrContains(error, "resolve")) return "dns";
  if (absl::StrContains(error, "onnect")) return "connect";
  if (absl::StrContains(error, "robots")) return "robots";
  if (absl::StrContains(error, "truncat")) return "truncated";
  if (r.status() == LinkRecord::ERROR) return "transport";
  return "other";
}

absl::Status CheckRecord(const LinkRecord& r, int index) {
  if (r.url().empty() || r.url().size() > kMaxUrlBytes) {
    return absl::InvalidArgumentError(absl::StrCat(
        "record ", index, ": URL empty or over ", kMaxUrlBytes, " bytes"));
  }
  if (storage::HostKey(r.url()).empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("record ", index, ": not an absolute http(s) URL"));
  }
  return absl::OkStatus();
}

// Something that arrived for the crawl thread to apply; the handler that
// queued it waits for `done`.
struct InboxItem {
  enum class Kind { kLinks, kHost, kRanks } kind = Kind::kLinks;
  std::vector<LinkRecord> records;
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
  std::vector<LinkRecord> records;
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

}  // namespace

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
  void Route(LinkRecord record, std::string link_context) override;
  std::vector<std::pair<uint64_t, std::string>> RoutesToPersist() override;
  std::vector<uint64_t> TakeDelivered() override;
  void RestoreRoutes(
      std::vector<std::pair<uint64_t, std::string>> stored) override;
  void PageDone(const LinkRecord& record, bool fetched, bool on_topic,
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
  std::map<std::string, int64_t> errors_by_kind_;
  int64_t links_accepted_ = 0, hosts_taken_ = 0, hosts_handed_over_ = 0;
  int64_t ranks_applied_ = 0, ranks_requeued_ = 0;
  int64_t lessons_applied_ = 0, lessons_refused_ = 0;
  absl::Time next_lessons_ = absl::InfinitePast();
  int64_t hosts_owned_ = 0;
  absl::Time next_publish_ = absl::InfinitePast();
  absl::Time idle_since_ = absl::InfiniteFuture();
  absl::Time tokens_arrived_ = absl::InfinitePast();
  absl::Time next_host_count_ = absl::InfinitePast();

  std::thread heartbeat_thread_, send_thread_, handoff_thread_;
};

// ------------------------------------------------------------- service

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

absl::Status ClusterNode::Impl::Start() {
  if (absl::Status s = cluster::ValidateMemberName(options_.name); !s.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("worker name '", options_.name, "': ", s.message()));
  }
  if (options_.coordinator.empty()) {
    return absl::InvalidArgumentError("the coordinator's address is missing");
  }
  if (options_.data_dir.empty()) {
    return absl::InvalidArgumentError("the data folder is missing");
  }
  {
    const std::string root =
        options_.export_root.empty() ? "." : options_.export_root;
    char resolved[PATH_MAX];
    if (::realpath(root.c_str(), resolved) == nullptr) {
      return file::ErrnoStatus("cannot resolve the export root", root);
    }
    export_root_ = resolved;
  }
  service_ = std::make_unique<WorkerService>(this);
  absl::StatusOr<std::unique_ptr<cluster::RpcServer>> server =
      cluster::RpcServer::Start(options_.listen, options_.security,
                                {service_.get()});
  if (!server.ok()) return server.status();
  server_ = *std::move(server);
  address_ = server_->address();
  coordinator_stub_ = proto::Coordinator::NewStub(
      cluster::MakeChannel(options_.coordinator, options_.security));
  return absl::OkStatus();
}

void ClusterNode::Impl::Shutdown() {
  if (shutting_down_.exchange(true)) return;
  {
    absl::MutexLock lock(&mu_);
    heartbeat_cv_.SignalAll();
    send_cv_.SignalAll();
    handoff_cv_.SignalAll();
    crawl_cv_.SignalAll();
  }
  if (server_ != nullptr) server_->Shutdown(absl::Seconds(1));
  for (std::thread* t : {&heartbeat_thread_, &send_thread_, &handoff_thread_}) {
    if (t->joinable()) t->join();
  }
}

// ---------------------------------------------------------- coordinator

absl::Status ClusterNode::Impl::Register() {
  proto::RegisterRequest req;
  req.set_name(options_.name);
  req.set_address(address_);
  proto::RegisterResponse resp;
  grpc::ClientContext ctx;
  cluster::PrepareContext(options_.security, options_.rpc_timeout, &ctx);
  grpc::Status s = coordinator()->Register(&ctx, req, &resp);
  if (!s.ok()) {
    return cluster::FromGrpc(
        s, absl::StrCat("registering with ", options_.coordinator));
  }
  absl::MutexLock lock(&mu_);
  registered_ = true;
  if (resp.lease_ms() > 0) {
    heartbeat_interval_ = std::min(absl::Milliseconds(resp.lease_ms()) / 4,
                                   absl::Milliseconds(250));
  }
  if (resp.view().version() > view_.version()) {
    view_ = resp.view();
    view_changed_ = true;
  }
  if (resp.has_crawl() && !resp.crawl().crawl_id().empty() &&
      (!assignment_.has_value() ||
       assignment_->crawl_id() != resp.crawl().crawl_id())) {
    assignment_ = resp.crawl();
  }
  crawl_cv_.SignalAll();
  return absl::OkStatus();
}

void ClusterNode::Impl::ApplyHeartbeat(const proto::HeartbeatResponse& r) {
  absl::MutexLock lock(&mu_);
  if (r.has_view() && r.view().version() > view_.version()) {
    view_ = r.view();
    view_changed_ = true;
  }
  if (r.settled_version() > settled_version_shared_) {
    settled_version_shared_ = r.settled_version();
    if (r.has_settled_view()) {
      settled_view_ = r.settled_view();
    } else if (r.settled_version() == view_.version()) {
      settled_view_ = view_;
    }
    settled_changed_ = true;
  }
  state_.store(r.state());
  if (r.has_crawl() && !r.crawl().crawl_id().empty() &&
      (!assignment_.has_value() ||
       assignment_->crawl_id() != r.crawl().crawl_id())) {
    assignment_ = r.crawl();
  }
  if (r.quota_granted() > 0) {
    tokens_.fetch_add(r.quota_granted());
    quota_arrived_.store(true);
  }
  drain_.store(r.drain());
  if (r.exit()) exit_.store(true);
  if (r.lessons_epoch() != 0) {
    lessons_epoch_ = r.lessons_epoch();
    lessons_seen_ = r.lessons_seq();
    for (const proto::LessonBatch& b : r.lessons()) {
      if (lessons_in_bytes_ + b.lessons().size() > kMaxLessonBacklog) break;
      lessons_in_bytes_ += b.lessons().size();
      lessons_in_.push_back(b.lessons());
    }
  }
  crawl_cv_.SignalAll();
}

void ClusterNode::Impl::HeartbeatLoop() {
  absl::Time last_sent = absl::InfinitePast();
  while (!shutting_down_.load()) {
    bool registered;
    {
      absl::MutexLock lock(&mu_);
      registered = registered_;
    }
    if (!registered) {
      if (absl::Status s = Register(); !s.ok()) {
        absl::MutexLock lock(&mu_);
        heartbeat_cv_.WaitWithTimeout(&mu_, absl::Milliseconds(300));
      }
      continue;
    }
    proto::HeartbeatRequest req;
    absl::Duration interval;
    {
      absl::MutexLock lock(&mu_);
      req.set_name(options_.name);
      // The crawl it knows (its assignment is sent again only when the
      // coordinator has another).
      req.set_crawl_id(assignment_.has_value() ? assignment_->crawl_id()
                                               : std::string());
      const bool crawling = !running_crawl_id_.empty();
      // Outside a crawl there is nothing to hand over or to do, unless the
      // node was started again on a folder that holds the current crawl's
      // data (found by bench/chaos.py: a draining worker killed and started
      // again said "handed over" before it had opened its crawl, was told
      // to exit, and 68 pages' links went with it). Until it has opened the
      // crawl and handed its hosts over it is neither idle nor handed over.
      const int state = state_.load();
      std::error_code error;
      const bool holds =
          !crawling && assignment_.has_value() && state != proto::DONE &&
          state != proto::STOPPED &&
          std::filesystem::exists(
              absl::StrCat(options_.data_dir, "/", assignment_->crawl_id()),
              error);
      req.set_view_version(crawling ? acting_version_shared_ : view_.version());
      req.set_handed_over_version(crawling ? handed_over_version_
                                  : holds  ? 0
                                           : view_.version());
      *req.mutable_stats() = stats_;
      req.mutable_stats()->set_name(options_.name);
      req.mutable_stats()->set_cpu_seconds(cluster::ProcessCpuSeconds());
      req.mutable_stats()->set_links_routed(links_routed_);
      req.mutable_stats()->set_outbox(static_cast<int64_t>(outbox_.size()) +
                                      sending_);
      req.set_idle((!crawling && !holds) ||
                   (crawling && idle_ && inbox_.empty() && outbox_.empty() &&
                    sending_ == 0 && handoff_jobs_.empty()));
      req.set_quota_unused(quota_unused_);
      quota_unused_ = 0;
      req.set_lessons_epoch(lessons_epoch_);
      req.set_lessons_seen(lessons_seen_);
      if (crawling && !lessons_out_.empty()) {
        lessons_out_bytes_ -= lessons_out_.front().size();
        req.set_lessons(std::move(lessons_out_.front()));
        lessons_out_.pop_front();
      }
      interval = heartbeat_interval_;
    }
    // The heartbeat asks for tokens when the crawl found none.
    req.set_wants_quota(wants_quota_.exchange(false));
    if (req.idle() && req.wants_quota()) req.set_idle(false);
    proto::HeartbeatResponse resp;
    grpc::ClientContext ctx;
    cluster::PrepareContext(options_.security, options_.rpc_timeout, &ctx);
    grpc::Status s = coordinator()->Heartbeat(&ctx, req, &resp);
    last_sent = absl::Now();
    if (s.ok()) {
      ApplyHeartbeat(resp);
    } else {
      absl::MutexLock lock(&mu_);
      quota_unused_ += req.quota_unused();  // not delivered: try again
      if (!req.lessons().empty()) {
        lessons_out_bytes_ += req.lessons().size();
        lessons_out_.push_front(std::move(*req.mutable_lessons()));
      }
      if (req.wants_quota()) wants_quota_.store(true);
      if (s.error_code() == grpc::StatusCode::NOT_FOUND) registered_ = false;
    }
    absl::MutexLock lock(&mu_);
    // Early when the crawl waits for tokens (not more often than 20/s).
    const absl::Time deadline = last_sent + interval;
    while (!shutting_down_.load() && absl::Now() < deadline) {
      if (wants_quota_.load() &&
          absl::Now() >= last_sent + absl::Milliseconds(50)) {
        break;
      }
      heartbeat_cv_.WaitWithTimeout(&mu_, absl::Milliseconds(20));
    }
  }
}

void ClusterNode::Impl::SendLoop() {
  // Routed links go straight to their owners under the latest view this
  // node has (not through the coordinator, which keeps membership, views,
  // budget and control only). An owner that has lost the host by the time
  // the links arrive stores them and hands them over with the host, like
  // any link for a host it does not own; a link leaves the outbox only
  // when its owner has applied it (AcceptLinks answers after the crawl
  // thread stored it).
  cluster::StubCache<proto::Worker> stubs(options_.security);
  std::shared_ptr<const cluster::HostPartition> view;
  absl::Duration backoff = absl::Milliseconds(100);
  struct Call {
    std::string owner, address;
    proto::AcceptLinksRequest request;
    std::vector<uint64_t> seqs;
  };
  while (!shutting_down_.load()) {
    std::vector<Call> calls;
    {
      absl::MutexLock lock(&mu_);
      while (!shutting_down_.load() && outbox_.empty()) {
        send_cv_.WaitWithTimeout(&mu_, options_.route_interval);
      }
      if (shutting_down_.load()) return;
      if (view == nullptr || view->version() != view_.version()) {
        view = std::make_shared<const cluster::HostPartition>(view_);
      }
      if (view->empty()) {
        send_cv_.WaitWithTimeout(&mu_, backoff);
        backoff = std::min(backoff * 2, absl::Seconds(2));
        continue;
      }
      // At most kMaxLinksPerCall in all, so no owner's call is refused for
      // its size.
      const size_t n = std::min<size_t>(
          {outbox_.size(), static_cast<size_t>(options_.route_batch),
           static_cast<size_t>(kMaxLinksPerCall)});
      std::map<std::string, size_t> index;  // owner → calls[i]
      for (size_t i = 0; i < n; ++i) {
        Routed r = std::move(outbox_.front());
        outbox_.pop_front();
        const std::string host = storage::HostKey(r.link.record().url());
        const std::string& owner = view->Owner(host);
        auto [it, added] = index.emplace(owner, calls.size());
        if (added) {
          Call c;
          c.owner = owner;
          c.address = view->OwnerAddress(host);
          c.request.set_view_version(view->version());
          c.request.set_crawl_id(running_crawl_id_);
          calls.push_back(std::move(c));
        }
        Call& c = calls[it->second];
        *c.request.add_links() = std::move(r.link);
        c.seqs.push_back(r.seq);
      }
      sending_ = static_cast<int64_t>(n);
    }
    // Calls to other workers in parallel; links this node owns under the
    // latest view (its acting view was older when it routed them) are
    // applied here.
    std::vector<size_t> remote;
    std::vector<grpc::Status> statuses(calls.size());
    for (size_t i = 0; i < calls.size(); ++i) {
      if (calls[i].owner == options_.name) {
        proto::AcceptLinksResponse ignored;
        statuses[i] = AcceptLinks(calls[i].request, &ignored);
      } else {
        remote.push_back(i);
      }
    }
    std::vector<std::shared_ptr<proto::Worker::Stub>> remote_stubs;
    std::vector<const proto::AcceptLinksRequest*> requests;
    for (size_t i : remote) {
      remote_stubs.push_back(stubs.For(calls[i].address));
      requests.push_back(&calls[i].request);
    }
    const std::vector<grpc::Status> remote_statuses = cluster::AcceptLinksAll(
        options_.security, options_.rpc_timeout, remote_stubs, requests);
    for (size_t k = 0; k < remote.size(); ++k) {
      statuses[remote[k]] = remote_statuses[k];
    }
    absl::MutexLock lock(&mu_);
    sending_ = 0;
    bool failed = false;
    // Undelivered links go back in front (redelivery is idempotent), in
    // their order, and wait for the owner or a new view.
    for (size_t i = calls.size(); i-- > 0;) {
      Call& c = calls[i];
      if (statuses[i].ok()) {
        links_routed_ += c.request.links_size();
        delivered_.insert(delivered_.end(), c.seqs.begin(), c.seqs.end());
        continue;
      }
      failed = true;
      for (int j = c.request.links_size() - 1; j >= 0; --j) {
        outbox_.push_front({c.seqs[j], std::move(*c.request.mutable_links(j))});
      }
    }
    if (!failed) {
      backoff = absl::Milliseconds(100);
      continue;
    }
    send_cv_.WaitWithTimeout(&mu_, backoff);
    backoff = std::min(backoff * 2, absl::Seconds(2));
  }
}

// ------------------------------------------------------------- handoff

void ClusterNode::Impl::HandoffLoop() {
  while (!shutting_down_.load()) {
    std::shared_ptr<HandoffJob> job;
    {
      absl::MutexLock lock(&mu_);
      while (!shutting_down_.load() && handoff_jobs_.empty()) {
        handoff_cv_.WaitWithTimeout(&mu_, absl::Milliseconds(200));
      }
      if (shutting_down_.load()) return;
      job = handoff_jobs_.front();
    }
    std::string crawl_id;
    {
      absl::MutexLock lock(&mu_);
      crawl_id = running_crawl_id_;
    }
    auto stub = proto::Worker::NewStub(
        cluster::MakeChannel(job->address, options_.security));
    grpc::ClientContext ctx;
    cluster::PrepareContext(options_.security, 6 * options_.rpc_timeout, &ctx);
    proto::TakeHostsResponse resp;
    std::unique_ptr<grpc::ClientWriter<proto::HostChunk>> writer =
        stub->TakeHosts(&ctx, &resp);
    bool ok = true;
    for (const HostPayload& h : job->hosts) {
      size_t next = 0;
      bool first = true;
      do {
        proto::HostChunk chunk;
        chunk.set_from(options_.name);
        chunk.set_view_version(job->view_version);
        chunk.set_crawl_id(crawl_id);
        chunk.set_host(h.host);
        if (first) {
          if (h.host_record.has_value()) {
            *chunk.mutable_host_record() = *h.host_record;
          }
          chunk.set_site_state(h.site_state);
        }
        const size_t end =
            std::min(h.records.size(),
                     next + static_cast<size_t>(options_.handoff_chunk));
        for (; next < end; ++next) *chunk.add_records() = h.records[next];
        chunk.set_host_done(next == h.records.size());
        first = false;
        if (!writer->Write(chunk)) {
          ok = false;
          break;
        }
      } while (ok && next < h.records.size());
      if (!ok) break;
    }
    if (ok) writer->WritesDone();
    grpc::Status s = writer->Finish();
    job->result =
        cluster::FromGrpc(s, absl::StrCat("handing hosts over to ", job->owner,
                                          " at ", job->address));
    absl::MutexLock lock(&mu_);
    handoff_jobs_.pop_front();
    handoff_done_.push_back(job);
  }
}

absl::Status ClusterNode::Impl::StartHandoffs(ClusterContext& context) {
  if (to_hand_over_.empty() || absl::Now() < next_handoff_try_) {
    return absl::OkStatus();
  }
  std::map<std::string, std::shared_ptr<HandoffJob>> by_owner;
  std::vector<std::string> started;
  for (const std::string& host : to_hand_over_) {
    if (in_handoff_.contains(host)) continue;
    if (acting_ == nullptr || acting_->empty()) break;
    const std::string& owner = acting_->Owner(host);
    if (owner == options_.name) {
      started.push_back(host);  // it came back: nothing to hand over
      continue;
    }
    if (context.HostBusy(host)) continue;
    HostPayload p;
    p.host = host;
    if (absl::Status s =
            context.ReadHost(host, &p.records, &p.host_record, &p.site_state);
        !s.ok()) {
      return s;
    }
    std::shared_ptr<HandoffJob>& job = by_owner[owner];
    if (job == nullptr) {
      job = std::make_shared<HandoffJob>();
      job->owner = owner;
      job->address = acting_->OwnerAddress(host);
      job->view_version = acting_->version();
    }
    job->hosts.push_back(std::move(p));
    in_handoff_[host] = false;
    started.push_back(host);
  }
  for (const std::string& h : started) to_hand_over_.erase(h);
  if (by_owner.empty()) return absl::OkStatus();
  absl::MutexLock lock(&mu_);
  for (auto& [owner, job] : by_owner) handoff_jobs_.push_back(job);
  handoff_cv_.SignalAll();
  return absl::OkStatus();
}

absl::Status ClusterNode::Impl::FinishHandoffs(ClusterContext& context) {
  std::deque<std::shared_ptr<HandoffJob>> done;
  {
    absl::MutexLock lock(&mu_);
    done.swap(handoff_done_);
  }
  for (const std::shared_ptr<HandoffJob>& job : done) {
    for (const HostPayload& h : job->hosts) {
      const bool dirty = in_handoff_[h.host];
      in_handoff_.erase(h.host);
      if (!job->result.ok() || dirty) {
        // Failed, or links for it arrived meanwhile: send it again.
        to_hand_over_.insert(h.host);
        continue;
      }
      if (absl::Status s = context.DropHost(h.host); !s.ok()) return s;
      ++hosts_handed_over_;
    }
    if (!job->result.ok()) {
      std::fprintf(stderr, "worker %s: %s (retrying)\n", options_.name.c_str(),
                   std::string(job->result.message()).c_str());
      next_handoff_try_ = absl::Now() + absl::Milliseconds(500);
    }
  }
  return absl::OkStatus();
}

// --------------------------------------------------------- crawl hooks

void ClusterNode::Impl::Route(LinkRecord record, std::string link_context) {
  // The same URL again, without a better score: the owner has it already.
  const uint64_t h = hash_(record.url());
  auto [it, inserted] = routed_.try_emplace(h, record.link_score());
  if (!inserted) {
    if (record.link_score() <= it->second) return;
    it->second = record.link_score();
  }
  if (routed_.size() > kMaxRoutedMemory) routed_.clear();
  proto::RoutedLink routed;
  *routed.mutable_record() = std::move(record);
  if (link_context.size() <= focus::Strategy::kMaxLinkContextBytes) {
    routed.set_link_context(std::move(link_context));
  }
  const uint64_t seq = ++last_route_seq_;
  to_persist_.emplace_back(seq, routed.SerializeAsString());
  route_buffer_.push_back({seq, std::move(routed)});
}

std::vector<std::pair<uint64_t, std::string>>
ClusterNode::Impl::RoutesToPersist() {
  return std::exchange(to_persist_, {});
}

std::vector<uint64_t> ClusterNode::Impl::TakeDelivered() {
  absl::MutexLock lock(&mu_);
  return std::exchange(delivered_, {});
}

void ClusterNode::Impl::RestoreRoutes(
    std::vector<std::pair<uint64_t, std::string>> stored) {
  std::vector<uint64_t> unreadable;
  for (auto& [seq, bytes] : stored) {
    last_route_seq_ = std::max(last_route_seq_, seq);
    proto::RoutedLink link;
    if (!link.ParseFromString(bytes) || !link.has_record()) {
      unreadable.push_back(seq);  // erased like a delivered one
      continue;
    }
    route_buffer_.push_back({seq, std::move(link)});
  }
  if (!unreadable.empty()) {
    absl::MutexLock lock(&mu_);
    delivered_.insert(delivered_.end(), unreadable.begin(), unreadable.end());
  }
}

void ClusterNode::Impl::PageDone(const LinkRecord& record, bool fetched,
                                 bool on_topic, const std::string& error) {
  if (!fetched) return;
  if (on_topic) ++on_topic_;
  if (!on_topic_urls_.empty() &&
      (on_topic_urls_.contains(record.url()) ||
       (!record.final_url().empty() &&
        on_topic_urls_.contains(record.final_url())))) {
    ++labelled_;
  }
  if (!error.empty() || record.status() == LinkRecord::ERROR ||
      record.http_status() >= 400) {
    ++errors_;
    ++errors_by_kind_[ErrorKind(record, error)];
  }
}

std::string ClusterNode::Impl::Finished() {
  if (exit_.load()) return "drained";
  const int state = state_.load();
  if (state == proto::DONE) return "done";
  if (state == proto::STOPPED) return "stopped";
  if (shutting_down_.load()) return "shut down";
  absl::MutexLock lock(&mu_);
  if (assignment_.has_value() && assignment_->crawl_id() != running_crawl_id_) {
    return "replaced by another crawl";
  }
  return "";
}

absl::Status ClusterNode::Impl::Service(ClusterContext& context, bool idle) {
  bool reschedule = false;
  bool adopted = false;
  std::deque<std::shared_ptr<InboxItem>> items;
  {
    absl::MutexLock lock(&mu_);
    if (view_changed_) {
      acting_ = std::make_shared<cluster::HostPartition>(view_);
      acting_version_shared_ = view_.version();
      view_changed_ = false;
      adopted = true;
    }
    if (settled_changed_) {
      settled_ = std::make_shared<cluster::HostPartition>(settled_view_);
      settled_version_ = settled_version_shared_;
      settled_changed_ = false;
      reschedule = true;
    }
    items.swap(inbox_);
  }
  if (adopted) {
    absl::StatusOr<std::vector<std::string>> hosts = context.Hosts();
    if (!hosts.ok()) return hosts.status();
    for (const std::string& h : *hosts) {
      if (!Owns(h)) to_hand_over_.insert(h);
    }
    hosts_owned_ = static_cast<int64_t>(hosts->size()) -
                   static_cast<int64_t>(to_hand_over_.size());
    reschedule = true;
  }
  if (quota_arrived_.exchange(false)) {
    reschedule = true;
    tokens_arrived_ = absl::Now();  // about to be used: not given back yet
  }

  for (const std::shared_ptr<InboxItem>& item : items) {
    if (item->kind == InboxItem::Kind::kLinks) {
      item->status = context.AddLinks(item->records, item->link_contexts);
      if (item->status.ok()) {
        links_accepted_ += static_cast<int64_t>(item->records.size());
        for (const LinkRecord& r : item->records) {
          const std::string host = storage::HostKey(r.url());
          if (auto it = in_handoff_.find(host); it != in_handoff_.end()) {
            it->second = true;
          } else if (!Owns(host)) {
            to_hand_over_.insert(host);
          }
        }
      }
    } else if (item->kind == InboxItem::Kind::kRanks) {
      item->status = context.ApplyRanks(item->ranks, &item->ranks_applied,
                                        &item->ranks_requeued);
      if (item->status.ok()) {
        ranks_applied_ += item->ranks_applied;
        ranks_requeued_ += item->ranks_requeued;
      }
    } else {
      item->status = context.AddHost(
          item->host, item->records,
          item->host_record.has_value() ? &*item->host_record : nullptr,
          item->site_state);
      if (item->status.ok()) {
        ++hosts_taken_;
        if (auto it = in_handoff_.find(item->host); it != in_handoff_.end()) {
          it->second = true;
        } else if (!Owns(item->host)) {
          to_hand_over_.insert(item->host);
        }
      }
    }
    item->done.Notify();
  }
  if (reschedule) context.RescheduleAll();
  // `idle` was measured before this turn's changes.
  if (reschedule || !items.empty()) idle = false;
  // Links or hosts just applied: the next heartbeat must not carry the
  // idle flag of before (their senders' outboxes are empty already).
  if (!items.empty()) next_publish_ = absl::InfinitePast();

  if (absl::Status s = FinishHandoffs(context); !s.ok()) return s;
  if (absl::Status s = StartHandoffs(context); !s.ok()) return s;

  if (!route_buffer_.empty()) {
    absl::MutexLock lock(&mu_);
    for (Routed& r : route_buffer_) outbox_.push_back(std::move(r));
    route_buffer_.clear();
    if (outbox_.size() >= static_cast<size_t>(options_.route_batch)) {
      send_cv_.Signal();
    }
  }
  ExchangeLessons(context);
  Publish(context, idle);
  return absl::OkStatus();
}

void ClusterNode::Impl::ExchangeLessons(ClusterContext& context) {
  std::deque<std::string> in;
  {
    absl::MutexLock lock(&mu_);
    in.swap(lessons_in_);
    lessons_in_bytes_ = 0;
  }
  for (const std::string& batch : in) {
    absl::Status s = context.LearnLessons(batch);
    if (s.ok()) {
      ++lessons_applied_;
    } else if (lessons_refused_++ % 1000 == 0) {
      // Untrusted bytes: said once in a while, the crawl goes on.
      std::fprintf(stderr, "worker %s: lessons refused (%lld so far): %s\n",
                   options_.name.c_str(),
                   static_cast<long long>(lessons_refused_),
                   std::string(s.message()).c_str());
    }
  }
  const absl::Time now = absl::Now();
  if (now < next_lessons_) return;
  next_lessons_ = now + absl::Milliseconds(100);
  std::string mine = context.TakeLessons();
  if (mine.empty()) return;
  absl::MutexLock lock(&mu_);
  lessons_out_bytes_ += mine.size();
  lessons_out_.push_back(std::move(mine));
  // A coordinator out of reach: the oldest lessons go first.
  while (lessons_out_bytes_ > kMaxLessonBacklog) {
    lessons_out_bytes_ -= lessons_out_.front().size();
    lessons_out_.pop_front();
  }
}

void ClusterNode::Impl::Publish(ClusterContext& context, bool idle) {
  const absl::Time now = absl::Now();
  const bool nothing_moving = to_hand_over_.empty() && in_handoff_.empty();
  int64_t queued = 0, in_flight = 0, pages = 0;
  context.Figures(&queued, &in_flight, &pages);
  // Resting: idle, or no transfer under way (its hosts wait out their
  // delays, or it has no token: the coordinator grants them to the workers
  // holding the crawl's best URLs).
  const bool resting = idle || in_flight == 0;
  if (!resting) {
    idle_since_ = absl::InfiniteFuture();
  } else if (idle_since_ == absl::InfiniteFuture()) {
    idle_since_ = now;
  }
  // A worker resting for a while returns its tokens so that busy ones get
  // them (not at once: tokens that just arrived are about to be used).
  // Without it a worker that cannot use its tokens soon would keep those
  // the worker holding the best URLs waits for.
  if (resting && now - idle_since_ >= absl::Milliseconds(300) &&
      now - tokens_arrived_ >= absl::Milliseconds(300) && tokens_.load() > 0) {
    const int64_t back = tokens_.exchange(0);
    absl::MutexLock lock(&mu_);
    quota_unused_ += back;
  }
  if (now < next_publish_ && !(idle && nothing_moving)) return;
  next_publish_ = now + absl::Milliseconds(50);
  const std::optional<double> best = context.BestQueuedScore();
  const std::vector<std::pair<double, int64_t>> top =
      context.TopQueued(kBestQueuedEntries, kBestQueuedEntries);
  if (now >= next_host_count_) {
    next_host_count_ = now + absl::Seconds(2);
    if (absl::StatusOr<std::vector<std::string>> hosts = context.Hosts();
        hosts.ok()) {
      int64_t owned = 0;
      for (const std::string& h : *hosts) owned += Owns(h) ? 1 : 0;
      hosts_owned_ = owned;
    }
  }
  absl::MutexLock lock(&mu_);
  proto::WorkerStats& s = stats_;
  s.set_name(options_.name);
  s.set_pages_fetched(pages);
  s.set_on_topic(on_topic_);
  s.set_labelled_on_topic(labelled_);
  s.set_errors(errors_);
  s.mutable_errors_by_kind()->clear();
  for (const auto& [k, v] : errors_by_kind_)
    (*s.mutable_errors_by_kind())[k] = v;
  s.set_queued(queued);
  s.mutable_skipped()->clear();
  for (const auto& [k, v] : context.Skipped()) (*s.mutable_skipped())[k] = v;
  if (best.has_value() && std::isfinite(*best)) {
    s.set_best_queued_score(*best);
  } else {
    s.clear_best_queued_score();
  }
  s.set_in_flight(in_flight);
  s.set_hosts_owned(hosts_owned_);
  s.set_links_accepted(links_accepted_);
  s.set_ranks_applied(ranks_applied_);
  s.set_lessons_applied(lessons_applied_);
  s.set_lessons_refused(lessons_refused_);
  s.clear_best_queued();
  for (const auto& [score, count] : top) {
    proto::ScoreCount* c = s.add_best_queued();
    c->set_score(score);
    c->set_count(count);
  }
  s.set_ranks_requeued(ranks_requeued_);
  s.set_hosts_taken(hosts_taken_);
  s.set_hosts_handed_over(hosts_handed_over_);
  s.set_outbox(static_cast<int64_t>(outbox_.size() + route_buffer_.size()) +
               sending_);
  idle_ = idle && nothing_moving && route_buffer_.empty();
  if (nothing_moving && acting_ != nullptr) {
    handed_over_version_ = acting_->version();
  }
}

// ------------------------------------------------------------ handlers

grpc::Status ClusterNode::Impl::Deliver(
    const std::string& crawl_id,
    std::vector<std::shared_ptr<InboxItem>> items) {
  {
    absl::MutexLock lock(&mu_);
    const absl::Time deadline = absl::Now() + options_.rpc_timeout / 2;
    auto ready = [&]() ABSL_SHARED_LOCKS_REQUIRED(mu_) {
      return !running_crawl_id_.empty() &&
             (crawl_id.empty() || running_crawl_id_ == crawl_id);
    };
    while (!ready() && !shutting_down_.load() && absl::Now() < deadline) {
      crawl_cv_.WaitWithDeadline(&mu_, deadline);
    }
    if (!ready()) {
      return grpc::Status(
          grpc::StatusCode::UNAVAILABLE,
          absl::StrCat("worker ", options_.name, " is not running crawl '",
                       crawl_id, "' (running: '", running_crawl_id_, "')"));
    }
    for (auto& item : items) inbox_.push_back(item);
  }
  for (auto& item : items) {
    if (!item->done.WaitForNotificationWithTimeout(4 * options_.rpc_timeout)) {
      return grpc::Status(grpc::StatusCode::UNAVAILABLE,
                          "the crawl did not apply the data in time");
    }
    if (!item->status.ok()) return cluster::ToGrpc(item->status);
  }
  return grpc::Status::OK;
}

grpc::Status ClusterNode::Impl::Leaving(absl::string_view what) const {
  // A draining node is out of the view: it owns none of the hosts of the
  // links or hosts it is sent, and once it has said "handed over" it may be
  // told to exit, so whatever it took then could go with it. The sender
  // (whose view is older) keeps them for their owner under the newer view.
  return grpc::Status(
      grpc::StatusCode::UNAVAILABLE,
      absl::StrCat("worker ", options_.name, " is leaving the cluster: send ",
                   what, " to their owner under the newer view"));
}

grpc::Status ClusterNode::Impl::AcceptLinks(
    const proto::AcceptLinksRequest& request,
    proto::AcceptLinksResponse* response) {
  if (request.links_size() > kMaxLinksPerCall) {
    return grpc::Status(
        grpc::StatusCode::INVALID_ARGUMENT,
        absl::StrCat(request.links_size(), " links in one call; at most ",
                     kMaxLinksPerCall));
  }
  if (request.ranks_size() > kMaxLinksPerCall) {
    return grpc::Status(
        grpc::StatusCode::INVALID_ARGUMENT,
        absl::StrCat(request.ranks_size(), " ranks in one call; at most ",
                     kMaxLinksPerCall));
  }
  if (request.links_size() > 0 && drain_.load()) return Leaving("links");
  std::vector<std::shared_ptr<InboxItem>> items;
  if (request.links_size() > 0) {
    auto item = std::make_shared<InboxItem>();
    item->kind = InboxItem::Kind::kLinks;
    item->records.reserve(request.links_size());
    for (int i = 0; i < request.links_size(); ++i) {
      const LinkRecord& r = request.links(i).record();
      if (absl::Status s = CheckRecord(r, i); !s.ok()) {
        return cluster::ToGrpc(s);
      }
      const std::string& context = request.links(i).link_context();
      if (context.size() > focus::Strategy::kMaxLinkContextBytes) {
        return grpc::Status(
            grpc::StatusCode::INVALID_ARGUMENT,
            absl::StrCat("links[", i, "].link_context: ", context.size(),
                         " bytes; at most ",
                         focus::Strategy::kMaxLinkContextBytes));
      }
      item->records.push_back(r);
      item->link_contexts.push_back(context);
    }
    items.push_back(std::move(item));
  }
  std::shared_ptr<InboxItem> ranks;
  if (request.ranks_size() > 0) {
    ranks = std::make_shared<InboxItem>();
    ranks->kind = InboxItem::Kind::kRanks;
    ranks->ranks.reserve(request.ranks_size());
    for (int i = 0; i < request.ranks_size(); ++i) {
      const proto::RankedPage& p = request.ranks(i);
      if (absl::Status s = cluster::CheckRankedPage(p, i); !s.ok()) {
        return cluster::ToGrpc(s);
      }
      ranks->ranks.emplace_back(p.url(), p.rank());
    }
    items.push_back(ranks);
  }
  if (items.empty()) return grpc::Status::OK;
  grpc::Status s = Deliver(request.crawl_id(), std::move(items));
  if (!s.ok()) return s;
  response->set_accepted(request.links_size());
  if (ranks != nullptr) {
    response->set_ranks_applied(ranks->ranks_applied);
    response->set_ranks_requeued(ranks->ranks_requeued);
  }
  return s;
}

grpc::Status ClusterNode::Impl::TakeHosts(
    grpc::ServerReader<proto::HostChunk>* reader,
    proto::TakeHostsResponse* response) {
  if (drain_.load()) return Leaving("hosts");
  std::vector<std::shared_ptr<InboxItem>> items;
  std::shared_ptr<InboxItem> current;
  std::string crawl_id;
  int64_t records = 0;
  proto::HostChunk chunk;
  while (reader->Read(&chunk)) {
    if (chunk.host().empty() || chunk.host().size() > kMaxHostBytes) {
      return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                          "a handoff chunk without a valid host");
    }
    crawl_id = chunk.crawl_id();
    if (current == nullptr || current->host != chunk.host()) {
      if (current != nullptr) {
        return grpc::Status(
            grpc::StatusCode::INVALID_ARGUMENT,
            absl::StrCat("host ", current->host,
                         " ended without host_done before ", chunk.host()));
      }
      current = std::make_shared<InboxItem>();
      current->kind = InboxItem::Kind::kHost;
      current->host = chunk.host();
      if (chunk.has_host_record()) current->host_record = chunk.host_record();
      current->site_state = chunk.site_state();
    }
    records += chunk.records_size();
    if (records > kMaxRecordsPerHandoff) {
      return grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED,
                          absl::StrCat("over ", kMaxRecordsPerHandoff,
                                       " records in one handoff"));
    }
    for (int i = 0; i < chunk.records_size(); ++i) {
      const LinkRecord& r = chunk.records(i);
      if (absl::Status s = CheckRecord(r, i); !s.ok()) {
        return cluster::ToGrpc(s);
      }
      if (storage::HostKey(r.url()) != current->host) {
        return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                            absl::StrCat("record ", i, " (", r.url(),
                                         ") is not of host ", current->host));
      }
      current->records.push_back(r);
    }
    if (chunk.host_done()) {
      items.push_back(std::move(current));
      current = nullptr;
    }
  }
  if (current != nullptr) {
    return grpc::Status(
        grpc::StatusCode::INVALID_ARGUMENT,
        absl::StrCat("the stream ended inside host ", current->host));
  }
  if (items.empty()) return grpc::Status::OK;
  grpc::Status s = Deliver(crawl_id, items);
  if (s.ok()) {
    response->set_hosts(static_cast<int64_t>(items.size()));
    response->set_records(records);
  }
  return s;
}

grpc::Status ClusterNode::Impl::Export(const proto::ExportRequest& request,
                                       proto::ExportResponse* response) {
  // Only inside this worker's export root, whoever asks.
  absl::StatusOr<std::string> out_dir =
      file::ConfinedPath(export_root_, request.out_dir());
  if (!out_dir.ok()) {
    return cluster::ToGrpc(absl::Status(
        out_dir.status().code(),
        absl::StrCat("out_dir: ", out_dir.status().message(),
                     " (this worker exports only inside --export_root ",
                     export_root_, ")")));
  }
  std::string folder;
  {
    absl::MutexLock lock(&mu_);
    folder = data_folder_;
  }
  if (folder.empty()) {
    return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION,
                        "this worker has no crawl to export");
  }
  if (request.corpus()) {
    // The worker's corpus records, the latest per URL, as one file.
    std::error_code ec;
    std::filesystem::create_directories(*out_dir, ec);
    if (ec) {
      return grpc::Status(
          grpc::StatusCode::PERMISSION_DENIED,
          absl::StrCat("cannot create folder ", *out_dir, ": ", ec.message()));
    }
    corpus::CorpusStats stats;
    absl::Status s = corpus::ExportCorpus(
        {folder}, {}, std::nullopt, corpus::ExportOptions(),
        absl::StrCat(*out_dir, "/", formats::CrawlLog::kPagesName), &stats);
    if (!s.ok()) return cluster::ToGrpc(s);
    response->set_pages(stats.written);
    response->add_shards(
        absl::StrCat(*out_dir, "/", formats::CrawlLog::kPagesName));
    return grpc::Status::OK;
  }
  GraphExportOptions o;
  o.worker = options_.name;
  if (request.shard_pages() > 0) o.pages_per_shard = request.shard_pages();
  absl::StatusOr<GraphExportSummary> s =
      ExportGraph(folder + "/db", *out_dir, o);
  if (!s.ok()) return cluster::ToGrpc(s.status());
  response->set_pages(s->pages);
  response->set_links(s->links);
  response->add_shards(absl::StrCat(s->shards, " shards in ", *out_dir));
  return grpc::Status::OK;
}

proto::WorkerStats ClusterNode::Impl::Stats() {
  absl::MutexLock lock(&mu_);
  proto::WorkerStats s = stats_;
  s.set_name(options_.name);
  s.set_cpu_seconds(cluster::ProcessCpuSeconds());
  s.set_links_routed(links_routed_);
  return s;
}

// ----------------------------------------------------------------- run

absl::Status ClusterNode::Impl::Run(std::atomic<int>* stop,
                                    absl::Duration give_up) {
  heartbeat_thread_ = std::thread([this] { HeartbeatLoop(); });
  send_thread_ = std::thread([this] { SendLoop(); });
  handoff_thread_ = std::thread([this] { HandoffLoop(); });
  const absl::Time started = absl::Now();
  bool left = false;
  std::atomic<bool> crawl_stop{false};
  absl::Status result;
  while (true) {
    if (exit_.load()) break;
    if (stop != nullptr && stop->load() >= 2) break;
    if (stop != nullptr && stop->load() == 1 && !left) {
      bool registered;
      {
        absl::MutexLock lock(&mu_);
        registered = registered_;
      }
      // Never joined: nothing to hand over, nobody to tell.
      if (!registered) break;
      proto::LeaveRequest req;
      req.set_name(options_.name);
      proto::LeaveResponse resp;
      grpc::ClientContext ctx;
      // Short: with the coordinator gone a second signal must still be
      // seen soon.
      cluster::PrepareContext(options_.security, absl::Seconds(1), &ctx);
      const grpc::Status s = coordinator()->Leave(&ctx, req, &resp);
      if (s.ok()) {
        left = true;
      } else if (s.error_code() == grpc::StatusCode::UNAVAILABLE ||
                 s.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED) {
        // Leaving needs the coordinator, and it does not answer: exit; the
        // lease runs out and the hosts move to the others then.
        if (options_.crawler.progress != nullptr) {
          std::fprintf(options_.crawler.progress,
                       "worker %s: the coordinator does not answer (%s); "
                       "exiting without a hand-over\n",
                       options_.name.c_str(), s.error_message().c_str());
        }
        break;
      }
    }
    std::optional<proto::CrawlAssignment> assignment;
    {
      absl::MutexLock lock(&mu_);
      if (!registered_ && absl::Now() - started > give_up) {
        result = absl::UnavailableError(absl::StrCat(
            "the coordinator at ", options_.coordinator, " is unreachable"));
        break;
      }
      const int state = state_.load();
      if (stop != nullptr && stop->load() == 1 && left) break;  // no crawl
      if (assignment_.has_value() &&
          (state == proto::RUNNING || state == proto::PAUSED) &&
          assignment_->crawl_id() != finished_crawl_) {
        assignment = assignment_;
      } else {
        crawl_cv_.WaitWithTimeout(&mu_, absl::Milliseconds(200));
        continue;
      }
    }
    // A crawl for this node: its own folder, the coordinator's budget.
    proto::CrawlConfig config = formats::WithDefaults(assignment->config());
    const std::string folder =
        absl::StrCat(options_.data_dir, "/", assignment->crawl_id());
    config.set_output_dir(folder);
    config.mutable_budget()->set_max_pages(std::numeric_limits<int64_t>::max());
    config.mutable_budget()->set_max_seconds(0);
    on_topic_urls_ = absl::flat_hash_set<std::string>(
        assignment->on_topic_urls().begin(), assignment->on_topic_urls().end());
    on_topic_ = labelled_ = errors_ = 0;
    errors_by_kind_.clear();
    links_accepted_ = hosts_taken_ = hosts_handed_over_ = 0;
    ranks_applied_ = ranks_requeued_ = 0;
    lessons_applied_ = lessons_refused_ = 0;
    {
      // Lessons of an earlier crawl teach this one nothing.
      absl::MutexLock lock(&mu_);
      lessons_in_.clear();
      lessons_in_bytes_ = 0;
      lessons_out_.clear();
      lessons_out_bytes_ = 0;
    }
    to_hand_over_.clear();
    in_handoff_.clear();
    routed_.clear();
    CrawlerOptions co = options_.crawler;
    co.cluster = this;
    co.stop = &crawl_stop;
    absl::StatusOr<std::unique_ptr<Crawler>> crawler =
        Crawler::Create(config, co);
    if (!crawler.ok()) {
      result = crawler.status();
      break;
    }
    {
      absl::MutexLock lock(&mu_);
      running_crawl_id_ = assignment->crawl_id();
      data_folder_ = folder;
      // Every host of the database is checked against the view.
      view_changed_ = view_.version() > 0;
      settled_changed_ = settled_version_shared_ > 0;
      crawl_cv_.SignalAll();
    }
    std::thread watcher([&] {
      // A second signal abandons the crawl at once.
      while (!crawl_stop.load()) {
        if (stop != nullptr && stop->load() >= 2) crawl_stop.store(true);
        absl::MutexLock lock(&mu_);
        if (running_crawl_id_.empty()) break;
        crawl_cv_.WaitWithTimeout(&mu_, absl::Milliseconds(100));
      }
    });
    absl::StatusOr<CrawlSummary> summary = (*crawler)->Run();
    {
      absl::MutexLock lock(&mu_);
      running_crawl_id_.clear();
      crawl_cv_.SignalAll();
      // Whatever arrived too late is refused; the sender tries again.
      for (auto& item : inbox_) {
        item->status = absl::UnavailableError("the crawl ended here");
        item->done.Notify();
      }
      inbox_.clear();
    }
    watcher.join();
    crawler->reset();
    if (!summary.ok()) {
      result = summary.status();
      break;
    }
    if (options_.crawler.progress != nullptr) {
      std::fprintf(options_.crawler.progress,
                   "worker %s: crawl %s ended (%s): %lld pages this run\n",
                   options_.name.c_str(), assignment->crawl_id().c_str(),
                   summary->stop_reason.c_str(),
                   static_cast<long long>(summary->pages_fetched));
    }
    // Done or stopped: not run again; then wait for the next crawl (or the
    // exit after a drain).
    if (summary->stop_reason == "done" || summary->stop_reason == "stopped") {
      finished_crawl_ = assignment->crawl_id();
    }
  }
  Shutdown();
  return result;
}

// ---------------------------------------------------------------- public

ClusterNode::ClusterNode(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ClusterNode::~ClusterNode() = default;

absl::StatusOr<std::unique_ptr<ClusterNode>> ClusterNode::Create(
    const ClusterNodeOptions& options) {
  auto impl = std::make_unique<Impl>(options);
  if (absl::Status s = impl->Start(); !s.ok()) return s;
  return std::unique_ptr<ClusterNode>(new ClusterNode(std::move(impl)));
}

const std::string& ClusterNode::address() const { return impl_->address(); }

absl::Status ClusterNode::Run(std::atomic<int>* stop, absl::Duration give_up) {
  return impl_->Run(stop, give_up);
}

}  // namespace fcrawl::worker
