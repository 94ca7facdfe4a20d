#include "focus/strategy.h"

#include <cmath>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "quark/quark.h"

namespace fcrawl::focus {
namespace {

using quark::BlockType;
using ::testing::HasSubstr;

constexpr double kEps = 1e-12;

struct LinkSpec {
  std::string url;
  std::string anchor;
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
  for (const LinkSpec& l : links) {
    html::Link link;
    link.url = l.url;
    link.anchor_text = l.anchor;
    link.kind = l.kind;
    link.resolved = l.resolved;
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

std::unique_ptr<Strategy> Make(absl::string_view name,
                               const StrategyOptions& options = {},
                               SimilarityFn sim = Table({})) {
  absl::StatusOr<std::unique_ptr<Strategy>> s =
      MakeStrategy(name, options, std::move(sim));
  EXPECT_TRUE(s.ok()) << s.status();
  return s.ok() ? std::move(*s) : nullptr;
}

FetchedPage Fetched(const quark::AnalyzedPage* page, FrontierState state,
                    double relevance) {
  FetchedPage f;
  f.page = page;
  f.state = state;
  f.relevance = relevance;
  return f;
}

FrontierState State(double score, double inherited, int budget) {
  return FrontierState{score, inherited, budget};
}

// Page with three plain links in one noise block.
quark::AnalyzedPage ThreeLinks() {
  return MakePage({{"http://s.com/a", "a"},
                   {"http://s.com/b", "b"},
                   {"http://s.com/c", "c"}},
                  {{BlockType::kNoise, "a b c", {0, 1, 2}}});
}

// ---------------------------------------------------------------------------
// Factory and options
// ---------------------------------------------------------------------------

TEST(StrategyFactoryTest, KnownNames) {
  for (absl::string_view name : StrategyNames()) {
    if (name == "interest") {
      // Needs its model (interest_test.cc builds one).
      absl::StatusOr<std::unique_ptr<Strategy>> s =
          MakeStrategy(name, StrategyOptions{}, Table({}));
      EXPECT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument);
      continue;
    }
    std::unique_ptr<Strategy> s = Make(name);
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(s->name(), name);
  }
  EXPECT_EQ(StrategyNames().size(), 11u);  // the ten of the papers and learned
}

TEST(StrategyFactoryTest, UnknownNameListsTheKnownOnes) {
  absl::StatusOr<std::unique_ptr<Strategy>> s =
      MakeStrategy("dfs", StrategyOptions{}, Table({}));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.status().message(), HasSubstr("'dfs'"));
  EXPECT_THAT(s.status().message(), HasSubstr("bfs, fish, shark, ssaps"));
}

TEST(StrategyFactoryTest, EmptyTopicOnlyForBfs) {
  Topic empty = Topic::FromText("", "");
  EXPECT_TRUE(MakeStrategy("bfs", StrategyOptions{}, empty).ok());
  for (const char* name : {"fish", "shark", "ssaps"}) {
    absl::StatusOr<std::unique_ptr<Strategy>> s =
        MakeStrategy(name, StrategyOptions{}, empty);
    ASSERT_FALSE(s.ok()) << name;
    EXPECT_THAT(s.status().message(), HasSubstr("topic"));
  }
  EXPECT_FALSE(MakeStrategy("shark", StrategyOptions{}, SimilarityFn()).ok());
}

TEST(StrategyOptionsTest, DefaultsAreThePapers) {
  StrategyOptions o;
  EXPECT_TRUE(o.Validate().ok());
  EXPECT_EQ(o.fish.depth(), 3);
  EXPECT_EQ(o.shark.depth(), 3);
  EXPECT_EQ(o.ssaps.depth(), 3);
  EXPECT_EQ(o.ssaps.first_level_max_depth(), 1);
  EXPECT_EQ(o.fish.width(), 10);
  EXPECT_DOUBLE_EQ(o.fish.relevance_threshold(), 0.1);
  EXPECT_DOUBLE_EQ(o.shark.delta(), 0.5);
  EXPECT_DOUBLE_EQ(o.shark.beta(), 0.8);
  EXPECT_DOUBLE_EQ(o.shark.gamma(), 0.5);
  EXPECT_DOUBLE_EQ(o.ssaps.gamma(), 0.5);
  EXPECT_DOUBLE_EQ(o.ssaps.w1(), 1);
  EXPECT_DOUBLE_EQ(o.ssaps.w2(), 1);
  EXPECT_DOUBLE_EQ(o.ssaps.w3(), 1);
  EXPECT_DOUBLE_EQ(o.ssaps.delta(), 0.3);
}

TEST(StrategyOptionsTest, ValidateNamesTheBadField) {
  auto message = [](StrategyOptions o) {
    absl::Status s = o.Validate();
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
    return std::string(s.message());
  };
  StrategyOptions o;
  o.fish.set_depth(0);
  EXPECT_THAT(message(o), HasSubstr("fish.depth"));
  o = {};
  o.fish.set_width(0);
  EXPECT_THAT(message(o), HasSubstr("fish.width"));
  o = {};
  o.shark.set_beta(1.5);
  EXPECT_THAT(message(o), HasSubstr("shark.beta"));
  o = {};
  o.fish.set_relevance_threshold(-0.1);
  EXPECT_THAT(message(o), HasSubstr("fish.relevance_threshold"));
  o = {};
  o.ssaps.set_delta(std::nan(""));
  EXPECT_THAT(message(o), HasSubstr("ssaps.delta"));
  o = {};
  o.ssaps.set_w2(-1);
  EXPECT_THAT(message(o), HasSubstr("ssaps.w2"));
  o = {};
  o.ssaps.set_first_level_max_depth(-1);
  EXPECT_THAT(message(o), HasSubstr("first_level_max_depth"));
  o = {};
  o.shark.set_depth(0);
  EXPECT_FALSE(MakeStrategy("bfs", o, Table({})).ok());
}

// ---------------------------------------------------------------------------
// Candidates (shared by all strategies)
// ---------------------------------------------------------------------------

TEST(CandidatesTest, OnlyResolvedHyperlinksToOtherPagesOncePerUrl) {
  quark::AnalyzedPage p = MakePage(
      {{"http://s.com/a", "a"},
       {"http://s.com/img.png", "img", html::LinkKind::kImage},
       {"http://s.com/map", "map", html::LinkKind::kArea},
       {"rel/x.html", "x", html::LinkKind::kAnchor, /*resolved=*/false},
       {"http://s.com/page.html", "top"},  // the page itself ("#top")
       {"http://s.com/f", "frame", html::LinkKind::kFrame},
       {"http://s.com/a", "a again"},
       {"http://s.com/moved", "", html::LinkKind::kRefresh}},
      {{BlockType::kNoise, "links", {0, 1, 2, 3, 4, 5, 6}}});
  std::unique_ptr<Strategy> bfs = Make("bfs");
  std::vector<ScoredLink> out =
      bfs->ScoreLinks(Fetched(&p, bfs->SeedState(), 0));
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[0].link, 0);  // first occurrence of http://s.com/a
  EXPECT_EQ(out[1].link, 2);  // <area>
  EXPECT_EQ(out[2].link, 5);  // a frame of the page
  EXPECT_EQ(out[3].link, 7);  // where <meta http-equiv=refresh> sends
}

TEST(CandidatesTest, FramesetsRefreshesAndIframesOfTheirOwnHost) {
  std::unique_ptr<Strategy> bfs = Make("bfs");
  auto candidates = [&](absl::string_view html) {
    std::vector<std::string> urls;
    absl::StatusOr<quark::AnalyzedPage> p =
        quark::AnalyzePage(html, "http://www.cs.uni.test/", "text/html", "");
    EXPECT_TRUE(p.ok()) << p.status();
    if (!p.ok()) return urls;
    for (const ScoredLink& l :
         bfs->ScoreLinks(Fetched(&*p, bfs->SeedState(), 0))) {
      urls.push_back(p->document.links[l.link].url);
    }
    return urls;
  };
  // A 1990s home page: a "this page has moved" refresh and frames.
  EXPECT_THAT(candidates("<html><head><meta http-equiv=refresh content='0; "
                         "url=/new/'></head><frameset><frame src=menu.html "
                         "name=menu><frame src=main.html></frameset></html>"),
              testing::ElementsAre("http://www.cs.uni.test/new/",
                                   "http://www.cs.uni.test/menu.html",
                                   "http://www.cs.uni.test/main.html"));
  // An iframe of the site's own, one of an ad server, an image.
  EXPECT_THAT(candidates("<html><body><iframe src='/schedule.html'></iframe>"
                         "<iframe src='http://ads.example.net/banner'></iframe>"
                         "<img src=logo.gif><a href=courses.html>Courses</a>"
                         "</body></html>"),
              testing::ElementsAre("http://www.cs.uni.test/schedule.html",
                                   "http://www.cs.uni.test/courses.html"));
}

TEST(NavigationLevelTest, Reading) {
  EXPECT_EQ(NavigationLevel("http://s.com"), 0);
  EXPECT_EQ(NavigationLevel("http://s.com/"), 0);
  EXPECT_EQ(NavigationLevel("http://s.com/?cat=3"), 0);
  EXPECT_EQ(NavigationLevel("http://s.com/Default.aspx"), 0);
  EXPECT_EQ(NavigationLevel("http://s.com/physics/"), 1);
  EXPECT_EQ(NavigationLevel("http://s.com/physics"), 1);
  EXPECT_EQ(NavigationLevel("http://s.com/physics/index.html"), 1);
  EXPECT_EQ(NavigationLevel("http://business.sohu.com/stock.shtml"), 1);
  EXPECT_EQ(NavigationLevel("http://s.com/physics/a.html"), 2);
  EXPECT_EQ(NavigationLevel("http://s.com/a/b/"), 2);
  EXPECT_EQ(NavigationLevel("mailto:x@y"), -1);
  EXPECT_EQ(NavigationLevel("relative/path"), -1);
}

// ---------------------------------------------------------------------------
// BFS
// ---------------------------------------------------------------------------

TEST(BfsTest, FifoThroughNegativeCounter) {
  std::unique_ptr<Strategy> bfs = Make("bfs");
  EXPECT_EQ(bfs->SeedState(), State(kSeedScore, 0, 0));
  quark::AnalyzedPage p = ThreeLinks();
  // c = 1, 2, 3 → scores −1, −2, −3 (earlier = higher).
  std::vector<ScoredLink> first =
      bfs->ScoreLinks(Fetched(&p, bfs->SeedState(), 0));
  ASSERT_EQ(first.size(), 3u);
  EXPECT_EQ(first[0].state.score, -1);
  EXPECT_EQ(first[1].state.score, -2);
  EXPECT_EQ(first[2].state.score, -3);
  // The next page's children queue behind: −4, −5, −6.
  std::vector<ScoredLink> second =
      bfs->ScoreLinks(Fetched(&p, first[0].state, 1));
  EXPECT_EQ(second[0].state.score, -4);
  EXPECT_EQ(bfs->sequence(), 6);
  // Already queued: keeps its earlier place.
  EXPECT_EQ(bfs->Merge(first[1].state, second[1].state).score, -2);
}

TEST(BfsTest, RestoreSequenceNeverMovesBack) {
  std::unique_ptr<Strategy> bfs = Make("bfs");
  bfs->RestoreSequence(100);
  bfs->RestoreSequence(5);
  quark::AnalyzedPage p = ThreeLinks();
  EXPECT_EQ(bfs->ScoreLinks(Fetched(&p, bfs->SeedState(), 0))[0].state.score,
            -101);
}

// ---------------------------------------------------------------------------
// Fish-Search (D = 3, width 2 here)
// ---------------------------------------------------------------------------

StrategyOptions FishOptionsWidth2() {
  StrategyOptions o;
  o.fish.set_width(2);
  return o;
}

TEST(FishTest, RelevantPageChildrenGoToTheFrontUpToWidth) {
  std::unique_ptr<Strategy> fish = Make("fish", FishOptionsWidth2());
  EXPECT_EQ(fish->SeedState(), State(kSeedScore, 0, 3));
  quark::AnalyzedPage p = ThreeLinks();
  // relevance 0.5 > 0.1: relevant. c = 1, 2, 3; first width = 2 children at
  // the front (+c), the third at the back (−c); all get budget D = 3.
  std::vector<ScoredLink> out =
      fish->ScoreLinks(Fetched(&p, State(0, 0, 1), 0.5));
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].state, State(1, 0, 3));
  EXPECT_EQ(out[1].state, State(2, 0, 3));  // newest first at the front
  EXPECT_EQ(out[2].state, State(-3, 0, 3));
}

