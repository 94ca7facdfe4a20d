// The crawl loop: the rooms of worker/ put together (worker/README.md).
// Crawler::Impl owns the database, the fetcher, the WARC writer, the topic
// and strategy, and the rooms built on them — the frontier
// (worker/frontier.h), the host scheduler (worker/host_scheduler.h), the
// parse pool (worker/parse_pool.h), the page committer
// (worker/page_commit.h) and the cluster hand-over (worker/hand_over.h) —
// and drives them from one thread: it runs the transfers the scheduler
// starts, and decides what a response means (robots.txt, redirect hop,
// 429/503 retry, a page to parse, an outcome without parsing).
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
#include "quark/quark.h"
#include "storage/link_db.h"
#include "worker/crawl_setup.h"
#include "worker/crawl_task.h"
#include "worker/fetcher.h"
#include "worker/frontier.h"
#include "worker/hand_over.h"
#include "worker/host_scheduler.h"
#include "worker/page_commit.h"
#include "worker/parse_pool.h"
#include "worker/resolver.h"
#include "worker/revisit.h"
#include "worker/revisit_queue.h"
#include "worker/url_scope.h"
#include "worker/warc.h"

namespace fcrawl::worker {

using ::fcrawl::focus::InterestModel;
using ::fcrawl::focus::SiteStore;
using ::fcrawl::focus::Strategy;
using ::fcrawl::focus::Topic;
using ::fcrawl::formats::CrawlConfigToText;
using ::fcrawl::formats::CrawlLog;
using ::fcrawl::proto::LinkRecord;

namespace {

// Redirect hops followed for robots.txt (RFC 9309 §2.3.1.2: at least five).
constexpr int kMaxRobotsRedirects = 5;

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

// The worker's database as the strategies' per-site store.
class LinkDbSiteStore : public SiteStore {
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

}  // namespace

class Crawler::Impl : public TransferSink {
 public:
  Impl(proto::CrawlConfig config, CrawlerOptions options)
      : config_(std::move(config)),
        options_(options),
        cluster_(options.cluster),
        scope_(config_.scope()) {}

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
  absl::Status RecordWithoutRequest(Task task, LinkRecord::Status status,
                                    std::string problem, bool fetched,
                                    absl::Time now) override {
    FetchResult none;
    none.url = task.url;
    none.started = now;
    if (task.revisit) {
      // Robots.txt disallows the page now (it is not revisited again), or
      // its host is unreachable (tried again later).
      const RevisitResult result = status == LinkRecord::SKIPPED
                                       ? RevisitResult::kDisallowed
                                       : RevisitResult::kFailed;
      return committer_->FinishRevisit(std::move(task), std::move(none), result,
                                       {std::move(problem)}, fetched);
    }
    return committer_->FinishWithoutParse(std::move(task), std::move(none),
                                          status, {std::move(problem)},
                                          fetched);
  }

 private:
  // Nothing under way and nothing that may be fetched now.
  bool Idle();
  absl::Status HandleResult(FetchResult r, absl::Time now);
  // The request of running_[id]: at once when its host needs no lookup or
  // the resolver has its answer, else once the lookup ends (ServiceDns).
  void StartFetch(uint64_t id, const std::string& url);
  void StartResolved(uint64_t id, const std::string& url,
                     const Resolution& resolution);
  // Hands finished lookups' tasks to the fetcher, and DNS failures to
  // HandleResult.
  absl::Status ServiceDns(absl::Time now);
  absl::Status HandleRobots(Task task, FetchResult r, absl::Time now);
  absl::Status HandleSitemap(Task task, FetchResult r, absl::Time now);
  absl::Status HandlePage(Task task, FetchResult r, absl::Time now);
  // A revisit's answer (Task::revisit), 429/503 retries aside.
  absl::Status HandleRevisit(Task task, FetchResult r);
  // The validators a task's request carries (a revisit's, when
  // revisit.conditional_get).
  Validators ValidatorsOf(uint64_t id) const;
  absl::Status DrainOutcomes();
  void Progress(absl::Time now, bool final);

  proto::CrawlConfig config_;
  CrawlerOptions options_;
  ClusterHooks* const cluster_;  // nullptr: a crawl on its own
  const UrlScope scope_;
  quark::PageOptions page_options_;
  // Blocks each host repeats on most of its pages (null when the config's
  // segmentation.site_templates is off). Thread-safe; used by the parse
  // threads. Learned again after a restart.
  std::unique_ptr<focus::SiteTemplates> templates_;

