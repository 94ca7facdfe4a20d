// The graph cache: round trips of every algorithm, staleness, damaged and
// hostile files, the inputs key.
#include "ranker/graph_cache.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/hash.h"
#include "core/test_temp_dir.h"
#include "gmock/gmock.h"
#include "graphio/shard.h"
#include "gtest/gtest.h"
#include "ranker/rank.h"

namespace fcrawl::ranker {

using ::fcrawl::graphio::ShardWriter;
using ::fcrawl::hash::StableHasher;

namespace {

using ::testing::HasSubstr;

proto::GraphPage RandomPage(int i, int n, std::mt19937* rng) {
  proto::GraphPage p;
  p.set_url(absl::StrCat("http://h", i % 7, ".example/", i));
  p.set_relevance(((*rng)() % 100) / 100.0);
  p.set_url_rule_distance(static_cast<int>((*rng)() % 4));
  const int blocks = static_cast<int>((*rng)() % 4);
  for (int b = 0; b < blocks; ++b) {
    proto::GraphBlock* blk = p.add_blocks();
    blk->set_type(static_cast<proto::BlockType>((*rng)() % 5));
    blk->set_text_length(static_cast<int>((*rng)() % 500));
    blk->set_position(static_cast<int>((*rng)() % 3));
  }
  const int k = static_cast<int>((*rng)() % 9);
  for (int j = 0; j < k; ++j) {
    proto::GraphLink* l = p.add_links();
    // Some targets have no record (unknown pages), some links are outside
    // any block or in a block that does not exist.
    const int t = static_cast<int>((*rng)() % (n + n / 5));
    l->set_target_url(absl::StrCat("http://h", t % 7, ".example/", t));
    l->set_block(static_cast<int>((*rng)() % 5) - 1);
  }
  return p;
}

// `n` random pages in `shards` shard files (plus a duplicate record).
std::vector<std::string> WriteShards(const std::string& dir, int n,
                                     int shards = 2, unsigned seed = 5) {
  std::mt19937 rng(seed);
  std::filesystem::create_directories(dir);
  std::vector<std::string> paths;
  for (int s = 0; s < shards; ++s) {
    paths.push_back(absl::StrCat(dir, "/graph-w-", s, ".fcg"));
    ShardWriter w;
    EXPECT_TRUE(w.Open(paths.back(), "w").ok());
    for (int i = s * n / shards; i < (s + 1) * n / shards; ++i) {
      EXPECT_TRUE(w.Add(RandomPage(i, n, &rng)).ok());
    }
    if (s == shards - 1) {
      EXPECT_TRUE(w.Add(RandomPage(0, n, &rng)).ok());  // a duplicate
    }
    EXPECT_TRUE(w.Close().ok());
  }
  return paths;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void WriteFile(const std::string& path, const std::string& data) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << data;
}

std::vector<std::string> Urls(const UrlTable& t) {
  std::vector<std::string> u;
  for (uint32_t id = 0; id < t.size(); ++id) u.emplace_back(t.Get(id));
  return u;
}

void ExpectSameGraph(const Graph& a, const Graph& b) {
  EXPECT_EQ(a.algorithm, b.algorithm);
  EXPECT_EQ(a.params, b.params);
  EXPECT_EQ(a.num_pages, b.num_pages);
  EXPECT_EQ(a.num_records, b.num_records);
  EXPECT_EQ(a.fingerprint, b.fingerprint);
  EXPECT_EQ(std::memcmp(&a.stats, &b.stats, sizeof(GraphStats)), 0);
  EXPECT_EQ(Urls(a.urls), Urls(b.urls));
  EXPECT_EQ(a.url_of, b.url_of);
  EXPECT_EQ(a.relevance, b.relevance);
  EXPECT_EQ(a.out_degree, b.out_degree);
  EXPECT_EQ(a.in_offsets, b.in_offsets);
  EXPECT_EQ(a.in_src, b.in_src);
  EXPECT_EQ(a.in_weight, b.in_weight);
  EXPECT_EQ(a.zero_row, b.zero_row);
  EXPECT_EQ(a.out_offsets, b.out_offsets);
  EXPECT_EQ(a.out_dst, b.out_dst);
  EXPECT_EQ(a.inv_distance, b.inv_distance);
  EXPECT_EQ(a.sibling_q, b.sibling_q);
  EXPECT_EQ(a.url_rule_scale, b.url_rule_scale);
  EXPECT_EQ(a.block_offsets, b.block_offsets);
  EXPECT_EQ(a.block_x, b.block_x);
  EXPECT_EQ(a.block_type, b.block_type);
  EXPECT_EQ(a.blpr_row_sum, b.blpr_row_sum);
  EXPECT_EQ(a.blpr_in_z, b.blpr_in_z);
  for (uint32_t p = 0; p < a.num_pages && p < b.num_pages; ++p) {
    ASSERT_EQ(a.url(p), b.url(p));
  }
}

RankState Rounds(const Graph& g, int rounds) {
  RankOptions o;
  o.threads = 2;
  Ranker r(g, o);
  RankState s = r.Initial();
  for (int i = 0; i < rounds; ++i) r.Round(&s);
  return s;
}

// ---- the file layout, for the hostile-file tests (graph_cache.h).
constexpr size_t kFixed = 8 + 4 + 4 + 8 + 8 + 4 + 4 + 16 * 8 + 4 + 19 * 8 + 4;
constexpr size_t kCountsAt = 8 + 4 + 4 + 8 + 8 + 4 + 4 + 16 * 8 + 4;
constexpr size_t kNumPagesAt = 8 + 4 + 4 + 8 + 8;
enum {
  kUrlLengths = 0,
  kUrlBytes = 1,
  kInOffsets = 5,
  kInSrc = 6,
  kBlockType = 16
};

uint32_t ParamsLen(const std::string& f) {
  uint32_t n;
  std::memcpy(&n, f.data() + kFixed - 4, 4);
  return n;
}
size_t HeaderSize(const std::string& f) { return kFixed + ParamsLen(f) + 8; }
uint64_t Count(const std::string& f, int section) {
  uint64_t c;
  std::memcpy(&c, f.data() + kCountsAt + 8 * section, 8);
  return c;
}
void SetCount(std::string* f, int section, uint64_t c) {
  std::memcpy(f->data() + kCountsAt + 8 * section, &c, 8);
}
// Byte offset of a section in the file.
size_t SectionAt(const std::string& f, int section) {
  static constexpr size_t kSize[] = {4, 1, 4, 4, 4, 8, 4, 4, 1, 8,
                                     4, 4, 8, 4, 8, 4, 1, 4, 4};
  size_t at = HeaderSize(f);
  for (int i = 0; i < section; ++i) at += Count(f, i) * kSize[i];
  return at;
}
// Recomputes the checksums after an edit, as a hostile writer would.
void Resign(std::string* f) {
  const size_t fixed = kFixed + ParamsLen(*f);
  if (fixed + 8 > f->size()) return;
  StableHasher hh;
  hh.Add(f->data(), fixed);
  const uint64_t head = hh.value();
  std::memcpy(f->data() + fixed, &head, 8);
  const size_t body = fixed + 8;
  if (f->size() < body + 8) return;
  StableHasher h;
  for (size_t at = body; at < f->size() - 8; at += size_t{1} << 20) {
    h.Add(f->data() + at, std::min(size_t{1} << 20, f->size() - 8 - at));
  }
  const uint64_t sum = h.value();
  std::memcpy(f->data() + f->size() - 8, &sum, 8);
}

class GraphCacheTest : public ::testing::TestWithParam<Algorithm> {};

TEST_P(GraphCacheTest, RoundTripKeepsEveryArrayAndTheScores) {
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.path();
  const std::vector<std::string> shards = WriteShards(dir + "/s", 600, 3);
  for (UnknownTargets unknown :
       {UnknownTargets::kKeep, UnknownTargets::kDrop}) {
    GraphOptions o;
    o.algorithm = GetParam();
    o.unknown = unknown;
    o.max_blocks_per_page = 2;
    absl::StatusOr<std::unique_ptr<Graph>> built = BuildGraph(shards, o);
    ASSERT_TRUE(built.ok()) << built.status();
    const Graph& g = **built;
    ASSERT_GT(g.num_edges(), 1000u);
    if (unknown == UnknownTargets::kKeep) {
      EXPECT_GT(g.num_pages, g.num_records);
    } else {
      EXPECT_GT(g.urls.size(), g.num_pages);  // dropped targets' URLs
    }
    const std::string path = dir + "/c/graph.fcgc";
    ASSERT_TRUE(SaveGraphCache(path, g, 42).ok());
    EXPECT_FALSE(
        std::filesystem::exists(absl::StrCat(path, ".tmp.", ::getpid())));
    absl::StatusOr<std::unique_ptr<Graph>> loaded = LoadGraphCache(path, 42);
    ASSERT_TRUE(loaded.ok()) << loaded.status();
    ExpectSameGraph(g, **loaded);
    EXPECT_EQ((*loaded)->urls.Find(g.url(0)), UrlTable::kNone);  // no index
    const RankState a = Rounds(g, 6);
    const RankState b = Rounds(**loaded, 6);
    ASSERT_EQ(a.chains.size(), b.chains.size());
    for (size_t c = 0; c < a.chains.size(); ++c) {
      EXPECT_EQ(a.chains[c].x, b.chains[c].x) << a.chains[c].name;
      EXPECT_EQ(a.chains[c].last_l1, b.chains[c].last_l1);
    }
  }
}

TEST_P(GraphCacheTest, EmptyGraphRoundTrips) {
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.path();
  GraphOptions o;
  o.algorithm = GetParam();
  absl::StatusOr<std::unique_ptr<Graph>> g = BuildGraphFromPages({}, o);
  ASSERT_TRUE(g.ok());
  ASSERT_TRUE(SaveGraphCache(dir + "/g.fcgc", **g, 1).ok());
  absl::StatusOr<std::unique_ptr<Graph>> loaded =
      LoadGraphCache(dir + "/g.fcgc", 1);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  ExpectSameGraph(**g, **loaded);
}

INSTANTIATE_TEST_SUITE_P(
    All, GraphCacheTest,
    ::testing::Values(Algorithm::kPageRank, Algorithm::kQuarkRank,
                      Algorithm::kBlpr, Algorithm::kTopicPageRank,
                      Algorithm::kUrlRule, Algorithm::kTopicQuarkRank),
    [](const auto& info) {
      std::string s(AlgorithmName(info.param));
      s.erase(std::remove(s.begin(), s.end(), '-'), s.end());
      return s;
    });

// A saved blpr graph (every section but url-rule's in use), for the damage
// tests.
struct Saved {
  std::unique_ptr<file::TestTempDir> tmp_dir;  // removed with the Saved
  std::string dir, path, data;
};
Saved SaveBlpr() {
  Saved s;
  s.tmp_dir = std::make_unique<file::TestTempDir>();
  s.dir = s.tmp_dir->path();
  GraphOptions o;
  o.algorithm = Algorithm::kBlpr;
  absl::StatusOr<std::unique_ptr<Graph>> g =
      BuildGraph(WriteShards(s.dir + "/s", 300), o);
  EXPECT_TRUE(g.ok());
  s.path = s.dir + "/graph.fcgc";
  EXPECT_TRUE(SaveGraphCache(s.path, **g, 7).ok());
  s.data = ReadFile(s.path);
  return s;
}

absl::Status LoadData(const Saved& s, const std::string& data) {
  WriteFile(s.path, data);
  return LoadGraphCache(s.path, 7).status();
}

TEST(GraphCacheTest, AbsentIsNotFoundAndOtherKeyIsStale) {
  const Saved s = SaveBlpr();
  EXPECT_EQ(LoadGraphCache(s.dir + "/nothing", 7).status().code(),
            absl::StatusCode::kNotFound);
  const absl::Status st = LoadGraphCache(s.path, 8).status();
  EXPECT_EQ(st.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(st.message(), HasSubstr("stale"));
  EXPECT_TRUE(LoadGraphCache(s.path, 7).ok());
}

TEST(GraphCacheTest, TruncatedAnywhereIsDataLoss) {
  const Saved s = SaveBlpr();
  ASSERT_GT(s.data.size(), 20000u);
  std::vector<size_t> cuts = {0,
                              1,
                              7,
                              8,
                              11,
                              12,
                              100,
                              kFixed,
                              HeaderSize(s.data) - 1,
                              HeaderSize(s.data),
                              s.data.size() - 8,
                              s.data.size() - 1};
  for (size_t at = 13; at < s.data.size(); at += s.data.size() / 61) {
    cuts.push_back(at);
  }
  for (size_t cut : cuts) {
    const absl::Status st = LoadData(s, s.data.substr(0, cut));
    EXPECT_EQ(st.code(), absl::StatusCode::kDataLoss) << cut << ": " << st;
    EXPECT_THAT(st.message(), HasSubstr(s.path)) << cut;
  }
  // Bytes appended.
  EXPECT_EQ(LoadData(s, s.data + "x").code(), absl::StatusCode::kDataLoss);
}

TEST(GraphCacheTest, FlippedBytesAreDataLoss) {
  const Saved s = SaveBlpr();
  std::vector<size_t> at = {0,
                            8,
                            12,
                            16,
                            40,
                            kCountsAt,
                            kFixed,
                            HeaderSize(s.data) - 1,
                            s.data.size() - 1};
  for (size_t i = 3; i < s.data.size(); i += s.data.size() / 97) {
    at.push_back(i);
  }
  for (size_t i : at) {
    std::string d = s.data;
    d[i] ^= 0x10;
    const absl::Status st = LoadData(s, d);
    EXPECT_EQ(st.code(), absl::StatusCode::kDataLoss) << i << ": " << st;
  }
  std::string d = s.data;
  d[SectionAt(d, kInSrc) + 5] ^= 1;
  EXPECT_THAT(LoadData(s, d).message(), HasSubstr("checksum mismatch"));
  d = s.data;
  d[HeaderSize(d) - 20] ^= 1;
  EXPECT_THAT(LoadData(s, d).message(), HasSubstr("header checksum"));
}

TEST(GraphCacheTest, WrongMagicAndVersion) {
  const Saved s = SaveBlpr();
  std::string d = s.data;
  d[0] = 'X';
  EXPECT_THAT(LoadData(s, d).message(), HasSubstr("bad magic"));
  EXPECT_THAT(LoadData(s, "FCG").message(), HasSubstr("bad magic"));
  d = s.data;
  d[8] = 9;  // version 9
  const absl::Status st = LoadData(s, d);
  EXPECT_EQ(st.code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(st.message(), HasSubstr("format version 9, expected 2"));
}

// Well-signed files that lie: nothing may be allocated by a count the file
// cannot hold, and no id or offset may point outside its array.
TEST(GraphCacheTest, HostileCountsAndIdsAreDataLoss) {
  const Saved s = SaveBlpr();
  struct Case {
    const char* what;
    std::function<void(std::string*)> edit;
    const char* error;
  };
  const uint32_t n = [&] {
    uint32_t v;
    std::memcpy(&v, s.data.data() + kNumPagesAt, 4);
    return v;
  }();
  const std::vector<Case> cases = {
      {"huge in_src", [](std::string* d) { SetCount(d, kInSrc, 1ull << 60); },
       "do not fit"},
      {"huge URL count",
       [](std::string* d) { SetCount(d, kUrlLengths, ~0ull / 2); },
       "do not fit"},
      {"in_src one more",
       [](std::string* d) { SetCount(d, kInSrc, Count(*d, kInSrc) + 1); },
       "truncated"},
      {"huge params",
       [](std::string* d) {
         const uint32_t big = 0xFFFFFFF0u;
         std::memcpy(d->data() + kFixed - 4, &big, 4);
       },
       "params"},
      {"more pages",
       [](std::string* d) {
         uint32_t v = 0x7FFFFFFF;
         std::memcpy(d->data() + kNumPagesAt, &v, 4);
       },
       "expected"},
      {"in_src id out of range",
       [n](std::string* d) {
         std::memcpy(d->data() + SectionAt(*d, kInSrc) + 4 * 3, &n, 4);
       },
       "in_src"},
      {"in_offsets not monotone",
       [](std::string* d) {
         const uint64_t big = 1ull << 40;
         std::memcpy(d->data() + SectionAt(*d, kInOffsets) + 8 * 2, &big, 8);
       },
       "in_offsets"},
      {"URL lengths not summing up",
       [](std::string* d) { (*d)[SectionAt(*d, kUrlLengths)] += 1; },
       "URL lengths"},
      {"block type",
       [](std::string* d) { (*d)[SectionAt(*d, kBlockType)] = 9; },
       "block_type"},
  };
  for (const Case& c : cases) {
    std::string d = s.data;
    c.edit(&d);
    Resign(&d);
    const absl::Status st = LoadData(s, d);
    EXPECT_EQ(st.code(), absl::StatusCode::kDataLoss) << c.what << ": " << st;
    EXPECT_THAT(st.message(), HasSubstr(c.error)) << c.what;
  }
  // The unedited file, re-signed, still loads (the edits are what fail).
  std::string d = s.data;
  Resign(&d);
  EXPECT_EQ(d, s.data);
  EXPECT_TRUE(LoadData(s, d).ok());
}

TEST(GraphCacheTest, InputsKeyFollowsShardsAndOptions) {
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.path();
  std::vector<std::string> shards = WriteShards(dir + "/s", 100, 2);
  GraphOptions o;
  o.algorithm = Algorithm::kQuarkRank;
  auto key = [&](const std::vector<std::string>& p, const GraphOptions& opt) {
    absl::StatusOr<uint64_t> k = InputsKey(p, opt);
    EXPECT_TRUE(k.ok()) << k.status();
    return k.ok() ? *k : 0;
  };
  const uint64_t k0 = key(shards, o);
  EXPECT_EQ(key(shards, o), k0);
  GraphOptions other = o;
  other.threads = 7;  // does not change the graph
  EXPECT_EQ(key(shards, other), k0);

  // Options that shape the graph.
  other = o;
  other.algorithm = Algorithm::kBlpr;
  EXPECT_NE(key(shards, other), k0);
  other = o;
  other.quark_weights[1] = 1.5000001;  // GraphParams prints 1.5
  EXPECT_EQ(GraphParams(other), GraphParams(o));
  EXPECT_NE(key(shards, other), k0);
  other = o;
  other.unknown = UnknownTargets::kDrop;
  EXPECT_NE(key(shards, other), k0);
  other = o;
  other.max_links_per_page = 5;
  EXPECT_NE(key(shards, other), k0);
  other = o;
  other.max_blocks_per_page = 5;
  EXPECT_NE(key(shards, other), k0);
  other = o;
  other.max_record_bytes = 1000;
  EXPECT_NE(key(shards, other), k0);
  other.algorithm = Algorithm::kTopicPageRank;
  const uint64_t topic = key(shards, other);
  other.topic_lambda = 0.5;
  EXPECT_NE(key(shards, other), topic);

  // The shards: order, one removed, one added.
  EXPECT_NE(key({shards[1], shards[0]}, o), k0);
  EXPECT_NE(key({shards[0]}, o), k0);
  const std::string extra = dir + "/s/graph-w-9.fcg";
  std::filesystem::copy_file(shards[0], extra);
  EXPECT_NE(key({shards[0], shards[1], extra}, o), k0);
  EXPECT_FALSE(InputsKey({dir + "/s/missing.fcg"}, o).ok());

  // Touched: the same bytes, another mtime.
  const auto t = std::filesystem::last_write_time(shards[1]);
  std::filesystem::last_write_time(shards[1], t + std::chrono::seconds(3));
  const uint64_t k1 = key(shards, o);
  EXPECT_NE(k1, k0);
  // Touched back to the old mtime: the ctime still moved on... unless within
  // one clock tick, so only require that the key is stable from here.
  EXPECT_EQ(key(shards, o), k1);
  // Rewritten with the same pages (a new file renamed into place).
  WriteShards(dir + "/s", 100, 2);
  EXPECT_NE(key(shards, o), k1);
}

TEST(GraphCacheTest, LoadOrBuildUsesRebuildsAndReports) {
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.path();
  const std::vector<std::string> shards = WriteShards(dir + "/s", 300);
  GraphOptions o;
  o.algorithm = Algorithm::kUrlRule;
  const std::string path = GraphCachePath(dir + "/ck");
  EXPECT_EQ(path, dir + "/ck/graph.fcgc");
  bool from_cache = true;
  std::string problem = "x";
  absl::StatusOr<std::unique_ptr<Graph>> a =
      LoadOrBuildGraph(shards, o, path, &from_cache, &problem);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_FALSE(from_cache);
  EXPECT_EQ(problem, "");
  ASSERT_TRUE(std::filesystem::exists(path));  // folder created
  absl::StatusOr<std::unique_ptr<Graph>> b =
      LoadOrBuildGraph(shards, o, path, &from_cache, &problem);
  ASSERT_TRUE(b.ok());
  EXPECT_TRUE(from_cache);
  EXPECT_EQ(problem, "");
  ExpectSameGraph(**a, **b);

  // Other options: stale, rebuilt silently, rewritten.
  o.max_links_per_page = 3;
  b = LoadOrBuildGraph(shards, o, path, &from_cache, &problem);
  ASSERT_TRUE(b.ok());
  EXPECT_FALSE(from_cache);
  EXPECT_EQ(problem, "");
  b = LoadOrBuildGraph(shards, o, path, &from_cache, nullptr);
  EXPECT_TRUE(from_cache);

  // Damaged: rebuilt, said, and repaired.
  std::string data = ReadFile(path);
  data[data.size() / 2] ^= 4;
  WriteFile(path, data);
  b = LoadOrBuildGraph(shards, o, path, &from_cache, &problem);
  ASSERT_TRUE(b.ok());
  EXPECT_FALSE(from_cache);
  EXPECT_THAT(problem, HasSubstr("checksum mismatch; rebuilt"));
  b = LoadOrBuildGraph(shards, o, path, &from_cache, &problem);
  EXPECT_TRUE(from_cache);

  // Cannot be written (its folder is a file): built all the same.
  const std::string blocked = dir + "/file";
  WriteFile(blocked, "x");
  b = LoadOrBuildGraph(shards, o, GraphCachePath(blocked), &from_cache,
                       &problem);
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_FALSE(from_cache);
  EXPECT_THAT(problem, HasSubstr("cannot write the graph cache"));

  // A damaged shard fails as without a cache.
  WriteFile(shards[0], "garbage");
  b = LoadOrBuildGraph(shards, o, path, &from_cache, &problem);
  EXPECT_FALSE(b.ok());
}

// Sections of several hash blocks (1 MiB), URLs straddling block bounds:
// the buffered and the straight-through paths of both sides.
TEST(GraphCacheTest, LargeGraphAcrossManyBlocks) {
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.path();
  std::mt19937 rng(9);
  std::vector<proto::GraphPage> pages(10000);
  for (int i = 0; i < 10000; ++i) {
    pages[i].set_url(absl::StrCat("http://host", i % 97, ".example/",
                                  std::string(i % 61, 'p'), "/", i));
    pages[i].set_relevance((rng() % 10) / 10.0);
    for (int j = 0; j < 30; ++j) {
      pages[i].add_links()->set_target_url(
          absl::StrCat("http://host", j % 97, ".example/",
                       std::string(rng() % 61, 'p'), "/", rng() % 11000));
    }
  }
  GraphOptions o;
  o.algorithm = Algorithm::kTopicPageRank;
  absl::StatusOr<std::unique_ptr<Graph>> g = BuildGraphFromPages(pages, o);
  ASSERT_TRUE(g.ok());
  const std::string path = dir + "/g.fcgc";
  ASSERT_TRUE(SaveGraphCache(path, **g, 3).ok());
  const std::string data = ReadFile(path);
  ASSERT_GT(data.size(), size_t{6} << 20);
  std::string resigned = data;
  Resign(&resigned);
  EXPECT_EQ(resigned, data);  // the body is hashed in 1 MiB blocks
  absl::StatusOr<std::unique_ptr<Graph>> loaded = LoadGraphCache(path, 3);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  ExpectSameGraph(**g, **loaded);
  for (size_t at : {SectionAt(data, kUrlBytes) + (size_t{1} << 20) + 3,
                    SectionAt(data, kInSrc) + (size_t{1} << 20) + 1}) {
    std::string d = data;
    d[at] ^= 2;
    WriteFile(path, d);
    EXPECT_THAT(std::string(LoadGraphCache(path, 3).status().message()),
                HasSubstr("checksum mismatch"))
        << at;
    WriteFile(path, data.substr(0, at));
    EXPECT_EQ(LoadGraphCache(path, 3).status().code(),
              absl::StatusCode::kDataLoss);
  }
  std::filesystem::remove_all(dir);  // 25 MB
}

TEST(GraphCacheTest, RefusesAGraphWithoutEdges) {
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.path();
  GraphOptions o;
  absl::StatusOr<std::unique_ptr<Graph>> g =
      BuildGraph(WriteShards(dir + "/s", 50), o);
  ASSERT_TRUE(g.ok());
  (*g)->DropEdges();
  EXPECT_FALSE(SaveGraphCache(dir + "/g.fcgc", **g, 1).ok());
  EXPECT_FALSE(std::filesystem::exists(dir + "/g.fcgc"));
}

}  // namespace
}  // namespace fcrawl::ranker
