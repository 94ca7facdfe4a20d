// Shared by the strategy implementations (strategy.cc, hopfield.cc,
// topic_pagerank.cc, improved_shark.cc, interest_strategy.cc,
// url_rule_strategy.cc); not part of the worker's public API.
#ifndef FCRAWL_FOCUS_STRATEGY_INTERNAL_H_
#define FCRAWL_FOCUS_STRATEGY_INTERNAL_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/html.h"
#include "focus/strategy.h"
#include "focus/topic.h"
#include "quark/quark.h"

namespace fcrawl::focus::internal {

// What a strategy scores against: sim(T, ·) and the topic itself (for the
// Boolean model of anchors and URLs, [MMTOPIC] formula 4.1). With the
// SimilarityFn overload of MakeStrategy the topic is empty (its Boolean
// similarities are 0).
struct StrategyContext {
  SimilarityFn similarity;
  Topic topic = Topic::FromText("", "");
};

// A similarity outside [0, 1] (or NaN) from a custom function is clamped.
double Clamp01(double x);

// The learned strategy's soft label of a fetched page
// (LearnedOptions::label): the on-topic decision's score (judge), relevance
// min(1, relevance / relevance_scale), or coverage min(1, coverage·|T| /
// max(1, min(coverage_terms, ⌈|T|/2⌉))) for a topic of |T| terms; always in
// [0, 1].
double LearnedLabelFor(const LearnedOptions& options, size_t topic_terms,
                       const FetchedPage& page);

// The type a block-aware strategy reads (SSAPS, Hopfield-block): a block the
// site repeats on most of its pages (quark::Block::site_template, a menu
// or footer) counts as noise whatever Quark typed it, so its links are no
// evidence about the page they sit on.
inline quark::BlockType EffectiveType(const quark::Block& b) {
  return b.site_template ? quark::BlockType::kNoise : b.type;
}

// The links a crawl follows (strategy.h "Which links are candidates").
bool IsFollowedLink(const html::Document& doc, const html::Link& link);

// One distinct candidate URL of a page: its first occurrence and all of them
// (see strategy.h "Which links are candidates").
struct Candidate {
  int32_t first = 0;
  std::vector<int32_t> occurrences;
};
std::vector<Candidate> Candidates(const html::Document& doc);

// block_of[link] = index of the block listing the link, or -1.
std::vector<int32_t> BlockOfLinks(const quark::AnalyzedPage& page);

// Component-wise: the higher score carries its inherited value, the budget
// is the larger of the two.
FrontierState MaxMerge(const FrontierState& queued,
                       const FrontierState& offered);

// Strategies that order by a queue-position counter (BFS, Fish-Search, the
// URL-rule exploration phase): sequence() and RestoreSequence() as
// strategy.h describes them, and Next() for the next counter value.
class SequencedStrategy : public Strategy {
 public:
  int64_t sequence() const override {
    return counter_.load(std::memory_order_relaxed);
  }
  void RestoreSequence(int64_t last_used) override {
    int64_t cur = counter_.load(std::memory_order_relaxed);
    while (cur < last_used && !counter_.compare_exchange_weak(
                                  cur, last_used, std::memory_order_relaxed)) {
    }
  }

 protected:
  // The next counter value c (1, 2, 3, ...).
  double Next() {
    return static_cast<double>(
        counter_.fetch_add(1, std::memory_order_relaxed) + 1);
  }

 private:
  std::atomic<int64_t> counter_{0};
};

// Factories of the strategies in their own files. Options are validated.
std::unique_ptr<Strategy> MakeHopfield(const StrategyOptions& options,
                                       StrategyContext context, bool blocks);
std::unique_ptr<Strategy> MakeTopicPageRank(const StrategyOptions& options,
                                            StrategyContext context);
std::unique_ptr<Strategy> MakeImprovedShark(const StrategyOptions& options,
                                            StrategyContext context);
// InvalidArgument without options.interest.model.
absl::StatusOr<std::unique_ptr<Strategy>> MakeInterest(
    const StrategyOptions& options, StrategyContext context);
std::unique_ptr<Strategy> MakeUrlRule(const StrategyOptions& options,
                                      StrategyContext context);
std::unique_ptr<Strategy> MakeLearned(const StrategyOptions& options,
                                      StrategyContext context);

// The features of one link for the link learner (learned_strategy.cc), as
// strings: anchor words, words of the target URL (and their digit-free
// shapes, "cs302" → "cs#"), its extension and path depth, same host or
// not, the link type (interest.h ClassifyLink), the type of the block the
// link sits in, that block's similarity to the topic and its first words,
// the linking page's relevance and its label, alone and crossed with the
// link type, and for a link to another host whether it stays in the page's
// registrable domain. Similarities and labels enter as buckets.
struct BlockContext {
  absl::string_view type = "none";  // quark::BlockTypeName, "none"
  double similarity = 0;            // sim(T, block text)
  std::vector<std::string> terms;   // the block's first distinct terms
};
std::vector<std::string> LinkFeatureStrings(const html::Link& link,
                                            absl::string_view page_url,
                                            const BlockContext& block,
                                            double parent_relevance,
                                            double parent_label,
                                            const Topic& topic);
// The linking page's URL as the link features read it, parsed once for all
// the page's links.
struct PageUrl {
  explicit PageUrl(absl::string_view spec);
  std::optional<url::Url> parsed;  // nullopt when it does not parse
  std::string domain;  // url::RegistrableDomain of its host ("" without one)
};
// The same with the page's URL parsed, as a page scoring all its links
// parses it once (and the link's own URL taken from html::Link::parsed).
std::vector<std::string> LinkFeatureStrings(
    const html::Link& link, const PageUrl& page, const BlockContext& block,
    double parent_relevance, double parent_label, const Topic& topic);

}  // namespace fcrawl::focus::internal

#endif  // FCRAWL_FOCUS_STRATEGY_INTERNAL_H_