TEST(FishTest, IrrelevantPageChildrenGoToTheBackWithBudgetMinusOne) {
  std::unique_ptr<Strategy> fish = Make("fish", FishOptionsWidth2());
  quark::AnalyzedPage p = ThreeLinks();
  // relevance 0.1 is not > 0.1: irrelevant; budget 2 → children 1, scores −c.
  std::vector<ScoredLink> out =
      fish->ScoreLinks(Fetched(&p, State(-9, 0, 2), 0.1));
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].state, State(-1, 0, 1));
  EXPECT_EQ(out[2].state, State(-3, 0, 1));
  // A budget-1 irrelevant page gives budget-0 children (queued: they may be
  // relevant, but spawn nothing)...
  out = fish->ScoreLinks(Fetched(&p, State(-9, 0, 1), 0));
  EXPECT_EQ(out[0].state.depth_budget, 0);
  // ...and a budget-0 page spawns no children, relevant or not.
  EXPECT_TRUE(fish->ScoreLinks(Fetched(&p, State(-9, 0, 0), 0.9)).empty());
  EXPECT_TRUE(fish->ScoreLinks(Fetched(&p, State(-9, 0, 0), 0)).empty());
}

TEST(FishTest, MergeKeepsTheBetterPositionAndBudget) {
  std::unique_ptr<Strategy> fish = Make("fish");
  EXPECT_EQ(fish->Merge(State(-3, 0, 1), State(7, 0, 3)), State(7, 0, 3));
  EXPECT_EQ(fish->Merge(State(9, 0, 1), State(-10, 0, 3)), State(9, 0, 3));
  EXPECT_EQ(fish->Merge(State(-3, 0, 2), State(-8, 0, 1)), State(-3, 0, 2));
}

