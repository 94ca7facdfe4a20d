#include "worker/judge_inputs.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/test_temp_dir.h"
#include "focus/topic.h"
#include "formats/crawl_config.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "worker/crawl_setup.h"

namespace fcrawl::worker {
namespace {

using ::testing::HasSubstr;

constexpr char kConfig[] =
    "seeds: \"http://u.test/\"\n"
    "topic { keywords: \"course\" keywords: \"syllabus\" keywords: "
    "\"lecture\" keywords: \"exam\" keywords: \"grading\" judge { "
    "feedback_min_pages: 5 retrain_every: 5 } }\n";

proto::CrawlConfig Config(const std::string& text) {
  absl::StatusOr<proto::CrawlConfig> c = formats::ParseCrawlConfigText(text);
  EXPECT_TRUE(c.ok()) << c.status();
  return formats::WithDefaults(*std::move(c));
}

std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Pages whose judging trains the feedback classifier and uses it: the
// replay must give what the same judge gave the pages in the crawl.
TEST(JudgeInputsTest, ReplayGivesTheVerdictsOfTheSameJudgeInTheSameOrder) {
  file::TestTempDir tmp;
  const std::string log_path = tmp.path() + "/inputs.jsonl";
  const proto::CrawlConfig config = Config(kConfig);
  absl::StatusOr<CrawlModels> models = BuildCrawlModels(config);
  ASSERT_TRUE(models.ok()) << models.status();
  const focus::Topic& topic = *models->topic;
  std::vector<std::string> want;
  {
    absl::StatusOr<std::unique_ptr<JudgeInputLog>> log =
        JudgeInputLog::Open(log_path);
    ASSERT_TRUE(log.ok()) << log.status();
    const char* texts[] = {"course syllabus lecture exam office hours credits",
                           "research grant laboratory journal",
                           "course lecture exam grading office hours",
                           "publications funding journal laboratory",
                           "syllabus exam grading research grant journal"};
    for (int i = 0; i < 40; ++i) {
      focus::PageTerms t;
      t.terms = topic.Terms(topic.tokenizer().Tokenize(texts[i % 5]));
      t.title_terms = topic.Terms(
          topic.tokenizer().Tokenize("Page \"" + std::to_string(i)));
      const std::string url = absl::StrCat("http://u.test/", i, ".html");
      ASSERT_TRUE((*log)->Write(url, t).ok());
      const focus::Verdict v = models->judge->JudgeAndLearn(t);
      want.push_back(absl::StrCat(url, " ", v.on_topic, " ", v.model));
    }
  }
  ASSERT_GT(models->judge->feedback_pages(), 0);  // the classifier decided

  const std::string out_path = tmp.path() + "/verdicts.jsonl";
  FILE* out = std::fopen(out_path.c_str(), "w");
  ASSERT_NE(out, nullptr);
  absl::StatusOr<RejudgeSummary> s = RejudgeInputs(config, {log_path}, out);
  std::fclose(out);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->pages, 40);
  EXPECT_EQ(s->bad_lines, 0);
  std::vector<std::string> got;
  std::ifstream in(out_path);
  for (std::string line; std::getline(in, line);) {
    // {"url":"...","score":S,"on_topic":B,"model":"M"}
    const size_t u = line.find("\"url\":\"") + 7;
    const std::string url = line.substr(u, line.find('"', u) - u);
    const bool on = line.find("\"on_topic\":true") != std::string::npos;
    const size_t m = line.find("\"model\":\"") + 9;
    got.push_back(
        absl::StrCat(url, " ", on, " ", line.substr(m, line.find('"', m) - m)));
  }
  EXPECT_EQ(got, want);
  EXPECT_EQ(s->on_topic,
            std::count_if(want.begin(), want.end(), [](const std::string& w) {
              return w.find(" 1 ") != std::string::npos;
            }));
}

TEST(JudgeInputsTest, BadLinesAreSkippedAndErrorsNameTheProblem) {
  file::TestTempDir tmp;
  const std::string path = tmp.path() + "/inputs.jsonl";
  {
    std::ofstream f(path);
    f << "{\"url\":\"http://u.test/a\",\"terms\":[\"cours\",\"syllabus\","
         "\"lectur\",\"exam\"]}\n"
      << "not json\n"
      << "\n"
      << "{\"url\": 7, \"terms\": [\n";
  }
  FILE* out = std::fopen((tmp.path() + "/out").c_str(), "w");
  absl::StatusOr<RejudgeSummary> s =
      RejudgeInputs(Config(kConfig), {path}, out);
  std::fclose(out);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->pages, 1);
  EXPECT_EQ(s->on_topic, 1);  // 4 of need 3: k = 1 before any classifier
  EXPECT_EQ(s->bad_lines, 2);
  EXPECT_THAT(ReadAll(tmp.path() + "/out"),
              HasSubstr("\"url\":\"http://u.test/a\""));

  absl::StatusOr<RejudgeSummary> missing =
      RejudgeInputs(Config(kConfig), {tmp.path() + "/none.jsonl"}, stdout);
  EXPECT_TRUE(absl::IsNotFound(missing.status())) << missing.status();
  EXPECT_THAT(missing.status().message(), HasSubstr("none.jsonl"));

  absl::StatusOr<RejudgeSummary> no_topic = RejudgeInputs(
      Config("seeds: \"http://u.test/\" strategy { name: \"bfs\" }"), {path},
      stdout);
  EXPECT_TRUE(absl::IsInvalidArgument(no_topic.status()));
  EXPECT_THAT(no_topic.status().message(), HasSubstr("no topic"));

  absl::StatusOr<std::unique_ptr<JudgeInputLog>> folder =
      JudgeInputLog::Open(tmp.path());
  EXPECT_FALSE(folder.ok());
  EXPECT_THAT(folder.status().message(), HasSubstr(tmp.path()));
}

}  // namespace
}  // namespace fcrawl::worker
