#include "corpus/corpus.h"

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "absl/algorithm/container.h"
#include "absl/strings/match.h"
#include "core/test_temp_dir.h"
#include "formats/corpus.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace fcrawl::corpus {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

proto::CorpusRecord Record(const std::string& url, const std::string& at,
                           bool on_topic, double score,
                           const std::string& language = "en") {
  proto::CorpusRecord r;
  r.set_url(url);
  r.set_fetched_at(at);
  r.set_title("Title of " + url);
  r.set_language(language);
  r.set_main_text("text, with \"quotes\"\nand a second line");
  r.set_topic_score(score);
  r.set_on_topic(on_topic);
  r.set_topic_model("keywords");
  return r;
}

void Write(const std::string& path, const std::vector<std::string>& lines) {
  std::ofstream out(path, std::ios::binary);
  for (const std::string& l : lines) out << l << "\n";
}

std::vector<proto::CorpusRecord> ReadAll(const std::vector<std::string>& in,
                                         const CorpusFilter& filter,
                                         const std::optional<RankJoin>& ranks,
                                         CorpusStats* stats) {
  std::vector<proto::CorpusRecord> out;
  absl::Status s =
      ReadCorpus(in, filter, ranks, stats, [&](proto::CorpusRecord& r) {
        out.push_back(r);
        return absl::OkStatus();
      });
  EXPECT_TRUE(s.ok()) << s;
  return out;
}

std::vector<std::string> Urls(const std::vector<proto::CorpusRecord>& rs) {
  std::vector<std::string> out;
  for (const auto& r : rs) out.push_back(r.url());
  return out;
}

class CorpusReadTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // Two workers' output folders; b.test/1 was fetched by both (a host
    // handed over), a.test/1 twice by one (a revisit that found a change).
    w1_ = dir_.path() + "/w1";
    w2_ = dir_.path() + "/w2";
    std::filesystem::create_directories(w1_);
    std::filesystem::create_directories(w2_);
    proto::CorpusRecord a1_new =
        Record("http://a.test/1", "2026-11-27T10:00:00.000Z", true, 0.9);
    a1_new.set_main_text("the new text");
    proto::CorpusRecord media = Record(
        "http://a.test/2", "2026-11-27T09:00:00.000Z", false, 0.2, "zh-CN");
    proto::MediaResource* m = media.add_media();
    m->set_url("http://a.test/v.mp4");
    m->set_kind(proto::VIDEO);
    m = media.add_media();
    m->set_url("http://a.test/s.mp3");
    m->set_kind(proto::AUDIO);
    Write(w1_ + "/pages.jsonl",
          {formats::CorpusJson(Record("http://a.test/1",
                                      "2026-11-27T08:00:00.000Z", true, 0.8)),
           formats::CorpusJson(media), "{not json", "",
           formats::CorpusJson(Record("http://b.test/1",
                                      "2026-11-27T08:30:00.000Z", false, 0.1)),
           formats::CorpusJson(a1_new)});
    proto::CorpusRecord dup =
        Record("http://c.test/copy", "2026-11-27T08:00:00.000Z", true, 0.7);
    dup.set_duplicate_of("http://a.test/1");
    Write(w2_ + "/pages.jsonl",
          {formats::CorpusJson(Record("http://b.test/1",
                                      "2026-11-27T09:30:00.000Z", true, 0.6)),
           formats::CorpusJson(dup), R"({"title":"no url"})"});
  }

  file::TestTempDir dir_;
  std::string w1_, w2_;
};

TEST_F(CorpusReadTest, MergesLatestRecordPerUrlAndCountsBadLines) {
  CorpusStats stats;
  std::vector<proto::CorpusRecord> rs = ReadAll({w1_, w2_}, {}, {}, &stats);
  EXPECT_THAT(Urls(rs), ElementsAre("http://a.test/2", "http://a.test/1",
                                    "http://b.test/1", "http://c.test/copy"));
  EXPECT_EQ(rs[1].main_text(), "the new text");
  EXPECT_TRUE(rs[2].on_topic());  // w2's later fetch of b.test/1
  EXPECT_EQ(stats.lines, 8);
  EXPECT_EQ(stats.bad_lines, 2);
  EXPECT_EQ(stats.superseded, 2);
  EXPECT_EQ(stats.written, 4);
  ASSERT_EQ(stats.problems.size(), 2u);
  EXPECT_THAT(stats.problems[0], HasSubstr(w1_ + "/pages.jsonl:3: "));
  EXPECT_THAT(stats.problems[1], HasSubstr("pages.jsonl:3: no url"));
}

