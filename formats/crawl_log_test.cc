#include "formats/crawl_log.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/time.h"
#include "core/test_temp_dir.h"

namespace fcrawl::formats {
namespace {

using ::testing::HasSubstr;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> Lines(const std::string& path) {
  const std::string data = ReadFile(path);
  EXPECT_TRUE(data.empty() || data.back() == '\n');
  std::vector<std::string> lines = absl::StrSplit(data, '\n');
  lines.pop_back();  // after the last '\n'
  return lines;
}

// ---- CrawlLog --------------------------------------------------------------

proto::CorpusRecord Page(const std::string& url, const std::string& text) {
  proto::CorpusRecord p;
  p.set_url(url);
  p.set_title("title");
  p.set_main_text(text);
  p.set_relevance(0.5);
  return p;
}

FetchLogEntry SampleFetch(int i) {
  FetchLogEntry e;
  e.url = absl::StrCat("http://example.com/", i);
  e.final_url = absl::StrCat("https://example.com/", i);
  e.status = 200;
  e.fetched_at = absl::FromUnixMillis(1714566896123 + i);
  e.fetch_time = absl::Microseconds(12345);
  e.depth = 2;
  e.content_type = "text/html; charset=\"utf-8\"";
  e.bytes = 5120;
  e.relevance = 0.75;
  e.score = 0.125;
  e.topic_score = 0.625;
  e.on_topic = true;
  return e;
}

TEST(CrawlLogTest, FetchLogLineFormat) {
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.path();
  auto log = CrawlLog::Open(dir);
  ASSERT_TRUE(log.ok()) << log.status();
  EXPECT_EQ((*log)->fetch_log_path(), dir + "/fetch_log.jsonl");
  ASSERT_TRUE((*log)->AppendFetch(SampleFetch(1)).ok());
  FetchLogEntry failed;
  failed.url = "http://bad.example/";
  failed.final_url = "http://bad.example/";
  failed.fetched_at = absl::FromUnixSeconds(1714566900);
  failed.fetch_time = absl::Seconds(30);
  failed.depth = 5;
  failed.error = "timeout after 30 s: \"connect\"\n";
  ASSERT_TRUE((*log)->AppendFetch(failed).ok());
  ASSERT_TRUE((*log)->Close().ok());
  EXPECT_THAT(
      Lines(dir + "/fetch_log.jsonl"),
      ::testing::ElementsAre(
          "{\"url\":\"http://example.com/1\",\"final_url\":"
          "\"https://example.com/1\",\"status\":200,\"fetched_at\":"
          "\"2024-05-01T12:34:56.124Z\",\"fetch_ms\":12.345,\"depth\":2,"
          "\"content_type\":\"text/html; charset=\\\"utf-8\\\"\","
          "\"bytes\":5120,\"relevance\":0.75,\"score\":0.125,"
          "\"topic_score\":0.625,\"on_topic\":true,\"error\":null}",
          "{\"url\":\"http://bad.example/\",\"final_url\":"
          "\"http://bad.example/\",\"status\":0,\"fetched_at\":"
          "\"2024-05-01T12:35:00.000Z\",\"fetch_ms\":30000,\"depth\":5,"
          "\"content_type\":\"\",\"bytes\":0,\"relevance\":null,"
          "\"score\":null,\"topic_score\":null,\"on_topic\":null,"
          "\"error\":\"timeout after 30 s: "
          "\\\"connect\\\"\\n\"}"));
}

TEST(CrawlLogTest, PagesLineFormat) {
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.path();
  auto log = CrawlLog::Open(dir);
  ASSERT_TRUE(log.ok());
  proto::CorpusRecord page;
  page.set_url("http://example.com/a");
  page.set_title("Caf\xC3\xA9 \xFF");
  page.set_main_text("line one\nline\ttwo \\ end");
  page.set_relevance(0.5);
  page.set_topic_score(0.25);
  page.set_on_topic(false);
  page.set_topic_model("keywords+feedback");
  page.set_fetched_at("2024-05-01T12:34:56.001Z");
  ASSERT_TRUE((*log)->AppendPage(page).ok());
  page.clear_relevance();
  page.clear_topic_score();
  page.clear_on_topic();
  page.clear_topic_model();
  page.clear_main_text();
  proto::CorpusBlock* b = page.add_blocks();
  b->set_type(proto::CONTENT);
  b->set_text_length(7);
  b->set_share(1);
  ASSERT_TRUE((*log)->AppendPage(page).ok());
  ASSERT_TRUE((*log)->Close().ok());
  EXPECT_THAT(
      Lines(dir + "/pages.jsonl"),
      ::testing::ElementsAre(
          "{\"url\":\"http://example.com/a\",\"fetched_url\":\"\","
          "\"canonical_url\":\"\",\"fetched_at\":\"2024-05-01T12:34:56.001Z\","
          "\"language\":\"\",\"title\":\"Caf\xC3\xA9 \xEF\xBF\xBD\","
          "\"byline\":\"\",\"date\":\"\",\"main_text\":\"line one\\nline\\ttwo "
          "\\\\ end\",\"relevance\":0.5,\"topic_score\":0.25,"
          "\"on_topic\":false,\"topic_model\":\"keywords+feedback\","
          "\"duplicate_of\":\"\",\"blocks\":[],\"media\":[],\"anchor\":\"\","
          "\"rank\":null,\"rank_score\":null,\"page_type\":\"\","
          "\"main_markdown\":null,\"gone\":null}",
          "{\"url\":\"http://example.com/a\",\"fetched_url\":\"\","
          "\"canonical_url\":\"\",\"fetched_at\":\"2024-05-01T12:34:56.001Z\","
          "\"language\":\"\",\"title\":\"Caf\xC3\xA9 \xEF\xBF\xBD\","
          "\"byline\":\"\",\"date\":\"\",\"main_text\":\"\",\"relevance\":null,"
          "\"topic_score\":null,\"on_topic\":null,\"topic_model\":\"\","
          "\"duplicate_of\":\"\",\"blocks\":[{\"type\":\"CONTENT\","
          "\"text_length\":7,\"share\":1,\"site_template\":false}],"
          "\"media\":[],\"anchor\":\"\",\"rank\":null,\"rank_score\":null,"
          "\"page_type\":\"\",\"main_markdown\":null,\"gone\":null}"));
}

// Each line reaches the file as soon as Append returns (no user-space
// buffer), so a SIGKILL would lose nothing already appended.
TEST(CrawlLogTest, LinesAreOnDiskWhenAppendReturns) {
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.path();
  auto log = CrawlLog::Open(dir);
  ASSERT_TRUE(log.ok());
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE((*log)->AppendFetch(SampleFetch(i)).ok());
    EXPECT_EQ(Lines(dir + "/fetch_log.jsonl").size(),
              static_cast<size_t>(i + 1));
  }
  EXPECT_TRUE((*log)->Sync().ok());
}

// A second Open appends (a resumed crawl) and first drops a partial line left
// by a killed run.
TEST(CrawlLogTest, ReopenAppendsAndDropsPartialLine) {
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.path();
  {
    auto log = CrawlLog::Open(dir);
    ASSERT_TRUE(log.ok());
    ASSERT_TRUE((*log)->AppendFetch(SampleFetch(1)).ok());
  }
  {
    std::ofstream out(dir + "/fetch_log.jsonl", std::ios::app);
    out << "{\"url\":\"http://cut";  // a line cut by SIGKILL
  }
  {
    std::ofstream out(dir + "/pages.jsonl", std::ios::app);
    out << std::string(10000, 'x');  // a partial line with no line before
  }
  auto log = CrawlLog::Open(dir);
  ASSERT_TRUE(log.ok());
  ASSERT_TRUE((*log)->AppendFetch(SampleFetch(2)).ok());
  ASSERT_TRUE((*log)->AppendPage(Page("http://a/", "m")).ok());
  ASSERT_TRUE((*log)->Close().ok());
  const std::vector<std::string> lines = Lines(dir + "/fetch_log.jsonl");
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_THAT(lines[0], HasSubstr("\"url\":\"http://example.com/1\""));
  EXPECT_THAT(lines[1], HasSubstr("\"url\":\"http://example.com/2\""));
  const std::vector<std::string> pages = Lines(dir + "/pages.jsonl");
  ASSERT_EQ(pages.size(), 1u);
  EXPECT_THAT(pages[0], HasSubstr("\"url\":\"http://a/\""));
}

TEST(CrawlLogTest, ErrorsNameTheFile) {
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.File("missing");
  auto log = CrawlLog::Open(dir);
  ASSERT_FALSE(log.ok());
  EXPECT_THAT(std::string(log.status().message()),
              HasSubstr(dir + "/fetch_log.jsonl"));

  file::TestTempDir tmp_dir2;
  const std::string ok_dir = tmp_dir2.path();
  auto open = CrawlLog::Open(ok_dir);
  ASSERT_TRUE(open.ok());
  ASSERT_TRUE((*open)->Close().ok());
  EXPECT_TRUE((*open)->Close().ok());
  const absl::Status s = (*open)->AppendFetch(SampleFetch(1));
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(s.message()), HasSubstr("fetch_log.jsonl"));
}

