// Internal to worker/: the crawl loop's state (Crawler::Impl), shared by
// crawler.cc (setup, the loop, DNS, the summary) and crawl_responses.cc
// (what a response means: robots.txt, sitemap, page, revisit). Not a
// public header; see crawler.h for the contract.
#ifndef FCRAWL_WORKER_CRAWLER_IMPL_H_
#define FCRAWL_WORKER_CRAWLER_IMPL_H_

#include <algorithm>
#include <cerrno>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "core/disk_reserve.h"
#include "core/file.h"
#include "core/text.h"
#include "core/url.h"
#include "focus/interest.h"
#include "focus/site_templates.h"
#include "focus/strategy.h"
#include "focus/topic.h"
#include "formats/crawl_config.h"
#include "formats/crawl_log.h"
#include "proto/link_state.pb.h"
#include "protocol/fetcher.h"
#include "protocol/resolver.h"
#include "protocol/warc.h"
#include "quark/quark.h"
#include "storage/link_db.h"
#include "worker/crawl_setup.h"
#include "worker/crawl_task.h"
#include "worker/crawler.h"
#include "worker/frontier.h"
#include "worker/hand_over.h"
#include "worker/host_scheduler.h"
#include "worker/page_commit.h"
#include "worker/parse_pool.h"
#include "worker/revisit.h"
#include "worker/revisit_queue.h"
#include "worker/url_scope.h"

namespace fcrawl::worker {

// The worker's database as the strategies' per-site store.
class LinkDbSiteStore : public focus::SiteStore {
 public:
  explicit LinkDbSiteStore(storage::LinkDb* db) : db_(db) {}
  absl::StatusOr<std::optional<std::string>> Load(
      absl::string_view host) override {
    return db_->GetSiteState(host);
  }
  absl::Status Save(absl::string_view host, absl::string_view bytes) override {
    return db_->PutSiteState(host, bytes);
  }

 private:
  storage::LinkDb* db_;
};

class Crawler::Impl : public TransferSink {
 public:
  Impl(proto::CrawlConfig config, CrawlerOptions options)
      : config_(std::move(config)),
        options_(options),
        cluster_(options.cluster),
        scope_(UrlScopeOf(config_.scope())),
        parse_options_(ParseOptionsOf(config_)) {}

  absl::Status Init();
  absl::StatusOr<CrawlSummary> Run();

  // --- TransferSink (the scheduler's hands)
  size_t transfers() const override { return fetcher_->in_flight(); }
  int64_t parsing() const override { return parse_pool_->outstanding(); }
  void Start(Task task) override {
    const uint64_t id = next_id_++;
    const std::string url = task.url;
    running_.emplace(id, std::move(task));
    StartFetch(id, url);
  }
  absl::Status RecordWithoutRequest(Task task, proto::LinkRecord::Status status,
                                    std::string problem, bool fetched,
                                    std::optional<FetchOutcome> outcome,
                                    absl::Time now) override {
    protocol::FetchResult none;
    none.url = task.url;
    none.started = now;
    if (task.revisit) {
      // Robots.txt disallows the page now (it is not revisited again), or
      // its host is unreachable (tried again later).
      const RevisitResult result = status == proto::LinkRecord::SKIPPED
                                       ? RevisitResult::kDisallowed
                                       : RevisitResult::kFailed;
      return committer_->FinishRevisit(std::move(task), std::move(none), result,
                                       {std::move(problem)}, fetched);
    }
    return committer_->FinishWithoutParse(std::move(task), std::move(none),
                                          status, {std::move(problem)}, fetched,
                                          outcome);
  }

 private:
  // Nothing under way and nothing that may be fetched now.
  bool Idle();
  absl::Status HandleResult(protocol::FetchResult r, absl::Time now);
  // The request of running_[id]: at once when its host needs no lookup or
  // the resolver has its answer, else once the lookup ends (ServiceDns).
  void StartFetch(uint64_t id, const std::string& url);
  void StartResolved(uint64_t id, const std::string& url,
                     const protocol::Resolution& resolution);
  // Hands finished lookups' tasks to the fetcher, and DNS failures to
  // HandleResult.
  absl::Status ServiceDns(absl::Time now);
  absl::Status HandleRobots(Task task, protocol::FetchResult r, absl::Time now);
  absl::Status HandleSitemap(Task task, protocol::FetchResult r,
                             absl::Time now);
  absl::Status HandlePage(Task task, protocol::FetchResult r, absl::Time now);
  // A revisit's answer (Task::revisit), 429/503 retries aside.
  absl::Status HandleRevisit(Task task, protocol::FetchResult r);
  // The validators a task's request carries (a revisit's, when
  // revisit.conditional_get).
  protocol::Validators ValidatorsOf(uint64_t id) const;
  absl::Status DrainOutcomes();
  // A cluster worker's outbox in the database: links routed outside a
  // page's commit are stored, delivered ones erased.
  absl::Status SyncOutbox();
  void Progress(absl::Time now, bool final);

