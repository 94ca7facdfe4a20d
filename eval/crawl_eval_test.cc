#include "eval/crawl_eval.h"

#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace fcrawl::eval {
namespace {

using ::testing::DoubleNear;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::UnorderedElementsAre;

absl::StatusOr<FetchLog> Log(const std::string& text,
                             const ReadOptions& options = {}) {
  std::istringstream in(text);
  return ReadFetchLog(in, "log.jsonl", options);
}

absl::StatusOr<Labels> LabelsOf(const std::string& text,
                                const ReadOptions& options = {}) {
  std::istringstream in(text);
  return ReadLabels(in, "labels.tsv", options);
}

std::string Line(const std::string& url, const std::string& relevance,
                 const std::string& final_url = "") {
  return absl::StrCat("{\"url\":\"", url, "\",\"final_url\":\"",
                      final_url.empty() ? url : final_url,
                      "\",\"status\":200,\"relevance\":", relevance,
                      ",\"score\":null,\"error\":null}\n");
}

TEST(NormalizeUrlTest, NormalisesWhenItParsesElseKeepsAsWritten) {
  EXPECT_EQ(NormalizeUrl("HTTP://A.test:80/x/%70.html#f"),
            "http://a.test/x/p.html");
  EXPECT_EQ(NormalizeUrl("not a url"), "not a url");
}

TEST(ReadLabelsTest, ParsesLabelsAndNormalisesUrls) {
  auto labels = LabelsOf(
      "http://a.test/%7Ex.html\tastronomy\r\n"
      "\n"
      "http://b.test/y.html\t subject.Science.Physics , subject.Countries\n"
      "http://b.test/pikachu.html\t\n"
      "http://b.test/y.html\tsubject.Countries,extra\n");
  ASSERT_TRUE(labels.ok()) << labels.status();
  EXPECT_EQ(labels->size(), 3u);
  EXPECT_THAT(labels->at("http://a.test/~x.html"), ElementsAre("astronomy"));
  EXPECT_THAT(
      labels->at("http://b.test/y.html"),
      ElementsAre("subject.Science.Physics", "subject.Countries", "extra"));
  EXPECT_TRUE(labels->at("http://b.test/pikachu.html").empty());
}

TEST(ReadLabelsTest, ColumnsAfterTheLabelsAreNotLabels) {
  // The hidden-web style: url, label, then the site the page came from.
  std::istringstream in(
      "URL\tlabel\tsite\n"
      "http://a.test/c1.html\tcourse\tcornell\n"
      "http://a.test/s.html\tstudent,other\tcornell\textra\n"
      "http://a.test/p.html\tfaculty\n");
  LabelsInfo info;
  auto labels = ReadLabels(in, "labels.tsv", {}, &info);
  ASSERT_TRUE(labels.ok()) << labels.status();
  EXPECT_TRUE(info.header);
  EXPECT_EQ(info.extra_columns, 2);
  EXPECT_EQ(labels->size(), 3u);
  EXPECT_THAT(labels->at("http://a.test/c1.html"), ElementsAre("course"));
  EXPECT_THAT(labels->at("http://a.test/s.html"),
              ElementsAre("student", "other"));
  EXPECT_TRUE(OnTopic(labels->at("http://a.test/c1.html"), {"course"}));
  // A "url" field after the first line is a URL like any other.
  std::istringstream later("http://a.test/x\tcourse\nurl\tcourse\n");
  labels = ReadLabels(later, "labels.tsv", {}, &info);
  ASSERT_TRUE(labels.ok());
  EXPECT_FALSE(info.header);
  EXPECT_EQ(labels->size(), 2u);
}

TEST(ReadLabelsTest, CommonLabelsMostFrequentFirst) {
  auto labels = LabelsOf(
      "http://a/1\tcourse\nhttp://a/2\tcourse,x\nhttp://a/3\tstudent\n"
      "http://a/4\tstudent\nhttp://a/5\tstudent\nhttp://a/6\t\n");
  ASSERT_TRUE(labels.ok());
  EXPECT_THAT(CommonLabels(*labels, 2),
              ElementsAre(std::pair<std::string, int64_t>("student", 3),
                          std::pair<std::string, int64_t>("course", 2)));
  EXPECT_TRUE(CommonLabels(Labels(), 5).empty());
}

TEST(ReadLabelsTest, LineWithoutTabIsAnErrorNamingTheLine) {
  auto labels = LabelsOf("http://a.test/x\tastronomy\nhttp://a.test/y x\n");
  ASSERT_FALSE(labels.ok());
  EXPECT_TRUE(absl::IsInvalidArgument(labels.status()));
  EXPECT_THAT(labels.status().message(), HasSubstr("labels.tsv:2"));
  EXPECT_FALSE(LabelsOf("\tastronomy\n").ok());
}

TEST(TopicTest, PrefixMatchesWholeDottedComponents) {
  const std::vector<std::string> topic = {"subject.Science.Physics",
                                          "astronomy"};
  EXPECT_TRUE(OnTopic({"subject.Science.Physics"}, topic));
  EXPECT_TRUE(OnTopic({"subject.Science.Physics.Space_Astronomy"}, topic));
  EXPECT_TRUE(OnTopic({"subject.Countries", "astronomy"}, topic));
  EXPECT_FALSE(OnTopic({"subject.Science.PhysicsX"}, topic));
  EXPECT_FALSE(OnTopic({"subject.Science"}, topic));
  EXPECT_FALSE(OnTopic({"astronomy2"}, topic));
  EXPECT_FALSE(OnTopic({}, topic));
}

TEST(TopicTest, ParseTopicSplitsAndRejectsEmptyPrefixes) {
  auto t = ParseTopic(" astronomy , subject.Science.Physics");
  ASSERT_TRUE(t.ok());
  EXPECT_THAT(*t, ElementsAre("astronomy", "subject.Science.Physics"));
  EXPECT_FALSE(ParseTopic("").ok());
  EXPECT_FALSE(ParseTopic("a,,b").ok());
}

TEST(TopicTest, OnTopicUrls) {
  auto labels = LabelsOf(
      "http://a.test/1\tastronomy\nhttp://a.test/2\tbiology\n"
      "http://a.test/3\tbiology,astronomy\n");
  ASSERT_TRUE(labels.ok());
  EXPECT_THAT(OnTopicUrls(*labels, {"astronomy"}),
              UnorderedElementsAre("http://a.test/1", "http://a.test/3"));
}

TEST(ReadFetchLogTest, SkipsRobotsAndRepeatedUrls) {
  auto log = Log(Line("http://a.test/robots.txt", "null") +
                 Line("http://a.test/x", "0.5") +
                 Line("http://A.test:80/x", "0.5") +  // same URL normalised
                 Line("http://a.test/robots.txt?x=1", "0.1") +
                 Line("http://a.test/y", "null", "http://a.test/z"));
  ASSERT_TRUE(log.ok()) << log.status();
  EXPECT_EQ(log->lines, 5);
  EXPECT_EQ(log->robots, 2);
  EXPECT_EQ(log->duplicates, 1);
  ASSERT_EQ(log->pages.size(), 2u);
  EXPECT_EQ(log->pages[0].url, "http://a.test/x");
  EXPECT_EQ(log->pages[0].relevance, 0.5);
  EXPECT_EQ(log->pages[1].url, "http://a.test/y");
  EXPECT_EQ(log->pages[1].final_url, "http://a.test/z");
  EXPECT_FALSE(log->pages[1].relevance.has_value());
}

TEST(ReadFetchLogTest, MalformedLineIsAnErrorNamingFileAndLine) {
  const std::vector<std::string> bad_lines = {
      "{\"url\":",
      "[1,2]",
      "{\"url\":5}",
      "{\"final_url\":\"http://a/\"}",
      "{\"url\":\"http://a.test/\",\"relevance\":\"high\"}",
      "{\"url\":\"http://a.test/\",\"final_url\":7}",
      "{\"url\":\"http://a.test/\",\"on_topic\":\"yes\"}",
      "nonsense"};
  for (const std::string& bad : bad_lines) {
    auto log = Log(Line("http://a.test/1", "0.1") + bad + "\n");
    ASSERT_FALSE(log.ok()) << bad;
    EXPECT_TRUE(absl::IsInvalidArgument(log.status()));
    EXPECT_THAT(log.status().message(), HasSubstr("log.jsonl:2: ")) << bad;
  }
}

TEST(ReadFetchLogTest, SkipMalformedCountsInstead) {
  ReadOptions options;
  options.skip_malformed = true;
  auto log = Log(Line("http://a.test/1", "0.1") + "{oops\n" +
                     Line("http://a.test/2", "0.2"),
                 options);
  ASSERT_TRUE(log.ok()) << log.status();
  EXPECT_EQ(log->malformed, 1);
  EXPECT_EQ(log->pages.size(), 2u);
}

TEST(ReadFetchLogTest, CutOffLastLineIsSkippedAndCounted) {
  auto log = Log(Line("http://a.test/1", "0.1") + "{\"url\":\"http://a.te");
  ASSERT_TRUE(log.ok()) << log.status();
  EXPECT_EQ(log->truncated_tail, 1);
  EXPECT_EQ(log->pages.size(), 1u);
  // A complete last line without a newline still counts.
  std::string last = Line("http://a.test/2", "0.2");
  last.pop_back();
  log = Log(Line("http://a.test/1", "0.1") + last);
  ASSERT_TRUE(log.ok());
  EXPECT_EQ(log->truncated_tail, 0);
  EXPECT_EQ(log->pages.size(), 2u);
}

TEST(ReadFetchLogTest, BlankLinesAreIgnored) {
  auto log = Log("\n" + Line("http://a.test/1", "0.1") + "  \n");
  ASSERT_TRUE(log.ok());
  EXPECT_EQ(log->lines, 1);
}

TEST(ReadFetchLogTest, BoundsLineLengthAndLineCount) {
  ReadOptions options;
  options.max_line_bytes = 200;
  auto log =
      Log(Line("http://a.test/1", "0.1") + std::string(1000, 'x'), options);
  ASSERT_FALSE(log.ok());
  EXPECT_TRUE(absl::IsResourceExhausted(log.status()));
  EXPECT_THAT(log.status().message(), HasSubstr("log.jsonl:2: line longer"));

  options = ReadOptions();
  options.max_lines = 2;
  log = Log(Line("http://a.test/1", "0.1") + Line("http://a.test/2", "0.1") +
                Line("http://a.test/3", "0.1"),
            options);
  ASSERT_FALSE(log.ok());
  EXPECT_TRUE(absl::IsResourceExhausted(log.status()));
}

TEST(ReadFetchLogTest, HostileJsonDoesNotCrash) {
  // Deep nesting, huge numbers, invalid UTF-8, duplicate keys: each is
  // either read or rejected with an error, never a crash.
  const std::string inputs[] = {
      std::string(100000, '[') + std::string(100000, ']'),
      "{\"url\":\"http://a.test/\",\"x\":" + std::string(50000, '[') + "}",
      "{\"url\":\"http://a.test/\",\"relevance\":1e999}",
      "{\"url\":\"http://a.test/\xff\xfe\",\"relevance\":0.1}",
      "{\"url\":\"http://a.test/1\",\"url\":\"http://a.test/2\"}",
      "{\"url\":\"" + std::string(5000, 'a') + "\"}",
      std::string("{\"url\":\"http://a.test/\0\"}", 24),
  };
  for (const std::string& in : inputs) {
    auto log = Log(in + "\n");
    if (!log.ok()) {
      EXPECT_THAT(log.status().message(), HasSubstr("log.jsonl:1: "));
      EXPECT_LT(log.status().message().size(), 300u);
    }
  }
}

TEST(ReadFetchLogFileTest, FolderAndMissingFile) {
  auto log = ReadFetchLogFile(FCRAWL_SOURCE_DIR "/eval/testdata/crawl-a");
  ASSERT_TRUE(log.ok()) << log.status();
  EXPECT_EQ(log->pages.size(), 5u);
  auto missing = ReadFetchLogFile("/nonexistent/fetch_log.jsonl");
  ASSERT_FALSE(missing.ok());
  EXPECT_TRUE(absl::IsNotFound(missing.status()));
  EXPECT_THAT(missing.status().message(),
              HasSubstr("/nonexistent/fetch_log.jsonl"));
}

// The fixture crawl by hand: 4 on-topic URLs (p1..p4). Pages after robots
// and the repeat: /(0.05), p1(0.4, on), q1(0.1), old->p2(0.3, on via
// final_url), p3 written un-normalised (0.2, on).
class EvaluateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto labels = ReadLabelsFile(FCRAWL_SOURCE_DIR "/eval/testdata/labels.tsv");
    ASSERT_TRUE(labels.ok()) << labels.status();
    on_topic_ = OnTopicUrls(*labels, {"astronomy"});
    auto log = ReadFetchLogFile(FCRAWL_SOURCE_DIR
                                "/eval/testdata/crawl-a/fetch_log.jsonl");
    ASSERT_TRUE(log.ok()) << log.status();
    log_ = *log;
  }
  absl::flat_hash_set<std::string> on_topic_;
  FetchLog log_;
};

