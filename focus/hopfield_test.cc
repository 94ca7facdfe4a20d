// Hopfield Net spider and its block version ([HOPFIELD-BLOCK] §4). Expected
// values are computed by hand from f_s(x) = (1/(1+e^{−x}) − 0.5)·2 = tanh(x/2).
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "focus/strategy.h"
#include "focus/topic.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "quark/quark.h"

namespace fcrawl::focus {
namespace {

using quark::BlockType;
using ::testing::HasSubstr;

constexpr double kEps = 1e-12;

// Hand values of f_s.
constexpr double kFs05 = 0.2449186624037092;  // f_s(.5) = 2/(1+e^-.5) − 1
constexpr double kFs1 = 0.4621171572600098;   // f_s(1)  = 2/(1+e^-1) − 1
constexpr double kFs2 = 0.7615941559557646;   // f_s(2)  = 2/(1+e^-2) − 1

struct LinkSpec {
  std::string url;
  std::string anchor;
  std::string rel = "";  // rel attribute of the link's element, if any
  html::LinkKind kind = html::LinkKind::kAnchor;
  bool resolved = true;
};
struct BlockSpec {
  BlockType type;
  std::string text;
  std::vector<int32_t> links;
};

// A hand-built analysed page: the formula tests know every block type.
quark::AnalyzedPage MakePage(const std::vector<LinkSpec>& links,
                             const std::vector<BlockSpec>& blocks) {
  quark::AnalyzedPage p;
  p.document.url = "http://s.com/page.html";
  p.document.nodes.emplace_back();  // <html>
  p.document.nodes[0].tag = "html";
  for (const LinkSpec& l : links) {
    html::Link link;
    link.url = l.url;
    link.anchor_text = l.anchor;
    link.kind = l.kind;
    link.resolved = l.resolved;
    if (!l.rel.empty()) {
      html::Node a;
      a.tag = "a";
      a.parent = 0;
      a.attributes = {{"href", l.url}, {"rel", l.rel}};
      link.node = static_cast<int32_t>(p.document.nodes.size());
      p.document.nodes.push_back(std::move(a));
    }
    p.document.links.push_back(link);
  }
  for (size_t i = 0; i < blocks.size(); ++i) {
    quark::Block b;
    b.index = static_cast<int32_t>(i);
    b.type = blocks[i].type;
    b.text = blocks[i].text;
    b.links = blocks[i].links;
    p.segmentation.blocks.push_back(b);
  }
  return p;
}

// A fake sim(T, text): looked up in a table, 0 for anything else.
SimilarityFn Table(std::map<std::string, double> values) {
  return [values](absl::string_view text) {
    auto it = values.find(std::string(text));
    return it == values.end() ? 0.0 : it->second;
  };
}

// The paper's Hopfield: absolute θ, no spreading floor. The formula tests
// below compute with it; the defaults have their own tests.
StrategyOptions Paper() {
  StrategyOptions o;
  o.hopfield.set_relative_threshold(false);
  o.hopfield.set_spread_floor(0);
  return o;
}

std::unique_ptr<Strategy> Make(absl::string_view name,
                               SimilarityFn sim = Table({}),
                               const StrategyOptions& options = Paper()) {
  absl::StatusOr<std::unique_ptr<Strategy>> s =
      MakeStrategy(name, options, std::move(sim));
  EXPECT_TRUE(s.ok()) << s.status();
  return s.ok() ? std::move(*s) : nullptr;
}

// A queued link's state: net input `sum` from `count` parents.
FrontierState Queued(double sum, int32_t count) {
  FrontierState s;
  s.sum = sum;
  s.count = count;
  s.score = std::tanh(sum / 2);
  return s;
}

FrontierState WithScore(double score) {
  FrontierState s;
  s.score = score;
  s.sum = score;
  s.count = 1;
  return s;
}

std::map<std::string, FrontierState> ByUrl(const quark::AnalyzedPage& p,
                                           const std::vector<ScoredLink>& v) {
  std::map<std::string, FrontierState> out;
  for (const ScoredLink& s : v) out[p.document.links[s.link].url] = s.state;
  return out;
}

FetchedPage Fetched(const quark::AnalyzedPage* page, FrontierState state,
                    double relevance) {
  FetchedPage f;
  f.page = page;
  f.state = state;
  f.relevance = relevance;
  return f;
}

// f_s(x) through the public API: the activation Merge gives a net input x.
double Fs(const Strategy& s, double x) {
  return s.Merge(Queued(x, 1), Queued(0, 1)).score;
}

// ---------------------------------------------------------------------------
// f_s, seeds, hooks
// ---------------------------------------------------------------------------

TEST(HopfieldTest, SquashingFunctionByHand) {
  std::unique_ptr<Strategy> h = Make("hopfield");
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(Fs(*h, 0), 0);                // (1/2 − .5)·2
  EXPECT_NEAR(Fs(*h, 1), kFs1, kEps);     // (1/(1+.367879) − .5)·2
  EXPECT_NEAR(Fs(*h, 2), kFs2, kEps);     // (1/(1+.135335) − .5)·2
  EXPECT_NEAR(Fs(*h, 0.5), kFs05, kEps);  // (1/(1+.606531) − .5)·2
  EXPECT_NEAR(Fs(*h, -1), -kFs1, kEps);   // odd: f_s(−x) = −f_s(x)
  EXPECT_NEAR(Fs(*h, -2.5), -Fs(*h, 2.5), kEps);
  // Saturates at ±1 without overflow.
  EXPECT_EQ(Fs(*h, 1e6), 1);
  EXPECT_EQ(Fs(*h, -1e6), -1);
  EXPECT_LT(Fs(*h, 30), 1.0 + kEps);
}

TEST(HopfieldTest, NamesSeedStateAndHooks) {
  std::unique_ptr<Strategy> h = Make("hopfield");
  std::unique_ptr<Strategy> hb = Make("hopfield-block");
  ASSERT_NE(h, nullptr);
  ASSERT_NE(hb, nullptr);
  EXPECT_EQ(h->name(), "hopfield");
  EXPECT_EQ(hb->name(), "hopfield-block");
  // μ_i(0) = 1, no in-link input.
  FrontierState seed;
  seed.score = 1;
  EXPECT_EQ(h->SeedState(), seed);
  EXPECT_EQ(hb->SeedState(), seed);
  // Absolute thresholds as the paper gives them: θ = .1, mean .01.
  EXPECT_DOUBLE_EQ(h->min_fetch_score(), 0.1);
  EXPECT_DOUBLE_EQ(h->min_mean_queued_score(), 0.01);
  StrategyOptions o = Paper();
  o.hopfield.set_theta(0.25);
  o.hopfield.set_min_mean_activation(0.05);
  std::unique_ptr<Strategy> custom = Make("hopfield-block", Table({}), o);
  EXPECT_DOUBLE_EQ(custom->min_fetch_score(), 0.25);
  EXPECT_DOUBLE_EQ(custom->min_mean_queued_score(), 0.05);
  // Not a queue-position strategy.
  EXPECT_EQ(h->sequence(), 0);
}

TEST(HopfieldTest, OptionsAreValidated) {
  StrategyOptions o;
  o.hopfield.set_theta(1.5);
  absl::StatusOr<std::unique_ptr<Strategy>> s =
      MakeStrategy("hopfield", o, Table({}));
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.status().message(), HasSubstr("hopfield.theta"));
  o = {};
  o.hopfield.set_omega_link(std::nan(""));
  EXPECT_FALSE(MakeStrategy("hopfield-block", o, Table({})).ok());
  EXPECT_FALSE(
      MakeStrategy("hopfield", StrategyOptions{}, SimilarityFn()).ok());
}

// ---------------------------------------------------------------------------
// Plain version
// ---------------------------------------------------------------------------

quark::AnalyzedPage PlainPage() {
  return MakePage({{"http://s.com/a", "data"},
                   {"http://s.com/b", "mining"},
                   {"http://s.com/c", "other"}},
                  {{BlockType::kNoise, "data mining other", {0, 1, 2}}});
}

SimilarityFn PlainSim() { return Table({{"data", 0.8}, {"mining", 0.4}}); }

TEST(HopfieldTest, SeedPageSpreadsItsAdjustedActivation) {
  std::unique_ptr<Strategy> h = Make("hopfield", PlainSim());
  quark::AnalyzedPage p = PlainPage();
  // Seed: μ = 1, R = sim(T, page) = .5 → μ' = f_s(1·.5) = .244918662.
  std::vector<ScoredLink> out = h->ScoreLinks(Fetched(&p, h->SeedState(), 0.5));
  ASSERT_EQ(out.size(), 2u);  // "other" has w = 0: not offered
  EXPECT_EQ(out[0].link, 0);
  EXPECT_EQ(out[1].link, 1);
  // a: w = .8 → input .8·.244918662 = .195934930; μ = f_s(.195934930)
  EXPECT_NEAR(out[0].state.sum, 0.19593492992296735, kEps);
  EXPECT_EQ(out[0].state.count, 1);
  EXPECT_NEAR(out[0].state.score, 0.09765524522990465, kEps);
  // b: w = .4 → input .097967465; μ = f_s(.097967465) = .048944593
  EXPECT_NEAR(out[1].state.sum, 0.09796746496148367, kEps);
  EXPECT_NEAR(out[1].state.score, 0.04894459275716323, kEps);
  // Nothing else in the state is used.
  EXPECT_EQ(out[0].state.inherited, 0);
  EXPECT_EQ(out[0].state.depth_budget, 0);
  EXPECT_EQ(out[0].state.content, 0);
}

TEST(HopfieldTest, DefaultsSpreadFromAHomePageWithoutTopicWords) {
  // The default floor .01: a seed of relevance 0 whose anchors name no topic
  // word still spreads. μ' = f_s(1·.01) = tanh(.005); every link's input is
  // w·μ' with w floored at .01 ("other" has w = 0).
  std::unique_ptr<Strategy> h = Make("hopfield", PlainSim(), StrategyOptions{});
  quark::AnalyzedPage p = PlainPage();
  std::vector<ScoredLink> out = h->ScoreLinks(Fetched(&p, h->SeedState(), 0));
  ASSERT_EQ(out.size(), 3u);  // "other" is offered too
  const double mu = std::tanh(0.005);
  EXPECT_NEAR(out[0].state.sum, 0.8 * mu, kEps);
  EXPECT_NEAR(out[1].state.sum, 0.4 * mu, kEps);
  EXPECT_NEAR(out[2].state.sum, 0.01 * mu, kEps);
  // Relative θ: a share of the best queued score, no absolute threshold and
  // no stop on the queue's mean.
  EXPECT_DOUBLE_EQ(h->min_fetch_share(), 0.1);
  EXPECT_EQ(h->min_fetch_score(), -std::numeric_limits<double>::infinity());
  EXPECT_EQ(h->min_mean_queued_score(),
            -std::numeric_limits<double>::infinity());
  // The paper's mode has no share rule.
  EXPECT_DOUBLE_EQ(Make("hopfield")->min_fetch_share(), 0);
}

TEST(HopfieldTest, QueuedPageUsesItsOwnActivation) {
  std::unique_ptr<Strategy> h = Make("hopfield", PlainSim());
  quark::AnalyzedPage p = PlainPage();
  // μ = .5, R = 1 → μ' = f_s(.5) = .244918662; a: input .8·μ' as above.
  std::vector<ScoredLink> out = h->ScoreLinks(Fetched(&p, WithScore(0.5), 1.0));
  ASSERT_EQ(out.size(), 2u);
  EXPECT_NEAR(out[0].state.sum, 0.8 * kFs05, kEps);
  // μ = .5, R = .5 → μ' = f_s(.25) = 2/(1+e^-.25) − 1 = .124353001.
  out = h->ScoreLinks(Fetched(&p, WithScore(0.5), 0.5));
  EXPECT_NEAR(out[0].state.sum, 0.8 * 0.12435300177159614, kEps);
}

TEST(HopfieldTest, IrrelevantOrInactivePageSpreadsNothing) {
  std::unique_ptr<Strategy> h = Make("hopfield", PlainSim());
  quark::AnalyzedPage p = PlainPage();
  // R = 0 → μ' = f_s(0) = 0: every contribution is 0.
  EXPECT_TRUE(h->ScoreLinks(Fetched(&p, h->SeedState(), 0)).empty());
  // μ = 0 (and a negative or NaN stored activation) spreads nothing.
  EXPECT_TRUE(h->ScoreLinks(Fetched(&p, WithScore(0), 1)).empty());
  EXPECT_TRUE(h->ScoreLinks(Fetched(&p, WithScore(-0.3), 1)).empty());
  EXPECT_TRUE(h->ScoreLinks(Fetched(&p, WithScore(std::nan("")), 1)).empty());
}

TEST(HopfieldTest, ZeroWeightLinksAreNotOffered) {
  quark::AnalyzedPage p = PlainPage();
  std::unique_ptr<Strategy> h = Make("hopfield", Table({}));
  EXPECT_TRUE(h->ScoreLinks(Fetched(&p, h->SeedState(), 1)).empty());
  std::unique_ptr<Strategy> hb = Make("hopfield-block", Table({}));
  EXPECT_TRUE(hb->ScoreLinks(Fetched(&p, hb->SeedState(), 1)).empty());
}

TEST(HopfieldTest, SeedQueuedWithTheSharedSeedScoreCountsAsOne) {
  std::unique_ptr<Strategy> h = Make("hopfield", PlainSim());
  quark::AnalyzedPage p = PlainPage();
  FrontierState seed;
  seed.score = kSeedScore;
  std::vector<ScoredLink> out = h->ScoreLinks(Fetched(&p, seed, 0.5));
  ASSERT_EQ(out.size(), 2u);
  EXPECT_NEAR(out[0].state.sum, 0.19593492992296735, kEps);  // as μ = 1
}

TEST(HopfieldTest, DuplicateUrlIsOneEdgeWithItsBestAnchor) {
  quark::AnalyzedPage p = MakePage({{"http://s.com/a", "mining"},
                                    {"http://s.com/b", "other"},
                                    {"http://s.com/a", "data"}},
                                   {{BlockType::kNoise, "x", {0, 1, 2}}});
  std::unique_ptr<Strategy> h = Make("hopfield", PlainSim());
  std::vector<ScoredLink> out = h->ScoreLinks(Fetched(&p, h->SeedState(), 0.5));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].link, 0);  // first occurrence
  // max(.4, .8)·f_s(.5) = .195934930, not (.4 + .8)·f_s(.5); one parent.
  EXPECT_NEAR(out[0].state.sum, 0.19593492992296735, kEps);
  EXPECT_EQ(out[0].state.count, 1);
}