// ---------------------------------------------------------------------------
// Shark-Search (δ = 0.5, β = 0.8, γ = 0.5, D = 3)
// ---------------------------------------------------------------------------

quark::AnalyzedPage SharkPage() {
  return MakePage({{"http://s.com/a", "quantum"},
                   {"http://s.com/b", "click here"},
                   {"http://s.com/c", "more"}},
                  {{BlockType::kContent, "block zero", {0, 1}},
                   {BlockType::kNoise, "block one", {2}}});
}

SimilarityFn SharkSim() {
  return Table({{"quantum", 0.5}, {"block zero", 0.3}});
}

TEST(SharkTest, PotentialOfARelevantPageByHand) {
  std::unique_ptr<Strategy> shark = Make("shark", {}, SharkSim());
  EXPECT_EQ(shark->SeedState(), State(kSeedScore, 0, 3));
  quark::AnalyzedPage p = SharkPage();
  // sim(T, P_S) = 0.6 > 0: inherited = δ·0.6 = 0.3; relevant → budget D = 3.
  std::vector<ScoredLink> out =
      shark->ScoreLinks(Fetched(&p, State(1, 0.2, 2), 0.6));
  ASSERT_EQ(out.size(), 3u);
  // a: anchor 0.5 > 0 → context 1; neighbourhood = .8·.5 + .2·1 = .6;
  //    potential = .5·.3 + .5·.6 = .45
  EXPECT_NEAR(out[0].state.score, 0.45, kEps);
  EXPECT_NEAR(out[0].state.inherited, 0.3, kEps);
  EXPECT_EQ(out[0].state.depth_budget, 3);
  // b: anchor 0 → context = sim(block zero) = .3; neighbourhood = .2·.3 = .06;
  //    potential = .15 + .03 = .18
  EXPECT_NEAR(out[1].state.score, 0.18, kEps);
  // c: anchor 0, block one 0 → neighbourhood 0; potential = .15
  EXPECT_NEAR(out[2].state.score, 0.15, kEps);
}