  std::unique_ptr<storage::LinkDb> db_;
  std::unique_ptr<Fetcher> fetcher_;
  std::unique_ptr<WarcWriter> warc_;
  std::shared_ptr<text::DocumentFrequencies> df_;
  std::optional<Topic> topic_;
  std::shared_ptr<focus::PageJudge> judge_;
  std::unique_ptr<Strategy> strategy_;
  std::unique_ptr<LinkDbSiteStore> site_store_;

  // The rooms, in the order they are built (each uses the ones before).
  std::unique_ptr<Frontier> frontier_;
  std::unique_ptr<HostScheduler> scheduler_;
  std::unique_ptr<RevisitQueue> revisits_;
  std::unique_ptr<PageCommitter> committer_;
  std::unique_ptr<HandOver> hand_over_;

  // Every task started and not yet handled: in the fetcher, waiting for a
  // DNS answer, or failed DNS waiting for HandleResult.
  absl::flat_hash_map<uint64_t, Task> running_;
  // fetch.async_dns: the resolver (null without it), the tasks waiting for
  // each host's lookup, the results of tasks whose host did not resolve,
  // and the hosts (and host:port) that `resolve` overrides.
  std::unique_ptr<Resolver> resolver_;
  absl::flat_hash_map<std::string, std::vector<uint64_t>> resolving_;
  std::vector<FetchResult> dns_failed_;
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
  // most once a second; a change is said on stderr).
  bool DiskFull(absl::Time now);

  // Out-links the parse pool left out as outside the scope (this run).

  // Last, so it is destroyed first: its threads use the members above.
  std::unique_ptr<ParsePool> parse_pool_;
};

// ---------------------------------------------------------------- setup

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
  absl::StatusOr<std::unique_ptr<storage::LinkDb>> db =
      storage::LinkDb::Open(out + "/db", dbo);
  if (!db.ok()) return db.status();
  db_ = *std::move(db);
  site_store_ = std::make_unique<LinkDbSiteStore>(db_.get());
  if (absl::Status s = strategy_->AttachSiteStore(site_store_.get()); !s.ok()) {
    return s;
  }
  frontier_ = std::make_unique<Frontier>(
      &config_, &scope_, db_.get(), strategy_.get(), cluster_,
      [this](const std::string& host, absl::string_view scheme) {
        scheduler_->Touch(host, scheme);
      });
  scheduler_ = std::make_unique<HostScheduler>(
      &config_, db_.get(), frontier_.get(), strategy_.get(), cluster_, this);
  if (absl::Status s = frontier_->Init(); !s.ok()) return s;
  revisits_ =
      std::make_unique<RevisitQueue>(&config_, db_.get(), scheduler_.get());
  if (absl::Status s = revisits_->IndexEarlierPages(absl::Now()); !s.ok()) {
    return s;
  }

  FetcherOptions fo;
  const proto::Fetch& f = config_.fetch();
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
  absl::StatusOr<std::unique_ptr<Fetcher>> fetcher = Fetcher::Create(fo);
  if (!fetcher.ok()) return fetcher.status();
  fetcher_ = *std::move(fetcher);
  // Behind a proxy the proxy resolves names.
  if (f.async_dns() && f.proxy().empty()) {
    ResolverOptions ro;
    ro.timeout = absl::Milliseconds(f.dns_timeout_ms());
    ro.max_lookups = f.max_dns_lookups();
    ro.servers.assign(f.dns_servers().begin(), f.dns_servers().end());
    // A parked host's retry must ask DNS again, not the negative cache.
    ro.negative_ttl =
        std::min(ro.negative_ttl, absl::Milliseconds(f.unreachable_retry_ms()));
    absl::StatusOr<std::unique_ptr<Resolver>> resolver = Resolver::Create(ro);
    if (!resolver.ok()) return resolver.status();
    resolver_ = *std::move(resolver);
    for (const proto::Resolve& r : config_.resolve()) {
      overridden_.insert(absl::AsciiStrToLower(r.host_port()));
    }
  }