// A revisit found b.test/1 gone: its tombstone, later than its page, leaves
// the page out; asked, the tombstone itself is written.
TEST_F(CorpusReadTest, ATombstoneLeavesAGonePageOut) {
  proto::CorpusRecord tomb;
  tomb.set_url("http://b.test/1");
  tomb.set_fetched_at("2026-11-28T00:00:00.000Z");
  tomb.set_gone(true);
  Write(dir_.path() + "/w3.jsonl", {formats::CorpusJson(tomb)});
  const std::vector<std::string> in = {w1_, w2_, dir_.path() + "/w3.jsonl"};
  EXPECT_THAT(
      Urls(ReadAll(in, {}, {}, nullptr)),
      ElementsAre("http://a.test/2", "http://a.test/1", "http://c.test/copy"));
  CorpusFilter with_gone;
  with_gone.include_gone = true;
  std::vector<proto::CorpusRecord> rs = ReadAll(in, with_gone, {}, nullptr);
  ASSERT_EQ(rs.size(), 4u);
  EXPECT_EQ(rs[3].url(), "http://b.test/1");
  EXPECT_TRUE(rs[3].gone());
  EXPECT_EQ(rs[3].main_text(), "");
}

TEST(BulkTest, ATombstoneIsADelete) {
  proto::CorpusRecord r;
  r.set_url("http://a.test/");
  const std::string index = BulkLines(r, "pages");
  EXPECT_TRUE(absl::StartsWith(index, "{\"index\":{\"_index\":\"pages\""));
  EXPECT_EQ(absl::c_count(index, '\n'), 2);
  r.set_gone(true);
  const std::string gone = BulkLines(r, "pages");
  EXPECT_EQ(gone, "{\"delete\":{\"_index\":\"pages\",\"_id\":\"" +
                      index.substr(index.find("\"_id\":\"") + 7, 40) +
                      "\"}}\n");
}

TEST_F(CorpusReadTest, Filters) {
  CorpusFilter f;
  f.on_topic = true;
  EXPECT_THAT(
      Urls(ReadAll({w1_, w2_}, f, {}, nullptr)),
      ElementsAre("http://a.test/1", "http://b.test/1", "http://c.test/copy"));
  f.keep_duplicates = false;
  f.min_score = 0.65;
  EXPECT_THAT(Urls(ReadAll({w1_, w2_}, f, {}, nullptr)),
              ElementsAre("http://a.test/1"));
  CorpusFilter lang;
  lang.language = "zh";
  EXPECT_THAT(Urls(ReadAll({w1_, w2_}, lang, {}, nullptr)),
              ElementsAre("http://a.test/2"));
  lang.language = "z";  // a prefix of a subtag is no match
  EXPECT_TRUE(ReadAll({w1_, w2_}, lang, {}, nullptr).empty());
  CorpusFilter media;
  media.media_only = true;
  CorpusStats stats;
  EXPECT_THAT(Urls(ReadAll({w1_, w2_}, media, {}, &stats)),
              ElementsAre("http://a.test/2"));
  EXPECT_EQ(stats.filtered, 3);
}

TEST_F(CorpusReadTest, JoinsRanksByPosition) {
  const std::string ranks = dir_.path() + "/ranking.tsv";
  Write(ranks, {"rank\turl\tscore\tpagerank\trelevance\tcombined\tfetched",
                "1\thttp://b.test/1\t0.5\t0.5\t0\t0\t1",
                "2\thttp://a.test/1\t0.3\t0.3\t0\t0\t1",
                "3\thttp://x.test/\t0.2\t0.2\t0\t0\t0"});
  CorpusStats stats;
  std::vector<proto::CorpusRecord> rs =
      ReadAll({w1_, w2_}, {}, RankJoin{ranks, 0}, &stats);
  ASSERT_EQ(rs.size(), 4u);
  EXPECT_FALSE(rs[0].has_rank());
  EXPECT_EQ(rs[1].rank(), 2);
  EXPECT_DOUBLE_EQ(rs[1].rank_score(), 0.3 * 3);  // R = N·score, N = 3
  EXPECT_EQ(rs[2].rank(), 1);
  EXPECT_EQ(stats.ranked, 2);
  EXPECT_FALSE(ReadCorpus({w1_}, {}, RankJoin{dir_.path() + "/none", 0},
                          nullptr,
                          [](proto::CorpusRecord&) { return absl::OkStatus(); })
                   .ok());
}

