#include "focus/strategy.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/html.h"
#include "core/url.h"
#include "focus/strategy_internal.h"

namespace fcrawl::focus {
namespace internal {

// A similarity outside [0, 1] (or NaN) from a custom function is clamped.
double Clamp01(double x) { return x > 0 ? std::min(x, 1.0) : 0.0; }

bool IsFollowedLink(const html::Document& doc, const html::Link& link) {
  switch (link.kind) {
    case html::LinkKind::kAnchor:
    case html::LinkKind::kArea:
    case html::LinkKind::kRefresh:
      return true;
    case html::LinkKind::kFrame:
      // An <iframe> on another host is nearly always a widget or an ad; a
      // <frame> is a part of its frameset page.
      return link.node < 0 || doc.nodes[link.node].tag != "iframe" ||
             url::HostKey(link.url) == url::HostKey(doc.url);
    default:
      return false;
  }
}

// One distinct candidate URL of a page: its first occurrence and all of them.
std::vector<Candidate> Candidates(const html::Document& doc) {
  std::vector<Candidate> out;
  absl::flat_hash_map<absl::string_view, size_t> index;
  for (size_t i = 0; i < doc.links.size(); ++i) {
    const html::Link& link = doc.links[i];
    if (!IsFollowedLink(doc, link) || !link.resolved || link.url.empty() ||
        link.url == doc.url) {
      continue;
    }
    auto [it, inserted] = index.emplace(link.url, out.size());
    if (inserted) {
      out.push_back(Candidate{static_cast<int32_t>(i), {}});
    }
    out[it->second].occurrences.push_back(static_cast<int32_t>(i));
  }
  return out;
}

// block_of[link] = index of the block listing the link, or -1.
std::vector<int32_t> BlockOfLinks(const quark::AnalyzedPage& page) {
  std::vector<int32_t> block_of(page.document.links.size(), -1);
  const auto& blocks = page.segmentation.blocks;
  for (size_t b = 0; b < blocks.size(); ++b) {
    for (int32_t l : blocks[b].links) {
      if (l >= 0 && static_cast<size_t>(l) < block_of.size() &&
          block_of[l] < 0) {
        block_of[l] = static_cast<int32_t>(b);
      }
    }
  }
  return block_of;
}

// Component-wise: the higher score carries its inherited value, the budget is
// the larger of the two.
FrontierState MaxMerge(const FrontierState& queued,
                       const FrontierState& offered) {
  FrontierState out = offered.score > queued.score ? offered : queued;
  out.depth_budget = std::max(queued.depth_budget, offered.depth_budget);
  return out;
}

}  // namespace internal

namespace {

using internal::BlockOfLinks;
using internal::Candidate;
using internal::Candidates;
using internal::Clamp01;
using internal::EffectiveType;
using internal::MaxMerge;
using internal::SequencedStrategy;

using quark::BlockType;

// Scores links per occurrence with `score_one(link, block)` (nullopt: not
// worth queueing) and merges the occurrences of one URL with `merge`.
template <typename ScoreOne>
std::vector<ScoredLink> ScorePerOccurrence(const quark::AnalyzedPage& page,
                                           const Strategy& strategy,
                                           ScoreOne score_one) {
  const std::vector<int32_t> block_of = BlockOfLinks(page);
  std::vector<ScoredLink> out;
  for (const Candidate& c : Candidates(page.document)) {
    std::optional<ScoredLink> best;
    for (int32_t l : c.occurrences) {
      std::optional<FrontierState> s = score_one(l, block_of[l]);
      if (!s.has_value()) continue;
      if (!best.has_value()) {
        best = ScoredLink{l, *s};
      } else {
        best->state = strategy.Merge(best->state, *s);
      }
    }
    if (best.has_value()) out.push_back(*best);
  }
  return out;
}

// Lazily computed sim(T, block text), one per block.
class BlockSimilarities {
 public:
  BlockSimilarities(const quark::Segmentation& seg, const SimilarityFn& sim)
      : seg_(seg), sim_(sim), cache_(seg.blocks.size()) {}
  double operator()(int32_t b) {
    if (b < 0 || static_cast<size_t>(b) >= cache_.size()) return 0;
    if (!cache_[b].has_value()) cache_[b] = Clamp01(sim_(seg_.blocks[b].text));
    return *cache_[b];
  }

