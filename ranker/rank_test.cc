// Every algorithm against a dense power iteration written straight from its
// definition (docs/papers.md "Ranking", [MMTOPIC] 3.6/3.7/3.11 and 4.6), on a
// graph with a dangling page, a self-link, duplicate links, blocks without
// links, links outside any block and link targets without a record.
#include "ranker/rank.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ranker/graph.h"

namespace fcrawl::ranker {
namespace {

using Matrix = std::vector<std::vector<double>>;

struct L {
  std::string target;
  int block;
};

proto::GraphPage MakePage(const std::string& url, std::vector<L> links,
                          std::vector<std::pair<proto::BlockType, int>> blocks,
                          double relevance, int distance) {
  proto::GraphPage p;
  p.set_url(url);
  p.set_relevance(relevance);
  p.set_url_rule_distance(distance);
  int pos = 0;
  for (const auto& [type, len] : blocks) {
    proto::GraphBlock* b = p.add_blocks();
    b->set_type(type);
    b->set_text_length(len);
    b->set_position(pos++);
  }
  for (const L& l : links) {
    proto::GraphLink* gl = p.add_links();
    gl->set_target_url(l.target);
    gl->set_block(l.block);
  }
  return p;
}

std::vector<proto::GraphPage> TestPages() {
  using B = proto::BlockType;
  return {
      // Self-link, a duplicate, a link to an unknown URL, one outside any
      // block, and a related-links block (3) without links.
      MakePage("a",
               {{"b", 0}, {"c", 1}, {"c", 1}, {"a", 1}, {"x", 2}, {"d", -1}},
               {{B::NAVIGATION, 50},
                {B::CONTENT, 400},
                {B::NOISE, 30},
                {B::RELATED_LINKS, 80}},
               0.9, 0),
      MakePage("b", {{"c", 0}, {"a", 0}}, {{B::CONTENT, 200}}, 0.6, 2),
      MakePage("c", {{"d", 0}, {"b", 1}, {"b", 1}},
               {{B::NAVIGATION, 20}, {B::CONTENT, 100}}, 0.3, 1),
      // Dangling, no blocks.
      MakePage("d", {}, {}, 0.1, 3),
      // Only a zero-size block.
      MakePage("e", {{"a", 0}}, {{B::CONTENT, 0}}, 0.0, 0),
      // Its only link is outside any block and goes to an unknown URL.
      MakePage("f", {{"y", -1}}, {{B::CONTENT, 100}, {B::NOISE, 100}}, 0.5, 5),
  };
}

// ---- The dense reference.

struct Dense {
  std::map<std::string, int> id;
  int n = 0;
};

Dense Ids(const Graph& g) {
  Dense d;
  for (uint32_t p = 0; p < g.num_pages; ++p) d.id[std::string(g.url(p))] = p;
  d.n = static_cast<int>(g.num_pages);
  return d;
}

void NormaliseRows(Matrix* w) {
  for (auto& row : *w) {
    double s = 0;
    for (double v : row) s += v;
    if (s > 0) {
      for (double& v : row) v /= s;
    }
  }
}

// x' = (1−d)·v + d·(Wᵀx + D·v), D the score of zero rows, v the teleport
// (uniform 1/N when empty).
std::vector<double> PowerIterate(const Matrix& w, double damping,
                                 std::vector<double> v = {}) {
  const size_t n = w.size();
  if (v.empty()) v.assign(n, 1.0 / n);
  std::vector<double> x(n, 1.0 / n), next(n);
  for (int round = 0; round < 3000; ++round) {
    double dangling = 0;
    for (size_t s = 0; s < n; ++s) {
      double row = 0;
      for (double v : w[s]) row += v;
      if (row == 0) dangling += x[s];
    }
    for (size_t t = 0; t < n; ++t) {
      double in = 0;
      for (size_t s = 0; s < n; ++s) in += x[s] * w[s][t];
      next[t] = (1 - damping) * v[t] + damping * (in + dangling * v[t]);
    }
    x.swap(next);
  }
  return x;
}

// BLPR's X row, written from the definition.
std::vector<double> DenseX(const proto::GraphPage& p) {
  const int b = p.blocks_size();
  std::vector<int> order(b);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int l, int r) {
    return p.blocks(l).position() < p.blocks(r).position();
  });
  std::vector<double> x(b);
  double total = 0;
  for (int r = 0; r < b; ++r) {
    const double size = std::max(0, p.blocks(order[r]).text_length());
    x[order[r]] = size / (std::fabs(r - (b - 1) / 2.0) + 1);
    total += x[order[r]];
  }
  for (double& v : x) v = total > 0 ? v / total : 1.0 / b;
  return x;
}

