// Topic-PageRank ([MMTOPIC] §3.4.1): formulas 3.6-3.11 and 4.8 against
// hand-computed values. The topic is "physics video" with its own statistics:
// T = {physics, video}, so a Boolean score (3.9, 3.10) is 0, 1/2 or 1.
#include <cmath>
#include <fstream>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "focus/mmtopic_scores.h"
#include "focus/strategy.h"
#include "focus/strategy_internal.h"
#include "focus/topic.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "quark/quark.h"

namespace fcrawl::focus {
namespace {

using quark::BlockType;

constexpr double kEps = 1e-12;

struct LinkSpec {
  std::string url;
  std::string anchor;
  html::LinkKind kind = html::LinkKind::kAnchor;
  bool resolved = true;
};

// A hand-built analysed page with all its links in one noise block.
quark::AnalyzedPage MakePage(const std::vector<LinkSpec>& links,
                             std::string url = "http://s.com/page.html") {
  quark::AnalyzedPage p;
  p.document.url = std::move(url);
  quark::Block b;
  b.type = BlockType::kNoise;
  for (const LinkSpec& l : links) {
    html::Link link;
    link.url = l.url;
    link.anchor_text = l.anchor;
    link.kind = l.kind;
    link.resolved = l.resolved;
    b.links.push_back(static_cast<int32_t>(p.document.links.size()));
    p.document.links.push_back(link);
  }
  p.segmentation.blocks.push_back(b);
  return p;
}

Topic PhysicsVideo() { return Topic::FromText("physics video", ""); }

std::unique_ptr<Strategy> Make(const StrategyOptions& options = {}) {
  absl::StatusOr<std::unique_ptr<Strategy>> s =
      MakeStrategy("topic-pagerank", options, PhysicsVideo());
  EXPECT_TRUE(s.ok()) << s.status();
  return s.ok() ? std::move(*s) : nullptr;
}

FetchedPage Fetched(const quark::AnalyzedPage& p, FrontierState state,
                    double relevance) {
  FetchedPage f;
  f.page = &p;
  f.state = state;
  f.relevance = relevance;
  f.url = p.document.url;
  f.final_url = p.document.url;
  return f;
}

// Sim_content (3.8): A = .6·1/2 + .4·0 = .3 ("physics" in the anchor),
// B = .6·0 + .4·1/2 = .2 ("video" in the URL).
const LinkSpec kA{"http://s.com/news/item1", "physics lecture"};
const LinkSpec kB{"http://s.com/video/list", "home"};

TEST(TopicPageRankTest, NameAndSeed) {
  std::unique_ptr<Strategy> s = Make();
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->name(), "topic-pagerank");
  EXPECT_EQ(s->SeedState().score, kSeedScore);
  EXPECT_EQ(s->SeedState().inherited, 1);  // a seed has the mean rank
  EXPECT_EQ(s->sequence(), 0);
}

TEST(TopicPageRankTest, Formula3_8BooleanContent) {
  std::unique_ptr<Strategy> s = Make();
  quark::AnalyzedPage p = MakePage({kA, kB});
  std::vector<ScoredLink> out = s->ScoreLinks(Fetched(p, s->SeedState(), 0));
  ASSERT_EQ(out.size(), 2u);
  EXPECT_NEAR(out[0].state.content, 0.3, kEps);
  EXPECT_NEAR(out[1].state.content, 0.2, kEps);
}

TEST(TopicPageRankTest, Formula3_8WeightsAndUrlDictionary) {
  // α = 1, β = 0: only the anchor counts. Then α = 0, β = 1 with a
  // dictionary that maps the pinyin "wuli" to "physics": URL words
  // {s, com, physics, shipin} → 1/2.
  StrategyOptions o;
  o.topic_pagerank.set_anchor_weight(1);
  o.topic_pagerank.set_url_weight(0);
  quark::AnalyzedPage p = MakePage({{"http://s.com/wuli/shipin", "video"}});
  std::vector<ScoredLink> out =
      Make(o)->ScoreLinks(Fetched(p, FrontierState{}, 0));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_NEAR(out[0].state.content, 0.5, kEps);

  o.topic_pagerank.set_anchor_weight(0);
  o.topic_pagerank.set_url_weight(1);
  out = Make(o)->ScoreLinks(Fetched(p, FrontierState{}, 0));
  EXPECT_NEAR(out[0].state.content, 0, kEps);  // no dictionary
  absl::StatusOr<text::UrlDictionary> dict =
      text::UrlDictionary::Parse("wuli physics\n");
  ASSERT_TRUE(dict.ok());
  o.url_dictionary = std::make_shared<text::UrlDictionary>(*dict);
  out = Make(o)->ScoreLinks(Fetched(p, FrontierState{}, 0));
  EXPECT_NEAR(out[0].state.content, 0.5, kEps);
}

TEST(TopicPageRankTest, Formulas3_6To3_11And4_8FromASeed) {
  // T = a seed: R(T) = 1, relevance .5.
  // 3.7 content half: Σ Sim_content = .5 → A .6, B .4.
  // 3.11: in-link part (only T so far) .5 for both; out-link part = mean
  //   Sim_content of T's out-links = .25; Sim_link = .15·.5 + .85·.25
  //   = .2875 for both → link half .5 each.
  // P(A) = .5·.6 + .5·.5 = .55; P(B) = .5·.4 + .5·.5 = .45.
  // 3.6: sum = R(T)·P; R(A) = .2 + .8·.55 = .64; R(B) = .2 + .8·.45 = .56.
  // 4.8: S(A) = .4·.3 + .6·(.64/1.64) = .12 + .234146341 = .354146341;
  //      S(B) = .4·.2 + .6·(.56/1.56) = .08 + .215384615 = .295384615.
  std::unique_ptr<Strategy> s = Make();
  quark::AnalyzedPage p = MakePage({kA, kB});
  std::vector<ScoredLink> out = s->ScoreLinks(Fetched(p, s->SeedState(), 0.5));
  ASSERT_EQ(out.size(), 2u);
  EXPECT_NEAR(out[0].state.sum, 0.55, kEps);
  EXPECT_EQ(out[0].state.count, 1);
  EXPECT_NEAR(out[0].state.inherited, 0.64, kEps);
  EXPECT_NEAR(out[0].state.score, 0.12 + 0.6 * 0.64 / 1.64, kEps);
  EXPECT_NEAR(out[0].state.score, 0.354146341463, 1e-11);
  EXPECT_NEAR(out[1].state.sum, 0.45, kEps);
  EXPECT_NEAR(out[1].state.inherited, 0.56, kEps);
  EXPECT_NEAR(out[1].state.score, 0.295384615385, 1e-11);
  EXPECT_EQ(out[0].state.depth_budget, 0);
}

TEST(TopicPageRankTest, Formula3_11InLinksDistinguishOutLinks) {
  // T1 (a seed, relevance .9) links to A. Then T2 (rank R = 2, relevance
  // .1) links to A and B.
  // For T2, 3.11: in(A) = (.9 + .1)/2 = .5, in(B) = .1, out part .25;
  //   Sim_link(A) = .15·.5 + .85·.25 = .2875,
  //   Sim_link(B) = .15·.1 + .85·.25 = .2275; Σ = .515.
  // P(A) = .5·.6 + .5·.2875/.515 = .3 + 115/412 = 238.6/412 = .579126214;
  // P(B) = .5·.4 + .5·.2275/.515 = .2 + 91/412 = 173.4/412 = .420873786.
  // sum = 2·P: A 1.158252427, B .841747573.
  std::unique_ptr<Strategy> s = Make();
  quark::AnalyzedPage t1 = MakePage({kA}, "http://s.com/t1");
  ASSERT_EQ(s->ScoreLinks(Fetched(t1, s->SeedState(), 0.9)).size(), 1u);
  quark::AnalyzedPage t2 = MakePage({kA, kB}, "http://s.com/t2");
  FrontierState t2_state;
  t2_state.inherited = 2;
  t2_state.sum = 2.25;  // R = .2 + .8·2.25 = 2
  t2_state.count = 3;
  std::vector<ScoredLink> out = s->ScoreLinks(Fetched(t2, t2_state, 0.1));
  ASSERT_EQ(out.size(), 2u);
  EXPECT_NEAR(out[0].state.sum, 2 * 238.6 / 412, kEps);
  EXPECT_NEAR(out[0].state.sum, 1.158252427, 1e-9);
  EXPECT_NEAR(out[1].state.sum, 2 * 173.4 / 412, kEps);
  // The shares of T's rank add up to R(T) (Σ P = 1).
  EXPECT_NEAR(out[0].state.sum + out[1].state.sum, 2, kEps);
}

TEST(TopicPageRankTest, Formula3_11LambdaOneIgnoresInLinks) {
  // λ = 1: Sim_link is the out-link part for every out-link, so the link
  // half is 1/2 each even though in(A) ≠ in(B).
  StrategyOptions o;
  o.topic_pagerank.set_lambda(1);
  std::unique_ptr<Strategy> s = Make(o);
  quark::AnalyzedPage t1 = MakePage({kA}, "http://s.com/t1");
  s->ScoreLinks(Fetched(t1, s->SeedState(), 0.9));
  quark::AnalyzedPage t2 = MakePage({kA, kB}, "http://s.com/t2");
  std::vector<ScoredLink> out = s->ScoreLinks(Fetched(t2, s->SeedState(), 0.1));
  ASSERT_EQ(out.size(), 2u);
  EXPECT_NEAR(out[0].state.sum, 0.55, kEps);  // .5·.6 + .5·.5
}

TEST(TopicPageRankTest, RankOfTheFetchedPageComesFromItsState) {
  // One out-link: P = 1, so sum = R(T).
  quark::AnalyzedPage p = MakePage({kA});
  std::unique_ptr<Strategy> s = Make();
  FrontierState st;
  st.inherited = 3;
  EXPECT_NEAR(s->ScoreLinks(Fetched(p, st, 0))[0].state.sum, 3, kEps);
  // No usable rank: from sum (R = .2 + .8·1 = 1.0), else the mean 1.
  st.inherited = std::nan("");
  st.sum = 1;
  st.count = 1;
  EXPECT_NEAR(s->ScoreLinks(Fetched(p, st, 0))[0].state.sum, 1.0, kEps);
  st.sum = 2.25;  // R = 2
  EXPECT_NEAR(s->ScoreLinks(Fetched(p, st, 0))[0].state.sum, 2, kEps);
  EXPECT_NEAR(s->ScoreLinks(Fetched(p, FrontierState{}, 0))[0].state.sum, 1,
              kEps);
}

TEST(TopicPageRankTest, NoSimilarityAnywhereSplitsEvenly) {
  // No topic term in any anchor or URL and relevance 0: both halves of 3.7
  // have a zero sum and split evenly (PageRank): P = .5, R = .2 + .8·.5 =
  // .6, S = .6·(.6/1.6) = .225.
  std::unique_ptr<Strategy> s = Make();
  quark::AnalyzedPage p =
      MakePage({{"http://s.com/a", "news"}, {"http://s.com/b", "sports"}});
  std::vector<ScoredLink> out = s->ScoreLinks(Fetched(p, s->SeedState(), 0));
  ASSERT_EQ(out.size(), 2u);
  for (const ScoredLink& l : out) {
    EXPECT_NEAR(l.state.sum, 0.5, kEps);
    EXPECT_NEAR(l.state.inherited, 0.6, kEps);
    EXPECT_NEAR(l.state.score, 0.225, kEps);
    EXPECT_EQ(l.state.content, 0);
  }
}

TEST(TopicPageRankTest, MergeSumsTheSharesOfEveryInLinkingPage) {
  // 3.6 over two in-linking pages: sum .5 + .25 = .75, R = .2 + .8·.75 =
  // .8; Content max(.3, .6) = .6; S = .4·.6 + .6·(.8/1.8) = .24 + .266667
  // = .506666667.
  std::unique_ptr<Strategy> s = Make();
  FrontierState q, o;
  q.sum = 0.5;
  q.count = 1;
  q.content = 0.3;
  o.sum = 0.25;
  o.count = 1;
  o.content = 0.6;
  FrontierState m = s->Merge(q, o);
  EXPECT_NEAR(m.sum, 0.75, kEps);
  EXPECT_EQ(m.count, 2);
  EXPECT_NEAR(m.content, 0.6, kEps);
  EXPECT_NEAR(m.inherited, 0.8, kEps);
  EXPECT_NEAR(m.score, 0.24 + 0.6 * 0.8 / 1.8, kEps);
  EXPECT_NEAR(m.score, 0.506666666667, 1e-11);
  // Order does not matter.
  EXPECT_EQ(s->Merge(o, q), m);
  // A second in-link raises a URL above the same URL with one.
  EXPECT_GT(m.score, s->Merge(q, FrontierState{}).score);
}

TEST(TopicPageRankTest, WithRankReplacesTheOnlineRank) {
  // d = 0.8. R = 3 from the ranker: sum = (3 − 0.2)/0.8 = 3.5, rank 3;
  // Content 0.6 → S = 0.4·0.6 + 0.6·(3/4) = 0.69.
  std::unique_ptr<Strategy> s = Make();
  FrontierState q;
  q.sum = 0.5;
  q.count = 2;
  q.content = 0.6;
  q.inherited = 0.6;
  q.score = 0.4 * 0.6 + 0.6 * 0.6 / 1.6;
  std::optional<FrontierState> r = s->WithRank("http://s.com/a", q, 3.0);
  ASSERT_TRUE(r.has_value());
  EXPECT_NEAR(r->sum, 3.5, kEps);
  EXPECT_NEAR(r->inherited, 3.0, kEps);
  EXPECT_EQ(r->count, 2);
  EXPECT_NEAR(r->score, 0.69, kEps);
  // A page fetched later adds its share 0.25: rank 0.2 + 0.8·3.75 = 3.2.
  FrontierState o;
  o.sum = 0.25;
  o.count = 1;
  EXPECT_NEAR(s->Merge(*r, o).inherited, 3.2, kEps);
  // A rank below the teleport part 1 − d = 0.2 floors there (sum 0).
  r = s->WithRank("http://s.com/a", q, 0.1);
  ASSERT_TRUE(r.has_value());
  EXPECT_NEAR(r->sum, 0, kEps);
  EXPECT_NEAR(r->inherited, 0.2, kEps);
  // A high rank lifts a URL above the same URL without it.
  EXPECT_GT(s->WithRank("http://s.com/a", q, 10)->score, q.score);
  // Seeds and garbage stay as they are.
  EXPECT_FALSE(s->WithRank("http://s.com/", s->SeedState(), 5).has_value());
  EXPECT_FALSE(s->WithRank("http://s.com/a", q, -1).has_value());
  EXPECT_FALSE(s->WithRank("http://s.com/a", q, INFINITY).has_value());
}

TEST(TopicPageRankTest, OtherStrategiesIgnoreRanks) {
  for (const char* name : {"bfs", "fish", "shark", "ssaps"}) {
    absl::StatusOr<std::unique_ptr<Strategy>> s =
        MakeStrategy(name, StrategyOptions{}, PhysicsVideo());
    ASSERT_TRUE(s.ok()) << name << ": " << s.status();
    FrontierState q;
    q.score = 0.5;
    EXPECT_FALSE((*s)->WithRank("http://s.com/a", q, 4).has_value()) << name;
  }
}

TEST(TopicPageRankTest, MergeKeepsSeedsAndIgnoresGarbage) {
  std::unique_ptr<Strategy> s = Make();
  FrontierState o;
  o.sum = 0.5;
  o.count = 1;
  EXPECT_EQ(s->Merge(s->SeedState(), o), s->SeedState());
  EXPECT_EQ(s->Merge(o, s->SeedState()), s->SeedState());
  FrontierState bad;
  bad.sum = std::nan("");
  bad.count = -4;
  bad.content = std::nan("");
  FrontierState m = s->Merge(bad, o);
  EXPECT_NEAR(m.sum, 0.5, kEps);
  EXPECT_EQ(m.count, 1);
  EXPECT_EQ(m.content, 0);
  EXPECT_TRUE(std::isfinite(m.score));
  // The count saturates instead of overflowing.
  FrontierState big;
  big.count = std::numeric_limits<int32_t>::max();
  EXPECT_EQ(s->Merge(big, o).count, std::numeric_limits<int32_t>::max());
}

TEST(TopicPageRankTest, TopicalLinkOutranksTheOther) {
  std::unique_ptr<Strategy> s = Make();
  quark::AnalyzedPage p =
      MakePage({{"http://s.com/weather/today", "weather today"},
                {"http://s.com/physics/video.html", "physics video"},
                {"http://s.com/sports", "sports"}});
  std::vector<ScoredLink> out = s->ScoreLinks(Fetched(p, s->SeedState(), 0.3));
  ASSERT_EQ(out.size(), 3u);
  EXPECT_NEAR(out[1].state.content, 1, kEps);
  EXPECT_GT(out[1].state.score, out[0].state.score);
  EXPECT_GT(out[1].state.score, out[2].state.score);
  EXPECT_GT(out[1].state.sum, out[0].state.sum);
}

TEST(TopicPageRankTest, RepeatedUrlIsOneOutLinkWithItsBestAnchor) {
  // A twice ("news", then "physics video") and B: Sim_content(A) = .6·1 =
  // .6 (URL has no topic word), B = .2; one share each: P sums to 1.
  std::unique_ptr<Strategy> s = Make();
  quark::AnalyzedPage p =
      MakePage({{"http://s.com/news/item1", "news"},
                kB,
                {"http://s.com/news/item1", "physics video"}});
  std::vector<ScoredLink> out = s->ScoreLinks(Fetched(p, s->SeedState(), 0));
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].link, 0);
  EXPECT_NEAR(out[0].state.content, 0.6, kEps);
  EXPECT_NEAR(out[0].state.sum + out[1].state.sum, 1, kEps);
}

