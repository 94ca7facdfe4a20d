// Which host is served next, and when (docs/design.md "One page, from fetch
// to ranker", steps 1 to 3; worker/README.md "The frontier's global order"):
// politeness (one transfer per host; per_host_delay_ms raised by robots.txt
// Crawl-delay up to max_crawl_delay_ms between the end of one response and
// the next request; per_ip_delay_ms per address), robots.txt (fetched
// before a host's first page and when its cache time runs out; 4xx allows
// all; 5xx parks the host for kRobotsRetryDelay; a host whose lookup or
// connection fails is parked and tried again fetch.unreachable_retries
// times with a doubling wait from fetch.unreachable_retry_ms, then its URLs
// are recorded as errors without requests; a name that does not exist
// (NotFound) or a refused address at once), the page budget, the strategy's
// fetch threshold and admission, and the frontier's global order
// (Strategy.order_window).
//
// Owns: every known host's state (robots rules, delays, redirect hops and
// retries waiting for the host, pages fetched and in flight, the host
// record as stored), the ready set (hosts that may be served now, best
// queue head first), the waiting queue (hosts waiting out a delay), the
// per-address delays, and the page counts the budget is checked against
// (pages fetched over all runs, pages in flight). Borrows the
// database (queue heads, host records), the frontier (pops), the strategy
// (threshold, admission), the cluster hooks (nullptr on its own) and the
// crawl loop's TransferSink, which must outlive it.
//
// Thread-safety: the crawl thread only.
//
// Errors: those of the database and of the sink's RecordWithoutRequest;
// a host's problems (robots.txt, unreachable) are its state, not errors.
#ifndef FCRAWL_WORKER_HOST_SCHEDULER_H_
#define FCRAWL_WORKER_HOST_SCHEDULER_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <queue>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "focus/strategy.h"
#include "proto/link_state.pb.h"
#include "protocol/fetcher.h"
#include "protocol/robots.h"
#include "storage/link_db.h"
#include "worker/cluster_hooks.h"
#include "worker/crawl_task.h"
#include "worker/fetch_outcomes.h"
#include "worker/frontier.h"

namespace fcrawl::worker {

// How long a host whose robots.txt answered 5xx is parked.
inline constexpr absl::Duration kRobotsRetryDelay = absl::Minutes(10);

// What the scheduler needs of the crawl loop that runs the transfers.
class TransferSink {
 public:
  virtual ~TransferSink() = default;
  // Transfers running.
  virtual size_t transfers() const = 0;
  // Fetched pages whose outcome is not applied yet (being parsed).
  virtual int64_t parsing() const = 0;
  // Starts the request of `task` (its host is marked busy already).
  virtual void Start(Task task) = 0;
  // Records `task`'s URL without a (further) request at `now`: `status`
  // with `problem` ("" for none); `fetched` when an earlier hop of it was;
  // `outcome` what it counts as among the run's fetch outcomes
  // (worker/fetch_outcomes.h; nullopt: it does not count, the strategy
  // refused it). It may rank hosts again (the scheduler is re-entered).
  virtual absl::Status RecordWithoutRequest(Task task,
                                            proto::LinkRecord::Status status,
                                            std::string problem, bool fetched,
                                            std::optional<FetchOutcome> outcome,
                                            absl::Time now) = 0;
};

// From the config (worker/crawl_setup.h's SchedulerOptionsOf, which names
// each field's source).
struct SchedulerOptions {
  std::string user_agent;          // its product token is matched in robots.txt
  std::vector<std::string> seeds;  // their hosts may have /sitemap.xml tried
  bool obey_robots;
  absl::Duration robots_cache;
  absl::Duration per_host_delay;
  absl::Duration per_ip_delay;
  absl::Duration max_crawl_delay;  // cap on a robots.txt Crawl-delay
  int64_t max_pages;               // over all runs
  int64_t max_pages_per_host;
  int32_t max_in_flight;
  int32_t order_window;  // 0 = off
  int32_t unreachable_retries;
  absl::Duration unreachable_retry;
  bool sitemaps_from_robots;
  bool sitemaps_guess_on_seed_hosts;
  int32_t sitemaps_max_per_host;
};

class HostScheduler {
 public:
  HostScheduler(SchedulerOptions options, storage::LinkDb* db,
                Frontier* frontier, focus::Strategy* strategy,
                ClusterHooks* cluster, TransferSink* sink);
  ~HostScheduler();
  HostScheduler(const HostScheduler&) = delete;
  HostScheduler& operator=(const HostScheduler&) = delete;

