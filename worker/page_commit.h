// The apply half of the page pipeline (docs/design.md "One page, from fetch
// to ranker", steps 9 and 10): a page's outcome, parsed or not, becomes its
// log lines (fetch_log.jsonl, pages.jsonl) and then one database batch —
// its link record (DONE, ERROR or SKIPPED), the later URLs of its redirect
// chain, its stored page, its out-links merged into the frontier, its
// host's record and the crawl-wide counters. Logs first: a crash between
// the two logs a page twice (it is fetched again), never loses it.
//
// One pass: the records the batch is built from (redirect hops and
// out-links) are read with one GetMany, and the batch is one Commit; after
// it, each host whose queue head changed is ranked again once.
//
// Owns: the fetch and page logs (formats/crawl_log.h), this run's page
// figures, and the strategy's persisted state (its sequence and learned
// model, crawl-wide values in the database). Borrows the database, the
// frontier, the scheduler, the strategy and the cluster hooks (nullptr on
// its own), which must outlive it.
//
// Thread-safety: the crawl thread only.
//
// Errors: a failed WARC write reported by the parse pool, and those of the
// logs and the database; they stop the crawl. A page's own problems are
// recorded on its link record, not returned.
#ifndef FCRAWL_WORKER_PAGE_COMMIT_H_
#define FCRAWL_WORKER_PAGE_COMMIT_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "corpus/indexer.h"
#include "focus/strategy.h"
#include "formats/crawl_log.h"
#include "proto/link_state.pb.h"
#include "protocol/fetcher.h"
#include "storage/link_db.h"
#include "worker/cluster_hooks.h"
#include "worker/crawl_task.h"
#include "worker/fetch_outcomes.h"
#include "worker/frontier.h"
#include "worker/host_scheduler.h"
#include "worker/revisit.h"
#include "worker/revisit_queue.h"

namespace fcrawl::worker {

// The database's global key of the strategy's learned model
// (Strategy::SaveModel), saved every kModelSaveEvery pages and at the end
// of a run; `worker list-outcomes` reads it.
inline constexpr absl::string_view kGlobalStrategyModel = "strategy_model";
// Pages between two saves of the model.
inline constexpr int64_t kModelSaveEvery = 200;

// From the config (worker/crawl_setup.h's CommitOptionsOf).
struct CommitOptions {
  bool revisits;  // revisit.continuous: parsed pages come due again
  RevisitPolicy revisit_policy;
  double min_resemblance;  // duplicates.min_resemblance
  bool expand_duplicates;  // duplicates.expand
};

class PageCommitter {
 public:
  // `cluster`: the crawl's cluster member (CrawlerOptions::cluster), nullptr
  // for a crawl on its own.
  PageCommitter(const CommitOptions& options, ClusterHooks* cluster,
                storage::LinkDb* db, Frontier* frontier,
                HostScheduler* scheduler, RevisitQueue* revisits,
                focus::Strategy* strategy,
                std::unique_ptr<formats::CrawlLog> log,
                corpus::BackgroundIndexer* indexer = nullptr);

  // Restores the strategy's sequence and learned model from the database
  // (a model that does not load is reported on stderr and learned afresh).
  absl::Status RestoreStrategy();
  // Saves the strategy's learned model (end of a run).
  absl::Status SaveModel();

  // Applies a page's outcome (see the file comment); a sitemap's
  // (Task::Kind::kSitemap) is its fetch-log line, its URLs merged into the
  // frontier and the sitemaps its index names queued with its host; a
  // revisit's (Task::revisit) is ApplyRevisit's.
  absl::Status Apply(ParseOutcome o);
  // A revisit's outcome without parsing (`result` is not kChanged):
  // `problems`; `fetched` when a request was made.
  absl::Status FinishRevisit(Task task, protocol::FetchResult r,
                             RevisitResult result,
                             std::vector<std::string> problems,
                             bool fetched = true);
  // A URL's outcome without parsing: `status` with `problems`; `fetched`
  // when a request was made for it; `decided` what it counts as when no
  // answer says (ParseOutcome::decided).
  absl::Status FinishWithoutParse(
      Task task, protocol::FetchResult r, proto::LinkRecord::Status status,
      std::vector<std::string> problems, bool fetched = true,
      std::optional<FetchOutcome> decided = std::nullopt);
  // One fetch_log.jsonl line for `task`'s request that got `r`; the
  // page's relevance and on-topic decision from `parsed` when it is not
  // null; `change` what a revisit found.
  absl::Status LogFetch(const Task& task, const protocol::FetchResult& r,
                        int64_t body_bytes, const ParseOutcome* parsed,
                        const std::string& error,
                        const std::string& change = "");
  // The links routed to other workers since the last call go into `batch`
  // (ClusterHooks::RoutesToPersist; none on its own).
  void PersistRoutes(storage::LinkBatch* batch);
  // fsyncs the logs.
  absl::Status Sync() { return log_->Sync(); }

