// The compact page graph the ranker iterates over, built from graph shards.
//
// Building takes two passes. Pass 1 reads the shards, gives every URL (page
// or link target) an id and counts in-links. Pass 2 fills an in-link CSR
// whose size is then known exactly: for quarkrank and blpr it reads the
// shards again to compute each page's weights from its blocks; for the
// others it replays the targets pass 1 logged (4 bytes a link, freed as
// replayed), which is about twice as fast. What survives per link is a
// uint32 source and, for the weighted algorithms, a float weight (url-rule
// keeps an out-link CSR instead of weights); URL strings live once, in a
// chunked arena.
//
// Ids: pages with a record get 0..num_records-1 in the order their records
// are read (shards in graphio::ListShards order, records in file order); link
// targets without a record follow in the order they were first seen. So the ids
// of a graph written by graph_gen are its page numbers.
//
// Policies the tests pin (Readings of hostile or ambiguous input):
// - Reading: the graph is a multigraph. Every GraphLink is an edge, so a
//   page that links a URL twice hands it two shares, and a self-link hands
//   the page a share of its own score; this is what QuarkRank's QuarkSum
//   (links counted per block) and a PageRank over the link list do.
// - Reading: a link target without a record (a URL the crawl never fetched)
//   is kept as a page with no out-links, i.e. dangling, relevance 0
//   (UnknownTargets::kKeep, the default). kDrop removes such links before
//   any weight is computed, as if the page never linked there.
// - Reading: a link whose block index is outside the page's blocks (or past
//   max_blocks_per_page) is treated as a link outside any block (-1) and
//   counted in GraphStats::bad_block_links; the rest of the page is sound.
// - A second record for a URL already read is ignored (first one wins) and
//   counted; a record with an empty URL is skipped; links past
//   max_links_per_page and blocks past max_blocks_per_page are dropped.
// - A damaged shard (bad magic, truncated, unparsable record, record over
//   max_record_bytes) fails the build with the file and record named.
#ifndef FCRAWL_RANKER_GRAPH_H_
#define FCRAWL_RANKER_GRAPH_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "core/parallel.h"
#include "graphio/shard.h"
#include "proto/graph.pb.h"
#include "ranker/page_weights.h"
#include "ranker/url_table.h"

namespace fcrawl::ranker {

// Pages per chunk of the parallel loops over the graph (graph building and
// every round, core/parallel.h): large enough that a chunk costs far more
// than taking it from the shared counter, small enough that a hub page's
// in-links (which make one chunk slow) do not leave the other threads idle
// for long. The chunks are also the units of ranker-mpi's page slices.
inline constexpr uint32_t kChunkPages = 4096;

// The chunks of kChunkPages that cover `num_pages` pages.
inline size_t PageChunks(uint64_t num_pages) {
  return parallel::NumChunks(num_pages, kChunkPages);
}

// kTopicQuarkRank is QuarkRank as a topic-sensitive surfer (rank.cc): it
// follows a link with probability ∝ QW(block)·relevance(target) and jumps
// to a page with probability ∝ relevance(page). Listed last: the graph
// cache stores the value as a number.
enum class Algorithm {
  kPageRank,
  kQuarkRank,
  kBlpr,
  kTopicPageRank,
  kUrlRule,
  kTopicQuarkRank
};

absl::string_view AlgorithmName(Algorithm a);
absl::StatusOr<Algorithm> ParseAlgorithm(absl::string_view name);

enum class UnknownTargets { kKeep, kDrop };

struct GraphOptions {
  Algorithm algorithm = Algorithm::kPageRank;
  QuarkWeights quark_weights = kDefaultQuarkWeights;
  // QuarkRank's weight of a link in a site-template block
  // (GraphBlock.site_template: a menu, footer or banner the site repeats on
  // most pages), whatever its type: 0 drops those links, so a page linked
  // only from every page's footer gains nothing from it.
  double template_weight = 0;
  // Topic-PageRank ([MMTOPIC] 3.7 and 3.11).
  double topic_omega = 0.5;
  double topic_lambda = 0.85;
  UnknownTargets unknown = UnknownTargets::kKeep;
  int64_t max_links_per_page = 100000;
  int64_t max_blocks_per_page = 100000;
  size_t max_record_bytes = graphio::kDefaultMaxRecordBytes;
  int threads = 0;  // 0: all cores
};

// The options that change the graph's weights, as one canonical string (for
// checkpoints and reports).
std::string GraphParams(const GraphOptions& options);

struct GraphStats {
  int64_t shards = 0;
  int64_t records = 0;           // page records read
  int64_t duplicate_pages = 0;   // later records of a URL, ignored
  int64_t invalid_pages = 0;     // records with an empty URL, skipped
  int64_t links_read = 0;        // links of the pages used
  int64_t links_over_limit = 0;  // past max_links_per_page
  int64_t links_empty_url = 0;
  int64_t links_dropped_unknown = 0;  // UnknownTargets::kDrop
  int64_t links = 0;                  // edges in the graph
  int64_t self_links = 0;
  int64_t duplicate_links = 0;  // repeats of a (page, target) pair
  int64_t unknown_pages = 0;    // targets without a record kept as pages
  int64_t bad_block_links = 0;  // block index out of range, taken as -1
  int64_t blocks = 0;
  int64_t blocks_over_limit = 0;
  // Other URLs of a page (GraphPage.aliases) its links reach it by; an
  // alias that has a record of its own or names two pages is not one.
  int64_t aliases = 0;
};

// Passive data: the algorithms read these arrays directly. graph_cache.cc
// saves every field: a new one must be saved there too (raise its kVersion).
struct Graph {
  Algorithm algorithm = Algorithm::kPageRank;
  std::string params;  // GraphParams() of the options it was built with
  uint32_t num_pages = 0;
  uint32_t num_records = 0;  // ids [0, num_records) have a record
  GraphStats stats;
  uint64_t fingerprint = 0;  // of the structure and weights; see Fingerprint

