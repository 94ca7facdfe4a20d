// Crawl strategies (docs/papers.md, docs/strategies.md): one interface and
// ten strategies chosen by name in the crawl config: `bfs`, `fish`
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
// Which links are candidates: hyperlinks only (html::LinkKind kAnchor and
// kArea) that resolved to an absolute URL and do not point at the page
// itself (fragment links such as "#top" resolve to the page URL). Each
// distinct URL is offered at most once per page: `link` is its first
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
  // The share of the topic's terms the page contains (Topic::
  // BooleanSimilarityOfTerms, [MMTOPIC] formula 4.1) in [0, 1]: a page about
  // the topic tends to use many of the words that describe it, not one
  // word many times.
  double coverage = 0;
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

struct FishOptions {
  // Children of a relevant page that go to the front of the queue (in
  // document order); the rest go to the back.
  int width = 10;
  // Binary relevance: a page is relevant when relevance > threshold. De Bra
  // matches keywords; with TF-IDF cosine we read "relevant" as cos > 0.1.
  double relevance_threshold = 0.1;
};

struct SharkOptions {
  double delta = 0.5;  // δ: decay of the inherited score
  double beta = 0.8;   // β: anchor vs context in the neighbourhood score
  double gamma = 0.5;  // γ: inherited vs neighbourhood in the potential
  // Depth rule "as in Fish-Search": a page is relevant (its children get
  // budget D) when relevance > threshold. Default 0: relevant means
  // sim(T, P_S) > 0, the same test the inherited score uses.
  double relevance_threshold = 0;
};

struct SsapsOptions {
  double gamma = 0.5;             // γ: R_B of a first-level navigation link
  double w1 = 1, w2 = 1, w3 = 1;  // weights of R_p, R_B, R_A (formula 4)
  double delta = 0.3;  // δ: R > δ gives the child the full budget D
  // A navigation link is first-level when NavigationLevel(url) <= this.
  int first_level_max_depth = 1;
};

// Hopfield Net spider and the block version ([HOPFIELD-BLOCK] §4).
struct HopfieldOptions {
  double theta = 0.1;                 // θ: activation needed to be fetched
  double min_mean_activation = 0.01;  // stop when the queue's mean is lower
  // θ is a share of the best activation queued instead of an absolute
  // value, and the stop rule on the queue's mean is off: a home page barely
  // about the topic spreads activations of 0.001, which an absolute θ = 0.1
  // never lets through (focus/hopfield.cc, docs/papers.md).
  bool relative = true;
  // R_p and w_{p,i} count as at least this much, so pages and anchors
  // without topic words still spread a little activation. [0, 1]; 0 = the
  // paper.
  double spread_floor = 0.01;
  double omega_content = 0.7;  // ω_CB (block version)
  double omega_link = 0.3;     // ω_LB (block version)
};

class InterestModel;  // focus/interest.h

// Interest model with link-type prediction ([INTEREST]).
struct InterestOptions {
  // The model P = α·U + β·V + γ·W, built (or loaded) by the caller. Required
  // by "interest"; shared, immutable.
  std::shared_ptr<const InterestModel> model;
  double epsilon = 0;  // ε: a page is relevant if Rev(S, P) > ε
  // Weights of the link types in V(h) (formula 6).
  double horizontal_weight = 1.0;
  double downward_weight = 0.8;
  double upward_weight = 0.6;
  double crosswise_weight = 0.4;
  double outward_weight = 0.2;
  // Crawl scopes ([INTEREST] §4): a start page and its own budget. A URL
  // belongs to the scope whose start page's directory is the longest prefix
  // of it; URLs outside every scope are not fetched when scopes are given.
  struct Scope {
    std::string start_url;
    int64_t max_pages = 0;    // 0 = no page limit
    int64_t max_seconds = 0;  // 0 = no time limit, counted from first fetch
  };
  std::vector<Scope> scopes;
};

// Topic-PageRank, TPR ([MMTOPIC] §3.4.1).
struct TopicPageRankOptions {
  double damping = 0.8;         // d (3.6)
  double omega = 0.5;           // ω (3.7)
  double anchor_weight = 0.6;   // α (3.8)
  double url_weight = 0.4;      // β (3.8)
  double lambda = 0.85;         // λ (3.11)
  double content_weight = 0.4;  // ∂ (4.8)
};

// Improved Shark-Search ([MMTOPIC] §3.4.2).
struct ImprovedSharkOptions {
  double beta = 0.8;            // β (3.12)
  double theta = 0.5;           // θ (3.16)
  double sigma = 0.6;           // σ (3.17)
  double content_weight = 0.4;  // ∂ (4.8)
};