// Z(b, t) = 1/s_b for the distinct targets of block b of page p.
std::map<int, std::map<int, double>> DenseZ(const proto::GraphPage& p,
                                            const Dense& d) {
  std::map<int, std::map<int, double>> z;
  for (const proto::GraphLink& l : p.links()) {
    if (l.block() >= 0) z[l.block()][d.id.at(l.target_url())] = 1;
  }
  for (auto& [b, row] : z) {
    for (auto& [t, v] : row) v = 1.0 / row.size();
  }
  return z;
}

Matrix DenseW(Algorithm alg, const std::vector<proto::GraphPage>& pages,
              const Dense& d, const QuarkWeights& qw = kDefaultQuarkWeights) {
  const int n = d.n;
  Matrix w(n, std::vector<double>(n, 0.0));
  std::vector<double> rel(n, 0.0), dist(n, 1.0);
  for (const proto::GraphPage& p : pages) {
    rel[d.id.at(p.url())] = p.relevance();
    dist[d.id.at(p.url())] = std::max(1, p.url_rule_distance());
  }
  // m[T][p]: links of T to p.
  Matrix m(n, std::vector<double>(n, 0.0));
  for (const proto::GraphPage& p : pages) {
    for (const proto::GraphLink& l : p.links()) {
      m[d.id.at(p.url())][d.id.at(l.target_url())] += 1;
    }
  }
  switch (alg) {
    case Algorithm::kPageRank:
      w = m;
      break;
    case Algorithm::kQuarkRank:
      for (const proto::GraphPage& p : pages) {
        for (const proto::GraphLink& l : p.links()) {
          const int type = l.block() >= 0 ? p.blocks(l.block()).type() : 0;
          w[d.id.at(p.url())][d.id.at(l.target_url())] += qw[type];
        }
      }
      break;
    case Algorithm::kTopicQuarkRank:
      for (const proto::GraphPage& p : pages) {
        for (const proto::GraphLink& l : p.links()) {
          const int type = l.block() >= 0 ? p.blocks(l.block()).type() : 0;
          const int t = d.id.at(l.target_url());
          w[d.id.at(p.url())][t] += qw[type] * rel[t];
        }
      }
      break;
    case Algorithm::kBlpr:
      for (const proto::GraphPage& p : pages) {
        const std::vector<double> x = DenseX(p);
        for (const auto& [b, row] : DenseZ(p, d)) {
          for (const auto& [t, z] : row) w[d.id.at(p.url())][t] += x[b] * z;
        }
      }
      break;
    case Algorithm::kTopicPageRank: {
      const double lambda = 0.85, omega = 0.5;
      std::vector<double> link(n);
      for (int p = 0; p < n; ++p) {
        double in = 0, in_n = 0, out = 0, out_n = 0;
        for (int s = 0; s < n; ++s) {
          in += m[s][p] * rel[s];
          in_n += m[s][p];
          out += m[p][s] * rel[s];
          out_n += m[p][s];
        }
        link[p] = (1 - lambda) * (in_n > 0 ? in / in_n : 0) +
                  lambda * (out_n > 0 ? out / out_n : 0);
      }
      for (int s = 0; s < n; ++s) {
        double rel_sum = 0, link_sum = 0, deg = 0;
        for (int t = 0; t < n; ++t) {
          rel_sum += m[s][t] * rel[t];
          link_sum += m[s][t] * link[t];
          deg += m[s][t];
        }
        for (int t = 0; t < n; ++t) {
          if (m[s][t] == 0) continue;
          const double pc = rel_sum > 0 ? rel[t] / rel_sum : 1 / deg;
          const double pl = link_sum > 0 ? link[t] / link_sum : 1 / deg;
          w[s][t] = m[s][t] * (omega * pc + (1 - omega) * pl);
        }
      }
      break;
    }
    case Algorithm::kUrlRule:
      for (int q = 0; q < n; ++q) {
        double out = 0;
        for (int t = 0; t < n; ++t) out += m[q][t];
        if (out == 0) continue;  // dangling
        for (int p = 0; p < n; ++p) {
          double sib = 0;
          if (p != q) {
            for (int t = 0; t < n; ++t) sib += m[t][q] * m[t][p];
          }
          w[q][p] = (m[q][p] + sib) / dist[p];
        }
      }
      break;
  }
  NormaliseRows(&w);
  return w;
}