TEST(SharkTest, IrrelevantPageInheritsFromItsParent) {
  std::unique_ptr<Strategy> shark = Make("shark", {}, SharkSim());
  quark::AnalyzedPage p = SharkPage();
  // sim(T, P_S) = 0: inherited = δ·inherited(P_S) = .5·.2 = .1; budget 2 − 1.
  std::vector<ScoredLink> out =
      shark->ScoreLinks(Fetched(&p, State(1, 0.2, 2), 0));
  ASSERT_EQ(out.size(), 3u);
  // a: potential = .5·.1 + .5·.6 = .35
  EXPECT_NEAR(out[0].state.score, 0.35, kEps);
  EXPECT_NEAR(out[0].state.inherited, 0.1, kEps);
  EXPECT_EQ(out[0].state.depth_budget, 1);
  // A spent budget spawns nothing.
  EXPECT_TRUE(shark->ScoreLinks(Fetched(&p, State(1, 0.2, 0), 0.9)).empty());
}

TEST(SharkTest, RelevanceThresholdForTheDepthRule) {
  StrategyOptions o;
  o.shark.set_relevance_threshold(0.7);
  std::unique_ptr<Strategy> shark = Make("shark", o, SharkSim());
  quark::AnalyzedPage p = SharkPage();
  // 0.6 is not > 0.7: budget 2 − 1; inherited still δ·0.6 (sim > 0).
  std::vector<ScoredLink> out =
      shark->ScoreLinks(Fetched(&p, State(1, 0.2, 2), 0.6));
  EXPECT_EQ(out[0].state.depth_budget, 1);
  EXPECT_NEAR(out[0].state.inherited, 0.3, kEps);
}

