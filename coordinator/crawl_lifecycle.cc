// Coordinator (coordinator/coordinator.h): the crawl's lifecycle.
// StartCrawl, Control (pause, resume, stop) and the ticker's decision that a
// crawl is done (CheckDoneLocked, FinishLocked): the Lifecycle paragraph of
// coordinator.h. Apart from coordinator.cc because it is the crawl's own
// state machine (IDLE, RUNNING, PAUSED, STOPPED, DONE) on top of the
// cluster's: it reads the membership and the workers' figures, never changes
// the membership, and resets the quota and the figures only when a crawl
// starts.
#include <random>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "coordinator/coordinator.h"
#include "coordinator/coordinator_internal.h"
#include "formats/crawl_config.h"

namespace fcrawl::coordinator {

using internal::Invalid;
using internal::kCrawlPrefix;
using internal::kStatsPrefix;

namespace {

const char* StateName(proto::CrawlState s) {
  switch (s) {
    case proto::IDLE:
      return "IDLE";
    case proto::RUNNING:
      return "RUNNING";
    case proto::PAUSED:
      return "PAUSED";
    case proto::STOPPING:
      return "STOPPING";
    case proto::STOPPED:
      return "STOPPED";
    case proto::DONE:
      return "DONE";
    default:
      return "UNSPECIFIED";
  }
}

std::string NewCrawlId(absl::Time now) {
  std::random_device rd;
  return absl::StrCat(
      "crawl-", absl::FormatTime("%Y%m%d-%H%M%S", now, absl::UTCTimeZone()),
      "-", absl::StrFormat("%04x", rd() & 0xffff));
}

}  // namespace

// --------------------------------------------------------------- the crawl

grpc::Status Coordinator::StartCrawl(grpc::ServerContext*,
                                     const proto::StartCrawlRequest* request,
                                     proto::StartCrawlResponse* response) {
  proto::CrawlConfig config = formats::WithDefaults(request->config());
  if (absl::Status s = formats::ValidateCrawlConfig(config); !s.ok()) {
    return Invalid(absl::StrCat("config: ", s.message()));
  }
  if (request->on_topic_urls_size() > options_.max_on_topic_urls) {
    return Invalid(absl::StrCat(request->on_topic_urls_size(),
                                " on_topic_urls; at most ",
                                options_.max_on_topic_urls));
  }
  int64_t bytes = 0;
  for (int i = 0; i < request->on_topic_urls_size(); ++i) {
    const std::string& u = request->on_topic_urls(i);
    if (u.empty() || u.size() > kMaxRoutedUrlBytes) {
      return Invalid(absl::StrCat("on_topic_urls[", i, "] has ", u.size(),
                                  " bytes; a URL has 1 to ",
                                  kMaxRoutedUrlBytes));
    }
    bytes += static_cast<int64_t>(u.size());
  }
  if (bytes > kMaxOnTopicBytes) {
    return Invalid(absl::StrCat("on_topic_urls have ", bytes,
                                " bytes together; at most ", kMaxOnTopicBytes));
  }

  absl::MutexLock l(&mu_);
  const proto::CrawlState current = state_.state();
  if ((current == proto::RUNNING || current == proto::PAUSED ||
       current == proto::STOPPING) &&
      !request->force()) {
    return grpc::Status(
        grpc::StatusCode::FAILED_PRECONDITION,
        absl::StrCat("crawl ", state_.crawl().crawl_id(), " is ",
                     StateName(current), "; stop it first or force"));
  }
  const absl::Time now = Now();
  proto::CrawlAssignment a;
  a.set_crawl_id(NewCrawlId(now));
  if (a.crawl_id() == state_.crawl().crawl_id()) {
    a.set_crawl_id(NewCrawlId(now));  // same second, same random: rare
  }
  *a.mutable_config() = std::move(config);
  a.mutable_on_topic_urls()->CopyFrom(request->on_topic_urls());
  // The assignment first, under its own key: "state" still names the old
  // crawl until the second write, so a failure leaves a consistent store.
  {
    StateWrite w;
    w.sync = true;
    w.puts.emplace_back(absl::StrCat(kCrawlPrefix, a.crawl_id()),
                        a.SerializeAsString());
    if (absl::Status s = store_->Apply(w); !s.ok()) {
      return grpc::Status(
          grpc::StatusCode::UNAVAILABLE,
          absl::StrCat("cannot record the crawl: ", s.message()));
    }
  }
  StateWrite extra;
  if (HasCrawlLocked()) {
    extra.deletes.push_back(
        absl::StrCat(kCrawlPrefix, state_.crawl().crawl_id()));
  }
  extra.delete_prefix = kStatsPrefix;
  response->set_crawl_id(a.crawl_id());
  lessons_.Reset();  // lessons of one crawl teach no other
  *state_.mutable_crawl() = std::move(a);
  state_.set_state(proto::RUNNING);
  state_.set_quota_granted(0);
  state_.set_seeds_routed(false);
  state_.clear_departed();
  state_.set_started_at_ms(absl::ToUnixMillis(now));
  state_.set_finished_at_ms(0);
  state_.clear_stop_reason();
  state_.set_links_routed(0);
  stats_.clear();
  stats_dirty_.clear();
  history_.Clear();
  rate_.clear();
  last_sample_ = absl::InfinitePast();
  have_candidate_ = false;
  state_dirty_ = true;
  if (absl::Status s = PersistLocked(/*sync=*/true, std::move(extra));
      !s.ok()) {
    return grpc::Status(
        grpc::StatusCode::UNAVAILABLE,
        absl::StrCat("the crawl started but was not recorded: ", s.message()));
  }
  return grpc::Status::OK;
}

grpc::Status Coordinator::Control(grpc::ServerContext*,
                                  const proto::ControlRequest* request,
                                  proto::ControlResponse* response) {
  absl::MutexLock l(&mu_);
  const proto::CrawlState s = state_.state();
  const absl::Time now = Now();
  switch (request->action()) {
    case proto::ControlRequest::PAUSE:
      if (s != proto::RUNNING) {
        return grpc::Status(
            grpc::StatusCode::FAILED_PRECONDITION,
            absl::StrCat("cannot pause: the crawl is ", StateName(s)));
      }
      state_.set_state(proto::PAUSED);
      have_candidate_ = false;
      state_dirty_ = true;
      PersistOrLogLocked();
      break;
    case proto::ControlRequest::RESUME:
      if (s != proto::PAUSED) {
        return grpc::Status(
            grpc::StatusCode::FAILED_PRECONDITION,
            absl::StrCat("cannot resume: the crawl is ", StateName(s)));
      }
      state_.set_state(proto::RUNNING);
      state_dirty_ = true;
      PersistOrLogLocked();
      break;
    case proto::ControlRequest::STOP:
      if (s != proto::RUNNING && s != proto::PAUSED && s != proto::STOPPING) {
        return grpc::Status(
            grpc::StatusCode::FAILED_PRECONDITION,
            absl::StrCat("cannot stop: the crawl is ", StateName(s)));
      }
      FinishLocked(proto::STOPPED, "stopped", now);
      break;
    default:
      return Invalid("action must be PAUSE, RESUME or STOP");
  }
  response->set_state(state_.state());
  return grpc::Status::OK;
}

void Coordinator::FinishLocked(proto::CrawlState state,
                               const std::string& reason, absl::Time now) {
  state_.set_state(state);
  state_.set_stop_reason(reason);
  state_.set_finished_at_ms(absl::ToUnixMillis(now));
  have_candidate_ = false;
  state_dirty_ = true;
  SampleLocked(now, /*force=*/true);
  PersistOrLogLocked();
}

void Coordinator::CheckDoneLocked(absl::Time now) {
  const proto::CrawlState s = state_.state();
  if (s != proto::RUNNING && s != proto::PAUSED) {
    have_candidate_ = false;
    return;
  }
  const proto::CrawlConfig& config = state_.crawl().config();
  if (config.budget().max_seconds() > 0 &&
      now - absl::FromUnixMillis(state_.started_at_ms()) >=
          absl::Seconds(config.budget().max_seconds())) {
    FinishLocked(proto::DONE, "time", now);
    return;
  }
  if (s != proto::RUNNING) {
    have_candidate_ = false;
    return;
  }
  const uint64_t version = state_.view().version();
  if (!state_.seeds_routed() || state_.settled_version() != version ||
      routes_in_progress_ > 0 || seeding_ ||
      state_.draining_members_size() > 0 || state_.view().members_size() == 0) {
    have_candidate_ = false;
    return;
  }
  // A check needs a fresh heartbeat of every member (the idle flags must
  // be newer than the last check); until then nothing is decided.
  for (const proto::Member& m : state_.view().members()) {
    auto rt = runtime_.find(m.name());
    if (rt == runtime_.end()) return;
    auto seen = checked_heartbeats_.find(m.name());
    if (seen != checked_heartbeats_.end() &&
        rt->second.heartbeats <= seen->second) {
      return;
    }
  }
  for (const proto::Member& m : state_.view().members()) {
    checked_heartbeats_[m.name()] = runtime_[m.name()].heartbeats;
  }
  const bool budget_spent =
      state_.quota_granted() >= config.budget().max_pages();
  DoneSnapshot snap;
  snap.links_routed = state_.links_routed();
  for (const proto::Member& m : state_.view().members()) {
    const Runtime& rt = runtime_[m.name()];
    auto st = stats_.find(m.name());
    if (st == stats_.end() || rt.crawl_id != state_.crawl().crawl_id() ||
        rt.view_version != version) {
      have_candidate_ = false;
      return;
    }
    const proto::WorkerStats& w = st->second;
    // A worker with queued URLs but no tokens never says idle; once the
    // budget is spent, nothing in flight and nothing to route is quiet.
    const bool quiet =
        (rt.idle && !rt.refused) || (budget_spent && rt.wants_quota &&
                                     w.in_flight() == 0 && w.outbox() == 0);
    if (!quiet) {
      have_candidate_ = false;
      return;
    }
    snap.workers.emplace_back(m.name(), w.pages_fetched(), w.links_accepted(),
                              w.hosts_taken(), w.links_routed());
  }
  if (have_candidate_ && candidate_ == snap) {
    if (now - candidate_time_ >= options_.lease / 4) {
      FinishLocked(proto::DONE, budget_spent ? "budget" : "frontier empty",
                   now);
    }
    return;
  }
  have_candidate_ = true;
  candidate_ = std::move(snap);
  candidate_time_ = now;
}

}  // namespace fcrawl::coordinator
