// Improved Shark-Search ([MMTOPIC] §3.4.2): formulas 3.12 and 3.15-3.17 and
// 4.8 against hand-computed values, and the helpers of mmtopic_scores.h. The
// topic is "physics video" with its own statistics: T = {physics, video}, a
// Boolean score (3.9, 3.10) is 0, 1/2 or 1, and a cosine (3.14) is that of
// normalised term frequencies.
#include <cmath>
#include <fstream>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "focus/mmtopic_scores.h"
#include "focus/strategy.h"
#include "focus/strategy_internal.h"
#include "focus/topic.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "quark/quark.h"

namespace fcrawl::focus {
namespace {

using internal::mmtopic::BoundedMap;
using quark::BlockType;

constexpr double kEps = 1e-12;

struct LinkSpec {
  std::string url;
  std::string anchor;
};
struct BlockSpec {
  std::string group_title;
  std::vector<int32_t> links;
};

quark::AnalyzedPage MakePage(const std::vector<LinkSpec>& links,
                             const std::vector<BlockSpec>& blocks,
                             std::string url = "http://s.com/page.html") {
  quark::AnalyzedPage p;
  p.document.url = std::move(url);
  for (const LinkSpec& l : links) {
    html::Link link;
    link.url = l.url;
    link.anchor_text = l.anchor;
    p.document.links.push_back(link);
  }
  for (size_t i = 0; i < blocks.size(); ++i) {
    quark::Block b;
    b.index = static_cast<int32_t>(i);
    b.type = BlockType::kRelatedLinks;
    b.group_title = blocks[i].group_title;
    b.links = blocks[i].links;
    p.segmentation.blocks.push_back(b);
  }
  return p;
}

// A page with one untitled link of Content 0 (no topic word anywhere), so
// its score is (1−∂)·λ·P.
quark::AnalyzedPage Plain(std::string url) {
  return MakePage({{"http://s.com/x/" + url, "more"}}, {{"", {0}}}, url);
}

Topic PhysicsVideo() { return Topic::FromText("physics video", ""); }

std::unique_ptr<Strategy> Make(const StrategyOptions& options = {}) {
  absl::StatusOr<std::unique_ptr<Strategy>> s =
      MakeStrategy("improved-shark", options, PhysicsVideo());
  EXPECT_TRUE(s.ok()) << s.status();
  return s.ok() ? std::move(*s) : nullptr;
}

FetchedPage Fetched(const quark::AnalyzedPage& p, double relevance,
                    absl::string_view parent_url = "") {
  FetchedPage f;
  f.page = &p;
  f.relevance = relevance;
  f.url = p.document.url;
  f.final_url = p.document.url;
  f.parent_url = parent_url;
  return f;
}

// The link part λ(d_j)·P(d_j) the out-links of `page` receive.
double Contribution(Strategy& s, const quark::AnalyzedPage& page,
                    double relevance, absl::string_view parent_url) {
  std::vector<ScoredLink> out =
      s.ScoreLinks(Fetched(page, relevance, parent_url));
  EXPECT_EQ(out.size(), 1u);
  if (out.empty()) return -1;
  EXPECT_EQ(out[0].state.count, 1);
  EXPECT_EQ(out[0].state.content, 0);
  EXPECT_NEAR(out[0].state.score, 0.6 * out[0].state.sum, kEps);  // 4.8
  return out[0].state.sum;
}

TEST(ImprovedSharkTest, NameAndSeed) {
  std::unique_ptr<Strategy> s = Make();
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->name(), "improved-shark");
  EXPECT_EQ(s->SeedState().score, kSeedScore);
}

TEST(ImprovedSharkTest, Formula3_12ContentScore) {
  // Link 0, block titled "physics": cos = (1/√2·1) = 1/√2; anchor
  //   "physics video" 1, URL words {s, com, news, 1} 0:
  //   Content = (1/√2)·(.8·1 + .2·0) = .565685425.
  // Link 1, untitled block: anchor "video" 1/2, URL "physics" 1/2:
  //   Content = 1·(.8·.5 + .2·.5) = .5.
  // Link 2, block titled "weather report": cos 0 → Content 0.
  // Link 3, in no block: as untitled; anchor 1/2, URL 1 ("physics",
  //   "video"): .8·.5 + .2·1 = .6.
  // Link 4, block titled "physics video lectures": cos = (1+1)/(√2·√3) =
  //   .816496581; anchor 0, URL 1/2: Content = .816496581·.1 = .0816496581.
  // The seed has relevance 0: λ = 1, P = 0, so S = .4·Content.
  std::unique_ptr<Strategy> s = Make();
  quark::AnalyzedPage p = MakePage({{"http://s.com/news/1", "physics video"},
                                    {"http://s.com/physics/x", "video"},
                                    {"http://s.com/y", "physics video"},
                                    {"http://s.com/physics/video", "physics"},
                                    {"http://s.com/video/z", "home"}},
                                   {{"physics", {0}},
                                    {"", {1}},
                                    {"weather report", {2}},
                                    {"physics video lectures", {4}}});
  std::vector<ScoredLink> out = s->ScoreLinks(Fetched(p, 0));
  ASSERT_EQ(out.size(), 5u);
  const double expected[] = {0.8 / std::sqrt(2.0), 0.5, 0, 0.6,
                             0.1 * 2 / std::sqrt(6.0)};
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_NEAR(out[i].state.content, expected[i], kEps) << i;
    EXPECT_NEAR(out[i].state.score, 0.4 * expected[i], kEps) << i;
    EXPECT_EQ(out[i].state.sum, 0) << i;
  }
  EXPECT_NEAR(out[0].state.content, 0.565685425, 1e-9);
  EXPECT_NEAR(out[4].state.content, 0.0816496581, 1e-9);
}