TEST_F(EvaluateTest, HandComputedTotalsAndCurves) {
  EvalOptions options;
  options.segment_size = 2;
  auto r = Evaluate("a", log_, on_topic_, options);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(on_topic_.size(), 4u);
  EXPECT_EQ(r->pages, 5);
  EXPECT_EQ(r->log_counts.robots, 1);
  EXPECT_EQ(r->log_counts.duplicates, 1);
  EXPECT_EQ(r->on_topic, 3);
  EXPECT_EQ(r->on_topic_found, 3);
  EXPECT_EQ(r->on_topic_total, 4);
  EXPECT_DOUBLE_EQ(r->harvest_rate, 0.6);
  EXPECT_DOUBLE_EQ(r->recall, 0.75);
  // 0.1 is not > 0.1: only 0.4, 0.3 and 0.2 count.
  EXPECT_EQ(r->sum_of_relevant_page, 3);
  EXPECT_NEAR(r->sum_of_info, 1.05, 1e-12);
  EXPECT_EQ(r->pages_with_relevance, 5);
  EXPECT_THAT(r->harvest_curve,
              ElementsAre(0.0, 0.5, DoubleNear(1.0 / 3, 1e-12), 0.5, 0.6));
  EXPECT_THAT(r->recall_curve, ElementsAre(0.0, 0.25, 0.25, 0.5, 0.75));
  EXPECT_THAT(r->relevant_page_curve, ElementsAre(0, 1, 1, 2, 3));
  ASSERT_EQ(r->info_curve.size(), 5u);
  EXPECT_NEAR(r->info_curve[2], 0.55, 1e-12);

  ASSERT_EQ(r->segments.size(), 3u);
  const Segment& s0 = r->segments[0];
  EXPECT_EQ(s0.first_page, 1);
  EXPECT_EQ(s0.last_page, 2);
  EXPECT_EQ(s0.on_topic, 1);
  EXPECT_DOUBLE_EQ(s0.harvest_rate, 0.5);
  EXPECT_EQ(s0.sum_of_relevant_page, 1);
  EXPECT_NEAR(s0.sum_of_info, 0.45, 1e-12);
  const Segment& s1 = r->segments[1];
  EXPECT_EQ(s1.first_page, 3);
  EXPECT_EQ(s1.last_page, 4);
  EXPECT_EQ(s1.on_topic, 1);
  EXPECT_EQ(s1.sum_of_relevant_page, 1);
  EXPECT_NEAR(s1.sum_of_info, 0.4, 1e-12);
  const Segment& s2 = r->segments[2];  // partial
  EXPECT_EQ(s2.first_page, 5);
  EXPECT_EQ(s2.last_page, 5);
  EXPECT_DOUBLE_EQ(s2.harvest_rate, 1.0);
  EXPECT_EQ(s2.sum_of_relevant_page, 1);
  EXPECT_NEAR(s2.sum_of_info, 0.2, 1e-12);
}