  UrlTable urls;                     // by the id of pass 1
  std::vector<uint32_t> url_of;      // page id -> UrlTable id
  std::vector<float> relevance;      // [0, 1]; 0 for unknown pages
  std::vector<uint32_t> out_degree;  // edges out of the page

  // In-link CSR: the sources of page t's in-edges are
  // in_src[in_offsets[t] .. in_offsets[t+1]), in record order.
  std::vector<uint64_t> in_offsets;
  std::vector<uint32_t> in_src;
  // Row-normalised transition weight of each in-edge (quarkrank, blpr,
  // topic-pagerank); empty when every edge out of a page weighs the same.
  std::vector<float> in_weight;

  // Weighted algorithms (quarkrank, blpr, topic-pagerank): pages whose
  // weights sum to 0 (dangling under the algorithm though they may have
  // links). Plain PageRank's dangling pages are those of out_degree 0.
  std::vector<bool> zero_row;

  // url-rule ([MMTOPIC] formula 4.6): out-link CSR, 1/max(1, |D_url|) per
  // page, and Q(p) = Σ over parents T of m_T(p)², m_T(p) the number of T's
  // links to p (see rank.cc).
  std::vector<uint64_t> out_offsets;
  std::vector<uint32_t> out_dst;
  std::vector<float> inv_distance;
  std::vector<double> sibling_q;
  std::vector<float> url_rule_scale;  // 1/Z(q), 0 for dangling pages

  // BLPR: per record page its blocks' importance X (document order of the
  // record's blocks) and types; W_P's row sums before normalisation; and
  // c(p) = Σ over blocks b linking to p of Z(b, p) = 1/s_b.
  std::vector<uint64_t> block_offsets;  // num_records + 1
  std::vector<float> block_x;
  std::vector<uint8_t> block_type;
  std::vector<float> blpr_row_sum;
  std::vector<float> blpr_in_z;

  // In-edges of target t sit at in_src[in_offsets[t] − in_edge_base ..]
  // (in_weight alike), out-edges of s at out_dst[out_offsets[s] −
  // out_edge_base ..]: the bases are 0 unless KeepEdgesOf dropped the edges
  // of other pages.
  uint64_t in_edge_base = 0;
  uint64_t out_edge_base = 0;
  bool edges_trimmed = false;  // KeepEdgesOf ran

  // Frees the edges an MPI process does not visit: the in-edges of targets
  // and the out-edges (url-rule) of sources outside [begin, end), its slice.
  // Rounds then step only that slice (Ranker with the same slice); counts
  // and the fingerprint must be read before. Call once, on a whole graph.
  void KeepEdgesOf(uint32_t begin, uint32_t end);

  // Edges held (all of them unless KeepEdgesOf was called).
  uint64_t num_edges() const { return in_src.size(); }
  uint64_t num_blocks() const { return block_x.size(); }
  bool has_blocks(uint32_t page) const {
    return page < num_records && !block_offsets.empty() &&
           block_offsets[page + 1] > block_offsets[page];
  }
  absl::string_view url(uint32_t page) const { return urls.Get(url_of[page]); }
  // Bytes held by the arrays above (what the ranker keeps per link).
  size_t MemoryBytes() const;
  // Frees the edge arrays once no more rounds will run (the outputs need
  // only the per-page and per-block arrays).
  void DropEdges();
};

// Builds the graph of `shard_paths` (in that order; see graphio::ListShards).
absl::StatusOr<std::unique_ptr<Graph>> BuildGraph(
    const std::vector<std::string>& shard_paths, const GraphOptions& options);

// The same from pages in memory (tests): they are written to no file, but
// go through the same code as a shard's records.
absl::StatusOr<std::unique_ptr<Graph>> BuildGraphFromPages(
    const std::vector<proto::GraphPage>& pages, const GraphOptions& options);

}  // namespace fcrawl::ranker

#endif  // FCRAWL_RANKER_GRAPH_H_
