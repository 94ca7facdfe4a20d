// The crawl coordinator (docs/design.md "The cluster" tells the protocol;
// the contract is proto/cluster.proto): membership with leases, the view
// that rendezvous hashing partitions hosts over, fetch quotas against the
// global page budget, links routed to their owners, the crawl lifecycle and
// the figures behind /status and /metrics. Its state lives in a small store
// of its own, a log file with snapshots (state_store.h), so a restarted
// coordinator knows the crawl, its budget and its workers.
//
// Membership. Register(name, address) adds an unknown (or expired) name to
// the view (version + 1); a known live member only renews its lease (a new
// address also bumps the version); a draining member stays draining. Every
// Register/Heartbeat renews the lease (options.lease); a member whose lease
// passed is removed from the view by the ticker (version + 1), a draining
// one is dropped. Heartbeat from an unknown name → NOT_FOUND ("not a member:
// register again"). Leave(name) and Scale(n) (the members last by name)
// make members draining: out of the view (version + 1), answered drain=true
// until they report handed_over_version >= the current version, idle and an
// empty outbox; then exit=true and they are forgotten (their last figures
// are added to CoordinatorState.departed so totals never go down).
//
// Settled view. Once every member and every draining member reports
// handed_over_version >= the current version, settled_version/settled_view
// become the current view (persisted). Every heartbeat answer carries
// settled_version and settled_view (it is small), the view when the
// worker's view_version differs, the crawl state, the crawl assignment when
// the worker's crawl_id differs.
//
// Quota. While RUNNING, a member of the view working on the current crawl
// that wants quota gets chunk = clamp(remaining / (4 × members), 32, 1024)
// (never more than remaining)
// page tokens, remaining = budget.max_pages − quota_granted; quota_granted
// is persisted (synced) before the answer, so grants never exceed the
// budget, also across restarts. Returned tokens (quota_unused) are taken
// back, but quota_granted never drops below the pages already reported.
//
// Routing. The workers send the links they find straight to each other
// (worker/member/cluster_node.h); the coordinator routes only seeds, ranks and
// what other clients give RouteLinks. RouteLinks checks every record (absolute
// http(s) URL of at most 2048 bytes with a host, status QUEUED, depth >= 0; at
// most max_links_per_route), groups the links by owner under the current view
// and calls each owner's Worker.AcceptLinks (in parallel, one cached channel
// per address, route_timeout each). Any owner failing → UNAVAILABLE naming
// it (the others got theirs; redelivery is idempotent on the worker). No
// members → UNAVAILABLE. Seeds (config.seeds plus the interest strategy's
// scope start URLs) are routed the same way by the ticker once a crawl runs
// and there are members, and again after every view change that removed a
// member (a dead worker's seeds get a new owner); after a lease expiry only
// two leases later, so that a worker started again on its folder hands its
// fetched seeds over before they are routed anew.
//
// Ranking feedback. PushRanks checks every rank (cluster::CheckRankedPage;
// at most max_ranks_per_push) and that it is for the current crawl, which
// must be RUNNING or PAUSED (else FAILED_PRECONDITION), groups the ranks by
// the owner of their host and hands them to each owner with
// Worker.AcceptLinks (the `ranks` field), like routed links; the owners
// store them and re-score their queued URLs. ExportGraph asks every member
// to export its part of the graph into <out_dir>/<member name> (out_dir
// absolute; the members export in parallel) and reports each one's result;
// a member that fails is reported with its error, the call itself fails
// only when no member exported.
//
// Lifecycle. StartCrawl(config) fills in the defaults, validates
// (INVALID_ARGUMENT with the validator's message) and refuses to replace a
// RUNNING/PAUSED/STOPPING crawl without force (FAILED_PRECONDITION). Control:
// PAUSE RUNNING→PAUSED, RESUME PAUSED→RUNNING, STOP RUNNING/PAUSED→STOPPED;
// anything else FAILED_PRECONDITION naming the state. DONE is decided by the
// ticker: RUNNING, seeds routed, the view settled, no route running, no
// draining member, at least one member, and at a "check" — a tick at which
// every member has sent a heartbeat since the previous check — every member
// works on the current crawl under the current view and is quiet: idle, or,
// once quota_granted >= budget, wanting quota with nothing in flight and an
// empty outbox (a worker with queued URLs but no tokens never says idle).
// Two checks at least lease/4 apart with the same per-worker (pages_fetched,
// links_accepted, hosts_taken, links_routed) and the same coordinator
// links_routed → DONE, stop_reason "budget" when quota_granted >= budget,
// else "frontier empty". budget.max_seconds > 0 and elapsed past it (RUNNING
// or PAUSED) → DONE "time".
//
// Restart. Create() reloads the state; every member and draining member gets
// a fresh lease from now; settled state and per-worker figures come from the
// store. Stored keys: "state" (CoordinatorState whose crawl holds only the
// crawl_id, rewritten on every change), "crawl" (the full CrawlAssignment,
// written once per crawl: on_topic_urls may be megabytes), "stats/<name>"
// (each worker's last figures, flushed every second).
//
// Thread-safety: the service methods, Status(), Tick() and history() may be
// called from any thread. Outbound calls to workers are made without the
// lock held. Start() runs the ticker (lease expiry, done detection, history,
// stats flush every tick) and a seeding thread; Stop() (also the destructor)
// joins them and flushes the state.
#ifndef FCRAWL_COORDINATOR_COORDINATOR_H_
#define FCRAWL_COORDINATOR_COORDINATOR_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "cluster/rendezvous.h"
#include "cluster/rpc.h"
#include "coordinator/http_status.h"
#include "coordinator/lesson_relay.h"
#include "coordinator/state_store.h"
#include "proto/cluster.grpc.pb.h"
#include "proto/cluster.pb.h"

