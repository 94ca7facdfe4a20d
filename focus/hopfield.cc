// Hopfield Net spider and its block version ([HOPFIELD-BLOCK] §4;
// docs/papers.md "Hopfield Net spider, and the block version").
//
// The Web is a single-layer network whose nodes are URLs. A queued URL's
// FrontierState keeps the node's net input Σ_b w_{b,i}·μ_b in `sum`, the
// number of fetched in-linking pages in `count`, and its activation
// μ_i = f_s(sum) (formula 4) in `score`, so the frontier fetches the most
// activated node first; the crawler skips nodes below θ (min_fetch_score) and
// ends the crawl when the queue's mean activation drops below
// min_mean_activation (min_mean_queued_score).
//
// Starting from home pages (HopfieldOptions::relative and spread_floor, both
// on by default). Reading: the paper gives θ as an absolute activation, fit
// to seeds that are topical pages (relevance near 1), and lets a page with
// relevance 0 or an anchor without a topic word pass on nothing. A crawl
// started from a department's home page has seeds of relevance 0–0.02 whose
// anchors ("Academics", "People") name no topic word: the paper's network
// never spreads past them, and each hop multiplies activation by about
// w·R/2, so even what does spread falls below θ = 0.1 within a hop.
//  - spread_floor: R_p and w_{p,i} count as at least this much, so a page or
//    anchor without topic words still passes on a little and the network
//    reaches the topical pages below a home page; topical ones still pass
//    on far more.
//  - relative: θ is a share of the best activation queued (the crawler
//    holds back a URL below θ·best, Strategy::min_fetch_share), so θ keeps
//    the crawl on the strongest part of the network without ending it while
//    URLs are queued; the paper's stop rule on the queue's mean activation
//    assumes absolute activations and is off in this mode (the crawl ends
//    on its budget or an empty frontier).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "core/html.h"
#include "focus/strategy.h"
#include "focus/strategy_internal.h"
#include "quark/quark.h"

namespace fcrawl::focus::internal {
namespace {

using quark::BlockType;

// Formula 5: f_s(x) = (1/(1+e^{−x}) − 0.5)·2, which equals tanh(x/2); tanh
// keeps full precision near 0 and saturates at ±1 without overflow.
double Squash(double x) { return std::tanh(x / 2); }

// A net input read back from storage could be NaN or infinite; it then counts
// as no input.
double FiniteOr0(double x) { return std::isfinite(x) ? x : 0.0; }

// Seeds are the network's input nodes: activation given from outside (1),
// no in-link contributions. Nothing ScoreLinks produces has count 0.
bool IsInputNode(const FrontierState& s) { return s.count <= 0 && s.score > 0; }

// Anchor texts of pagination links, after lower-casing and trimming the
// arrows around them ("Next »", "« Prev", "下一页 >").
constexpr absl::string_view kPagingWords[] = {
    "next",          "next page",      "next article",  "next chapter",
    "next post",     "next entry",     "next item",     "previous",
    "prev",          "previous page",  "prev page",     "previous article",
    "previous post", "previous entry", "previous item", "previous chapter",
    "下一页",        "下一篇",         "下一个",        "下页",
    "后一页",        "上一页",         "上一篇",        "上一个",
    "上页",          "前一页",
};

// Decorations around a paging anchor: ASCII punctuation and the arrow and
// guillemet characters used for "next"/"previous".
constexpr absl::string_view kArrows[] = {"»", "«",  "›",  "‹",  "→",
                                         "←", "＞", "＜", "》", "《"};

absl::string_view StripDecorations(absl::string_view s) {
  bool changed = true;
  while (changed && !s.empty()) {
    changed = false;
    const unsigned char front = static_cast<unsigned char>(s.front());
    const unsigned char back = static_cast<unsigned char>(s.back());
    if (front < 0x80 &&
        (absl::ascii_isspace(front) || absl::ascii_ispunct(front))) {
      s.remove_prefix(1);
      changed = true;
      continue;
    }
    if (back < 0x80 &&
        (absl::ascii_isspace(back) || absl::ascii_ispunct(back))) {
      s.remove_suffix(1);
      changed = true;
      continue;
    }
    for (absl::string_view arrow : kArrows) {
      if (absl::ConsumePrefix(&s, arrow) || absl::ConsumeSuffix(&s, arrow)) {
        changed = true;
      }
    }
  }
  return s;
}

// Whether the link is the "previous" (U_p) or "next" (U_n) link of a pager:
// rel="next"/"prev"/"previous" on its element, an anchor that is only arrows
// (">", "»", "<<", ...), or a paging word.
bool IsPagingLink(const html::Document& doc, const html::Link& link) {
  if (link.node >= 0 && static_cast<size_t>(link.node) < doc.nodes.size()) {
    if (const std::string* rel = doc.nodes[link.node].Attribute("rel")) {
      for (absl::string_view token : absl::StrSplit(
               *rel, absl::ByAnyChar(" \t\r\n\f"), absl::SkipEmpty())) {
        if (absl::EqualsIgnoreCase(token, "next") ||
            absl::EqualsIgnoreCase(token, "prev") ||
            absl::EqualsIgnoreCase(token, "previous")) {
          return true;
        }
      }
    }
  }
  // Anchors are short; a long one is an article title, not a pager.
  if (link.anchor_text.empty() || link.anchor_text.size() > 64) return false;
  const std::string anchor = absl::AsciiStrToLower(link.anchor_text);
  const absl::string_view core = StripDecorations(anchor);
  if (core.empty()) {
    // Only decorations: "»", ">>", "<" are pagers, "|" or "..." are not.
    for (absl::string_view arrow : {">", "<"}) {
      if (absl::StrContains(anchor, arrow)) return true;
    }
    for (absl::string_view arrow : kArrows) {
      if (absl::StrContains(anchor, arrow)) return true;
    }
    return false;
  }
  for (absl::string_view word : kPagingWords) {
    if (core == word) return true;
  }
  return false;
}

class HopfieldStrategy final : public Strategy {
 public:
  HopfieldStrategy(HopfieldOptions options, SimilarityFn sim, bool blocks)
      : options_(options), sim_(std::move(sim)), blocks_(blocks) {}

