// Coordinator (coordinator/coordinator.h): life cycle, persistence, the
// heartbeat with its page quota, the ticker's housekeeping and status.
// Membership (register, leave, scale, leases, views, settling) is in
// membership.cc, the crawl's lifecycle (start, control, done) in
// crawl_lifecycle.cc, link delivery (routing) in routing.cc: the coordinator
// is one state machine under one mutex, split by the requests it answers.
// The invariants that cross the parts stay where they are kept: a grant is
// on disk before it is given (Heartbeat and PersistLocked, here); a view
// settles only when every member handed over (CheckSettledLocked,
// membership.cc); a crawl is done only when every member is quiet and
// nothing is being routed (CheckDoneLocked, crawl_lifecycle.cc). The state
// file is state_store.h's, the status page http_status.h's.
#include "coordinator/coordinator.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "cluster/outcomes.h"
#include "coordinator/coordinator_internal.h"
#include "core/file.h"

namespace fcrawl::coordinator {

using internal::Invalid;
using internal::kCrawlPrefix;
using internal::kQuotaKey;
using internal::kStateKey;
using internal::kStatsPrefix;

namespace {

// Bytes of a crawl_id a worker may send (ours are 26).
constexpr size_t kMaxCrawlIdBytes = 128;
constexpr int kMaxErrorKinds = 64;
// WorkerStats.best_queued entries (the worker sends at most 64).
constexpr int kMaxBestQueued = 64;
// focus::Strategy::kMaxLessonBytes (the coordinator does not link focus/).
constexpr size_t kMaxLessonBytes = 256 << 10;
constexpr size_t kMaxErrorKindBytes = 64;
// WorkerStats.paused: a sentence naming a folder.
constexpr size_t kMaxPausedBytes = 1024;
// Largest chunk of page tokens one heartbeat gets.
constexpr int64_t kMaxQuotaChunk = 1024;
constexpr int64_t kMinQuotaChunk = 32;
// A worker none of whose URLs are among the crawl's best still gets this
// many pages when it has had none for kStarveAfter (QuotaShareLocked), so
// the crawl never waits on URLs their owner cannot fetch.
constexpr int64_t kStarveGrant = 2;
constexpr absl::Duration kStarveAfter = absl::Seconds(2);
// pages_per_second is measured over this window.
constexpr absl::Duration kRateWindow = absl::Seconds(5);

absl::Status ValidateStats(const proto::WorkerStats& s) {
  if (s.name().size() > 64) {
    return absl::InvalidArgumentError("stats.name is over 64 bytes");
  }
  const std::pair<const char*, int64_t> counters[] = {
      {"pages_fetched", s.pages_fetched()},
      {"on_topic", s.on_topic()},
      {"labelled_on_topic", s.labelled_on_topic()},
      {"errors", s.errors()},
      {"queued", s.queued()},
      {"in_flight", s.in_flight()},
      {"hosts_owned", s.hosts_owned()},
      {"links_routed", s.links_routed()},
      {"links_accepted", s.links_accepted()},
      {"hosts_taken", s.hosts_taken()},
      {"hosts_handed_over", s.hosts_handed_over()},
      {"outbox", s.outbox()},
      {"robots_fetched", s.robots_fetched()},
      {"bytes_fetched", s.bytes_fetched()},
      {"memory_bytes", s.memory_bytes()},
      {"fetch_outcomes.on_topic", s.fetch_outcomes().on_topic()},
      {"fetch_outcomes.off_topic", s.fetch_outcomes().off_topic()},
      {"fetch_outcomes.not_found", s.fetch_outcomes().not_found()},
      {"fetch_outcomes.http_error", s.fetch_outcomes().http_error()},
      {"fetch_outcomes.transport_error", s.fetch_outcomes().transport_error()},
      {"fetch_outcomes.robots", s.fetch_outcomes().robots()},
      {"fetch_outcomes.not_html", s.fetch_outcomes().not_html()},
      {"fetch_outcomes.redirected", s.fetch_outcomes().redirected()},
      {"fetch_outcomes.on_topic_hosts", s.fetch_outcomes().on_topic_hosts()},
  };
  for (const auto& [field, value] : counters) {
    if (value < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("stats.", field, " is negative (", value, ")"));
    }
  }
  if (s.best_queued_size() > kMaxBestQueued) {
    return absl::InvalidArgumentError(
        absl::StrCat("stats.best_queued has ", s.best_queued_size(),
                     " entries; at most ", kMaxBestQueued));
  }
  for (const proto::ScoreCount& c : s.best_queued()) {
    if (std::isnan(c.score()) || c.count() < 0) {
      return absl::InvalidArgumentError(
          "stats.best_queued: a score must be a number and a count >= 0");
    }
  }
  if (s.paused().size() > kMaxPausedBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("stats.paused is over ", kMaxPausedBytes, " bytes"));
  }
  if (!std::isfinite(s.cpu_seconds()) || s.cpu_seconds() < 0) {
    return absl::InvalidArgumentError(
        "stats.cpu_seconds must be a finite number >= 0");
  }
  if (absl::Status folders = cluster::ValidateDeadFolders(s.dead_folders());
      !folders.ok()) {
    return folders;
  }
  for (const auto& [field, counts] :
       {std::pair<absl::string_view,
                  const google::protobuf::Map<std::string, int64_t>*>{
            "errors_by_kind", &s.errors_by_kind()},
        {"skipped", &s.skipped()},
        {"http_statuses", &s.http_statuses()},
        {"content_types", &s.content_types()}}) {
    if (counts->size() > kMaxErrorKinds) {
      return absl::InvalidArgumentError(
          absl::StrCat("stats.", field, " has ", counts->size(),
                       " kinds; at most ", kMaxErrorKinds));
    }
    for (const auto& [kind, count] : *counts) {
      if (kind.empty() || kind.size() > kMaxErrorKindBytes) {
        return absl::InvalidArgumentError(
            absl::StrCat("stats.", field, ": a kind must have 1 to ",
                         kMaxErrorKindBytes, " bytes"));
      }
      if (count < 0) {
        return absl::InvalidArgumentError(absl::StrCat(
            "stats.", field, "[", kind, "] is negative (", count, ")"));
      }
    }
  }
  return absl::OkStatus();
}

