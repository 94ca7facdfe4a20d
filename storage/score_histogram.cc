#include "storage/score_histogram.h"

#include <algorithm>

namespace fcrawl::storage {

namespace {
constexpr uint32_t kBuckets = uint32_t{1} << ScoreHistogram::kBucketBits;
}  // namespace

uint32_t ScoreHistogram::Bucket(absl::string_view encoded) {
  if (encoded.size() < 3) return 0;
  const auto byte = [&](int i) {
    return static_cast<uint32_t>(static_cast<unsigned char>(encoded[i]));
  };
  return (byte(0) << 12) | (byte(1) << 4) | (byte(2) >> 4);
}

void ScoreHistogram::Add(absl::string_view encoded, int64_t delta) {
  if (tree_.empty()) tree_.assign(kBuckets + 1, 0);
  for (uint32_t i = Bucket(encoded) + 1; i <= kBuckets; i += i & (~i + 1)) {
    tree_[i] += static_cast<int32_t>(delta);
  }
  total_ += delta;
}

int64_t ScoreHistogram::CountAbove(absl::string_view encoded) const {
  if (tree_.empty()) return 0;
  int64_t sum = 0;
  // Buckets [0, Bucket(encoded)): the prefix sum up to (1-based) Bucket.
  for (uint32_t i = Bucket(encoded); i > 0; i -= i & (~i + 1)) sum += tree_[i];
  return std::max<int64_t>(0, sum);
}

}  // namespace fcrawl::storage
