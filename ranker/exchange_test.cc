// The many-process code (rank.h "Many processes", job.h JobOptions::
// exchange) with processes simulated by threads (local_exchange.h): the
// slices, rounds bit-identical to one process for 1–4 processes (also when
// some own nothing), and the job's agreed decisions (outputs by process 0
// only, shared write and load errors, a stop on one process stops all).

#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/test_temp_dir.h"
#include "gmock/gmock.h"
#include "graphio/shard.h"
#include "gtest/gtest.h"
#include "ranker/graph.h"
#include "ranker/job.h"
#include "ranker/local_exchange.h"
#include "ranker/rank.h"

namespace fcrawl::ranker {
namespace {

using ::fcrawl::graphio::ShardWriter;
using ::testing::HasSubstr;

constexpr Algorithm kAlgorithms[] = {
    Algorithm::kPageRank, Algorithm::kQuarkRank, Algorithm::kBlpr,
    Algorithm::kTopicPageRank, Algorithm::kUrlRule, Algorithm::kTopicQuarkRank};

// Runs fn(rank, exchange) on `processes` threads, one per process.
void RunProcesses(int processes,
                  const std::function<void(int, Exchange*)>& fn) {
  LocalExchangeGroup group(processes);
  std::vector<std::thread> threads;
  for (int r = 0; r < processes; ++r) {
    threads.emplace_back([&, r] { fn(r, group.member(r)); });
  }
  for (std::thread& t : threads) t.join();
}

// A random block-level page with up to 7 links among `n` pages (and a tenth
// more URLs without a record).
proto::GraphPage RandomPage(int i, int n, std::mt19937* rng) {
  proto::GraphPage p;
  p.set_url(absl::StrCat("http://h", i % 7, ".example/", i));
  p.set_relevance(((*rng)() % 100) / 100.0);
  p.set_url_rule_distance(static_cast<int>((*rng)() % 4));
  for (int b = 0; b < 3; ++b) {
    proto::GraphBlock* blk = p.add_blocks();
    blk->set_type(static_cast<proto::BlockType>(1 + b));
    blk->set_text_length(static_cast<int>((*rng)() % 500));
    blk->set_position(b);
  }
  const int k = static_cast<int>((*rng)() % 8);
  for (int j = 0; j < k; ++j) {
    proto::GraphLink* l = p.add_links();
    const int t = static_cast<int>((*rng)() % (n + n / 10 + 1));
    l->set_target_url(absl::StrCat("http://h", t % 7, ".example/", t));
    l->set_block(static_cast<int>((*rng)() % 4) - 1);
  }
  return p;
}

std::unique_ptr<Graph> RandomGraph(int n, Algorithm alg) {
  std::mt19937 rng(11);
  std::vector<proto::GraphPage> pages;
  for (int i = 0; i < n; ++i) pages.push_back(RandomPage(i, n, &rng));
  GraphOptions o;
  o.algorithm = alg;
  absl::StatusOr<std::unique_ptr<Graph>> g = BuildGraphFromPages(pages, o);
  EXPECT_TRUE(g.ok()) << g.status();
  return g.ok() ? std::move(*g) : nullptr;
}

bool SameBits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() &&
         (a.empty() ||
          std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
}

// ---- Slices

TEST(SliceTest, WholeChunksByHand) {
  // 11 chunks, the last of 5 pages, over 3 processes: 11·r/3 = 0, 3, 7, 11.
  const uint32_t n = 10 * kChunkPages + 5;
  const PageSlice s0 = SliceOf(n, 0, 3), s1 = SliceOf(n, 1, 3),
                  s2 = SliceOf(n, 2, 3);
  EXPECT_EQ(s0.chunk_begin, 0u);
  EXPECT_EQ(s0.chunk_end, 3u);
  EXPECT_EQ(s1.chunk_begin, 3u);
  EXPECT_EQ(s1.chunk_end, 7u);
  EXPECT_EQ(s2.chunk_begin, 7u);
  EXPECT_EQ(s2.chunk_end, 11u);
  EXPECT_EQ(s0.begin, 0u);
  EXPECT_EQ(s0.end, 12288u);
  EXPECT_EQ(s1.begin, 12288u);
  EXPECT_EQ(s1.end, 28672u);
  EXPECT_EQ(s2.begin, 28672u);
  EXPECT_EQ(s2.end, 40965u);
  // One process owns everything.
  const PageSlice all = SliceOf(n, 0, 1);
  EXPECT_EQ(all.chunk_end, 11u);
  EXPECT_EQ(all.end, n);
}

TEST(SliceTest, FewerChunksThanProcesses) {
  // One chunk over 3 processes: 1·r/3 = 0, 0, 0, 1; the last owns it.
  for (int r = 0; r < 2; ++r) {
    const PageSlice s = SliceOf(100, r, 3);
    EXPECT_EQ(s.begin, s.end) << r;
    EXPECT_EQ(s.chunk_begin, s.chunk_end) << r;
  }
  const PageSlice s2 = SliceOf(100, 2, 3);
  EXPECT_EQ(s2.begin, 0u);
  EXPECT_EQ(s2.end, 100u);
  // No pages: nobody owns anything.
  for (int r = 0; r < 4; ++r) EXPECT_EQ(SliceOf(0, r, 4).end, 0u);
}

TEST(SliceTest, SlicesTileThePages) {
  for (uint32_t n : {0u, 1u, 4096u, 4097u, 50000u, 123457u}) {
    for (int p = 1; p <= 7; ++p) {
      uint32_t next = 0;
      size_t next_chunk = 0;
      for (int r = 0; r < p; ++r) {
        const PageSlice s = SliceOf(n, r, p);
        EXPECT_EQ(s.begin, next) << n << " " << p << " " << r;
        EXPECT_EQ(s.chunk_begin, next_chunk);
        EXPECT_LE(s.begin, s.end);
        next = s.end;
        next_chunk = s.chunk_end;
      }
      EXPECT_EQ(next, n);
      EXPECT_EQ(next_chunk, PageChunks(n));
    }
  }
}

// ---- Rounds

// Every chain after `rounds` rounds by P processes sharing `g`, as each
// process holds it; all must be equal.
std::vector<RankState> RunRounds(const Graph& g, int processes, int rounds) {
  std::vector<RankState> states(processes);
  RankOptions o;
  o.epsilon = 0;
  o.threads = 2;
  RunProcesses(processes, [&](int r, Exchange* ex) {
    Ranker ranker(g, o, ex);
    RankState s = ranker.Initial();
    for (int i = 0; i < rounds; ++i) ranker.Round(&s);
    states[r] = std::move(s);
  });
  return states;
}

class RoundsTest : public ::testing::TestWithParam<Algorithm> {};

TEST_P(RoundsTest, BitIdenticalToOneProcess) {
  // About 4.9 chunks: slices of 1–2 chunks, one of them short.
  std::unique_ptr<Graph> g = RandomGraph(18000, GetParam());
  ASSERT_NE(g, nullptr);
  ASSERT_EQ(PageChunks(g->num_pages), 5u);
  RankOptions o;
  o.epsilon = 0;
  Ranker one(*g, o);
  RankState want = one.Initial();
  for (int i = 0; i < 4; ++i) one.Round(&want);
  for (int p = 1; p <= 4; ++p) {
    const std::vector<RankState> got = RunRounds(*g, p, 4);
    for (int r = 0; r < p; ++r) {
      ASSERT_EQ(got[r].chains.size(), want.chains.size());
      EXPECT_EQ(got[r].round, 4);
      for (size_t c = 0; c < want.chains.size(); ++c) {
        EXPECT_TRUE(SameBits(got[r].chains[c].x, want.chains[c].x))
            << "P=" << p << " process " << r << " chain "
            << want.chains[c].name;
        EXPECT_EQ(got[r].chains[c].last_l1, want.chains[c].last_l1);
      }
    }
  }
}

TEST_P(RoundsTest, FewerChunksThanProcesses) {
  std::unique_ptr<Graph> g = RandomGraph(300, GetParam());
  ASSERT_NE(g, nullptr);
  ASSERT_EQ(PageChunks(g->num_pages), 1u);
  RankOptions o;
  o.epsilon = 0;
  Ranker one(*g, o);
  RankState want = one.Initial();
  for (int i = 0; i < 3; ++i) one.Round(&want);
  for (int p : {2, 3, 4}) {
    const std::vector<RankState> got = RunRounds(*g, p, 3);
    for (int r = 0; r < p; ++r) {
      for (size_t c = 0; c < want.chains.size(); ++c) {
        EXPECT_TRUE(SameBits(got[r].chains[c].x, want.chains[c].x))
            << "P=" << p << " process " << r;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(All, RoundsTest, ::testing::ValuesIn(kAlgorithms),
                         [](const auto& info) {
                           std::string n(AlgorithmName(info.param));
                           for (char& c : n) {
                             if (c == '-') c = '_';
                           }
                           return n;
                         });

TEST(RoundsTest, ExchangeBytesByHand) {
  std::unique_ptr<Graph> g = RandomGraph(18000, Algorithm::kPageRank);
  ASSERT_NE(g, nullptr);
  const uint64_t n = g->num_pages;  // 5 chunks; P = 2: 2 and 3 of them
  RankOptions o;
  o.epsilon = 0;
  EXPECT_EQ(Ranker(*g, o).ExchangeBytes(Ranker(*g, o).Initial()), 0u);
  RunProcesses(2, [&](int r, Exchange* ex) {
    Ranker ranker(*g, o, ex);
    const RankState s = ranker.Initial();  // one chain (pagerank)
    const uint64_t own = r == 0 ? 2 * kChunkPages : n - 2 * kChunkPages;
    const uint64_t own_chunks = r == 0 ? 2 : 3;
    // float y and double x' of the other pages, 2 doubles per other chunk.
    EXPECT_EQ(ranker.ExchangeBytes(s), (n - own) * 12 + (5 - own_chunks) * 16);
  });
}

// ---- Jobs

// `n` random pages in two shards.
void WriteShards(const std::string& dir, int n) {
  std::mt19937 rng(5);
  std::filesystem::create_directories(dir);
  for (int s = 0; s < 2; ++s) {
    ShardWriter w;
    ASSERT_TRUE(w.Open(absl::StrCat(dir, "/graph-w-", s, ".fcg"), "w").ok());
    for (int i = s * n / 2; i < (s + 1) * n / 2; ++i) {
      ASSERT_TRUE(w.Add(RandomPage(i, n, &rng)).ok());
    }
    ASSERT_TRUE(w.Close().ok());
  }
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

JobOptions Options(const std::string& shards, Algorithm alg) {
  JobOptions o;
  o.inputs = {shards};
  o.graph.algorithm = alg;
  o.graph.threads = 1;
  o.rank.threads = 1;
  o.rank.epsilon = 0;  // rounds are counted by the tests
  o.rank.max_rounds = 12;
  return o;
}

// Runs job(o_r) on P processes, o_r = options(r) with the exchange set.
std::vector<absl::StatusOr<JobReport>> RunJobs(
    int processes, const std::function<JobOptions(int)>& options,
    absl::StatusOr<JobReport> (*job)(const JobOptions&) = RunJob) {
  std::vector<absl::StatusOr<JobReport>> out(processes);
  RunProcesses(processes, [&](int r, Exchange* ex) {
    JobOptions o = options(r);
    o.exchange = ex;
    out[r] = job(o);
  });
  return out;
}

TEST(JobExchangeTest, OutputsOfProcessZeroEqualOneProcess) {
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.path();
  WriteShards(dir + "/shards", 10000);  // 3 chunks
  JobOptions one = Options(dir + "/shards", Algorithm::kBlpr);
  one.out = dir + "/one.tsv";
  one.blocks_out = dir + "/one_blocks.tsv";
  one.checkpoint_dir = dir + "/one_ckpt";
  absl::StatusOr<JobReport> want = RunJob(one);
  ASSERT_TRUE(want.ok()) << want.status();
  // Paths of their own, to see who writes.
  const auto got = RunJobs(3, [&](int r) {
    JobOptions o = Options(dir + "/shards", Algorithm::kBlpr);
    o.out = absl::StrCat(dir, "/p", r, ".tsv");
    o.blocks_out = absl::StrCat(dir, "/p", r, "_blocks.tsv");
    o.checkpoint_dir = absl::StrCat(dir, "/p", r, "_ckpt");
    return o;
  });
  for (int r = 0; r < 3; ++r) {
    ASSERT_TRUE(got[r].ok()) << got[r].status();
    EXPECT_EQ(got[r]->round, want->round);
    EXPECT_EQ(got[r]->processes, 3);
    EXPECT_GT(got[r]->exchange_bytes, 0u);
    EXPECT_EQ(got[r]->l1, want->l1);
    EXPECT_EQ(std::filesystem::exists(absl::StrCat(dir, "/p", r, ".tsv")),
              r == 0);
    EXPECT_EQ(std::filesystem::exists(
                  absl::StrCat(dir, "/p", r, "_ckpt/checkpoint.fcr")),
              r == 0);
  }
  EXPECT_EQ(want->processes, 1);
  EXPECT_EQ(want->exchange_bytes, 0u);
  EXPECT_EQ(ReadFile(dir + "/p0.tsv"), ReadFile(dir + "/one.tsv"));
  EXPECT_EQ(ReadFile(dir + "/p0_blocks.tsv"),
            ReadFile(dir + "/one_blocks.tsv"));
  EXPECT_EQ(ReadFile(dir + "/p0_ckpt/checkpoint.fcr"),
            ReadFile(dir + "/one_ckpt/checkpoint.fcr"));
}

TEST(JobExchangeTest, EachProcessHoldsOnlyItsSlicesEdges) {
  // url-rule keeps an in-link CSR (in_src) and an out-link CSR (out_dst):
  // 8 bytes a link, which the 3 processes split between them.
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.path();
  WriteShards(dir + "/shards", 10000);  // 3 chunks: one each
  JobOptions one = Options(dir + "/shards", Algorithm::kUrlRule);
  one.out = dir + "/one.tsv";
  absl::StatusOr<JobReport> want = RunJob(one);
  ASSERT_TRUE(want.ok()) << want.status();
  const auto got = RunJobs(3, [&](int r) {
    JobOptions o = Options(dir + "/shards", Algorithm::kUrlRule);
    o.out = absl::StrCat(dir, "/p", r, ".tsv");
    return o;
  });
  uint64_t freed = 0;
  for (int r = 0; r < 3; ++r) {
    ASSERT_TRUE(got[r].ok()) << got[r].status();
    EXPECT_EQ(got[r]->edges, want->edges);  // the graph's, not the slice's
    EXPECT_LT(got[r]->graph_bytes, want->graph_bytes) << r;
    freed += want->graph_bytes - got[r]->graph_bytes;
  }
  // Every edge is held by exactly one process.
  EXPECT_EQ(freed, 2 * want->edges * 8);
  EXPECT_EQ(ReadFile(dir + "/p0.tsv"), ReadFile(dir + "/one.tsv"));
}

TEST(JobExchangeTest, RoundsThenRunEqualOneRun) {
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.path();
  WriteShards(dir + "/shards", 10000);
  JobOptions one = Options(dir + "/shards", Algorithm::kUrlRule);
  one.out = dir + "/one.tsv";
  ASSERT_TRUE(RunJob(one).ok());
  auto options = [&](int) {
    JobOptions o = Options(dir + "/shards", Algorithm::kUrlRule);
    o.checkpoint_dir = dir + "/ckpt";  // shared, as under MPI
    o.out = dir + "/two.tsv";
    return o;
  };
  for (int i = 1; i <= 3; ++i) {
    const auto got = RunJobs(2, options, RoundJob);
    for (const auto& r : got) {
      ASSERT_TRUE(r.ok()) << r.status();
      EXPECT_EQ(r->round, i);
    }
  }
  const auto got = RunJobs(2, options);
  for (const auto& r : got) {
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_TRUE(r->resumed);
    EXPECT_EQ(r->start_round, 3);
    EXPECT_EQ(r->round, 12);
  }
  EXPECT_EQ(ReadFile(dir + "/two.tsv"), ReadFile(dir + "/one.tsv"));
}

TEST(JobExchangeTest, StopOnOneProcessStopsAllAfterTheSameRound) {
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.path();
  WriteShards(dir + "/shards", 3000);
  const auto got = RunJobs(3, [&](int r) {
    JobOptions o = Options(dir + "/shards", Algorithm::kQuarkRank);
    o.out = dir + "/never.tsv";
    // Process 1 asks to stop before the third round.
    if (r == 1) o.stop = [calls = 0]() mutable { return ++calls == 3; };
    return o;
  });
  for (const auto& r : got) {
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_TRUE(r->stopped);
    EXPECT_EQ(r->round, 2);
    EXPECT_EQ(r->rounds_run, 2);
  }
  EXPECT_FALSE(std::filesystem::exists(dir + "/never.tsv"));
}

TEST(JobExchangeTest, WriteErrorOfProcessZeroFailsEveryProcess) {
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.path();
  WriteShards(dir + "/shards", 3000);
  const auto got = RunJobs(3, [&](int) {
    JobOptions o = Options(dir + "/shards", Algorithm::kPageRank);
    o.out = dir + "/no/such/folder/out.tsv";
    return o;
  });
  for (int r = 0; r < 3; ++r) {
    ASSERT_FALSE(got[r].ok()) << r;
    EXPECT_THAT(got[r].status().message(), HasSubstr("out.tsv"));
    if (r > 0) {
      EXPECT_THAT(got[r].status().message(), HasSubstr("process 0: "));
    }
  }
  // A checkpoint folder that cannot be made (a file is in the way).
  std::ofstream(dir + "/file") << "x";
  const auto ckpt = RunJobs(2, [&](int) {
    JobOptions o = Options(dir + "/shards", Algorithm::kPageRank);
    o.checkpoint_dir = dir + "/file/ckpt";
    return o;
  });
  for (const auto& r : ckpt) EXPECT_FALSE(r.ok());
}

TEST(JobExchangeTest, LoadErrorOfOneProcessFailsEveryProcess) {
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.path();
  WriteShards(dir + "/shards", 3000);
  std::filesystem::create_directories(dir + "/bad");
  std::ofstream(dir + "/bad/graph-x-0.fcg") << "not a shard at all";
  const auto got = RunJobs(3, [&](int r) {
    // Process 2 alone sees a damaged shard (as if its filesystem did).
    return Options(dir + (r == 2 ? "/bad" : "/shards"), Algorithm::kBlpr);
  });
  for (int r = 0; r < 3; ++r) {
    ASSERT_FALSE(got[r].ok()) << r;
    EXPECT_THAT(got[r].status().message(), HasSubstr("graph-x-0.fcg"));
    if (r < 2) {
      EXPECT_THAT(got[r].status().message(), HasSubstr("process 2: "));
    }
  }
  // Every process fails the same way (the usual case: shared shards).
  const auto all = RunJobs(
      2, [&](int) { return Options(dir + "/bad", Algorithm::kPageRank); });
  for (const auto& r : all) {
    ASSERT_FALSE(r.ok());
    EXPECT_THAT(r.status().message(), HasSubstr("graph-x-0.fcg"));
  }
}

}  // namespace
}  // namespace fcrawl::ranker
