#include "worker/crawler.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <deque>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <queue>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/hash/hash.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/synchronization/mutex.h"
#include "core/charset.h"
#include "core/file.h"
#include "core/text.h"
#include "core/url.h"
#include "focus/interest.h"
#include "focus/site_templates.h"
#include "focus/strategy.h"
#include "focus/topic.h"
#include "focus/url_rule.h"
#include "formats/crawl_config.h"
#include "formats/crawl_log.h"
#include "google/protobuf/util/json_util.h"
#include "proto/link_state.pb.h"
#include "proto/url_rules.pb.h"
#include "quark/page_proto.h"
#include "quark/quark.h"
#include "re2/re2.h"
#include "storage/link_db.h"
#include "worker/fetcher.h"
#include "worker/robots.h"
#include "worker/warc.h"

namespace fcrawl::worker {

using ::fcrawl::focus::Admission;
using ::fcrawl::focus::ExamplePage;
using ::fcrawl::focus::FetchedPage;
using ::fcrawl::focus::FormatSiteRules;
using ::fcrawl::focus::FrontierState;
using ::fcrawl::focus::InterestModel;
using ::fcrawl::focus::InterestModelOptions;
using ::fcrawl::focus::LearnedLabel;
using ::fcrawl::focus::MakeStrategy;
using ::fcrawl::focus::ReadExampleFolder;
using ::fcrawl::focus::ScoredLink;
using ::fcrawl::focus::SiteStore;
using ::fcrawl::focus::Strategy;
using ::fcrawl::focus::StrategyOptions;
using ::fcrawl::focus::Topic;
using ::fcrawl::focus::UrlRuleRelevance;
using ::fcrawl::formats::CrawlConfigToText;
using ::fcrawl::formats::CrawlLog;
using ::fcrawl::formats::FetchLogEntry;
using ::fcrawl::formats::PageRecord;
namespace {

using proto::LinkRecord;

constexpr absl::string_view kGlobalPagesFetched = "pages_fetched";
constexpr absl::string_view kGlobalSequence = "strategy_sequence";
// The strategy's learned model (Strategy::SaveModel), saved every
// kModelSaveEvery pages and at the end of a run.
constexpr absl::string_view kGlobalModel = "strategy_model";
constexpr int64_t kModelSaveEvery = 200;
// robots.txt bodies kept in the host record (RobotsOptions reads 512 KiB).
constexpr size_t kMaxStoredRobotsBytes = 512 * 1024;
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

// Media type without parameters, lower case.
std::string MediaTypeOf(absl::string_view content_type) {
  absl::string_view t = content_type.substr(0, content_type.find(';'));
  return absl::AsciiStrToLower(absl::StripAsciiWhitespace(t));
}

bool ContentTypeAccepted(
    const google::protobuf::RepeatedPtrField<std::string>& accepted,
    absl::string_view content_type) {
  const std::string type = MediaTypeOf(content_type);
  // No Content-Type: the bytes decide (quark refuses binary bodies).
  if (type.empty()) return true;
  for (const std::string& want : accepted) {
    if (absl::EndsWith(want, "/*")) {
      if (absl::StartsWithIgnoreCase(type, want.substr(0, want.size() - 1))) {
        return true;
      }
    } else if (absl::EqualsIgnoreCase(type, want)) {
      return true;
    }
  }
  return false;
}

bool IsMediaType(absl::string_view content_type) {
  const std::string type = MediaTypeOf(content_type);
  return absl::StartsWith(type, "audio/") || absl::StartsWith(type, "video/") ||
         type == "application/x-shockwave-flash";
}

// The charset a Content-Type names, when it names one this build cannot
// decode ("" otherwise).
std::string UnknownDeclaredCharset(absl::string_view content_type) {
  const std::string label = charset::CharsetFromContentType(
      std::string_view(content_type.data(), content_type.size()));
  if (label.empty()) return "";
  if (!charset::CanonicalCharsetName(label).empty()) return "";
  return label;
}

// The charset a <meta> in the first 4 KiB names, when it names one this
// build cannot decode ("" otherwise). charset::CharsetFromMeta skips such
// labels (as browsers do), so they are looked for here to be reported.
std::string UnknownMetaCharset(absl::string_view body) {
  static const LazyRE2 kMeta = {
      R"re((?i)<meta[^>]*?charset\s*=\s*["']?\s*([^"'\s/>;]+))re"};
  const re2::StringPiece prefix(body.data(),
                                std::min<size_t>(body.size(), 4096));
  std::string label;
  if (!RE2::PartialMatch(prefix, *kMeta, &label)) return "";
  if (!charset::CanonicalCharsetName(label).empty()) return "";
  return label.substr(0, 64);
}

// The response head as the WARC response record needs it: curl removed the
// content and transfer codings, so headers describing them would make WARC
// readers decode the body a second time. They are kept under another name.
std::string WarcResponseHead(absl::string_view head) {
  std::vector<absl::string_view> lines =
      absl::StrSplit(head, "\r\n", absl::SkipEmpty());
  auto starts = [](absl::string_view line, absl::string_view name) {
    return absl::StartsWithIgnoreCase(line, name);
  };
  // When a coding was removed, Content-Length described the coded body too
  // (the WARC record has its own length).
  const bool recoded = std::any_of(lines.begin(), lines.end(), [&](auto l) {
    return starts(l, "content-encoding:") || starts(l, "transfer-encoding:");
  });
  std::string out;
  out.reserve(head.size() + 64);
  for (absl::string_view line : lines) {
    const bool rename = recoded && (starts(line, "content-encoding:") ||
                                    starts(line, "transfer-encoding:") ||
                                    starts(line, "content-length:"));
    absl::StrAppend(&out, rename ? "X-Fcrawl-Original-" : "", line, "\r\n");
  }
  out.append("\r\n");
  return out;
}

int PhysicalLayer(const url::Url& u) {
  return static_cast<int>(u.PathSegments().size());
}

FrontierState StateOf(const LinkRecord& r) {
  FrontierState s;
  s.score = r.link_score();
  s.inherited = r.inherited();
  s.depth_budget = r.depth_budget();
  s.sum = r.accumulated();
  s.count = r.contributions();
  s.content = r.link_content();
  return s;
}

void SetState(const FrontierState& s, LinkRecord* r) {
  r->set_link_score(s.score);
  r->set_inherited(s.inherited);
  r->set_depth_budget(s.depth_budget);
  r->set_accumulated(s.sum);
  r->set_contributions(s.count);
  r->set_link_content(s.content);
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

// One request on its way: a robots.txt fetch, or one hop of a page fetch.
struct Task {
  enum class Kind { kRobots, kPage };
  Kind kind = Kind::kPage;
  std::string host;                // HostKey of `url`
  std::string url;                 // requested now
  LinkRecord record;               // kPage: the URL's record (IN_FLIGHT)
  int hops = 0;                    // redirects followed so far
  int retries = 0;                 // 429/503 answers so far
  std::vector<std::string> chain;  // URLs requested so far, in order
  std::vector<int> chain_status;   // HTTP status of each (redirects)
  absl::Time started = absl::InfinitePast();  // first request of the chain
};

struct OutLink {
  std::string url;
  std::string host;  // storage::HostKey(url)
  FrontierState state;
  std::string anchor;
  proto::BlockType block = proto::BLOCK_TYPE_UNSPECIFIED;
  int physical_layer = 0;
};

struct ParseJob {
  Task task;
  FetchResult result;
  std::vector<std::string> problems;  // found before parsing (truncation, ...)
};

struct ParseOutcome {
  Task task;
  FetchResult result;  // body cleared
  int64_t body_bytes = 0;
  std::vector<std::string> problems;
  bool parsed = false;
  // A request was made for the URL (false for URLs recorded without one:
  // robots.txt disallows them, or their host is unreachable).
  bool fetched = true;
  // The record's status when it is not decided by parsing.
  std::optional<proto::LinkRecord::Status> status;
  absl::Status parse_error;
  absl::Status warc_status;  // archiving in the parse thread
  proto::StoredPage stored;  // blocks and links, text left out
  std::string title, keywords, description, main_text;
  std::optional<double> relevance;
  bool media = false;
  std::vector<OutLink> links;
};

struct HostState {
  std::string key;
  std::string scheme = "http";  // for the robots.txt URL
  bool busy = false;
  absl::Time next_allowed = absl::InfinitePast();
  absl::Duration delay;
  bool robots_known = false;
  absl::Time robots_expires = absl::InfinitePast();
  RobotsRules rules;
  bool parked = false;  // robots.txt answered 5xx: no fetches for a while
  // Set when robots.txt could not be fetched because the host does not
  // resolve, refuses connections or has a refused (private) address.
  std::string unreachable;
  absl::Time parked_until = absl::InfinitePast();
  int64_t pages_fetched = 0;
  int64_t pages_in_flight = 0;
  std::deque<Task> pending;  // redirect hops and retries, served first
  std::string last_ip;
  std::string reserved_ip;   // the address of the running transfer (per-IP)
  proto::HostRecord record;  // as stored; written back with each page
  // Scheduler bookkeeping.
  bool in_ready = false;
  double ready_score = 0;
  absl::Time waiting_until = absl::InfinitePast();
};

}  // namespace

class Crawler::Impl : public ClusterContext {
 public:
  Impl(proto::CrawlConfig config, CrawlerOptions options)
      : config_(std::move(config)),
        options_(options),
        cluster_(options.cluster) {}
  ~Impl() override { StopPool(); }

  absl::Status Init();
  absl::StatusOr<CrawlSummary> Run();

  // --- ClusterContext (crawl thread only)
  absl::Status AddLinks(const std::vector<LinkRecord>& records) override;
  absl::Status AddHost(const std::string& host,
                       const std::vector<LinkRecord>& records,
                       const proto::HostRecord* host_record,
                       const std::string& site_state) override;
  absl::Status ApplyRanks(
      const std::vector<std::pair<std::string, double>>& ranks,
      int64_t* applied, int64_t* requeued) override;
  absl::StatusOr<std::vector<std::string>> Hosts() override {
    return db_->ListHosts();
  }
  bool HostBusy(const std::string& host) override;
  absl::Status ReadHost(const std::string& host,
                        std::vector<LinkRecord>* records,
                        std::optional<proto::HostRecord>* host_record,
                        std::string* site_state) override;
  absl::Status DropHost(const std::string& host) override;
  void RescheduleAll() override;
  void Figures(int64_t* queued, int64_t* in_flight,
               int64_t* pages_total) override {
    *queued = db_->stats().queued;
    *in_flight = static_cast<int64_t>(fetcher_->in_flight());
    *pages_total = pages_total_;
  }