namespace fcrawl::coordinator {

struct CoordinatorOptions {
  // A member that sends no heartbeat for this long leaves the view. Workers
  // heartbeat every lease / 4.
  absl::Duration lease = absl::Seconds(5);
  // Period of the ticker (lease expiry, seeding, done detection, history).
  absl::Duration tick = absl::Milliseconds(200);
  // Deadline of each Worker.AcceptLinks call.
  absl::Duration route_timeout = absl::Seconds(10);
  // Links in one RouteLinks call.
  int max_links_per_route = 10000;
  // Ranks in one PushRanks call (proto/cluster.proto's limit).
  int max_ranks_per_push = 100000;
  // Deadline of each Worker.Export call (ExportGraph): a worker writes its
  // whole part of the graph.
  absl::Duration export_timeout = absl::Minutes(10);
  // Labelled on-topic URLs of a crawl (each at most 2048 bytes, all together
  // at most kMaxOnTopicBytes so the assignment fits in one message).
  int max_on_topic_urls = 2000000;
  // Token / TLS for the calls to the workers.
  cluster::RpcSecurity security;
  // Folder of the coordinator's database (created when missing). Required.
  std::string data_dir;
  // The clock (tests inject a fake one); null = absl::Now.
  std::function<absl::Time()> now;
};

// Bytes of all on_topic_urls of a crawl together.
inline constexpr int64_t kMaxOnTopicBytes = 16 << 20;
// Bytes of a URL (url::kMaxUrlLength).
inline constexpr size_t kMaxRoutedUrlBytes = 2048;

class Coordinator final : public proto::Coordinator::Service {
 public:
  // Opens the database in options.data_dir and reloads the state.
  // InvalidArgument for bad options; the store's error when it cannot open.
  static absl::StatusOr<std::unique_ptr<Coordinator>> Create(
      CoordinatorOptions options);
  ~Coordinator() override;
  Coordinator(const Coordinator&) = delete;
  Coordinator& operator=(const Coordinator&) = delete;

  // Starts / stops the ticker and seeding threads (idempotent).
  void Start() ABSL_LOCKS_EXCLUDED(mu_);
  void Stop() ABSL_LOCKS_EXCLUDED(mu_);

  // One round of the ticker's work, seeding included (synchronously). Tests
  // call it instead of Start().
  void Tick() ABSL_LOCKS_EXCLUDED(mu_);

  // The crawl's figures now (for /status and /metrics).
  proto::StatusResponse Status() ABSL_LOCKS_EXCLUDED(mu_);
  // One sample per second while a crawl runs (cleared by StartCrawl).
  StatusHistory& history() { return history_; }