// What makes a page "relevant" to the URL-rule learner.
enum class UrlRuleRelevance { kTopical, kMedia, kBoth };

// URL-rule strategy ([MMTOPIC] ch. 4).
struct UrlRuleOptions {
  int min_relevant_pages = 5;   // m
  int max_distance = 4;         // d (4.3)
  int layer2_quota = 10;        // NUM_P2 (4.2)
  int max_layer = 10;           // deepest physical layer explored
  double damping = 0.85;        // d (4.6)
  double content_weight = 0.4;  // ∂ (4.8)
  // Relevant for learning: topical (relevance > relevance_threshold), media
  // (the page carries media), or both at once.
  UrlRuleRelevance learn_from = UrlRuleRelevance::kTopical;
  double relevance_threshold = 0.1;
  // URLs hit from (almost) every page of a site are template-wide: a
  // relevant URL linked from more than this share of the site's fetched
  // pages (at least 3) is left out of learning.
  double template_share = 0.8;
  // Refused URLs (spent exploration quota, no matching pattern) are
  // deferred (Admission::defer_score, below every admitted score) instead
  // of skipped, so the crawl spends its budget on them once nothing else is
  // left. false: the paper's rule, refused URLs are skipped.
  bool defer_refused = true;
  // The topic sites (HostKey form, "host" or "host:port") the crawl keeps
  // to: [MMTOPIC] §4.3.7 (1) fetches only URLs of the seed sites. Empty =
  // every site. The crawler fills in the sites of its seeds.
  std::vector<std::string> sites;
};

// What the learned strategy learns from a fetched page.
enum class LearnedLabel {
  // y = min(1, (topic terms on the page) / min(coverage_terms, ⌈|T|/2⌉)):
  // a page about the topic uses many of the words that describe it. On the
  // university dev webs this separates the topic's pages from the pages
  // around them (a course's homework pages repeat one keyword) far better
  // than the cosine does (docs/strategies.md).
  kCoverage,
  // y = min(1, relevance / relevance_scale), the cosine sim(T, page).
  kRelevance,
};

// The online link learner ("learned"; focus/learned_strategy.cc).
struct LearnedOptions {
  LinkLearnerOptions model;
  // The soft label of a fetched page; a URL whose fetch gave no page (an
  // error status, a dead host, not HTML) is y = 0.
  LearnedLabel label = LearnedLabel::kCoverage;
  int coverage_terms = 5;
  double relevance_scale = 0.15;
  // Until the model has seen this many pages its prediction is blended with
  // a Shark-Search prior (weight n / (n + prior_examples)).
  double prior_examples = 50;
  // The model's weight never exceeds this: the rest stays with the prior.
  double max_model_weight = 1.0;
  // Exploration: a bonus of up to `exploration` for links into a site
  // section (host and first directory) the model has seen few pages of,
  // exploration · 5 / (5 + pages seen there) · n0 / (n + n0), n0 =
  // prior_examples: it fades with the section's pages and the model's age.
  double exploration = 0.1;
  // Links into a section of a seed's site get seed_exploration · 2 / (2 +
  // pages seen there), which does not fade with the model's age: a seed
  // site whose home page never names the topic is still entered.
  double seed_exploration = 0.2;
  // Links whose features are kept until their page is fetched (a bounded
  // FIFO; the oldest are forgotten and their pages teach nothing).
  int max_tracked_urls = 200000;
};

struct StrategyOptions {
  int depth = 3;  // D: the depth budget of fish, shark and ssaps
  FishOptions fish;
  SharkOptions shark;
  SsapsOptions ssaps;
  HopfieldOptions hopfield;
  InterestOptions interest;
  TopicPageRankOptions topic_pagerank;
  ImprovedSharkOptions improved_shark;
  UrlRuleOptions url_rule;
  LearnedOptions learned;
  // URL-word dictionary for the Boolean model of URLs ([MMTOPIC] §4.1.2);
  // shared, may be null.
  std::shared_ptr<const text::UrlDictionary> url_dictionary;

  // InvalidArgument naming the first bad field: depth and fish.width must be
  // >= 1 and first_level_max_depth >= 0; thresholds, δ, β, γ in [0, 1]; the
  // ssaps weights, γ and δ finite and >= 0.
  absl::Status Validate() const;
};

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
  // A URL taken from the frontier that gave no page to score: its fetch
  // ended in an error status, a dead host or a body that is not parsed.
  // Parsed pages reach the strategy through ScoreLinks. Called from the
  // crawl loop, concurrently with ScoreLinks.
  virtual void ObserveUnparsed(absl::string_view url) {}
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