std::unique_ptr<Graph> Build(const std::vector<proto::GraphPage>& pages,
                             Algorithm alg, int threads = 1) {
  GraphOptions o;
  o.algorithm = alg;
  o.threads = threads;
  absl::StatusOr<std::unique_ptr<Graph>> g = BuildGraphFromPages(pages, o);
  EXPECT_TRUE(g.ok()) << g.status();
  return std::move(*g);
}

RankState RunRounds(const Ranker& r, int rounds) {
  RankState s = r.Initial();
  for (int i = 0; i < rounds; ++i) r.Round(&s);
  return s;
}

RankOptions NoStop(int threads = 1) {
  RankOptions o;
  o.epsilon = 0;  // never converged: the test decides the rounds
  o.threads = threads;
  return o;
}

class AlgorithmTest : public ::testing::TestWithParam<Algorithm> {};

TEST_P(AlgorithmTest, MatchesDensePowerIteration) {
  const std::vector<proto::GraphPage> pages = TestPages();
  std::unique_ptr<Graph> g = Build(pages, GetParam());
  ASSERT_EQ(g->num_pages, 8u);  // a..f, x, y
  const Dense d = Ids(*g);
  Ranker ranker(*g, NoStop());
  const RankState s = RunRounds(ranker, 300);
  // topic-quarkrank jumps to pages in proportion to their relevance.
  std::vector<double> teleport;
  if (GetParam() == Algorithm::kTopicQuarkRank) {
    teleport.assign(d.n, 0.0);
    double sum = 0;
    for (const proto::GraphPage& p : pages) sum += p.relevance();
    for (const proto::GraphPage& p : pages) {
      teleport[d.id.at(p.url())] = p.relevance() / sum;
    }
  }
  const std::vector<double> want =
      PowerIterate(DenseW(GetParam(), pages, d), ranker.damping(), teleport);
  const std::vector<double>& got = ranker.Scores(s);
  double sum = 0;
  for (int p = 0; p < d.n; ++p) {
    EXPECT_NEAR(got[p], want[p], 1e-6) << g->url(p);
    sum += got[p];
  }
  EXPECT_NEAR(sum, 1, 1e-6);
  // The comparison column is plain PageRank (with the algorithm's damping,
  // so that only the transition weights differ).
  const std::vector<double> plain =
      PowerIterate(DenseW(Algorithm::kPageRank, pages, d), ranker.damping());
  for (int p = 0; p < d.n; ++p) {
    EXPECT_NEAR(ranker.PlainPageRank(s)[p], plain[p], 1e-6) << g->url(p);
  }
}

TEST_P(AlgorithmTest, ThreadCountDoesNotChangeResults) {
  // Enough pages for many chunks, with hubs, dangling pages and blocks.
  std::mt19937 rng(7);
  std::vector<proto::GraphPage> pages;
  const int n = 30000;
  for (int i = 0; i < n; ++i) {
    std::vector<L> links;
    const int k = static_cast<int>(rng() % 12);
    for (int j = 0; j < k; ++j) {
      const int t = (rng() % 4 == 0) ? static_cast<int>(rng() % 50)
                                     : static_cast<int>(rng() % (n + 500));
      links.push_back({absl::StrCat("p", t), static_cast<int>(rng() % 4) - 1});
    }
    pages.push_back(MakePage(absl::StrCat("p", i), links,
                             {{proto::NAVIGATION, static_cast<int>(rng() % 90)},
                              {proto::CONTENT, static_cast<int>(rng() % 900)},
                              {proto::NOISE, static_cast<int>(rng() % 50)}},
                             (rng() % 100) / 100.0,
                             static_cast<int>(rng() % 5)));
  }
  std::unique_ptr<Graph> g1 = Build(pages, GetParam(), 1);
  std::unique_ptr<Graph> g3 = Build(pages, GetParam(), 3);
  EXPECT_EQ(g1->fingerprint, g3->fingerprint);
  const RankState s1 = RunRounds(Ranker(*g1, NoStop(1)), 12);
  for (int threads : {2, 5}) {
    const RankState s = RunRounds(Ranker(*g3, NoStop(threads)), 12);
    ASSERT_EQ(s.chains.size(), s1.chains.size());
    for (size_t c = 0; c < s.chains.size(); ++c) {
      EXPECT_EQ(s.chains[c].x, s1.chains[c].x)
          << s.chains[c].name << " with " << threads << " threads";
      EXPECT_EQ(s.chains[c].last_l1, s1.chains[c].last_l1);
    }
  }
}

