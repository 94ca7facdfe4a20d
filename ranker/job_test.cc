// Checkpoints, resume, `round` and the outputs, on shards written to disk.
#include "ranker/job.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "core/test_temp_dir.h"
#include "gmock/gmock.h"
#include "graphio/shard.h"
#include "gtest/gtest.h"
#include "ranker/checkpoint.h"

namespace fcrawl::ranker {
namespace {

using ::fcrawl::graphio::ShardWriter;
using ::testing::HasSubstr;

// A random block-level graph of `n` pages in two shards.
void WriteShards(const std::string& dir, int n, unsigned seed = 3) {
  std::mt19937 rng(seed);
  std::filesystem::create_directories(dir);
  for (int s = 0; s < 2; ++s) {
    ShardWriter w;
    ASSERT_TRUE(w.Open(absl::StrCat(dir, "/graph-w-", s, ".fcg"), "w").ok());
    for (int i = s * n / 2; i < (s + 1) * n / 2; ++i) {
      proto::GraphPage p;
      p.set_url(absl::StrCat("http://h", i % 7, ".example/", i));
      p.set_relevance((rng() % 100) / 100.0);
      p.set_url_rule_distance(static_cast<int>(rng() % 4));
      for (int b = 0; b < 3; ++b) {
        proto::GraphBlock* blk = p.add_blocks();
        blk->set_type(static_cast<proto::BlockType>(1 + b));
        blk->set_text_length(static_cast<int>(rng() % 500));
        blk->set_position(b);
      }
      const int k = static_cast<int>(rng() % 8);
      for (int j = 0; j < k; ++j) {
        proto::GraphLink* l = p.add_links();
        const int t = static_cast<int>(rng() % (n + n / 10));
        l->set_target_url(absl::StrCat("http://h", t % 7, ".example/", t));
        l->set_block(static_cast<int>(rng() % 4) - 1);
      }
      ASSERT_TRUE(w.Add(p).ok());
    }
    ASSERT_TRUE(w.Close().ok());
  }
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

JobOptions Options(const std::string& shards, Algorithm alg,
                   const std::string& ckpt) {
  JobOptions o;
  o.inputs = {shards};
  o.graph.algorithm = alg;
  o.checkpoint_dir = ckpt;
  o.rank.epsilon = 0;  // rounds are counted by the tests
  o.rank.max_rounds = 40;
  return o;
}

RankState LoadState(const std::string& dir) {
  absl::StatusOr<std::optional<Checkpoint>> c = ReadCheckpoint(dir);
  EXPECT_TRUE(c.ok()) << c.status();
  EXPECT_TRUE(c->has_value());
  return (*c)->state;
}

class JobTest : public ::testing::TestWithParam<Algorithm> {};

TEST_P(JobTest, ResumeGivesTheSameResultAsOneRun) {
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.path();
  WriteShards(dir + "/shards", 400);
  // Uninterrupted.
  JobOptions whole = Options(dir + "/shards", GetParam(), dir + "/a");
  whole.out = dir + "/a.tsv";
  absl::StatusOr<JobReport> r = RunJob(whole);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->rounds_run, 40);
  EXPECT_FALSE(r->resumed);
  // Interrupted after 7 rounds (by stop()), then resumed. Checkpoints every
  // 3 rounds, and one when stopped.
  JobOptions part = Options(dir + "/shards", GetParam(), dir + "/b");
  part.out = dir + "/b.tsv";
  part.checkpoint_every = 3;
  int rounds = 0;
  part.on_round = [&](const RoundReport&) { ++rounds; };
  part.stop = [&] { return rounds >= 7; };
  r = RunJob(part);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(r->stopped);
  EXPECT_EQ(r->round, 7);
  EXPECT_FALSE(std::filesystem::exists(part.out));  // no output yet
  EXPECT_EQ(LoadState(dir + "/b").round, 7);
  part.stop = nullptr;
  r = RunJob(part);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(r->resumed);
  EXPECT_EQ(r->start_round, 7);
  EXPECT_EQ(r->rounds_run, 33);
  EXPECT_EQ(r->round, 40);
  const RankState a = LoadState(dir + "/a");
  const RankState b = LoadState(dir + "/b");
  ASSERT_EQ(a.chains.size(), b.chains.size());
  for (size_t c = 0; c < a.chains.size(); ++c) {
    EXPECT_EQ(a.chains[c].x, b.chains[c].x) << a.chains[c].name;
  }
  EXPECT_EQ(ReadFile(dir + "/a.tsv"), ReadFile(dir + "/b.tsv"));
}

TEST_P(JobTest, RoundAdvancesExactlyOneRound) {
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.path();
  WriteShards(dir + "/shards", 300);
  JobOptions o = Options(dir + "/shards", GetParam(), dir + "/ckpt");
  for (int k = 1; k <= 3; ++k) {
    absl::StatusOr<JobReport> r = RoundJob(o);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(r->rounds_run, 1);
    EXPECT_EQ(r->start_round, k - 1);
    EXPECT_EQ(r->round, k);
    EXPECT_EQ(LoadState(dir + "/ckpt").round, k);
  }
  // Three single rounds equal a run of three rounds.
  JobOptions three = Options(dir + "/shards", GetParam(), dir + "/three");
  three.rank.max_rounds = 3;
  three.rank.threads = 2;
  ASSERT_TRUE(RunJob(three).ok());
  const RankState a = LoadState(dir + "/ckpt");
  const RankState b = LoadState(dir + "/three");
  for (size_t c = 0; c < a.chains.size(); ++c) {
    EXPECT_EQ(a.chains[c].x, b.chains[c].x);
  }
}

INSTANTIATE_TEST_SUITE_P(All, JobTest,
                         ::testing::Values(Algorithm::kQuarkRank,
                                           Algorithm::kBlpr,
                                           Algorithm::kUrlRule),
                         [](const auto& info) {
                           std::string s(AlgorithmName(info.param));
                           s.erase(std::remove(s.begin(), s.end(), '-'),
                                   s.end());
                           return s;
                         });

TEST(JobTest, RoundStopsAtConvergenceAndRoundLimit) {
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.path();
  WriteShards(dir + "/shards", 100);
  JobOptions o = Options(dir + "/shards", Algorithm::kPageRank, dir + "/c");
  o.rank.max_rounds = 2;
  ASSERT_TRUE(RoundJob(o).ok());
  ASSERT_TRUE(RoundJob(o).ok());
  absl::StatusOr<JobReport> r = RoundJob(o);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->rounds_run, 0);
  EXPECT_EQ(r->round, 2);
  // Converged: a looser epsilon, nothing more to do.
  o.rank.max_rounds = 1000;
  o.rank.epsilon = 1e-3;
  r = RunJob(o);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->converged);
  const int64_t done = r->round;
  r = RoundJob(o);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->rounds_run, 0);
  EXPECT_EQ(r->round, done);
}

