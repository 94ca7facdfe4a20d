// Improved Shark-Search ([MMTOPIC] §3.4.2; docs/papers.md "Improved
// Shark-Search"), and the helpers it shares with Topic-PageRank
// (mmtopic_scores.h).
//
// A queued URL u keeps, in its FrontierState:
//   content = Content(u) (3.12), the best over the pages that offered it;
//   sum     = Σ_j λ(d_j)·P(d_j) over its fetched parents d_j (3.15);
//   count   = t, the number of those parents;
//   score   = S = ∂·Content(u) + (1−∂)·Structure(u), Structure = sum / t
//             (4.8).
// Merge adds the parents' contributions, so Structure(u) is the mean of
// formula 3.15 over every fetched page that linked to u.
//
// λ(d_j) (3.16) and P(d_j) (3.17) depend on d_j's crawled children. The
// strategy keeps them in memory: a bounded map from a page to its children's
// statistics (n, n', Σ P), updated when a child is fetched (FetchedPage::
// parent_url names the child's first parent).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/hash/hash.h"
#include "absl/strings/string_view.h"
#include "core/html.h"
#include "core/text.h"
#include "focus/mmtopic_scores.h"
#include "focus/strategy.h"
#include "focus/strategy_internal.h"
#include "focus/topic.h"
#include "quark/quark.h"

namespace fcrawl::focus::internal {
namespace mmtopic {

namespace {

double NonNegativeOr0(double x) { return x > 0 ? x : 0.0; }

}  // namespace

double AnchorScore(const Topic& topic, absl::string_view anchor_text) {
  if (topic.empty() || anchor_text.empty()) return 0;
  return Clamp01(
      topic.BooleanSimilarity(topic.tokenizer().Tokenize(anchor_text)));
}

double UrlScore(const Topic& topic, const text::UrlDictionary* dictionary,
                absl::string_view url) {
  if (topic.empty() || url.empty()) return 0;
  return Clamp01(topic.BooleanSimilarity(text::UrlWords(url, dictionary)));
}

double GroupTitleScore(const quark::Block* block,
                       const SimilarityFn& similarity) {
  if (block == nullptr || block->group_title.empty() || !similarity) return 1;
  return Clamp01(similarity(block->group_title));
}

double SharkContent(double title, double anchor, double url, double beta) {
  return Clamp01(title) * (beta * Clamp01(anchor) + (1 - beta) * Clamp01(url));
}

double FinalScore(double content_weight, double content, double link) {
  return content_weight * Clamp01(content) +
         (1 - content_weight) * Clamp01(link);
}

bool IsSeed(const FrontierState& s) { return s.score >= kSeedScore; }

Accumulated Accumulate(const FrontierState& a, const FrontierState& b) {
  Accumulated out;
  out.sum = NonNegativeOr0(a.sum) + NonNegativeOr0(b.sum);
  if (!std::isfinite(out.sum)) out.sum = std::numeric_limits<double>::max();
  const int64_t count =
      int64_t{std::max(a.count, 0)} + int64_t{std::max(b.count, 0)};
  out.count = static_cast<int32_t>(
      std::min<int64_t>(count, std::numeric_limits<int32_t>::max()));
  out.content = std::max(Clamp01(a.content), Clamp01(b.content));
  return out;
}

uint64_t UrlKey(absl::string_view url) {
  return absl::Hash<absl::string_view>()(url);
}

namespace {

class ImprovedSharkStrategy final : public Strategy {
 public:
  ImprovedSharkStrategy(ImprovedSharkOptions options, StrategyContext context,
                        std::shared_ptr<const text::UrlDictionary> dictionary,
                        size_t max_tracked_urls)
      : options_(options),
        context_(std::move(context)),
        dictionary_(std::move(dictionary)),
        children_(max_tracked_urls) {}

  absl::string_view name() const override { return "improved-shark"; }

  FrontierState SeedState() const override {
    FrontierState s;
    s.score = kSeedScore;
    return s;
  }

