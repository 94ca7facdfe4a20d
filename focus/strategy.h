// Crawl strategies (docs/papers.md, docs/strategies.md): one interface and
// eleven strategies chosen by name in the crawl config: `learned`, the
// default (an online link classifier that also learns from fetch
// outcomes) in learned_strategy.cc; `bfs`, `fish`
// (Fish-Search), `shark` (Shark-Search), `ssaps` (Shark-Search on page
// blocks) in strategy.cc; `hopfield` and `hopfield-block` (Hopfield Net
// spider and its block version) in hopfield.cc; `topic-pagerank`,
// `improved-shark` and `url-rule` (the URL-rule thesis) in
// topic_pagerank.cc, improved_shark.cc and url_rule_strategy.cc;
// `interest` (interest model with link-type prediction) in
// interest_strategy.cc.
//
// The frontier stores one FrontierState per queued URL and serves the URL
// with the highest `score`. After a page is fetched and analysed, the caller
// computes its relevance sim(T, whole page) once (Topic::Similarity over the
// page text) and asks the strategy to score the page's out-links; for a URL
// that is already queued it stores Merge(queued, offered) instead. The caller
// never interprets a FrontierState: the strategy decides which links are
// worth queueing (depth budgets are enforced here, not by the caller).
//
// Which links are candidates: hyperlinks (html::LinkKind kAnchor and kArea),
// the documents of a frameset (<frame src>) and of an <iframe> on the page's
// own host (one on another host is nearly always a widget or an ad), and
// where a <meta http-equiv="refresh"> sends the reader (kRefresh: old sites'
// "this page has moved"), that resolved to an absolute URL and do not point
// at the page itself (fragment links such as "#top" resolve to the page URL).
// Each distinct URL is offered at most once per page: `link` is its first
// occurrence and `state` is the Merge of the states of all its occurrences.
// Whether a URL was already crawled is the frontier's business.
//
// Order through scores. BFS and Fish-Search express queue positions as
// scores: the strategy owns a counter c = 1, 2, 3, ... (one step per offered
// link); "back of the queue" is score −c (earlier = higher = served first)
// and "front of the queue" is score +c (newest first). A worker that restarts
// from its database must call RestoreSequence() with the value sequence()
// had (or with the largest |score| among its queued entries) so new entries
// keep their place.
//
// Seeds are queued with SeedState(): score kSeedScore (above every score a
// strategy gives a link, so all seeds are fetched before any discovered URL)
// and the full depth budget D.
//
// Thread-safety: ScoreLinks, Merge and the accessors may be called from many
// threads at once. The sequence counter is atomic; strategies that learn
// while crawling (topic-pagerank, improved-shark, url-rule, interest) keep
// their maps behind their own absl::Mutex; Admit and WithRank are called
// from the crawl thread only.
#ifndef FCRAWL_FOCUS_STRATEGY_H_
#define FCRAWL_FOCUS_STRATEGY_H_

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/text.h"
#include "focus/link_learner.h"
#include "focus/topic.h"
#include "proto/strategy_params.pb.h"
#include "quark/quark.h"

namespace fcrawl::focus {

// Score of a seed URL: above anything a strategy gives a discovered link.
inline constexpr double kSeedScore = std::numeric_limits<double>::max();

// Stored per queued URL.
struct FrontierState {
  double score = 0;      // the frontier serves the highest score first
  double inherited = 0;  // Shark-Search: inherited score of the URL
  int depth_budget = 0;  // Fish/Shark/SSAPS depth (unused by BFS)
  // Strategies whose score combines the contributions of every page linking
  // to the URL (Hopfield's Σ w·μ, the interest model's V(h), improved
  // Shark-Search's Σ λ·P / t, TPR's Σ TPR·P): their sum and how many pages
  // contributed. Merge adds them up and recomputes `score`.
  double sum = 0;
  int32_t count = 0;
  // A second per-URL value for strategies that keep two parts of the score
  // apart (TPR, improved Shark and URL-rule keep Content(u) here).
  double content = 0;