TEST(ImprovedSharkTest, Formula3_12Beta) {
  // β = 1: the URL does not count. Link 1 above: 1·(1·.5) = .5; a link with
  // the topic only in its URL: 0.
  StrategyOptions o;
  o.improved_shark.set_beta(1);
  quark::AnalyzedPage p = MakePage(
      {{"http://s.com/physics/x", "video"}, {"http://s.com/physics/y", "z"}},
      {{"", {0, 1}}});
  std::vector<ScoredLink> out = Make(o)->ScoreLinks(Fetched(p, 0));
  ASSERT_EQ(out.size(), 2u);
  EXPECT_NEAR(out[0].state.content, 0.5, kEps);
  EXPECT_NEAR(out[1].state.content, 0, kEps);
}

TEST(ImprovedSharkTest, Formulas3_15To3_17AndSeed) {
  // A seed (no parent, no crawled children): λ = θ/θ = 1, P = R = .4;
  // S = .4·.6 + .6·.4 = .48 for Content .6 (link 3 of the test above).
  std::unique_ptr<Strategy> s = Make();
  quark::AnalyzedPage p =
      MakePage({{"http://s.com/physics/video", "physics"}}, {});
  std::vector<ScoredLink> out = s->ScoreLinks(Fetched(p, 0.4));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_NEAR(out[0].state.sum, 0.4, kEps);
  EXPECT_EQ(out[0].state.count, 1);
  EXPECT_NEAR(out[0].state.score, 0.48, kEps);
}

TEST(ImprovedSharkTest, Formulas3_16And3_17FromTheCrawledSiblings) {
  // Children of the seed S fetched one after the other (θ = .5, σ = .6):
  // c1 (R .5): no sibling crawled before: P = R = .5; generation {n 1, n' 1}:
  //   λ = 1.5/1.5 = 1 → .5.
  // c2 (R .05): sibling mean P .5: P = .4·.05 + .6·.5 = .32; generation
  //   {2, 1}: λ = 1.5/2.5 = .6 → .192.
  // c3 (R .3): sibling mean (.5 + .32)/2 = .41: P = .12 + .246 = .366;
  //   generation {3, 2}: λ = 2.5/3.5 → .366·5/7 = .261428571.
  std::unique_ptr<Strategy> s = Make();
  const std::string seed = "http://s.com/";
  EXPECT_NEAR(Contribution(*s, Plain("c1"), 0.5, seed), 0.5, kEps);
  EXPECT_NEAR(Contribution(*s, Plain("c2"), 0.05, seed), 0.192, kEps);
  EXPECT_NEAR(Contribution(*s, Plain("c3"), 0.3, seed), 0.366 * 5 / 7, kEps);
  EXPECT_NEAR(Contribution(*s, Plain("c3b"), 0.3, "http://other.com/"), 0.3,
              kEps);  // another parent: its own generation

  // A re-fetched S has crawled children {3, 2, ΣP 1.186}: the paper's own
  // λ(S) = 2.5/3.5 and P(S) = .4·.4 + .6·(1.186/3) = .3972 → .283714286.
  quark::AnalyzedPage root = Plain(seed);
  EXPECT_NEAR(Contribution(*s, root, 0.4, ""), 0.3972 * 5 / 7, kEps);
}