  std::vector<ScoredLink> ScoreLinks(const FetchedPage& page) override {
    if (page.page == nullptr) return {};
    const double lambda_p = ParentContribution(page);
    const quark::AnalyzedPage& p = *page.page;
    const auto& blocks = p.segmentation.blocks;
    const std::vector<int32_t> block_of = BlockOfLinks(p);
    std::vector<std::optional<double>> title_score(blocks.size());
    auto title_of = [&](int32_t b) {
      if (b < 0 || static_cast<size_t>(b) >= blocks.size()) {
        return GroupTitleScore(nullptr, context_.similarity);
      }
      if (!title_score[b].has_value()) {
        title_score[b] = GroupTitleScore(&blocks[b], context_.similarity);
      }
      return *title_score[b];
    };

    std::vector<ScoredLink> out;
    for (const Candidate& c : Candidates(p.document)) {
      const double url = UrlScore(context_.topic, dictionary_.get(),
                                  p.document.links[c.first].url);
      // Reading: a URL listed several times on the page is one link of d_j
      // (one term of 3.15) with its best Content over the occurrences.
      double content = 0;
      for (int32_t l : c.occurrences) {
        const double anchor =
            AnchorScore(context_.topic, p.document.links[l].anchor_text);
        content = std::max(content, SharkContent(title_of(block_of[l]), anchor,
                                                 url, options_.beta()));
      }
      FrontierState s;
      s.content = content;
      s.sum = lambda_p;
      s.count = 1;
      s.score = FinalScore(options_.content_weight(), content, lambda_p);
      out.push_back(ScoredLink{c.first, s});
    }
    return out;
  }

  FrontierState Merge(const FrontierState& queued,
                      const FrontierState& offered) const override {
    if (IsSeed(queued)) return queued;
    if (IsSeed(offered)) return offered;
    const Accumulated a = Accumulate(queued, offered);
    FrontierState out;
    out.content = a.content;
    out.sum = a.sum;
    out.count = a.count;
    const double structure = a.count > 0 ? a.sum / a.count : 0.0;
    out.score = FinalScore(options_.content_weight(), a.content, structure);
    return out;
  }

 private:
  // Formula 3.16 over the given statistics.
  double Lambda(const ChildStats& s) const {
    return (static_cast<double>(s.relevant) + options_.theta()) /
           (static_cast<double>(s.crawled) + options_.theta());
  }

  // Formula 3.17 with R(d_j) = r and the crawled children in `s`. Reading:
  // with no crawled child the mean is undefined and P(d_j) = R(d_j) (a
  // missing mean must not cost σ of the score).
  double P(double r, const ChildStats& s) const {
    const double mean = s.crawled > 0 ? Clamp01(s.p_sum / s.crawled) : r;
    return (1 - options_.sigma()) * r + options_.sigma() * mean;
  }

  // λ(d_j)·P(d_j) of the fetched page d_j = `page`, which every out-link of
  // d_j receives; records d_j as a crawled child of its parent.
  //
  // Reading: when d_j's children are scored none of them is crawled yet, so
  // the paper's λ(d_j) would be θ/θ = 1 and the mean of 3.17 empty for every
  // page; the λ only becomes informative as children are crawled. With a
  // frontier that does not re-score queued URLs we take both from d_j's own
  // generation instead: λ from the crawled children of d_j's parent (d_j and
  // its crawled siblings, so d_j's own relevance already counts), and the
  // mean of 3.17 from the P of d_j's siblings crawled before it. This is the
  // §3.4.2 premise ("resource adjacency": pages of one area of a site share
  // their topic, so the parent's and siblings' relevance predict the
  // children's). A page whose own children were already crawled (a re-fetch)
  // uses its own statistics as the paper does; a seed (no parent) gets λ = 1
  // and P = R.
  double ParentContribution(const FetchedPage& page) {
    const double r = Clamp01(page.relevance);
    std::optional<ChildStats> own;
    if (!page.url.empty()) own = children_.Find(UrlKey(page.url));
    if (own.has_value() && own->crawled <= 0) own.reset();
    double p = 0;
    ChildStats generation;  // d_j's parent's crawled children, d_j included
    if (page.parent_url.empty()) {
      p = P(r, own.value_or(ChildStats{}));
    } else {
      generation =
          children_.Update(UrlKey(page.parent_url), [&](ChildStats& s) {
            p = P(r, own.value_or(s));
            ++s.crawled;
            if (r > kRelevantChild) ++s.relevant;
            s.p_sum += p;
          });
    }
    return Lambda(own.value_or(generation)) * p;
  }

  const ImprovedSharkOptions options_;
  const StrategyContext context_;
  const std::shared_ptr<const text::UrlDictionary> dictionary_;
  BoundedMap<ChildStats> children_;  // parent URL → its crawled children
};

}  // namespace

std::unique_ptr<Strategy> MakeImprovedShark(const StrategyOptions& options,
                                            StrategyContext context,
                                            size_t max_tracked_urls) {
  return std::make_unique<ImprovedSharkStrategy>(
      options.improved_shark, std::move(context), options.url_dictionary,
      max_tracked_urls);
}

}  // namespace mmtopic

std::unique_ptr<Strategy> MakeImprovedShark(const StrategyOptions& options,
                                            StrategyContext context) {
  return mmtopic::MakeImprovedShark(options, std::move(context),
                                    mmtopic::kMaxTrackedUrls);
}

}  // namespace fcrawl::focus::internal