TEST(JobTest, RefusesCheckpointOfAnotherGraphOrParameters) {
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.path();
  WriteShards(dir + "/shards", 200);
  JobOptions o = Options(dir + "/shards", Algorithm::kQuarkRank, dir + "/c");
  o.rank.max_rounds = 2;
  ASSERT_TRUE(RunJob(o).ok());
  // Another algorithm.
  JobOptions other = o;
  other.graph.algorithm = Algorithm::kBlpr;
  absl::StatusOr<JobReport> r = RunJob(other);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(r.status().message(), HasSubstr("quarkrank ranking, not blpr"));
  // Other weights.
  other = o;
  other.graph.quark_weights[1] = 3;
  r = RoundJob(other);
  EXPECT_THAT(r.status().message(), HasSubstr("other parameters"));
  // Another damping.
  other = o;
  other.rank.damping = 0.5;
  r = RoundJob(other);
  EXPECT_THAT(r.status().message(), HasSubstr("damping=0.5"));
  // Another graph: the same number of pages, other links.
  WriteShards(dir + "/shards", 200, /*seed=*/4);
  r = RunJob(o);
  EXPECT_THAT(r.status().message(), HasSubstr("another graph"));
  EXPECT_THAT(r.status().message(), HasSubstr("--fresh"));
  o.fresh = true;
  r = RunJob(o);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_FALSE(r->resumed);
  EXPECT_EQ(r->round, 2);
}