TEST_F(EvaluateTest, ThresholdAndDefaultSegment) {
  EvalOptions options;
  options.relevance_threshold = 0.25;
  auto r = Evaluate("a", log_, on_topic_, options);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->sum_of_relevant_page, 2);
  ASSERT_EQ(r->segments.size(), 1u);
  EXPECT_EQ(r->segments[0].last_page, 5);
}

TEST_F(EvaluateTest, RecallCountsUrlsOnceAcrossRedirects) {
  FetchLog log;
  log.pages.push_back({"http://a.test/astro/p1.html",
                       "http://a.test/astro/p1.html", std::nullopt,
                       std::nullopt});
  log.pages.push_back({"http://a.test/moved", "http://a.test/astro/p1.html",
                       std::nullopt, std::nullopt});
  auto r = Evaluate("x", log, on_topic_);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->on_topic, 2);        // both fetches brought an on-topic page
  EXPECT_EQ(r->on_topic_found, 1);  // but one labelled page was found
  EXPECT_DOUBLE_EQ(r->recall, 0.25);
  EXPECT_EQ(r->pages_with_relevance, 0);
}

TEST_F(EvaluateTest, OnTopicDecisionAsAClassifier) {
  // The labelled on-topic pages of testdata/labels.tsv under /astro/.
  FetchLog log;
  auto page = [&](const std::string& u, std::optional<bool> judged) {
    FetchedPage p{u, u, 0.5, judged};
    log.pages.push_back(p);
  };
  page("http://a.test/astro/p1.html", true);        // true positive
  page("http://a.test/astro/p2.html", false);       // false negative
  page("http://a.test/astro/p3.html", true);        // true positive
  page("http://a.test/other.html", true);           // false positive
  page("http://a.test/other2.html", false);         // true negative
  page("http://a.test/other3.html", std::nullopt);  // not judged
  auto r = Evaluate("x", log, on_topic_);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->judged, 5);
  EXPECT_EQ(r->judged_true_positives, 2);
  EXPECT_EQ(r->judged_false_positives, 1);
  EXPECT_EQ(r->judged_false_negatives, 1);
  EXPECT_DOUBLE_EQ(r->judge_precision, 2.0 / 3);
  EXPECT_DOUBLE_EQ(r->judge_recall, 2.0 / 3);
  EXPECT_DOUBLE_EQ(r->judge_f1, 2.0 / 3);
  EXPECT_THAT(ReportMarkdown({*r}, {}),
              HasSubstr("| x | 5 | 3 | 2 | 0.667 | 0.667 | 0.667 |"));
  EXPECT_THAT(ReportJson({*r}, {}), HasSubstr("\"judge_f1\":0.666667"));

  // A log without decisions: nothing judged, no table.
  auto none = Evaluate("y", log_, on_topic_);
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none->judged, 0);
  EXPECT_EQ(none->judge_f1, 0);
  EXPECT_THAT(ReportMarkdown({*none}, {}), Not(HasSubstr("on-topic decision")));
}