// Combines each cumulative figure of `from` into the same figure of `to`
// (per key for the maps) with `combine(to's value, from's value)`. The one
// list of the figures that count up over a crawl; gauges such as queued or
// in_flight are not in it.
template <typename Combine>
void CombineCumulative(const proto::WorkerStats& from, proto::WorkerStats* to,
                       Combine combine) {
  to->set_pages_fetched(combine(to->pages_fetched(), from.pages_fetched()));
  to->set_on_topic(combine(to->on_topic(), from.on_topic()));
  to->set_labelled_on_topic(
      combine(to->labelled_on_topic(), from.labelled_on_topic()));
  to->set_errors(combine(to->errors(), from.errors()));
  for (const auto& [kind, count] : from.errors_by_kind()) {
    int64_t& c = (*to->mutable_errors_by_kind())[kind];
    c = combine(c, count);
  }
  for (const auto& [reason, count] : from.skipped()) {
    int64_t& c = (*to->mutable_skipped())[reason];
    c = combine(c, count);
  }
  for (const auto& [status, count] : from.http_statuses()) {
    int64_t& c = (*to->mutable_http_statuses())[status];
    c = combine(c, count);
  }
  for (const auto& [type, count] : from.content_types()) {
    int64_t& c = (*to->mutable_content_types())[type];
    c = combine(c, count);
  }
  to->set_links_routed(combine(to->links_routed(), from.links_routed()));
  to->set_links_accepted(combine(to->links_accepted(), from.links_accepted()));
  to->set_hosts_taken(combine(to->hosts_taken(), from.hosts_taken()));
  to->set_hosts_handed_over(
      combine(to->hosts_handed_over(), from.hosts_handed_over()));
  to->set_cpu_seconds(combine(to->cpu_seconds(), from.cpu_seconds()));
  to->set_robots_fetched(combine(to->robots_fetched(), from.robots_fetched()));
  to->set_bytes_fetched(combine(to->bytes_fetched(), from.bytes_fetched()));
  const proto::FetchOutcomeCounts& f = from.fetch_outcomes();
  proto::FetchOutcomeCounts& t = *to->mutable_fetch_outcomes();
  t.set_on_topic(combine(t.on_topic(), f.on_topic()));
  t.set_off_topic(combine(t.off_topic(), f.off_topic()));
  t.set_not_found(combine(t.not_found(), f.not_found()));
  t.set_http_error(combine(t.http_error(), f.http_error()));
  t.set_transport_error(combine(t.transport_error(), f.transport_error()));
  t.set_robots(combine(t.robots(), f.robots()));
  t.set_not_html(combine(t.not_html(), f.not_html()));
  t.set_redirected(combine(t.redirected(), f.redirected()));
  t.set_on_topic_hosts(combine(t.on_topic_hosts(), f.on_topic_hosts()));
}