  absl::StatusOr<std::unique_ptr<CrawlLog>> log = CrawlLog::Open(out);
  if (!log.ok()) return log.status();
  committer_ = std::make_unique<PageCommitter>(
      &config_, &options_, db_.get(), frontier_.get(), scheduler_.get(),
      revisits_.get(), strategy_.get(), *std::move(log));
  if (absl::Status s = committer_->RestoreStrategy(); !s.ok()) return s;
  WarcOptions wo;
  wo.software = absl::StrCat("fcrawl worker (", fo.user_agent, ")");
  absl::StatusOr<std::unique_ptr<WarcWriter>> warc = WarcWriter::Open(
      out + "/warc",
      absl::StrCat(
          "crawl-",
          absl::FormatTime("%Y%m%d%H%M%S", absl::Now(), absl::UTCTimeZone()),
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
      [this] { return static_cast<int64_t>(running_.size()); });

  int threads = options_.parse_threads;
  if (threads <= 0) {
    threads = std::max(1u, std::thread::hardware_concurrency());
  }
  ParseContext context;
  context.config = &config_;
  context.scope = &scope_;
  context.page_options = &page_options_;
  context.topic = &topic_;
  context.df = df_.get();
  context.strategy = strategy_.get();
  context.judge = judge_.get();
  context.templates = templates_.get();
  context.warc = warc_.get();
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
        std::optional<Resolution> r = resolver_->Lookup(host, absl::Now());
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

Validators Crawler::Impl::ValidatorsOf(uint64_t id) const {
  auto it = running_.find(id);
  if (it == running_.end() || !it->second.revisit ||
      !config_.revisit().conditional_get()) {
    return {};
  }
  return {it->second.record.etag(), it->second.record.last_modified()};
}

void Crawler::Impl::StartResolved(uint64_t id, const std::string& url,
                                  const Resolution& resolution) {
  if (resolution.status.ok() && !resolution.addresses.empty()) {
    fetcher_->Start(id, url, resolution.addresses.front(), ValidatorsOf(id));
    return;
  }
  // As the fetcher reports curl's own DNS failures (Unavailable), but a
  // definite "no such name" (or no address) stays NotFound: the scheduler
  // gives such a host up at once instead of trying it again later.
  FetchResult r;
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
  std::vector<FetchResult> failed;
  failed.swap(dns_failed_);
  for (FetchResult& r : failed) {
    if (absl::Status s = HandleResult(std::move(r), now); !s.ok()) return s;
  }
  return absl::OkStatus();
}

// --------------------------------------------------------------- results

absl::Status Crawler::Impl::HandleResult(FetchResult r, absl::Time now) {
  auto it = running_.find(r.id);
  if (it == running_.end()) {
    return absl::InternalError(absl::StrCat("unknown transfer id ", r.id));
  }
  Task task = std::move(it->second);
  running_.erase(it);
  const std::string host = task.host;
  scheduler_->TransferEnded(task, r.ip, now);
  // Pages to be parsed are archived by the parse threads (compression is
  // the costly part of it); everything else here.
  if (task.kind == Task::Kind::kRobots) {
    if (absl::Status s = ArchiveFetch(*warc_, r); !s.ok()) return s;
  }
  absl::Status s;
  switch (task.kind) {
    case Task::Kind::kRobots:
      s = HandleRobots(std::move(task), std::move(r), now);
      break;
    case Task::Kind::kSitemap:
      s = HandleSitemap(std::move(task), std::move(r), now);
      break;
    case Task::Kind::kPage:
      s = HandlePage(std::move(task), std::move(r), now);
      break;
  }
  scheduler_->Refresh(host, now);
  return s;
}

absl::Status Crawler::Impl::HandleRobots(Task task, FetchResult r,
                                         absl::Time now) {
  if (r.error.ok() && r.status >= 300 && r.status < 400 &&
      !r.location.empty() && task.hops < kMaxRobotsRedirects) {
    // RFC 9309 §2.3.1.2: follow robots.txt redirects (five hops), also to
    // other hosts; this host stays busy meanwhile.
    ++task.hops;
    task.url = r.location;
    task.chain.push_back(r.location);
    scheduler_->FollowRobotsRedirect(std::move(task));
    return absl::OkStatus();
  }
  const int status = r.error.ok() ? r.status : 0;
  if (absl::Status s =
          scheduler_->RobotsFetched(task, status, r.body, r.error, now);
      !s.ok()) {
    return s;
  }
  return committer_->LogFetch(
      task, r, r.body.size(), nullptr,
      r.error.ok() ? "" : std::string(r.error.message()));
}

bool Crawler::Impl::DiskFull(absl::Time now) {
  const int64_t floor_mb = config_.budget().min_free_disk_mb();
  if (floor_mb == 0) return false;
  if (now - disk_checked_ < absl::Seconds(1)) return !disk_full_.empty();
  disk_checked_ = now;
  const std::string& path = config_.output_dir();
  absl::StatusOr<int64_t> free = file::FreeBytes(path);
  if (!free.ok()) return !disk_full_.empty();  // keep the last answer
  const int64_t free_mb = *free >> 20;
  if (free_mb < floor_mb) {
    if (disk_full_.empty()) {
      ++disk_full_pauses_;
      disk_full_ =
          absl::StrCat("disk full on ", path, ": ", free_mb,
                       " MiB free (budget.min_free_disk_mb ", floor_mb, ")");
      std::fprintf(stderr, "worker: %s; fetching paused\n", disk_full_.c_str());
    }
  } else if (!disk_full_.empty()) {
    disk_full_.clear();
    std::fprintf(stderr,
                 "worker: %lld MiB free on %s again; fetching resumed\n",
                 static_cast<long long>(free_mb), path.c_str());
  }
  return !disk_full_.empty();
}

absl::Status Crawler::Impl::HandleSitemap(Task task, FetchResult r,
                                          absl::Time now) {
  // A sitemap that answers with its content is read by the parse pool
  // (it may be 50 MB of XML); anything else ends here.
  if (r.error.ok() && r.status >= 200 && r.status < 300 && !r.body.empty()) {
    parse_pool_->Submit({std::move(task), std::move(r), {}});
    return absl::OkStatus();
  }
  if (absl::Status s = ArchiveFetch(*warc_, r); !s.ok()) return s;
  std::string error;
  bool failed = true;  // no sitemap came of the request
  if (!r.error.ok()) {
    error = std::string(r.error.message());
  } else if (r.status >= 300 && r.status < 400 && !r.location.empty()) {
    // Followed when it stays on the host (http -> https, a new path).
    absl::StatusOr<url::Url> base = url::Parse(task.url);
    absl::StatusOr<url::Url> target =
        base.ok() ? url::Resolve(*base, r.location) : base.status();
    const bool followed =
        target.ok() && scheduler_->QueueSitemaps(task.host, {target->spec()},
                                                 task.from_index, now) > 0;
    error = absl::StrCat(
        "HTTP ", r.status,
        followed ? ": sitemap moved to " : ": not followed to ", r.location);
    failed = !followed;
  } else {
    error = absl::StrCat("HTTP ", r.status);
  }
  if (failed) ++sitemaps_failed_;
  return committer_->LogFetch(task, r, r.body.size(), nullptr, error);
}

absl::Status Crawler::Impl::HandlePage(Task task, FetchResult r,
                                       absl::Time now) {
  std::vector<std::string> problems;
  const bool will_parse =
      r.error.ok() && r.status >= 200 && r.status < 300 && !r.body.empty() &&
      ContentTypeAccepted(config_.fetch().accepted_content_types(),
                          r.content_type);
  if (!will_parse) {
    if (absl::Status s = ArchiveFetch(*warc_, r); !s.ok()) return s;
  }
  if (!r.error.ok()) {
    problems.push_back(std::string(r.error.message()));
    return committer_->FinishWithoutParse(
        std::move(task), std::move(r), LinkRecord::ERROR, std::move(problems));
  }
  const int status = r.status;
  if ((status == 429 || status == 503) &&
      task.retries + 1 < options_.max_attempts) {
    ++task.retries;
    absl::Duration wait = r.retry_after.value_or(options_.default_retry_after);
    wait = std::min(
        wait, absl::Milliseconds(config_.politeness().max_crawl_delay_ms()));
    const std::string note = absl::StrCat(
        "HTTP ", status, "; retrying in ", absl::FormatDuration(wait),
        " (attempt ", task.retries + 1, " of ", options_.max_attempts, ")");
    if (absl::Status s =
            committer_->LogFetch(task, r, r.body.size(), nullptr, note);
        !s.ok()) {
      return s;
    }
    task.started = now + wait;
    scheduler_->Retry(std::move(task), now + wait);
    return absl::OkStatus();
  }
  if (task.revisit) return HandleRevisit(std::move(task), std::move(r));
  if (status >= 300 && status < 400 && !r.location.empty()) {
    std::optional<url::Url> target = scope_.Canonical(r.location);
    std::string problem;
    if (!target.has_value()) {
      problem = absl::StrCat("redirect to an unusable URL: ", r.location);
    } else if (task.hops >= config_.fetch().max_redirects()) {
      problem = absl::StrCat("too many redirects (more than ",
                             config_.fetch().max_redirects(), ")");
    } else if (std::find(task.chain.begin(), task.chain.end(),
                         target->spec()) != task.chain.end()) {
      problem =
          absl::StrCat("redirect loop: ", absl::StrJoin(task.chain, " -> "),
                       " -> ", target->spec());
    } else if (!scope_.InScope(target->host())) {
      problem = absl::StrCat("redirect out of scope: ", target->spec());
    }
    if (!problem.empty()) {
      problems.push_back(problem);
      return committer_->FinishWithoutParse(std::move(task), std::move(r),
                                            LinkRecord::ERROR,
                                            std::move(problems));
    }
    absl::StatusOr<std::optional<LinkRecord>> known = db_->Get(target->spec());
    if (!known.ok()) return known.status();
    if (known->has_value()) {
      // Already known under its own URL: it is (or will be) fetched there.
      r.url = target->spec();
      return committer_->FinishWithoutParse(std::move(task), std::move(r),
                                            LinkRecord::DONE, {});
    }
    // The target becomes known now (IN_FLIGHT, so no page queues it while
    // the hop waits for its host); the hop goes behind the target host's
    // robots.txt and politeness delay.
    LinkRecord hop;
    hop.set_url(target->spec());
    hop.set_status(LinkRecord::IN_FLIGHT);
    hop.set_depth(task.record.depth());
    hop.set_physical_layer(PhysicalLayer(*target));
    hop.set_parent_url(task.url);
    hop.set_anchor_text("(redirect)");
    hop.set_discovered_at_ms(absl::ToUnixMillis(now));
    storage::LinkBatch batch;
    batch.Put(hop, nullptr);
    frontier_->MarkSettled(hop.url());
    if (absl::Status s = db_->Commit(std::move(batch)); !s.ok()) return s;
    ++task.hops;
    task.chain_status.push_back(status);
    task.url = target->spec();
    task.chain.push_back(target->spec());
    task.host = storage::HostKey(target->spec());
    scheduler_->QueueHop(std::move(task), std::string(target->scheme()), now);
    return absl::OkStatus();
  }
  if (status >= 300 && status < 400) {
    problems.push_back(
        absl::StrCat("HTTP ", status, " without a usable Location"));
  } else if (status == 429 || status == 503) {
    problems.push_back(absl::StrCat("HTTP ", status, " after ",
                                    options_.max_attempts, " attempts"));
  } else if (status >= 400 || status < 200) {
    problems.push_back(absl::StrCat("HTTP ", status));
  }
  if (r.truncated) {
    problems.push_back(absl::StrCat("body truncated at ",
                                    config_.fetch().max_body_bytes(),
                                    " bytes (fetch.max_body_bytes)"));
  }
  if (!will_parse) {
    return committer_->FinishWithoutParse(
        std::move(task), std::move(r), LinkRecord::DONE, std::move(problems));
  }
  // What a revisit compares the page by (worker/revisit.h).
  task.record.set_content_hash(ContentHash(r.body));
  task.record.set_etag(r.etag);
  task.record.set_last_modified(r.last_modified);
  parse_pool_->Submit({std::move(task), std::move(r), std::move(problems)});
  return absl::OkStatus();
}

absl::Status Crawler::Impl::HandleRevisit(Task task, FetchResult r) {
  std::vector<std::string> problems;
  RevisitResult result = RevisitResult::kFailed;
  if (!r.error.ok()) {
    problems.push_back(std::string(r.error.message()));
  } else if (r.status == 304) {
    result = RevisitResult::kNotModified;
  } else if (r.status == 404 || r.status == 410) {
    result = RevisitResult::kGone;
  } else if (r.status >= 200 && r.status < 300 && !r.truncated &&
             !r.body.empty() &&
             ContentTypeAccepted(config_.fetch().accepted_content_types(),
                                 r.content_type)) {
    const uint64_t hash = ContentHash(r.body);
    if (hash == task.record.content_hash()) {
      result = RevisitResult::kUnchanged;
    } else {
      // Archived and parsed again by the parse pool; ApplyRevisit records
      // it.
      task.record.set_content_hash(hash);
      parse_pool_->Submit({std::move(task), std::move(r), {}});
      return absl::OkStatus();
    }
  } else {
    // A redirect, a server error, another kind of body: nothing learned
    // about the page; it is tried again later.
    problems.push_back(absl::StrCat("HTTP ", r.status, " on a revisit"));
  }
  if (absl::Status s = ArchiveFetch(*warc_, r); !s.ok()) return s;
  return committer_->FinishRevisit(std::move(task), std::move(r), result,
                                   std::move(problems));
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
      std::vector<FetchResult> results = fetcher_->Poll(timeout);
      now = absl::Now();
      for (FetchResult& r : results) {
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
  if (absl::Status s = warc_->Close(); !s.ok()) return s;
  if (absl::Status s = db_->Flush(); !s.ok()) return s;
  CrawlSummary summary;
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
