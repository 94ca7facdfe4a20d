#include "cluster/ranks.h"

#include <cmath>
#include <string>

#include "core/test_temp_dir.h"
#include "gtest/gtest.h"

namespace fcrawl::cluster {
namespace {

proto::RankedPage Page(const std::string& url, double rank) {
  proto::RankedPage p;
  p.set_url(url);
  p.set_rank(rank);
  return p;
}

TEST(CheckRankedPage, AcceptsAndRefuses) {
  EXPECT_TRUE(CheckRankedPage(Page("http://a.test/x", 1.5), 0).ok());
  EXPECT_TRUE(CheckRankedPage(Page("HTTPS://a.test/", 0), 0).ok());
  const absl::Status ftp = CheckRankedPage(Page("ftp://a.test/", 1), 3);
  EXPECT_EQ(ftp.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(ftp.message().find("ranks[3]"), absl::string_view::npos);
  EXPECT_FALSE(CheckRankedPage(Page("", 1), 0).ok());
  EXPECT_FALSE(
      CheckRankedPage(Page("http://a.test/" + std::string(5000, 'x'), 1), 0)
          .ok());
  EXPECT_FALSE(CheckRankedPage(Page("http://a.test/", -1), 0).ok());
  EXPECT_FALSE(CheckRankedPage(Page("http://a.test/", NAN), 0).ok());
  EXPECT_FALSE(CheckRankedPage(Page("http://a.test/", INFINITY), 0).ok());
  EXPECT_FALSE(CheckRankedPage(Page("http://a.test/", 1e10), 0).ok());
}

TEST(ReadRankFile, TsvScalesScoresToMeanOne) {
  // Four pages, scores sum to 1: R = 4·score.
  file::TestTempDir tmp_dir;
  const std::string path =
      tmp_dir.Write("ranking.tsv",
                    "rank\turl\tscore\tpagerank\trelevance\tcombined\tfetched\n"
                    "1\thttp://a.test/\t0.5\t0.4\t0.9\t0.8\t1\n"
                    "2\thttp://a.test/b\t0.25\t0.3\t0\t0.3\t1\n"
                    "3\thttp://b.test/\t0.125\t0.2\t0\t0.2\t0\n"
                    "4\thttp://b.test/c%09d\t0.125\t0.1\t0\t0.2\t0\n");
  absl::StatusOr<RankFile> f = ReadRankFile(path, 0);
  ASSERT_TRUE(f.ok()) << f.status();
  ASSERT_EQ(f->pages.size(), 4u);
  EXPECT_EQ(f->lines, 4);
  EXPECT_DOUBLE_EQ(f->score_sum, 1.0);
  EXPECT_EQ(f->pages[0].url(), "http://a.test/");
  EXPECT_DOUBLE_EQ(f->pages[0].rank(), 2.0);
  EXPECT_DOUBLE_EQ(f->pages[1].rank(), 1.0);
  EXPECT_DOUBLE_EQ(f->pages[3].rank(), 0.5);
  EXPECT_EQ(f->pages[3].url(), "http://b.test/c%09d");
  // A top-K file with the graph's page count given: R = 1000·score.
  absl::StatusOr<RankFile> g = ReadRankFile(path, 1000);
  ASSERT_TRUE(g.ok());
  EXPECT_DOUBLE_EQ(g->pages[0].rank(), 500.0);
}

TEST(ReadRankFile, JsonLines) {
  file::TestTempDir tmp_dir;
  const std::string path = tmp_dir.Write(
      "ranking.jsonl",
      "{\"rank\":1,\"url\":\"http://a.test/\",\"score\":0.75,"
      "\"pagerank\":0.5,\"relevance\":1,\"combined\":0.9,\"fetched\":true}\n"
      "{\"rank\":2,\"url\":\"http://a.test/q\\\"\",\"score\":0.25,"
      "\"pagerank\":0.5,\"relevance\":0,\"combined\":0.2,\"fetched\":false}\n");
  absl::StatusOr<RankFile> f = ReadRankFile(path, 0);
  ASSERT_TRUE(f.ok()) << f.status();
  ASSERT_EQ(f->pages.size(), 2u);
  EXPECT_DOUBLE_EQ(f->pages[0].rank(), 1.5);
  EXPECT_EQ(f->pages[1].url(), "http://a.test/q\"");
  EXPECT_DOUBLE_EQ(f->pages[1].rank(), 0.5);
}

TEST(ReadRankFile, RefusesDamagedFiles) {
  struct Case {
    const char* text;
    const char* want;
  } cases[] = {
      {"hello\n", "line 1"},
      {"rank\turl\tscore\tpagerank\trelevance\tcombined\tfetched\n"
       "1\thttp://a/\tx\t0\t0\t0\t1\n",
       "line 2: the score is not a number"},
      {"rank\turl\tscore\tpagerank\trelevance\tcombined\tfetched\n"
       "1\thttp://a/\t0.5\n",
       "line 2: 3 columns"},
      {"rank\turl\tscore\tpagerank\trelevance\tcombined\tfetched\n"
       "1\thttp://a/\t7\t0\t0\t0\t1\n",
       "not in [0, 1]"},
      {"{\"url\":\"http://a/\",\"score\":0.5}\n{\"url\":3}\n", "line 2"},
      {"{\"url\":\"http://a/\",\"score\":0.5}\n{not json\n", "line 2"},
  };
  file::TestTempDir tmp_dir;
  for (const Case& c : cases) {
    const std::string path = tmp_dir.Write("damaged", c.text);
    absl::StatusOr<RankFile> f = ReadRankFile(path, 0);
    ASSERT_FALSE(f.ok()) << c.text;
    EXPECT_NE(f.status().message().find(c.want), absl::string_view::npos)
        << f.status();
  }
  const std::string big = tmp_dir.Write("big", std::string(2000, 'x'));
  EXPECT_EQ(ReadRankFile(big, 0, 1000).status().code(),
            absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(ReadRankFile("/nonexistent/ranks.tsv", 0).status().code(),
            absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace fcrawl::cluster