TEST(ImprovedSharkTest, Formula3_16Theta) {
  // θ = 2: c2 above gets λ = (1 + 2)/(2 + 2) = .75 → .75·.32 = .24.
  StrategyOptions o;
  o.improved_shark.set_theta(2);
  std::unique_ptr<Strategy> s = Make(o);
  Contribution(*s, Plain("c1"), 0.5, "http://s.com/");
  EXPECT_NEAR(Contribution(*s, Plain("c2"), 0.05, "http://s.com/"), 0.24, kEps);
}

TEST(ImprovedSharkTest, Formula3_17Sigma) {
  // σ = 0: P = R; c2: λ = .6 → .6·.05 = .03.
  StrategyOptions o;
  o.improved_shark.set_sigma(0);
  std::unique_ptr<Strategy> s = Make(o);
  Contribution(*s, Plain("c1"), 0.5, "http://s.com/");
  EXPECT_NEAR(Contribution(*s, Plain("c2"), 0.05, "http://s.com/"), 0.03, kEps);
}

TEST(ImprovedSharkTest, PagesWithoutLinksStillCountAsCrawledChildren) {
  std::unique_ptr<Strategy> s = Make();
  quark::AnalyzedPage empty;
  empty.document.url = "http://s.com/c1";
  EXPECT_TRUE(s->ScoreLinks(Fetched(empty, 0.5, "http://s.com/")).empty());
  // As c2 above: .192.
  EXPECT_NEAR(Contribution(*s, Plain("c2"), 0.05, "http://s.com/"), 0.192,
              kEps);
  EXPECT_TRUE(s->ScoreLinks(FetchedPage{}).empty());
}

TEST(ImprovedSharkTest, MergeAveragesOverParents) {
  // 3.15 over t = 2 parents: (.5 + .192)/2 = .346; Content max(.2, .6) =
  // .6; S = .4·.6 + .6·.346 = .24 + .2076 = .4476.
  std::unique_ptr<Strategy> s = Make();
  FrontierState q, o;
  q.sum = 0.5;
  q.count = 1;
  q.content = 0.2;
  o.sum = 0.192;
  o.count = 1;
  o.content = 0.6;
  FrontierState m = s->Merge(q, o);
  EXPECT_NEAR(m.sum, 0.692, kEps);
  EXPECT_EQ(m.count, 2);
  EXPECT_NEAR(m.content, 0.6, kEps);
  EXPECT_NEAR(m.score, 0.4476, kEps);
  EXPECT_EQ(s->Merge(o, q), m);
  // A third parent with .1: (.692 + .1)/3 = .264; S = .24 + .1584 = .3984.
  FrontierState third;
  third.sum = 0.1;
  third.count = 1;
  EXPECT_NEAR(s->Merge(m, third).score, 0.3984, kEps);
  // Seeds stay seeds; garbage counts as nothing.
  EXPECT_EQ(s->Merge(s->SeedState(), o), s->SeedState());
  EXPECT_EQ(s->Merge(o, s->SeedState()), s->SeedState());
  FrontierState bad;
  bad.sum = std::nan("");
  bad.count = -1;
  bad.content = std::numeric_limits<double>::infinity();
  FrontierState g = s->Merge(bad, o);
  EXPECT_NEAR(g.sum, 0.192, kEps);
  EXPECT_EQ(g.count, 1);
  EXPECT_EQ(g.content, 1);  // clamped
  EXPECT_NEAR(g.score, 0.4 + 0.6 * 0.192, kEps);
}

