#include "graphio/shard.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/test_temp_dir.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace fcrawl::graphio {
namespace {

using ::testing::HasSubstr;

proto::GraphPage Page(const std::string& url, int links) {
  proto::GraphPage p;
  p.set_url(url);
  p.set_relevance(0.25);
  p.set_text_length(120);
  p.set_url_rule_distance(3);
  proto::GraphBlock* b = p.add_blocks();
  b->set_type(proto::CONTENT);
  b->set_text_length(120);
  for (int i = 0; i < links; ++i) {
    proto::GraphLink* l = p.add_links();
    l->set_target_url(absl::StrCat(url, "/", i));
    l->set_block(i % 2 == 0 ? 0 : -1);
  }
  return p;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void WriteFile(const std::string& path, const std::string& data) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << data;
}

// Reads every page of `path`; the error, if any.
absl::Status ReadAll(const std::string& path,
                     std::vector<proto::GraphPage>* pages = nullptr,
                     ShardReaderOptions options = {}) {
  ShardReader r;
  if (absl::Status s = r.Open(path, options); !s.ok()) return s;
  proto::GraphPage p;
  for (;;) {
    absl::StatusOr<bool> more = r.Next(&p);
    if (!more.ok()) return more.status();
    if (!*more) return absl::OkStatus();
    if (pages != nullptr) pages->push_back(p);
  }
}

std::string WriteShard(const std::string& dir, int pages, int links) {
  const std::string path = dir + "/graph-w-0.fcg";
  ShardWriter w;
  EXPECT_TRUE(w.Open(path, "w").ok());
  for (int i = 0; i < pages; ++i) {
    EXPECT_TRUE(w.Add(Page(absl::StrCat("http://a.example/", i), links)).ok());
  }
  EXPECT_TRUE(w.Close().ok());
  return path;
}

TEST(ShardTest, RoundTrip) {
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.path();
  const std::string path = dir + "/graph-w-0.fcg";
  ShardWriter w;
  ASSERT_TRUE(w.Open(path, "worker-7").ok());
  // Not visible under its final name before Close().
  EXPECT_FALSE(std::filesystem::exists(path));
  std::vector<proto::GraphPage> written;
  for (int i = 0; i < 3; ++i) {
    written.push_back(Page(absl::StrCat("http://a.example/", i), i * 2));
    ASSERT_TRUE(w.Add(written.back()).ok());
  }
  EXPECT_EQ(w.pages(), 3);
  EXPECT_EQ(w.links(), 0 + 2 + 4);
  ASSERT_TRUE(w.Close().ok());
  EXPECT_TRUE(std::filesystem::exists(path));
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));

  ShardReader r;
  ASSERT_TRUE(r.Open(path).ok());
  EXPECT_EQ(r.header().worker(), "worker-7");
  EXPECT_EQ(r.header().version(), 1);
  EXPECT_GT(r.header().created_at_ms(), 0);
  proto::GraphPage p;
  for (const proto::GraphPage& want : written) {
    absl::StatusOr<bool> more = r.Next(&p);
    ASSERT_TRUE(more.ok()) << more.status();
    ASSERT_TRUE(*more);
    EXPECT_EQ(p.SerializeAsString(), want.SerializeAsString());
  }
  absl::StatusOr<bool> more = r.Next(&p);
  ASSERT_TRUE(more.ok());
  EXPECT_FALSE(*more);
  EXPECT_EQ(r.footer().pages(), 3);
  EXPECT_EQ(r.footer().links(), 6);
  // Stays at the end.
  more = r.Next(&p);
  ASSERT_TRUE(more.ok());
  EXPECT_FALSE(*more);
}

TEST(ShardTest, EmptyShardIsValid) {
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.path();
  const std::string path = WriteShard(dir, 0, 0);
  std::vector<proto::GraphPage> pages;
  EXPECT_TRUE(ReadAll(path, &pages).ok());
  EXPECT_TRUE(pages.empty());
}