// Adds the cumulative figures of `s` into `total` (a worker that left).
// Its dead folders join the total's, named by the worker that reported
// them, the worst kMaxDeadFolders kept.
void AddCumulative(const proto::WorkerStats& s, proto::WorkerStats* total) {
  CombineCumulative(s, total, [](auto a, auto b) { return a + b; });
  if (s.dead_folders().empty()) return;
  std::vector<proto::FolderOutcome> folders(total->dead_folders().begin(),
                                            total->dead_folders().end());
  for (const proto::FolderOutcome& f : s.dead_folders()) {
    folders.push_back(f);
    // Who reported it is the coordinator's to say, not the heartbeat's.
    folders.back().set_worker(s.name());
  }
  folders = cluster::MergeDeadFolders(std::move(folders));
  total->mutable_dead_folders()->Assign(folders.begin(), folders.end());
}

// A worker's cumulative figures for the crawl never go down: a worker that
// restarted (its process counters begin again; after DONE it does not even
// open the crawl and reports 0) keeps what it reported before, until its
// new figures pass them. Gauges (queued, in flight, outbox...) take the new
// values. Pages are counted over all runs by the worker itself, so they
// stay exact; counters the worker keeps per run (on topic, errors) may then
// count short, never backwards.
void KeepCumulative(const proto::WorkerStats& before, proto::WorkerStats* now) {
  CombineCumulative(before, now, [](auto a, auto b) { return std::max(a, b); });
  // A restarted worker's strategy has seen no failure yet: the folders it
  // reported before stay until it reports its own.
  if (now->dead_folders().empty()) {
    *now->mutable_dead_folders() = before.dead_folders();
  }
}

}  // namespace

namespace internal {

grpc::Status Invalid(absl::string_view message) {
  return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, std::string(message));
}

}  // namespace internal

// ------------------------------------------------------------- life cycle

Coordinator::Coordinator(CoordinatorOptions options,
                         std::unique_ptr<StateStore> store)
    : options_(std::move(options)), store_(std::move(store)) {}

absl::StatusOr<std::unique_ptr<Coordinator>> Coordinator::Create(
    CoordinatorOptions options) {
  if (options.data_dir.empty()) {
    return absl::InvalidArgumentError("the coordinator needs a data folder");
  }
  if (options.lease < absl::Milliseconds(100)) {
    return absl::InvalidArgumentError("the lease must be at least 100 ms");
  }
  if (options.tick <= absl::ZeroDuration() ||
      options.route_timeout <= absl::ZeroDuration()) {
    return absl::InvalidArgumentError(
        "tick and route_timeout must be positive");
  }
  if (options.max_links_per_route < 1 || options.max_on_topic_urls < 0) {
    return absl::InvalidArgumentError(
        "max_links_per_route must be positive, max_on_topic_urls >= 0");
  }
  if (!options.now) options.now = [] { return absl::Now(); };
  absl::StatusOr<std::unique_ptr<StateStore>> store =
      StateStore::Open(options.data_dir + "/db");
  if (!store.ok()) return store.status();
  std::unique_ptr<Coordinator> c(
      new Coordinator(std::move(options), *std::move(store)));
  if (absl::Status s = c->Load(); !s.ok()) return s;
  return c;
}