// ---------------------------------------------------------------------------
// Merge
// ---------------------------------------------------------------------------

TEST(HopfieldTest, MergeSumsTheInputsOfAllParents) {
  std::unique_ptr<Strategy> h = Make("hopfield");
  // .2 (one parent) + .3 (two parents) = .5 from three parents;
  // μ = f_s(.5) = .244918662.
  FrontierState m = h->Merge(Queued(0.2, 1), Queued(0.3, 2));
  EXPECT_NEAR(m.sum, 0.5, kEps);
  EXPECT_EQ(m.count, 3);
  EXPECT_NEAR(m.score, kFs05, kEps);
  // Not a max: the merged activation is above both parts.
  EXPECT_GT(m.score, Queued(0.3, 2).score);
  // Order does not matter.
  EXPECT_EQ(h->Merge(Queued(0.3, 2), Queued(0.2, 1)).count, 3);
  EXPECT_NEAR(h->Merge(Queued(0.3, 2), Queued(0.2, 1)).score, kFs05, kEps);
}

TEST(HopfieldTest, TwoFetchedParentsByHand) {
  std::unique_ptr<Strategy> h = Make("hopfield", PlainSim());
  quark::AnalyzedPage p = PlainPage();
  // Parent 1: seed, R = .5: input to a .8·f_s(.5) = .195934930.
  // Parent 2: μ = .5, R = 1: input to a .8·f_s(.5) = .195934930.
  // a: Σ = .391869860, μ = f_s(.391869860) = .193474...
  ScoredLink one = h->ScoreLinks(Fetched(&p, h->SeedState(), 0.5))[0];
  ScoredLink two = h->ScoreLinks(Fetched(&p, WithScore(0.5), 1))[0];
  FrontierState m = h->Merge(one.state, two.state);
  EXPECT_NEAR(m.sum, 2 * 0.19593492992296735, kEps);
  EXPECT_EQ(m.count, 2);
  EXPECT_NEAR(m.score, std::tanh(0.19593492992296735), kEps);
}