TEST(TopicPageRankTest, EmptyAndLinklessPages) {
  std::unique_ptr<Strategy> s = Make();
  EXPECT_TRUE(s->ScoreLinks(FetchedPage{}).empty());  // no page
  quark::AnalyzedPage empty;
  EXPECT_TRUE(s->ScoreLinks(Fetched(empty, s->SeedState(), 0.5)).empty());
  // Only non-candidates: an image, an unresolved link, the page itself.
  quark::AnalyzedPage p =
      MakePage({{"http://s.com/i.png", "physics", html::LinkKind::kImage},
                {"rel/x", "physics", html::LinkKind::kAnchor, false},
                {"http://s.com/page.html", "top"}});
  EXPECT_TRUE(s->ScoreLinks(Fetched(p, s->SeedState(), 0.5)).empty());
}

TEST(TopicPageRankTest, NanSimilarityAndEmptyTopic) {
  // The SimilarityFn overload: the topic is empty, so every Boolean score
  // is 0, and a NaN relevance counts as 0. Everything splits evenly.
  absl::StatusOr<std::unique_ptr<Strategy>> s =
      MakeStrategy("topic-pagerank", StrategyOptions{},
                   [](absl::string_view) { return std::nan(""); });
  ASSERT_TRUE(s.ok());
  quark::AnalyzedPage p = MakePage({kA, kB});
  std::vector<ScoredLink> out =
      (*s)->ScoreLinks(Fetched(p, (*s)->SeedState(), std::nan("")));
  ASSERT_EQ(out.size(), 2u);
  for (const ScoredLink& l : out) {
    EXPECT_NEAR(l.state.sum, 0.5, kEps);
    EXPECT_NEAR(l.state.score, 0.225, kEps);
  }
}