  // This run: pages fetched (redirect chains count once), on topic, with
  // an error.
  int64_t pages_fetched() const { return pages_fetched_; }
  int64_t on_topic() const { return on_topic_; }
  int64_t noindex() const { return noindex_; }
  // Fetched URLs recorded as aliases of the canonical URL their page
  // declared (protocol/canonical.h).
  int64_t aliases() const { return aliases_; }
  // Sitemaps read and not read (not a sitemap, over the limits), and the
  // URLs they offered the frontier.
  int64_t sitemaps_read() const { return sitemaps_read_; }
  int64_t sitemaps_unread() const { return sitemaps_unread_; }
  int64_t sitemap_urls() const { return sitemap_urls_; }
  // Pages fetched before that a sitemap's <lastmod> made due at once (a
  // continuous crawl).
  int64_t sitemap_revisits() const { return sitemap_revisits_; }
  int64_t errors() const { return errors_; }
  // This run's URLs by what became of them (worker/fetch_outcomes.h); the
  // reference stays valid, and current, for the committer's life.
  const FetchOutcomeCounts& fetch_outcomes() const {
    return outcomes_.counts();
  }

  // Parsed pages found to repeat the main content of a page fetched before
  // (CommitOptions::min_resemblance).
  int64_t duplicates() const { return duplicates_; }

  // Revisits that made a request (this run), and what they found.
  struct RevisitCounts {
    int64_t made = 0;
    int64_t not_modified = 0;
    int64_t unchanged = 0;
    int64_t changed = 0;
    int64_t gone = 0;
    int64_t failed = 0;
  };
  const RevisitCounts& revisits() const { return revisits_; }

 private:
  // What a page's declared canonical URL makes of it: nothing (none, or
  // one not to trust now), the canonical adopts the page (it was unknown
  // or queued), or the page is an alias of the canonical fetched before
  // (when its main content is in the crawl already: Apply).
  enum class CanonicalStep { kNone, kAdopt, kAliasOf };
  static CanonicalStep Decide(const std::optional<proto::LinkRecord>& known);
  // Apply, step by step (each reads what the ones before found; the
  // batch is committed once, after the logs):
  struct PageCommit;
  // The URL's record as the page ends it (status, answer, metadata).
  static proto::LinkRecord DoneRecord(const ParseOutcome& o,
                                      const std::string& error);
  // The near-duplicate check: a copy's original, whether the page's main
  // content is in the crawl already; whether only a copy's new links are
  // queued.
  absl::Status CheckDuplicate(PageCommit* c);
  // The one read: the redirect chain's later URLs, the out-links the
  // frontier cannot settle from memory, the canonical URL.
  absl::Status ReadKnown(PageCommit* c);
  // A copy's links, once read: those the crawl has a record of are the
  // original's, and dropped; the ones only the copy carries stay.
  void KeepNewLinks(PageCommit* c);
  // What the declared canonical URL makes of the page (CanonicalStep).
  void DecideCanonical(PageCommit* c);
  // The page's records into the batch: its own, its redirect chain's, the
  // canonical URL adopting it, its stored page, its near-duplicate
  // signature (and revisit schedules).
  void PutRecords(PageCommit* c, storage::LinkBatch* batch);
  // The page counted: its host's record, this run's figures, its fetch
  // outcome, the cluster's totals.
  void CountPage(const PageCommit& c, storage::LinkBatch* batch);
  // The strategy's sequence, and its model every kModelSaveEvery pages.
  void PutStrategyState(bool fetched, storage::LinkBatch* batch);
  // The fetch-log line and the corpus record (pages.jsonl, the index).
  absl::Status WriteLogs(PageCommit* c);
  absl::Status ApplySitemap(ParseOutcome o);
  // The page's corpus record: a pages.jsonl line, then the search index.
  absl::Status AppendPage(proto::CorpusRecord record);
  absl::Status ApplyRevisit(ParseOutcome o);

  const CommitOptions options_;
  storage::LinkDb& db_;
  Frontier& frontier_;
  HostScheduler& scheduler_;
  RevisitQueue& revisit_queue_;
  focus::Strategy& strategy_;
  ClusterHooks* const cluster_;
  const std::unique_ptr<formats::CrawlLog> log_;
  corpus::BackgroundIndexer* const indexer_;  // null: no index

  int64_t pages_fetched_ = 0;
  int64_t on_topic_ = 0;
  int64_t noindex_ = 0;
  int64_t aliases_ = 0;
  int64_t duplicates_ = 0;
  int64_t sitemaps_read_ = 0;
  int64_t sitemaps_unread_ = 0;
  int64_t sitemap_urls_ = 0;
  int64_t sitemap_revisits_ = 0;
  int64_t errors_ = 0;
  FetchOutcomeCounter outcomes_;
  RevisitCounts revisits_;
};

}  // namespace fcrawl::worker

#endif  // FCRAWL_WORKER_PAGE_COMMIT_H_