  // Reads the pages fetched over all runs (the budget) and ranks every host
  // with queued URLs (a resumed crawl).
  absl::Status Init(absl::Time now);

  // Starts transfers while there is room (fetch.max_in_flight, the parse
  // pool's backlog `max_parsing`), a ready host and the frontier's global
  // order allows it; URLs that end without a request (robots.txt, refused
  // by the strategy, host unreachable) are recorded through the sink.
  absl::Status StartTransfers(absl::Time now, int64_t max_parsing);
  // Hosts whose delay ran out are ranked again.
  void WakeWaiting(absl::Time now);
  // Hosts whose queue head changed in the database are ranked again, and
  // `also` (when not "") whether or not it changed; each once.
  void RefreshChanged(absl::Time now, const std::string& also = "");
  // Every host with queued URLs is ranked again (ownership, quota or pause
  // changed).
  void RescheduleAll(absl::Time now);

  // The transfer of `task` ended at `now` from address `ip` ("" unknown):
  // the host is free again after its delay, the address after
  // per_ip_delay_ms. The host is ranked again by Refresh(task.host).
  void TransferEnded(const Task& task, const std::string& ip, absl::Time now);
  void Refresh(const std::string& host, absl::Time now);
  // robots.txt of `task.host` answered `status` (0: no answer, `error`
  // says why) with `body`; the rules, delay and host record are updated
  // and the host record committed.
  absl::Status RobotsFetched(const Task& task, int status,
                             const std::string& body, const absl::Status& error,
                             absl::Time now);
  // Sitemaps (protocol/sitemap.h) of `host` to fetch: after its robots.txt,
  // before its queued URLs, behind its delay, while the budget lasts. Only
  // URLs on `host` itself are taken, at most sitemaps.max_per_host per
  // host and run; `from_index` marks sitemaps an index named (an index
  // among them is not followed further). Returns how many were taken.
  int QueueSitemaps(const std::string& host,
                    const std::vector<std::string>& urls, bool from_index,
                    absl::Time now);
  // robots.txt redirected: the next hop starts at once (the host stays busy).
  void FollowRobotsRedirect(Task task);
  // 429/503: `task` is served again first, not before `not_before`.
  void Retry(Task task, absl::Time not_before);
  // A revisit (Task::revisit, worker/revisit_queue.h): served first by its
  // host with the hops and retries, behind the host's robots.txt and delay;
  // not counted in the page budget.
  void QueueRevisit(Task task, absl::string_view scheme, absl::Time now);
  // A redirect hop: served first by its (new) host `task.host`, behind that
  // host's robots.txt and delay.
  void QueueHop(Task task, absl::string_view scheme, absl::Time now);
  // A page's outcome is being applied: it is no longer in flight; when
  // `fetched`, it counts against the budget and the host record and the
  // pages-fetched total are added to `batch`.
  void PageEnded(const std::string& url, bool fetched,
                 storage::LinkBatch* batch);

  // Makes sure `host` has state (read from the database when new); the
  // scheme is the one its robots.txt is fetched with.
  void Touch(const std::string& host, absl::string_view scheme = "http");
  // Forgets `host`'s state unless something of it is under way (it is read
  // from the database again when next used): after a hand-over.
  void Forget(const std::string& host);
  // A transfer, redirect hop, retry or parse of `host` is under way.
  bool Busy(const std::string& host) const;

  // Standalone only: pages fetched plus in flight reach budget.max_pages.
  bool BudgetReached() const;
  // No host ready, busy, with hops or retries waiting, or waiting out a
  // delay with work (drops stale waiting entries).
  bool Quiet();
  // A host is ready now.
  bool AnyReady() const { return !ready_.empty(); }
  // A host waits out a delay with work left (the crawl goes on for it).
  bool AnyWaiting();
  // When the next waiting host may be served (InfiniteFuture: none).
  absl::Time NextWake() const;