absl::Status Coordinator::Load() {
  absl::MutexLock l(&mu_);
  absl::StatusOr<std::optional<std::string>> raw = store_->Get(kStateKey);
  if (!raw.ok()) return raw.status();
  if (raw->has_value()) {
    if (!state_.ParseFromString(**raw)) {
      return absl::DataLossError(
          "the coordinator's stored state does not parse");
    }
  } else {
    state_.set_state(proto::IDLE);
  }
  absl::StatusOr<std::optional<std::string>> quota = store_->Get(kQuotaKey);
  if (!quota.ok()) return quota.status();
  if (quota->has_value()) {
    int64_t q = 0;
    if (!absl::SimpleAtoi(**quota, &q) || q < 0) {
      return absl::DataLossError(absl::StrCat(
          "the coordinator's stored quota '", **quota, "' is not a count"));
    }
    state_.set_quota_granted(q);
  }
  if (HasCrawlLocked()) {
    const std::string key =
        absl::StrCat(kCrawlPrefix, state_.crawl().crawl_id());
    absl::StatusOr<std::optional<std::string>> crawl = store_->Get(key);
    if (!crawl.ok()) return crawl.status();
    proto::CrawlAssignment a;
    if (!crawl->has_value() || !a.ParseFromString(**crawl) ||
        a.crawl_id() != state_.crawl().crawl_id()) {
      return absl::DataLossError(absl::StrCat("the stored assignment of ",
                                              state_.crawl().crawl_id(),
                                              " is missing or damaged"));
    }
    *state_.mutable_crawl() = std::move(a);
  }
  absl::StatusOr<std::vector<std::pair<std::string, std::string>>> stats =
      store_->Scan(kStatsPrefix);
  if (!stats.ok()) return stats.status();
  for (const auto& [key, value] : *stats) {
    proto::WorkerStats s;
    if (!s.ParseFromString(value)) continue;  // figures only; not fatal
    stats_[key.substr(strlen(kStatsPrefix))] = std::move(s);
  }
  // The names list follows the members list.
  state_.clear_draining();
  for (const proto::Member& m : state_.draining_members()) {
    state_.add_draining(m.name());
  }
  const absl::Time now = Now();
  for (const proto::Member& m : state_.view().members()) {
    runtime_[m.name()].lease_deadline = now + options_.lease;
  }
  for (const proto::Member& m : state_.draining_members()) {
    runtime_[m.name()].lease_deadline = now + options_.lease;
  }
  partition_ = std::make_shared<const cluster::HostPartition>(state_.view());
  return absl::OkStatus();
}

Coordinator::~Coordinator() { Stop(); }

void Coordinator::Start() {
  absl::MutexLock l(&mu_);
  if (started_ || stop_) return;
  started_ = true;
  ticker_ = std::thread([this] { TickerLoop(); });
  seeder_ = std::thread([this] { SeederLoop(); });
}

void Coordinator::Stop() {
  {
    absl::MutexLock l(&mu_);
    stop_ = true;
  }
  if (ticker_.joinable()) ticker_.join();
  if (seeder_.joinable()) seeder_.join();
  absl::MutexLock l(&mu_);
  if (state_dirty_ || counters_dirty_ || !stats_dirty_.empty()) {
    PersistOrLogLocked();
  }
}

void Coordinator::TickerLoop() {
  for (;;) {
    Housekeeping();
    absl::MutexLock l(&mu_);
    if (mu_.AwaitWithTimeout(absl::Condition(&stop_), options_.tick)) return;
  }
}

void Coordinator::SeederLoop() {
  for (;;) {
    RouteSeedsIfDue();
    absl::MutexLock l(&mu_);
    if (mu_.AwaitWithTimeout(absl::Condition(&stop_), options_.tick)) return;
  }
}

void Coordinator::Tick() {
  Housekeeping();
  RouteSeedsIfDue();
}

// ----------------------------------------------------------- persistence

absl::Status Coordinator::PersistLocked(bool sync, StateWrite extra) {
  // The crawl's config and labels are written once per crawl (they may be
  // megabytes); "state" keeps only the crawl_id.
  std::string bytes;
  {
    std::unique_ptr<proto::CrawlAssignment> full(state_.release_crawl());
    if (full != nullptr) state_.mutable_crawl()->set_crawl_id(full->crawl_id());
    state_.SerializeToString(&bytes);
    state_.clear_crawl();
    if (full != nullptr) state_.set_allocated_crawl(full.release());
  }
  StateWrite w = std::move(extra);
  w.sync = w.sync || sync;
  w.puts.emplace_back(kStateKey, std::move(bytes));
  w.puts.emplace_back(kQuotaKey, absl::StrCat(state_.quota_granted()));
  for (const std::string& name : stats_dirty_) {
    const std::string key = absl::StrCat(kStatsPrefix, name);
    auto it = stats_.find(name);
    if (it == stats_.end()) {
      w.deletes.push_back(key);
    } else {
      w.puts.emplace_back(key, it->second.SerializeAsString());
    }
  }
  absl::Status s = store_->Apply(w);
  if (!s.ok()) return s;
  stats_dirty_.clear();
  state_dirty_ = false;
  counters_dirty_ = false;
  return absl::OkStatus();
}