TEST_F(CorpusReadTest, MissingInputAndLongLines) {
  absl::Status s =
      ReadCorpus({dir_.path() + "/nope"}, {}, {}, nullptr,
                 [](proto::CorpusRecord&) { return absl::OkStatus(); });
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(s.message()), HasSubstr("/nope"));
  // A line over the limit is skipped and the next one read.
  const std::string path = dir_.path() + "/long.jsonl";
  {
    std::ofstream out(path, std::ios::binary);
    out << std::string(formats::kMaxCorpusLineBytes + 10, 'x') << "\n"
        << formats::CorpusJson(Record("http://ok.test/", "", false, 0)) << "\n";
  }
  CorpusStats stats;
  EXPECT_THAT(Urls(ReadAll({path}, {}, {}, &stats)),
              ElementsAre("http://ok.test/"));
  EXPECT_EQ(stats.bad_lines, 1);
  ASSERT_EQ(stats.problems.size(), 1u);
  EXPECT_THAT(stats.problems[0], HasSubstr("long.jsonl:1: line longer"));
}

TEST(CsvTest, MarkdownThenGoneAreTheLastColumns) {
  EXPECT_TRUE(absl::EndsWith(CsvHeader(), ",main_text,main_markdown,gone\r\n"));
  proto::CorpusRecord r;
  r.set_url("http://a.test/");
  r.set_main_text("Title\nText");
  r.set_main_markdown("# Title\n\nText");
  EXPECT_TRUE(
      absl::EndsWith(CsvRow(r), ",\"Title\nText\",\"# Title\n\nText\",\r\n"))
      << CsvRow(r);
  r.set_gone(true);  // a tombstone, exported with --include_gone
  EXPECT_TRUE(absl::EndsWith(CsvRow(r), ",true\r\n")) << CsvRow(r);
  // The same number of fields as the header: 19.
  r.clear_main_text();
  r.clear_main_markdown();
  EXPECT_EQ(absl::c_count(CsvRow(r), ','), absl::c_count(CsvHeader(), ','));
}

TEST_F(CorpusReadTest, ExportsCsvJsonlAndBulk) {
  CorpusStats stats;
  ExportOptions csv;
  csv.format = ExportFormat::kCsv;
  const std::string out = dir_.path() + "/out.csv";
  ASSERT_TRUE(ExportCorpus({w1_, w2_}, {}, {}, csv, out, &stats).ok());
  std::ifstream in(out, std::ios::binary);
  std::string all((std::istreambuf_iterator<char>(in)),
                  std::istreambuf_iterator<char>());
  EXPECT_EQ(all.substr(0, CsvHeader().size()), CsvHeader());
  // The zh page: two media kinds; a field with quotes and a newline quoted.
  EXPECT_THAT(all, HasSubstr("http://a.test/2,Title of http://a.test/2,"
                             "zh-CN,,,false,0.2,,keywords,,,,2,video;audio,,"
                             "2026-11-27T09:00:00.000Z,\"text, with "
                             "\"\"quotes\"\"\nand a second line\",,\r\n"));

  ExportOptions bulk;
  bulk.format = ExportFormat::kBulk;
  bulk.bulk_index = "crawl";
  const std::string bulk_out = dir_.path() + "/out.bulk";
  ASSERT_TRUE(ExportCorpus({w1_, w2_}, {}, {}, bulk, bulk_out, nullptr).ok());
  std::ifstream bin(bulk_out, std::ios::binary);
  std::vector<std::string> lines;
  for (std::string l; std::getline(bin, l);) lines.push_back(l);
  ASSERT_EQ(lines.size(), 8u);
  // SHA-1 of "http://a.test/2".
  EXPECT_THAT(lines[0],
              testing::MatchesRegex(
                  R"(\{"index":\{"_index":"crawl","_id":"[0-9a-f]{40}"\}\})"));
  absl::StatusOr<proto::CorpusRecord> doc = formats::ParseCorpusJson(lines[1]);
  ASSERT_TRUE(doc.ok());
  EXPECT_EQ(doc->url(), "http://a.test/2");
  EXPECT_NE(lines[0], lines[2]);
  EXPECT_FALSE(ParseExportFormat("xml").ok());
}

}  // namespace
}  // namespace fcrawl::corpus