TEST(JobTest, DamagedCheckpointIsAnError) {
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.path();
  WriteShards(dir + "/shards", 100);
  JobOptions o = Options(dir + "/shards", Algorithm::kPageRank, dir + "/c");
  o.rank.max_rounds = 1;
  ASSERT_TRUE(RunJob(o).ok());
  const std::string path = CheckpointPath(dir + "/c");
  std::string data = ReadFile(path);
  data[data.size() / 2] ^= 0x40;
  std::ofstream(path, std::ios::binary | std::ios::trunc) << data;
  absl::StatusOr<JobReport> r = RoundJob(o);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(r.status().message(), HasSubstr("checksum"));
  std::filesystem::resize_file(path, 5);
  EXPECT_THAT(RoundJob(o).status().message(), HasSubstr("bad magic"));
}

TEST(JobTest, OutputNeedsCheckpoint) {
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.path();
  WriteShards(dir + "/shards", 100);
  JobOptions o = Options(dir + "/shards", Algorithm::kPageRank, dir + "/c");
  o.out = dir + "/out.tsv";
  EXPECT_EQ(OutputJob(o).status().code(), absl::StatusCode::kNotFound);
  o.checkpoint_dir.clear();
  EXPECT_EQ(OutputJob(o).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(RoundJob(o).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(JobTest, NoShards) {
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.path();
  JobOptions o = Options(dir, Algorithm::kPageRank, "");
  EXPECT_EQ(RunJob(o).status().code(), absl::StatusCode::kNotFound);
}

TEST(JobTest, CombinedScoreByHand) {
  // N = 4, score 0.5: R = 2, R/(1+R) = 2/3; relevance 0.3, ∂ = 0.4:
  // 0.4·0.3 + 0.6·2/3 = 0.12 + 0.4 = 0.52.
  EXPECT_DOUBLE_EQ(CombinedScore(0.3, 0.5, 4, 0.4), 0.52);
  // The average page (R = 1) gets half of the rank part: 0.6·0.5 = 0.3.
  EXPECT_DOUBLE_EQ(CombinedScore(0, 0.25, 4, 0.4), 0.3);
  // No rank: relevance only.
  EXPECT_DOUBLE_EQ(CombinedScore(0.9, 0, 4, 0.4), 0.4 * 0.9);
  EXPECT_DOUBLE_EQ(CombinedScore(0.9, 0.5, 4, 1), 0.9);
}

TEST(JobTest, RankingFileTsvAndJsonl) {
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.path();
  WriteShards(dir + "/shards", 200);
  JobOptions o = Options(dir + "/shards", Algorithm::kBlpr, dir + "/c");
  o.out = dir + "/pages.tsv";
  o.blocks_out = dir + "/blocks.tsv";
  absl::StatusOr<JobReport> r = RunJob(o);
  ASSERT_TRUE(r.ok()) << r.status();
  std::vector<std::string> lines =
      absl::StrSplit(ReadFile(o.out), '\n', absl::SkipEmpty());
  ASSERT_EQ(lines.size(), r->pages + 1);
  EXPECT_EQ(lines[0],
            "rank\turl\tscore\tpagerank\trelevance\tcombined\tfetched");
  double prev = 1, total = 0, plain_total = 0;
  for (size_t i = 1; i < lines.size(); ++i) {
    std::vector<std::string> f = absl::StrSplit(lines[i], '\t');
    ASSERT_EQ(f.size(), 7u);
    EXPECT_EQ(f[0], absl::StrCat(i));
    const double score = std::stod(f[2]), rel = std::stod(f[4]);
    EXPECT_LE(score, prev);
    prev = score;
    total += score;
    plain_total += std::stod(f[3]);
    // combined = 0.4·relevance + 0.6·R/(1+R), R = N·score.
    const double big_r = r->pages * score;
    EXPECT_NEAR(std::stod(f[5]), 0.4 * rel + 0.6 * big_r / (1 + big_r), 1e-6);
    EXPECT_TRUE(f[6] == "0" || f[6] == "1");
    if (f[6] == "0") {
      EXPECT_EQ(rel, 0);
    }
  }
  EXPECT_NEAR(total, 1, 1e-5);
  EXPECT_NEAR(plain_total, 1, 1e-5);
  lines = absl::StrSplit(ReadFile(o.blocks_out), '\n', absl::SkipEmpty());
  ASSERT_EQ(lines.size(), r->blocks + 1);
  EXPECT_EQ(lines[0], "rank\turl\tblock\ttype\timportance\tscore");
  // Top 5 as JSON lines, from the checkpoint.
  o.out = dir + "/top.jsonl";
  o.blocks_out.clear();
  o.output.format = OutputFormat::kJsonl;
  o.output.top = 5;
  r = OutputJob(o);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->rounds_run, 0);
  lines = absl::StrSplit(ReadFile(o.out), '\n', absl::SkipEmpty());
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_THAT(lines[0], HasSubstr("{\"rank\":1,\"url\":\"http://"));
  EXPECT_THAT(lines[0], HasSubstr("\"fetched\":"));
}

TEST(JobTest, RoundReloadsTheGraphFromTheCache) {
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.path();
  WriteShards(dir + "/shards", 300);
  JobOptions o = Options(dir + "/shards", Algorithm::kQuarkRank, dir + "/c");
  JobOptions plain =
      Options(dir + "/shards", Algorithm::kQuarkRank, dir + "/plain");
  plain.graph_cache = false;
  const std::string cache = dir + "/c/graph.fcgc";
  for (int k = 1; k <= 3; ++k) {
    absl::StatusOr<JobReport> r = RoundJob(o);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(r->graph_from_cache, k > 1) << k;
    EXPECT_EQ(r->graph_cache_problem, "");
    EXPECT_TRUE(std::filesystem::exists(cache));
    absl::StatusOr<JobReport> p = RoundJob(plain);
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_FALSE(p->graph_from_cache);
    EXPECT_EQ(r->fingerprint, p->fingerprint);
    EXPECT_EQ(r->round, k);
  }
  EXPECT_FALSE(std::filesystem::exists(dir + "/plain/graph.fcgc"));
  const RankState a = LoadState(dir + "/c");
  const RankState b = LoadState(dir + "/plain");
  ASSERT_EQ(a.chains.size(), b.chains.size());
  for (size_t c = 0; c < a.chains.size(); ++c) {
    EXPECT_EQ(a.chains[c].x, b.chains[c].x) << a.chains[c].name;
  }
  // A touched shard: the next round rebuilds (and rewrites the cache).
  const std::string shard = dir + "/shards/graph-w-1.fcg";
  std::filesystem::last_write_time(
      shard, std::filesystem::last_write_time(shard) + std::chrono::seconds(2));
  absl::StatusOr<JobReport> r = RoundJob(o);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_FALSE(r->graph_from_cache);
  EXPECT_EQ(r->round, 4);
  r = RoundJob(o);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(r->graph_from_cache);
  // Damaged: rebuilt, and said.
  std::string data = ReadFile(cache);
  data[data.size() - 3] ^= 1;
  std::ofstream(cache, std::ios::binary | std::ios::trunc) << data;
  r = RoundJob(o);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_FALSE(r->graph_from_cache);
  EXPECT_THAT(r->graph_cache_problem, HasSubstr("checksum mismatch"));
  // Without a checkpoint folder there is no cache.
  o.checkpoint_dir.clear();
  o.rank.max_rounds = 1;
  r = RunJob(o);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_FALSE(r->graph_from_cache);
}

}  // namespace
}  // namespace fcrawl::ranker
