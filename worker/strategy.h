// Crawl strategies (DESIGN.md "Crawl strategies"; ALGORITHMS.md
// "Strategies"): BFS, Fish-Search, Shark-Search (OSSA) and Shark-Search on
// page blocks (SSAPS, seed 001).
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
// threads at once (the counter is atomic; nothing else is mutable).
#ifndef FCRAWL_WORKER_STRATEGY_H_
#define FCRAWL_WORKER_STRATEGY_H_

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "quark/quark.h"
#include "worker/topic.h"

namespace fcrawl::worker {

// Score of a seed URL: above anything a strategy gives a discovered link.
inline constexpr double kSeedScore = std::numeric_limits<double>::max();

// Stored per queued URL.
struct FrontierState {
  double score = 0;      // the frontier serves the highest score first
  double inherited = 0;  // Shark-Search: inherited score of the URL
  int depth_budget = 0;  // Fish/Shark/SSAPS depth (unused by BFS)

  friend bool operator==(const FrontierState& a, const FrontierState& b) {
    return a.score == b.score && a.inherited == b.inherited &&
           a.depth_budget == b.depth_budget;
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

struct StrategyOptions {
  int depth = 3;  // D: the depth budget of fish, shark and ssaps
  FishOptions fish;
  SharkOptions shark;
  SsapsOptions ssaps;

  // InvalidArgument naming the first bad field: depth and fish.width must be
  // >= 1 and first_level_max_depth >= 0; thresholds, δ, β, γ in [0, 1]; the
  // ssaps weights, γ and δ finite and >= 0.
  absl::Status Validate() const;
};

// sim(T, text) in [0, 1]. Production: Topic::Similarity.
using SimilarityFn = std::function<double(absl::string_view text)>;

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
};

// "bfs", "fish", "shark" or "ssaps". Errors (InvalidArgument): an unknown
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
// (seed 001 §2.2.2, U_p). Reading: the number of non-empty path segments,
// where a final "index.*" or "default.*" file does not count (it is its
// directory's page); the query is ignored. "/" → 0, "/physics/" → 1,
// "/physics/index.html" → 1, "/stock.shtml" → 1, "/physics/a.html" → 2.
// -1 when `url` is not an absolute http(s) URL.
int NavigationLevel(absl::string_view url);

}  // namespace fcrawl::worker

#endif  // FCRAWL_WORKER_STRATEGY_H_