TEST_P(AlgorithmTest, ConvergesAndStopsSteppingConvergedChains) {
  std::unique_ptr<Graph> g = Build(TestPages(), GetParam());
  RankOptions o;
  o.epsilon = 1e-6;
  Ranker ranker(*g, o);
  RankState s = ranker.Initial();
  EXPECT_FALSE(ranker.Converged(s));
  while (!ranker.Converged(s) && s.round < 200) ranker.Round(&s);
  EXPECT_TRUE(ranker.Converged(s));
  EXPECT_LT(s.round, 200);
  for (const ChainState& c : s.chains) EXPECT_LT(c.last_l1, 1e-6) << c.name;
  const RankState before = s;
  EXPECT_EQ(ranker.EdgeVisits(s), 0u);
  ranker.Round(&s);
  EXPECT_EQ(s.round, before.round + 1);
  for (size_t c = 0; c < s.chains.size(); ++c) {
    EXPECT_EQ(s.chains[c].x, before.chains[c].x);
  }
}

INSTANTIATE_TEST_SUITE_P(
    All, AlgorithmTest,
    ::testing::Values(Algorithm::kPageRank, Algorithm::kQuarkRank,
                      Algorithm::kBlpr, Algorithm::kTopicPageRank,
                      Algorithm::kUrlRule, Algorithm::kTopicQuarkRank),
    [](const auto& info) {
      std::string s(AlgorithmName(info.param));
      s.erase(std::remove(s.begin(), s.end(), '-'), s.end());
      return s;
    });

TEST(RankTest, PageRankByHand) {
  // a→b, a→c, b→c, c→a; N = 3, d = 0.85, teleport 0.05 each:
  //   a = 0.05 + 0.85·c
  //   b = 0.05 + 0.85·a/2
  //   c = 0.05 + 0.85·(a/2 + b)
  // b = 0.05 + 0.425a; c = 0.0925 + 0.78625a;
  // a = 0.05 + 0.85·(0.0925 + 0.78625a) = 0.128625 + 0.6683125a
  // a = 0.128625/0.3316875 = 0.387793…, b = 0.214812…, c = 0.397395….
  std::vector<proto::GraphPage> pages = {
      MakePage("a", {{"b", -1}, {"c", -1}}, {}, 0, 0),
      MakePage("b", {{"c", -1}}, {}, 0, 0),
      MakePage("c", {{"a", -1}}, {}, 0, 0)};
  std::unique_ptr<Graph> g = Build(pages, Algorithm::kPageRank);
  Ranker ranker(*g, NoStop());
  const RankState s = RunRounds(ranker, 200);
  const double a = 0.128625 / 0.3316875;
  EXPECT_NEAR(ranker.Scores(s)[0], a, 1e-7);
  EXPECT_NEAR(ranker.Scores(s)[1], 0.05 + 0.425 * a, 1e-7);
  EXPECT_NEAR(ranker.Scores(s)[2], 0.0925 + 0.78625 * a, 1e-7);
  EXPECT_EQ(s.chains.size(), 1u);  // pagerank is its own comparison
}

TEST(RankTest, DanglingMassByHand) {
  // a→b, b dangling; N = 2, d = 0.85:
  //   a = 0.075 + 0.85·(b/2)
  //   b = 0.075 + 0.85·(a + b/2)
  // With a + b = 1: a = 0.075 + 0.425(1 − a) → a = 0.5/1.425 = 0.350877…
  std::vector<proto::GraphPage> pages = {MakePage("a", {{"b", -1}}, {}, 0, 0)};
  std::unique_ptr<Graph> g = Build(pages, Algorithm::kPageRank);
  Ranker ranker(*g, NoStop());
  const RankState s = RunRounds(ranker, 200);
  EXPECT_NEAR(ranker.Scores(s)[0], 0.5 / 1.425, 1e-7);
  EXPECT_NEAR(ranker.Scores(s)[1], 1 - 0.5 / 1.425, 1e-7);
}