TEST_F(EvaluateTest, EmptyLogAndBadOptions) {
  auto r = Evaluate("empty", FetchLog(), on_topic_);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->pages, 0);
  EXPECT_EQ(r->harvest_rate, 0);
  EXPECT_TRUE(r->segments.empty());
  EXPECT_FALSE(Evaluate("x", log_, on_topic_, {0.1, 0}).ok());
  EXPECT_FALSE(Evaluate("x", log_, on_topic_,
                        {std::numeric_limits<double>::infinity(), 600})
                   .ok());
  auto none = Evaluate("x", log_, {});
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none->recall, 0);
}

TEST(FetchOutcomeTest, EachFetchInTheFirstClassThatApplies) {
  // One line per class, by hand: on topic though redirected, 404, 410,
  // 500, no response, a 200 cut short, a PDF, an HTML page with a charset
  // parameter, a page without a content type, and a redirect to an
  // off-topic page.
  std::istringstream in(
      "{\"url\":\"http://a.test/old\",\"final_url\":\"http://a.test/p1.html\","
      "\"status\":200,\"content_type\":\"text/html\"}\n"
      "{\"url\":\"http://a.test/gone1\",\"status\":404,\"content_type\":\"text/"
      "html\"}\n"
      "{\"url\":\"http://a.test/gone2\",\"status\":410}\n"
      "{\"url\":\"http://a.test/err\",\"status\":500}\n"
      "{\"url\":\"http://b.test/x\",\"status\":0,\"error\":\"could not "
      "resolve\"}\n"
      "{\"url\":\"http://a.test/cut\",\"status\":200,\"error\":\"truncated\"}\n"
      "{\"url\":\"http://a.test/"
      "f.pdf\",\"status\":200,\"content_type\":\"application/pdf\"}\n"
      "{\"url\":\"http://a.test/q.html\",\"status\":200,"
      "\"content_type\":\" Text/HTML; charset=utf-8\"}\n"
      "{\"url\":\"http://a.test/"
      "r.html\",\"status\":200,\"content_type\":null}\n"
      "{\"url\":\"http://a.test/s\",\"final_url\":\"http://a.test/s/\","
      "\"status\":200,\"content_type\":\"text/html\",\"error\":null}\n");
  auto log = ReadFetchLog(in, "log.jsonl");
  ASSERT_TRUE(log.ok()) << log.status();
  ASSERT_EQ(log->pages.size(), 10u);
  EXPECT_EQ(log->pages[1].status, 404);
  EXPECT_TRUE(log->pages[4].error);
  EXPECT_EQ(log->pages[6].content_type, "application/pdf");
  auto r = Evaluate("a", *log, {"http://a.test/p1.html"});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->outcomes.on_topic, 1);
  EXPECT_EQ(r->outcomes.not_found, 2);
  EXPECT_EQ(r->outcomes.other_error, 3);  // 500, no response, cut short
  EXPECT_EQ(r->outcomes.non_html, 1);
  EXPECT_EQ(r->outcomes.off_topic, 3);
  EXPECT_EQ(r->outcomes.redirected, 2);
  EXPECT_EQ(r->on_topic_hosts, 1);
  const std::string md = ReportMarkdown({*r}, {});
  EXPECT_THAT(
      md,
      HasSubstr("| a | 10.0% | 30.0% | 20.0% | 30.0% | 10.0% | 20.0% | 1 |"));
  EXPECT_THAT(ReportJson({*r}, {}),
              HasSubstr("\"on_topic_hosts\":1,\"outcomes\":{\"on_topic\":1,"
                        "\"off_topic\":3,\"not_found\":2,\"other_error\":3,"
                        "\"non_html\":1,\"redirected\":2}"));
}