TEST(HopfieldTest, SeedKeepsActivationOneWhateverLinksToIt) {
  std::unique_ptr<Strategy> h = Make("hopfield");
  const FrontierState seed = h->SeedState();
  FrontierState m = h->Merge(seed, Queued(0.3, 1));
  EXPECT_EQ(m, seed);
  EXPECT_EQ(m.score, 1);
  // ...also after several in-links, and from either side.
  m = h->Merge(m, Queued(0.2, 1));
  EXPECT_EQ(m, seed);
  EXPECT_EQ(h->Merge(Queued(0.9, 4), seed), seed);
  EXPECT_EQ(h->Merge(seed, seed), seed);
}

TEST(HopfieldTest, MergeSurvivesCorruptStates) {
  std::unique_ptr<Strategy> h = Make("hopfield");
  // A NaN input read back from storage counts as no input.
  FrontierState bad = Queued(0, 1);
  bad.sum = std::nan("");
  FrontierState m = h->Merge(bad, Queued(1, 1));
  EXPECT_NEAR(m.score, kFs1, kEps);
  EXPECT_EQ(m.count, 2);
  // The parent count saturates instead of overflowing.
  m = h->Merge(Queued(1, std::numeric_limits<int32_t>::max()), Queued(1, 5));
  EXPECT_EQ(m.count, std::numeric_limits<int32_t>::max());
  EXPECT_NEAR(m.score, kFs2, kEps);
  // An empty state adds nothing.
  m = h->Merge(FrontierState{}, Queued(1, 1));
  EXPECT_NEAR(m.score, kFs1, kEps);
  EXPECT_EQ(m.count, 1);
}