TEST(SharkTest, DuplicateUrlKeepsFirstIndexAndBestPotential) {
  quark::AnalyzedPage p =
      MakePage({{"http://s.com/a", "more"}, {"http://s.com/a", "quantum"}},
               {{BlockType::kNoise, "block one", {0}},
                {BlockType::kContent, "block zero", {1}}});
  std::unique_ptr<Strategy> shark = Make("shark", {}, SharkSim());
  std::vector<ScoredLink> out =
      shark->ScoreLinks(Fetched(&p, State(1, 0, 3), 0.6));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].link, 0);
  // First occurrence .15, second .45 (as in PotentialOfARelevantPageByHand).
  EXPECT_NEAR(out[0].state.score, 0.45, kEps);
}

TEST(SharkTest, MergeKeepsMaxPotentialWithItsInheritedAndMaxBudget) {
  std::unique_ptr<Strategy> shark = Make("shark", {}, SharkSim());
  EXPECT_EQ(shark->Merge(State(.4, .2, 1), State(.3, .1, 3)), State(.4, .2, 3));
  EXPECT_EQ(shark->Merge(State(.2, .2, 3), State(.3, .1, 1)), State(.3, .1, 3));
}

// ---------------------------------------------------------------------------
// SSAPS (γ = .5, w = 1, 1, 1, δ = .3, D = 3)
// ---------------------------------------------------------------------------

quark::AnalyzedPage SsapsPage() {
  return MakePage(
      {{"http://s.com/rel1.html", "rel anchor"},         // 0: B_LR
       {"http://s.com/rel2.html", "plain"},              // 1: B_LR
       {"http://s.com/physics/", "Physics"},             // 2: B_LN level 1
       {"http://s.com/physics/quantum/a.html", "deep"},  // 3: B_LN level 3
       {"http://ads.com/x", "ad"},                       // 4: B_LA
       {"http://s.com/inline.html", "inline"}},          // 5: B_T
      {{BlockType::kContent, "content zero", {5}},
       {BlockType::kContent, "content one", {}},
       {BlockType::kRelatedLinks, "related block", {0, 1}},
       {BlockType::kNavigation, "nav block", {2, 3}},
       {BlockType::kNoise, "ads", {4}}});
}

SimilarityFn SsapsSim() {
  return Table({{"content zero", .2},
                {"content one", .1},
                {"related block", .4},
                {"rel anchor", .3},
                {"nav block", .9},  // navigation and noise text do not
                {"ads", .7},        // count in R_p
                {"Physics", .8},    // anchors count only in B_LR
                {"ad", .6}});
}

TEST(SsapsTest, FormulasByHand) {
  std::unique_ptr<Strategy> ssaps = Make("ssaps", {}, SsapsSim());
  EXPECT_EQ(ssaps->SeedState(), State(kSeedScore, 0, 3));
  quark::AnalyzedPage p = SsapsPage();
  // Formula 1: R_p = .2 + .1 (B_T) + .4 (B_LR) = .7
  std::vector<ScoredLink> out =
      ssaps->ScoreLinks(Fetched(&p, State(1, 0, 1), 0));
  ASSERT_EQ(out.size(), 6u);
  std::map<int32_t, FrontierState> by_link;
  for (const ScoredLink& s : out) by_link[s.link] = s.state;
  // 0: R_B = cos(B_LR) = .4, R_A = .3 → R = .7 + .4 + .3 = 1.4
  EXPECT_NEAR(by_link[0].score, 1.4, kEps);
  // 1: R_B = .4, R_A = 0 → 1.1
  EXPECT_NEAR(by_link[1].score, 1.1, kEps);
  // 2: first-level navigation: R_B = γ = .5, R_A = 0 → 1.2
  EXPECT_NEAR(by_link[2].score, 1.2, kEps);
  // 3: deeper navigation link: R_B = 0 → .7
  EXPECT_NEAR(by_link[3].score, 0.7, kEps);
  // 4: noise: R_B = R_A = 0 → .7
  EXPECT_NEAR(by_link[4].score, 0.7, kEps);
  // 5: content block: R_B = R_A = 0 → .7
  EXPECT_NEAR(by_link[5].score, 0.7, kEps);
  // All R > δ = .3: budget D = 3 although the parent's budget was 1.
  for (const ScoredLink& s : out) EXPECT_EQ(s.state.depth_budget, 3);
}