  absl::string_view name() const override {
    return blocks_ ? "hopfield-block" : "hopfield";
  }

  // μ_i(0) = 1 for the seeds (§4 a). f_s(x) < 1 for every finite x, so the
  // seeds are fetched before any discovered URL.
  FrontierState SeedState() const override {
    FrontierState s;
    s.score = 1;
    return s;
  }

  std::vector<ScoredLink> ScoreLinks(const FetchedPage& page) override {
    std::vector<ScoredLink> out;
    if (page.page == nullptr) return out;
    // μ_p(t), the activation the page was queued with. A seed queued by a
    // caller with kSeedScore, or a corrupt stored value, is brought back to
    // the range f_s gives.
    const double mu =
        page.state.score > 0 ? std::min(page.state.score, 1.0) : 0.0;
    if (mu == 0) return out;  // nothing to spread
    const quark::AnalyzedPage& p = *page.page;
    const auto& blocks = p.segmentation.blocks;

    // Lazily computed sim(T, block text).
    std::vector<std::optional<double>> block_sim(blocks.size());
    auto sim_of_block = [&](int32_t b) {
      if (b < 0 || static_cast<size_t>(b) >= blocks.size()) return 0.0;
      if (!block_sim[b].has_value()) {
        block_sim[b] = Clamp01(sim_(blocks[b].text));
      }
      return *block_sim[b];
    };

    // Plain: μ_p' = f_s(μ_p·R_p), one value for the whole page.
    const double floor = options_.spread_floor();
    const double plain_mu =
        Squash(mu * std::max(Clamp01(page.relevance), floor));
    // Block version, formula 1: R_CB = Σ_k cos(cb_k, T). Reading: every
    // block Quark types as content is one content sub-block (Quark does not
    // tell title, authors, affiliation, abstract and keywords apart), and the
    // sum is taken as written: a page with more topical content blocks is a
    // better node, and f_s bounds the activation anyway.
    double r_cb = 0;
    if (blocks_) {
      for (size_t b = 0; b < blocks.size(); ++b) {
        if (EffectiveType(blocks[b]) == BlockType::kContent) {
          r_cb += sim_of_block(static_cast<int32_t>(b));
        }
      }
    }
    // Formula 2, R_LB of an out-link in block `b`.
    auto r_lb = [&](int32_t l, int32_t b) {
      if (b < 0 || static_cast<size_t>(b) >= blocks.size()) return 0.0;
      switch (EffectiveType(blocks[b])) {
        case BlockType::kRelatedLinks:
          return sim_of_block(b);
        case BlockType::kNavigation:
          // Reading: the formula's U_n case covers both pager links, as the
          // premise above it says the "previous" (U_p) and "next" (U_n)
          // links are the topical ones of a navigation block; the rest of a
          // navigation block is site navigation, which §3.1 counts as noise
          // (0).
          return IsPagingLink(p.document, p.document.links[l]) ? sim_of_block(b)
                                                               : 0.0;
        case BlockType::kNoise:
        case BlockType::kContent:
          // Reading: formula 2 defines R_LB for link blocks only; a link in
          // a content block gets 0 there (its block already counts in R_CB
          // and its anchor in w).
          return 0.0;
      }
      return 0.0;
    };

    const std::vector<int32_t> block_of = BlockOfLinks(p);
    for (const Candidate& c : Candidates(p.document)) {
      // Reading: all occurrences of a URL on one page are one edge p → i of
      // the network (formula 4 sums over in-linking nodes b), weighted by its
      // best occurrence; summing them would let a repeated template link
      // outweigh distinct parents.
      double contribution = 0;
      for (int32_t l : c.occurrences) {
        // w_{p,i}: relevance of the anchor text.
        const double w =
            std::max(Clamp01(sim_(p.document.links[l].anchor_text)), floor);
        if (w == 0) continue;
        double mu_p = plain_mu;
        if (blocks_) {
          // Formula 3, then formula 6 with this link's R.
          const double r = options_.omega_content() * r_cb +
                           options_.omega_link() * r_lb(l, block_of[l]);
          mu_p = Squash(mu * std::max(r, floor));
        }
        contribution = std::max(contribution, w * mu_p);
      }
      // A zero contribution adds nothing to Σ w·μ; the URL can still be
      // queued from another page.
      if (!(contribution > 0)) continue;
      FrontierState s;
      s.sum = contribution;
      s.count = 1;
      s.score = Squash(contribution);
      out.push_back(ScoredLink{c.first, s});
    }
    return out;
  }

