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

int64_t ScoreHistogram::FirstBucket() const {
  if (tree_.empty()) return -1;
  // Fenwick descent: the largest 1-based position whose prefix sum is 0 (no
  // entry before it); the bucket after it is the first non-empty one.
  // Counts never go negative in a consistent tree; a bucket whose count
  // went below 0 through over-removal is treated as empty.
  uint32_t pos = 0;
  int64_t before = 0;
  for (uint32_t step = kBuckets; step > 0; step >>= 1) {
    const uint32_t next = pos + step;
    if (next <= kBuckets && before + tree_[next] <= 0) {
      pos = next;
      before += tree_[next];
    }
  }
  if (pos >= kBuckets) return -1;
  return pos;  // 0-based bucket = 1-based position pos + 1
}

std::vector<std::pair<uint32_t, int64_t>> ScoreHistogram::Top(
    int64_t entries, size_t max_buckets) const {
  std::vector<std::pair<uint32_t, int64_t>> out;
  if (tree_.empty()) return out;
  auto prefix = [this](uint32_t i) {  // entries of 1-based buckets [1, i]
    int64_t sum = 0;
    for (; i > 0; i -= i & (~i + 1)) sum += tree_[i];
    return sum;
  };
  int64_t seen = 0;
  while (out.size() < max_buckets && seen < entries) {
    // The largest 1-based position whose prefix holds at most `seen`
    // entries: the next bucket after it is the next non-empty one.
    uint32_t pos = 0;
    int64_t before = 0;
    for (uint32_t step = kBuckets; step > 0; step >>= 1) {
      const uint32_t next = pos + step;
      if (next <= kBuckets && before + tree_[next] <= seen) {
        pos = next;
        before += tree_[next];
      }
    }
    if (pos >= kBuckets) break;
    const int64_t through = prefix(pos + 1);
    if (through <= seen) break;  // counts went negative: stop there
    out.emplace_back(pos, through - seen);
    seen = through;
  }
  return out;
}

std::string ScoreHistogram::LowestOf(uint32_t bucket) {
  std::string out(8, '\xff');
  bucket &= kBuckets - 1;
  out[0] = static_cast<char>(bucket >> 12);
  out[1] = static_cast<char>((bucket >> 4) & 0xff);
  out[2] = static_cast<char>(((bucket & 0xf) << 4) | 0xf);
  return out;
}

}  // namespace fcrawl::storage