  friend bool operator==(const FrontierState& a, const FrontierState& b) {
    return a.score == b.score && a.inherited == b.inherited &&
           a.depth_budget == b.depth_budget && a.sum == b.sum &&
           a.count == b.count && a.content == b.content;
  }
};

struct FetchedPage {
  // Blocks (with their types and link indices) and links (absolute URLs in
  // page->document.links). Must not be null.
  const quark::AnalyzedPage* page = nullptr;
  // The state the page was queued with (seeds: Strategy::SeedState()).
  FrontierState state;
  // sim(T, whole page) in [0, 1], computed once by the caller via Topic.
  double relevance = 0;
  // The share of the topic's terms the page uses (Topic::Coverage:
  // [MMTOPIC] formula 4.1, a term counting when a long page keeps using it)
  // in [0, 1]: a page about the topic tends to use many of the words that
  // describe it, not one word many times.
  double coverage = 0;
  // The crawl's on-topic decision's score of the page in [0, 1]
  // (focus/page_judge.h), computed once by the caller.
  double topic_score = 0;
  // The URL the page was queued under and the one it was fetched from
  // (after redirects; equal when there were none), and the page that first
  // linked to it ("" for seeds).
  absl::string_view url;
  absl::string_view final_url;
  absl::string_view parent_url;
  int depth = 0;           // logical layer (clicks from a seed)
  int physical_layer = 0;  // path depth of `url` (url::PathSegments)
  bool has_media = false;  // the page carries audio/video/animation
};

struct ScoredLink {
  int32_t link = 0;  // index into page->document.links
  FrontierState state;
};

// Each strategy's options are its parameter message in
// proto/strategy_params.proto, which holds every default (an unset field
// reads as its default) and documents every range. The aliases keep the
// strategies' code in its own words.
using FishOptions = proto::FishParams;
using SharkOptions = proto::SharkParams;
using SsapsOptions = proto::SsapsParams;
// Hopfield Net spider and the block version ([HOPFIELD-BLOCK] §4).
using HopfieldOptions = proto::HopfieldParams;
// Interest model with link-type prediction ([INTEREST]).
using InterestOptions = proto::InterestParams;
// Topic-PageRank, TPR ([MMTOPIC] §3.4.1).
using TopicPageRankOptions = proto::TopicPageRankParams;
// Improved Shark-Search ([MMTOPIC] §3.4.2).
using ImprovedSharkOptions = proto::ImprovedSharkParams;
// URL-rule strategy ([MMTOPIC] ch. 4).
using UrlRuleOptions = proto::UrlRuleParams;
// The online link learner ("learned"; focus/learned_strategy.cc).
using LearnedOptions = proto::LearnedParams;

class InterestModel;  // focus/interest.h

// What makes a page "relevant" to the URL-rule learner
// (UrlRuleParams.learn_from).
enum class UrlRuleRelevance { kTopical, kMedia, kBoth };
UrlRuleRelevance LearnFrom(const UrlRuleOptions& options);

// What the learned strategy learns from a fetched page (LearnedParams.label).
enum class LearnedLabel { kJudge, kCoverage, kRelevance };
LearnedLabel Label(const LearnedOptions& options);

struct StrategyOptions {
  FishOptions fish;
  SharkOptions shark;
  SsapsOptions ssaps;
  HopfieldOptions hopfield;
  InterestOptions interest;
  TopicPageRankOptions topic_pagerank;
  ImprovedSharkOptions improved_shark;
  UrlRuleOptions url_rule;
  LearnedOptions learned;

  // What the caller builds for a crawl, not settings:
  // The interest model P = α·U + β·V + γ·W (focus/interest.h), built or
  // loaded by the caller. Required by "interest"; shared, immutable.
  std::shared_ptr<const InterestModel> interest_model;
  // The topic sites (HostKey form, "host" or "host:port") the url-rule
  // crawl keeps to: [MMTOPIC] §4.3.7 (1) fetches only URLs of the seed
  // sites. Empty = every site. The crawler fills in the sites of its seeds.
  std::vector<std::string> sites;
  // URL-word dictionary for the Boolean model of URLs ([MMTOPIC] §4.1.2);
  // shared, may be null.
  std::shared_ptr<const text::UrlDictionary> url_dictionary;

  // InvalidArgument naming the first bad field (ValidateStrategyParams).
  absl::Status Validate() const;
};

// One problem of a strategy parameter: its field path below the strategy
// message ("shark.delta") and what is wrong (": 1.5 is outside [0, 1]").
struct ParamError {
  std::string field;
  std::string problem;
};
// Every out-of-range or unknown value in the parameter messages, in field
// order; empty when all are fine. The ranges are those of
// proto/strategy_params.proto. The crawl config's validation
// (formats/crawl_config.h) and StrategyOptions::Validate both use it.
std::vector<ParamError> ValidateStrategyParams(const StrategyOptions& options);
// The same for the on-topic decision's parameters (focus/page_judge.h);
// fields are named below the judge message ("c", "threshold").
std::vector<ParamError> ValidateJudgeParams(const proto::JudgeParams& params);

// sim(T, text) in [0, 1]. Production: Topic::Similarity.
using SimilarityFn = std::function<double(absl::string_view text)>;

// Per-site state a strategy keeps across restarts (the URL-rule strategy's
// learned patterns and counts), stored by the caller in the worker's
// database. Implementations are thread-safe.
class SiteStore {
 public:
  virtual ~SiteStore() = default;
  // The bytes last saved for `host`, nullopt if none.
  virtual absl::StatusOr<std::optional<std::string>> Load(
      absl::string_view host) = 0;
  virtual absl::Status Save(absl::string_view host,
                            absl::string_view bytes) = 0;
};

// Whether a URL taken from the frontier is fetched (Strategy::Admit).
struct Admission {
  bool fetch = true;
  std::string reason;  // why not, recorded with the SKIPPED URL
  // Not now, later: the caller queues the URL again with this score (below
  // what the strategy admits) instead of skipping it, and asks again when
  // it comes back. Set only when fetch is false.
  std::optional<double> defer_score;