// ---------------------------------------------------------------------------
// Block version (ω_CB = .7, ω_LB = .3)
// ---------------------------------------------------------------------------

quark::AnalyzedPage BlockPage() {
  return MakePage({{"http://s.com/rel.html", "w"},           // 0: LB_r
                   {"http://s.com/p2.html", "Next »"},       // 1: LB_n, U_n
                   {"http://s.com/p0.html", "« Previous"},   // 2: LB_n, U_p
                   {"http://s.com/home", "Home"},            // 3: LB_n
                   {"http://ads.com/x", "ad"},               // 4: LB_s
                   {"http://s.com/inline.html", "inline"}},  // 5: CB
                  {{BlockType::kContent, "title block", {5}},
                   {BlockType::kContent, "abstract block", {}},
                   {BlockType::kRelatedLinks, "related block", {0}},
                   {BlockType::kNavigation, "nav block", {1, 2, 3}},
                   {BlockType::kNoise, "ads", {4}}});
}

// Every anchor has w = .5.
SimilarityFn BlockSim() {
  return Table({{"title block", .6},
                {"abstract block", .4},
                {"related block", .5},
                {"nav block", .8},
                {"ads", .9},
                {"w", .5},
                {"Next »", .5},
                {"« Previous", .5},
                {"Home", .5},
                {"ad", .5},
                {"inline", .5}});
}