TEST(RankTest, UrlRuleOneRoundByHand) {
  // T→p, T→q, p→r; |D_url| p 0, q 2, r 1 (factors 1, 1/2, 1). Rows (graph
  // test UrlRuleRowSumsByHand): W(T,p) = 2/3, W(T,q) = 1/3, W(p,r) = 2/3,
  // W(p,q) = 1/3 (q is p's sibling under T); q and r dangling.
  // One round from 1/4 each, d = 0.85: dangling mass 0.5, so every page
  // gets 0.15/4 + 0.85·0.5/4 = 0.14375, plus 0.85 times
  //   T: nothing;  p: x(T)·2/3 = 1/6;  q: x(T)/3 + x(p)/3 = 1/6;
  //   r: x(p)·2/3 = 1/6.
  proto::GraphPage t = MakePage("T", {{"p", -1}, {"q", -1}}, {}, 0, 0);
  proto::GraphPage p = MakePage("p", {{"r", -1}}, {}, 0, 0);
  proto::GraphPage q = MakePage("q", {}, {}, 0, 2);
  proto::GraphPage r = MakePage("r", {}, {}, 0, 1);
  std::unique_ptr<Graph> g = Build({t, p, q, r}, Algorithm::kUrlRule);
  Ranker ranker(*g, NoStop());
  const RankState s = RunRounds(ranker, 1);
  const std::vector<double>& x = ranker.Scores(s);
  EXPECT_NEAR(x[0], 0.14375, 1e-7);
  EXPECT_NEAR(x[1], 0.14375 + 0.85 / 6, 1e-7);
  EXPECT_NEAR(x[2], 0.14375 + 0.85 / 6, 1e-7);
  EXPECT_NEAR(x[3], 0.14375 + 0.85 / 6, 1e-7);
}

TEST(RankTest, QuarkRankSharesAddUpToScore) {
  std::unique_ptr<Graph> g = Build(TestPages(), Algorithm::kQuarkRank);
  Ranker ranker(*g, NoStop());
  const RankState s = RunRounds(ranker, 50);
  const std::vector<double>& x = ranker.Scores(s);
  // What each page hands on: Σ over its out-edges of x(s)·w.
  std::vector<double> handed(g->num_pages, 0.0);
  for (uint32_t t = 0; t < g->num_pages; ++t) {
    for (uint64_t e = g->in_offsets[t]; e < g->in_offsets[t + 1]; ++e) {
      handed[g->in_src[e]] += x[g->in_src[e]] * g->in_weight[e];
    }
  }
  for (uint32_t p = 0; p < g->num_pages; ++p) {
    if (g->out_degree[p] == 0) {
      EXPECT_EQ(handed[p], 0.0);
    } else {
      EXPECT_NEAR(handed[p], x[p], 1e-7 * x[p]) << g->url(p);
    }
  }
  // Page a's shares, by hand: links b (nav 0.5), c, c, a (content 1.5 each),
  // x (noise 0.5), d (none 0.5): Σ = 0.5 + 4.5 + 0.5 + 0.5 = 6.
  const proto::GraphPage a = TestPages()[0];
  const std::vector<double> share =
      QuarkShares(a, {0, 1, 1, 1, 2, -1}, kDefaultQuarkWeights);
  EXPECT_THAT(share, ::testing::ElementsAre(0.5 / 6, 0.25, 0.25, 0.25, 0.5 / 6,
                                            0.5 / 6));
}