TEST(ImprovedSharkTest, TopicalLinkOutranksTheOther) {
  std::unique_ptr<Strategy> s = Make();
  quark::AnalyzedPage p =
      MakePage({{"http://s.com/weather/today", "weather today"},
                {"http://s.com/physics/video.html", "physics video"}},
               {{"", {0, 1}}});
  std::vector<ScoredLink> out = s->ScoreLinks(Fetched(p, 0.3));
  ASSERT_EQ(out.size(), 2u);
  EXPECT_NEAR(out[1].state.content, 1, kEps);
  EXPECT_GT(out[1].state.score, out[0].state.score);
}

TEST(ImprovedSharkTest, RepeatedUrlTakesItsBestOccurrence) {
  std::unique_ptr<Strategy> s = Make();
  quark::AnalyzedPage p = MakePage(
      {{"http://s.com/a", "home"}, {"http://s.com/a", "physics video"}},
      {{"weather", {0}}, {"", {1}}});
  std::vector<ScoredLink> out = s->ScoreLinks(Fetched(p, 0));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].link, 0);
  EXPECT_NEAR(out[0].state.content, 0.8, kEps);  // 1·(.8·1 + .2·0)
}

TEST(ImprovedSharkTest, NanSimilarity) {
  // Every cosine NaN → 0 (titled blocks then give Content 0), a NaN
  // relevance is R = 0 and not relevant; scores stay finite.
  absl::StatusOr<std::unique_ptr<Strategy>> s =
      MakeStrategy("improved-shark", StrategyOptions{},
                   [](absl::string_view) { return std::nan(""); });
  ASSERT_TRUE(s.ok());
  quark::AnalyzedPage p =
      MakePage({{"http://s.com/physics", "physics"}}, {{"physics", {0}}});
  std::vector<ScoredLink> out = (*s)->ScoreLinks(Fetched(p, std::nan("")));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].state.content, 0);
  EXPECT_EQ(out[0].state.score, 0);
  // A child with NaN relevance: crawled, not relevant: P = 0, generation
  // {1, 0}: λ = .5/1.5. A second child with R .5: P = .4·.5 + .6·0 = .2,
  // generation {2, 1}: λ = 1.5/2.5 → .12.
  EXPECT_EQ(Contribution(**s, Plain("c1"), std::nan(""), "http://s.com/"), 0);
  EXPECT_NEAR(Contribution(**s, Plain("c2"), 0.5, "http://s.com/"), 0.12, kEps);
}

TEST(ImprovedSharkTest, BoundedChildStatistics) {
  // Capacity 1: c1 under S1, then a child of S2 evicts S1's statistics, so
  // c2 under S1 is like a first child: P = R = .05, generation {1, 0},
  // λ = .5/1.5 → .05/3 (.192 with S1 remembered).
  internal::StrategyContext context;
  context.topic = PhysicsVideo();
  context.similarity = [topic = context.topic](absl::string_view t) {
    return topic.Similarity(t);
  };
  std::unique_ptr<Strategy> s = internal::mmtopic::MakeImprovedShark(
      StrategyOptions{}, context, /*max_tracked_urls=*/1);
  Contribution(*s, Plain("c1"), 0.5, "http://s1.com/");
  Contribution(*s, Plain("d1"), 0.5, "http://s2.com/");
  EXPECT_NEAR(Contribution(*s, Plain("c2"), 0.05, "http://s1.com/"), 0.05 / 3,
              kEps);
}

TEST(ImprovedSharkTest, ConcurrentChildren) {
  // 4 threads × 100 children of one parent, all relevant with R .5: every
  // P is .5 whatever the order, and λ = 1; the statistics stay consistent.
  std::unique_ptr<Strategy> s = Make();
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 100; ++i) {
        quark::AnalyzedPage p = Plain("c" + std::to_string(t * 100 + i));
        std::vector<ScoredLink> out =
            s->ScoreLinks(Fetched(p, 0.5, "http://s.com/"));
        ASSERT_EQ(out.size(), 1u);
        EXPECT_NEAR(out[0].state.sum, 0.5, kEps);
      }
    });
  }
  for (std::thread& t : threads) t.join();
  // A 401st child with R 0: P = .6·.5 = .3, λ = 400.5/401.5.
  EXPECT_NEAR(Contribution(*s, Plain("last"), 0, "http://s.com/"),
              0.3 * 400.5 / 401.5, kEps);
}