TEST(SsapsTest, WeightsByHand) {
  StrategyOptions o;
  o.ssaps.set_w1(2);
  o.ssaps.set_w2(0);
  o.ssaps.set_w3(1);
  o.ssaps.set_gamma(0.25);
  std::unique_ptr<Strategy> ssaps = Make("ssaps", o, SsapsSim());
  quark::AnalyzedPage p = SsapsPage();
  std::vector<ScoredLink> out =
      ssaps->ScoreLinks(Fetched(&p, State(1, 0, 3), 0));
  // link 0: 2·.7 + 0·.4 + 1·.3 = 1.7; link 2: 2·.7 + 0·.25 = 1.4
  EXPECT_NEAR(out[0].state.score, 1.7, kEps);
  EXPECT_NEAR(out[2].state.score, 1.4, kEps);
}

TEST(SsapsTest, DepthBudgetBelowDelta) {
  // R_p = .1 (content) + 0 (related); first-level nav: .1 + .5 = .6 > .3 → D;
  // noise: R = .1 ≤ .3 → parent budget − 1.
  quark::AnalyzedPage p = MakePage(
      {{"http://s.com/physics/", "Physics"}, {"http://ads.com/x", "ad"}},
      {{BlockType::kContent, "content one", {}},
       {BlockType::kRelatedLinks, "off topic", {}},
       {BlockType::kNavigation, "nav", {0}},
       {BlockType::kNoise, "ads", {1}}});
  std::unique_ptr<Strategy> ssaps =
      Make("ssaps", {}, Table({{"content one", .1}}));
  std::vector<ScoredLink> out =
      ssaps->ScoreLinks(Fetched(&p, State(1, 0, 2), 0));
  ASSERT_EQ(out.size(), 2u);
  EXPECT_NEAR(out[0].state.score, 0.6, kEps);
  EXPECT_EQ(out[0].state.depth_budget, 3);
  EXPECT_NEAR(out[1].state.score, 0.1, kEps);
  EXPECT_EQ(out[1].state.depth_budget, 1);
  // Parent budget 1: the noise link would get 0 and is not queued; the
  // navigation link still is (R > δ).
  out = ssaps->ScoreLinks(Fetched(&p, State(1, 0, 1), 0));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].link, 0);
}

TEST(SsapsTest, MergeIsMaxRAndMaxBudget) {
  std::unique_ptr<Strategy> ssaps = Make("ssaps", {}, SsapsSim());
  EXPECT_EQ(ssaps->Merge(State(.4, 0, 3), State(.9, 0, 1)), State(.9, 0, 3));
  EXPECT_EQ(ssaps->Merge(State(.9, 0, 1), State(.4, 0, 2)), State(.9, 0, 2));
}

// ---------------------------------------------------------------------------
// The production path: real Topic on a page analysed by Quark.
// ---------------------------------------------------------------------------

std::string ReadArticle() {
  std::ifstream f(std::string(FCRAWL_SOURCE_DIR) +
                  "/quark/testdata/article.html");
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

class RealTopicTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<quark::AnalyzedPage> p = quark::AnalyzePage(
        ReadArticle(), "http://physics.example.com/physics/entanglement.html",
        "", "");
    ASSERT_TRUE(p.ok()) << p.status();
    page_ = std::move(*p);
  }
  int32_t LinkTo(absl::string_view url) const {
    for (size_t i = 0; i < page_.document.links.size(); ++i) {
      if (page_.document.links[i].url == url) return static_cast<int32_t>(i);
    }
    return -1;
  }
  const quark::Block* BlockOf(int32_t link) const {
    for (const quark::Block& b : page_.segmentation.blocks) {
      for (int32_t l : b.links) {
        if (l == link) return &b;
      }
    }
    return nullptr;
  }
  static const ScoredLink* Find(const std::vector<ScoredLink>& out,
                                int32_t link) {
    for (const ScoredLink& s : out) {
      if (s.link == link) return &s;
    }
    return nullptr;
  }

  quark::AnalyzedPage page_;
};