TEST(RankTest, BlprBlockScoresMatchDenseBlockChain) {
  const std::vector<proto::GraphPage> pages = TestPages();
  std::unique_ptr<Graph> g = Build(pages, Algorithm::kBlpr);
  const Dense d = Ids(*g);
  // Blocks in record order; W_B = Z·X.
  std::vector<int> page_of;
  std::vector<double> x_of;
  std::vector<std::map<int, std::map<int, double>>> z;
  std::map<int, std::vector<int>> blocks_of_page;
  for (const proto::GraphPage& p : pages) {
    const std::vector<double> x = DenseX(p);
    z.push_back(DenseZ(p, d));
    for (size_t b = 0; b < x.size(); ++b) {
      blocks_of_page[d.id.at(p.url())].push_back(
          static_cast<int>(page_of.size()));
      page_of.push_back(d.id.at(p.url()));
      x_of.push_back(x[b]);
    }
  }
  const int n = static_cast<int>(page_of.size());
  ASSERT_EQ(static_cast<uint64_t>(n), g->num_blocks());
  Matrix wb(n, std::vector<double>(n, 0.0));
  int a = 0;
  for (size_t pi = 0; pi < pages.size(); ++pi) {
    for (int b = 0; b < pages[pi].blocks_size(); ++b, ++a) {
      auto it = z[pi].find(b);
      if (it == z[pi].end()) continue;
      for (const auto& [t, zv] : it->second) {
        for (int k : blocks_of_page[t]) wb[a][k] += zv * x_of[k];
      }
    }
  }
  // b' = ε/n + (1−ε)(W_Bᵀb + G/n), G the mass of rows summing below 1.
  const double eps = 0.15;
  std::vector<double> bs(n, 1.0 / n), next(n);
  for (int round = 0; round < 3000; ++round) {
    double lost = 0;
    for (int i = 0; i < n; ++i) {
      double row = 0;
      for (double v : wb[i]) row += v;
      lost += bs[i] * (1 - row);
    }
    for (int k = 0; k < n; ++k) {
      double in = 0;
      for (int i = 0; i < n; ++i) in += bs[i] * wb[i][k];
      next[k] = eps / n + (1 - eps) * (in + lost / n);
    }
    bs.swap(next);
  }
  Ranker ranker(*g, NoStop());
  const RankState s = RunRounds(ranker, 300);
  const std::vector<double> got = ranker.BlockScores(s);
  ASSERT_EQ(got.size(), bs.size());
  double sum = 0;
  for (int k = 0; k < n; ++k) {
    EXPECT_NEAR(got[k], bs[k], 1e-6) << "block " << k;
    sum += got[k];
  }
  EXPECT_NEAR(sum, 1, 1e-6);
  // The content block of page a (block 1) outranks its noise block.
  EXPECT_GT(got[1], got[2]);
}

TEST(RankTest, BlockScoresOnlyForBlpr) {
  std::unique_ptr<Graph> g = Build(TestPages(), Algorithm::kQuarkRank);
  Ranker ranker(*g, NoStop());
  EXPECT_TRUE(ranker.BlockScores(ranker.Initial()).empty());
}

TEST(RankTest, DampingDefaultsAndOverride) {
  EXPECT_EQ(DefaultDamping(Algorithm::kTopicPageRank), 0.8);
  EXPECT_EQ(DefaultDamping(Algorithm::kQuarkRank), 0.85);
  std::unique_ptr<Graph> g = Build(TestPages(), Algorithm::kPageRank);
  RankOptions o;
  o.damping = 0.5;
  EXPECT_EQ(Ranker(*g, o).damping(), 0.5);
  // d = 0: every page gets the teleport share only.
  o.damping = 0;
  o.epsilon = 0;
  Ranker r(*g, o);
  const RankState s = RunRounds(r, 1);
  for (double v : r.Scores(s)) EXPECT_DOUBLE_EQ(v, 1.0 / 8);
}

TEST(RankTest, EmptyGraph) {
  std::unique_ptr<Graph> g = Build({}, Algorithm::kBlpr);
  Ranker ranker(*g, RankOptions());
  RankState s = ranker.Initial();
  ranker.Round(&s);
  EXPECT_TRUE(ranker.Scores(s).empty());
  EXPECT_TRUE(ranker.Converged(s));  // an L1 change of 0
}

TEST(RankTest, CheckRefusesForeignState) {
  std::unique_ptr<Graph> g = Build(TestPages(), Algorithm::kBlpr);
  Ranker ranker(*g, NoStop());
  RankState s = ranker.Initial();
  EXPECT_TRUE(ranker.Check(s).ok());
  s.chains[0].x.pop_back();
  EXPECT_FALSE(ranker.Check(s).ok());
  s = ranker.Initial();
  s.chains.pop_back();
  EXPECT_FALSE(ranker.Check(s).ok());
}

}  // namespace
}  // namespace fcrawl::ranker