TEST(FetchOutcomeTest, BadStatusOrTypesAreErrorsNamingTheField) {
  for (const char* bad : {"{\"url\":\"http://a.test/\",\"status\":\"200\"}",
                          "{\"url\":\"http://a.test/\",\"status\":-1}",
                          "{\"url\":\"http://a.test/\",\"status\":1e300}",
                          "{\"url\":\"http://a.test/\",\"content_type\":5}",
                          "{\"url\":\"http://a.test/\",\"error\":true}"}) {
    std::istringstream in(std::string(bad) + "\n");
    auto log = ReadFetchLog(in, "log.jsonl");
    ASSERT_FALSE(log.ok()) << bad;
    EXPECT_THAT(log.status().message(), HasSubstr("log.jsonl:1: \"")) << bad;
  }
}

TEST(SampleIndicesTest, EvenFirstAndLast) {
  EXPECT_THAT(SampleIndices(3, 500), ElementsAre(0, 1, 2));
  EXPECT_TRUE(SampleIndices(0, 500).empty());
  EXPECT_THAT(SampleIndices(11, 3), ElementsAre(0, 5, 10));
  auto s = SampleIndices(100000, 500);
  ASSERT_EQ(s.size(), 500u);
  EXPECT_EQ(s.front(), 0u);
  EXPECT_EQ(s.back(), 99999u);
  for (size_t i = 1; i < s.size(); ++i) EXPECT_LT(s[i - 1], s[i]);
}