TEST(TopicPageRankTest, MalformedUrlsAreHarmless) {
  std::unique_ptr<Strategy> s = Make();
  quark::AnalyzedPage p = MakePage({{"http://%zz%/physics\xff\xfe", "physics"},
                                    {"::::", ""},
                                    {std::string(5000, '/'), "video"}});
  std::vector<ScoredLink> out = s->ScoreLinks(Fetched(p, s->SeedState(), 1));
  ASSERT_EQ(out.size(), 3u);
  for (const ScoredLink& l : out) {
    EXPECT_TRUE(std::isfinite(l.state.score));
    EXPECT_GE(l.state.score, 0);
    EXPECT_LE(l.state.score, 1);
  }
}

TEST(TopicPageRankTest, ManyLinksShareTheRank) {
  std::vector<LinkSpec> links;
  for (int i = 0; i < 20000; ++i) {
    links.push_back(
        {absl::StrCat("http://s.com/", i % 7 == 0 ? "physics/" : "x/", i),
         i % 3 == 0 ? "video" : "more"});
  }
  std::unique_ptr<Strategy> s = Make();
  quark::AnalyzedPage p = MakePage(links);
  std::vector<ScoredLink> out = s->ScoreLinks(Fetched(p, s->SeedState(), 0.2));
  ASSERT_EQ(out.size(), 20000u);
  double total = 0;
  for (const ScoredLink& l : out) {
    ASSERT_TRUE(std::isfinite(l.state.score));
    total += l.state.sum;
  }
  EXPECT_NEAR(total, 1, 1e-9);  // Σ P = 1, R(seed) = 1
}