 private:
  const quark::Segmentation& seg_;
  const SimilarityFn& sim_;
  std::vector<std::optional<double>> cache_;
};

// BFS: FIFO. Every child goes to the back: score −c.
class BfsStrategy final : public SequencedStrategy {
 public:
  absl::string_view name() const override { return "bfs"; }
  FrontierState SeedState() const override {
    return FrontierState{kSeedScore, 0, 0};
  }
  std::vector<ScoredLink> ScoreLinks(const FetchedPage& page) override {
    std::vector<ScoredLink> out;
    if (page.page == nullptr) return out;
    for (const Candidate& c : Candidates(page.page->document)) {
      out.push_back(ScoredLink{c.first, FrontierState{-Next(), 0, 0}});
    }
    return out;
  }
  // The entry queued first keeps its (higher) place.
  FrontierState Merge(const FrontierState& queued,
                      const FrontierState& offered) const override {
    return MaxMerge(queued, offered);
  }
};

// Fish-Search (De Bra 1994), docs/papers.md "BFS and Fish-Search".
class FishStrategy final : public SequencedStrategy {
 public:
  explicit FishStrategy(FishOptions options)
      : depth_(options.depth()), options_(std::move(options)) {}
  absl::string_view name() const override { return "fish"; }
  FrontierState SeedState() const override {
    return FrontierState{kSeedScore, 0, depth_};
  }
  std::vector<ScoredLink> ScoreLinks(const FetchedPage& page) override {
    std::vector<ScoredLink> out;
    // A page whose budget is spent spawns no children.
    if (page.page == nullptr || page.state.depth_budget <= 0) return out;
    const bool relevant = page.relevance > options_.relevance_threshold();
    const int budget = relevant ? depth_ : page.state.depth_budget - 1;
    int front = 0;
    for (const Candidate& c : Candidates(page.page->document)) {
      const double seq = Next();
      double score = -seq;  // back of the queue
      if (relevant && front < options_.width()) {
        score = seq;  // front of the queue, newest first
        ++front;
      }
      out.push_back(ScoredLink{c.first, FrontierState{score, 0, budget}});
    }
    return out;
  }
  // The better position and the larger budget.
  FrontierState Merge(const FrontierState& queued,
                      const FrontierState& offered) const override {
    return MaxMerge(queued, offered);
  }

 private:
  int depth_;
  FishOptions options_;
};

// Shark-Search (OSSA, Hersovici et al. 1998), docs/papers.md.
class SharkStrategy final : public Strategy {
 public:
  SharkStrategy(SharkOptions options, SimilarityFn sim)
      : depth_(options.depth()),
        options_(std::move(options)),
        sim_(std::move(sim)) {}
  absl::string_view name() const override { return "shark"; }
  // A seed has no ancestor: inherited 0.
  FrontierState SeedState() const override {
    return FrontierState{kSeedScore, 0, depth_};
  }
  std::vector<ScoredLink> ScoreLinks(const FetchedPage& page) override {
    if (page.page == nullptr || page.state.depth_budget <= 0) return {};
    const double relevance = Clamp01(page.relevance);
    // inherited(child) = δ·sim(T, P_S) if sim > 0 else δ·inherited(P_S).
    const double inherited = relevance > 0
                                 ? options_.delta() * relevance
                                 : options_.delta() * page.state.inherited;
    const int budget = relevance > options_.relevance_threshold()
                           ? depth_
                           : page.state.depth_budget - 1;
    const quark::AnalyzedPage& p = *page.page;
    BlockSimilarities block_sim(p.segmentation, sim_);
    return ScorePerOccurrence(
        p, *this,
        [&](int32_t l, int32_t block) -> std::optional<FrontierState> {
          const double anchor = Clamp01(sim_(p.document.links[l].anchor_text));
          // Reading: the text around the anchor is the text of the block the
          // link sits in (which includes the anchor itself).
          const double context = anchor > 0 ? 1.0 : block_sim(block);
          const double neighbourhood =
              options_.beta() * anchor + (1 - options_.beta()) * context;
          const double potential = options_.gamma() * inherited +
                                   (1 - options_.gamma()) * neighbourhood;
          return FrontierState{potential, inherited, budget};
        });
  }
  // Max potential (with its inherited score), max budget.
  FrontierState Merge(const FrontierState& queued,
                      const FrontierState& offered) const override {
    return MaxMerge(queued, offered);
  }

 private:
  int depth_;
  SharkOptions options_;
  SimilarityFn sim_;
};

// SSAPS ([SSAPS] formulas 1-4 and §3).
class SsapsStrategy final : public Strategy {
 public:
  SsapsStrategy(SsapsOptions options, SimilarityFn sim)
      : depth_(options.depth()),
        options_(std::move(options)),
        sim_(std::move(sim)) {}
  absl::string_view name() const override { return "ssaps"; }
  FrontierState SeedState() const override {
    return FrontierState{kSeedScore, 0, depth_};
  }
  std::vector<ScoredLink> ScoreLinks(const FetchedPage& page) override {
    if (page.page == nullptr) return {};
    const quark::AnalyzedPage& p = *page.page;
    const auto& blocks = p.segmentation.blocks;
    BlockSimilarities block_sim(p.segmentation, sim_);
    // Formula 1: R_p = Σ cos(B_T^i, T) + Σ cos(B_LR^j, T).
    double r_p = 0;
    for (size_t b = 0; b < blocks.size(); ++b) {
      const BlockType type = EffectiveType(blocks[b]);
      if (type == BlockType::kContent || type == BlockType::kRelatedLinks) {
        r_p += block_sim(static_cast<int32_t>(b));
      }
    }
    return ScorePerOccurrence(
        p, *this,
        [&](int32_t l, int32_t block) -> std::optional<FrontierState> {
          const html::Link& link = p.document.links[l];
          double r_b = 0, r_a = 0;
          if (block >= 0) {
            switch (EffectiveType(blocks[block])) {
              case BlockType::kNoise:    // formula 2: U_T ∈ B_LA → 0
              case BlockType::kContent:  // Reading: not a link block → 0
                break;
              case BlockType::kRelatedLinks:
                r_b = block_sim(block);                 // formula 2
                r_a = Clamp01(sim_(link.anchor_text));  // formula 3
                break;
              case BlockType::kNavigation: {
                // Formula 2: γ for a first-level navigation link (U_p);
                // Reading: other navigation links 0.
                const int level = NavigationLevel(link.url);
                if (level >= 0 && level <= options_.first_level_max_depth()) {
                  r_b = options_.gamma();
                }
                break;
              }
            }
          }
          // Formula 4.
          const double r =
              options_.w1() * r_p + options_.w2() * r_b + options_.w3() * r_a;
          const int budget =
              r > options_.delta() ? depth_ : page.state.depth_budget - 1;
          if (budget <= 0) return std::nullopt;
          return FrontierState{r, 0, budget};
        });
  }
  // Max R, max budget (§3 lines 10 and 12).
  FrontierState Merge(const FrontierState& queued,
                      const FrontierState& offered) const override {
    return MaxMerge(queued, offered);
  }