TEST_F(RealTopicTest, SharkAnchorSimilarityByHand) {
  // Own statistics (N = 1): vectors are normalised tf. T = (quantum, physics)
  // = (1/√2, 1/√2); anchor "Physics" = (0, 1) → anchor = 1/√2, context = 1.
  // neighbourhood = .8/√2 + .2 = .765685; relevance .4 → inherited .2;
  // potential = .5·.2 + .5·.765685 = .482843
  Topic topic = Topic::FromText("quantum physics", "");
  absl::StatusOr<std::unique_ptr<Strategy>> shark =
      MakeStrategy("shark", StrategyOptions{}, topic);
  ASSERT_TRUE(shark.ok());
  std::vector<ScoredLink> out =
      (*shark)->ScoreLinks(Fetched(&page_, (*shark)->SeedState(), 0.4));
  const int32_t physics = LinkTo("http://physics.example.com/physics/");
  ASSERT_GE(physics, 0);
  const ScoredLink* s = Find(out, physics);
  ASSERT_NE(s, nullptr);
  EXPECT_NEAR(s->state.score, 0.48284271247461896, 1e-9);
  EXPECT_NEAR(s->state.inherited, 0.2, kEps);
  EXPECT_EQ(s->state.depth_budget, 3);
}

TEST_F(RealTopicTest, SsapsMatchesTheFormulasOnQuarkBlocks) {
  Topic topic = Topic::FromText("quantum entanglement physics", "");
  absl::StatusOr<std::unique_ptr<Strategy>> ssaps =
      MakeStrategy("ssaps", StrategyOptions{}, topic);
  ASSERT_TRUE(ssaps.ok());
  std::vector<ScoredLink> out =
      (*ssaps)->ScoreLinks(Fetched(&page_, (*ssaps)->SeedState(), 0));

  double r_p = 0;
  for (const quark::Block& b : page_.segmentation.blocks) {
    if (b.type == BlockType::kContent || b.type == BlockType::kRelatedLinks) {
      r_p += topic.Similarity(b.text);
    }
  }
  EXPECT_GT(r_p, 0);

  // Related link: R = R_p + cos(B_LR, T) + cos(anchor, T).
  const int32_t bell =
      LinkTo("http://physics.example.com/physics/bell-inequality.html");
  ASSERT_GE(bell, 0);
  ASSERT_EQ(BlockOf(bell)->type, BlockType::kRelatedLinks);
  ASSERT_NE(Find(out, bell), nullptr);
  EXPECT_NEAR(Find(out, bell)->state.score,
              r_p + topic.Similarity(BlockOf(bell)->text) +
                  topic.Similarity(page_.document.links[bell].anchor_text),
              1e-12);

  // First-level navigation link: R = R_p + γ.
  const int32_t astronomy = LinkTo("http://physics.example.com/astronomy/");
  ASSERT_GE(astronomy, 0);
  ASSERT_EQ(BlockOf(astronomy)->type, BlockType::kNavigation);
  EXPECT_NEAR(Find(out, astronomy)->state.score, r_p + 0.5, 1e-12);

  // Noise link: R = R_p.
  const int32_t ad = LinkTo("http://ads.example.net/click?id=1");
  ASSERT_GE(ad, 0);
  ASSERT_EQ(BlockOf(ad)->type, BlockType::kNoise);
  EXPECT_NEAR(Find(out, ad)->state.score, r_p, 1e-12);
}

TEST_F(RealTopicTest, FishUsesTheCallersRelevance) {
  Topic topic = Topic::FromText("quantum entanglement", "");
  absl::StatusOr<std::unique_ptr<Strategy>> fish =
      MakeStrategy("fish", StrategyOptions{}, topic);
  ASSERT_TRUE(fish.ok());
  std::vector<ScoredLink> out =
      (*fish)->ScoreLinks(Fetched(&page_, (*fish)->SeedState(), 0.5));
  ASSERT_FALSE(out.empty());
  int front = 0;
  for (const ScoredLink& s : out) front += s.state.score > 0;
  EXPECT_EQ(front, std::min<int>(10, static_cast<int>(out.size())));
}

}  // namespace
}  // namespace fcrawl::focus
