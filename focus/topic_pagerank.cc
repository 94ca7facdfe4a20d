// Topic-PageRank, TPR ([MMTOPIC] §3.4.1; docs/papers.md "Topic-PageRank"),
// run online: a fetched page T hands its rank to its out-links once, when it
// is fetched, and a URL linked from several fetched pages sums their shares.
//
//   TPR(p)    = (1−d)/N + d·Σ_i TPR(T_i)·P(T_i, p)                      (3.6)
//   P(T, p)   = ω·Sim_content(p)/Σ_c Sim_content(c)
//             + (1−ω)·Sim_link(p)/Σ_c Sim_link(c), c over T's out-links  (3.7)
//   Sim_content(p) = α·Sim_anchor(p) + β·Sim_URL(p), Boolean model       (3.8)
//   Sim_link(p)    = (1−λ)·mean over p's in-linking pages
//                  + λ·mean over p's out-linked pages (3.11)
//   S(p)      = ∂·Sim_content(p) + (1−∂)·Link(p)                          (4.8)
//
// A queued URL p keeps, in its FrontierState:
//   content   = Sim_content(p), the best over the pages that offered it;
//   sum       = Σ_i R(T_i)·P(T_i, p) over its fetched in-linking pages;
//   count     = how many of them;
//   inherited = R(p) = (1−d) + d·sum, its rank (see "Scale" below);
//   score     = S(p).
//
// Scale. Reading: ranks are kept as R = N·TPR, the form of Brin and Page's
// original formula, PR = (1−d) + d·Σ PR·P, whose mean over the pages is 1.
// N then cancels out of 3.6, so no online estimate of N ("pages queued so
// far", a number that keeps growing and would make ranks computed at
// different times incomparable) is needed. A seed has rank 1, the mean (the
// usual starting value of the power iteration). R is unbounded above while
// Content is in [0, 1], so 4.8 uses Link = R/(1+R): order-preserving, in
// [0, 1), and the average page (R = 1) gets 0.5.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

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

// The rank of a page nothing is known about: the mean.
constexpr double kMeanRank = 1;

// Relevance of the fetched pages that linked to a URL (3.11, in-link part).
struct InLinks {
  double relevance_sum = 0;
  int64_t pages = 0;
};

class TopicPageRankStrategy final : public Strategy {
 public:
  TopicPageRankStrategy(TopicPageRankOptions options, StrategyContext context,
                        std::shared_ptr<const text::UrlDictionary> dictionary,
                        size_t max_tracked_urls)
      : options_(options),
        context_(std::move(context)),
        dictionary_(std::move(dictionary)),
        in_links_(max_tracked_urls) {}

  absl::string_view name() const override { return "topic-pagerank"; }

  FrontierState SeedState() const override {
    FrontierState s;
    s.score = kSeedScore;
    s.inherited = kMeanRank;
    return s;
  }

  std::vector<ScoredLink> ScoreLinks(const FetchedPage& page) override {
    if (page.page == nullptr) return {};
    const html::Document& doc = page.page->document;
    const std::vector<Candidate> candidates = Candidates(doc);
    if (candidates.empty()) return {};
    const size_t n = candidates.size();
    const double rank = RankOf(page.state);
    const double relevance = Clamp01(page.relevance);

    // 3.8 per out-link. Reading: a URL listed several times on the page is
    // one out-link of T (one term of 3.6) with its best anchor.
    std::vector<double> content(n);
    double content_total = 0;
    for (size_t i = 0; i < n; ++i) {
      const double url = UrlScore(context_.topic, dictionary_.get(),
                                  doc.links[candidates[i].first].url);
      double anchor = 0;
      for (int32_t l : candidates[i].occurrences) {
        anchor = std::max(
            anchor, AnchorScore(context_.topic, doc.links[l].anchor_text));
      }
      content[i] =
          options_.anchor_weight() * anchor + options_.url_weight() * url;
      content_total += content[i];
    }

    // 3.11 per out-link p, which is not fetched yet. λ weights the out-link
    // part as the formula (and docs/papers.md) write it; the paper's prose
    // says a larger λ favours in-links, which contradicts the formula.
    // Reading, in-link part: the mean relevance sim(T_i, page) of the
    // fetched pages that linked to p so far, T included; the paper notes
    // these pages are already downloaded and scored by content. The strategy
    // remembers, per URL, the relevance of its fetched in-linking pages.
    // Reading, out-link part: p's out-links are unknown until p is fetched
    // (and p's rank is handed on before that), so their mean Sim_content is
    // estimated by that of p's siblings, T's out-links: the §3.4.1 premise
    // that pages on one topic link to each other. The part is the same for
    // all of T's out-links, so it only damps differences in the in-link part;
    // when nothing tells them apart, the link half of 3.7 is PageRank's
    // 1/C(T).
    const double out_part = content_total / static_cast<double>(n);
    std::vector<double> link(n);
    double link_total = 0;
    for (size_t i = 0; i < n; ++i) {
      const InLinks in = in_links_.Update(
          UrlKey(doc.links[candidates[i].first].url), [&](InLinks& s) {
            s.relevance_sum += relevance;
            ++s.pages;
          });
      const double in_part = in.relevance_sum / static_cast<double>(in.pages);
      link[i] =
          (1 - options_.lambda()) * in_part + options_.lambda() * out_part;
      link_total += link[i];
    }

    std::vector<ScoredLink> out;
    out.reserve(n);
    for (size_t i = 0; i < n; ++i) {
      // 3.7. Reading: when no out-link of T has any similarity (a sum of 0,
      // e.g. no topic term in any anchor or URL) that half of P splits
      // evenly, as in PageRank, so T's rank is still handed on.
      const double uniform = 1 / static_cast<double>(n);
      const double p_content =
          content_total > 0 ? content[i] / content_total : uniform;
      const double p_link = link_total > 0 ? link[i] / link_total : uniform;
      const double p =
          options_.omega() * p_content + (1 - options_.omega()) * p_link;
      FrontierState s;
      s.content = Clamp01(content[i]);
      s.sum = rank * p;
      s.count = 1;
      Finish(&s);
      out.push_back(ScoredLink{candidates[i].first, s});
    }
    return out;
  }