  // proto::Coordinator::Service. `context` is not used (may be null).
  grpc::Status Register(grpc::ServerContext* context,
                        const proto::RegisterRequest* request,
                        proto::RegisterResponse* response) override
      ABSL_LOCKS_EXCLUDED(mu_);
  grpc::Status Heartbeat(grpc::ServerContext* context,
                         const proto::HeartbeatRequest* request,
                         proto::HeartbeatResponse* response) override
      ABSL_LOCKS_EXCLUDED(mu_);
  grpc::Status RouteLinks(grpc::ServerContext* context,
                          const proto::RouteLinksRequest* request,
                          proto::RouteLinksResponse* response) override
      ABSL_LOCKS_EXCLUDED(mu_);
  grpc::Status Leave(grpc::ServerContext* context,
                     const proto::LeaveRequest* request,
                     proto::LeaveResponse* response) override
      ABSL_LOCKS_EXCLUDED(mu_);
  grpc::Status StartCrawl(grpc::ServerContext* context,
                          const proto::StartCrawlRequest* request,
                          proto::StartCrawlResponse* response) override
      ABSL_LOCKS_EXCLUDED(mu_);
  grpc::Status Control(grpc::ServerContext* context,
                       const proto::ControlRequest* request,
                       proto::ControlResponse* response) override
      ABSL_LOCKS_EXCLUDED(mu_);
  grpc::Status Scale(grpc::ServerContext* context,
                     const proto::ScaleRequest* request,
                     proto::ScaleResponse* response) override
      ABSL_LOCKS_EXCLUDED(mu_);
  grpc::Status GetStatus(grpc::ServerContext* context,
                         const proto::StatusRequest* request,
                         proto::StatusResponse* response) override
      ABSL_LOCKS_EXCLUDED(mu_);
  grpc::Status PushRanks(grpc::ServerContext* context,
                         const proto::PushRanksRequest* request,
                         proto::PushRanksResponse* response) override
      ABSL_LOCKS_EXCLUDED(mu_);
  grpc::Status ExportGraph(grpc::ServerContext* context,
                           const proto::ExportGraphRequest* request,
                           proto::ExportGraphResponse* response) override
      ABSL_LOCKS_EXCLUDED(mu_);

 private:
  // What the coordinator knows of a member (or draining member) beyond its
  // name and address; not stored: a restart starts from a fresh lease.
  struct Runtime {
    absl::Time lease_deadline;
    std::string crawl_id;
    uint64_t view_version = 0;
    uint64_t handed_over_version = 0;
    bool idle = false;
    bool wants_quota = false;
    int64_t heartbeats = 0;
    // When it was last granted page quota; whether its last request was
    // refused (QuotaShareLocked gave it nothing, or the crawl was paused):
    // a refused worker is offered its share on every heartbeat.
    absl::Time last_grant = absl::InfinitePast();
    bool refused = false;
  };
  // Links grouped by owner, ready to send.
  struct OwnerBatch {
    std::string name;
    std::string address;
    proto::AcceptLinksRequest request;
  };
  // The per-worker figures two done checks compare.
  struct DoneSnapshot {
    std::vector<std::tuple<std::string, int64_t, int64_t, int64_t, int64_t>>
        workers;
    int64_t links_routed = 0;
    bool operator==(const DoneSnapshot& o) const {
      return workers == o.workers && links_routed == o.links_routed;
    }
  };

  Coordinator(CoordinatorOptions options, std::unique_ptr<StateStore> store);
  absl::Status Load() ABSL_LOCKS_EXCLUDED(mu_);

  absl::Time Now() const { return options_.now(); }

  // Writes "state", the dirty worker figures and `extra`.
  absl::Status PersistLocked(bool sync, StateWrite extra = {})
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Persists; on failure logs to stderr (for paths that cannot answer).
  void PersistOrLogLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  bool HasCrawlLocked() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    return !state_.crawl().crawl_id().empty();
  }
  int FindMemberLocked(const std::string& name) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  int FindDrainingLocked(const std::string& name) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // A view change: version + 1, the partition rebuilt; `removed` (a member
  // left the view) also asks for the seeds to be routed again.
  void ViewChangedLocked(bool removed) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Removes members and draining members whose lease passed; true when
  // something changed (persisted).
  bool ExpireLeasesLocked(absl::Time now) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Moves view member `index` to the draining list (no version change).
  void MakeDrainingLocked(int index) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Settles the current view when everybody handed over under it; true
  // when it did (state dirty, not yet persisted).
  bool CheckSettledLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // How many of the next `chunk` pages worker `name` gets: under a focused
  // strategy (strategy.order_window > 0) as many as it holds among the
  // crawl's `chunk` best queued URLs (WorkerStats.best_queued of every
  // member), or kStarveGrant when it holds none and had none for
  // kStarveAfter; `chunk` otherwise.
  int64_t QuotaShareLocked(const std::string& name, const Runtime& rt,
                           int64_t chunk, absl::Time now) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void CheckDoneLocked(absl::Time now) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void FinishLocked(proto::CrawlState state, const std::string& reason,
                    absl::Time now) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  int64_t TotalPagesLocked() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  proto::StatusResponse StatusLocked(absl::Time now) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void SampleLocked(absl::Time now, bool force)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  // Ticker work without seeding.
  void Housekeeping() ABSL_LOCKS_EXCLUDED(mu_);
  // Routes the seeds when they are due; no-op otherwise.
  void RouteSeedsIfDue() ABSL_LOCKS_EXCLUDED(mu_);
  // The current partition for a route about to start (routes_in_progress_
  // + 1; EndRoute takes it back). Unavailable when the view is empty.
  absl::StatusOr<std::shared_ptr<const cluster::HostPartition>>
  BeginRouteLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void EndRoute(int64_t delivered, bool count) ABSL_LOCKS_EXCLUDED(mu_);
  // Groups items i (links or ranks, with their HostKeys hosts[i]) by owner
  // under `partition`; add(i, request) puts item i into its owner's request,
  // at most cluster::kMaxLinksPerAccept items a request (an owner with more
  // gets several requests).
  static std::vector<OwnerBatch> Group(
      const cluster::HostPartition& partition, const std::string& crawl_id,
      const std::vector<std::string>& hosts,
      const std::function<void(size_t, proto::AcceptLinksRequest*)>& add);
  // Sends the batches in parallel; returns the links and ranks delivered
  // and the first failure (Unavailable naming the owner). `responses`, when
  // set, gets each batch's answer (in batch order).
  std::pair<int64_t, absl::Status> Deliver(
      std::vector<OwnerBatch>& batches,
      std::vector<proto::AcceptLinksResponse>* responses = nullptr)
      ABSL_LOCKS_EXCLUDED(mu_);

