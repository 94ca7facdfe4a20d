// ClusterNode (worker/member/cluster_node.h): start and shutdown, registration
// and heartbeats with the coordinator, the crawl hooks (what arrived applied,
// tokens, figures, lessons) and the run loop. The node's state is
// ClusterNode::Impl in worker/member/cluster_node_impl.h (internal), which says
// why it is one class under one mutex; the Worker service's handlers are in
// worker/member/cluster_service.cc, the links and hosts sent to other members
// in worker/member/cluster_handover.cc. The crawl side of a hand-over is
// worker/hand_over.h's.
#include "worker/member/cluster_node.h"

#include <limits.h>
#include <stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "cluster/outcomes.h"
#include "cluster/rendezvous.h"
#include "cluster/rpc.h"
#include "core/charset.h"
#include "core/file.h"
#include "formats/crawl_config.h"
#include "proto/cluster.grpc.pb.h"
#include "storage/link_db.h"
#include "worker/crawler.h"
#include "worker/fetch_outcomes.h"
#include "worker/member/cluster_node_impl.h"

namespace fcrawl::worker {
namespace {

using proto::LinkRecord;

// URLs, and histogram buckets at most, of the best queued ones each worker
// reports (the crawl's order window is far smaller).
constexpr int64_t kBestQueuedEntries = 64;
// Lessons waiting in either direction, at most (the oldest are dropped).
constexpr size_t kMaxLessonBacklog = 8 << 20;

// Keys of WorkerStats.http_statuses and content_types: at most
// kMaxReportKeys, the rest under "other" (hostile servers send any content
// type they like).
constexpr size_t kMaxReportKeys = 32;
// WorkerStats.paused, at most (the coordinator's bound, 1 KiB, less room).
constexpr size_t kMaxPausedBytes = 1000;
void CountCapped(const std::string& key, std::map<std::string, int64_t>* to) {
  auto it = to->find(key);
  if (it == to->end()) {
    // The last key there is room for is "other".
    const bool full = to->size() + 1 >= kMaxReportKeys;
    it = to->try_emplace(full ? std::string("other") : key, 0).first;
  }
  ++it->second;
}

// "text/html" of "Text/HTML; charset=utf-8"; "none" for none, "other" for
// one that is no MIME type (bytes beyond [a-z0-9.+/-], over 64 bytes).
std::string ContentTypeKey(absl::string_view header) {
  absl::string_view t = absl::StripAsciiWhitespace(
      header.substr(0, std::min(header.find(';'), header.size())));
  if (t.empty()) return "none";
  if (t.size() > 64) return "other";
  std::string key = absl::AsciiStrToLower(t);
  for (char c : key) {
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '.' &&
        c != '+' && c != '/' && c != '-') {
      return "other";
    }
  }
  return key;
}

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

// The run's fetch outcomes as the heartbeat carries them.
void SetFetchOutcomes(const FetchOutcomeCounts& c,
                      proto::FetchOutcomeCounts* to) {
  to->set_on_topic(c.on_topic);
  to->set_off_topic(c.off_topic);
  to->set_not_found(c.not_found);
  to->set_http_error(c.http_error);
  to->set_transport_error(c.transport_error);
  to->set_robots(c.robots);
  to->set_not_html(c.not_html);
  to->set_redirected(c.redirected);
  to->set_on_topic_hosts(c.on_topic_hosts);
}

}  // namespace

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
  // Before anything the cluster sees: a second worker started on a folder
  // another worker process holds would register, enter the view (others
  // would start handing hosts to it) and only fail at its crawl's RocksDB
  // lock.
  absl::StatusOr<file::FolderLock> lock =
      file::LockFolder(options_.data_dir, "worker");
  if (!lock.ok()) return lock.status();
  data_lock_ = *std::move(lock);
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

// --------------------------------------------------------- crawl hooks

void ClusterNode::Impl::PageDone(const LinkRecord& record, bool fetched,
                                 bool on_topic, const std::string& error) {
  if (!fetched) return;
  bytes_fetched_ += std::max<int64_t>(0, record.bytes());
  CountCapped(record.http_status() > 0 ? absl::StrCat(record.http_status())
                                       : std::string("none"),
              &http_statuses_);
  CountCapped(ContentTypeKey(record.content_type()), &content_types_);
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
  // The strategy's dead folders (in memory, a few thousand at most): every
  // 250 ms, and once more as soon as no transfer is in flight, so the
  // stats that report the last fetch done (the ones a finished crawl ends
  // with) hold its outcome too.
  if (!resting) dead_folders_at_rest_ = false;
  if (now >= next_dead_folders_ || (resting && !dead_folders_at_rest_)) {
    next_dead_folders_ = now + absl::Milliseconds(250);
    dead_folders_at_rest_ = resting;
    std::vector<proto::FolderOutcome> dead;
    for (focus::FolderOutcome& f : context.DeadFolders()) {
      proto::FolderOutcome& p = dead.emplace_back();
      p.set_folder(std::move(f.folder));
      p.set_fetches(f.fetches);
      p.set_pages(f.pages);
      p.set_page_probability(f.page_probability);
    }
    dead_folders_ = cluster::MergeDeadFolders(std::move(dead));
  }
  // Read before the lock: a file read, not to be done under it.
  const absl::StatusOr<int64_t> rss = file::ResidentBytes();
  const int64_t memory = rss.ok() ? *rss : 0;
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
  SetFetchOutcomes(context.FetchOutcomes(), s.mutable_fetch_outcomes());
  if (best.has_value() && std::isfinite(*best)) {
    s.set_best_queued_score(*best);
  } else {
    s.clear_best_queued_score();
  }
  s.set_in_flight(in_flight);
  s.set_hosts_owned(hosts_owned_);
  s.mutable_dead_folders()->Assign(dead_folders_.begin(), dead_folders_.end());
  s.set_links_accepted(links_accepted_);
  s.set_ranks_applied(ranks_applied_);
  s.set_lessons_applied(lessons_applied_);
  s.set_lessons_refused(lessons_refused_);
  // The reason names a folder, which may be long or not UTF-8; the
  // coordinator refuses a heartbeat with more than 1 KiB of it.
  std::string paused = charset::SanitizeUtf8(context.Paused());
  if (paused.size() > kMaxPausedBytes) {
    paused.resize(kMaxPausedBytes);
    paused = charset::SanitizeUtf8(paused);  // a cut code point
  }
  s.set_paused(std::move(paused));
  s.mutable_http_statuses()->clear();
  for (const auto& [k, v] : http_statuses_) (*s.mutable_http_statuses())[k] = v;
  s.mutable_content_types()->clear();
  for (const auto& [k, v] : content_types_) (*s.mutable_content_types())[k] = v;
  s.set_bytes_fetched(bytes_fetched_);
  s.set_memory_bytes(memory);
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
    // The earlier crawl's folders and host count are not this one's; they
    // are computed again at the first publish.
    dead_folders_.clear();
    next_dead_folders_ = absl::InfinitePast();
    dead_folders_at_rest_ = false;
    hosts_owned_ = 0;
    next_host_count_ = absl::InfinitePast();
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