  // 3.6 over every fetched in-linking page: the shares add up. A seed keeps
  // its place (and rank).
  FrontierState Merge(const FrontierState& queued,
                      const FrontierState& offered) const override {
    if (IsSeed(queued)) return queued;
    if (IsSeed(offered)) return offered;
    const Accumulated a = Accumulate(queued, offered);
    FrontierState out;
    out.content = a.content;
    out.sum = a.sum;
    out.count = a.count;
    Finish(&out);
    return out;
  }

  // Reading: the ranker's R replaces the online rank (1−d) + d·sum, which
  // saw each in-linking page's rank only as it was when that page was
  // fetched. sum is set to the value that gives R, so later offers keep
  // adding their shares to it (a rank below the teleport part 1−d leaves
  // sum 0 and rank 1−d: the floor of 3.6).
  std::optional<FrontierState> WithRank(absl::string_view url,
                                        const FrontierState& queued,
                                        double rank) override {
    if (IsSeed(queued) || !std::isfinite(rank) || rank < 0) {
      return std::nullopt;
    }
    const double d = options_.damping();
    FrontierState out = queued;
    out.sum = d > 0 ? std::max(0.0, (rank - (1 - d)) / d) : 0.0;
    Finish(&out);
    if (out == queued) return std::nullopt;
    return out;
  }

 private:
  // Sets rank (inherited) and score from content and sum.
  void Finish(FrontierState* s) const {
    s->inherited = (1 - options_.damping()) + options_.damping() * s->sum;
    s->score = FinalScore(options_.content_weight(), s->content,
                          s->inherited / (1 + s->inherited));
  }

  // R(T) of the fetched page from the state it was queued with.
  double RankOf(const FrontierState& s) const {
    if (std::isfinite(s.inherited) && s.inherited > 0) return s.inherited;
    if (s.count > 0 && std::isfinite(s.sum) && s.sum >= 0) {
      return (1 - options_.damping()) + options_.damping() * s.sum;
    }
    return kMeanRank;
  }

  const TopicPageRankOptions options_;
  const StrategyContext context_;
  const std::shared_ptr<const text::UrlDictionary> dictionary_;
  BoundedMap<InLinks> in_links_;  // out-link URL → its fetched in-linkers
};

}  // namespace

std::unique_ptr<Strategy> MakeTopicPageRank(const StrategyOptions& options,
                                            StrategyContext context,
                                            size_t max_tracked_urls) {
  return std::make_unique<TopicPageRankStrategy>(
      options.topic_pagerank, std::move(context), options.url_dictionary,
      max_tracked_urls);
}

}  // namespace mmtopic

std::unique_ptr<Strategy> MakeTopicPageRank(const StrategyOptions& options,
                                            StrategyContext context) {
  return mmtopic::MakeTopicPageRank(options, std::move(context),
                                    mmtopic::kMaxTrackedUrls);
}

}  // namespace fcrawl::focus::internal