  void TickerLoop() ABSL_LOCKS_EXCLUDED(mu_);
  void SeederLoop() ABSL_LOCKS_EXCLUDED(mu_);

  CoordinatorOptions options_;
  std::unique_ptr<StateStore> store_;
  StatusHistory history_;

  mutable absl::Mutex mu_;
  proto::CoordinatorState state_ ABSL_GUARDED_BY(mu_);
  // Members and draining members by name.
  std::map<std::string, Runtime> runtime_ ABSL_GUARDED_BY(mu_);
  // The last figures of every worker of the current crawl (members, draining
  // members and members whose lease expired, which may come back).
  std::map<std::string, proto::WorkerStats> stats_ ABSL_GUARDED_BY(mu_);
  std::set<std::string> stats_dirty_ ABSL_GUARDED_BY(mu_);
  bool state_dirty_ ABSL_GUARDED_BY(mu_) = false;
  // links_routed moved: written with the next stats flush.
  bool counters_dirty_ ABSL_GUARDED_BY(mu_) = false;
  std::shared_ptr<const cluster::HostPartition> partition_ ABSL_GUARDED_BY(mu_);
  int routes_in_progress_ ABSL_GUARDED_BY(mu_) = 0;
  bool seeding_ ABSL_GUARDED_BY(mu_) = false;
  // + 1 on every view change that removed a member; a seeding that saw the
  // counter change is repeated.
  uint64_t removals_ ABSL_GUARDED_BY(mu_) = 0;
  // Done detection: heartbeats counted at the last check, and the first
  // check of the current quiet stretch.
  std::map<std::string, int64_t> checked_heartbeats_ ABSL_GUARDED_BY(mu_);
  bool have_candidate_ ABSL_GUARDED_BY(mu_) = false;
  DoneSnapshot candidate_ ABSL_GUARDED_BY(mu_);
  absl::Time candidate_time_ ABSL_GUARDED_BY(mu_);
  // (time, pages) of the last seconds, for pages_per_second.
  std::deque<std::pair<absl::Time, int64_t>> rate_ ABSL_GUARDED_BY(mu_);
  absl::Time last_sample_ ABSL_GUARDED_BY(mu_) = absl::InfinitePast();
  absl::Time last_flush_ ABSL_GUARDED_BY(mu_) = absl::InfinitePast();
  // Seeds are not routed again before this (ExpireLeasesLocked).
  absl::Time reseed_after_ ABSL_GUARDED_BY(mu_) = absl::InfinitePast();
  // When a heartbeat next looks for expired leases.
  absl::Time next_expiry_scan_ ABSL_GUARDED_BY(mu_) = absl::InfinitePast();
  bool stop_ ABSL_GUARDED_BY(mu_) = false;
  bool started_ ABSL_GUARDED_BY(mu_) = false;
  // The current crawl's lessons, relayed between its workers (in memory).
  LessonRelay lessons_ ABSL_GUARDED_BY(mu_){std::random_device()() | 1u};

  cluster::StubCache<proto::Worker> worker_stubs_{options_.security};

  std::thread ticker_;
  std::thread seeder_;
};

// Address rules (host:port, at most 256 bytes, port 1..65535);
// InvalidArgument naming the problem. (Names: cluster::ValidateMemberName.)
absl::Status ValidateMemberAddress(const std::string& address);

}  // namespace fcrawl::coordinator

#endif  // FCRAWL_COORDINATOR_COORDINATOR_H_
