#include "focus/topic.h"

#include <atomic>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace fcrawl::focus {
namespace {

using ::testing::ElementsAre;

TEST(TopicTest, TokensAreCaseFoldedWithoutStopWords) {
  Topic t = Topic::FromText("Quantum, PHYSICS", "The physics of entanglement");
  // Stemmed (Snowball English): word forms of one word are one term.
  EXPECT_THAT(t.terms(), ElementsAre("quantum", "physic", "entangl"));
  EXPECT_DOUBLE_EQ(t.counts().at("physic"), 2);
  EXPECT_FALSE(t.empty());
}

TEST(TopicTest, OwnStatisticsAreSeededFromTheTopic) {
  // Keywords + description counted as one document: N = 1, n_i = 1.
  Topic t = Topic::FromText("", "Quantum entanglement of photons");
  EXPECT_THAT(t.terms(), ElementsAre("quantum", "entangl", "photon"));
  EXPECT_EQ(t.frequencies().documents(), 1);
  EXPECT_EQ(t.frequencies().frequency("quantum"), 1);
  EXPECT_EQ(t.frequencies().frequency("of"), 0);
}

TEST(TopicTest, SimilarityWithOwnStatisticsByHand) {
  // N = 1 and every n_i = 1 (unseen terms count as 1): idf = lg(1.01) for all,
  // so the vectors are normalised term frequencies.
  // T = {quantum: 1, physics: 1} → (1/√2, 1/√2).
  // D = "quantum quantum chemistry" → {quantum: 2, chemistry: 1} → (2/√5,
  // 1/√5). cos = (1/√2)(2/√5) = 2/√10 = 0.632455532...
  Topic t = Topic::FromText("quantum physics", "");
  EXPECT_NEAR(t.Similarity("Quantum quantum chemistry"), 2 / std::sqrt(10.0),
              1e-12);
  // Stop words do not count: same vector as the topic.
  EXPECT_NEAR(t.Similarity("The physics of the quantum"), 1.0, 1e-12);
  EXPECT_DOUBLE_EQ(t.Similarity("chemistry biology"), 0);
  EXPECT_DOUBLE_EQ(t.Similarity(""), 0);
}

TEST(TopicTest, SimilarityWithSharedStatisticsByHand) {
  // N = 10, n(quantum) = 1, n(physics) = 5, n(chemistry) = 10.
  auto df = std::make_shared<text::DocumentFrequencies>();
  for (int i = 0; i < 10; ++i) {
    std::vector<std::string> doc = {"chemistri"};
    if (i == 0) doc.push_back("quantum");
    if (i < 5) doc.push_back("physic");  // statistics count stemmed terms
    df->AddDocument(doc);
  }
  Topic t = Topic::FromText("quantum physics", "", df);
  // Formula 3.13, lg = log10:
  //   T: w_q = lg(10/1 + .01) = 1.000434, w_p = lg(10/5 + .01) = 0.303196
  //   D = "physics chemistry": w_p = 0.303196, w_c = lg(10/10 + .01) = 0.004321
  //   cos = w_p² / (√(w_q² + w_p²) · √(w_p² + w_c²)) = 0.290007918...
  EXPECT_NEAR(t.Similarity("physics chemistry"), 0.2900079184545664, 1e-12);
  // The shared statistics are only read.
  EXPECT_EQ(df->documents(), 10);
}

TEST(TopicTest, FollowsOnlineStatistics) {
  auto df = std::make_shared<text::DocumentFrequencies>();
  Topic t = Topic::FromText("quantum physics", "", df);
  // No documents yet: N = max(0, 1) = 1, n_i = 1 → equal weights;
  // cos({p}, (1/√2, 1/√2)) = 1/√2.
  EXPECT_NEAR(t.Similarity("physics"), 1 / std::sqrt(2.0), 1e-12);
  df->AddDocument({"quantum"});
  df->AddDocument({"physic", "x"});
  df->AddDocument({"physic"});
  // N = 3, n_q = 1, n_p = 2: w_q = lg(3.01), w_p = lg(1.51);
  // cos = w_p / √(w_q² + w_p²) = 0.350290260...
  EXPECT_NEAR(t.Similarity("physics"), 0.350290260282699, 1e-12);
}

TEST(TopicTest, SeedIntoCountsTheTopicAsDocuments) {
  Topic t = Topic::FromText("quantum physics", "quantum");
  text::DocumentFrequencies df;
  t.SeedInto(&df, 2);
  EXPECT_EQ(df.documents(), 2);
  EXPECT_EQ(df.frequency("quantum"), 2);  // each distinct term once per doc
  EXPECT_EQ(df.frequency("physic"), 2);
  t.SeedInto(&df, 0);
  EXPECT_EQ(df.documents(), 2);
}

TEST(TopicTest, WordFormsMatch) {
  // "courses" and "course", "lectures" and "lecture" share their stems; a
  // Chinese token is left as it is.
  Topic t = Topic::FromText("course lecture 物理", "");
  EXPECT_THAT(t.terms(), ElementsAre("cours", "lectur", "物理"));
  EXPECT_NEAR(t.Similarity("Courses and Lectures 物理"), 1.0, 1e-12);
  EXPECT_NEAR(t.BooleanSimilarity({"courses", "lectures"}), 2.0 / 3, 1e-12);
  const std::vector<std::string> terms = t.Terms({"courses", "homeworks"});
  EXPECT_THAT(terms, ElementsAre("cours", "homework"));
  EXPECT_NEAR(t.SimilarityOfTerms(terms), t.Similarity("course homework"),
              1e-12);
}

TEST(TopicTest, BooleanSimilarityFormula41) {
  // |D ∩ T| / |T| over distinct terms, T = {quantum, physics, entanglement}.
  Topic t = Topic::FromText("quantum physics entanglement", "");
  EXPECT_DOUBLE_EQ(t.BooleanSimilarity({"quantum", "quantum", "spin"}),
                   1.0 / 3);
  EXPECT_DOUBLE_EQ(t.BooleanSimilarityOfText("Physics and QUANTUM"), 2.0 / 3);
  EXPECT_DOUBLE_EQ(t.BooleanSimilarity(std::vector<std::string>{}), 0);
}

TEST(TopicTest, CoverageCountsTermsUsedOncePerTokensPerUse) {
  Topic t = Topic::FromText("president parliament economy country", "");
  ASSERT_EQ(t.terms().size(), 4u);
  // Without a rate every mention counts: 2 of 4 terms.
  std::vector<std::string> page = t.Terms({"presidents", "parliament"});
  EXPECT_EQ(t.TermsInUse(page), 2u);
  EXPECT_DOUBLE_EQ(t.Coverage(page), 0.5);
  EXPECT_DOUBLE_EQ(t.tokens_per_use(), 0);

  // One use per 4 terms: a page of 9 terms needs floor(9 / 4) = 2 uses.
  const Topic rated = t.WithTokensPerUse(4);
  EXPECT_DOUBLE_EQ(rated.tokens_per_use(), 4);
  page = rated.Terms({"economy", "economy", "country", "president", "war",
                      "king", "economies", "battle", "army"});
  // economy 3 times, country once, president once: only economy counts.
  EXPECT_EQ(rated.TermsInUse(page), 1u);
  EXPECT_DOUBLE_EQ(rated.Coverage(page), 0.25);
  EXPECT_EQ(t.TermsInUse(page), 3u);  // the original is unchanged
  // A page shorter than twice the rate needs each term once.
  page = rated.Terms(
      {"economy", "country", "war", "king", "army", "navy", "fleet"});
  EXPECT_EQ(rated.TermsInUse(page), 2u);
  EXPECT_EQ(rated.TermsInUse(std::vector<std::string>{}), 0u);
  EXPECT_EQ(rated.TermsInUse(text::TermCounts{}, 0), 0u);
  // Nonsense rates mean "every mention".
  EXPECT_DOUBLE_EQ(t.WithTokensPerUse(-3).tokens_per_use(), 0);
  EXPECT_DOUBLE_EQ(t.WithTokensPerUse(std::numeric_limits<double>::quiet_NaN())
                       .tokens_per_use(),
                   0);
  EXPECT_DOUBLE_EQ(Topic::FromText("", "").Coverage(page), 0);
}

// From a page's term counts and length, the same as from its terms.
TEST(TopicTest, CountedFormsMatchTheTermForms) {
  const Topic t = Topic::FromText("president parliament economy country", "");
  const Topic rated = t.WithTokensPerUse(4);
  for (const std::vector<std::string>& words :
       std::vector<std::vector<std::string>>{
           {"economy", "economy", "country", "president", "war", "king",
            "economies", "battle", "army"},
           {"economy", "country", "war", "king", "army", "navy", "fleet"},
           {"presidents", "parliament"},
           {"war"}}) {
    const std::vector<std::string> page = t.Terms(words);
    const text::TermCounts counts = text::CountTerms(page);
    for (const Topic* topic : {&t, &rated}) {
      EXPECT_EQ(topic->TermsInUse(counts, page.size()),
                topic->TermsInUse(page));
      EXPECT_EQ(topic->Coverage(counts, page.size()), topic->Coverage(page));
      EXPECT_EQ(topic->SimilarityOfCounts(counts),
                topic->SimilarityOfTerms(page));
    }
  }
  // economy 3 of 9 terms, one use per 4 terms: only economy is in use.
  const std::vector<std::string> page =
      rated.Terms({"economy", "economy", "country", "president", "war", "king",
                   "economies", "battle", "army"});
  EXPECT_EQ(rated.TermsInUse(text::CountTerms(page), page.size()), 1u);
  EXPECT_DOUBLE_EQ(rated.Coverage(text::CountTerms(page), page.size()), 0.25);
  EXPECT_EQ(Topic::FromText("", "").Coverage(text::CountTerms(page), 9), 0);
  EXPECT_EQ(t.SimilarityOfCounts(text::TermCounts{}), 0);
}

// A topic written in a script other than Latin asks for pages written in
// it: a page in another script uses none of its terms.
TEST(TopicTest, ATopicInHanAsksForPagesInHan) {
  const Topic zh = Topic::FromText("xul 元素 属性 窗口", "");
  EXPECT_EQ(zh.script(), text::HanScript());
  // An English XUL page says "xul" and nothing in Han: no term in use.
  std::vector<std::string> english = zh.Terms({"xul", "window", "element"});
  EXPECT_EQ(zh.TermsInUse(english), 0u);
  EXPECT_EQ(zh.TermsInUse(text::CountTerms(english), english.size()), 0u);
  // A Chinese XUL page: xul and 元素.
  std::vector<std::string> chinese = zh.Terms({"xul", "元素", "按钮"});
  EXPECT_EQ(zh.TermsInUse(chinese), 2u);
  EXPECT_EQ(zh.TermsInUse(text::CountTerms(chinese), chinese.size()), 2u);
  // A long page needs kMinScriptShare of its terms in Han: 1 of 400 is
  // 0.0025 (enough), 1 of 600 is 0.0017 (not).
  std::vector<std::string> long_page(399, "xul");
  long_page.push_back("按钮");
  EXPECT_EQ(zh.TermsInUse(long_page), 1u);
  EXPECT_EQ(zh.TermsInUse(text::CountTerms(long_page), long_page.size()), 1u);
  long_page.assign(599, "xul");
  long_page.push_back("按钮");
  EXPECT_EQ(zh.TermsInUse(long_page), 0u);
  EXPECT_EQ(zh.TermsInUse(text::CountTerms(long_page), long_page.size()), 0u);

  // Latin topics ask nothing of a page's script, and a topic of mixed
  // scripts where none has most of the terms neither.
  EXPECT_EQ(Topic::FromText("course syllabus", "").script(), text::kNoScript);
  const Topic mixed = Topic::FromText("firefox gaia 手机 设备", "");
  EXPECT_EQ(mixed.script(), text::kNoScript);
  EXPECT_EQ(mixed.TermsInUse(mixed.Terms({"firefox", "gaia"})), 2u);
  EXPECT_EQ(Topic::FromText("", "").script(), text::kNoScript);
}

TEST(TopicTest, EmptyTopicScoresZero) {
  Topic t = Topic::FromText("", "the of and");
  EXPECT_TRUE(t.empty());
  EXPECT_DOUBLE_EQ(t.Similarity("the quantum physics"), 0);
  EXPECT_DOUBLE_EQ(t.BooleanSimilarityOfText("quantum"), 0);
  EXPECT_TRUE(t.Vector().empty());
}

TEST(TopicTest, NullSharedStatisticsFallBackToOwn) {
  Topic t = Topic::FromText("quantum physics", "", nullptr);
  EXPECT_NEAR(t.Similarity("quantum quantum chemistry"), 2 / std::sqrt(10.0),
              1e-12);
}

TEST(TopicTest, CopiesShareStatistics) {
  auto df = std::make_shared<text::DocumentFrequencies>();
  Topic a = Topic::FromText("quantum physics", "", df);
  Topic b = a;
  df->AddDocument({"quantum"});
  df->AddDocument({"physic", "x"});
  df->AddDocument({"physic"});
  EXPECT_DOUBLE_EQ(a.Similarity("physics"), b.Similarity("physics"));
}

TEST(TopicTest, ConcurrentReadsWhileStatisticsGrow) {
  auto df = std::make_shared<text::DocumentFrequencies>();
  const Topic t = Topic::FromText("quantum physics", "entanglement", df);
  std::atomic<bool> bad{false};
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&] {
      for (int j = 0; j < 2000; ++j) {
        const double s = t.Similarity("quantum entanglement in chemistry");
        if (!(s >= 0 && s <= 1)) bad = true;
      }
    });
  }
  threads.emplace_back([&] {
    for (int j = 0; j < 2000; ++j) {
      df->AddDocument({"quantum", "w" + std::to_string(j % 50)});
    }
  });
  for (auto& th : threads) th.join();
  EXPECT_FALSE(bad);
  EXPECT_EQ(df->documents(), 2000);
}

}  // namespace
}  // namespace fcrawl::focus