  // Formula 4: μ_i = f_s(Σ_b w_{b,i}·μ_b) over every fetched page b linking
  // to i, so the net inputs add up. An input node (seed) keeps its given
  // activation: in-links do not change μ_i(0) = 1.
  FrontierState Merge(const FrontierState& queued,
                      const FrontierState& offered) const override {
    const bool queued_input = IsInputNode(queued);
    const bool offered_input = IsInputNode(offered);
    if (queued_input && offered_input) {
      return offered.score > queued.score ? offered : queued;
    }
    if (queued_input) return queued;
    if (offered_input) return offered;
    FrontierState out;
    out.sum = FiniteOr0(queued.sum) + FiniteOr0(offered.sum);
    const int64_t count = static_cast<int64_t>(std::max(queued.count, 0)) +
                          std::max(offered.count, 0);
    out.count = static_cast<int32_t>(
        std::min<int64_t>(count, std::numeric_limits<int32_t>::max()));
    out.score = Squash(out.sum);
    return out;
  }

  double min_fetch_score() const override {
    return options_.relative_threshold() ? Strategy::min_fetch_score()
                                         : options_.theta();
  }
  double min_fetch_share() const override {
    return options_.relative_threshold() ? options_.theta() : 0;
  }
  double min_mean_queued_score() const override {
    return options_.relative_threshold() ? Strategy::min_mean_queued_score()
                                         : options_.min_mean_activation();
  }

 private:
  const HopfieldOptions options_;
  const SimilarityFn sim_;
  const bool blocks_;
};

}  // namespace

std::unique_ptr<Strategy> MakeHopfield(const StrategyOptions& options,
                                       StrategyContext context, bool blocks) {
  return std::make_unique<HopfieldStrategy>(
      options.hopfield, std::move(context.similarity), blocks);
}

}  // namespace fcrawl::focus::internal