 private:
  // --- setup
  absl::Status BuildTopic();
  absl::Status BuildStrategyOptions(StrategyOptions& so);
  absl::Status QueueSeeds();
  // The record of a seed not known yet (strategy's seed state).
  LinkRecord SeedRecord(const url::Url& u, int64_t now_ms);
  // Nothing under way and nothing that may be fetched now.
  bool Idle();
  void AddQueuedScore(double delta) {
    if (track_queued_scores_) queued_score_sum_ += delta;
  }
  // The mean score of the queued URLs is below the strategy's minimum.
  bool QueueMeanTooLow();
  // Score a host's best URL needs to be fetched: the strategy's absolute
  // minimum, or its share of the best score queued on any host.
  double FetchThreshold();
  // --- scope and canonical URLs
  bool InScope(std::string_view host) const;
  std::optional<url::Url> Canonical(absl::string_view spec) const;
  // --- scheduling
  // The host's state, created (from the database) on first use. `scheme`
  // ("http"/"https") is the one robots.txt is fetched with.
  HostState& Host(const std::string& key, absl::string_view scheme = "http");
  absl::Duration HostDelay(const RobotsRules& rules) const;
  bool HasWork(HostState& h);
  // Has work and may be served (delays aside).
  bool Eligible(HostState& h);
  void Refresh(HostState& h, absl::Time now);
  void WakeWaiting(absl::Time now);
  absl::Status StartTransfers(absl::Time now);
  absl::StatusOr<bool> StartForHost(HostState& h, absl::Time now);
  void StartTask(HostState& h, Task task);
  bool BudgetReached() const;
  bool RobotsAllow(const HostState& h, const url::Url& u) const;
  // --- results
  absl::Status HandleResult(FetchResult r, absl::Time now);
  absl::Status HandleRobots(HostState& h, Task task, FetchResult r,
                            absl::Time now);
  absl::Status HandlePage(HostState& h, Task task, FetchResult r,
                          absl::Time now);
  // Stores the new scores of queued URLs the strategy re-scored.
  absl::Status ApplyRescores();
  absl::Status FinishWithoutParse(Task task, FetchResult r,
                                  LinkRecord::Status status,
                                  std::vector<std::string> problems,
                                  bool fetched = true);
  absl::Status ApplyOutcome(ParseOutcome o);
  absl::Status WriteWarc(const FetchResult& r);
  absl::Status LogFetch(const Task& task, const FetchResult& r,
                        int64_t body_bytes, std::optional<double> relevance,
                        const std::string& error);
  // --- parsing pool
  void StartPool(int threads);
  void StopPool();
  void PoolLoop();
  ParseOutcome Parse(ParseJob job);
  absl::Status DrainOutcomes();
  void Progress(absl::Time now, bool final);

  proto::CrawlConfig config_;
  CrawlerOptions options_;
  ClusterHooks* const cluster_;  // nullptr: a crawl on its own
  std::string user_agent_product_;

  std::unique_ptr<storage::LinkDb> db_;
  std::unique_ptr<Fetcher> fetcher_;
  std::unique_ptr<CrawlLog> log_;
  std::unique_ptr<WarcWriter> warc_;
  std::shared_ptr<text::DocumentFrequencies> df_;
  std::optional<Topic> topic_;
  std::unique_ptr<Strategy> strategy_;
  std::unique_ptr<LinkDbSiteStore> site_store_;
  // The interest strategy's model when it was built from example folders
  // (saved into the output folder once that exists).
  std::shared_ptr<const InterestModel> built_interest_model_;
  // Hopfield's stop rule: the sum of the scores of the queued URLs, kept
  // only when the strategy has a min_mean_queued_score.
  bool track_queued_scores_ = false;
  double queued_score_sum_ = 0;
  quark::PageOptions page_options_;
  // Blocks each host repeats on most of its pages (null when the config's
  // segmentation.site_templates is off). Thread-safe; used by the parse
  // threads. Learned again after a restart.
  std::unique_ptr<focus::SiteTemplates> templates_;
  RobotsOptions robots_options_;

  absl::flat_hash_map<std::string, std::unique_ptr<HostState>> hosts_;
  // Ready hosts, best score first (key: -score, host).
  std::set<std::pair<double, std::string>> ready_;
  // Hosts waiting for their delay: (time, host), earliest first; lazy.
  std::priority_queue<std::pair<absl::Time, std::string>,
                      std::vector<std::pair<absl::Time, std::string>>,
                      std::greater<>>
      waiting_;
  absl::flat_hash_map<std::string, absl::Time> ip_next_allowed_;
  absl::flat_hash_map<std::string, int> ip_busy_;  // transfers per address
  absl::flat_hash_map<uint64_t, Task> running_;
  // Hashes of the URLs known in this run not to be QUEUED (fetched, in
  // flight, recorded): a status goes back to QUEUED within a run only when
  // the strategy defers a URL (which then leaves this set), so their links
  // skip the database. About 16 bytes per fetched URL; a 64-bit
  // hash collision (odds ~n²/2^65) would drop one link.
  absl::flat_hash_set<size_t> settled_;
  absl::Hash<std::string> url_hash_;
  uint64_t next_id_ = 1;

  // Counters.
  int64_t pages_total_ = 0;  // all runs
  int64_t pages_in_flight_ = 0;
  CrawlSummary summary_;
  absl::Time start_;
  absl::Time last_progress_ = absl::InfinitePast();
  int64_t last_progress_pages_ = 0;

  // Parse pool.
  absl::Mutex pool_mu_;
  std::deque<ParseJob> jobs_ ABSL_GUARDED_BY(pool_mu_);
  std::deque<ParseOutcome> outcomes_ ABSL_GUARDED_BY(pool_mu_);
  bool pool_stop_ ABSL_GUARDED_BY(pool_mu_) = false;
  std::vector<std::thread> pool_;
  int64_t jobs_outstanding_ = 0;  // main thread only
  int64_t held_by_order_ = 0;     // main thread only
};

// ---------------------------------------------------------------- setup

absl::Status Crawler::Impl::Init() {
  {
    const std::string& ua = config_.politeness().user_agent();
    size_t n = 0;
    while (n < ua.size() &&
           (absl::ascii_isalpha(ua[n]) || ua[n] == '_' || ua[n] == '-')) {
      ++n;
    }
    user_agent_product_ = ua.substr(0, n);
  }
  robots_options_.max_crawl_delay_seconds =
      config_.politeness().max_crawl_delay_ms() / 1000.0;

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

  // The strategy and topic first: a config the crawler cannot run leaves no
  // output folder behind.
  if (absl::Status s = BuildTopic(); !s.ok()) return s;

  const std::string out = config_.output_dir();
  if (absl::Status s = MakeDirs(out); !s.ok()) return s;
  if (absl::Status s = MakeDirs(out + "/warc"); !s.ok()) return s;
  {
    std::ofstream f(out + "/config.textproto", std::ios::trunc);
    f << CrawlConfigToText(config_);
    if (!f) {
      return absl::PermissionDeniedError(
          absl::StrCat("cannot write ", out, "/config.textproto"));
    }
  }

  if (built_interest_model_ != nullptr) {
    if (absl::Status s =
            built_interest_model_->Save(out + "/interest_model.pb");
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
  track_queued_scores_ = strategy_->min_mean_queued_score() >
                         -std::numeric_limits<double>::infinity();
  if (track_queued_scores_) {
    // A resumed crawl: the queue's scores as stored.
    absl::Status s = db_->ForEachRecord("", [&](const LinkRecord& r) {
      if (r.status() == LinkRecord::QUEUED) queued_score_sum_ += r.link_score();
      return true;
    });
    if (!s.ok()) return s;
  }

  absl::StatusOr<std::optional<std::string>> total =
      db_->GetGlobal(kGlobalPagesFetched);
  if (!total.ok()) return total.status();
  if (total->has_value())
    pages_total_ = std::strtoll((*total)->c_str(), nullptr, 10);
  absl::StatusOr<std::optional<std::string>> seq =
      db_->GetGlobal(kGlobalSequence);
  if (!seq.ok()) return seq.status();
  if (seq->has_value()) {
    strategy_->RestoreSequence(std::strtoll((*seq)->c_str(), nullptr, 10));
  }
  absl::StatusOr<std::optional<std::string>> model =
      db_->GetGlobal(kGlobalModel);
  if (!model.ok()) return model.status();
  if (model->has_value()) {
    if (absl::Status s = strategy_->RestoreModel(**model); !s.ok()) {
      // A model from another version or a damaged one: learn afresh.
      std::fprintf(stderr, "worker: stored strategy model not used: %s\n",
                   std::string(s.message()).c_str());
    }
  }

  FetcherOptions fo;
  const proto::Fetch& f = config_.fetch();
  fo.connect_timeout = absl::Milliseconds(f.connect_timeout_ms());
  fo.total_timeout = absl::Milliseconds(f.total_timeout_ms());
  fo.low_speed_bytes_per_s = f.low_speed_bytes_per_s();
  fo.low_speed_time = absl::Seconds(f.low_speed_seconds());
  fo.max_body_bytes = f.max_body_bytes();
  fo.user_agent = config_.politeness().user_agent();
  fo.allow_private_addresses = config_.allow_private_addresses();
  fo.max_in_flight = f.max_in_flight();
  for (const proto::Resolve& r : config_.resolve()) {
    fo.resolve.push_back({r.host_port(), r.address()});
  }
  absl::StatusOr<std::unique_ptr<Fetcher>> fetcher = Fetcher::Create(fo);
  if (!fetcher.ok()) return fetcher.status();
  fetcher_ = *std::move(fetcher);

  absl::StatusOr<std::unique_ptr<CrawlLog>> log = CrawlLog::Open(out);
  if (!log.ok()) return log.status();
  log_ = *std::move(log);
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
    if (absl::Status s = QueueSeeds(); !s.ok()) return s;
  }
  // Hosts that already have queued URLs (a resumed crawl).
  for (const auto& [host, score] : db_->QueuedHosts()) Host(host);
  db_->TakeChangedHosts();
  const absl::Time now = absl::Now();
  for (auto& [key, h] : hosts_) Refresh(*h, now);

  int threads = options_.parse_threads;
  if (threads <= 0) {
    threads = std::max(1u, std::thread::hardware_concurrency());
  }
  StartPool(threads);
  return absl::OkStatus();
}

absl::Status Crawler::Impl::BuildTopic() {
  df_ = std::make_shared<text::DocumentFrequencies>();
  const proto::Topic& t = config_.topic();
  std::string keywords = absl::StrJoin(t.keywords(), " ");
  std::string description = t.description();
  if (!t.positive_examples_dir().empty()) {
    // Example pages add their main text to the topic description.
    absl::StatusOr<std::vector<ExamplePage>> examples =
        ReadExampleFolder(t.positive_examples_dir(), "positive");
    if (!examples.ok()) {
      return absl::Status(examples.status().code(),
                          absl::StrCat("topic.positive_examples_dir: ",
                                       examples.status().message()));
    }
    for (const ExamplePage& e : *examples) {
      absl::StrAppend(&description, " ", e.title, "\n", e.body);
    }
  }
  if (!keywords.empty() || !description.empty()) {
    topic_ = Topic::FromText(keywords, description, df_);
    topic_->SeedInto(df_.get());
    page_options_.analyzer.sim_threshold =
        config_.segmentation().sim_threshold();
  }
  StrategyOptions so;
  if (absl::Status st = BuildStrategyOptions(so); !st.ok()) return st;
  const std::string& name = config_.strategy().name();
  absl::StatusOr<std::unique_ptr<Strategy>> strategy = MakeStrategy(
      name, so, topic_.has_value() ? *topic_ : Topic::FromText("", ""));
  if (!strategy.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("strategy.name: ", strategy.status().message()));
  }
  strategy_ = *std::move(strategy);
  return absl::OkStatus();
}