void Coordinator::PersistOrLogLocked() {
  if (absl::Status s = PersistLocked(false); !s.ok()) {
    std::fprintf(stderr, "coordinator: %s\n", s.ToString().c_str());
  }
}

// --------------------------------------------------- heartbeats and quota

int64_t Coordinator::QuotaShareLocked(const std::string& name,
                                      const Runtime& rt, int64_t chunk,
                                      absl::Time now) const {
  // The budget is one for the whole crawl, and the crawl's order is one
  // too: of the next `chunk` pages, a worker gets as many as it holds among
  // the crawl's `chunk` best queued URLs (every member's last
  // WorkerStats.best_queued merged, best first). Without it each worker
  // spends the budget on its own hosts' best URLs, and a worker that owns
  // only off-topic hosts fetches as much as the one that holds the topic
  // (the demo's 3-worker crawl on Wikispeedia: 27 physics pages of 1,500
  // against 215 standalone). bfs (window 0) orders by discovery, not by
  // score; a worker that reports nothing queued gets the chunk, as before.
  if (state_.crawl().config().strategy().order_window() <= 0) return chunk;
  auto own = stats_.find(name);
  if (own == stats_.end() || own->second.best_queued_size() == 0) {
    return chunk;
  }
  // Each member's best_queued is kept best first (sorted when stored), so
  // the crawl's `chunk` best entries are a K-way merge that stops once
  // `chunk` URLs are taken: O(K log K + entries taken · log K) a grant,
  // where sorting every member's entries took 7.7 ms a grant at 1,000
  // workers (bench/coordinator_bench). Best first; on a tie this worker's
  // entries first (the tie is real within a bucket's rounding, and it
  // asked).
  struct Cursor {
    const google::protobuf::RepeatedPtrField<proto::ScoreCount>* entries;
    int next;
    bool mine;
    const proto::ScoreCount& at() const { return entries->Get(next); }
  };
  // std::*_heap keep the greatest on top: "less" is "worse".
  auto worse = [](const Cursor& a, const Cursor& b) {
    if (a.at().score() != b.at().score()) {
      return a.at().score() < b.at().score();
    }
    return !a.mine && b.mine;
  };
  std::vector<Cursor> heap;
  // runtime_ and stats_ are both ordered by name: walked side by side.
  auto s = stats_.begin();
  for (const auto& [member, r] : runtime_) {
    while (s != stats_.end() && s->first < member) ++s;
    if (s == stats_.end()) break;
    if (s->first != member || r.crawl_id != rt.crawl_id ||
        s->second.best_queued_size() == 0) {
      continue;
    }
    heap.push_back({&s->second.best_queued(), 0, member == name});
  }
  std::make_heap(heap.begin(), heap.end(), worse);
  int64_t taken = 0, mine = 0;
  while (!heap.empty() && taken < chunk) {
    std::pop_heap(heap.begin(), heap.end(), worse);
    Cursor& c = heap.back();
    const int64_t n = std::min(c.at().count(), chunk - taken);
    taken += n;
    if (c.mine) mine += n;
    if (++c.next < c.entries->size()) {
      std::push_heap(heap.begin(), heap.end(), worse);
    } else {
      heap.pop_back();
    }
  }
  if (mine > 0) return mine;
  return now - rt.last_grant >= kStarveAfter ? kStarveGrant : 0;
}

int64_t Coordinator::TotalPagesLocked() const {
  int64_t pages = state_.departed().pages_fetched();
  for (const auto& [name, s] : stats_) pages += s.pages_fetched();
  return pages;
}