TEST(ShardTest, WriterWithoutCloseLeavesNothing) {
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.path();
  const std::string path = dir + "/graph-w-0.fcg";
  {
    ShardWriter w;
    ASSERT_TRUE(w.Open(path, "w").ok());
    ASSERT_TRUE(w.Add(Page("http://a.example/", 1)).ok());
  }
  EXPECT_FALSE(std::filesystem::exists(path));
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
}

TEST(ShardTest, WriterRefusesUnopenedUse) {
  ShardWriter w;
  EXPECT_FALSE(w.Add(Page("http://a.example/", 1)).ok());
  EXPECT_FALSE(w.Close().ok());
}

// Every prefix of a valid file is an error naming the file, never a crash
// or a silently shorter graph.
TEST(ShardTest, EveryTruncationIsAnError) {
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.path();
  const std::string path = WriteShard(dir, 4, 3);
  const std::string data = ReadFile(path);
  const std::string cut = dir + "/cut.fcg";
  for (size_t n = 0; n < data.size(); ++n) {
    WriteFile(cut, data.substr(0, n));
    absl::Status s = ReadAll(cut);
    ASSERT_FALSE(s.ok()) << "prefix of " << n << " bytes was accepted";
    EXPECT_THAT(s.message(), HasSubstr(cut));
  }
  WriteFile(cut, data);
  EXPECT_TRUE(ReadAll(cut).ok());
}

TEST(ShardTest, TruncationBeforeFooterNamesRecord) {
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.path();
  const std::string path = WriteShard(dir, 2, 1);
  const std::string data = ReadFile(path);
  // The footer {pages: 2, links: 2} is 4 bytes behind a 1-byte prefix.
  WriteFile(path, data.substr(0, data.size() - 5));
  absl::Status s = ReadAll(path);
  EXPECT_THAT(s.message(), HasSubstr("record 2"));
  EXPECT_THAT(s.message(), HasSubstr("truncated"));
}

TEST(ShardTest, BadMagic) {
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.path();
  const std::string path = dir + "/x.fcg";
  WriteFile(path, "PK\x03\x04 this is a zip file");
  absl::Status s = ReadAll(path);
  EXPECT_THAT(s.message(), HasSubstr("bad magic"));
  EXPECT_THAT(s.message(), HasSubstr(path));
}

TEST(ShardTest, MissingFile) {
  absl::Status s = ReadAll("/nonexistent/graph.fcg");
  EXPECT_FALSE(s.ok());
  EXPECT_THAT(s.message(), HasSubstr("/nonexistent/graph.fcg"));
}

TEST(ShardTest, UnsupportedVersion) {
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.path();
  proto::GraphShardHeader h;
  h.set_version(2);
  const std::string hb = h.SerializeAsString();
  const std::string path = dir + "/v2.fcg";
  WriteFile(path, std::string(kShardMagic) + static_cast<char>(hb.size()) + hb);
  EXPECT_THAT(ReadAll(path).message(),
              HasSubstr("unsupported shard version 2"));
}

TEST(ShardTest, GarbageRecordNamesRecordNumber) {
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.path();
  const std::string path = WriteShard(dir, 3, 2);
  std::string data = ReadFile(path);
  // Replace the second page record's body with bytes that are no protobuf:
  // find its URL and overwrite the record around it.
  const size_t url = data.find("http://a.example/1");
  ASSERT_NE(url, std::string::npos);
  for (size_t i = url - 2; i < url + 10; ++i) data[i] = '\xFF';
  WriteFile(path, data);
  absl::Status s = ReadAll(path);
  EXPECT_THAT(s.message(), HasSubstr("record 2"));
  EXPECT_THAT(s.message(), HasSubstr("not a valid GraphPage"));
}