  // Not fetched, recorded SKIPPED with `reason`.
  static Admission Skip(std::string reason) {
    Admission a;
    a.fetch = false;
    a.reason = std::move(reason);
    return a;
  }
};

// A folder of a site, as the fetch-outcome model counts it
// (focus/outcome_model.h): fetches under it, those that gave a page to
// read, and the model's P(page) for a new link into it.
struct FolderOutcome {
  std::string folder;  // host and path, "cs.example.edu/courses/cs302/"
  int64_t fetches = 0;
  int64_t pages = 0;
  double page_probability = 0;
};

class Strategy {
 public:
  virtual ~Strategy() = default;

  virtual absl::string_view name() const = 0;
  // The state a seed URL is queued with.
  virtual FrontierState SeedState() const = 0;
  // The out-links of `page` worth queueing, with their states, in document
  // order of their first occurrence.
  virtual std::vector<ScoredLink> ScoreLinks(const FetchedPage& page) = 0;
  // The state to keep when `offered` is computed for a URL that is already
  // queued with `queued`.
  virtual FrontierState Merge(const FrontierState& queued,
                              const FrontierState& offered) const = 0;

  // The queue-position counter (BFS, Fish-Search; 0 for the others): the
  // last value used. RestoreSequence(s) makes the next value s + 1 (it never
  // moves the counter back).
  virtual int64_t sequence() const { return 0; }
  virtual void RestoreSequence(int64_t last_used) {}

