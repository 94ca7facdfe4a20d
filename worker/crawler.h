// The worker's crawl loop on one machine (docs/design.md "Crawl strategies",
// "State", "Inputs are hostile").
//
// One thread drives everything that touches the network and the database:
// it picks the best-scored URL of a host that may be fetched now (the
// frontier in storage/link_db.h), checks robots.txt, starts the transfer
// (protocol/fetcher.h), follows redirects hop by hop (each hop checked against
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
// allows everything, 5xx disallows the host for a while (its URLs stay
// queued; such a host does not keep the crawl alive; host_scheduler.h's
// kRobotsRetryDelay); a host that
// does not resolve or cannot be connected to is parked the same way and
// tried again fetch.unreachable_retries times with a doubling wait, then
// its URLs are recorded as errors; a name DNS says does not exist at once.
//
// DNS (fetch.async_dns): host names are resolved by protocol/resolver.h
// outside the transfer slots, and curl is given the address; a task whose
// host is being looked up waits without holding a slot. A lookup that
// fails ends the task with an error "could not resolve host ...": NotFound
// when the name does not exist or has no address, else Unavailable (as
// curl's own DNS errors).
//
// Outputs in config.output_dir: db/ (the link state), fetch_log.jsonl and
// pages.jsonl (formats/crawl_log.h), warc/*.warc.gz (protocol/warc.h), and
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
#include "worker/cluster_hooks.h"
#include "worker/fetch_outcomes.h"

namespace fcrawl::worker {

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
  // This run: pages that said noindex (protocol/robots_directives.h), fetched
  // but not written to pages.jsonl.
  int64_t noindex = 0;
  // This run: fetched URLs recorded as aliases of the canonical URL their
  // page declared (protocol/canonical.h).
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
  // This run: sitemaps read (protocol/sitemap.h); sitemap requests that
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