TEST_F(EvaluateTest, ReportsHoldTheNumbersAndEscapeNames) {
  EvalOptions options;
  options.segment_size = 2;
  auto a = Evaluate("a|b<&\xff", log_, on_topic_, options);
  ASSERT_TRUE(a.ok());
  std::vector<CrawlResult> results = {*a};
  // A long crawl to exercise downsampling.
  FetchLog big;
  for (int i = 0; i < 5000; ++i) {
    big.pages.push_back({absl::StrCat("http://b.test/", i),
                         absl::StrCat("http://b.test/", i), 0.5, std::nullopt});
  }
  auto b = Evaluate("big", big, on_topic_, options);
  ASSERT_TRUE(b.ok());
  results.push_back(*b);
  ReportContext context{"labels.tsv", {"astronomy"}, 4, options};

  const std::string md = ReportMarkdown(results, context);
  EXPECT_THAT(md, HasSubstr("| a\\|b<&\xff | 5 | 3 | 0.6000 | 0.7500 (3/4) "
                            "| 3 | 1.05 | 5 |"));
  EXPECT_THAT(md, HasSubstr("| 5–6 | 1.0000 (1 pages) |"));

  const std::string json = ReportJson(results, context);
  EXPECT_THAT(json, HasSubstr("\"harvest_rate\":[0,0.5,0.333333,0.5,0.6]"));
  EXPECT_THAT(json, HasSubstr("\"sum_of_relevantPage\":[0,1,1,2,3]"));

  const std::string svg = CurvesSvg(results, context);
  EXPECT_TRUE(absl::StartsWith(svg, "<?xml"));
  EXPECT_THAT(svg, HasSubstr("a|b&lt;&amp;?"));
  EXPECT_EQ(svg.find('\xff'), std::string::npos);
  // Two panels, two crawls; the long one sampled to 500 points.
  size_t polylines = 0;
  for (size_t p = svg.find("<polyline"); p != std::string::npos;
       p = svg.find("<polyline", p + 1)) {
    ++polylines;
  }
  EXPECT_EQ(polylines, 4u);
  const size_t big_line = svg.rfind("<polyline");
  const std::string points =
      svg.substr(big_line, svg.find("/>", big_line) - big_line);
  EXPECT_EQ(std::count(points.begin(), points.end(), ','), 500);
}

}  // namespace
}  // namespace fcrawl::eval