  // Frontier hooks. The caller asks Admit() for each URL it takes from the
  // frontier, just before fetching it (URL-rule: the per-layer exploration
  // quota, then only URLs a learned pattern matches; interest: scope
  // budgets); a refused URL is recorded SKIPPED with the reason, or queued
  // again with Admission::defer_score when the strategy defers it. Called
  // from one thread (the crawl loop), concurrently with ScoreLinks.
  virtual Admission Admit(absl::string_view url, int physical_layer,
                          const FrontierState& state) {
    return {};
  }
  // URLs scoring below this are not fetched (Hopfield's θ): a host whose
  // best queued URL is below it waits until a link raises it.
  virtual double min_fetch_score() const {
    return -std::numeric_limits<double>::infinity();
  }
  // The same as a share of the best score queued on any host (Hopfield's θ
  // in relative mode): a host whose best URL scores below share·best waits.
  // The best URL always passes, so this never ends a crawl. 0 = no share
  // rule. Used only while the best queued score is positive.
  virtual double min_fetch_share() const { return 0; }
  // The crawl ends when the mean score of the queued URLs falls below this
  // (Hopfield's min_mean_activation); -inf = never.
  virtual double min_mean_queued_score() const {
    return -std::numeric_limits<double>::infinity();
  }
  // Ranking feedback (the coordinator's PushRanks): the state queued `url`
  // takes once a ranking of the crawl so far gave it rank `rank`, in the
  // mean-1 scale R = N·score (1 is the average page). nullopt: the strategy
  // does not use link ranks (the default), or the state stays as it is.
  // Seeds keep their state. Called from the crawl loop, concurrently with
  // ScoreLinks.
  virtual std::optional<FrontierState> WithRank(absl::string_view url,
                                                const FrontierState& queued,
                                                double rank) {
    return std::nullopt;
  }
  // Strategies whose scores change after a URL was queued (a learner that
  // learned since): new scores for queued URLs, at most `max` per call, in
  // no particular order. The caller stores each for a URL that is still
  // QUEUED and ignores the others. Called from the crawl loop, concurrently
  // with ScoreLinks.
  virtual std::vector<std::pair<std::string, double>> TakeRescores(size_t max) {
    return {};
  }
  // What a learning strategy learned (the `learned` strategy's link model),
  // as bytes the worker keeps in its database and hands back to
  // RestoreModel after a restart; "" for strategies that learn nothing
  // worth keeping. Called from the crawl loop.
  virtual std::string SaveModel() { return ""; }
  // InvalidArgument when the bytes are not a model this strategy can use
  // (the worker then starts with a fresh one and says so).
  virtual absl::Status RestoreModel(absl::string_view bytes) {
    return absl::OkStatus();
  }
  // In a cluster a link found on one worker is queued on another (the owner
  // of its host). LinkContext gives what the finder's strategy knows of the
  // link beyond its FrontierState (the learned strategy: the link's
  // features), as bytes of at most kMaxLinkContextBytes, "" for nothing;
  // the owner's strategy takes them with AdoptLinkContext, so it can learn
  // from the link when it fetches the page. AdoptLinkContext gets untrusted
  // bytes: InvalidArgument for bytes it cannot use (the link stays queued
  // without them). Both are called from the crawl loop, concurrently with
  // ScoreLinks.
  static constexpr size_t kMaxLinkContextBytes = 4096;
  virtual std::string LinkContext(absl::string_view url) { return ""; }
  virtual absl::Status AdoptLinkContext(absl::string_view url,
                                        absl::string_view bytes) {
    return absl::OkStatus();
  }
  // In a cluster every worker's learning strategy learns from the pages of
  // the whole crawl, not only from its own hosts' ones. TakeLessons gives
  // what this strategy learned from its own pages since the last call (the
  // learned strategy: each training step's features and label), as bytes
  // of at most kMaxLessonBytes, "" for nothing; the coordinator relays
  // them to the other workers, whose strategies apply them with
  // LearnLessons. Lessons are kept only once TakeLessons has been called
  // (a standalone crawl keeps none), at most kMaxPendingLessons of them
  // (the oldest are dropped). LearnLessons gets untrusted bytes:
  // InvalidArgument for bytes it cannot use, nothing applied then. Both are
  // called from the crawl loop, concurrently with ScoreLinks.
  static constexpr size_t kMaxLessonBytes = 256 << 10;
  static constexpr size_t kMaxPendingLessons = 4096;
  virtual std::string TakeLessons() { return ""; }
  virtual absl::Status LearnLessons(absl::string_view bytes) {
    return absl::OkStatus();
  }
  // A URL taken from the frontier that gave no page to score: its fetch
  // ended in an error status, a dead host or a body that is not parsed.
  // Parsed pages reach the strategy through ScoreLinks. Called from the
  // crawl loop, concurrently with ScoreLinks.
  virtual void ObserveUnparsed(absl::string_view url) {}
  // What a strategy that learns from fetch outcomes (`learned`) has seen
  // fail: the folders in which a fetch of this process gave no page (at
  // most a few thousand, the first ones), with their counts, in no
  // particular order; empty for the others. For people (the cluster's
  // /status page): which parts of which sites answer 404 and how much
  // that now weighs on their links. Called from any thread.
  virtual std::vector<FolderOutcome> DeadFolders() { return {}; }
  // Gives the strategy its per-site store (before the first ScoreLinks).
  // Strategies that keep per-site state load it lazily from there.
  virtual absl::Status AttachSiteStore(SiteStore* store) {
    return absl::OkStatus();
  }
};

// Any name of StrategyNames(). Errors (InvalidArgument): an unknown
// name (the message names it and lists the known ones), options that fail
// Validate(), and an empty topic for the strategies that use it. The
// strategy keeps a copy of `topic` (which shares its statistics).
absl::StatusOr<std::unique_ptr<Strategy>> MakeStrategy(
    absl::string_view name, const StrategyOptions& options, const Topic& topic);

// The same with any similarity function (tests; callers that cache
// similarities). `similarity` must be callable from many threads at once.
absl::StatusOr<std::unique_ptr<Strategy>> MakeStrategy(
    absl::string_view name, const StrategyOptions& options,
    SimilarityFn similarity);

// The known names, in the order of MakeStrategy's error message.
const std::vector<absl::string_view>& StrategyNames();

// Navigation level of a URL for SSAPS's "first-level navigation link"
// ([SSAPS] §2.2.2, U_p). Reading: the number of non-empty path segments,
// where a final "index.*" or "default.*" file does not count (it is its
// directory's page); the query is ignored. "/" → 0, "/physics/" → 1,
// "/physics/index.html" → 1, "/stock.shtml" → 1, "/physics/a.html" → 2.
// -1 when `url` is not an absolute http(s) URL.
int NavigationLevel(absl::string_view url);

}  // namespace fcrawl::focus

#endif  // FCRAWL_FOCUS_STRATEGY_H_