TEST(TopicPageRankTest, BoundedInLinkMemory) {
  // Capacity 1: T1 (relevance .9) → A, then T3 → C evicts A, so for T2
  // (relevance .1) → A, B the in-link part of A is .1 again and the link
  // half splits evenly: P(A) = .55 as from a single parent.
  internal::StrategyContext context;
  context.topic = PhysicsVideo();
  std::unique_ptr<Strategy> s = internal::mmtopic::MakeTopicPageRank(
      StrategyOptions{}, context, /*max_tracked_urls=*/1);
  quark::AnalyzedPage t1 = MakePage({kA}, "http://s.com/t1");
  s->ScoreLinks(Fetched(t1, s->SeedState(), 0.9));
  quark::AnalyzedPage t3 =
      MakePage({{"http://s.com/c", "c"}}, "http://s.com/t3");
  s->ScoreLinks(Fetched(t3, s->SeedState(), 0.9));
  quark::AnalyzedPage t2 = MakePage({kA, kB}, "http://s.com/t2");
  std::vector<ScoredLink> out = s->ScoreLinks(Fetched(t2, s->SeedState(), 0.1));
  ASSERT_EQ(out.size(), 2u);
  EXPECT_NEAR(out[0].state.sum, 0.55, kEps);
}

TEST(TopicPageRankTest, ConcurrentScoring) {
  std::unique_ptr<Strategy> s = Make();
  quark::AnalyzedPage p = MakePage({kA, kB});
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 200; ++i) {
        std::vector<ScoredLink> out =
            s->ScoreLinks(Fetched(p, s->SeedState(), 0.5));
        ASSERT_EQ(out.size(), 2u);
        // Every scoring has the same relevance, so the in-link means stay
        // .5 whatever the interleaving: always the seed numbers.
        EXPECT_NEAR(out[0].state.sum, 0.55, kEps);
      }
    });
  }
  for (std::thread& t : threads) t.join();
}