  int64_t pages_total() const { return pages_total_; }
  int64_t robots_fetched() const { return robots_fetched_; }
  int64_t held_by_order() const { return held_by_order_; }
  // Hosts given up as unreachable (this run), and hosts parked now (robots
  // 5xx, or unreachable with retries left).
  int64_t hosts_unreachable() const { return hosts_unreachable_; }
  int64_t hosts_parked() const;
  int64_t deferred() const { return deferred_; }
  // URLs not fetched in this run, by reason: taken from the frontier and
  // recorded without a request ("robots": disallowed, "strategy":
  // Strategy::Admit refused it, "host unreachable"), and what the crawl
  // loop counts with CountSkipped ("out-of-scope links", "nofollow links").
  const std::map<std::string, int64_t>& skipped() const { return skipped_; }
  void CountSkipped(const std::string& reason, int64_t n) {
    if (n > 0) skipped_[reason] += n;
  }
  // The share threshold (Strategy::min_fetch_share) follows the best
  // queued score, which falls as the best URLs are fetched: hosts judged
  // below it earlier are looked at again. Returns whether a host is ready
  // now or waits out its delay with work (AnyReady() || AnyWaiting()).
  // For strategies without a share threshold (or an empty queue) it looks
  // at nothing and returns AnyReady() (the crawl loop asked AnyWaiting()
  // already).
  bool RecheckThreshold(absl::Time now);

 private:
  struct HostState;

  HostState& Host(const std::string& key, absl::string_view scheme = "http");
  absl::Duration HostDelay(const protocol::RobotsRules& rules) const;
  // The host has a URL (or a hop or retry) that may be fetched now, delays
  // aside; `head`, when given, gets the queue head that was read.
  bool HasWork(HostState& h,
               std::optional<storage::QueuedEntry>* head = nullptr);
  // Has work and may be served (delays aside).
  bool Eligible(HostState& h,
                std::optional<storage::QueuedEntry>* head = nullptr);
  void Refresh(HostState& h, absl::Time now);
  absl::StatusOr<bool> StartForHost(HostState& h, absl::Time now);
  void StartTask(HostState& h, Task task);
  bool RobotsAllow(const HostState& h, const url::Url& u) const;
  // Score a host's best URL needs to be fetched: the strategy's absolute
  // minimum, or its share of the best score queued on any host.
  double FetchThreshold() const;

  const SchedulerOptions options_;
  storage::LinkDb& db_;
  Frontier& frontier_;
  focus::Strategy& strategy_;
  ClusterHooks* const cluster_;
  TransferSink& sink_;
  std::string user_agent_product_;  // lower case (protocol::ProductToken)
  protocol::RobotsOptions robots_options_;

  absl::flat_hash_map<std::string, std::unique_ptr<HostState>> hosts_;
  // Ready hosts in the order they are served: best queue head first; among
  // equal heads the host with the fewest pages fetched (or under way)
  // first, then host order (key: -score, pages, host). Ties are the
  // strategy's to leave open and the scheduler's to settle: serving the
  // least-served host first is what politeness makes a parallel crawl do
  // anyway (a host that was just served waits out its delay), so the
  // parallel crawl and the one-transfer crawl settle ties alike (docs/
  // strategies.md "Ties").
  using ReadyKey = std::tuple<double, int64_t, std::string>;
  static ReadyKey ReadyKeyOf(const HostState& h);
  std::set<ReadyKey> ready_;
  // Hosts waiting for their delay: (time, host), earliest first; lazy.
  std::priority_queue<std::pair<absl::Time, std::string>,
                      std::vector<std::pair<absl::Time, std::string>>,
                      std::greater<>>
      waiting_;
  // Parked hosts by the time they may be tried again (lazy, like
  // waiting_). Apart from waiting_ because a parked host does not keep the
  // crawl alive (AnyWaiting does not look here); it is only woken if the
  // crawl is still running then.
  std::priority_queue<std::pair<absl::Time, std::string>,
                      std::vector<std::pair<absl::Time, std::string>>,
                      std::greater<>>
      parked_wake_;
  absl::flat_hash_map<std::string, absl::Time> ip_next_allowed_;
  absl::flat_hash_map<std::string, int> ip_busy_;  // transfers per address

  int64_t pages_total_ = 0;  // all runs
  int64_t pages_in_flight_ = 0;
  int64_t robots_fetched_ = 0;  // this run
  // The seeds' hosts (HostKey), where /sitemap.xml is tried.
  absl::flat_hash_set<std::string> seed_hosts_;
  int64_t held_by_order_ = 0;      // this run
  int64_t hosts_unreachable_ = 0;  // this run
  int64_t deferred_ = 0;           // this run: URLs the strategy deferred
  std::map<std::string, int64_t> skipped_;  // this run, by reason
};

}  // namespace fcrawl::worker

#endif  // FCRAWL_WORKER_HOST_SCHEDULER_H_