absl::Status Crawler::Impl::BuildStrategyOptions(StrategyOptions& so) {
  const proto::Strategy& s = config_.strategy();
  const std::string& name = s.name();
  if (name == "fish") so.depth = s.fish().depth();
  if (name == "shark") so.depth = s.shark().depth();
  if (name == "ssaps") so.depth = s.ssaps().depth();
  so.fish.width = s.fish().width();
  so.shark.delta = s.shark().delta();
  so.shark.beta = s.shark().beta();
  so.shark.gamma = s.shark().gamma();
  so.ssaps.gamma = s.ssaps().gamma();
  so.ssaps.w1 = s.ssaps().w1();
  so.ssaps.w2 = s.ssaps().w2();
  so.ssaps.w3 = s.ssaps().w3();
  so.ssaps.delta = s.ssaps().delta();

  const proto::HopfieldParams& h = s.hopfield();
  so.hopfield.theta = h.theta();
  so.hopfield.min_mean_activation = h.min_mean_activation();
  so.hopfield.omega_content = h.omega_content();
  so.hopfield.omega_link = h.omega_link();
  so.hopfield.relative = h.relative_threshold();
  so.hopfield.spread_floor = h.spread_floor();

  const proto::TopicPageRankParams& t = s.topic_pagerank();
  so.topic_pagerank.damping = t.damping();
  so.topic_pagerank.omega = t.omega();
  so.topic_pagerank.anchor_weight = t.anchor_weight();
  so.topic_pagerank.url_weight = t.url_weight();
  so.topic_pagerank.lambda = t.lambda();
  so.topic_pagerank.content_weight = t.content_weight();

  const proto::ImprovedSharkParams& i = s.improved_shark();
  so.improved_shark.beta = i.beta();
  so.improved_shark.theta = i.theta();
  so.improved_shark.sigma = i.sigma();
  so.improved_shark.content_weight = i.content_weight();

  const proto::UrlRuleParams& u = s.url_rule();
  so.url_rule.min_relevant_pages = u.min_relevant_pages();
  so.url_rule.max_distance = u.max_distance();
  so.url_rule.layer2_quota = u.layer2_quota();
  so.url_rule.max_layer = u.max_layer();
  so.url_rule.damping = u.damping();
  so.url_rule.content_weight = u.content_weight();
  so.url_rule.learn_from = u.learn_from() == "media" ? UrlRuleRelevance::kMedia
                           : u.learn_from() == "both"
                               ? UrlRuleRelevance::kBoth
                               : UrlRuleRelevance::kTopical;
  so.url_rule.relevance_threshold = u.relevance_threshold();
  so.url_rule.defer_refused = u.defer_refused();
  so.url_rule.template_share = u.template_share();
  for (const std::string& seed : config_.seeds()) {
    const std::string site = storage::HostKey(seed);
    if (!site.empty() &&
        std::find(so.url_rule.sites.begin(), so.url_rule.sites.end(), site) ==
            so.url_rule.sites.end()) {
      so.url_rule.sites.push_back(site);
    }
  }

  const proto::LearnedParams& l = s.learned();
  so.learned.relevance_scale = l.relevance_scale();
  so.learned.prior_examples = l.prior_examples();
  so.learned.max_model_weight = l.max_model_weight();
  so.learned.exploration = l.exploration();
  so.learned.max_tracked_urls = l.max_tracked_urls();
  so.learned.model.learning_rate = l.learning_rate();
  so.learned.model.hash_bits = l.hash_bits();
  so.learned.coverage_terms = l.coverage_terms();
  so.learned.seed_exploration = l.seed_exploration();
  so.learned.label = l.label() == "relevance" ? LearnedLabel::kRelevance
                                              : LearnedLabel::kCoverage;

  const proto::InterestParams& m = s.interest();
  so.interest.epsilon = m.epsilon();
  so.interest.horizontal_weight = m.horizontal_weight();
  so.interest.downward_weight = m.downward_weight();
  so.interest.upward_weight = m.upward_weight();
  so.interest.crosswise_weight = m.crosswise_weight();
  so.interest.outward_weight = m.outward_weight();
  for (const proto::InterestScope& sc : m.scopes()) {
    so.interest.scopes.push_back(
        {sc.start_url(), sc.max_pages(), sc.max_seconds()});
  }
  if (name == "interest") {
    absl::StatusOr<InterestModel> model =
        m.model_file().empty() ? BuildInterestModel(config_)
                               : InterestModel::Load(m.model_file());
    if (!model.ok()) {
      return absl::Status(
          model.status().code(),
          absl::StrCat("strategy.interest: ", model.status().message()));
    }
    so.interest.model =
        std::make_shared<const InterestModel>(*std::move(model));
    if (m.model_file().empty()) built_interest_model_ = so.interest.model;
  }

  const std::string& dict = config_.topic().url_dictionary_file();
  if (!dict.empty()) {
    absl::StatusOr<text::UrlDictionary> d = text::UrlDictionary::Load(dict);
    if (!d.ok()) {
      return absl::Status(
          d.status().code(),
          absl::StrCat("topic.url_dictionary_file: ", d.status().message()));
    }
    so.url_dictionary =
        std::make_shared<const text::UrlDictionary>(*std::move(d));
  }
  return absl::OkStatus();
}

absl::Status Crawler::Impl::QueueSeeds() {
  storage::LinkBatch batch;
  const int64_t now_ms = absl::ToUnixMillis(absl::Now());
  std::vector<std::string> seeds(config_.seeds().begin(),
                                 config_.seeds().end());
  if (config_.strategy().name() == "interest") {
    for (const proto::InterestScope& sc :
         config_.strategy().interest().scopes()) {
      seeds.push_back(sc.start_url());
    }
  }
  for (const std::string& seed : seeds) {
    std::optional<url::Url> u = Canonical(seed);
    if (!u.has_value()) continue;  // validated already; canonical form fails
    absl::StatusOr<std::optional<LinkRecord>> known = db_->Get(u->spec());
    if (!known.ok()) return known.status();
    if (known->has_value()) continue;
    batch.Put(SeedRecord(*u, now_ms), nullptr);
    Host(storage::HostKey(u->spec()), std::string(u->scheme()));
  }
  if (batch.empty()) return absl::OkStatus();
  return db_->Commit(std::move(batch));
}

LinkRecord Crawler::Impl::SeedRecord(const url::Url& u, int64_t now_ms) {
  LinkRecord r;
  r.set_url(u.spec());
  r.set_status(LinkRecord::QUEUED);
  r.set_depth(0);
  r.set_physical_layer(PhysicalLayer(u));
  const FrontierState s = strategy_->SeedState();
  SetState(s, &r);
  AddQueuedScore(s.score);
  r.set_discovered_at_ms(now_ms);
  return r;
}

bool Crawler::Impl::InScope(std::string_view host_sv) const {
  const absl::string_view host(host_sv.data(), host_sv.size());
  const proto::Scope& s = config_.scope();
  if (s.allowed_hosts().empty() && s.allowed_domains().empty()) return true;
  for (const std::string& h : s.allowed_hosts()) {
    if (absl::EqualsIgnoreCase(h, host)) return true;
  }
  for (const std::string& d : s.allowed_domains()) {
    if (absl::EqualsIgnoreCase(d, host)) return true;
    if (host.size() > d.size() &&
        absl::EndsWithIgnoreCase(host, absl::StrCat(".", d))) {
      return true;
    }
  }
  return false;
}

std::optional<url::Url> Crawler::Impl::Canonical(absl::string_view spec) const {
  absl::StatusOr<url::Url> u =
      url::Parse(std::string_view(spec.data(), spec.size()));
  if (!u.ok()) return std::nullopt;
  url::Url stripped = url::StripSessionIds(*u);
  if (stripped.spec().size() >
      static_cast<size_t>(config_.scope().max_url_bytes())) {
    return std::nullopt;
  }
  return stripped;
}

// ------------------------------------------------------------ scheduling

absl::Duration Crawler::Impl::HostDelay(const RobotsRules& rules) const {
  absl::Duration delay =
      absl::Milliseconds(config_.politeness().per_host_delay_ms());
  if (std::optional<double> cd = rules.CrawlDelay(user_agent_product_)) {
    delay = std::max(
        delay, absl::Milliseconds(std::min<double>(
                   *cd * 1000.0, config_.politeness().max_crawl_delay_ms())));
  }
  return delay;
}