grpc::Status Coordinator::Heartbeat(grpc::ServerContext*,
                                    const proto::HeartbeatRequest* request,
                                    proto::HeartbeatResponse* response) {
  if (absl::Status s = cluster::ValidateMemberName(request->name()); !s.ok()) {
    return cluster::ToGrpc(s);
  }
  if (request->crawl_id().size() > kMaxCrawlIdBytes) {
    return Invalid("crawl_id is over 128 bytes");
  }
  if (request->quota_unused() < 0) {
    return Invalid(absl::StrCat("quota_unused is negative (",
                                request->quota_unused(), ")"));
  }
  if (request->lessons().size() > kMaxLessonBytes) {
    return Invalid(absl::StrCat("lessons of ", request->lessons().size(),
                                " bytes; at most ", kMaxLessonBytes));
  }
  if (absl::Status s = ValidateStats(request->stats()); !s.ok()) {
    return cluster::ToGrpc(s);
  }
  const std::string& name = request->name();
  absl::MutexLock l(&mu_);
  const absl::Time now = Now();
  // Expiry looks at every member: at most once a tick from here (the ticker
  // does it too), not on every heartbeat, where it cost 50 µs a call at
  // 1,000 workers (bench/coordinator_bench).
  if (now >= next_expiry_scan_) {
    next_expiry_scan_ = now + options_.tick;
    ExpireLeasesLocked(now);
  }
  auto it = runtime_.find(name);
  if (it == runtime_.end()) {
    return grpc::Status(grpc::StatusCode::NOT_FOUND,
                        "not a member: register again");
  }
  const bool draining = FindDrainingLocked(name) >= 0;
  Runtime& rt = it->second;
  rt.lease_deadline = now + options_.lease;
  rt.crawl_id = request->crawl_id();
  rt.view_version = request->view_version();
  rt.handed_over_version = request->handed_over_version();
  rt.idle = request->idle();
  rt.wants_quota = request->wants_quota();
  ++rt.heartbeats;

  const std::string crawl_id = state_.crawl().crawl_id();
  const bool same_crawl = !crawl_id.empty() && request->crawl_id() == crawl_id;
  if (same_crawl) {
    lessons_.Add(name, request->lessons());
    proto::WorkerStats& s = stats_[name];
    proto::WorkerStats next = request->stats();
    next.set_name(name);
    // Best first, as QuotaShareLocked's merge needs (workers send them so;
    // this makes it so).
    std::sort(next.mutable_best_queued()->begin(),
              next.mutable_best_queued()->end(),
              [](const proto::ScoreCount& a, const proto::ScoreCount& b) {
                return a.score() > b.score();
              });
    KeepCumulative(s, &next);
    s = std::move(next);
    stats_dirty_.insert(name);
    if (request->quota_unused() > 0) {
      // Returned tokens go back to the pool, but never below what was
      // already fetched (a token spent is a page counted).
      const int64_t back =
          std::min(request->quota_unused(), state_.quota_granted());
      const int64_t q =
          std::max(state_.quota_granted() - back,
                   std::min(TotalPagesLocked(), state_.quota_granted()));
      if (q != state_.quota_granted()) {
        state_.set_quota_granted(q);
        state_dirty_ = true;
      }
    }
  }
  CheckSettledLocked();

  int64_t grant = 0;
  if (draining) {
    response->set_drain(true);
    if (request->handed_over_version() >= state_.view().version() &&
        request->idle() && request->stats().outbox() == 0) {
      response->set_exit(true);
      // Drained: forget it; its figures join the departed ones.
      if (auto s = stats_.find(name); s != stats_.end()) {
        AddCumulative(s->second, state_.mutable_departed());
        stats_.erase(s);
        stats_dirty_.insert(name);
      }
      state_.mutable_draining_members()->DeleteSubrange(
          FindDrainingLocked(name), 1);
      state_.clear_draining();
      for (const proto::Member& m : state_.draining_members()) {
        state_.add_draining(m.name());
      }
      runtime_.erase(it);
      checked_heartbeats_.erase(name);
      CheckSettledLocked();
      state_dirty_ = true;
    }
  } else if (same_crawl && state_.state() == proto::RUNNING &&
             (request->wants_quota() || rt.refused)) {
    const int64_t budget = state_.crawl().config().budget().max_pages();
    const int64_t remaining = budget - state_.quota_granted();
    if (remaining > 0) {
      const int64_t members = std::max(1, state_.view().members_size());
      // A quarter of each member's share, but not tiny: near the end of the
      // budget a chunk of one page per heartbeat would trickle (an idle
      // worker returns what it does not use, so little is stranded).
      const int64_t chunk = std::min(
          remaining, std::clamp<int64_t>(remaining / (4 * members),
                                         kMinQuotaChunk, kMaxQuotaChunk));
      grant = std::min(QuotaShareLocked(name, rt, chunk, now), remaining);
      // Refused: its URLs wait behind better ones of other workers. It
      // will not ask again by itself (with no token none of its hosts
      // looks fetchable, so it says idle), so it is remembered, offered
      // its share on every heartbeat, and not taken for done.
      rt.refused = grant == 0;
      if (grant > 0) {
        rt.last_grant = now;
        state_.set_quota_granted(state_.quota_granted() + grant);
      }
    } else {
      rt.refused = false;
    }
  } else if (same_crawl && state_.state() == proto::PAUSED &&
             request->wants_quota()) {
    // Asked while paused: nothing now, but remembered like a refusal. A
    // worker that returned its tokens while paused does not ask again by
    // itself after the resume (no host looks fetchable without a token,
    // so it says idle); forgetting the request took it for done and ended
    // a crawl with budget left and URLs queued ("frontier empty").
    rt.refused = true;
  }
  if (state_dirty_ || grant > 0) {
    // A grant is on disk before the worker may spend it, so a restarted
    // coordinator never hands out the same pages twice: with the state when
    // that changed too, else the quota key alone.
    absl::Status s;
    if (state_dirty_) {
      s = PersistLocked(/*sync=*/grant > 0);
    } else {
      StateWrite w;
      w.puts.emplace_back(kQuotaKey, absl::StrCat(state_.quota_granted()));
      w.sync = true;
      s = store_->Apply(w);
    }
    if (!s.ok()) {
      if (grant > 0) {
        state_.set_quota_granted(state_.quota_granted() - grant);
        return grpc::Status(
            grpc::StatusCode::UNAVAILABLE,
            absl::StrCat("cannot record the quota grant: ", s.message()));
      }
      std::fprintf(stderr, "coordinator: %s\n", s.ToString().c_str());
    }
  }

  if (request->view_version() != state_.view().version()) {
    *response->mutable_view() = state_.view();
  }
  response->set_settled_version(state_.settled_version());
  // Most of the time the settled view is the current view, which the worker
  // has (or gets above): it is sent only while they differ (a hand-over
  // under way), so an answer does not grow with the cluster (23 KB a
  // heartbeat at 1,000 workers otherwise, bench/coordinator_bench).
  if (state_.has_settled_view() &&
      state_.settled_version() != state_.view().version()) {
    *response->mutable_settled_view() = state_.settled_view();
  }
  response->set_state(state_.state());
  if (HasCrawlLocked() && request->crawl_id() != crawl_id) {
    *response->mutable_crawl() = state_.crawl();
  }
  response->set_quota_granted(grant);
  if (same_crawl) {
    lessons_.Reply(name, request->lessons_epoch(), request->lessons_seen(),
                   response);
  }
  return grpc::Status::OK;
}

