// The worker's crawl loop on one machine (docs/design.md "Crawl strategies",
// "State", "Inputs are hostile").
//
// One thread drives everything that touches the network and the database:
// it picks the best-scored URL of a host that may be fetched now (the
// frontier in storage/link_db.h), checks robots.txt, starts the transfer
// (worker/fetcher.h), follows redirects hop by hop (each hop checked against
// the scope and robots.txt and queued behind the target host's politeness
// delay), backs off on 429/503, and commits each page's outcome as one
// RocksDB batch. Parsing, segmentation, relevance and link scoring run on a
// pool of `parse_threads` threads.
//
// Politeness: at most one transfer per host at a time; between two requests
// to a host at least max(per_host_delay, robots Crawl-delay capped at
// max_crawl_delay); between two requests to one IP address at least
// per_ip_delay (the address a host was last reached at; a host's first
// request, its robots.txt, has no known address yet). robots.txt is fetched
// before a host's first page and again when its cache time runs out; 4xx
// allows everything, 5xx disallows the host for kRobotsRetryDelay (its
// URLs stay queued; such a host does not keep the crawl alive); a host that
// does not resolve or cannot be connected to is parked the same way and
// tried again fetch.unreachable_retries times with a doubling wait, then
// its URLs are recorded as errors; a name DNS says does not exist at once.
//
// DNS (fetch.async_dns): host names are resolved by worker/resolver.h
// outside the transfer slots, and curl is given the address; a task whose
// host is being looked up waits without holding a slot. A lookup that
// fails ends the task with an error "could not resolve host ...": NotFound
// when the name does not exist or has no address, else Unavailable (as
// curl's own DNS errors).
//
// Outputs in config.output_dir: db/ (the link state), fetch_log.jsonl and
// pages.jsonl (formats/crawl_log.h), warc/*.warc.gz (worker/warc.h), and
// config.textproto (the effective config of the last run). A page's log
// lines are written before its database batch is committed, so a killed
// worker may log a page twice (it is fetched again after the restart), but
// never loses one.
//
// URL canonicalisation on top of url::Parse: session-id query parameters are
// removed (url::StripSessionIds), so session traps collapse into one URL.
//
// Thread-safety: Run() is called once, from one thread. RequestStop() may be
// called from any thread; a signal handler should set the atomic flag given
// in CrawlerOptions instead.
#ifndef FCRAWL_WORKER_CRAWLER_H_
#define FCRAWL_WORKER_CRAWLER_H_

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "focus/strategy.h"
#include "proto/crawl_config.pb.h"
#include "proto/link_state.pb.h"
#include "worker/fetch_outcomes.h"

