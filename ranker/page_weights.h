// How a page's weight is split among its links and blocks, for QuarkRank
// ([QUARK] §5.1) and BLPR (Cai et al.): per-page arithmetic on a
// proto::GraphPage, no graph state. The graph builder (graph.cc) fills its
// edge weights and X rows with these.
#ifndef FCRAWL_RANKER_PAGE_WEIGHTS_H_
#define FCRAWL_RANKER_PAGE_WEIGHTS_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "proto/graph.pb.h"

namespace fcrawl::ranker {

// QW per block type, indexed by proto::BlockType; index 0
// (BLOCK_TYPE_UNSPECIFIED) also serves links outside any block and block
// types this build does not know.
using QuarkWeights = std::array<double, 5>;
inline constexpr QuarkWeights kDefaultQuarkWeights = {0.5, 1.5, 0.5, 0.5, 0.5};

// QuarkRank ([QUARK] §5.1): the fraction of a page's score that each of its
// links receives, QW_i / Σ_j QuarkSum_j·QW_j, QW_i the weight of the type of
// the link's block. `link_blocks[i]` is the block of link i, already checked
// (-1: none); a link in a site-template block weighs `template_weight`
// instead. All zero when the denominator is 0 (the page is dangling).
std::vector<double> QuarkShares(const proto::GraphPage& page,
                                absl::Span<const int32_t> link_blocks,
                                const QuarkWeights& weights,
                                double template_weight = 0);

// BLPR's X row of a page (Cai et al.; docs/papers.md "Block-level PageRank"):
// f(b) = β·size(b)/distance(b, page centre), summing to 1 over the first
// `num_blocks` blocks.
std::vector<double> BlockImportance(const proto::GraphPage& page,
                                    size_t num_blocks);

}  // namespace fcrawl::ranker

#endif  // FCRAWL_RANKER_PAGE_WEIGHTS_H_