// The production path on a page analysed by Quark.
TEST(TopicPageRankTest, RealPage) {
  std::ifstream f(std::string(FCRAWL_SOURCE_DIR) +
                  "/quark/testdata/article.html");
  std::stringstream ss;
  ss << f.rdbuf();
  absl::StatusOr<quark::AnalyzedPage> p = quark::AnalyzePage(
      ss.str(), "http://physics.example.com/physics/entanglement.html", "", "");
  ASSERT_TRUE(p.ok()) << p.status();
  absl::StatusOr<std::unique_ptr<Strategy>> s =
      MakeStrategy("topic-pagerank", StrategyOptions{},
                   Topic::FromText("quantum physics", ""));
  ASSERT_TRUE(s.ok());
  std::vector<ScoredLink> out =
      (*s)->ScoreLinks(Fetched(*p, (*s)->SeedState(), 0.4));
  ASSERT_FALSE(out.empty());
  double best_ad = 0, teleportation = -1, total = 0;
  for (const ScoredLink& l : out) {
    const std::string& url = p->document.links[l.link].url;
    total += l.state.sum;
    if (url.find("ads.example.net") != std::string::npos) {
      best_ad = std::max(best_ad, l.state.score);
    }
    if (url.find("quantum-teleportation") != std::string::npos) {
      teleportation = l.state.score;
      // Anchor "Quantum teleportation of ..." has one topic word: 1/2; the
      // URL words have both (host and path "physics", "quantum"): 1.
      EXPECT_NEAR(l.state.content, 0.6 * 0.5 + 0.4 * 1, kEps);
    }
  }
  EXPECT_GT(teleportation, best_ad);
  EXPECT_NEAR(total, 1, 1e-9);
}

}  // namespace
}  // namespace fcrawl::focus