// ------------------------------------------------------------- the ticker

void Coordinator::Housekeeping() {
  absl::MutexLock l(&mu_);
  const absl::Time now = Now();
  ExpireLeasesLocked(now);
  CheckSettledLocked();
  rate_.emplace_back(now, TotalPagesLocked());
  while (rate_.size() > 2 && now - rate_[1].first > 2 * kRateWindow) {
    rate_.pop_front();
  }
  CheckDoneLocked(now);
  SampleLocked(now, /*force=*/false);
  if (state_dirty_ || ((counters_dirty_ || !stats_dirty_.empty()) &&
                       now - last_flush_ >= absl::Seconds(1))) {
    last_flush_ = now;
    PersistOrLogLocked();
  }
}

// ----------------------------------------------------------------- status

proto::StatusResponse Coordinator::StatusLocked(absl::Time now) const {
  proto::StatusResponse r;
  r.set_crawl_id(state_.crawl().crawl_id());
  r.set_state(state_.state());
  if (HasCrawlLocked()) {
    r.set_budget(state_.crawl().config().budget().max_pages());
  }
  r.set_quota_granted(state_.quota_granted());
  proto::WorkerStats total = state_.departed();
  int64_t queued = 0;
  for (const auto& [name, s] : stats_) {
    AddCumulative(s, &total);
    queued += s.queued();
  }
  r.set_pages_fetched(total.pages_fetched());
  r.set_on_topic(total.on_topic());
  r.set_labelled_on_topic(total.labelled_on_topic());
  r.set_labelled(state_.crawl().on_topic_urls_size() > 0);
  r.set_errors(total.errors());
  r.set_queued(queued);
  *r.mutable_errors_by_kind() = total.errors_by_kind();
  *r.mutable_skipped() = total.skipped();
  *r.mutable_http_statuses() = total.http_statuses();
  *r.mutable_content_types() = total.content_types();
  // Set even when all zero, so /status.json always has the object.
  *r.mutable_fetch_outcomes() = total.fetch_outcomes();
  *r.mutable_dead_folders() = total.dead_folders();
  // Pages per second: from the sample closest to kRateWindow ago.
  if (!rate_.empty()) {
    auto base = rate_.front();
    for (const auto& sample : rate_) {
      if (now - sample.first >= kRateWindow) base = sample;
    }
    const double dt = absl::ToDoubleSeconds(now - base.first);
    if (dt >= 0.5) {
      r.set_pages_per_second(
          std::max<double>(0, total.pages_fetched() - base.second) / dt);
    }
  }
  if (state_.started_at_ms() > 0) {
    const int64_t end_ms = state_.finished_at_ms() > 0
                               ? state_.finished_at_ms()
                               : absl::ToUnixMillis(now);
    r.set_elapsed_seconds(
        std::max<int64_t>(0, end_ms - state_.started_at_ms()) / 1000.0);
  }
  *r.mutable_view() = state_.view();
  r.set_settled_version(state_.settled_version());
  auto add_worker = [&](const proto::Member& m,
                        bool draining) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    proto::WorkerStatus* w = r.add_workers();
    *w->mutable_member() = m;
    if (auto s = stats_.find(m.name()); s != stats_.end()) {
      *w->mutable_stats() = s->second;
    } else {
      w->mutable_stats()->set_name(m.name());
    }
    w->set_draining(draining);
    if (auto rt = runtime_.find(m.name()); rt != runtime_.end()) {
      w->set_lease_left_ms(std::max<int64_t>(
          0, absl::ToInt64Milliseconds(rt->second.lease_deadline - now)));
      w->set_view_version(rt->second.view_version);
      w->set_handed_over_version(rt->second.handed_over_version);
      w->set_idle(rt->second.idle);
    }
  };
  for (const proto::Member& m : state_.view().members()) add_worker(m, false);
  for (const proto::Member& m : state_.draining_members()) {
    add_worker(m, true);
  }
  r.set_stop_reason(state_.stop_reason());
  r.set_coordinator_cpu_seconds(cluster::ProcessCpuSeconds());
  if (absl::StatusOr<int64_t> rss = file::ResidentBytes(); rss.ok()) {
    r.set_coordinator_memory_bytes(*rss);
  }
  // Every link a worker sent to another (each sender counts what its owner
  // acknowledged) and any routed through RouteLinks by other clients.
  r.set_links_routed(total.links_routed() + state_.links_routed());
  r.set_lessons_in_bytes(lessons_.bytes_in());
  r.set_lessons_out_bytes(lessons_.bytes_out());
  return r;
}

proto::StatusResponse Coordinator::Status() {
  absl::MutexLock l(&mu_);
  return StatusLocked(Now());
}

grpc::Status Coordinator::GetStatus(grpc::ServerContext*,
                                    const proto::StatusRequest*,
                                    proto::StatusResponse* response) {
  *response = Status();
  return grpc::Status::OK;
}

void Coordinator::SampleLocked(absl::Time now, bool force) {
  if (!HasCrawlLocked()) return;
  const proto::CrawlState s = state_.state();
  const bool live =
      s == proto::RUNNING || s == proto::PAUSED || s == proto::STOPPING;
  if (!force && (!live || now - last_sample_ < absl::Seconds(1))) return;
  last_sample_ = now;
  history_.Add(SampleOf(StatusLocked(now)));
}

}  // namespace fcrawl::coordinator