namespace fcrawl::worker {

inline constexpr absl::Duration kRobotsRetryDelay = absl::Minutes(10);

// What the crawl loop offers its cluster side (worker/cluster_node.h) while
// it runs: called only from the crawl thread, inside ClusterHooks::Service.
class ClusterContext {
 public:
  virtual ~ClusterContext() = default;
  // Merges routed links (QUEUED records) into the frontier: an unknown URL
  // is queued (a record of depth 0 without a parent is a seed and gets the
  // strategy's seed state), a queued one gets the merged strategy state and
  // the smaller depth, a settled one stays as it is. Out-of-scope or
  // malformed URLs are dropped. `link_contexts` is empty or holds, per
  // record, what the finder's strategy knew of the link
  // (focus::Strategy::LinkContext; untrusted). Committed when this returns
  // OK.
  virtual absl::Status AddLinks(
      const std::vector<proto::LinkRecord>& records,
      const std::vector<std::string>& link_contexts) = 0;
  // Merges a handed-over host: its records (a settled record replaces a
  // queued one; two queued ones merge), its host record (when this worker
  // has none) and its site state (the learned URL patterns).
  virtual absl::Status AddHost(const std::string& host,
                               const std::vector<proto::LinkRecord>& records,
                               const proto::HostRecord* host_record,
                               const std::string& site_state) = 0;
  // Ranking feedback: stores each rank (mean-1 scale) on the URL's record
  // and re-scores the queued ones with Strategy::WithRank. URLs this worker
  // does not know are skipped. Committed when this returns OK. `applied`
  // counts the records that got a rank, `requeued` the queued ones whose
  // frontier state changed.
  virtual absl::Status ApplyRanks(
      const std::vector<std::pair<std::string, double>>& ranks,
      int64_t* applied, int64_t* requeued) = 0;
  // Hosts with state in the database.
  virtual absl::StatusOr<std::vector<std::string>> Hosts() = 0;
  // A transfer, redirect hop, retry or parse of `host` is under way.
  virtual bool HostBusy(const std::string& host) = 0;
  // Reads a host's state for handing it over: its records, host record
  // (nullopt when none) and site state ("" when none).
  virtual absl::Status ReadHost(const std::string& host,
                                std::vector<proto::LinkRecord>* records,
                                std::optional<proto::HostRecord>* host_record,
                                std::string* site_state) = 0;
  // Forgets a host that was handed over (its fetched pages stay).
  virtual absl::Status DropHost(const std::string& host) = 0;
  // Ownership, quota or pause changed: every host is ranked again.
  virtual void RescheduleAll() = 0;
  // URLs in the frontier, transfers under way, pages fetched over all runs
  // of this output folder.
  virtual void Figures(int64_t* queued, int64_t* in_flight,
                       int64_t* pages_total) = 0;
  // The best score queued (to within 1/256), nullopt when nothing is.
  virtual std::optional<double> BestQueuedScore() = 0;
  // URLs not fetched in this run, by reason (HostScheduler::skipped).
  virtual std::map<std::string, int64_t> Skipped() = 0;
  // This run's URLs by what became of them (worker/fetch_outcomes.h).
  virtual FetchOutcomeCounts FetchOutcomes() = 0;
  // The folders in which fetches failed (focus::Strategy::DeadFolders).
  virtual std::vector<focus::FolderOutcome> DeadFolders() = 0;
  // Why this worker starts no fetch of its own accord ("disk full on
  // /data: 3 MiB free (budget.min_free_disk_mb 256)"), "" while it fetches.
  virtual std::string Paused() = 0;
  // The strategy's lessons (focus::Strategy::TakeLessons, LearnLessons):
  // what it learned from this worker's pages, and the other workers'.
  virtual std::string TakeLessons() = 0;
  virtual absl::Status LearnLessons(absl::string_view bytes) = 0;
  // The best queued scores with their counts (storage::LinkDb::TopQueued).
  virtual std::vector<std::pair<double, int64_t>> TopQueued(
      int64_t entries, size_t max_buckets) = 0;
};

// The crawl loop's view of the cluster (implemented by worker/cluster_node.h).
// Called only from the crawl thread.
class ClusterHooks {
 public:
  virtual ~ClusterHooks() = default;
  // URLs of `host` may be fetched now: this worker owns it and the host is
  // not moving between workers.
  virtual bool MayFetch(const std::string& host) = 0;
  // Links to `host` belong in this worker's frontier (else: Route).
  virtual bool Owns(const std::string& host) = 0;
  // A page of the global budget is available (TakePage will succeed).
  virtual bool HasPage() = 0;
  // Takes one page of the global budget for a URL about to be fetched.
  virtual void TakePage() = 0;
  // Gives it back: the URL was not fetched after all (robots.txt, scope).
  virtual void ReturnPage() = 0;
  // A link to a host another worker owns (a QUEUED record), with what this
  // worker's strategy knows of it (focus::Strategy::LinkContext, may be "").
  virtual void Route(proto::LinkRecord record, std::string link_context) = 0;
  // The links Route took since the last call, each as a serialized
  // proto::RoutedLink with the number it is stored under: the crawl
  // commits them with the page that routed them (storage/link_db.h's
  // outbox), so a worker killed before a link reached its owner sends it
  // again after its restart.
  virtual std::vector<std::pair<uint64_t, std::string>> RoutesToPersist() = 0;
  // Numbers of stored links their owners now have: the crawl erases them.
  virtual std::vector<uint64_t> TakeDelivered() = 0;
  // At the start of a run: the links stored and not delivered by an
  // earlier one, to send again.
  virtual void RestoreRoutes(
      std::vector<std::pair<uint64_t, std::string>> stored) = 0;
  // A URL's outcome: `fetched` when a request was made; `on_topic` the
  // page's on-topic decision (focus/page_judge.h; false when it was not
  // parsed); `error` "" when none.
  virtual void PageDone(const proto::LinkRecord& record, bool fetched,
                        bool on_topic, const std::string& error) = 0;
  // Each loop turn: apply what arrived, hand over what moved. `idle`: no
  // transfer or parse under way and nothing that may be fetched now.
  virtual absl::Status Service(ClusterContext& context, bool idle) = 0;
  // The cluster paused the crawl: no new transfers.
  virtual bool Paused() = 0;
  // The crawl is over for this worker (stopped, done, drained): Run()
  // returns with this reason; "" while it goes on.
  virtual std::string Finished() = 0;
};

struct CrawlerOptions {
  // Threads that parse and score pages; 0 = the number of cores.
  int parse_threads = 0;
  // Progress line on `progress` (nullptr: none) at this interval.
  absl::Duration progress_interval = absl::Seconds(2);
  FILE* progress = stderr;
  // Set (e.g. by a SIGINT handler) to stop: no new transfers start, the
  // running ones are abandoned (they stay IN_FLIGHT and are fetched again
  // by the next run), parsed pages are committed, and Run() returns.
  std::atomic<bool>* stop = nullptr;
  // Attempts per URL for 429 and 503 answers before it is recorded as an
  // error.
  int max_attempts = 3;
  // Back-off after 429/503 without a usable Retry-After.
  absl::Duration default_retry_after = absl::Seconds(30);
  // Set when the worker is part of a cluster (not owned; must outlive the
  // crawler). The seeds then come from the coordinator, the global page
  // budget through page tokens, and the crawl ends when Finished() says so
  // rather than when the local frontier is empty; config.budget's
  // max_pages and max_seconds are the coordinator's to enforce.
  ClusterHooks* cluster = nullptr;
  // A file to record what the on-topic decision read of each page in
  // (worker/judge_inputs.h; `worker crawl --judge_inputs`), appended to;
  // "" = none. Needs a topic.
  std::string judge_inputs;
};

struct CrawlSummary {
  int64_t pages_fetched = 0;  // this run: pages (redirect chains count once)
  int64_t pages_fetched_total = 0;  // all runs on this output folder
  int64_t on_topic = 0;  // this run: judged on the topic (page_judge.h)
  // This run: pages that said noindex (worker/robots_directives.h), fetched
  // but not written to pages.jsonl.
  int64_t noindex = 0;
  // This run: fetched URLs recorded as aliases of the canonical URL their
  // page declared (worker/canonical.h).
  int64_t aliases = 0;
  // This run: parsed pages that repeat the main content of a page fetched
  // before (config `duplicates`).
  int64_t duplicates = 0;
  // Times fetching paused because the output folder's file system fell
  // below budget.min_free_disk_mb (this run).
  int64_t disk_full_pauses = 0;
  // Config `search { index: true }`: pages added to the search index this
  // run and the CPU seconds its thread used.
  int64_t search_indexed = 0;
  double search_cpu_seconds = 0;
  // This run's revisits (config `revisit`) that made a request, and what
  // they found: 304, the same body, another body, 404/410, nothing
  // usable (no answer, a redirect, a server error).
  int64_t revisits = 0;
  int64_t revisits_not_modified = 0;
  int64_t revisits_unchanged = 0;
  int64_t revisits_changed = 0;
  int64_t revisits_gone = 0;
  int64_t revisits_failed = 0;
  // Pages a sitemap's <lastmod> made due at once (this run).
  int64_t revisits_from_sitemaps = 0;
  // This run: sitemaps read (worker/sitemap.h); sitemap requests that
  // brought none (HTTP errors, not a sitemap, over the limits); URLs their
  // entries offered the frontier (new or already queued).
  int64_t sitemaps_read = 0;
  int64_t sitemaps_failed = 0;
  int64_t sitemap_urls = 0;
  int64_t errors = 0;  // this run: pages recorded with an error
  // This run: the URLs the crawl set out to fetch by what became of them,
  // and the hosts with an on-topic page (worker/fetch_outcomes.h).
  FetchOutcomeCounts fetch_outcomes;
  int64_t robots_fetched = 0;  // this run
  int64_t queued = 0;          // left in the frontier
  // Times a free connection stayed unused because the best ready URL
  // ranked below Strategy.order_window (this run).
  int64_t held_by_order = 0;
  // URLs the strategy deferred (Admission::defer_score): queued again below
  // what it admits instead of being skipped (this run).
  int64_t deferred = 0;
  // Why URLs were not fetched (this run): URLs recorded without a request
  // by reason ("robots", "strategy", "host unreachable") and the out-links
  // left out as outside the scope ("out-of-scope links") or by a robots
  // nofollow ("nofollow links"). Reasons with none are absent.
  std::map<std::string, int64_t> skipped;
  // Hosts given up as unreachable this run (DNS or connection failures
  // after fetch.unreachable_retries, or a refused address), and hosts
  // parked when the crawl ended (their URLs stay queued for the next run).
  int64_t hosts_unreachable = 0;
  int64_t hosts_parked = 0;
  // DNS lookups sent and failed (fetch.async_dns; 0 without it).
  int64_t dns_lookups = 0;
  int64_t dns_failures = 0;
  double seconds = 0;
  // "budget" (pages, or revisits in a continuous crawl), "frontier
  // empty", "time", "stopped"; for strategies with a
  // fetch threshold or a queue minimum (Hopfield) also "no queued URL above
  // the strategy's threshold" and "mean score of the queue below the
  // strategy's minimum".
  std::string stop_reason;
};

class Crawler {
 public:
  // `config` is the effective config (WithDefaults applied) and must pass
  // ValidateCrawlConfig. Creates the output folder, opens the database, the
  // logs and the WARC writer, and queues the seeds that are not known yet.
  // Errors: InvalidArgument for a config the crawler cannot run (options a
  // strategy refuses), errors loading the interest model or the URL
  // dictionary, and those of LinkDb::Open, CrawlLog::Open, WarcWriter::Open
  // and Fetcher::Create.
  static absl::StatusOr<std::unique_ptr<Crawler>> Create(
      const proto::CrawlConfig& config, const CrawlerOptions& options = {});

  ~Crawler();
  Crawler(const Crawler&) = delete;
  Crawler& operator=(const Crawler&) = delete;

  // Crawls until the budget is spent, the frontier is empty, the time is up
  // or a stop is requested. Errors only for failures that make going on
  // pointless (the database or an output file cannot be written); a page's
  // problems are recorded in its link record and the fetch log.
  absl::StatusOr<CrawlSummary> Run();

 private:
  class Impl;
  explicit Crawler(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace fcrawl::worker

#endif  // FCRAWL_WORKER_CRAWLER_H_