TEST(HopfieldBlockTest, PerLinkActivationsByHand) {
  std::unique_ptr<Strategy> hb = Make("hopfield-block", BlockSim());
  quark::AnalyzedPage p = BlockPage();
  // μ = .5. R_CB = .6 + .4 = 1 (formula 1).
  std::vector<ScoredLink> out =
      hb->ScoreLinks(Fetched(&p, WithScore(0.5), 0.3));
  ASSERT_EQ(out.size(), 6u);
  std::map<std::string, FrontierState> s = ByUrl(p, out);
  // Related: R = .7·1 + .3·.5 = .85; μ' = f_s(.5·.85) = .209358169;
  // input .5·μ' = .104679085; μ = f_s(.104679085) = .052291801.
  EXPECT_NEAR(s["http://s.com/rel.html"].sum, 0.10467908471400933, kEps);
  EXPECT_NEAR(s["http://s.com/rel.html"].score, 0.052291801205751165, kEps);
  // Next and previous: R = .7 + .3·.8 = .94; μ' = f_s(.47) = .230767513;
  // input .115383756; μ = .057627957.
  EXPECT_NEAR(s["http://s.com/p2.html"].sum, 0.11538375639118215, kEps);
  EXPECT_NEAR(s["http://s.com/p2.html"].score, 0.05762795698687917, kEps);
  EXPECT_NEAR(s["http://s.com/p0.html"].score, 0.05762795698687917, kEps);
  // Other navigation, noise, content-block links: R_LB = 0, R = .7;
  // μ' = f_s(.35) = .173235158; input .086617579; μ = .043281732.
  for (const char* url :
       {"http://s.com/home", "http://ads.com/x", "http://s.com/inline.html"}) {
    EXPECT_NEAR(s[url].sum, 0.08661757891733013, kEps) << url;
    EXPECT_NEAR(s[url].score, 0.04328173236340671, kEps) << url;
    EXPECT_EQ(s[url].count, 1);
  }

  // The plain version on the same page with sim(T, page) = .3: one μ' =
  // f_s(.5·.3) = .074859691 for all; input .037429845; μ = .018712738.
  std::unique_ptr<Strategy> h = Make("hopfield", BlockSim());
  std::vector<ScoredLink> plain =
      h->ScoreLinks(Fetched(&p, WithScore(0.5), 0.3));
  ASSERT_EQ(plain.size(), 6u);
  for (const ScoredLink& l : plain) {
    EXPECT_NEAR(l.state.sum, 0.0374298453437496, kEps);
    EXPECT_NEAR(l.state.score, 0.01871273802113449, kEps);
  }
}