TEST(ImprovedSharkTest, RealPage) {
  std::ifstream f(std::string(FCRAWL_SOURCE_DIR) +
                  "/quark/testdata/article.html");
  std::stringstream ss;
  ss << f.rdbuf();
  absl::StatusOr<quark::AnalyzedPage> p = quark::AnalyzePage(
      ss.str(), "http://physics.example.com/physics/entanglement.html", "", "");
  ASSERT_TRUE(p.ok()) << p.status();
  const std::vector<int32_t> block_of = internal::BlockOfLinks(*p);
  auto score_of = [&](const std::vector<ScoredLink>& out,
                      absl::string_view url) -> const FrontierState* {
    for (const ScoredLink& l : out) {
      if (p->document.links[l.link].url == url) return &l.state;
    }
    return nullptr;
  };
  const char kTeleportation[] =
      "http://physics.example.com/physics/quantum-teleportation.html";
  const char kAd[] = "http://ads.example.net/click?id=1";
  const char kPhysics[] = "http://physics.example.com/physics/";

  // Quark titles the related-links group "Related", which has no topic
  // term: 3.12 as written zeroes the group's Content. An untitled link
  // ("Physics", URL words with "physics") keeps β·1/2 + (1−β)·1/2 = .5.
  absl::StatusOr<std::unique_ptr<Strategy>> s =
      MakeStrategy("improved-shark", StrategyOptions{},
                   Topic::FromText("quantum physics", ""));
  ASSERT_TRUE(s.ok());
  std::vector<ScoredLink> out = (*s)->ScoreLinks(Fetched(*p, 0.4));
  const FrontierState* teleportation = score_of(out, kTeleportation);
  const FrontierState* ad = score_of(out, kAd);
  const FrontierState* physics = score_of(out, kPhysics);
  ASSERT_NE(teleportation, nullptr);
  ASSERT_NE(ad, nullptr);
  ASSERT_NE(physics, nullptr);
  int32_t link = -1;
  for (size_t i = 0; i < p->document.links.size(); ++i) {
    if (p->document.links[i].url == kTeleportation) {
      link = static_cast<int32_t>(i);
    }
  }
  ASSERT_GE(block_of[link], 0);
  EXPECT_EQ(p->segmentation.blocks[block_of[link]].group_title, "Related");
  EXPECT_EQ(teleportation->content, 0);
  EXPECT_NEAR(physics->content, 0.5, kEps);
  EXPECT_GT(physics->score, ad->score);
  for (const ScoredLink& l : out) {
    EXPECT_GE(l.state.score, 0);
    EXPECT_LE(l.state.score, 1);
  }

  // With "related" in the topic the title scores cos = 1/√3 (tf vectors
  // (1,1,1) and (0,0,1)); the anchor "Quantum teleportation of particle
  // spin states" 1/3, the URL words ("physics", "quantum") 2/3:
  // Content = (1/√3)·(.8/3 + .2·2/3) = .4/√3 = .230940108.
  s = MakeStrategy("improved-shark", StrategyOptions{},
                   Topic::FromText("quantum physics related", ""));
  ASSERT_TRUE(s.ok());
  out = (*s)->ScoreLinks(Fetched(*p, 0.4));
  teleportation = score_of(out, kTeleportation);
  ad = score_of(out, kAd);
  ASSERT_NE(teleportation, nullptr);
  ASSERT_NE(ad, nullptr);
  EXPECT_NEAR(teleportation->content, 0.4 / std::sqrt(3.0), kEps);
  EXPECT_GT(teleportation->score, ad->score);
}

// ---------------------------------------------------------------------------
// mmtopic_scores.h
// ---------------------------------------------------------------------------

TEST(MmtopicScoresTest, Formula4_8AndClamps) {
  using internal::mmtopic::FinalScore;
  using internal::mmtopic::SharkContent;
  EXPECT_NEAR(FinalScore(0.4, 0.5, 0.25), 0.2 + 0.15, kEps);
  EXPECT_NEAR(FinalScore(0.4, 2, -1), 0.4, kEps);
  EXPECT_EQ(FinalScore(0.4, std::nan(""), std::nan("")), 0);
  EXPECT_NEAR(FinalScore(1, 0.3, 0.9), 0.3, kEps);
  EXPECT_NEAR(FinalScore(0, 0.3, 0.9), 0.9, kEps);
  EXPECT_NEAR(SharkContent(0.5, 1, 0, 0.8), 0.4, kEps);
  EXPECT_NEAR(SharkContent(0.5, 0, 1, 0.8), 0.1, kEps);
  EXPECT_EQ(SharkContent(std::nan(""), 1, 1, 0.8), 0);
  EXPECT_NEAR(SharkContent(3, 1, 1, 0.8), 1, kEps);
}