TEST(ShardTest, HugeLengthPrefixIsRefused) {
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.path();
  const std::string path = WriteShard(dir, 1, 1);
  std::string data = ReadFile(path);
  // Header: magic, 1-byte prefix, header bytes. Then the first page's prefix.
  const size_t header_len =
      static_cast<unsigned char>(data[kShardMagic.size()]);
  const size_t prefix = kShardMagic.size() + 1 + header_len;
  // A varint of 2^40.
  const std::string big = "\x80\x80\x80\x80\x80\x20";
  data.replace(prefix, 1, big);
  WriteFile(path, data);
  absl::Status s = ReadAll(path);
  EXPECT_THAT(s.message(), HasSubstr("exceeds the 67108864-byte limit"));
  EXPECT_THAT(s.message(), HasSubstr("record 1"));
  // And an endless varint.
  data.replace(prefix, big.size(), std::string(12, '\x80'));
  WriteFile(path, data);
  EXPECT_THAT(ReadAll(path).message(), HasSubstr("varint"));
}

TEST(ShardTest, RecordLimitIsConfigurable) {
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.path();
  const std::string path = WriteShard(dir, 2, 50);
  ShardReaderOptions small;
  small.max_record_bytes = 100;
  absl::Status s = ReadAll(path, nullptr, small);
  EXPECT_THAT(s.message(), HasSubstr("100-byte limit"));
}

TEST(ShardTest, WriterRefusesOversizedPage) {
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.path();
  ShardWriter w;
  ASSERT_TRUE(w.Open(dir + "/big.fcg", "w").ok());
  proto::GraphPage p;
  p.set_url(std::string(kDefaultMaxRecordBytes + 1, 'a'));
  absl::Status s = w.Add(p);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("record limit"));
  // The writer still works.
  EXPECT_TRUE(w.Add(Page("http://a.example/", 1)).ok());
  EXPECT_TRUE(w.Close().ok());
  std::vector<proto::GraphPage> pages;
  EXPECT_TRUE(ReadAll(dir + "/big.fcg", &pages).ok());
  EXPECT_EQ(pages.size(), 1u);
}

TEST(ShardTest, FooterCountMismatch) {
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.path();
  const std::string a = WriteShard(dir, 2, 1);
  // A footer claiming 3 pages.
  std::string data = ReadFile(a);
  proto::GraphShardFooter f;
  f.set_pages(2);
  f.set_links(2);
  const std::string good = f.SerializeAsString();
  f.set_pages(3);
  const std::string bad = f.SerializeAsString();
  ASSERT_EQ(good.size(), bad.size());
  ASSERT_EQ(data.substr(data.size() - good.size()), good);
  data.replace(data.size() - good.size(), bad.size(), bad);
  WriteFile(a, data);
  EXPECT_THAT(ReadAll(a).message(), HasSubstr("footer counts 3 pages"));
}

TEST(ShardTest, ListShardsNaturalOrder) {
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.path();
  for (const char* name : {"graph-w-10.fcg", "graph-w-2.fcg", "graph-v-1.fcg",
                           "notes.txt", "graph-w-3.fcg.tmp"}) {
    WriteFile(dir + "/" + name, "");
  }
  absl::StatusOr<std::vector<std::string>> list = ListShards({dir});
  ASSERT_TRUE(list.ok());
  EXPECT_THAT(*list, ::testing::ElementsAre(dir + "/graph-v-1.fcg",
                                            dir + "/graph-w-2.fcg",
                                            dir + "/graph-w-10.fcg"));
  // A file named twice counts once; a missing one is an error.
  list = ListShards({dir + "/graph-w-2.fcg", dir});
  ASSERT_TRUE(list.ok());
  EXPECT_EQ(list->size(), 3u);
  EXPECT_EQ(ListShards({dir + "/missing.fcg"}).status().code(),
            absl::StatusCode::kNotFound);
}

TEST(ShardTest, NaturalLess) {
  EXPECT_TRUE(NaturalLess("a2", "a10"));
  EXPECT_FALSE(NaturalLess("a10", "a2"));
  EXPECT_TRUE(NaturalLess("a-1-9", "a-2-0"));
  EXPECT_TRUE(NaturalLess("a", "b"));
  EXPECT_TRUE(NaturalLess("a1", "a1b"));
  EXPECT_FALSE(NaturalLess("a1", "a1"));
  // Leading zeros: equal numbers, then a fixed order.
  EXPECT_NE(NaturalLess("x01", "x1"), NaturalLess("x1", "x01"));
}

}  // namespace
}  // namespace fcrawl::graphio
