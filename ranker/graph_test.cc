#include "ranker/graph.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/test_temp_dir.h"
#include "gmock/gmock.h"
#include "graphio/shard.h"
#include "gtest/gtest.h"

namespace fcrawl::ranker {
namespace {

using ::fcrawl::graphio::ListShards;
using ::fcrawl::graphio::ShardWriter;
using ::testing::DoubleEq;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

struct L {
  std::string target;
  int block;
};

proto::GraphPage MakePage(
    const std::string& url, std::vector<L> links,
    std::vector<std::pair<proto::BlockType, int>> blocks = {},
    double relevance = 0) {
  proto::GraphPage p;
  p.set_url(url);
  p.set_relevance(relevance);
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

std::unique_ptr<Graph> Build(const std::vector<proto::GraphPage>& pages,
                             GraphOptions o = {}) {
  absl::StatusOr<std::unique_ptr<Graph>> g = BuildGraphFromPages(pages, o);
  EXPECT_TRUE(g.ok()) << g.status();
  return g.ok() ? std::move(*g) : nullptr;
}

std::vector<std::string> Urls(const Graph& g) {
  std::vector<std::string> u;
  for (uint32_t p = 0; p < g.num_pages; ++p) u.emplace_back(g.url(p));
  return u;
}

// The sources of page t's in-edges.
std::vector<uint32_t> In(const Graph& g, uint32_t t) {
  return std::vector<uint32_t>(g.in_src.begin() + g.in_offsets[t],
                               g.in_src.begin() + g.in_offsets[t + 1]);
}

TEST(GraphTest, RecordsFirstThenUnknownTargetsInFirstSeenOrder) {
  std::vector<proto::GraphPage> pages = {
      MakePage("a", {{"x", -1}, {"b", -1}}),
      MakePage("b", {{"y", -1}, {"x", -1}, {"a", -1}}),
  };
  std::unique_ptr<Graph> g = Build(pages);
  EXPECT_THAT(Urls(*g), ElementsAre("a", "b", "x", "y"));
  EXPECT_EQ(g->num_records, 2u);
  EXPECT_EQ(g->num_pages, 4u);
  EXPECT_EQ(g->stats.unknown_pages, 2);
  EXPECT_EQ(g->num_edges(), 5u);
  EXPECT_THAT(g->out_degree, ElementsAre(2, 3, 0, 0));
  EXPECT_THAT(In(*g, 2), ElementsAre(0, 1));  // x, in record order
  EXPECT_THAT(In(*g, 0), ElementsAre(1));
  // Unknown pages are dangling.
  EXPECT_EQ(g->out_degree[2], 0u);
}

TEST(GraphTest, DropUnknownTargets) {
  std::vector<proto::GraphPage> pages = {
      MakePage("a", {{"x", -1}, {"b", -1}}),
      MakePage("b", {{"y", -1}, {"x", -1}, {"a", -1}}),
  };
  GraphOptions o;
  o.unknown = UnknownTargets::kDrop;
  std::unique_ptr<Graph> g = Build(pages, o);
  EXPECT_THAT(Urls(*g), ElementsAre("a", "b"));
  EXPECT_EQ(g->num_edges(), 2u);
  EXPECT_EQ(g->stats.links_dropped_unknown, 3);
  EXPECT_THAT(g->out_degree, ElementsAre(1, 1));
}

// Links naming another URL of a page (its aliases: URLs whose page declared
// it canonical) reach the page; an alias with a record of its own, or
// claimed by two pages, is not one. Both build paths (PageRank replays pass
// 1, QuarkRank reads the shards again).
TEST(GraphTest, AliasesAreOtherNamesOfTheirPage) {
  for (Algorithm algorithm : {Algorithm::kPageRank, Algorithm::kQuarkRank}) {
    proto::GraphPage a = MakePage("a", {{"b", 0}});
    a.add_aliases("a2");
    a.add_aliases("a3");
    a.add_aliases("a2");  // listed twice: one alias
    a.add_aliases("b");   // b has a record of its own
    a.add_aliases("x");   // c claims x too
    a.add_aliases("a");   // itself
    proto::GraphPage c = MakePage("c", {{"a3", 0}, {"x", 0}});
    c.add_aliases("x");
    std::vector<proto::GraphPage> pages = {
        a, MakePage("b", {{"a2", 0}, {"a", 0}, {"x", 0}}), c};
    for (proto::GraphPage& p : pages) {
      proto::GraphBlock* blk = p.add_blocks();
      blk->set_type(proto::CONTENT);
      blk->set_text_length(100);
    }
    GraphOptions o;
    o.algorithm = algorithm;
    std::unique_ptr<Graph> g = Build(pages, o);
    ASSERT_NE(g, nullptr);
    SCOPED_TRACE(AlgorithmName(algorithm));
    EXPECT_THAT(Urls(*g), ElementsAre("a", "b", "c", "x"));
    EXPECT_EQ(g->stats.aliases, 2);  // a2, a3
    EXPECT_EQ(g->stats.unknown_pages, 1);
    EXPECT_EQ(g->num_edges(), 6u);
    EXPECT_THAT(In(*g, 0), ElementsAre(1, 1, 2));  // a2 and a from b, a3
    EXPECT_THAT(In(*g, 3), ElementsAre(1, 2));     // x stays unknown
    EXPECT_THAT(g->out_degree, ElementsAre(1, 3, 2, 0));
  }
}

// Reading pinned: self-links and repeated links are kept as separate edges
// (a multigraph).
TEST(GraphTest, SelfAndDuplicateLinksAreKept) {
  std::vector<proto::GraphPage> pages = {
      MakePage("a", {{"a", -1}, {"b", -1}, {"b", -1}, {"b", -1}}),
      MakePage("b", {}),
  };
  std::unique_ptr<Graph> g = Build(pages);
  EXPECT_EQ(g->num_edges(), 4u);
  EXPECT_THAT(In(*g, 1), ElementsAre(0, 0, 0));
  EXPECT_THAT(In(*g, 0), ElementsAre(0));
  EXPECT_EQ(g->stats.self_links, 1);
  EXPECT_EQ(g->stats.duplicate_links, 2);
  EXPECT_EQ(g->out_degree[0], 4u);
}

// Reading pinned: a block index out of range is a link outside any block.
TEST(GraphTest, BadBlockIndexBecomesNoBlock) {
  std::vector<proto::GraphPage> pages = {
      MakePage("a", {{"b", 0}, {"c", 7}, {"d", -5}, {"e", 1}},
               {{proto::CONTENT, 10}, {proto::NOISE, 10}})};
  GraphOptions o;
  o.algorithm = Algorithm::kQuarkRank;
  std::unique_ptr<Graph> g = Build(pages, o);
  EXPECT_EQ(g->stats.bad_block_links, 2);
  // Weights: content 1.5, none 0.5, none 0.5, noise 0.5 over a total of 3.
  EXPECT_FLOAT_EQ(g->in_weight[g->in_offsets[1]], 1.5 / 3);
  EXPECT_FLOAT_EQ(g->in_weight[g->in_offsets[2]], 0.5 / 3);
  EXPECT_FLOAT_EQ(g->in_weight[g->in_offsets[3]], 0.5 / 3);
  EXPECT_FLOAT_EQ(g->in_weight[g->in_offsets[4]], 0.5 / 3);
}

TEST(GraphTest, DuplicateRecordFirstWins) {
  std::vector<proto::GraphPage> pages = {
      MakePage("a", {{"b", -1}}, {}, 0.5),
      MakePage("b", {}),
      MakePage("a", {{"c", -1}, {"d", -1}}, {}, 0.9),
  };
  std::unique_ptr<Graph> g = Build(pages);
  EXPECT_EQ(g->stats.duplicate_pages, 1);
  // The ignored record's links are not read at all.
  EXPECT_THAT(Urls(*g), ElementsAre("a", "b"));
  EXPECT_EQ(g->num_edges(), 1u);
  EXPECT_FLOAT_EQ(g->relevance[0], 0.5f);
}

TEST(GraphTest, EmptyUrlsAreSkipped) {
  std::vector<proto::GraphPage> pages = {
      MakePage("", {{"b", -1}}),
      MakePage("a", {{"", -1}, {"b", -1}}),
  };
  std::unique_ptr<Graph> g = Build(pages);
  EXPECT_EQ(g->stats.invalid_pages, 1);
  EXPECT_EQ(g->stats.links_empty_url, 1);
  EXPECT_THAT(Urls(*g), ElementsAre("a", "b"));
  EXPECT_EQ(g->num_edges(), 1u);
}

TEST(GraphTest, LinkAndBlockLimits) {
  std::vector<L> links;
  for (int i = 0; i < 10; ++i) links.push_back({absl::StrCat("t", i), i});
  std::vector<std::pair<proto::BlockType, int>> blocks(10, {proto::CONTENT, 5});
  GraphOptions o;
  o.algorithm = Algorithm::kBlpr;
  o.max_links_per_page = 4;
  o.max_blocks_per_page = 2;
  std::unique_ptr<Graph> g = Build({MakePage("a", links, blocks)}, o);
  EXPECT_EQ(g->num_edges(), 4u);
  EXPECT_EQ(g->stats.links_over_limit, 6);
  EXPECT_EQ(g->stats.blocks_over_limit, 8);
  EXPECT_EQ(g->num_blocks(), 2u);
  // Links 2 and 3 point past the two blocks kept.
  EXPECT_EQ(g->stats.bad_block_links, 2);
}

TEST(GraphTest, HostileNumbers) {
  proto::GraphPage p = MakePage("a", {{"b", 0}}, {{proto::CONTENT, -50}});
  p.set_relevance(std::nan(""));
  p.set_url_rule_distance(-3);
  proto::GraphPage q = MakePage("b", {}, {}, 7.5);
  q.mutable_blocks()->Add()->set_type(static_cast<proto::BlockType>(99));
  GraphOptions o;
  o.algorithm = Algorithm::kUrlRule;
  std::unique_ptr<Graph> g = Build({p, q}, o);
  EXPECT_EQ(g->relevance[0], 0.0f);
  EXPECT_EQ(g->relevance[1], 1.0f);
  EXPECT_EQ(g->inv_distance[0], 1.0f);
  o.algorithm = Algorithm::kBlpr;
  g = Build({p, q}, o);
  EXPECT_EQ(g->block_type[1], 0);  // unknown type
  // Negative size counts as 0: a page of zero-size blocks gets uniform X.
  EXPECT_EQ(g->block_x[0], 1.0f);
}

TEST(GraphTest, QuarkSharesByHand) {
  // Blocks: 0 content, 1 navigation. Links: two in content, one in
  // navigation, one outside any block.
  // QW: 1.5, 1.5, 0.5, 0.5 (unspecified); Σ_j QuarkSum_j·QW_j = 2·1.5 +
  // 1·0.5 + 1·0.5 = 4; shares 1.5/4 = .375, .375, .125, .125.
  proto::GraphPage p =
      MakePage("a", {{"b", 0}, {"c", 0}, {"d", 1}, {"e", -1}},
               {{proto::CONTENT, 100}, {proto::NAVIGATION, 20}});
  std::vector<double> s = QuarkShares(p, {0, 0, 1, -1}, kDefaultQuarkWeights);
  EXPECT_THAT(s, ElementsAre(0.375, 0.375, 0.125, 0.125));
  // All weights 0: nothing to hand on.
  QuarkWeights zero = {0, 0, 0, 0, 0};
  EXPECT_THAT(QuarkShares(p, {0, 0, 1, -1}, zero), ElementsAre(0, 0, 0, 0));
  EXPECT_TRUE(QuarkShares(p, {}, kDefaultQuarkWeights).empty());
  // The navigation block recurs on most pages of the site: its link weighs
  // the template weight, 0 by default → 1.5/3.5, 1.5/3.5, 0, .5/3.5.
  p.mutable_blocks(1)->set_site_template(true);
  s = QuarkShares(p, {0, 0, 1, -1}, kDefaultQuarkWeights);
  EXPECT_THAT(s, ElementsAre(DoubleEq(1.5 / 3.5), DoubleEq(1.5 / 3.5), 0,
                             DoubleEq(0.5 / 3.5)));
  // Template weight .5 gives back the shares of an ordinary navigation block.
  EXPECT_THAT(QuarkShares(p, {0, 0, 1, -1}, kDefaultQuarkWeights, 0.5),
              ElementsAre(0.375, 0.375, 0.125, 0.125));
}

TEST(GraphTest, BlockImportanceByHand) {
  // Three blocks of 100, 200, 100 characters at ranks 0, 1, 2: centre 1,
  // distances |r−1|+1 = 2, 1, 2; f = 50, 200, 50 over 300:
  // X = 1/6, 2/3, 1/6.
  proto::GraphPage p = MakePage(
      "a", {},
      {{proto::NAVIGATION, 100}, {proto::CONTENT, 200}, {proto::NOISE, 100}});
  std::vector<double> x = BlockImportance(p, 3);
  ASSERT_EQ(x.size(), 3u);
  EXPECT_DOUBLE_EQ(x[0], 1.0 / 6);
  EXPECT_DOUBLE_EQ(x[1], 2.0 / 3);
  EXPECT_DOUBLE_EQ(x[2], 1.0 / 6);
  // Position decides, not the index: block 2 placed first.
  p.mutable_blocks(0)->set_position(1);
  p.mutable_blocks(1)->set_position(2);
  p.mutable_blocks(2)->set_position(0);
  // Ranks: block 2 -> 0, block 0 -> 1, block 1 -> 2; f = 100/1 = 100 for
  // block 0, 200/2 = 100 for block 1, 100/2 = 50 for block 2; total 250.
  x = BlockImportance(p, 3);
  EXPECT_DOUBLE_EQ(x[0], 0.4);
  EXPECT_DOUBLE_EQ(x[1], 0.4);
  EXPECT_DOUBLE_EQ(x[2], 0.2);
  // Two blocks: centre 0.5, distances 1.5 each; f ∝ size: 100 and 300.
  proto::GraphPage two =
      MakePage("b", {}, {{proto::CONTENT, 100}, {proto::CONTENT, 300}});
  x = BlockImportance(two, 2);
  EXPECT_DOUBLE_EQ(x[0], 0.25);
  EXPECT_DOUBLE_EQ(x[1], 0.75);
  // Only the first num_blocks blocks count.
  x = BlockImportance(two, 1);
  EXPECT_THAT(x, ElementsAre(1.0));
  // All empty: uniform.
  proto::GraphPage empty =
      MakePage("c", {}, {{proto::CONTENT, 0}, {proto::NOISE, 0}});
  EXPECT_THAT(BlockImportance(empty, 2), ElementsAre(0.5, 0.5));
}

TEST(GraphTest, BlprWeightsByHand) {
  // Blocks (ranks 0,1,2; sizes 100,200,100): X = 1/6, 2/3, 1/6.
  // Block 0 links b, c (s=2); block 1 links b twice (s=1); block 2 links
  // nothing; one link outside any block (to d).
  // W_P row: b = X0/2 + X1 = 1/12 + 2/3 = 3/4; c = X0/2 = 1/12; d = 0.
  // Row sum 5/6; M: b = (3/4)/(5/6) = 0.9 split as 0.1 (block 0) + 0.8
  // (block 1's first link) + 0 (its repeat); c = 0.1.
  proto::GraphPage p = MakePage(
      "a", {{"b", 0}, {"c", 0}, {"b", 1}, {"b", 1}, {"d", -1}},
      {{proto::NAVIGATION, 100}, {proto::CONTENT, 200}, {proto::NOISE, 100}});
  GraphOptions o;
  o.algorithm = Algorithm::kBlpr;
  std::unique_ptr<Graph> g = Build({p}, o);
  ASSERT_THAT(Urls(*g), ElementsAre("a", "b", "c", "d"));
  EXPECT_FLOAT_EQ(g->blpr_row_sum[0], 5.0f / 6);
  std::vector<float> wb(g->in_weight.begin() + g->in_offsets[1],
                        g->in_weight.begin() + g->in_offsets[2]);
  ASSERT_EQ(wb.size(), 3u);
  EXPECT_FLOAT_EQ(wb[0], 0.1f);
  EXPECT_FLOAT_EQ(wb[1], 0.8f);
  EXPECT_FLOAT_EQ(wb[2], 0.0f);
  EXPECT_FLOAT_EQ(g->in_weight[g->in_offsets[2]], 0.1f);
  EXPECT_FLOAT_EQ(g->in_weight[g->in_offsets[3]], 0.0f);
  // c(p) = Σ_b Z(b, p): b gets 1/2 + 1, c gets 1/2.
  EXPECT_FLOAT_EQ(g->blpr_in_z[1], 1.5f);
  EXPECT_FLOAT_EQ(g->blpr_in_z[2], 0.5f);
  EXPECT_FLOAT_EQ(g->blpr_in_z[3], 0.0f);
  EXPECT_FALSE(g->zero_row[0]);
  EXPECT_TRUE(g->has_blocks(0));
  EXPECT_FALSE(g->has_blocks(1));
}

TEST(GraphTest, TopicPageRankWeightsByHand) {
  // a→b, a→c, b→c; relevance a 0.9, b 0.6, c 0.3; ω = 0.5, λ = 0.85.
  // Sim_content = relevance. a's links: Σ = 0.6 + 0.3 = 0.9, so the content
  // half gives b 2/3 and c 1/3.
  // Sim_link(b) = 0.15·mean in(0.9) + 0.85·mean out(0.3) = 0.135 + 0.255
  //             = 0.39;
  // Sim_link(c) = 0.15·mean(0.9, 0.6) + 0.85·0 (no out-links) = 0.1125.
  // a's link half: Σ = 0.5025; b 0.39/0.5025, c 0.1125/0.5025.
  // w(a→b) = 0.5·2/3 + 0.5·0.39/0.5025 = 0.7213930…
  // w(a→c) = 0.5·1/3 + 0.5·0.1125/0.5025 = 0.2786069…
  // w(b→c) = 0.5·1 + 0.5·1 = 1.
  std::vector<proto::GraphPage> pages = {
      MakePage("a", {{"b", -1}, {"c", -1}}, {}, 0.9),
      MakePage("b", {{"c", -1}}, {}, 0.6), MakePage("c", {}, {}, 0.3)};
  GraphOptions o;
  o.algorithm = Algorithm::kTopicPageRank;
  std::unique_ptr<Graph> g = Build(pages, o);
  ASSERT_THAT(Urls(*g), ElementsAre("a", "b", "c"));
  EXPECT_FLOAT_EQ(g->in_weight[g->in_offsets[1]],
                  0.5 * 2 / 3 + 0.5 * 0.39 / 0.5025);
  // c's in-edges in record order: from a, then from b.
  EXPECT_FLOAT_EQ(g->in_weight[g->in_offsets[2]],
                  0.5 / 3 + 0.5 * 0.1125 / 0.5025);
  EXPECT_FLOAT_EQ(g->in_weight[g->in_offsets[2] + 1], 1.0f);
  EXPECT_FALSE(g->zero_row[0]);
  EXPECT_TRUE(g->zero_row[2]);
}

TEST(GraphTest, TopicPageRankWithoutRelevanceSplitsEvenly) {
  // No relevance anywhere: both halves of 3.7 have a zero sum, and each
  // link gets 1/C = 1/2.
  std::vector<proto::GraphPage> pages = {MakePage("a", {{"b", -1}, {"c", -1}}),
                                         MakePage("b", {}), MakePage("c", {})};
  GraphOptions o;
  o.algorithm = Algorithm::kTopicPageRank;
  std::unique_ptr<Graph> g = Build(pages, o);
  EXPECT_FLOAT_EQ(g->in_weight[g->in_offsets[1]], 0.5f);
  EXPECT_FLOAT_EQ(g->in_weight[g->in_offsets[2]], 0.5f);
}

TEST(GraphTest, UrlRuleRowSumsByHand) {
  // T→p, T→q, p→r; |D_url|: p 0 (factor 1), q 2 (1/2), r 1 (1).
  // Row T: children p (1) and q (1/2): Z = 1.5. Row p: child r (1) and
  // sibling q under T (1/2): Z = 1.5. q and r have no out-links: dangling.
  proto::GraphPage t = MakePage("T", {{"p", -1}, {"q", -1}});
  proto::GraphPage p = MakePage("p", {{"r", -1}});
  proto::GraphPage q = MakePage("q", {});
  proto::GraphPage r = MakePage("r", {});
  q.set_url_rule_distance(2);
  r.set_url_rule_distance(1);
  GraphOptions o;
  o.algorithm = Algorithm::kUrlRule;
  std::unique_ptr<Graph> g = Build({t, p, q, r}, o);
  EXPECT_FLOAT_EQ(g->url_rule_scale[0], 1 / 1.5f);
  EXPECT_FLOAT_EQ(g->url_rule_scale[1], 1 / 1.5f);
  EXPECT_EQ(g->url_rule_scale[2], 0.0f);
  EXPECT_EQ(g->url_rule_scale[3], 0.0f);
  EXPECT_FLOAT_EQ(g->inv_distance[2], 0.5f);
  EXPECT_DOUBLE_EQ(g->sibling_q[1], 1.0);  // T links p once: 1²
}

TEST(GraphTest, BlprPageWithOnlyUnblockedLinksIsDangling) {
  proto::GraphPage p = MakePage("a", {{"b", -1}}, {{proto::CONTENT, 10}});
  GraphOptions o;
  o.algorithm = Algorithm::kBlpr;
  std::unique_ptr<Graph> g = Build({p}, o);
  EXPECT_TRUE(g->zero_row[0]);
  EXPECT_EQ(g->out_degree[0], 1u);  // plain PageRank still follows it
}

// Pass 2 replays pass 1's targets for pagerank and reads the shards again
// for quarkrank: the same edges either way, also when dropping unknowns.
TEST(GraphTest, BothPassTwoPathsGiveTheSameEdges) {
  std::vector<proto::GraphPage> pages;
  for (int i = 0; i < 50; ++i) {
    std::vector<L> links;
    for (int k = 0; k < i % 7; ++k) {
      links.push_back({absl::StrCat("p", (i * 31 + k * 17) % 70), k % 3 - 1});
    }
    links.push_back({"", 0});
    pages.push_back(MakePage(absl::StrCat("p", i), links,
                             {{proto::CONTENT, 10}, {proto::NOISE, 5}}));
  }
  pages.push_back(pages[3]);  // a duplicate record
  for (UnknownTargets unknown :
       {UnknownTargets::kKeep, UnknownTargets::kDrop}) {
    GraphOptions o;
    o.unknown = unknown;
    std::unique_ptr<Graph> a = Build(pages, o);
    o.algorithm = Algorithm::kQuarkRank;
    std::unique_ptr<Graph> b = Build(pages, o);
    EXPECT_EQ(Urls(*a), Urls(*b));
    EXPECT_EQ(a->in_offsets, b->in_offsets);
    EXPECT_EQ(a->in_src, b->in_src);
    EXPECT_EQ(a->out_degree, b->out_degree);
    EXPECT_EQ(a->stats.self_links, b->stats.self_links);
    EXPECT_EQ(a->stats.duplicate_links, b->stats.duplicate_links);
    EXPECT_EQ(a->stats.links_dropped_unknown, b->stats.links_dropped_unknown);
    EXPECT_EQ(a->stats.bad_block_links, b->stats.bad_block_links);
    EXPECT_EQ(a->stats.duplicate_pages, 1);
    EXPECT_GT(a->num_edges(), 100u);
    if (unknown == UnknownTargets::kDrop) {
      EXPECT_GT(a->stats.links_dropped_unknown, 0);
    }
  }
}

TEST(GraphTest, FingerprintFollowsGraphAndWeights) {
  std::vector<proto::GraphPage> pages = {
      MakePage("a", {{"b", 0}}, {{proto::CONTENT, 10}}),
      MakePage("b", {{"a", -1}})};
  GraphOptions o;
  o.algorithm = Algorithm::kQuarkRank;
  const uint64_t f1 = Build(pages, o)->fingerprint;
  EXPECT_EQ(Build(pages, o)->fingerprint, f1);
  pages[1].mutable_links(0)->set_target_url("c");
  EXPECT_NE(Build(pages, o)->fingerprint, f1);
  pages[1].mutable_links(0)->set_target_url("a");
  EXPECT_EQ(Build(pages, o)->fingerprint, f1);
  o.quark_weights[1] = 2;
  EXPECT_NE(Build(pages, o)->fingerprint, f1);
}

TEST(GraphTest, RejectsBadOptions) {
  GraphOptions o;
  o.quark_weights[2] = -1;
  EXPECT_FALSE(BuildGraphFromPages({}, o).ok());
  o = GraphOptions();
  o.topic_omega = 2;
  EXPECT_FALSE(BuildGraphFromPages({}, o).ok());
}

TEST(GraphTest, EmptyInput) {
  std::unique_ptr<Graph> g = Build({});
  EXPECT_EQ(g->num_pages, 0u);
  EXPECT_EQ(g->num_edges(), 0u);
}

TEST(GraphTest, FromShardsAndCorruptShard) {
  file::TestTempDir tmp_dir;
  const std::string dir = tmp_dir.path();
  for (int s = 0; s < 2; ++s) {
    ShardWriter w;
    ASSERT_TRUE(w.Open(absl::StrCat(dir, "/graph-w-", s, ".fcg"), "w").ok());
    for (int i = 0; i < 3; ++i) {
      const std::string url = absl::StrCat("p", s * 3 + i);
      ASSERT_TRUE(
          w.Add(MakePage(url, {{absl::StrCat("p", (s * 3 + i + 1) % 6), -1}}))
              .ok());
    }
    ASSERT_TRUE(w.Close().ok());
  }
  absl::StatusOr<std::vector<std::string>> paths = ListShards({dir});
  ASSERT_TRUE(paths.ok());
  absl::StatusOr<std::unique_ptr<Graph>> g = BuildGraph(*paths, {});
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_THAT(Urls(**g), ElementsAre("p0", "p1", "p2", "p3", "p4", "p5"));
  EXPECT_EQ((*g)->stats.shards, 2);
  EXPECT_EQ((*g)->num_edges(), 6u);
  // Cut the second shard short.
  const std::string second = dir + "/graph-w-1.fcg";
  std::filesystem::resize_file(second, std::filesystem::file_size(second) - 3);
  g = BuildGraph(*paths, {});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.status().message(), HasSubstr(second));
  EXPECT_THAT(g.status().message(), HasSubstr("record"));
}

TEST(GraphTest, MemoryPerLink) {
  // 2,000 pages with 20 links each: the per-link arrays dominate.
  std::vector<proto::GraphPage> pages;
  for (int i = 0; i < 2000; ++i) {
    std::vector<L> links;
    for (int k = 0; k < 20; ++k) {
      links.push_back(
          {absl::StrCat("http://h.example/", (i * 7 + k * 13) % 2000), 0});
    }
    pages.push_back(MakePage(absl::StrCat("http://h.example/", i), links,
                             {{proto::CONTENT, 10}}));
  }
  GraphOptions o;
  o.algorithm = Algorithm::kQuarkRank;
  std::unique_ptr<Graph> g = Build(pages, o);
  ASSERT_EQ(g->num_edges(), 40000u);
  // 8 bytes per edge plus ~40 per page and the URL chunk (16 MiB here, as
  // the table allocates whole chunks): without the chunk well under 16.
  const size_t without_urls = g->MemoryBytes() - g->urls.MemoryBytes();
  EXPECT_LT(static_cast<double>(without_urls) / g->num_edges(), 16.0);
}

}  // namespace
}  // namespace fcrawl::ranker