TEST(HopfieldBlockTest, WeightsOfContentAndLinkBlocks) {
  StrategyOptions o = Paper();
  o.hopfield.set_omega_content(0);
  o.hopfield.set_omega_link(1);
  std::unique_ptr<Strategy> hb = Make("hopfield-block", BlockSim(), o);
  quark::AnalyzedPage p = BlockPage();
  // Seed, μ = 1; R = R_LB only.
  std::vector<ScoredLink> out = hb->ScoreLinks(Fetched(&p, hb->SeedState(), 0));
  // Home, ad and inline have R = 0 → μ' = 0: filtered out.
  ASSERT_EQ(out.size(), 3u);
  std::map<std::string, FrontierState> s = ByUrl(p, out);
  // Related: R = .5, μ' = f_s(.5); input .5·.244918662 = .122459331.
  EXPECT_NEAR(s["http://s.com/rel.html"].sum, 0.5 * kFs05, kEps);
  // Next: R = .8, μ' = f_s(.8) = 2/(1+e^-.8) − 1 = .379948962.
  EXPECT_NEAR(s["http://s.com/p2.html"].sum, 0.5 * 0.37994896225522495, kEps);
  EXPECT_NEAR(s["http://s.com/p0.html"].sum, 0.5 * 0.37994896225522495, kEps);
}

TEST(HopfieldBlockTest, WholePageRelevanceIsNotUsed) {
  std::unique_ptr<Strategy> hb = Make("hopfield-block", BlockSim());
  quark::AnalyzedPage p = BlockPage();
  std::vector<ScoredLink> a = hb->ScoreLinks(Fetched(&p, WithScore(0.5), 0));
  std::vector<ScoredLink> b = hb->ScoreLinks(Fetched(&p, WithScore(0.5), 1));
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i].state, b[i].state);
}

TEST(HopfieldBlockTest, PagingLinksOfANavigationBlock) {
  // Every link in one navigation block with sim .8, anchors w = .5, seed;
  // ω_CB = 0, ω_LB = 1: a pager link gets input .5·f_s(.8), the rest are
  // not offered (R = 0).
  const std::vector<LinkSpec> links = {
      {"http://s.com/1", "next"},
      {"http://s.com/2", "NEXT PAGE >"},
      {"http://s.com/3", "»"},
      {"http://s.com/4", ">>"},
      {"http://s.com/5", "下一页"},
      {"http://s.com/6", "上一篇"},
      {"http://s.com/7", "‹ prev"},
      {"http://s.com/8", "2", "next"},
      {"http://s.com/9", "x", "Prev nofollow"},
      {"http://s.com/10", "Home"},
      {"http://s.com/11", "|"},
      {"http://s.com/12", "..."},
      {"http://s.com/13", "next steps in data mining"},
      {"http://s.com/14", "3", "nofollow"},
      {"http://s.com/15", "News"},
  };
  std::map<std::string, double> sims = {{"nav", .8}};
  std::vector<int32_t> all;
  for (size_t i = 0; i < links.size(); ++i) {
    sims[links[i].anchor] = .5;
    all.push_back(static_cast<int32_t>(i));
  }
  quark::AnalyzedPage p =
      MakePage(links, {{BlockType::kNavigation, "nav", all}});
  StrategyOptions o = Paper();
  o.hopfield.set_omega_content(0);
  o.hopfield.set_omega_link(1);
  std::unique_ptr<Strategy> hb = Make("hopfield-block", Table(sims), o);
  std::map<std::string, FrontierState> s =
      ByUrl(p, hb->ScoreLinks(Fetched(&p, hb->SeedState(), 0)));
  for (int i = 1; i <= 9; ++i) {
    const std::string url = absl::StrCat("http://s.com/", i);
    ASSERT_TRUE(s.count(url)) << url;
    EXPECT_NEAR(s[url].sum, 0.5 * 0.37994896225522495, kEps) << url;
  }
  EXPECT_EQ(s.size(), 9u);
}

