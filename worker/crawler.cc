// The crawl loop: the rooms of worker/ put together (worker/README.md).
// Crawler::Impl owns the database, the fetcher, the WARC writer, the topic
// and strategy, and the rooms built on them — the frontier
// (worker/frontier.h), the host scheduler (worker/host_scheduler.h), the
// parse pool (worker/parse_pool.h), the page committer
// (worker/page_commit.h) and the cluster hand-over (worker/hand_over.h) —
// and drives them from one thread: it runs the transfers the scheduler
// starts; what a response means (robots.txt, redirect hop, 429/503 retry,
// a page to parse, an outcome without parsing, a revisit) is
// crawl_responses.cc. The Impl class is in worker/crawler_impl.h.
#include "worker/crawler.h"

#include <sys/stat.h>
#include <unistd.h>

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
#include "worker/crawler_impl.h"
#include "worker/frontier.h"
#include "worker/hand_over.h"
#include "worker/host_scheduler.h"
#include "worker/page_commit.h"
#include "worker/parse_pool.h"
#include "worker/revisit.h"
#include "worker/revisit_queue.h"
#include "worker/url_scope.h"

namespace fcrawl::worker {

using ::fcrawl::focus::InterestModel;
using ::fcrawl::focus::SiteStore;
using ::fcrawl::focus::Strategy;
using ::fcrawl::focus::Topic;
using ::fcrawl::formats::CrawlConfigToText;
using ::fcrawl::formats::CrawlLog;
using ::fcrawl::proto::LinkRecord;

namespace {

// Open files a worker needs besides its transfers' sockets (RocksDB's
// table files and log, the WARC and CDXJ, the JSON-lines logs, the search
// index, DNS and gRPC sockets), with room to spare.
constexpr int64_t kOtherOpenFiles = 512;

// The disk reserve (Crawler::Impl::reserve_): a file in the output folder of
// a quarter of the free-space floor, at least 1 MiB and at most 64 MiB (a
// RocksDB memtable's flush, what the crawl may still write after it
// pauses); 64 MiB under the default floor of 256.
constexpr absl::string_view kDiskReserveName = "disk.reserve";
int64_t DiskReserveBytes(int64_t floor_mb) {
  return std::clamp<int64_t>(floor_mb / 4, 1, 64) << 20;
}

absl::Status MakeDirs(const std::string& path) {
  std::string partial;
  for (absl::string_view part : absl::StrSplit(path, '/')) {
    if (!partial.empty() || path[0] == '/') partial.push_back('/');
    if (part.empty()) continue;
    partial.append(part.data(), part.size());
    if (mkdir(partial.c_str(), 0755) != 0 && errno != EEXIST) {
      return file::ErrnoStatus("cannot create folder", partial);
    }
  }
  struct stat st;
  if (stat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    return absl::FailedPreconditionError(
        absl::StrCat(path, " exists and is not a folder"));
  }
  return absl::OkStatus();
}

}  // namespace

// ---------------------------------------------------------------- setup

NoSpaceHook Crawler::Impl::ReserveHook() {
  return reserve_ != nullptr ? reserve_->Hook() : NoSpaceHook();
}

absl::Status Crawler::Impl::Init() {
  // Page analysis options from the config's segmentation section.
  const proto::Segmentation& seg = config_.segmentation();
  page_options_.recognizer.min_block_text = seg.min_block_text();
  page_options_.recognizer.min_layout_ratio = seg.min_layout_ratio();
  page_options_.recognizer.custom_tags.assign(seg.custom_tags().begin(),
                                              seg.custom_tags().end());
  page_options_.analyzer.sim_threshold = seg.sim_threshold();
  if (seg.site_templates()) {
    focus::SiteTemplateOptions to;
    to.min_share = seg.template_share();
    to.min_pages = seg.template_min_pages();
    absl::StatusOr<std::unique_ptr<focus::SiteTemplates>> t =
        focus::SiteTemplates::Create(to);
    if (!t.ok()) return t.status();
    templates_ = *std::move(t);
  }

  std::shared_ptr<const InterestModel> built_interest_model;
  std::shared_ptr<const focus::PageClassifier> built_page_model;
  // The strategy and topic first: a config the crawler cannot run leaves no
  // output folder behind.
  {
    absl::StatusOr<CrawlModels> models = BuildCrawlModels(config_);
    if (!models.ok()) return models.status();
    df_ = std::move(models->df);
    topic_ = std::move(models->topic);
    strategy_ = std::move(models->strategy);
    built_interest_model = std::move(models->built_interest_model);
    judge_ = std::move(models->judge);
    built_page_model = std::move(models->built_page_model);
  }

  const std::string out = config_.output_dir();
  if (absl::Status s = MakeDirs(out); !s.ok()) return s;
  if (const int64_t floor_mb = config_.budget().min_free_disk_mb();
      floor_mb > 0) {
    // Taken at the first reading of the free space (DiskFull), when the
    // floor and the reserve are free. A killed run's reserve goes first:
    // its space is the file system's again.
    const std::string path = absl::StrCat(out, "/", kDiskReserveName);
    if (::unlink(path.c_str()) != 0 && errno != ENOENT) {
      return file::ErrnoStatus("cannot remove the old disk reserve", path);
    }
    reserve_ = DiskReserve::Released(path, DiskReserveBytes(floor_mb));
  }
  if (absl::Status s = MakeDirs(out + "/warc"); !s.ok()) return s;
  // Replaced atomically: the record of what this crawl ran with must not
  // be left half written by a kill or a full disk.
  if (absl::Status s = file::WriteFileAtomically(out + "/config.textproto",
                                                 CrawlConfigToText(config_));
      !s.ok()) {
    return s;
  }

  if (built_interest_model != nullptr) {
    if (absl::Status s = built_interest_model->Save(out + "/interest_model.pb");
        !s.ok()) {
      return s;
    }
  }
  if (built_page_model != nullptr) {
    if (absl::Status s = built_page_model->Save(out + "/page_model.pb");
        !s.ok()) {
      return s;
    }
  }

  storage::LinkDbOptions dbo;
  dbo.no_space = ReserveHook();
  absl::StatusOr<std::unique_ptr<storage::LinkDb>> db =
      storage::LinkDb::Open(out + "/db", dbo);
  if (!db.ok()) return db.status();
  db_ = *std::move(db);
  site_store_ = std::make_unique<LinkDbSiteStore>(db_.get());
  if (cluster_ != nullptr) {
    // Links an earlier run routed and did not see delivered go out again.
    absl::StatusOr<std::vector<std::pair<uint64_t, std::string>>> stored =
        db_->Outbox(std::numeric_limits<size_t>::max());
    if (!stored.ok()) return stored.status();
    cluster_->RestoreRoutes(*std::move(stored));
  }
  if (absl::Status s = strategy_->AttachSiteStore(site_store_.get()); !s.ok()) {
    return s;
  }
  frontier_ = std::make_unique<Frontier>(
      FrontierOptionsOf(config_), &scope_, db_.get(), strategy_.get(), cluster_,
      [this](const std::string& host, absl::string_view scheme) {
        scheduler_->Touch(host, scheme);
      });
  scheduler_ = std::make_unique<HostScheduler>(SchedulerOptionsOf(config_),
                                               db_.get(), frontier_.get(),
                                               strategy_.get(), cluster_, this);
  if (absl::Status s = frontier_->Init(); !s.ok()) return s;
  revisits_ = std::make_unique<RevisitQueue>(RevisitQueueOptionsOf(config_),
                                             db_.get(), scheduler_.get());
  if (absl::Status s = revisits_->IndexEarlierPages(absl::Now()); !s.ok()) {
    return s;
  }

  protocol::FetcherOptions fo;
  const proto::Fetch& f = config_.fetch();
  {
    // One socket per transfer, plus RocksDB's files, the WARC, the logs
    // and the search index: a shell's soft limit of 1,024 open files would
    // fail transfers ("Couldn't connect") long before max_in_flight.
    const int64_t wanted = int64_t{f.max_in_flight()} + kOtherOpenFiles;
    absl::StatusOr<int64_t> limit = file::RaiseOpenFileLimit(wanted);
    if (!limit.ok() || *limit < wanted) {
      std::fprintf(stderr,
                   "worker: fetch.max_in_flight %d needs about %lld open "
                   "files; the limit is %s (ulimit -n): transfers beyond it "
                   "fail\n",
                   f.max_in_flight(), static_cast<long long>(wanted),
                   limit.ok() ? absl::StrCat(*limit).c_str()
                              : std::string(limit.status().message()).c_str());
    }
  }
  fo.connect_timeout = absl::Milliseconds(f.connect_timeout_ms());
  fo.total_timeout = absl::Milliseconds(f.total_timeout_ms());
  fo.low_speed_bytes_per_s = f.low_speed_bytes_per_s();
  fo.low_speed_time = absl::Seconds(f.low_speed_seconds());
  fo.max_body_bytes = f.max_body_bytes();
  fo.user_agent = config_.politeness().user_agent();
  fo.from = config_.politeness().from();
  fo.accept_language = config_.politeness().accept_language();
  fo.allow_private_addresses = config_.allow_private_addresses();
  fo.max_in_flight = f.max_in_flight();
  fo.http2 = f.http2();
  fo.proxy = f.proxy();
  fo.ca_file = f.ca_file();
  for (const proto::Resolve& r : config_.resolve()) {
    fo.resolve.push_back({r.host_port(), r.address()});
  }
  absl::StatusOr<std::unique_ptr<protocol::Fetcher>> fetcher =
      protocol::Fetcher::Create(fo);
  if (!fetcher.ok()) return fetcher.status();
  fetcher_ = *std::move(fetcher);
  // Behind a proxy the proxy resolves names.
  if (f.async_dns() && f.proxy().empty()) {
    protocol::ResolverOptions ro;
    ro.timeout = absl::Milliseconds(f.dns_timeout_ms());
    ro.max_lookups = f.max_dns_lookups();
    ro.servers.assign(f.dns_servers().begin(), f.dns_servers().end());
    // A parked host's retry must ask DNS again, not the negative cache.
    ro.negative_ttl =
        std::min(ro.negative_ttl, absl::Milliseconds(f.unreachable_retry_ms()));
    absl::StatusOr<std::unique_ptr<protocol::Resolver>> resolver =
        protocol::Resolver::Create(ro);
    if (!resolver.ok()) return resolver.status();
    resolver_ = *std::move(resolver);
    for (const proto::Resolve& r : config_.resolve()) {
      overridden_.insert(absl::AsciiStrToLower(r.host_port()));
    }
  }

  absl::StatusOr<std::unique_ptr<CrawlLog>> log =
      CrawlLog::Open(out, ReserveHook());
  if (!log.ok()) return log.status();
  if (config_.search().index()) {
    // Without the main text's word positions: they cost a third of the
    // index's CPU (corpus/search.h); `worker index` afterwards has them.
    corpus::IndexOptions io;
    io.main_text_positions = false;
    absl::StatusOr<std::unique_ptr<corpus::BackgroundIndexer>> indexer =
        corpus::BackgroundIndexer::Start(absl::StrCat(out, "/search"), io);
    if (!indexer.ok()) return indexer.status();
    indexer_ = *std::move(indexer);
  }
  committer_ = std::make_unique<PageCommitter>(
      CommitOptionsOf(config_), options_.cluster, db_.get(), frontier_.get(),
      scheduler_.get(), revisits_.get(), strategy_.get(), *std::move(log),
      indexer_.get());
  if (absl::Status s = committer_->RestoreStrategy(); !s.ok()) return s;
  protocol::WarcOptions wo;
  wo.no_space = ReserveHook();
  wo.software = absl::StrCat("fcrawl worker (", fo.user_agent, ")");
  if (config_.warc().compression() == "zstd") {
    wo.compression = protocol::WarcOptions::Compression::kZstd;
  }
  absl::StatusOr<std::unique_ptr<protocol::WarcWriter>> warc =
      protocol::WarcWriter::Open(
          out + "/warc",
          absl::StrCat("crawl-",
                       absl::FormatTime("%Y%m%d%H%M%S", absl::Now(),
                                        absl::UTCTimeZone()),
                       "-", getpid()),
          wo);
  if (!warc.ok()) return warc.status();
  warc_ = *std::move(warc);

  // In a cluster the coordinator routes the seeds to their owners.
  if (cluster_ == nullptr) {
    if (absl::Status s = frontier_->QueueSeeds(); !s.ok()) return s;
  }
  if (absl::Status s = scheduler_->Init(absl::Now()); !s.ok()) return s;
  hand_over_ = std::make_unique<HandOver>(
      db_.get(), frontier_.get(), scheduler_.get(), strategy_.get(),
      &committer_->fetch_outcomes(),
      [this] { return static_cast<int64_t>(running_.size()); }, &disk_full_);

  int threads = options_.parse_threads;
  if (threads <= 0) {
    threads = std::max(1u, std::thread::hardware_concurrency());
  }
  ParseContext context;
  context.options = &parse_options_;
  context.scope = &scope_;
  context.page_options = &page_options_;
  context.topic = &topic_;
  context.df = df_.get();
  context.strategy = strategy_.get();
  context.judge = judge_.get();
  context.templates = templates_.get();
  context.warc = warc_.get();
  if (!options_.judge_inputs.empty()) {
    if (judge_ == nullptr) {
      return absl::InvalidArgumentError(
          "--judge_inputs needs a topic: without one no page is judged");
    }
    absl::StatusOr<std::unique_ptr<JudgeInputLog>> inputs =
        JudgeInputLog::Open(options_.judge_inputs);
    if (!inputs.ok()) return inputs.status();
    judge_inputs_ = *std::move(inputs);
    context.judge_inputs = judge_inputs_.get();
  }
  parse_pool_ = std::make_unique<ParsePool>(context, threads);
  return absl::OkStatus();
}

// ------------------------------------------------------------------- DNS

void Crawler::Impl::StartFetch(uint64_t id, const std::string& url) {
  if (resolver_ != nullptr) {
    absl::StatusOr<url::Url> u = url::Parse(url);
    if (u.ok()) {
      const std::string host(u->host());
      const int port = u->port() > 0            ? u->port()
                       : u->scheme() == "https" ? 443
                                                : 80;
      if (!overridden_.contains(host) &&
          !overridden_.contains(absl::StrCat(host, ":", port))) {
        std::optional<protocol::Resolution> r =
            resolver_->Lookup(host, absl::Now());
        if (!r.has_value()) {
          resolving_[host].push_back(id);
          return;
        }
        StartResolved(id, url, *r);
        return;
      }
    }
  }
  fetcher_->Start(id, url, "", ValidatorsOf(id));
}

protocol::Validators Crawler::Impl::ValidatorsOf(uint64_t id) const {
  auto it = running_.find(id);
  if (it == running_.end() || !it->second.revisit ||
      !config_.revisit().conditional_get()) {
    return {};
  }
  return {it->second.record.etag(), it->second.record.last_modified()};
}

void Crawler::Impl::StartResolved(uint64_t id, const std::string& url,
                                  const protocol::Resolution& resolution) {
  if (resolution.status.ok() && !resolution.addresses.empty()) {
    fetcher_->Start(id, url, resolution.addresses.front(), ValidatorsOf(id));
    return;
  }
  // As the fetcher reports curl's own DNS failures (Unavailable), but a
  // definite "no such name" (or no address) stays NotFound: the scheduler
  // gives such a host up at once instead of trying it again later.
  protocol::FetchResult r;
  r.id = id;
  r.url = url;
  r.started = absl::Now();
  r.error = absl::IsNotFound(resolution.status)
                ? resolution.status
                : absl::UnavailableError(resolution.status.message());
  dns_failed_.push_back(std::move(r));
}

absl::Status Crawler::Impl::ServiceDns(absl::Time now) {
  if (resolver_ != nullptr && resolver_->pending() > 0) {
    for (const std::string& host : resolver_->Poll(absl::ZeroDuration())) {
      auto it = resolving_.find(host);
      if (it == resolving_.end()) continue;
      std::vector<uint64_t> ids = std::move(it->second);
      resolving_.erase(it);
      for (uint64_t id : ids) {
        auto task = running_.find(id);
        if (task == running_.end()) continue;
        StartFetch(id, task->second.url);
      }
    }
  }
  std::vector<protocol::FetchResult> failed;
  failed.swap(dns_failed_);
  for (protocol::FetchResult& r : failed) {
    if (absl::Status s = HandleResult(std::move(r), now); !s.ok()) return s;
  }
  return absl::OkStatus();
}

// ------------------------------------------------------------ parse pool

void Crawler::Impl::Progress(absl::Time now, bool final) {
  if (options_.progress == nullptr) return;
  if (!final && now - last_progress_ < options_.progress_interval) return;
  const int64_t pages_fetched = committer_->pages_fetched();
  const double dt = last_progress_ == absl::InfinitePast()
                        ? absl::ToDoubleSeconds(now - start_)
                        : absl::ToDoubleSeconds(now - last_progress_);
  const double rate = dt > 0 ? (pages_fetched - last_progress_pages_) / dt : 0;
  last_progress_ = now;
  last_progress_pages_ = pages_fetched;
  const storage::LinkDbStats st = db_->stats();
  const double on_topic =
      pages_fetched > 0 ? 100.0 * committer_->on_topic() / pages_fetched : 0;
  absl::FPrintF(options_.progress,
                "%s%lld pages fetched (%lld in all runs), %.1f pages/s, "
                "on-topic %.1f%%, queue %lld, in flight %zu, errors %lld%s%s\n",
                final ? "done: " : "", static_cast<long long>(pages_fetched),
                static_cast<long long>(scheduler_->pages_total()), rate,
                on_topic, static_cast<long long>(st.queued), running_.size(),
                static_cast<long long>(committer_->errors()),
                disk_full_.empty() ? "" : "; paused: ", disk_full_);
  std::fflush(options_.progress);
}

absl::Status Crawler::Impl::SyncOutbox() {
  storage::LinkBatch batch;
  committer_->PersistRoutes(&batch);
  // After the puts: a link stored and delivered by now is erased.
  for (uint64_t seq : cluster_->TakeDelivered()) batch.EraseOutbox(seq);
  return db_->Commit(std::move(batch));
}

absl::Status Crawler::Impl::DrainOutcomes() {
  for (ParseOutcome& o : parse_pool_->TakeOutcomes()) {
    scheduler_->CountSkipped("out-of-scope links", o.links_out_of_scope);
    scheduler_->CountSkipped("nofollow links", o.links_nofollow);
    if (absl::Status s = committer_->Apply(std::move(o)); !s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::StatusOr<CrawlSummary> Crawler::Impl::Run() {
  start_ = absl::Now();
  const int64_t max_seconds = config_.budget().max_seconds();
  bool stop_starting = false;
  std::string reason;
  while (true) {
    absl::Time now = absl::Now();
    if (options_.stop != nullptr && options_.stop->load()) {
      reason = "stopped";
      break;
    }
    if (cluster_ != nullptr) {
      if (std::string fin = cluster_->Finished(); !fin.empty()) {
        reason = fin;
        break;
      }
    }
    if (cluster_ == nullptr && max_seconds > 0 &&
        now - start_ >= absl::Seconds(max_seconds) && !stop_starting) {
      stop_starting = true;
      reason = "time";
    }
    if (!stop_starting && frontier_->QueueMeanTooLow()) {
      stop_starting = true;
      reason = "mean score of the queue below the strategy's minimum";
    }
    if (absl::Status s = DrainOutcomes(); !s.ok()) return s;
    if (absl::Status s = ServiceDns(now); !s.ok()) return s;
    if (absl::Status s = frontier_->ApplyRescores(); !s.ok()) return s;
    scheduler_->RefreshChanged(now);
    scheduler_->WakeWaiting(now);
    if (cluster_ != nullptr) {
      if (absl::Status s = cluster_->Service(*hand_over_, Idle()); !s.ok()) {
        return s;
      }
      if (absl::Status s = SyncOutbox(); !s.ok()) return s;
      scheduler_->RefreshChanged(now);
    }
    const bool paused =
        (cluster_ != nullptr && cluster_->Paused()) || DiskFull(now);
    if (!stop_starting && !paused) {
      // Parsed pages waiting to be applied hold memory; do not run ahead of
      // the parsers by more than the transfers in flight.
      const int64_t max_parsing =
          static_cast<int64_t>(config_.fetch().max_in_flight()) +
          4 * static_cast<int64_t>(parse_pool_->threads());
      // Pages due again go to their hosts' queues first (at most as many
      // at once as transfers may run).
      if (absl::Status s = revisits_->TakeDue(
              now, static_cast<size_t>(config_.fetch().max_in_flight()));
          !s.ok()) {
        return s;
      }
      if (absl::Status s = scheduler_->StartTransfers(now, max_parsing);
          !s.ok()) {
        return s;
      }
    }
    if (cluster_ == nullptr && running_.empty() &&
        parse_pool_->outstanding() == 0) {
      if (stop_starting) break;
      if (!scheduler_->AnyReady()) {
        // Anything still waiting for its delay keeps the crawl alive; so
        // does a host the share threshold let through again now that the
        // best queued score fell.
        // A continuous crawl waits for its next page due.
        if (!scheduler_->AnyWaiting() && !scheduler_->RecheckThreshold(now) &&
            !revisits_->KeepsCrawlAlive()) {
          // URLs left queued are below the strategy's threshold, or on
          // hosts whose page budget is spent ("frontier empty": nothing
          // left that may be fetched).
          const bool thresholded =
              strategy_->min_fetch_score() >
                  -std::numeric_limits<double>::infinity() &&
              db_->stats().queued > 0;
          reason = scheduler_->BudgetReached() || revisits_->BudgetSpent()
                       ? "budget"
                   : thresholded ? "no queued URL above the strategy's "
                                   "threshold"
                                 : "frontier empty";
          break;
        }
      }
    }
    // A cluster worker also waits for links and hosts from its peers.
    absl::Duration timeout = absl::Milliseconds(cluster_ != nullptr ? 20 : 100);
    // curl cannot wake up for a parsed page: poll it briefly then.
    if (parse_pool_->outstanding() > 0 && fetcher_->in_flight() > 0) {
      timeout = absl::Milliseconds(2);
    }
    if (const absl::Time wake =
            std::min(scheduler_->NextWake(), revisits_->NextDue());
        wake != absl::InfiniteFuture()) {
      timeout = std::min(timeout, std::max(absl::ZeroDuration(), wake - now));
    }
    // Nor for a DNS answer: look for one every few milliseconds while a
    // lookup runs, and right away when a task's lookup failed.
    if (!dns_failed_.empty()) timeout = absl::ZeroDuration();
    if (resolver_ != nullptr && resolver_->pending() > 0) {
      timeout = std::min(timeout, absl::Milliseconds(5));
    }
    if (fetcher_->in_flight() == 0) {
      // Nothing to wait on in curl: wait for a parsed page or the timeout.
      parse_pool_->WaitForOutcome(timeout);
    } else {
      std::vector<protocol::FetchResult> results = fetcher_->Poll(timeout);
      now = absl::Now();
      for (protocol::FetchResult& r : results) {
        if (absl::Status s = HandleResult(std::move(r), now); !s.ok()) return s;
      }
    }
    Progress(absl::Now(), false);
  }
  // Parsed pages are committed; transfers still running are abandoned (they
  // stay IN_FLIGHT and are fetched again by the next run).
  // (The pool parses the jobs it has before it stops.)
  parse_pool_->Stop();
  if (absl::Status s = DrainOutcomes(); !s.ok()) return s;
  fetcher_.reset();
  if (absl::Status s = committer_->SaveModel(); !s.ok()) return s;
  if (absl::Status s = committer_->Sync(); !s.ok()) return s;
  CrawlSummary summary;
  if (indexer_ != nullptr) {
    // The index is a copy of pages.jsonl: a failure to update it (said on
    // stderr) does not fail the crawl.
    indexer_->Commit().IgnoreError();
    summary.search_indexed = indexer_->indexed();
    summary.search_cpu_seconds = indexer_->cpu_seconds();
  }
  if (absl::Status s = warc_->Close(); !s.ok()) return s;
  if (absl::Status s = db_->Flush(); !s.ok()) return s;
  summary.pages_fetched = committer_->pages_fetched();
  summary.pages_fetched_total = scheduler_->pages_total();
  summary.on_topic = committer_->on_topic();
  summary.noindex = committer_->noindex();
  summary.aliases = committer_->aliases();
  summary.duplicates = committer_->duplicates();
  summary.disk_full_pauses = disk_full_pauses_;
  const PageCommitter::RevisitCounts& rc = committer_->revisits();
  summary.revisits = rc.made;
  summary.revisits_not_modified = rc.not_modified;
  summary.revisits_unchanged = rc.unchanged;
  summary.revisits_changed = rc.changed;
  summary.revisits_gone = rc.gone;
  summary.revisits_failed = rc.failed;
  summary.revisits_from_sitemaps = committer_->sitemap_revisits();
  summary.sitemaps_read = committer_->sitemaps_read();
  summary.sitemaps_failed = sitemaps_failed_ + committer_->sitemaps_unread();
  summary.sitemap_urls = committer_->sitemap_urls();
  summary.errors = committer_->errors();
  summary.fetch_outcomes = committer_->fetch_outcomes();
  summary.robots_fetched = scheduler_->robots_fetched();
  summary.queued = db_->stats().queued;
  summary.held_by_order = scheduler_->held_by_order();
  summary.deferred = scheduler_->deferred();
  summary.skipped = scheduler_->skipped();
  summary.hosts_unreachable = scheduler_->hosts_unreachable();
  summary.hosts_parked = scheduler_->hosts_parked();
  if (resolver_ != nullptr) {
    summary.dns_lookups = resolver_->lookups();
    summary.dns_failures = resolver_->failures();
  }
  summary.seconds = absl::ToDoubleSeconds(absl::Now() - start_);
  summary.stop_reason = reason;
  Progress(absl::Now(), true);
  return summary;
}

// ------------------------------------------------------------- cluster

bool Crawler::Impl::Idle() {
  if (!running_.empty() || parse_pool_->outstanding() > 0) return false;
  return scheduler_->Quiet();
}

// ---------------------------------------------------------------- public

Crawler::Crawler(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Crawler::~Crawler() = default;

absl::StatusOr<std::unique_ptr<Crawler>> Crawler::Create(
    const proto::CrawlConfig& config, const CrawlerOptions& options) {
  if (options.cluster != nullptr && config.revisit().continuous()) {
    return absl::InvalidArgumentError(
        "revisit.continuous: a continuous crawl runs on a standalone worker "
        "(the cluster does not schedule revisits)");
  }
  auto impl = std::make_unique<Impl>(config, options);
  if (absl::Status s = impl->Init(); !s.ok()) return s;
  return std::unique_ptr<Crawler>(new Crawler(std::move(impl)));
}

absl::StatusOr<CrawlSummary> Crawler::Run() { return impl_->Run(); }

}  // namespace fcrawl::worker