 private:
  int depth_;
  SsapsOptions options_;
  SimilarityFn sim_;
};

// The interest strategy scores with its own model, not the topic.
bool UsesTopic(absl::string_view name) {
  return name != "bfs" && name != "interest";
}

absl::StatusOr<std::unique_ptr<Strategy>> Make(
    absl::string_view name, const StrategyOptions& options,
    internal::StrategyContext context) {
  if (name == "bfs") return std::make_unique<BfsStrategy>();
  if (name == "fish") {
    return std::make_unique<FishStrategy>(options.fish);
  }
  if (name == "shark") {
    return std::make_unique<SharkStrategy>(options.shark,
                                           std::move(context.similarity));
  }
  if (name == "ssaps") {
    return std::make_unique<SsapsStrategy>(options.ssaps,
                                           std::move(context.similarity));
  }
  if (name == "hopfield" || name == "hopfield-block") {
    return internal::MakeHopfield(options, std::move(context),
                                  name == "hopfield-block");
  }
  if (name == "topic-pagerank") {
    return internal::MakeTopicPageRank(options, std::move(context));
  }
  if (name == "improved-shark") {
    return internal::MakeImprovedShark(options, std::move(context));
  }
  if (name == "interest") {
    return internal::MakeInterest(options, std::move(context));
  }
  if (name == "learned") {
    return internal::MakeLearned(options, std::move(context));
  }
  return internal::MakeUrlRule(options, std::move(context));
}

absl::Status CheckNameAndOptions(absl::string_view name,
                                 const StrategyOptions& options) {
  const auto& names = StrategyNames();
  if (std::find(names.begin(), names.end(), name) == names.end()) {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown crawl strategy '", name,
                     "'; known: ", absl::StrJoin(names, ", ")));
  }
  return options.Validate();
}

}  // namespace

const std::vector<absl::string_view>& StrategyNames() {
  static const auto* names = new std::vector<absl::string_view>{
      "bfs",      "fish",           "shark",
      "ssaps",    "hopfield",       "hopfield-block",
      "interest", "topic-pagerank", "improved-shark",
      "url-rule", "learned"};
  return *names;
}

absl::StatusOr<std::unique_ptr<Strategy>> MakeStrategy(
    absl::string_view name, const StrategyOptions& options,
    const Topic& topic) {
  if (absl::Status s = CheckNameAndOptions(name, options); !s.ok()) return s;
  if (UsesTopic(name) && topic.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("crawl strategy '", name,
                     "' needs a topic, and the topic has no terms"));
  }
  internal::StrategyContext context;
  context.similarity = [topic](absl::string_view text) {
    return topic.Similarity(text);
  };
  context.topic = topic;
  return Make(name, options, std::move(context));
}

absl::StatusOr<std::unique_ptr<Strategy>> MakeStrategy(
    absl::string_view name, const StrategyOptions& options,
    SimilarityFn similarity) {
  if (absl::Status s = CheckNameAndOptions(name, options); !s.ok()) return s;
  if (UsesTopic(name) && !similarity) {
    return absl::InvalidArgumentError(absl::StrCat(
        "crawl strategy '", name, "' needs a similarity function"));
  }
  internal::StrategyContext context;
  context.similarity = std::move(similarity);
  return Make(name, options, std::move(context));
}

int NavigationLevel(absl::string_view spec) {
  absl::StatusOr<url::Url> u = url::Parse(spec);
  if (!u.ok()) return -1;
  const std::vector<std::string> segments = u->PathSegments();
  int level = static_cast<int>(segments.size());
  const absl::string_view path = u->path();
  if (!segments.empty() && !path.empty() && path.back() != '/') {
    const std::string file = absl::AsciiStrToLower(segments.back());
    if (file == "index" || file == "default" ||
        absl::StartsWith(file, "index.") ||
        absl::StartsWith(file, "default.")) {
      --level;
    }
  }
  return level;
}

}  // namespace fcrawl::focus