HostState& Crawler::Impl::Host(const std::string& key,
                               absl::string_view scheme) {
  auto [it, inserted] = hosts_.try_emplace(key);
  if (inserted) {
    it->second = std::make_unique<HostState>();
    it->second->key = key;
    HostState& h = *it->second;
    h.scheme = std::string(scheme);
    h.delay = absl::Milliseconds(config_.politeness().per_host_delay_ms());
    // A resumed crawl: the host's page count and a robots.txt still within
    // its cache time come from the database.
    h.record.set_host(key);
    absl::StatusOr<std::optional<proto::HostRecord>> rec = db_->GetHost(key);
    if (rec.ok() && rec->has_value()) {
      h.record = **rec;
      const proto::HostRecord& hr = h.record;
      h.pages_fetched = hr.pages_fetched();
      const absl::Time fetched =
          absl::FromUnixMillis(hr.robots_fetched_at_ms());
      const absl::Time expires =
          fetched + absl::Seconds(config_.politeness().robots_cache_seconds());
      const int status = hr.robots_status();
      if (hr.robots_fetched_at_ms() > 0 && absl::Now() < expires &&
          status > 0 && status < 500) {
        h.rules = RobotsForStatus(status, hr.robots_body(), robots_options_);
        h.robots_known = true;
        h.robots_expires = expires;
        h.delay = HostDelay(h.rules);
      }
    }
  }
  return *it->second;
}

bool Crawler::Impl::BudgetReached() const {
  if (cluster_ != nullptr) return false;  // page tokens instead
  return pages_total_ + pages_in_flight_ >= config_.budget().max_pages();
}

bool Crawler::Impl::HasWork(HostState& h) {
  if (!h.pending.empty()) return true;
  if (BudgetReached()) return false;
  if (cluster_ != nullptr && !cluster_->MayFetch(h.key)) return false;
  if (h.pages_fetched + h.pages_in_flight >=
      config_.scope().max_pages_per_host()) {
    return false;
  }
  std::optional<storage::QueuedEntry> head = db_->Peek(h.key);
  if (!head.has_value() || head->score < FetchThreshold()) return false;
  // Last: asking for a page token means there is a URL to spend it on.
  return cluster_ == nullptr || cluster_->HasPage();
}

double Crawler::Impl::FetchThreshold() {
  double threshold = strategy_->min_fetch_score();
  if (const double share = strategy_->min_fetch_share(); share > 0) {
    const std::optional<double> best = db_->BestQueuedScore();
    if (best.has_value() && *best > 0) {
      threshold = std::max(threshold, share * *best);
    }
  }
  return threshold;
}

bool Crawler::Impl::QueueMeanTooLow() {
  if (!track_queued_scores_) return false;
  const int64_t queued = db_->stats().queued;
  return queued > 0 && queued_score_sum_ / static_cast<double>(queued) <
                           strategy_->min_mean_queued_score();
}

bool Crawler::Impl::Eligible(HostState& h) {
  return !h.busy && !h.parked && HasWork(h);
}

void Crawler::Impl::Refresh(HostState& h, absl::Time now) {
  if (h.in_ready) {
    ready_.erase({-h.ready_score, h.key});
    h.in_ready = false;
  }
  if (h.parked && now >= h.parked_until) {
    h.parked = false;
    h.robots_known = false;  // try robots.txt again
  }
  if (!Eligible(h)) return;
  if (now < h.next_allowed) {
    if (h.waiting_until != h.next_allowed) {
      h.waiting_until = h.next_allowed;
      waiting_.push({h.next_allowed, h.key});
    }
    return;
  }
  double score = std::numeric_limits<double>::infinity();
  if (h.pending.empty()) {
    std::optional<storage::QueuedEntry> head = db_->Peek(h.key);
    score = head.has_value() ? head->score : 0;
  }
  h.ready_score = score;
  h.in_ready = true;
  ready_.insert({-score, h.key});
}

void Crawler::Impl::WakeWaiting(absl::Time now) {
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
}

bool Crawler::Impl::RobotsAllow(const HostState& h, const url::Url& u) const {
  if (!config_.politeness().obey_robots()) return true;
  std::string path(u.path());
  if (!u.query().empty()) absl::StrAppend(&path, "?", std::string(u.query()));
  return h.rules.IsAllowed(user_agent_product_, path);
}