TEST(HopfieldBlockTest, PagerOutsideANavigationBlockIsNotU_n) {
  // Formula 2: U_n counts in LB_n only; in a noise block it gets 0.
  quark::AnalyzedPage p =
      MakePage({{"http://s.com/n", "next"}}, {{BlockType::kNoise, "nav", {0}}});
  StrategyOptions o = Paper();
  o.hopfield.set_omega_content(0);
  o.hopfield.set_omega_link(1);
  std::unique_ptr<Strategy> hb =
      Make("hopfield-block", Table({{"nav", .8}, {"next", .5}}), o);
  EXPECT_TRUE(hb->ScoreLinks(Fetched(&p, hb->SeedState(), 1)).empty());
}

TEST(HopfieldBlockTest, LinksOutsideEveryBlockGetOnlyTheContentPart) {
  // Link 0 is listed by no block; a block lists an out-of-range index.
  quark::AnalyzedPage p =
      MakePage({{"http://s.com/a", "w"}},
               {{BlockType::kContent, "title block", {7, -1}}});
  std::unique_ptr<Strategy> hb = Make("hopfield-block", BlockSim());
  std::vector<ScoredLink> out = hb->ScoreLinks(Fetched(&p, hb->SeedState(), 0));
  ASSERT_EQ(out.size(), 1u);
  // R = .7·.6 = .42; μ' = f_s(.42) = 2/(1+e^-.42) − 1 = .206966...
  EXPECT_NEAR(out[0].state.sum, 0.5 * std::tanh(0.21), kEps);
}

// ---------------------------------------------------------------------------
// Hostile input
// ---------------------------------------------------------------------------

TEST(HopfieldTest, NanAndOutOfRangeSimilaritiesAreClamped) {
  const double nan = std::nan("");
  SimilarityFn sim = [nan](absl::string_view text) {
    if (text == "nan") return nan;
    if (text == "big") return 5.0;
    if (text == "neg") return -2.0;
    if (text == "nan block") return nan;
    if (text == "big block") return 7.0;
    return 0.0;
  };
  quark::AnalyzedPage p = MakePage({{"http://s.com/a", "nan"},
                                    {"http://s.com/b", "big"},
                                    {"http://s.com/c", "neg"}},
                                   {{BlockType::kContent, "nan block", {0}},
                                    {BlockType::kContent, "big block", {1}},
                                    {BlockType::kRelatedLinks, "x", {2}}});
  for (const char* name : {"hopfield", "hopfield-block"}) {
    std::unique_ptr<Strategy> h = Make(name, sim);
    // Anchors: NaN → 0, 5 → 1, −2 → 0. Plain: relevance 7 → 1, μ' = f_s(1).
    // Block: R_CB = 0 + 1 = 1 (NaN → 0, 7 → 1), R = .7, μ' = f_s(.7).
    std::vector<ScoredLink> out = h->ScoreLinks(Fetched(&p, h->SeedState(), 7));
    ASSERT_EQ(out.size(), 1u) << name;
    EXPECT_EQ(out[0].link, 1);
    const double mu = std::string(name) == "hopfield" ? kFs1 : std::tanh(.35);
    EXPECT_NEAR(out[0].state.sum, mu, kEps) << name;
    EXPECT_TRUE(std::isfinite(out[0].state.score));
    // NaN page relevance counts as 0 in the plain version.
    if (std::string(name) == "hopfield") {
      EXPECT_TRUE(h->ScoreLinks(Fetched(&p, h->SeedState(), nan)).empty());
    }
  }
}

TEST(HopfieldTest, EmptyAndMalformedPages) {
  for (const char* name : {"hopfield", "hopfield-block"}) {
    std::unique_ptr<Strategy> h = Make(name, Table({{"a", 1}, {"b", 1}}));
    // No page.
    EXPECT_TRUE(h->ScoreLinks(Fetched(nullptr, h->SeedState(), 1)).empty());
    // No links, no blocks.
    quark::AnalyzedPage empty;
    EXPECT_TRUE(h->ScoreLinks(Fetched(&empty, h->SeedState(), 1)).empty());
    // Only non-candidates: unresolved, an image, the page itself.
    quark::AnalyzedPage p =
        MakePage({{"rel/x.html", "a", "", html::LinkKind::kAnchor, false},
                  {"http://s.com/i.png", "a", "", html::LinkKind::kImage},
                  {"http://s.com/page.html", "a"},
                  {"", "b"}},
                 {});
    EXPECT_TRUE(h->ScoreLinks(Fetched(&p, h->SeedState(), 1)).empty()) << name;
  }
}

