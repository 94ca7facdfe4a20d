#include "focus/page_judge.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/file.h"
#include "core/test_temp_dir.h"
#include "focus/link_learner.h"
#include "focus/strategy.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace fcrawl::focus {
namespace {

using ::testing::HasSubstr;

const char kKeywords[] =
    "course syllabus lecture homework exam grading textbook instructor";

PageTerms Terms(const Topic& topic, absl::string_view text,
                absl::string_view title = "") {
  PageTerms t;
  t.terms = topic.Terms(topic.tokenizer().Tokenize(text));
  t.title_terms = topic.Terms(topic.tokenizer().Tokenize(title));
  return t;
}

TEST(PageFeaturesTest, LogTermFrequencyTitleWordsExclusionAndUnitLength) {
  PageTerms page;
  page.terms = {"a", "a", "b", "c"};
  page.title_terms = {"a"};
  const FeatureVector f = PageFeatures(page, 20, {"b"});
  // w:a = 1 + ln 2, w:c = 1, t:a = 1; length sqrt((1 + ln 2)² + 2).
  const double norm = std::sqrt(std::pow(1 + std::log(2.0), 2) + 2);
  ASSERT_EQ(f.size(), 3u);
  double sum = 0;
  for (const auto& [id, v] : f) sum += static_cast<double>(v) * v;
  EXPECT_NEAR(sum, 1.0, 1e-6);
  auto value = [&](absl::string_view feature) -> double {
    const uint32_t id = FeatureId(feature, 20);
    for (const auto& [i, v] : f) {
      if (i == id) return v;
    }
    return -1;
  };
  EXPECT_NEAR(value("w:a"), (1 + std::log(2.0)) / norm, 1e-6);
  EXPECT_NEAR(value("w:c"), 1 / norm, 1e-6);
  EXPECT_NEAR(value("t:a"), 1 / norm, 1e-6);
  EXPECT_EQ(value("w:b"), -1);  // excluded
  for (size_t i = 1; i < f.size(); ++i) EXPECT_LT(f[i - 1].first, f[i].first);
  EXPECT_TRUE(PageFeatures(PageTerms{}, 20, {}).empty());
}

TEST(PageJudgeTest, KeywordScoreCountsDistinctTopicTermsAgainstNeed) {
  const Topic topic = Topic::FromText(kKeywords, "");
  ASSERT_EQ(topic.terms().size(), 8u);  // need = min(5, ⌈8/2⌉) = 4
  proto::JudgeParams params;
  params.set_feedback(false);
  params.set_threshold(0.5);
  PageJudge judge(params, topic);
  // "homework" three times counts once: 2 of 4.
  EXPECT_DOUBLE_EQ(
      judge.KeywordScore(
          Terms(topic, "homework homework homework lectures").terms),
      0.5);
  EXPECT_DOUBLE_EQ(
      judge.KeywordScore(Terms(topic, "courses syllabus exams grading").terms),
      1.0);
  EXPECT_DOUBLE_EQ(judge.KeywordScore(Terms(topic, "textbook").terms), 0.25);
  EXPECT_DOUBLE_EQ(judge.KeywordScore({}), 0.0);

  const Verdict on = judge.Judge(Terms(topic, "course syllabus"));
  EXPECT_DOUBLE_EQ(on.score, 0.5);
  EXPECT_TRUE(on.on_topic);  // threshold 0.5 is inclusive
  EXPECT_EQ(on.model, "keywords");
  EXPECT_FALSE(judge.Judge(Terms(topic, "course research")).on_topic);

  // With coverage_terms 2, two terms are a full score.
  params.set_coverage_terms(2);
  PageJudge two(params, topic);
  EXPECT_DOUBLE_EQ(two.KeywordScore(Terms(topic, "course exam").terms), 1.0);

  PageJudge empty(params, Topic::FromText("", ""));
  EXPECT_DOUBLE_EQ(empty.Judge(Terms(topic, "course exam")).score, 0.0);
}

// A long page must use a term again and again for it to count: the
// topic's tokens_per_use.
TEST(PageJudgeTest, KeywordScoreOfALongPageCountsTermsItKeepsUsing) {
  const Topic topic = Topic::FromText(kKeywords, "").WithTokensPerUse(3);
  proto::JudgeParams params;
  params.set_feedback(false);
  PageJudge judge(params, topic);  // need 4 terms
  // 7 terms: each topic term needs floor(7 / 3) = 2 uses; "course" has 2,
  // "syllabus" 1.
  EXPECT_DOUBLE_EQ(
      judge.KeywordScore(
          Terms(topic, "course courses syllabus river lake hill sea").terms),
      0.25);
  EXPECT_DOUBLE_EQ(judge.KeywordScore(Terms(topic, "course syllabus").terms),
                   0.5);
}

// With full pools a training waits until retrain_share of them is new, not
// just retrain_every pages: its cost grows with the pools.
TEST(PageJudgeTest, RetrainsOnceAShareOfThePoolIsNew) {
  const Topic topic = Topic::FromText(kKeywords, "");
  proto::JudgeParams params;
  params.set_feedback_min_pages(4);
  params.set_retrain_every(2);
  params.set_retrain_share(0.5);
  PageJudge judge(params, topic);
  // One page of each class at a time; the pages the classifier was
  // trained on after each pair (0: not yet).
  auto pair = [&] {
    judge.Learn(Terms(topic, "course syllabus lecture exam office hours"));
    judge.Learn(Terms(topic, "research publications grant laboratory"));
    return judge.feedback_pages();
  };
  std::vector<int64_t> trained;
  for (int i = 0; i < 8; ++i) trained.push_back(pair());
  // First training at the 4th negative (8 pages). Then every 2 pages would
  // be retrain_every's cadence, but half of the pools must be new: 2 of
  // 10, 4 of 12, 6 of 14 are not; 8 of 16 are.
  EXPECT_EQ(trained, (std::vector<int64_t>{0, 0, 0, 8, 8, 8, 8, 16}));
}

// JudgeAndLearn is Judge then Learn with the features made once: the same
// verdicts (before the page is learnt, after the trainings so far) and the
// same trainings, page by page, through the first feedback classifiers.
TEST(PageJudgeTest, JudgeAndLearnIsJudgeThenLearn) {
  const Topic topic = Topic::FromText(kKeywords, "");
  proto::JudgeParams params;
  params.set_feedback_min_pages(3);
  params.set_retrain_every(2);
  PageJudge apart(params, topic);
  PageJudge together(params, topic);
  const char* pages[] = {
      "course syllabus lecture exam office hours",
      "research publications grant laboratory",
      "course syllabus lecture exam credits homework",
      "research grant seminar faculty",
      "course lecture office hours",
      "course syllabus lecture exam midterm",
      "publications laboratory funding",
  };
  int feedback_verdicts = 0;
  for (int round = 0; round < 4; ++round) {
    for (const char* text : pages) {
      const PageTerms page = Terms(topic, text);
      const Verdict a = apart.Judge(page);
      apart.Learn(page);
      const Verdict b = together.JudgeAndLearn(page);
      EXPECT_EQ(a.score, b.score) << text;
      EXPECT_EQ(a.on_topic, b.on_topic) << text;
      EXPECT_EQ(a.model, b.model) << text;
      EXPECT_EQ(apart.feedback_pages(), together.feedback_pages()) << text;
      feedback_verdicts += b.model == "keywords+feedback" ? 1 : 0;
    }
  }
  EXPECT_GT(feedback_verdicts, 10);  // the classifier's part was compared
}

// Course pages (all the keywords, plus "office hours", "credits") and
// research pages (no keyword): the feedback classifier learns the other
// words, so a page with half the keywords and the course vocabulary is on
// the topic and one with most keywords in a research page's words is not.
// Six pages of each class: course pages with four keywords and the words
// of course pages, research pages with none. `before` runs before each pair.
void TeachCoursesAndResearch(
    const Topic& topic, PageJudge* judge,
    const std::function<void(int)>& before = [](int) {}) {
  const std::vector<std::string> course_words = {
      "office hours credits meets tuesday",
      "credits office hours section tuesday",
      "meets thursday office hours credits"};
  const std::vector<std::string> research_words = {
      "research publications grant laboratory",
      "publications laboratory funding journal",
      "grant journal laboratory research"};
  for (int i = 0; i < 6; ++i) {
    before(i);
    judge->Learn(Terms(topic, absl::StrCat("course syllabus lecture exam ",
                                           course_words[i % 3])));
    judge->Learn(Terms(topic, research_words[i % 3]));
  }
}

TEST(PageJudgeTest, FeedbackLearnsTheWordsAroundTheTopic) {
  const Topic topic = Topic::FromText(kKeywords, "");
  proto::JudgeParams params;
  params.set_feedback_min_pages(5);
  params.set_retrain_every(5);
  // Six pages of each class give a classifier of moderate confidence.
  params.set_feedback_weight(0.5);
  params.set_threshold(0.6);
  PageJudge judge(params, topic);
  TeachCoursesAndResearch(topic, &judge, [&](int i) {
    if (i < 4) {
      EXPECT_EQ(judge.Judge(Terms(topic, "x")).model, "keywords");
    }
  });
  // 6 positives and 6 negatives seen: trained (at the 5th of each).
  EXPECT_GT(judge.feedback_pages(), 0);

  const Verdict course =
      judge.Judge(Terms(topic, "course lecture office hours credits"));
  EXPECT_EQ(course.model, "keywords+feedback");
  EXPECT_TRUE(course.on_topic) << course.score;  // keywords alone: 0.5

  const Verdict research = judge.Judge(
      Terms(topic, "exam grading research publications laboratory"));
  EXPECT_FALSE(research.on_topic) << research.score;  // keywords alone: 0.5
  EXPECT_LT(research.score, 0.5);

  // Middle pages (2 of 4 keywords) are no examples.
  const int64_t before = judge.feedback_pages();
  for (int i = 0; i < 20; ++i) judge.Learn(Terms(topic, "course exam"));
  EXPECT_EQ(judge.feedback_pages(), before);
}

// The defaults: score 0.7·k + 0.3·P, threshold 0.85. The classifier can
// confirm a page with every keyword it needs (P >= 0.5) or veto it, but
// not make a page on topic that lacks one: with need 4, 3 of 4 keywords
// give at most 0.7·0.75 + 0.3 = 0.825.
TEST(PageJudgeTest, WithTheDefaultsFeedbackConfirmsOrVetoesButDoesNotPromote) {
  const Topic topic = Topic::FromText(kKeywords, "");
  proto::JudgeParams params;
  EXPECT_DOUBLE_EQ(params.feedback_weight(), 0.3);
  EXPECT_DOUBLE_EQ(params.threshold(), 0.85);
  {
    // Before the first classifier the keyword score decides: k = 1 only.
    PageJudge judge(params, topic);
    EXPECT_TRUE(
        judge.Judge(Terms(topic, "course syllabus lecture exam")).on_topic);
    const Verdict three = judge.Judge(Terms(topic, "course syllabus lecture"));
    EXPECT_DOUBLE_EQ(three.score, 0.75);
    EXPECT_FALSE(three.on_topic);
  }
  params.set_feedback_min_pages(5);
  params.set_retrain_every(5);
  PageJudge judge(params, topic);
  TeachCoursesAndResearch(topic, &judge);
  ASSERT_GT(judge.feedback_pages(), 0);
  // P = (score − 0.7·k) / 0.3.
  const Verdict course = judge.Judge(
      Terms(topic, "course syllabus lecture exam office hours credits"));
  EXPECT_EQ(course.model, "keywords+feedback");
  EXPECT_TRUE(course.on_topic) << course.score;
  EXPECT_GE((course.score - 0.7) / 0.3, 0.5);

  const Verdict research = judge.Judge(Terms(
      topic, "course syllabus lecture exam research publications laboratory"));
  EXPECT_FALSE(research.on_topic) << research.score;
  EXPECT_LT((research.score - 0.7) / 0.3, 0.5);
  EXPECT_GE(research.score, 0.7);

  const Verdict three = judge.Judge(
      Terms(topic, "course lecture exam office hours credits tuesday"));
  EXPECT_FALSE(three.on_topic) << three.score;
  EXPECT_GT((three.score - 0.7 * 0.75) / 0.3, 0.5);  // the classifier agrees
  EXPECT_LE(three.score, 0.7 * 0.75 + 0.3);
}

TEST(PageJudgeTest, FeedbackOffOrTooFewPagesKeepsTheKeywordScore) {
  const Topic topic = Topic::FromText(kKeywords, "");
  proto::JudgeParams params;
  params.set_feedback(false);
  params.set_feedback_min_pages(2);
  PageJudge off(params, topic);
  for (int i = 0; i < 10; ++i) {
    off.Learn(Terms(topic, "course syllabus lecture exam credits"));
    off.Learn(Terms(topic, "research grant"));
  }
  EXPECT_EQ(off.feedback_pages(), 0);
  EXPECT_EQ(off.Judge(Terms(topic, "credits")).model, "keywords");

  params.set_feedback(true);
  params.set_feedback_min_pages(3);
  PageJudge few(params, topic);
  for (int i = 0; i < 10; ++i) {
    few.Learn(Terms(topic, "course syllabus lecture exam credits"));
  }
  few.Learn(Terms(topic, "research grant"));
  EXPECT_EQ(few.feedback_pages(), 0);  // one negative only
}

std::vector<PageClassifier::Example> Separable(const Topic& topic) {
  std::vector<PageClassifier::Example> out;
  for (int i = 0; i < 8; ++i) {
    out.push_back(
        {PageFeatures(Terms(topic, "quantum photon electron"), 20, {}), true});
    out.push_back(
        {PageFeatures(Terms(topic, "football league goal"), 20, {}), false});
  }
  return out;
}

TEST(PageClassifierTest, TrainsOnBothClassesAndSeparatesThem) {
  const Topic topic = Topic::FromText("physics", "");
  PageClassifier::TrainOptions o;
  o.source = "examples";
  absl::StatusOr<PageClassifier> c = PageClassifier::Train(Separable(topic), o);
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_GT(c->Probability(Terms(topic, "photon quantum")), 0.7);
  EXPECT_LT(c->Probability(Terms(topic, "football goal")), 0.3);
  // Words it never saw: the bias alone, balanced classes: near 0.5.
  EXPECT_NEAR(c->Probability(Terms(topic, "zebra")), 0.5, 0.1);
  EXPECT_EQ(c->model().positives(), 8);
  EXPECT_EQ(c->model().negatives(), 8);
  EXPECT_EQ(c->model().source(), "examples");

  std::vector<PageClassifier::Example> one = Separable(topic);
  for (auto& e : one) e.positive = true;
  absl::StatusOr<PageClassifier> bad = PageClassifier::Train(one, o);
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(bad.status().message(), HasSubstr("both classes"));
  o.hash_bits = 40;
  EXPECT_EQ(PageClassifier::Train(Separable(topic), o).status().code(),
            absl::StatusCode::kInvalidArgument);
}

// The features are numbered for LIBLINEAR through a table up to 22 hash
// bits and a hash map beyond: the same ids give the same model either way.
// An id outside hash_bits is refused.
TEST(PageClassifierTest, NumbersFeaturesTheSameWithATableOrAMap) {
  const Topic topic = Topic::FromText("physics", "");
  const std::vector<PageClassifier::Example> examples = Separable(topic);
  PageClassifier::TrainOptions table;
  table.hash_bits = 20;
  PageClassifier::TrainOptions map = table;
  map.hash_bits = 24;
  absl::StatusOr<PageClassifier> a = PageClassifier::Train(examples, table);
  absl::StatusOr<PageClassifier> b = PageClassifier::Train(examples, map);
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_TRUE(b.ok()) << b.status();
  ASSERT_GT(a->model().ids_size(), 4);
  EXPECT_THAT(a->model().ids(), ::testing::ElementsAreArray(b->model().ids()));
  EXPECT_THAT(a->model().weights(),
              ::testing::ElementsAreArray(b->model().weights()));
  EXPECT_EQ(a->model().bias(), b->model().bias());

  std::vector<PageClassifier::Example> wide = examples;
  wide[0].features.push_back({uint32_t{1} << 20, 0.5f});
  absl::StatusOr<PageClassifier> bad = PageClassifier::Train(wide, table);
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(bad.status().message(), HasSubstr("outside hash_bits"));
}

// The dual solver visits the examples in an order drawn with rand(): each
// training seeds it alike, so the same examples give the same model
// whatever else drew from rand() in between (a replay of a crawl's judge
// gives the crawl's decisions).
TEST(PageClassifierTest, TheSameExamplesGiveTheSameModel) {
  const Topic topic = Topic::FromText("physics", "");
  const std::vector<PageClassifier::Example> examples = Separable(topic);
  absl::StatusOr<PageClassifier> a = PageClassifier::Train(examples, {});
  for (int i = 0; i < 7; ++i) std::rand();
  absl::StatusOr<PageClassifier> b = PageClassifier::Train(examples, {});
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_THAT(a->model().ids(), ::testing::ElementsAreArray(b->model().ids()));
  EXPECT_THAT(a->model().weights(),
              ::testing::ElementsAreArray(b->model().weights()));
  EXPECT_EQ(a->model().bias(), b->model().bias());
}

TEST(PageClassifierTest, SavesAndLoadsAndRefusesBadModels) {
  file::TestTempDir tmp;
  const Topic topic = Topic::FromText("physics", "");
  absl::StatusOr<PageClassifier> c =
      PageClassifier::Train(Separable(topic), {});
  ASSERT_TRUE(c.ok()) << c.status();
  const std::string path = tmp.File("page_model.pb");
  ASSERT_TRUE(c->Save(path).ok());
  absl::StatusOr<PageClassifier> back = PageClassifier::Load(path);
  ASSERT_TRUE(back.ok()) << back.status();
  const PageTerms page = Terms(topic, "quantum goal photon");
  EXPECT_DOUBLE_EQ(back->Probability(page), c->Probability(page));

  ASSERT_TRUE(file::WriteFileAtomically(path, "not a proto \xff\xff").ok());
  EXPECT_THAT(PageClassifier::Load(path).status().message(),
              HasSubstr("not a page model"));
  EXPECT_EQ(PageClassifier::Load(tmp.File("none")).status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_THAT(PageClassifier::Load(tmp.path()).status().message(),
              HasSubstr("not a regular file"));

  proto::PageModel m = c->model();
  m.set_format_version(7);
  EXPECT_THAT(PageClassifier::FromProto(m).status().message(),
              HasSubstr("format version 7"));
  m = c->model();
  m.add_weights(1);
  EXPECT_THAT(PageClassifier::FromProto(m).status().message(),
              HasSubstr("weights"));
  m = c->model();
  ASSERT_GE(m.ids_size(), 2);
  m.set_ids(1, m.ids(0));
  EXPECT_THAT(PageClassifier::FromProto(m).status().message(),
              HasSubstr("not increasing"));
  m = c->model();
  m.set_weights(0, std::nanf(""));
  EXPECT_THAT(PageClassifier::FromProto(m).status().message(),
              HasSubstr("not finite"));
  m = c->model();
  m.set_hash_bits(3);
  EXPECT_THAT(PageClassifier::FromProto(m).status().message(),
              HasSubstr("hash_bits"));
}

TEST(PageJudgeTest, AnExampleClassifierDecidesAlone) {
  const Topic topic = Topic::FromText("physics energy", "");
  auto c = std::make_shared<const PageClassifier>(
      *PageClassifier::Train(Separable(topic), {}));
  PageJudge judge(proto::JudgeParams(), topic, c);
  const Verdict v = judge.Judge(Terms(topic, "physics energy football goal"));
  EXPECT_EQ(v.model, "examples");
  EXPECT_FALSE(v.on_topic) << v.score;  // both keywords, but football
  EXPECT_TRUE(judge.Judge(Terms(topic, "photon quantum")).on_topic);
}

TEST(PageJudgeTest, AnExampleClassifierHasItsOwnThreshold) {
  const Topic topic = Topic::FromText("physics energy", "");
  auto c = std::make_shared<const PageClassifier>(
      *PageClassifier::Train(Separable(topic), {}));
  const PageTerms page = Terms(topic, "photon quantum");
  const double p = c->Probability(page);
  ASSERT_GT(p, 0.5);
  proto::JudgeParams params;
  params.set_threshold(0);  // the keyword threshold plays no part
  params.set_examples_threshold(p);
  EXPECT_TRUE(PageJudge(params, topic, c).Judge(page).on_topic);  // inclusive
  params.set_examples_threshold(std::nextafter(p, 1.0));
  EXPECT_FALSE(PageJudge(params, topic, c).Judge(page).on_topic);
  EXPECT_EQ(proto::JudgeParams().examples_threshold(), 0.5);
}

TEST(TrainFromExampleFoldersTest, ReadsBothFoldersAndNamesWhatIsMissing) {
  file::TestTempDir tmp;
  const Topic topic = Topic::FromText("physics", "");
  const std::string pos = tmp.File("pos"), neg = tmp.File("neg");
  ASSERT_TRUE(std::filesystem::create_directory(pos));
  ASSERT_TRUE(std::filesystem::create_directory(neg));
  for (int i = 0; i < 3; ++i) {
    std::ofstream(absl::StrCat(pos, "/p", i, ".html"))
        << "<html><title>Photons</title><body><p>quantum photon electron "
           "wave</p></body></html>";
    std::ofstream(absl::StrCat(neg, "/n", i, ".txt"))
        << "football league goal match";
  }
  absl::StatusOr<PageClassifier> c =
      TrainFromExampleFolders(pos, neg, topic, proto::JudgeParams());
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_GT(c->Probability(Terms(topic, "photon wave")), 0.5);
  EXPECT_LT(c->Probability(Terms(topic, "league match")), 0.5);
  EXPECT_THAT(TrainFromExampleFolders(pos, "", topic, {}).status().message(),
              HasSubstr("negative one is not given"));
  EXPECT_THAT(TrainFromExampleFolders(pos, tmp.File("none"), topic, {})
                  .status()
                  .message(),
              HasSubstr("none"));
}

TEST(ValidateJudgeParamsTest, NamesEachFieldOutOfRange) {
  EXPECT_TRUE(ValidateJudgeParams(proto::JudgeParams()).empty());
  proto::JudgeParams p;
  p.set_threshold(1.5);
  p.set_examples_threshold(-0.1);
  p.set_c(0);
  p.set_negative_score(0.9);
  p.set_positive_score(0.8);
  p.set_hash_bits(30);
  std::vector<std::string> fields;
  for (const ParamError& e : ValidateJudgeParams(p)) {
    fields.push_back(e.field + e.problem);
  }
  EXPECT_THAT(fields,
              ::testing::ElementsAre(
                  "threshold must be in [0, 1], got 1.5",
                  "examples_threshold must be in [0, 1], got -0.1",
                  "negative_score must be below positive_score (0.8), got 0.9",
                  "c must be in [1e-06, 1e+06], got 0",
                  "hash_bits must be in [10, 24], got 30"));
}

}  // namespace
}  // namespace fcrawl::focus