absl::Status Crawler::Impl::StartTransfers(absl::Time now) {
  const size_t max_in_flight = config_.fetch().max_in_flight();
  // Parsed pages waiting to be applied hold memory; do not run ahead of the
  // parsers by more than the transfers in flight.
  const int64_t max_jobs = static_cast<int64_t>(max_in_flight) +
                           4 * static_cast<int64_t>(pool_.size());
  const absl::Duration per_ip =
      absl::Milliseconds(config_.politeness().per_ip_delay_ms());
  const int64_t window = config_.strategy().order_window();
  while (fetcher_->in_flight() < max_in_flight && !ready_.empty() &&
         jobs_outstanding_ < max_jobs) {
    // The frontier's global order (Strategy.order_window): the best ready
    // host's head starts only while the pages under way (fetched or being
    // parsed: their links are not scored yet) and the queued URLs of all
    // hosts that score above it are fewer than `window`. Every other ready
    // host scores no higher, so none may start either. The better URLs are
    // waited for while something is under way or a host waits out its
    // politeness delay; otherwise the head starts anyway: the URLs above it
    // belong to hosts that cannot be fetched soon (parked, capped, owned by
    // another worker), and the crawl must go on.
    const double head_score = -ready_.begin()->first;
    const int64_t under_way =
        static_cast<int64_t>(fetcher_->in_flight()) + jobs_outstanding_;
    if (window > 0 && std::isfinite(head_score) &&
        (under_way > 0 || !waiting_.empty()) &&
        under_way + db_->QueuedAbove(head_score) >= window) {
      ++held_by_order_;
      break;
    }
    const std::string key = ready_.begin()->second;
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

absl::StatusOr<bool> Crawler::Impl::StartForHost(HostState& h, absl::Time now) {
  const bool obey = config_.politeness().obey_robots();
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
    } else {
      if (!HasWork(h)) return false;
      absl::StatusOr<std::optional<LinkRecord>> popped = db_->Pop(h.key);
      if (!popped.ok()) return popped.status();
      if (!popped->has_value()) return false;
      t.kind = Task::Kind::kPage;
      t.host = h.key;
      t.record = **std::move(popped);
      t.url = t.record.url();
      settled_.insert(url_hash_(t.url));
      t.started = now;
      t.chain.push_back(t.url);
      ++pages_in_flight_;
      ++h.pages_in_flight;
      if (cluster_ != nullptr) cluster_->TakePage();
      AddQueuedScore(-t.record.link_score());
      const Admission admission =
          strategy_->Admit(t.url, t.record.physical_layer(), StateOf(t.record));
      if (!admission.fetch && admission.defer_score.has_value() &&
          std::isfinite(*admission.defer_score)) {
        // Not now: back into the host's queue below what the strategy
        // admits; asked again when it is the host's best.
        LinkRecord later = t.record;
        later.set_status(LinkRecord::QUEUED);
        later.set_link_score(*admission.defer_score);
        storage::LinkBatch batch;
        batch.Put(later, &t.record);
        if (absl::Status s = db_->Commit(std::move(batch)); !s.ok()) return s;
        AddQueuedScore(later.link_score());
        // Queued again: not settled, not in flight, no page spent.
        settled_.erase(url_hash_(t.url));
        --pages_in_flight_;
        --h.pages_in_flight;
        if (cluster_ != nullptr) cluster_->ReturnPage();
        ++summary_.deferred;
        continue;
      }
      if (!admission.fetch) {
        FetchResult none;
        none.url = t.url;
        none.started = now;
        if (absl::Status s = FinishWithoutParse(
                std::move(t), std::move(none), LinkRecord::SKIPPED,
                {admission.reason}, /*fetched=*/false);
            !s.ok()) {
          return s;
        }
        continue;
      }
    }
    FetchResult none;
    none.url = t.url;
    none.started = now;
    if (!h.unreachable.empty()) {
      // The host does not exist or refuses connections (its robots.txt
      // fetch said so): its URLs are recorded as errors without a request.
      const bool fetched = t.hops > 0;
      if (absl::Status s = FinishWithoutParse(
              std::move(t), std::move(none), LinkRecord::ERROR,
              {absl::StrCat("host unreachable: ", h.unreachable)}, fetched);
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
    if (absl::Status s = FinishWithoutParse(
            std::move(t), std::move(none), LinkRecord::SKIPPED, {why}, fetched);
        !s.ok()) {
      return s;
    }
  }
  return false;
}

void Crawler::Impl::StartTask(HostState& h, Task task) {
  // Recording a skipped URL may have put the host back into the ready set
  // (ApplyOutcome refreshes it); it is busy from now on.
  if (h.in_ready) {
    ready_.erase({-h.ready_score, h.key});
    h.in_ready = false;
  }
  h.busy = true;
  const uint64_t id = next_id_++;
  fetcher_->Start(id, task.url);
  running_.emplace(id, std::move(task));
}

// --------------------------------------------------------------- results

absl::Status Crawler::Impl::WriteWarc(const FetchResult& r) {
  if (r.response_head.empty() || r.request_head.empty())
    return absl::OkStatus();
  WarcExchange x;
  x.url = r.url;
  x.ip = r.ip;
  x.fetched_at = r.started;
  x.request = r.request_head;
  x.response_head = WarcResponseHead(r.response_head);
  x.body = r.body;
  if (!r.error.ok()) {
    // Only a complete header block is worth keeping; the body is partial.
    if (!absl::EndsWith(r.response_head, "\r\n\r\n")) return absl::OkStatus();
    x.truncated = absl::IsDeadlineExceeded(r.error) ? "time" : "disconnect";
  } else if (r.truncated) {
    x.truncated = "length";
  }
  absl::Status s = warc_->WriteExchange(x);
  // A URL the WARC format cannot carry is the page's problem, not the
  // crawl's; I/O errors stop the crawl.
  if (absl::IsInvalidArgument(s)) return absl::OkStatus();
  return s;
}

absl::Status Crawler::Impl::HandleResult(FetchResult r, absl::Time now) {
  auto it = running_.find(r.id);
  if (it == running_.end()) {
    return absl::InternalError(absl::StrCat("unknown transfer id ", r.id));
  }
  Task task = std::move(it->second);
  running_.erase(it);
  HostState& h = Host(task.host);
  h.busy = false;
  h.next_allowed = now + h.delay;
  const absl::Duration per_ip =
      absl::Milliseconds(config_.politeness().per_ip_delay_ms());
  if (!h.reserved_ip.empty()) {
    --ip_busy_[h.reserved_ip];
    ip_next_allowed_[h.reserved_ip] = now + per_ip;
    h.reserved_ip.clear();
  }
  if (!r.ip.empty()) {
    h.last_ip = r.ip;
    if (per_ip > absl::ZeroDuration()) {
      absl::Time& next = ip_next_allowed_[r.ip];
      next = std::max(next, now + per_ip);
    }
  }
  // Pages to be parsed are archived by the parse threads (compression is
  // the costly part of it); everything else here.
  if (task.kind == Task::Kind::kRobots) {
    if (absl::Status s = WriteWarc(r); !s.ok()) return s;
  }
  absl::Status s = task.kind == Task::Kind::kRobots
                       ? HandleRobots(h, std::move(task), std::move(r), now)
                       : HandlePage(h, std::move(task), std::move(r), now);
  Refresh(h, now);
  return s;
}

absl::Status Crawler::Impl::HandleRobots(HostState& h, Task task, FetchResult r,
                                         absl::Time now) {
  if (r.error.ok() && r.status >= 300 && r.status < 400 &&
      !r.location.empty() && task.hops < kMaxRobotsRedirects) {
    // RFC 9309 §2.3.1.2: follow robots.txt redirects (five hops), also to
    // other hosts; this host stays busy meanwhile.
    ++task.hops;
    task.url = r.location;
    task.chain.push_back(r.location);
    h.next_allowed = absl::InfinitePast();
    StartTask(h, std::move(task));
    return absl::OkStatus();
  }
  ++summary_.robots_fetched;
  const int status = r.error.ok() ? r.status : 0;
  h.rules = RobotsForStatus(status, r.body, robots_options_);
  h.robots_known = true;
  h.robots_expires =
      now + absl::Seconds(config_.politeness().robots_cache_seconds());
  if (status == 0 &&
      (absl::IsUnavailable(r.error) || absl::IsPermissionDenied(r.error))) {
    h.unreachable = std::string(r.error.message());
  } else if (status == 0 || status >= 500) {
    // Unreachable: complete disallow for a while (§2.3.1.4). The host's
    // URLs stay queued for a later run or after the retry delay.
    h.parked = true;
    h.parked_until = now + kRobotsRetryDelay;
  }
  h.delay = HostDelay(h.rules);
  h.next_allowed = now + h.delay;

  proto::HostRecord& rec = h.record;
  rec.set_robots_fetched_at_ms(absl::ToUnixMillis(now));
  rec.set_robots_status(status);
  rec.set_robots_body(r.body.substr(0, kMaxStoredRobotsBytes));
  storage::LinkBatch batch;
  batch.PutHost(rec);
  if (absl::Status s = db_->Commit(std::move(batch)); !s.ok()) return s;
  return LogFetch(task, r, r.body.size(), std::nullopt,
                  r.error.ok() ? "" : std::string(r.error.message()));
}

absl::Status Crawler::Impl::HandlePage(HostState& h, Task task, FetchResult r,
                                       absl::Time now) {
  std::vector<std::string> problems;
  const bool will_parse =
      r.error.ok() && r.status >= 200 && r.status < 300 && !r.body.empty() &&
      ContentTypeAccepted(config_.fetch().accepted_content_types(),
                          r.content_type);
  if (!will_parse) {
    if (absl::Status s = WriteWarc(r); !s.ok()) return s;
  }
  if (!r.error.ok()) {
    problems.push_back(std::string(r.error.message()));
    return FinishWithoutParse(std::move(task), std::move(r), LinkRecord::ERROR,
                              std::move(problems));
  }
  const int status = r.status;
  if ((status == 429 || status == 503) &&
      task.retries + 1 < options_.max_attempts) {
    ++task.retries;
    absl::Duration wait = r.retry_after.value_or(options_.default_retry_after);
    wait = std::min(
        wait, absl::Milliseconds(config_.politeness().max_crawl_delay_ms()));
    h.next_allowed = std::max(h.next_allowed, now + wait);
    const std::string note = absl::StrCat(
        "HTTP ", status, "; retrying in ", absl::FormatDuration(wait),
        " (attempt ", task.retries + 1, " of ", options_.max_attempts, ")");
    if (absl::Status s = LogFetch(task, r, r.body.size(), std::nullopt, note);
        !s.ok()) {
      return s;
    }
    task.started = now + wait;
    h.pending.push_front(std::move(task));
    return absl::OkStatus();
  }
  if (status >= 300 && status < 400 && !r.location.empty()) {
    std::optional<url::Url> target = Canonical(r.location);
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
    } else if (!InScope(target->host())) {
      problem = absl::StrCat("redirect out of scope: ", target->spec());
    }
    if (!problem.empty()) {
      problems.push_back(problem);
      return FinishWithoutParse(std::move(task), std::move(r),
                                LinkRecord::ERROR, std::move(problems));
    }
    absl::StatusOr<std::optional<LinkRecord>> known = db_->Get(target->spec());
    if (!known.ok()) return known.status();
    if (known->has_value()) {
      // Already known under its own URL: it is (or will be) fetched there.
      r.url = target->spec();
      return FinishWithoutParse(std::move(task), std::move(r), LinkRecord::DONE,
                                {});
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
    settled_.insert(url_hash_(hop.url()));
    if (absl::Status s = db_->Commit(std::move(batch)); !s.ok()) return s;
    ++task.hops;
    task.chain_status.push_back(status);
    task.url = target->spec();
    task.chain.push_back(target->spec());
    const std::string key = storage::HostKey(target->spec());
    task.host = key;
    HostState& th = Host(key, std::string(target->scheme()));
    th.pending.push_back(std::move(task));
    Refresh(th, now);
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
    return FinishWithoutParse(std::move(task), std::move(r), LinkRecord::DONE,
                              std::move(problems));
  }
  ParseJob job{std::move(task), std::move(r), std::move(problems)};
  ++jobs_outstanding_;
  absl::MutexLock lock(&pool_mu_);
  jobs_.push_back(std::move(job));
  return absl::OkStatus();
}

absl::Status Crawler::Impl::LogFetch(const Task& task, const FetchResult& r,
                                     int64_t body_bytes,
                                     std::optional<double> relevance,
                                     const std::string& error) {
  FetchLogEntry e;
  e.url = task.chain.front();
  e.final_url = r.url.empty() ? task.url : r.url;
  e.status = r.status;
  e.fetched_at = task.started;
  e.fetch_time = r.started + r.elapsed - task.started;
  if (e.fetch_time < absl::ZeroDuration()) e.fetch_time = r.elapsed;
  e.depth = task.record.depth();
  e.content_type = r.content_type;
  e.bytes = body_bytes;
  e.relevance = relevance;
  // robots.txt fetches have no frontier score.
  if (task.kind == Task::Kind::kPage) e.score = task.record.link_score();
  if (!error.empty()) e.error = error;
  return log_->AppendFetch(e);
}

absl::Status Crawler::Impl::FinishWithoutParse(
    Task task, FetchResult r, LinkRecord::Status status,
    std::vector<std::string> problems, bool fetched) {
  ParseOutcome o;
  o.task = std::move(task);
  o.body_bytes = static_cast<int64_t>(r.body.size());
  o.result = std::move(r);
  o.problems = std::move(problems);
  o.parsed = false;
  o.fetched = fetched;
  o.status = status;
  o.media = IsMediaType(o.result.content_type);
  // A URL that gave no page to score teaches the strategies that learn
  // (a dead link is a bad link); URLs skipped without a request do not.
  if (fetched || status == LinkRecord::ERROR) {
    strategy_->ObserveUnparsed(o.task.record.url());
  }
  return ApplyOutcome(std::move(o));
}

absl::Status Crawler::Impl::ApplyOutcome(ParseOutcome o) {
  if (!o.warc_status.ok()) return o.warc_status;
  Task& task = o.task;
  const FetchResult& r = o.result;
  const absl::Time now = absl::Now();
  const bool fetched = o.fetched;
  if (!o.parse_error.ok()) {
    o.problems.push_back(std::string(o.parse_error.message()));
  }
  std::string error = absl::StrJoin(o.problems, "; ");

  LinkRecord done = task.record;
  const LinkRecord previous = task.record;
  if (o.status.has_value()) {
    done.set_status(*o.status);
  } else {
    // Parsed, or a response that could not be parsed (binary, too deep...).
    done.set_status(o.parsed ? LinkRecord::DONE : LinkRecord::ERROR);
  }
  done.set_error(error);
  done.set_redirects(task.hops);
  if (fetched) {
    done.set_http_status(r.status);
    done.set_final_url(r.url.empty() ? task.url : r.url);
    done.set_content_type(r.content_type);
    done.set_bytes(o.body_bytes);
    done.set_fetched_at_ms(absl::ToUnixMillis(task.started));
  }
  done.set_media(o.media);
  if (o.parsed) {
    done.set_title(o.title);
    done.set_keywords(o.keywords);
    done.set_description(o.description);
    if (o.relevance.has_value()) done.set_content_score(*o.relevance);
  }

  storage::LinkBatch batch;
  batch.Put(done, &previous);
  // Every later URL of a redirect chain is a URL of its own (recorded
  // IN_FLIGHT at its hop). The last one gets the page's outcome; the ones in
  // between are redirects to it. None of them is fetched again.
  for (size_t i = 1; i < task.chain.size(); ++i) {
    absl::StatusOr<std::optional<LinkRecord>> hop = db_->Get(task.chain[i]);
    if (!hop.ok()) return hop.status();
    if (!hop->has_value() || (*hop)->status() != LinkRecord::IN_FLIGHT)
      continue;
    LinkRecord end = done;
    end.set_url(task.chain[i]);
    end.set_parent_url((*hop)->parent_url());
    end.set_anchor_text((*hop)->anchor_text());
    end.set_depth((*hop)->depth());
    end.set_physical_layer((*hop)->physical_layer());
    end.set_discovered_at_ms((*hop)->discovered_at_ms());
    end.set_redirects(static_cast<int32_t>(task.chain.size() - 1 - i));
    if (i + 1 < task.chain.size() && i < task.chain_status.size()) {
      end.set_http_status(task.chain_status[i]);
    }
    batch.Put(end, &**hop);
  }
  if (o.parsed) batch.PutPage(task.record.url(), o.stored);

  // Out-links: new URLs are queued; queued ones get the merged state.
  if (!o.links.empty()) {
    // Links to URLs already settled in this run (fetched, in flight or
    // recorded) need no database lookup: most links of a page are the
    // site's navigation, which points at pages fetched long ago.
    std::vector<std::string> urls;
    std::vector<const OutLink*> looked_up;
    urls.reserve(o.links.size());
    looked_up.reserve(o.links.size());
    for (const OutLink& l : o.links) {
      if (cluster_ != nullptr && !cluster_->Owns(l.host)) {
        LinkRecord n;
        n.set_url(l.url);
        n.set_status(LinkRecord::QUEUED);
        n.set_depth(task.record.depth() + 1);
        n.set_physical_layer(l.physical_layer);
        n.set_anchor_text(l.anchor);
        n.set_parent_url(task.record.url());
        n.set_parent_block(l.block);
        SetState(l.state, &n);
        n.set_discovered_at_ms(absl::ToUnixMillis(now));
        cluster_->Route(std::move(n));
        continue;
      }
      if (settled_.contains(url_hash_(l.url))) continue;
      urls.push_back(l.url);
      looked_up.push_back(&l);
    }
    absl::StatusOr<std::vector<std::optional<LinkRecord>>> known =
        db_->GetMany(urls);
    if (!known.ok()) return known.status();
    const int64_t now_ms = absl::ToUnixMillis(now);
    const int child_depth = task.record.depth() + 1;
    for (size_t i = 0; i < looked_up.size(); ++i) {
      const OutLink& l = *looked_up[i];
      const std::optional<LinkRecord>& k = (*known)[i];
      if (k.has_value() && k->status() != LinkRecord::QUEUED) {
        settled_.insert(url_hash_(l.url));
        continue;
      }
      if (!k.has_value()) {
        LinkRecord n;
        n.set_url(l.url);
        n.set_status(LinkRecord::QUEUED);
        n.set_depth(child_depth);
        n.set_physical_layer(l.physical_layer);
        n.set_anchor_text(l.anchor);
        n.set_parent_url(task.record.url());
        n.set_parent_block(l.block);
        SetState(l.state, &n);
        AddQueuedScore(l.state.score);
        n.set_discovered_at_ms(now_ms);
        batch.Put(n, nullptr);
        Host(l.host, absl::StartsWith(l.url, "https:") ? "https" : "http");
      } else if (k->status() == LinkRecord::QUEUED) {
        const FrontierState queued = StateOf(*k);
        FrontierState merged = strategy_->Merge(queued, l.state);
        if (merged == queued && k->depth() <= child_depth) continue;
        LinkRecord u = *k;
        SetState(merged, &u);
        AddQueuedScore(merged.score - queued.score);
        u.set_depth(std::min(k->depth(), child_depth));
        batch.Put(u, &*k);
      }
    }
  }

  HostState& h = Host(storage::HostKey(task.record.url()));
  if (fetched) {
    ++pages_total_;
    ++summary_.pages_fetched;
    ++h.pages_fetched;
    if (!error.empty()) ++summary_.errors;
    if (o.relevance.has_value() &&
        *o.relevance >= options_.on_topic_threshold) {
      ++summary_.on_topic;
    }
    h.record.set_pages_fetched(h.pages_fetched);
    batch.PutHost(h.record);
    batch.PutGlobal(kGlobalPagesFetched, absl::StrCat(pages_total_));
  }
  --pages_in_flight_;
  --h.pages_in_flight;
  if (cluster_ != nullptr) {
    if (!fetched) cluster_->ReturnPage();
    cluster_->PageDone(done, fetched, o.relevance, error);
  }
  if (strategy_->sequence() != 0) {
    batch.PutGlobal(kGlobalSequence, absl::StrCat(strategy_->sequence()));
  }
  if (fetched && pages_total_ % kModelSaveEvery == 0) {
    if (std::string m = strategy_->SaveModel(); !m.empty()) {
      batch.PutGlobal(kGlobalModel, m);
    }
  }

  // Logs first, then the database: a crash between the two logs a page
  // twice (it is fetched again) instead of losing it.
  if (fetched) {
    if (absl::Status s = LogFetch(task, r, o.body_bytes, o.relevance, error);
        !s.ok()) {
      return s;
    }
    if (o.parsed) {
      PageRecord p;
      p.url = done.final_url();
      p.title = o.title;
      p.main_text = o.main_text;
      p.relevance = o.relevance;
      p.fetched_at = task.started;
      if (absl::Status s = log_->AppendPage(p); !s.ok()) return s;
    }
  }
  if (absl::Status s = db_->Commit(std::move(batch)); !s.ok()) return s;
  // Hosts whose queue head changed are re-ranked.
  for (const std::string& key : db_->TakeChangedHosts()) {
    Refresh(Host(key), now);
  }
  Refresh(h, now);
  return absl::OkStatus();
}

// ------------------------------------------------------------ parse pool

void Crawler::Impl::StartPool(int threads) {
  for (int i = 0; i < threads; ++i) pool_.emplace_back([this] { PoolLoop(); });
}

void Crawler::Impl::StopPool() {
  {
    absl::MutexLock lock(&pool_mu_);
    pool_stop_ = true;
  }
  for (std::thread& t : pool_) t.join();
  pool_.clear();
}

void Crawler::Impl::PoolLoop() {
  while (true) {
    ParseJob job;
    {
      absl::MutexLock lock(&pool_mu_);
      pool_mu_.Await(absl::Condition(
          +[](Impl* self) ABSL_EXCLUSIVE_LOCKS_REQUIRED(self->pool_mu_) {
            return self->pool_stop_ || !self->jobs_.empty();
          },
          this));
      if (jobs_.empty()) return;  // stopping
      job = std::move(jobs_.front());
      jobs_.pop_front();
    }
    ParseOutcome o = Parse(std::move(job));
    absl::MutexLock lock(&pool_mu_);
    outcomes_.push_back(std::move(o));
  }
}

ParseOutcome Crawler::Impl::Parse(ParseJob job) {
  ParseOutcome o;
  o.task = std::move(job.task);
  o.problems = std::move(job.problems);
  FetchResult& r = job.result;
  const std::string page_url = r.url.empty() ? o.task.url : r.url;
  if (std::string bad = UnknownMetaCharset(r.body); !bad.empty()) {
    o.problems.push_back(absl::StrCat("unknown charset '", bad,
                                      "' in <meta>; detected instead"));
  }
  if (std::string bad = UnknownDeclaredCharset(r.content_type); !bad.empty()) {
    o.problems.push_back(absl::StrCat("unknown charset '", bad,
                                      "' in Content-Type; detected instead"));
  }
  o.body_bytes = static_cast<int64_t>(r.body.size());
  o.warc_status = WriteWarc(r);
  absl::StatusOr<quark::AnalyzedPage> page = [&] {
    quark::AnalyzerContext context;
    if (topic_.has_value()) context.topic_terms = topic_->terms();
    return quark::AnalyzePage(r.body, page_url, r.content_type, "",
                              page_options_, context);
  }();
  r.body.clear();
  r.body.shrink_to_fit();
  if (!page.ok()) {
    o.parse_error = page.status();
    o.result = std::move(r);
    return o;
  }
  o.parsed = true;
  if (templates_ != nullptr) {
    // Blocks the host repeats on most pages (a menu, a footer blurb, a
    // banner): flagged, so the main text, the block-aware strategies
    // (focus/strategy_internal.h EffectiveType), the learned link model and
    // QuarkRank (GraphBlock.site_template) treat them as the site's, not the
    // page's. Their type stays what Quark found: measured on the dev webs,
    // retyping them as noise or leaving their words out of the page's
    // relevance did not raise the learned strategy's harvest.
    const std::vector<bool> repeated =
        templates_->Observe(storage::HostKey(page_url), *page);
    for (size_t i = 0; i < repeated.size(); ++i) {
      if (!repeated[i]) continue;
      quark::Block& b = page->segmentation.blocks[i];
      b.site_template = true;
    }
  }
  const html::Document& doc = page->document;
  if (doc.invalid_sequences > 0) {
    o.problems.push_back(absl::StrCat(
        "charset ", doc.charset, " (", doc.charset_source,
        "): ", doc.invalid_sequences, " invalid byte sequences replaced"));
  }
  for (const std::string& w : doc.warnings) o.problems.push_back(w);
  o.title = doc.title;
  o.keywords = doc.keywords;
  o.description = doc.description;
  o.media = doc.has_media;
  o.main_text = quark::MainContent(page->segmentation);

  proto::Page p = quark::ToProto(*page);
  for (proto::Block& b : *p.mutable_blocks()) b.clear_text();
  o.stored.set_relevance(0);

  FetchedPage fp;
  fp.page = &*page;
  fp.state = StateOf(o.task.record);
  fp.url = o.task.record.url();
  fp.final_url = page_url;
  fp.parent_url = o.task.record.parent_url();
  fp.depth = o.task.record.depth();
  fp.physical_layer = o.task.record.physical_layer();
  fp.has_media = doc.has_media;
  if (topic_.has_value()) {
    std::vector<std::string> tokens;
    std::string text;
    for (const quark::Block& b : page->segmentation.blocks) {
      absl::StrAppend(&text, b.text, "\n");
    }
    tokens = topic_->Terms(topic_->tokenizer().Tokenize(text));
    df_->AddDocument(tokens);
    o.relevance = topic_->SimilarityOfTerms(tokens);
    fp.relevance = *o.relevance;
    fp.coverage = topic_->BooleanSimilarityOfTerms(tokens);
    o.stored.set_relevance(*o.relevance);
  }
  std::vector<ScoredLink> scored = strategy_->ScoreLinks(fp);

  // Canonical URLs, scope, depth and the per-page cap; a URL offered twice
  // (e.g. two session ids of one page) keeps the merged state.
  const int max_depth = config_.budget().max_depth();
  const int child_depth = o.task.record.depth() + 1;
  const size_t max_links = config_.scope().max_links_per_page();
  absl::flat_hash_map<std::string, size_t> index;
  if (max_depth == 0 || child_depth <= max_depth) {
    for (const ScoredLink& s : scored) {
      if (s.link < 0 || static_cast<size_t>(s.link) >= doc.links.size())
        continue;
      const html::Link& link = doc.links[s.link];
      if (!link.resolved) continue;
      std::optional<url::Url> u = Canonical(link.url);
      if (!u.has_value() || !InScope(u->host())) continue;
      if (u->spec() == page_url || u->spec() == o.task.record.url()) continue;
      auto [it, inserted] = index.try_emplace(u->spec(), o.links.size());
      if (!inserted) {
        OutLink& l = o.links[it->second];
        l.state = strategy_->Merge(l.state, s.state);
        continue;
      }
      if (o.links.size() >= max_links) {
        index.erase(it);
        break;
      }
      OutLink l;
      l.url = u->spec();
      l.host = storage::HostKey(l.url);
      l.state = s.state;
      l.anchor = link.anchor_text.substr(0, 512);
      l.physical_layer = PhysicalLayer(*u);
      if (s.link < p.links_size()) {
        const int32_t block = p.links(s.link).block();
        if (block >= 0 && block < p.blocks_size()) {
          l.block = p.blocks(block).type();
        }
      }
      o.links.push_back(std::move(l));
    }
  }
  *o.stored.mutable_page() = std::move(p);
  o.result = std::move(r);
  return o;
}

absl::Status Crawler::Impl::DrainOutcomes() {
  std::deque<ParseOutcome> ready;
  {
    absl::MutexLock lock(&pool_mu_);
    ready.swap(outcomes_);
  }
  for (ParseOutcome& o : ready) {
    --jobs_outstanding_;
    if (absl::Status s = ApplyOutcome(std::move(o)); !s.ok()) return s;
  }
  return absl::OkStatus();
}

void Crawler::Impl::Progress(absl::Time now, bool final) {
  if (options_.progress == nullptr) return;
  if (!final && now - last_progress_ < options_.progress_interval) return;
  const double dt = last_progress_ == absl::InfinitePast()
                        ? absl::ToDoubleSeconds(now - start_)
                        : absl::ToDoubleSeconds(now - last_progress_);
  const double rate =
      dt > 0 ? (summary_.pages_fetched - last_progress_pages_) / dt : 0;
  last_progress_ = now;
  last_progress_pages_ = summary_.pages_fetched;
  const storage::LinkDbStats st = db_->stats();
  const double on_topic =
      summary_.pages_fetched > 0
          ? 100.0 * summary_.on_topic / summary_.pages_fetched
          : 0;
  absl::FPrintF(options_.progress,
                "%s%lld pages fetched (%lld in all runs), %.1f pages/s, "
                "on-topic %.1f%%, queue %lld, in flight %zu, errors %lld\n",
                final ? "done: " : "",
                static_cast<long long>(summary_.pages_fetched),
                static_cast<long long>(pages_total_), rate, on_topic,
                static_cast<long long>(st.queued),
                fetcher_ != nullptr ? fetcher_->in_flight() : size_t{0},
                static_cast<long long>(summary_.errors));
  std::fflush(options_.progress);
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
    if (!stop_starting && QueueMeanTooLow()) {
      stop_starting = true;
      reason = "mean score of the queue below the strategy's minimum";
    }
    if (absl::Status s = DrainOutcomes(); !s.ok()) return s;
    if (absl::Status s = ApplyRescores(); !s.ok()) return s;
    for (const std::string& key : db_->TakeChangedHosts()) {
      Refresh(Host(key), now);
    }
    WakeWaiting(now);
    if (cluster_ != nullptr) {
      if (absl::Status s = cluster_->Service(*this, Idle()); !s.ok()) return s;
      for (const std::string& key : db_->TakeChangedHosts()) {
        Refresh(Host(key), now);
      }
    }
    const bool paused = cluster_ != nullptr && cluster_->Paused();
    if (!stop_starting && !paused) {
      if (absl::Status s = StartTransfers(now); !s.ok()) return s;
    }
    if (cluster_ == nullptr && fetcher_->in_flight() == 0 &&
        jobs_outstanding_ == 0) {
      if (stop_starting) break;
      if (ready_.empty()) {
        // Anything still waiting for its delay keeps the crawl alive.
        bool waiting = false;
        while (!waiting_.empty()) {
          auto [t, key] = waiting_.top();
          HostState& h = *hosts_[key];
          if (h.waiting_until == t && Eligible(h)) {
            waiting = true;
            break;
          }
          waiting_.pop();
        }
        if (!waiting && strategy_->min_fetch_share() > 0 &&
            db_->stats().queued > 0) {
          // The share threshold follows the best queued score, which fell
          // since these hosts were last looked at: look again. The host
          // holding the best URL always passes.
          for (const auto& [host, score] : db_->QueuedHosts()) {
            Refresh(Host(host), now);
          }
          if (!ready_.empty()) continue;
        }
        if (!waiting) {
          // URLs left queued are below the strategy's threshold, or on
          // hosts whose page budget is spent ("frontier empty": nothing
          // left that may be fetched).
          const bool thresholded =
              strategy_->min_fetch_score() >
                  -std::numeric_limits<double>::infinity() &&
              db_->stats().queued > 0;
          reason = BudgetReached() ? "budget"
                   : thresholded   ? "no queued URL above the strategy's "
                                     "threshold"
                                   : "frontier empty";
          break;
        }
      }
    }
    // A cluster worker also waits for links and hosts from its peers.
    absl::Duration timeout = absl::Milliseconds(cluster_ != nullptr ? 20 : 100);
    // curl cannot wake up for a parsed page: poll it briefly then.
    if (jobs_outstanding_ > 0 && fetcher_->in_flight() > 0) {
      timeout = absl::Milliseconds(2);
    }
    if (!waiting_.empty()) {
      timeout = std::min(
          timeout, std::max(absl::ZeroDuration(), waiting_.top().first - now));
    }
    if (fetcher_->in_flight() == 0) {
      // Nothing to wait on in curl: wait for a parsed page or the timeout.
      absl::MutexLock lock(&pool_mu_);
      pool_mu_.AwaitWithTimeout(
          absl::Condition(
              +[](std::deque<ParseOutcome>* q) { return !q->empty(); },
              &outcomes_),
          timeout);
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
  StopPool();
  if (absl::Status s = DrainOutcomes(); !s.ok()) return s;
  {
    absl::MutexLock lock(&pool_mu_);
    jobs_.clear();
  }
  fetcher_.reset();
  if (std::string m = strategy_->SaveModel(); !m.empty()) {
    storage::LinkBatch batch;
    batch.PutGlobal(kGlobalModel, m);
    if (absl::Status s = db_->Commit(std::move(batch)); !s.ok()) return s;
  }
  if (absl::Status s = log_->Sync(); !s.ok()) return s;
  if (absl::Status s = warc_->Close(); !s.ok()) return s;
  if (absl::Status s = db_->Flush(); !s.ok()) return s;
  summary_.seconds = absl::ToDoubleSeconds(absl::Now() - start_);
  summary_.pages_fetched_total = pages_total_;
  summary_.queued = db_->stats().queued;
  summary_.held_by_order = held_by_order_;
  summary_.stop_reason = reason;
  Progress(absl::Now(), true);
  return summary_;
}

// ------------------------------------------------------------- cluster

bool Crawler::Impl::Idle() {
  if (fetcher_->in_flight() > 0 || jobs_outstanding_ > 0 || !ready_.empty()) {
    return false;
  }
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

absl::Status Crawler::Impl::AddLinks(const std::vector<LinkRecord>& records) {
  storage::LinkBatch batch;
  const int64_t now_ms = absl::ToUnixMillis(absl::Now());
  const int max_depth = config_.budget().max_depth();
  // A URL routed twice in one batch: the second merges into the first.
  absl::flat_hash_map<std::string, LinkRecord> added;
  for (const LinkRecord& in : records) {
    std::optional<url::Url> u = Canonical(in.url());
    if (!u.has_value()) continue;
    const std::string url = u->spec();
    const bool seed = in.depth() == 0 && in.parent_url().empty();
    if (!seed && max_depth > 0 && in.depth() > max_depth) continue;
    if (settled_.contains(url_hash_(url))) continue;
    std::optional<LinkRecord> k;
    if (auto it = added.find(url); it != added.end()) {
      k = it->second;
    } else {
      absl::StatusOr<std::optional<LinkRecord>> known = db_->Get(url);
      if (!known.ok()) return known.status();
      k = std::move(*known);
    }
    if (!k.has_value()) {
      LinkRecord n;
      if (seed) {
        n = SeedRecord(*u, now_ms);
      } else {
        n = in;
        n.set_url(url);
        n.set_status(LinkRecord::QUEUED);
        AddQueuedScore(n.link_score());
      }
      batch.Put(n, nullptr);
      added[url] = n;
      Host(storage::HostKey(url), std::string(u->scheme()));
    } else if (k->status() == LinkRecord::QUEUED) {
      const FrontierState queued = StateOf(*k);
      const FrontierState merged =
          seed ? queued : strategy_->Merge(queued, StateOf(in));
      const int depth = std::min(k->depth(), in.depth());
      if (merged == queued && k->depth() <= depth) continue;
      LinkRecord m = *k;
      SetState(merged, &m);
      AddQueuedScore(merged.score - queued.score);
      m.set_depth(depth);
      batch.Put(m, &*k);
      added[url] = m;
    } else {
      settled_.insert(url_hash_(url));
    }
  }
  if (batch.empty()) return absl::OkStatus();
  return db_->Commit(std::move(batch));
}

absl::Status Crawler::Impl::ApplyRescores() {
  // Bounded per loop turn so a large re-score does not stall fetching.
  constexpr size_t kMaxPerTurn = 4096;
  std::vector<std::pair<std::string, double>> rescored =
      strategy_->TakeRescores(kMaxPerTurn);
  if (rescored.empty()) return absl::OkStatus();
  std::vector<std::string> urls;
  urls.reserve(rescored.size());
  for (const auto& [url, score] : rescored) urls.push_back(url);
  absl::StatusOr<std::vector<std::optional<LinkRecord>>> known =
      db_->GetMany(urls);
  if (!known.ok()) return known.status();
  storage::LinkBatch batch;
  for (size_t i = 0; i < urls.size(); ++i) {
    const std::optional<LinkRecord>& k = (*known)[i];
    if (!k.has_value() || k->status() != LinkRecord::QUEUED) continue;
    const double score = rescored[i].second;
    if (!std::isfinite(score) || score == k->link_score()) continue;
    LinkRecord m = *k;
    FrontierState state = StateOf(*k);
    AddQueuedScore(score - state.score);
    state.score = score;
    SetState(state, &m);
    batch.Put(m, &*k);
  }
  if (batch.empty()) return absl::OkStatus();
  return db_->Commit(std::move(batch));
}

absl::Status Crawler::Impl::ApplyRanks(
    const std::vector<std::pair<std::string, double>>& ranks, int64_t* applied,
    int64_t* requeued) {
  *applied = 0;
  *requeued = 0;
  // A URL ranked twice in one call: the last rank wins.
  absl::flat_hash_map<std::string, double> wanted;
  std::vector<std::string> urls;
  for (const auto& [spec, rank] : ranks) {
    if (!std::isfinite(rank) || rank < 0) continue;
    std::optional<url::Url> u = Canonical(spec);
    if (!u.has_value()) continue;
    auto [it, added] = wanted.insert_or_assign(u->spec(), rank);
    if (added) urls.push_back(it->first);
  }
  if (urls.empty()) return absl::OkStatus();
  absl::StatusOr<std::vector<std::optional<LinkRecord>>> known =
      db_->GetMany(urls);
  if (!known.ok()) return known.status();
  storage::LinkBatch batch;
  int64_t n_applied = 0, n_requeued = 0;
  for (size_t i = 0; i < urls.size(); ++i) {
    const std::optional<LinkRecord>& k = (*known)[i];
    // A fetch under way writes its record back when it ends; the rank of a
    // page being fetched no longer matters to the frontier.
    if (!k.has_value() || k->status() == LinkRecord::IN_FLIGHT) continue;
    const double rank = wanted[urls[i]];
    ++n_applied;
    LinkRecord m = *k;
    m.set_ranker_rank(rank);
    bool changed = k->ranker_rank() != rank;
    if (k->status() == LinkRecord::QUEUED) {
      const FrontierState queued = StateOf(*k);
      if (std::optional<FrontierState> s =
              strategy_->WithRank(urls[i], queued, rank);
          s.has_value()) {
        SetState(*s, &m);
        AddQueuedScore(s->score - queued.score);
        ++n_requeued;
        changed = true;
      }
    }
    if (!changed) continue;
    batch.Put(m, &*k);
  }
  if (!batch.empty()) {
    if (absl::Status s = db_->Commit(std::move(batch)); !s.ok()) return s;
  }
  *applied = n_applied;
  *requeued = n_requeued;
  return absl::OkStatus();
}

absl::Status Crawler::Impl::AddHost(const std::string& host,
                                    const std::vector<LinkRecord>& records,
                                    const proto::HostRecord* host_record,
                                    const std::string& site_state) {
  storage::LinkBatch batch;
  std::vector<std::string> urls;
  urls.reserve(records.size());
  for (const LinkRecord& r : records) urls.push_back(r.url());
  absl::StatusOr<std::vector<std::optional<LinkRecord>>> known =
      db_->GetMany(urls);
  if (!known.ok()) return known.status();
  for (size_t i = 0; i < records.size(); ++i) {
    LinkRecord r = records[i];
    if (storage::HostKey(r.url()) != host) continue;  // not this host's
    // A fetch the old owner had under way when it died is fetched again.
    if (r.status() == LinkRecord::IN_FLIGHT) r.set_status(LinkRecord::QUEUED);
    const std::optional<LinkRecord>& k = (*known)[i];
    const bool queued = r.status() == LinkRecord::QUEUED;
    if (!k.has_value()) {
      if (queued) AddQueuedScore(r.link_score());
      batch.Put(r, nullptr);
    } else if (k->status() == LinkRecord::QUEUED) {
      if (queued) {
        const FrontierState merged = strategy_->Merge(StateOf(*k), StateOf(r));
        LinkRecord m = *k;
        SetState(merged, &m);
        m.set_depth(std::min(k->depth(), r.depth()));
        AddQueuedScore(merged.score - k->link_score());
        batch.Put(m, &*k);
      } else {
        AddQueuedScore(-k->link_score());
        batch.Put(r, &*k);
      }
    } else if (k->status() == LinkRecord::IN_FLIGHT) {
      continue;  // this worker is fetching it now
    }
    if (!queued) settled_.insert(url_hash_(r.url()));
  }
  if (host_record != nullptr && !host_record->host().empty()) {
    absl::StatusOr<std::optional<proto::HostRecord>> mine = db_->GetHost(host);
    if (!mine.ok()) return mine.status();
    if (!mine->has_value()) {
      proto::HostRecord hr = *host_record;
      hr.set_host(host);
      batch.PutHost(hr);
    }
  }
  if (!site_state.empty()) {
    absl::StatusOr<std::optional<std::string>> mine = db_->GetSiteState(host);
    if (!mine.ok()) return mine.status();
    if (!mine->has_value()) {
      if (absl::Status s = db_->PutSiteState(host, site_state); !s.ok()) {
        return s;
      }
    }
  }
  if (absl::Status s = db_->Commit(std::move(batch)); !s.ok()) return s;
  // The host's in-memory state (robots.txt, pages fetched) is read from the
  // database again when it is next used.
  if (auto it = hosts_.find(host); it != hosts_.end() && !HostBusy(host)) {
    HostState& h = *it->second;
    if (h.in_ready) ready_.erase({-h.ready_score, h.key});
    hosts_.erase(it);
  }
  Host(host);
  return absl::OkStatus();
}

bool Crawler::Impl::HostBusy(const std::string& host) {
  auto it = hosts_.find(host);
  if (it == hosts_.end()) return false;
  const HostState& h = *it->second;
  return h.busy || !h.pending.empty() || h.pages_in_flight > 0;
}

absl::Status Crawler::Impl::ReadHost(
    const std::string& host, std::vector<LinkRecord>* records,
    std::optional<proto::HostRecord>* host_record, std::string* site_state) {
  records->clear();
  absl::Status s = db_->ForEachRecord(host, [&](const LinkRecord& r) {
    records->push_back(r);
    return true;
  });
  if (!s.ok()) return s;
  absl::StatusOr<std::optional<proto::HostRecord>> hr = db_->GetHost(host);
  if (!hr.ok()) return hr.status();
  *host_record = *std::move(hr);
  absl::StatusOr<std::optional<std::string>> st = db_->GetSiteState(host);
  if (!st.ok()) return st.status();
  site_state->assign(st->has_value() ? **st : std::string());
  return absl::OkStatus();
}

absl::Status Crawler::Impl::DropHost(const std::string& host) {
  if (track_queued_scores_) {
    absl::Status s = db_->ForEachRecord(host, [&](const LinkRecord& r) {
      if (r.status() == LinkRecord::QUEUED) AddQueuedScore(-r.link_score());
      return true;
    });
    if (!s.ok()) return s;
  }
  if (absl::Status s = db_->DropHost(host); !s.ok()) return s;
  if (auto it = hosts_.find(host); it != hosts_.end() && !HostBusy(host)) {
    HostState& h = *it->second;
    if (h.in_ready) ready_.erase({-h.ready_score, h.key});
    hosts_.erase(it);
  }
  return absl::OkStatus();
}

void Crawler::Impl::RescheduleAll() {
  const absl::Time now = absl::Now();
  for (const auto& [host, score] : db_->QueuedHosts()) Host(host);
  for (auto& [key, h] : hosts_) Refresh(*h, now);
}

// ---------------------------------------------------------------- public

absl::StatusOr<InterestModel> BuildInterestModel(
    const proto::CrawlConfig& config) {
  const proto::InterestParams& m = config.strategy().interest();
  InterestModelOptions o;
  if (m.has_alpha()) o.alpha = m.alpha();
  if (m.has_beta()) o.beta = m.beta();
  if (m.has_gamma()) o.gamma = m.gamma();
  if (m.has_vocabulary_size()) o.vocabulary_size = m.vocabulary_size();
  return InterestModel::BuildFromFolders(config.topic().positive_examples_dir(),
                                         config.topic().negative_examples_dir(),
                                         o);
}

Crawler::Crawler(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Crawler::~Crawler() = default;

absl::StatusOr<std::unique_ptr<Crawler>> Crawler::Create(
    const proto::CrawlConfig& config, const CrawlerOptions& options) {
  auto impl = std::make_unique<Impl>(config, options);
  if (absl::Status s = impl->Init(); !s.ok()) return s;
  return std::unique_ptr<Crawler>(new Crawler(std::move(impl)));
}

absl::StatusOr<CrawlSummary> Crawler::Run() { return impl_->Run(); }

absl::Status DumpLinkState(const std::string& db_dir, FILE* out) {
  absl::StatusOr<std::unique_ptr<storage::LinkDb>> db =
      storage::LinkDb::OpenReadOnly(db_dir);
  if (!db.ok()) return db.status();
  google::protobuf::util::JsonPrintOptions jo;
  jo.preserve_proto_field_names = true;
  jo.always_print_primitive_fields = true;
  absl::Status write_error;
  absl::Status s = (*db)->ForEachRecord("", [&](const LinkRecord& r) {
    std::string line;
    if (!google::protobuf::util::MessageToJsonString(r, &line, jo).ok()) {
      return true;
    }
    line.push_back('\n');
    if (std::fwrite(line.data(), 1, line.size(), out) != line.size()) {
      write_error = absl::DataLossError("cannot write the dump");
      return false;
    }
    return true;
  });
  if (!s.ok()) return s;
  return write_error;
}

absl::StatusOr<std::string> ListUrlPatterns(const std::string& db_dir,
                                            const std::string& host) {
  absl::StatusOr<std::unique_ptr<storage::LinkDb>> db =
      storage::LinkDb::OpenReadOnly(db_dir);
  if (!db.ok()) return db.status();
  std::string out;
  absl::Status bad;
  auto add = [&](absl::string_view site, absl::string_view bytes) {
    proto::SiteUrlRules rules;
    if (!rules.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
      bad =
          absl::DataLossError(absl::StrCat("the stored URL patterns of ", site,
                                           " in ", db_dir, " do not parse"));
      return false;
    }
    absl::StrAppend(&out, FormatSiteRules(rules));
    return true;
  };
  if (!host.empty()) {
    const std::string key =
        storage::HostKey(absl::StrCat("http://", host, "/"));
    absl::StatusOr<std::optional<std::string>> bytes =
        (*db)->GetSiteState(key.empty() ? host : key);
    if (!bytes.ok()) return bytes.status();
    if (!bytes->has_value()) {
      return absl::NotFoundError(absl::StrCat(
          "no URL patterns stored for host '", host, "' in ", db_dir));
    }
    add(host, **bytes);
  } else {
    absl::Status s = (*db)->ForEachSiteState(add);
    if (!s.ok()) return s;
    if (out.empty() && bad.ok()) {
      return absl::NotFoundError(
          absl::StrCat("no URL patterns stored in ", db_dir));
    }
  }
  if (!bad.ok()) return bad;
  return out;
}

}  // namespace fcrawl::worker