TEST(HopfieldTest, ManyLinks) {
  std::vector<LinkSpec> links;
  std::vector<int32_t> all;
  for (int i = 0; i < 20000; ++i) {
    links.push_back({absl::StrCat("http://s.com/", i % 10000), "a"});
    all.push_back(i);
  }
  quark::AnalyzedPage p =
      MakePage(links, {{BlockType::kRelatedLinks, "rel", all}});
  for (const char* name : {"hopfield", "hopfield-block"}) {
    std::unique_ptr<Strategy> h = Make(name, Table({{"a", 1}, {"rel", 1}}));
    std::vector<ScoredLink> out = h->ScoreLinks(Fetched(&p, h->SeedState(), 1));
    ASSERT_EQ(out.size(), 10000u);
    // Plain: input f_s(1); block: R = .3·1 → input f_s(.3).
    const double sum = std::string(name) == "hopfield" ? kFs1 : std::tanh(0.15);
    EXPECT_NEAR(out.back().state.sum, sum, kEps);
    EXPECT_EQ(out.back().link, 9999);
  }
}

TEST(HopfieldTest, ConcurrentScoring) {
  std::unique_ptr<Strategy> hb = Make("hopfield-block", BlockSim());
  quark::AnalyzedPage p = BlockPage();
  const std::vector<ScoredLink> want =
      hb->ScoreLinks(Fetched(&p, WithScore(0.5), 0.3));
  std::vector<std::thread> threads;
  std::vector<int> ok(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 200; ++i) {
        std::vector<ScoredLink> got =
            hb->ScoreLinks(Fetched(&p, WithScore(0.5), 0.3));
        bool same = got.size() == want.size();
        for (size_t k = 0; same && k < got.size(); ++k) {
          same = got[k].link == want[k].link && got[k].state == want[k].state;
        }
        ok[t] += same;
        hb->Merge(got[0].state, got[1].state);
      }
    });
  }
  for (std::thread& t : threads) t.join();
  for (int t = 0; t < 4; ++t) EXPECT_EQ(ok[t], 200);
}

// ---------------------------------------------------------------------------
// Through the Topic overload
// ---------------------------------------------------------------------------

TEST(HopfieldTopicTest, AnchorsScoredByTheTopic) {
  const Topic topic = Topic::FromText("quantum physics", "");
  absl::StatusOr<std::unique_ptr<Strategy>> h =
      MakeStrategy("hopfield", Paper(), topic);
  ASSERT_TRUE(h.ok()) << h.status();
  quark::AnalyzedPage p = MakePage({{"http://s.com/q", "Quantum Physics"},
                                    {"http://s.com/w", "weather report"}},
                                   {{BlockType::kNoise, "x", {0, 1}}});
  // cos("quantum physics", T) = 1, cos("weather report", T) = 0 (not
  // offered). Seed, R = 1: μ' = f_s(1); input f_s(1); μ = f_s(f_s(1))
  // = f_s(.462117157) = .227032609.
  std::vector<ScoredLink> out =
      (*h)->ScoreLinks(Fetched(&p, (*h)->SeedState(), 1));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].link, 0);
  EXPECT_NEAR(out[0].state.sum, kFs1, 1e-9);
  EXPECT_NEAR(out[0].state.score, 0.22703260871745434, 1e-9);

  absl::StatusOr<std::unique_ptr<Strategy>> hb =
      MakeStrategy("hopfield-block", Paper(), topic);
  ASSERT_TRUE(hb.ok()) << hb.status();
  quark::AnalyzedPage q =
      MakePage({{"http://s.com/q", "quantum physics"}},
               {{BlockType::kContent, "quantum physics", {}},
                {BlockType::kRelatedLinks, "weather", {0}}});
  // R_CB = 1, R_LB = cos("weather", T) = 0: R = .7; input f_s(.7)·1.
  out = (*hb)->ScoreLinks(Fetched(&q, (*hb)->SeedState(), 0));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_NEAR(out[0].state.sum, std::tanh(0.35), 1e-9);

  // The topic must have terms.
  EXPECT_FALSE(
      MakeStrategy("hopfield", StrategyOptions{}, Topic::FromText("", ""))
          .ok());
}

}  // namespace
}  // namespace fcrawl::focus