TEST(MmtopicScoresTest, BooleanScores) {
  using internal::mmtopic::AnchorScore;
  using internal::mmtopic::UrlScore;
  const Topic t = PhysicsVideo();
  EXPECT_NEAR(AnchorScore(t, "The PHYSICS of it"), 0.5, kEps);
  EXPECT_NEAR(AnchorScore(t, "video physics physics"), 1, kEps);
  EXPECT_EQ(AnchorScore(t, ""), 0);
  EXPECT_EQ(AnchorScore(Topic::FromText("", ""), "physics"), 0);
  EXPECT_NEAR(UrlScore(t, nullptr, "http://s.com/PhysicsVideo.html"), 1, kEps);
  EXPECT_NEAR(UrlScore(t, nullptr, "http://s.com/physics"), 0.5, kEps);
  EXPECT_EQ(UrlScore(t, nullptr, ""), 0);
}

TEST(MmtopicScoresTest, GroupTitleScore) {
  using internal::mmtopic::GroupTitleScore;
  SimilarityFn half = [](absl::string_view) { return 0.5; };
  quark::Block b;
  EXPECT_EQ(GroupTitleScore(nullptr, half), 1);
  EXPECT_EQ(GroupTitleScore(&b, half), 1);  // no title
  b.group_title = "x";
  EXPECT_EQ(GroupTitleScore(&b, half), 0.5);
  EXPECT_EQ(GroupTitleScore(&b, [](absl::string_view) { return 7.0; }), 1);
}

TEST(BoundedMapTest, EvictsTheOldestInsertion) {
  BoundedMap<int> m(2);
  EXPECT_EQ(m.Update(1, [](int& v) { v += 10; }), 10);
  m.Update(2, [](int& v) { v += 20; });
  // Updating key 1 again does not make it younger (FIFO by insertion).
  EXPECT_EQ(m.Update(1, [](int& v) { v += 1; }), 11);
  m.Update(3, [](int& v) { v += 30; });
  EXPECT_EQ(m.size(), 2u);
  EXPECT_FALSE(m.Find(1).has_value());
  EXPECT_EQ(m.Find(2), 20);
  EXPECT_EQ(m.Find(3), 30);
  m.Update(4, [](int& v) { v = 40; });
  EXPECT_FALSE(m.Find(2).has_value());
  EXPECT_EQ(m.Find(4), 40);
  // A re-inserted key starts from scratch.
  EXPECT_EQ(m.Update(1, [](int& v) { v += 1; }), 1);
  EXPECT_EQ(m.size(), 2u);
}

TEST(BoundedMapTest, CapacityAtLeastOneAndConcurrentUpdates) {
  BoundedMap<int> tiny(0);
  EXPECT_EQ(tiny.capacity(), 1u);
  EXPECT_EQ(tiny.Update(5, [](int& v) { ++v; }), 1);
  EXPECT_EQ(tiny.size(), 1u);

  BoundedMap<int64_t> m(1000);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 5000; ++i) {
        m.Update(static_cast<uint64_t>(i % 100), [](int64_t& v) { ++v; });
      }
    });
  }
  for (std::thread& t : threads) t.join();
  for (uint64_t k = 0; k < 100; ++k) EXPECT_EQ(m.Find(k), 200);
}

TEST(BoundedMapTest, ManyKeysStayBounded) {
  BoundedMap<int> m(1000);
  for (uint64_t k = 0; k < 100000; ++k) m.Update(k, [](int& v) { v = 1; });
  EXPECT_EQ(m.size(), 1000u);
  EXPECT_TRUE(m.Find(99999).has_value());
  EXPECT_FALSE(m.Find(98999).has_value());
  EXPECT_TRUE(m.Find(99000).has_value());
}

}  // namespace
}  // namespace fcrawl::focus
