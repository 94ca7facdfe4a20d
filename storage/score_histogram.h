// How many queued URLs score above a given score, over the whole frontier:
// the counts the scheduler needs to fetch a URL only when it ranks among
// the best the frontier offers (worker/scheduler.h), without keeping every
// queued score in memory.
//
// Scores are counted by bucket of their order-preserving 8-byte encoding
// (storage/link_db.h EncodeScore): the first kBucketBits bits, i.e. the
// sign, the exponent and the top 8 bits of the mantissa, so two scores fall
// into one bucket when they differ by less than about 1/256 of their value.
// Scores in the same bucket count as ties. A Fenwick tree over the buckets
// gives each update and query in O(kBucketBits) steps; its 2^20 counters
// (4 MiB) are allocated on the first Add.
//
// Not thread-safe: the owner (LinkDb) serialises access with its mutex.
#ifndef FCRAWL_STORAGE_SCORE_HISTOGRAM_H_
#define FCRAWL_STORAGE_SCORE_HISTOGRAM_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"

namespace fcrawl::storage {

class ScoreHistogram {
 public:
  static constexpr int kBucketBits = 20;

  // The bucket of an encoded score (at least 3 bytes of EncodeScore's
  // output; a shorter string is bucket 0). Lower bucket = higher score.
  static uint32_t Bucket(absl::string_view encoded);

  // Adds `delta` (±1 usually) entries of the encoded score.
  void Add(absl::string_view encoded, int64_t delta);
  // Entries in buckets strictly above the bucket of `encoded` (never
  // negative, even if a caller removed more than it added).
  int64_t CountAbove(absl::string_view encoded) const;
  // The highest non-empty bucket (the lowest index), or -1 when no bucket
  // holds a positive count. O(kBucketBits).
  int64_t FirstBucket() const;
  // An encoded score that sorts last within `bucket` (all bits after the
  // bucket's set), i.e. the lowest score the bucket holds: DecodeScore of it
  // is a lower bound of every score counted in the bucket.
  static std::string LowestOf(uint32_t bucket);
  // The highest non-empty buckets with their counts, best first, until
  // they hold at least `entries` entries or `max_buckets` are listed:
  // what a worker tells the cluster of the best URLs it holds.
  // O(max_buckets · kBucketBits).
  std::vector<std::pair<uint32_t, int64_t>> Top(int64_t entries,
                                                size_t max_buckets) const;
  int64_t total() const { return total_; }

 private:
  std::vector<int32_t> tree_;  // Fenwick tree, 1-based, empty until Add
  int64_t total_ = 0;
};

}  // namespace fcrawl::storage

#endif  // FCRAWL_STORAGE_SCORE_HISTOGRAM_H_