  proto::CrawlConfig config_;
  CrawlerOptions options_;
  ClusterHooks* const cluster_;  // nullptr: a crawl on its own
  const UrlScope scope_;
  quark::PageOptions page_options_;
  const ParseOptions parse_options_;
  // Blocks each host repeats on most of its pages (null when the config's
  // segmentation.site_templates is off). Thread-safe; used by the parse
  // threads. Learned again after a restart.
  std::unique_ptr<focus::SiteTemplates> templates_;

  // Disk space held back in the output folder for a disk that another
  // process fills faster than the floor is read (core/disk_reserve.h):
  // RocksDB, the logs and the WARC writer release it when a write would
  // not fit, and the crawl then pauses at once. Null without a floor
  // (budget.min_free_disk_mb 0). Before the writers that hold its hook, so
  // that it outlives them.
  std::unique_ptr<DiskReserve> reserve_;
  // Whether reserve_ was held when last looked at: held then and released
  // now means a writer found the disk full.
  bool reserve_held_ = false;
  // Why the reserve could not be taken back, other than space ("" none):
  // said once on stderr.
  std::string reserve_error_;

  std::unique_ptr<storage::LinkDb> db_;
  std::unique_ptr<protocol::Fetcher> fetcher_;
  std::unique_ptr<protocol::WarcWriter> warc_;
  // Before parse_pool_, whose threads write to it: destroyed after them.
  std::unique_ptr<JudgeInputLog> judge_inputs_;
  std::shared_ptr<text::DocumentFrequencies> df_;
  std::optional<focus::Topic> topic_;
  std::shared_ptr<focus::PageJudge> judge_;
  std::unique_ptr<focus::Strategy> strategy_;
  std::unique_ptr<LinkDbSiteStore> site_store_;

  // The rooms, in the order they are built (each uses the ones before).
  std::unique_ptr<Frontier> frontier_;
  std::unique_ptr<HostScheduler> scheduler_;
  std::unique_ptr<RevisitQueue> revisits_;
  // Indexes the pages while crawling (config `search`); null when off.
  // Outlives the committer, which hands it the pages.
  std::unique_ptr<corpus::BackgroundIndexer> indexer_;
  std::unique_ptr<PageCommitter> committer_;
  std::unique_ptr<HandOver> hand_over_;

  // Every task started and not yet handled: in the fetcher, waiting for a
  // DNS answer, or failed DNS waiting for HandleResult.
  absl::flat_hash_map<uint64_t, Task> running_;
  // fetch.async_dns: the resolver (null without it), the tasks waiting for
  // each host's lookup, the results of tasks whose host did not resolve,
  // and the hosts (and host:port) that `resolve` overrides.
  std::unique_ptr<protocol::Resolver> resolver_;
  absl::flat_hash_map<std::string, std::vector<uint64_t>> resolving_;
  std::vector<protocol::FetchResult> dns_failed_;
  absl::flat_hash_set<std::string> overridden_;
  uint64_t next_id_ = 1;
  absl::Time start_;
  absl::Time last_progress_ = absl::InfinitePast();
  int64_t last_progress_pages_ = 0;
  // Sitemap requests that brought no sitemap (errors, HTTP status).
  int64_t sitemaps_failed_ = 0;
  // budget.min_free_disk_mb: when free space was last read, and what the
  // crawl says while it is below the floor ("" when above).
  absl::Time disk_checked_ = absl::InfinitePast();
  std::string disk_full_;
  int64_t disk_full_pauses_ = 0;
  // Whether the output folder's file system is below the floor (read at
  // most once a second, and at once when a writer released the reserve; a
  // change is said on stderr). Fetching resumes when the free space holds
  // the floor and the reserve again, which is then taken back.
  bool DiskFull(absl::Time now);
  // NoSpaceHook for the writers: reserve_'s.
  NoSpaceHook ReserveHook();

  // Out-links the parse pool left out as outside the scope (this run).

  // Last, so it is destroyed first: its threads use the members above.
  std::unique_ptr<ParsePool> parse_pool_;
};

}  // namespace fcrawl::worker

#endif  // FCRAWL_WORKER_CRAWLER_IMPL_H_
