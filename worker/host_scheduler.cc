#include "worker/host_scheduler.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "core/url.h"

namespace fcrawl::worker {

using ::fcrawl::focus::Admission;
using ::fcrawl::proto::LinkRecord;

namespace {

// The pages fetched over all runs of this output folder, a crawl-wide
// value committed with every fetched page's batch.
constexpr absl::string_view kGlobalPagesFetched = "pages_fetched";
// robots.txt bodies kept in the host record (RobotsOptions reads 512 KiB).
constexpr size_t kMaxStoredRobotsBytes = 512 * 1024;

}  // namespace

struct HostScheduler::HostState {
  std::string key;
  std::string scheme = "http";  // for the robots.txt URL
  bool busy = false;
  absl::Time next_allowed = absl::InfinitePast();
  absl::Duration delay;
  bool robots_known = false;
  absl::Time robots_expires = absl::InfinitePast();
  protocol::RobotsRules rules;
  bool parked = false;  // robots.txt answered 5xx: no fetches for a while
  // Set when robots.txt could not be fetched because the host does not
  // resolve, refuses connections or has a refused (private) address.
  std::string unreachable;
  // Failed attempts to reach the host (DNS, connect) so far.
  int reach_failures = 0;
  absl::Time parked_until = absl::InfinitePast();
  int64_t pages_fetched = 0;
  int64_t pages_in_flight = 0;
  // Redirect hops, retries and revisits, served first.
  std::deque<Task> pending;
  std::deque<Task> sitemaps;  // then these (kSitemap), while budget lasts
  int sitemaps_taken = 0;     // this run, against sitemaps.max_per_host
  bool robots_sitemaps_read = false;  // its robots.txt's, this run
  std::string last_ip;
  std::string reserved_ip;   // the address of the running transfer (per-IP)
  proto::HostRecord record;  // as stored; written back with each page
  // Scheduler bookkeeping.
  bool in_ready = false;
  double ready_score = 0;
  int64_t ready_served = 0;  // pages_fetched + pages_in_flight when ranked
  absl::Time waiting_until = absl::InfinitePast();
};

HostScheduler::HostScheduler(SchedulerOptions options, storage::LinkDb* db,
                             Frontier* frontier, focus::Strategy* strategy,
                             ClusterHooks* cluster, TransferSink* sink)
    : options_(std::move(options)),
      db_(*db),
      frontier_(*frontier),
      strategy_(*strategy),
      cluster_(cluster),
      sink_(*sink) {
  user_agent_product_ = protocol::ProductToken(options_.user_agent);
  for (const std::string& seed : options_.seeds) {
    if (url::Parse(seed).ok()) seed_hosts_.insert(storage::HostKey(seed));
  }
  robots_options_.max_crawl_delay_seconds =
      absl::ToDoubleSeconds(options_.max_crawl_delay);
}

HostScheduler::~HostScheduler() = default;

absl::Status HostScheduler::Init(absl::Time now) {
  absl::StatusOr<std::optional<std::string>> total =
      db_.GetGlobal(kGlobalPagesFetched);
  if (!total.ok()) return total.status();
  if (total->has_value()) {
    pages_total_ = std::strtoll((*total)->c_str(), nullptr, 10);
  }
  // Hosts that already have queued URLs (a resumed crawl).
  for (const auto& [host, score] : db_.QueuedHosts()) Host(host);
  db_.TakeChangedHosts();
  for (auto& [key, h] : hosts_) Refresh(*h, now);
  return absl::OkStatus();
}

absl::Duration HostScheduler::HostDelay(
    const protocol::RobotsRules& rules) const {
  absl::Duration delay = options_.per_host_delay;
  if (std::optional<double> cd = rules.CrawlDelay(user_agent_product_)) {
    delay =
        std::max(delay, std::min(absl::Seconds(*cd), options_.max_crawl_delay));
  }
  return delay;
}

HostScheduler::HostState& HostScheduler::Host(const std::string& key,
                                              absl::string_view scheme) {
  auto [it, inserted] = hosts_.try_emplace(key);
  if (inserted) {
    it->second = std::make_unique<HostState>();
    it->second->key = key;
    HostState& h = *it->second;
    h.scheme = std::string(scheme);
    h.delay = options_.per_host_delay;
    // A resumed crawl: the host's page count and a robots.txt still within
    // its cache time come from the database.
    h.record.set_host(key);
    absl::StatusOr<std::optional<proto::HostRecord>> rec = db_.GetHost(key);
    if (rec.ok() && rec->has_value()) {
      h.record = **rec;
      const proto::HostRecord& hr = h.record;
      h.pages_fetched = hr.pages_fetched();
      const absl::Time fetched =
          absl::FromUnixMillis(hr.robots_fetched_at_ms());
      const absl::Time expires = fetched + options_.robots_cache;
      const int status = hr.robots_status();
      if (hr.robots_fetched_at_ms() > 0 && absl::Now() < expires &&
          status > 0 && status < 500) {
        h.rules = protocol::RobotsForStatus(status, hr.robots_body(),
                                            robots_options_);
        h.robots_known = true;
        h.robots_expires = expires;
        h.delay = HostDelay(h.rules);
      }
    }
  }
  return *it->second;
}

int64_t HostScheduler::hosts_parked() const {
  int64_t n = 0;
  for (const auto& [key, h] : hosts_) n += h->parked ? 1 : 0;
  return n;
}

bool HostScheduler::BudgetReached() const {
  if (cluster_ != nullptr) return false;  // page tokens instead
  return pages_total_ + pages_in_flight_ >= options_.max_pages;
}

double HostScheduler::FetchThreshold() const {
  double threshold = strategy_.min_fetch_score();
  if (const double share = strategy_.min_fetch_share(); share > 0) {
    const std::optional<double> best = db_.BestQueuedScore();
    if (best.has_value() && *best > 0) {
      threshold = std::max(threshold, share * *best);
    }
  }
  return threshold;
}

bool HostScheduler::RecheckThreshold(absl::Time now) {
  if (!(strategy_.min_fetch_share() > 0) || db_.stats().queued == 0) {
    return AnyReady();
  }
  for (const auto& [host, score] : db_.QueuedHosts()) {
    Refresh(Host(host), now);
  }
  // A host let through again may still be waiting out its delay (it was
  // fetched a moment ago, when a better URL elsewhere held the threshold
  // up): it keeps the crawl alive as much as a ready one.
  return AnyReady() || AnyWaiting();
}

bool HostScheduler::HasWork(HostState& h,
                            std::optional<storage::QueuedEntry>* head_out) {
  if (!h.pending.empty()) return true;
  if (BudgetReached()) return false;
  if (cluster_ != nullptr && !cluster_->MayFetch(h.key)) return false;
  if (!h.sitemaps.empty()) return true;
  if (h.pages_fetched + h.pages_in_flight >= options_.max_pages_per_host) {
    return false;
  }
  std::optional<storage::QueuedEntry> head = db_.Peek(h.key);
  if (!head.has_value() || head->score < FetchThreshold()) {
    return false;
  }
  if (head_out != nullptr) *head_out = std::move(head);
  // Last: asking for a page token means there is a URL to spend it on.
  return cluster_ == nullptr || cluster_->HasPage();
}

bool HostScheduler::Eligible(HostState& h,
                             std::optional<storage::QueuedEntry>* head) {
  return !h.busy && !h.parked && HasWork(h, head);
}

HostScheduler::ReadyKey HostScheduler::ReadyKeyOf(const HostState& h) {
  return {-h.ready_score, h.ready_served, h.key};
}

void HostScheduler::Refresh(HostState& h, absl::Time now) {
  if (h.in_ready) {
    ready_.erase(ReadyKeyOf(h));
    h.in_ready = false;
  }
  if (h.parked && now >= h.parked_until) {
    h.parked = false;
    h.robots_known = false;  // try robots.txt again
  }
  // The queue head HasWork read ranks the host: one Peek per refresh.
  std::optional<storage::QueuedEntry> head;
  if (!Eligible(h, &head)) return;
  if (now < h.next_allowed) {
    if (h.waiting_until != h.next_allowed) {
      h.waiting_until = h.next_allowed;
      waiting_.push({h.next_allowed, h.key});
    }
    return;
  }
  double score = std::numeric_limits<double>::infinity();
  if (h.pending.empty() && h.sitemaps.empty()) {
    score = head.has_value() ? head->score : 0;
  }
  h.ready_score = score;
  h.ready_served = h.pages_fetched + h.pages_in_flight;
  h.in_ready = true;
  ready_.insert(ReadyKeyOf(h));
}

void HostScheduler::WakeWaiting(absl::Time now) {
  while (!waiting_.empty() && waiting_.top().first <= now) {
    auto [t, key] = waiting_.top();
    waiting_.pop();
    auto it = hosts_.find(key);
    if (it == hosts_.end()) continue;
    HostState& h = *it->second;
    if (h.waiting_until != t) continue;  // superseded
    h.waiting_until = absl::InfinitePast();
    Refresh(h, now);
  }
  while (!parked_wake_.empty() && parked_wake_.top().first <= now) {
    auto [t, key] = parked_wake_.top();
    parked_wake_.pop();
    auto it = hosts_.find(key);
    if (it == hosts_.end()) continue;
    HostState& h = *it->second;
    if (!h.parked || h.parked_until != t) continue;  // superseded
    Refresh(h, now);                                 // unparks it
  }
}

bool HostScheduler::RobotsAllow(const HostState& h, const url::Url& u) const {
  if (!options_.obey_robots) return true;
  std::string path(u.path());
  if (!u.query().empty()) absl::StrAppend(&path, "?", std::string(u.query()));
  return h.rules.IsAllowed(user_agent_product_, path);
}

absl::Status HostScheduler::StartTransfers(absl::Time now,
                                           int64_t max_parsing) {
  const size_t max_in_flight = options_.max_in_flight;
  const absl::Duration per_ip = options_.per_ip_delay;
  const int64_t window = options_.order_window;
  while (sink_.transfers() < max_in_flight && !ready_.empty() &&
         sink_.parsing() < max_parsing) {
    // The frontier's global order (Strategy.order_window): the best ready
    // host's head starts only while the pages under way (fetched or being
    // parsed: their links are not scored yet) and the queued URLs of all
    // hosts that score above it are fewer than `window`. Every other ready
    // host scores no higher, so none may start either. The better URLs are
    // waited for while something is under way or a host waits out its
    // politeness delay; otherwise the head starts anyway: the URLs above it
    // belong to hosts that cannot be fetched soon (parked, capped, owned by
    // another worker), and the crawl must go on.
    const double head_score = -std::get<0>(*ready_.begin());
    const int64_t under_way =
        static_cast<int64_t>(sink_.transfers()) + sink_.parsing();
    if (window > 0 && std::isfinite(head_score) &&
        (under_way > 0 || !waiting_.empty()) &&
        under_way + db_.QueuedAbove(head_score) >= window) {
      ++held_by_order_;
      break;
    }
    const std::string key = std::get<2>(*ready_.begin());
    ready_.erase(ready_.begin());
    HostState& h = *hosts_[key];
    h.in_ready = false;
    if (per_ip > absl::ZeroDuration() && !h.last_ip.empty()) {
      // A transfer to the address is running, or it was used too
      // recently: look again when it may be free.
      absl::Time when = absl::InfinitePast();
      if (auto b = ip_busy_.find(h.last_ip);
          b != ip_busy_.end() && b->second > 0) {
        when = now + per_ip;
      } else if (auto it = ip_next_allowed_.find(h.last_ip);
                 it != ip_next_allowed_.end() && it->second > now) {
        when = it->second;
      }
      if (when > now) {
        h.waiting_until = when;
        waiting_.push({when, h.key});
        continue;
      }
    }
    absl::StatusOr<bool> started = StartForHost(h, now);
    if (!started.ok()) return started.status();
    if (!*started) {
      Refresh(h, now);
    } else if (per_ip > absl::ZeroDuration() && !h.last_ip.empty()) {
      // One transfer per address at a time; the delay starts when it ends.
      h.reserved_ip = h.last_ip;
      ++ip_busy_[h.reserved_ip];
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<bool> HostScheduler::StartForHost(HostState& h, absl::Time now) {
  const bool obey = options_.obey_robots;
  if (obey && (!h.robots_known || now >= h.robots_expires)) {
    Task t;
    t.kind = Task::Kind::kRobots;
    t.host = h.key;
    t.url = absl::StrCat(h.scheme, "://", h.key, "/robots.txt");
    t.started = now;
    t.chain.push_back(t.url);
    StartTask(h, std::move(t));
    return true;
  }
  // Pending hops and retries first, then the host's queue. URLs robots.txt
  // disallows are recorded and skipped without a request (and without the
  // politeness delay); at most a bounded number per call so one host
  // cannot stall the loop.
  for (int skipped = 0; skipped < 256; ++skipped) {
    Task t;
    if (!h.pending.empty()) {
      t = std::move(h.pending.front());
      h.pending.pop_front();
    } else if (!h.sitemaps.empty() && !BudgetReached()) {
      t = std::move(h.sitemaps.front());
      h.sitemaps.pop_front();
      absl::StatusOr<url::Url> u = url::Parse(t.url);
      if (!h.unreachable.empty() || !u.ok() || !RobotsAllow(h, *u)) {
        // A sitemap is no page: one that cannot be fetched ends here.
        ++skipped_[h.unreachable.empty() ? "sitemaps disallowed"
                                         : "sitemaps unreachable"];
        continue;
      }
      StartTask(h, std::move(t));
      return true;
    } else {
      if (!HasWork(h)) return false;
      absl::StatusOr<std::optional<LinkRecord>> popped = frontier_.Pop(h.key);
      if (!popped.ok()) return popped.status();
      if (!popped->has_value()) return false;
      t.kind = Task::Kind::kPage;
      t.host = h.key;
      t.record = **std::move(popped);
      t.url = t.record.url();
      t.started = now;
      t.chain.push_back(t.url);
      ++pages_in_flight_;
      ++h.pages_in_flight;
      if (cluster_ != nullptr) cluster_->TakePage();
      const Admission admission =
          strategy_.Admit(t.url, t.record.physical_layer(), StateOf(t.record));
      if (!admission.fetch && admission.defer_score.has_value() &&
          std::isfinite(*admission.defer_score)) {
        // Not now: back into the host's queue below what the strategy
        // admits; asked again when it is the host's best. No page spent.
        if (absl::Status s = frontier_.Defer(t.record, *admission.defer_score);
            !s.ok()) {
          return s;
        }
        --pages_in_flight_;
        --h.pages_in_flight;
        if (cluster_ != nullptr) cluster_->ReturnPage();
        ++deferred_;
        continue;
      }
      if (!admission.fetch) {
        ++skipped_["strategy"];
        if (absl::Status s = sink_.RecordWithoutRequest(
                std::move(t), LinkRecord::SKIPPED, admission.reason,
                /*fetched=*/false, /*outcome=*/std::nullopt, now);
            !s.ok()) {
          return s;
        }
        continue;
      }
    }
    if (!h.unreachable.empty()) {
      // The host does not exist or refuses connections (its robots.txt
      // fetch said so): its URLs are recorded as errors without a request.
      const bool fetched = t.hops > 0;
      ++skipped_["host unreachable"];
      if (absl::Status s = sink_.RecordWithoutRequest(
              std::move(t), LinkRecord::ERROR,
              absl::StrCat("host unreachable: ", h.unreachable), fetched,
              FetchOutcome::kTransportError, now);
          !s.ok()) {
        return s;
      }
      continue;
    }
    absl::StatusOr<url::Url> u = url::Parse(t.url);
    const bool allowed = u.ok() && RobotsAllow(h, *u);
    if (allowed) {
      StartTask(h, std::move(t));
      return true;
    }
    // Disallowed: the URL (or the redirect hop leading here) ends now.
    const bool fetched = t.hops > 0;
    const std::string why =
        t.hops == 0
            ? "disallowed by robots.txt"
            : absl::StrCat("redirect target disallowed by robots.txt: ", t.url);
    ++skipped_["robots"];
    if (absl::Status s =
            sink_.RecordWithoutRequest(std::move(t), LinkRecord::SKIPPED, why,
                                       fetched, FetchOutcome::kRobots, now);
        !s.ok()) {
      return s;
    }
  }
  return false;
}

void HostScheduler::StartTask(HostState& h, Task task) {
  // Recording a skipped URL may have put the host back into the ready set
  // (ApplyOutcome refreshes it); it is busy from now on.
  if (h.in_ready) {
    ready_.erase(ReadyKeyOf(h));
    h.in_ready = false;
  }
  h.busy = true;
  sink_.Start(std::move(task));
}

absl::Status HostScheduler::RobotsFetched(const Task& task, int status,
                                          const std::string& body,
                                          const absl::Status& error,
                                          absl::Time now) {
  HostState& h = Host(task.host);
  ++robots_fetched_;
  h.rules = protocol::RobotsForStatus(status, body, robots_options_);
  h.robots_known = true;
  h.robots_expires = now + options_.robots_cache;
  if (status > 0) h.reach_failures = 0;  // it answered
  const bool unreachable = status == 0 && (absl::IsUnavailable(error) ||
                                           absl::IsDeadlineExceeded(error));
  if (status == 0 &&
      (absl::IsPermissionDenied(error) || absl::IsNotFound(error))) {
    // A refused address, or DNS said the name does not exist (or has no
    // address): trying again would get the same answer.
    h.unreachable = std::string(error.message());
    ++hosts_unreachable_;
  } else if (unreachable && h.reach_failures >= options_.unreachable_retries) {
    // The name does not resolve or nothing answers, and the retries are
    // spent: its URLs become errors without a request.
    ++h.reach_failures;
    h.unreachable =
        absl::StrCat(error.message(), " (", h.reach_failures,
                     h.reach_failures == 1 ? " attempt)" : " attempts)");
    ++hosts_unreachable_;
  } else if (unreachable) {
    // Parked and tried again later, each wait twice the one before; the
    // rest of the crawl goes on meanwhile.
    const absl::Duration wait =
        options_.unreachable_retry * (int64_t{1} << h.reach_failures);
    ++h.reach_failures;
    h.parked = true;
    h.parked_until = now + wait;
    parked_wake_.push({h.parked_until, h.key});
  } else if (status == 0 || status >= 500) {
    // Unreachable: complete disallow for a while (§2.3.1.4). The host's
    // URLs stay queued for a later run or after the retry delay.
    h.parked = true;
    h.parked_until = now + kRobotsRetryDelay;
    parked_wake_.push({h.parked_until, h.key});
  }
  h.delay = HostDelay(h.rules);
  h.next_allowed = now + h.delay;
  if (status >= 200 && status < 500 && h.unreachable.empty() &&
      !h.robots_sitemaps_read) {
    // The sitemaps it names (or /sitemap.xml on a seed's host), once a
    // run.
    h.robots_sitemaps_read = true;
    std::vector<std::string> urls;
    if (options_.sitemaps_from_robots) {
      absl::StatusOr<url::Url> base = url::Parse(task.url);
      for (const std::string& s : h.rules.sitemaps()) {
        if (!base.ok()) break;
        absl::StatusOr<url::Url> u = url::Resolve(*base, s);
        if (u.ok()) urls.push_back(u->spec());
      }
    }
    if (urls.empty() && options_.sitemaps_guess_on_seed_hosts &&
        seed_hosts_.contains(h.key)) {
      urls.push_back(absl::StrCat(h.scheme, "://", h.key, "/sitemap.xml"));
    }
    QueueSitemaps(h.key, urls, /*from_index=*/false, now);
  }

  proto::HostRecord& rec = h.record;
  rec.set_robots_fetched_at_ms(absl::ToUnixMillis(now));
  rec.set_robots_status(status);
  rec.set_robots_body(body.substr(0, kMaxStoredRobotsBytes));
  storage::LinkBatch batch;
  batch.PutHost(rec);
  return db_.Commit(std::move(batch));
}

int HostScheduler::QueueSitemaps(const std::string& host,
                                 const std::vector<std::string>& urls,
                                 bool from_index, absl::Time now) {
  HostState& h = Host(host);
  const int max = options_.sitemaps_max_per_host;
  int taken = 0;
  for (const std::string& s : urls) {
    if (h.sitemaps_taken >= max) break;
    absl::StatusOr<url::Url> u = url::Parse(s);
    // A host's sitemaps speak for that host only.
    if (!u.ok() || storage::HostKey(u->spec()) != host) continue;
    Task t;
    t.kind = Task::Kind::kSitemap;
    t.host = host;
    t.url = u->spec();
    t.started = now;
    t.chain.push_back(t.url);
    t.from_index = from_index;
    h.sitemaps.push_back(std::move(t));
    ++h.sitemaps_taken;
    ++taken;
  }
  if (taken > 0) Refresh(h, now);
  return taken;
}

void HostScheduler::FollowRobotsRedirect(Task task) {
  HostState& h = Host(task.host);
  h.next_allowed = absl::InfinitePast();
  StartTask(h, std::move(task));
}

void HostScheduler::Retry(Task task, absl::Time not_before) {
  HostState& h = Host(task.host);
  h.next_allowed = std::max(h.next_allowed, not_before);
  h.pending.push_front(std::move(task));
}

void HostScheduler::QueueHop(Task task, absl::string_view scheme,
                             absl::Time now) {
  HostState& th = Host(task.host, scheme);
  th.pending.push_back(std::move(task));
  Refresh(th, now);
}

void HostScheduler::QueueRevisit(Task task, absl::string_view scheme,
                                 absl::Time now) {
  HostState& h = Host(task.host, scheme);
  h.pending.push_back(std::move(task));
  Refresh(h, now);
}

void HostScheduler::TransferEnded(const Task& task, const std::string& ip,
                                  absl::Time now) {
  HostState& h = Host(task.host);
  h.busy = false;
  h.next_allowed = now + h.delay;
  const absl::Duration per_ip = options_.per_ip_delay;
  if (!h.reserved_ip.empty()) {
    --ip_busy_[h.reserved_ip];
    ip_next_allowed_[h.reserved_ip] = now + per_ip;
    h.reserved_ip.clear();
  }
  if (!ip.empty()) {
    h.last_ip = ip;
    if (per_ip > absl::ZeroDuration()) {
      absl::Time& next = ip_next_allowed_[ip];
      next = std::max(next, now + per_ip);
    }
  }
}

void HostScheduler::Refresh(const std::string& host, absl::Time now) {
  Refresh(Host(host), now);
}

void HostScheduler::RefreshChanged(absl::Time now, const std::string& also) {
  bool also_done = also.empty();
  for (const std::string& key : db_.TakeChangedHosts()) {
    Refresh(Host(key), now);
    if (key == also) also_done = true;
  }
  // Refresh is idempotent for one `now`: a host among the changed ones is
  // not ranked (and its queue head read) a second time.
  if (!also_done) Refresh(Host(also), now);
}

void HostScheduler::RescheduleAll(absl::Time now) {
  for (const auto& [host, score] : db_.QueuedHosts()) Host(host);
  for (auto& [key, h] : hosts_) Refresh(*h, now);
}

void HostScheduler::PageEnded(const std::string& url, bool fetched,
                              storage::LinkBatch* batch) {
  HostState& h = Host(storage::HostKey(url));
  if (fetched) {
    ++pages_total_;
    ++h.pages_fetched;
    h.record.set_pages_fetched(h.pages_fetched);
    batch->PutHost(h.record);
    batch->PutGlobal(kGlobalPagesFetched, absl::StrCat(pages_total_));
  }
  --pages_in_flight_;
  --h.pages_in_flight;
}

void HostScheduler::Touch(const std::string& host, absl::string_view scheme) {
  Host(host, scheme);
}

void HostScheduler::Forget(const std::string& host) {
  if (auto it = hosts_.find(host); it != hosts_.end() && !Busy(host)) {
    HostState& h = *it->second;
    if (h.in_ready) ready_.erase(ReadyKeyOf(h));
    hosts_.erase(it);
  }
}

bool HostScheduler::Busy(const std::string& host) const {
  auto it = hosts_.find(host);
  if (it == hosts_.end()) return false;
  const HostState& h = *it->second;
  return h.busy || !h.pending.empty() || h.pages_in_flight > 0;
}

bool HostScheduler::Quiet() {
  if (!ready_.empty()) return false;
  for (const auto& [key, h] : hosts_) {
    if (h->busy || !h->pending.empty()) return false;
  }
  // Hosts waiting for their politeness delay still have work. An entry
  // dropped here must clear the host's waiting_until, or Refresh would
  // take the host for queued and never queue it again.
  while (!waiting_.empty()) {
    auto [t, key] = waiting_.top();
    auto it = hosts_.find(key);
    if (it != hosts_.end() && it->second->waiting_until == t) {
      if (Eligible(*it->second)) return false;
      it->second->waiting_until = absl::InfinitePast();
    }
    waiting_.pop();
  }
  return true;
}

bool HostScheduler::AnyWaiting() {
  while (!waiting_.empty()) {
    auto [t, key] = waiting_.top();
    HostState& h = *hosts_[key];
    if (h.waiting_until == t && Eligible(h)) return true;
    waiting_.pop();
  }
  return false;
}

absl::Time HostScheduler::NextWake() const {
  absl::Time wake = absl::InfiniteFuture();
  if (!waiting_.empty()) wake = waiting_.top().first;
  if (!parked_wake_.empty()) wake = std::min(wake, parked_wake_.top().first);
  return wake;
}

}  // namespace fcrawl::worker