// A write that finds the disk full (/dev/full answers every write with
// ENOSPC) calls the no-space hook once and, when it freed space, is tried
// once more; the error names the file and says what failed.
TEST(CrawlLogTest, FullDiskCallsTheNoSpaceHook) {
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.path();
  ASSERT_EQ(::symlink("/dev/full", (dir + "/fetch_log.jsonl").c_str()), 0);
  int calls = 0;
  bool frees = true;
  auto log = CrawlLog::Open(dir, [&] {
    ++calls;
    return frees;
  });
  ASSERT_TRUE(log.ok()) << log.status();
  absl::Status s = (*log)->AppendFetch(SampleFetch(1));
  EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(std::string(s.message()), HasSubstr("fetch_log.jsonl"));
  EXPECT_EQ(calls, 1);  // freed, tried again, full again: no third try
  frees = false;
  s = (*log)->AppendFetch(SampleFetch(2));
  EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(calls, 2);
  // The other file is not full: no call.
  EXPECT_TRUE((*log)->AppendPage(Page("http://a/", "text")).ok());
  EXPECT_EQ(calls, 2);
}

// Four threads appending at once: every line whole, none lost, and each
// thread's lines in its own order.
TEST(CrawlLogTest, ConcurrentAppendsGiveWholeLines) {
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.path();
  auto log = CrawlLog::Open(dir);
  ASSERT_TRUE(log.ok());
  constexpr int kThreads = 4;
  constexpr int kPerThread = 2000;
  const std::string long_text(3000, 'z');  // lines longer than PIPE_BUF
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        FetchLogEntry e = SampleFetch(i);
        e.url = absl::StrCat("http://t", t, ".example/", i);
        e.error = long_text;
        ASSERT_TRUE((*log)->AppendFetch(e).ok());
        if (i % 10 == 0) {
          ASSERT_TRUE((*log)->AppendPage(Page(e.url, long_text)).ok());
        }
      }
    });
  }
  for (std::thread& th : threads) th.join();
  ASSERT_TRUE((*log)->Close().ok());

  const std::vector<std::string> lines = Lines(dir + "/fetch_log.jsonl");
  ASSERT_EQ(lines.size(), static_cast<size_t>(kThreads * kPerThread));
  std::vector<int> next(kThreads, 0);
  for (const std::string& line : lines) {
    ASSERT_EQ(line.front(), '{');
    ASSERT_EQ(line.back(), '}');
    ASSERT_THAT(line, HasSubstr(long_text));
    const size_t at = line.find("http://t");
    ASSERT_NE(at, std::string::npos);
    const int t = line[at + 8] - '0';
    ASSERT_TRUE(t >= 0 && t < kThreads);
    ASSERT_THAT(line, HasSubstr(absl::StrCat("\"url\":\"http://t", t,
                                             ".example/", next[t], "\"")));
    ++next[t];
  }
  const std::vector<std::string> pages = Lines(dir + "/pages.jsonl");
  ASSERT_EQ(pages.size(), static_cast<size_t>(kThreads * kPerThread / 10));
  for (const std::string& line : pages) {
    ASSERT_EQ(line.front(), '{');
    ASSERT_EQ(line.back(), '}');
  }
}

}  // namespace
}  // namespace fcrawl::formats
