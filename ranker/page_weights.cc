// The per-page weights of ranker/page_weights.h.
#include "ranker/page_weights.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace fcrawl::ranker {

std::vector<double> QuarkShares(const proto::GraphPage& page,
                                absl::Span<const int32_t> link_blocks,
                                const QuarkWeights& weights,
                                double template_weight) {
  std::vector<double> share(link_blocks.size());
  double total = 0;
  for (size_t i = 0; i < link_blocks.size(); ++i) {
    int type = 0;
    bool site_template = false;
    if (link_blocks[i] >= 0 && link_blocks[i] < page.blocks_size()) {
      const proto::GraphBlock& b = page.blocks(link_blocks[i]);
      type = b.type();
      site_template = b.site_template();
      if (type < 0 || type >= static_cast<int>(weights.size())) type = 0;
    }
    share[i] = site_template ? template_weight : weights[type];
    total += share[i];
  }
  for (double& s : share) s = total > 0 ? s / total : 0;
  return share;
}

// Reading (docs/papers.md): without rendering, size(b) is the block's text
// length and its position is its rank in document order (blocks sorted by
// `position`, ties by index), the page centre being the middle rank
// (B−1)/2. Reading: distance = |rank − (B−1)/2| + 1, so the middle block's
// distance is 1 rather than 0 and the weight falls as 1/(1+k) k blocks away.
// Reading: when every block has size 0 f is undefined (β would divide by 0);
// X then falls back to Cai et al.'s unweighted X = 1/(number of blocks).
std::vector<double> BlockImportance(const proto::GraphPage& page,
                                    size_t num_blocks) {
  const size_t b = std::min<size_t>(num_blocks, page.blocks_size());
  std::vector<double> x(b, 0.0);
  if (b == 0) return x;
  std::vector<uint32_t> order(b);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t l, uint32_t r) {
    return page.blocks(l).position() < page.blocks(r).position();
  });
  const double centre = (static_cast<double>(b) - 1) / 2;
  double total = 0;
  for (size_t rank = 0; rank < b; ++rank) {
    const int32_t len = page.blocks(order[rank]).text_length();
    const double size = len > 0 ? len : 0;
    const double distance = std::fabs(static_cast<double>(rank) - centre) + 1;
    x[order[rank]] = size / distance;
    total += x[order[rank]];
  }
  for (double& v : x) v = total > 0 ? v / total : 1.0 / static_cast<double>(b);
  return x;
}

}  // namespace fcrawl::ranker
