// MinHash signatures of texts for near-duplicate detection (Broder, "On the
// resemblance and containment of documents", 1997; the banding of Leskovec,
// Rajaraman and Ullman, "Mining of Massive Datasets", ch. 3): kMinHashes
// values, each the minimum hash of the text's word 3-shingles that fall in
// its bin (one permutation hashing, Li, Owen and Zhang 2012: one hash per
// shingle rather than kMinHashes; empty bins of short texts filled by
// rotation, Shrivastava and Li 2014), so that the share of equal values
// estimates the Jaccard resemblance of the two texts' shingle sets.
//
// Why MinHash and not a 64-bit SimHash: measured on texts of 400 words
// with four words edited, SimHash fingerprints differed in 4 to 6 bits for
// 6 of 20 texts, past the 3 bits an exact-block index can look up, while
// the shingle resemblance stays above 0.9 (each edit changes three
// shingles of four hundred).
//
// An index finds candidates by bands (LSH): kBands groups of kRows values;
// two texts whose signatures agree on a whole band are candidates, which
// happens with probability 1 - (1 - J^kRows)^kBands for resemblance J
// (J = 0.8: 0.985, J = 0.5: 0.40, J = 0.2: 0.013), and each candidate is
// then checked with the whole signature.
//
// Stable: the same values in every process and build (core/hash.h), so
// signatures may be stored.
//
// Thread-safety: free functions over values.
#ifndef FCRAWL_CORE_MINHASH_H_
#define FCRAWL_CORE_MINHASH_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace fcrawl::text {

inline constexpr int kMinHashes = 32;
inline constexpr int kBands = 8;
inline constexpr int kRows = kMinHashes / kBands;
inline constexpr int kShingleWords = 3;

using MinHashSignature = std::array<uint32_t, kMinHashes>;

// The signature of `tokens` (normalised words, in text order) over its
// word 3-shingles; nullopt when there are fewer than 3 tokens.
std::optional<MinHashSignature> MinHash(const std::vector<std::string>& tokens);

// The share of equal values: an estimate of the resemblance, in [0, 1].
double EstimatedResemblance(const MinHashSignature& a,
                            const MinHashSignature& b);

// A 64-bit key of band `band` (0 .. kBands-1): equal bands, equal keys.
uint64_t BandKey(const MinHashSignature& s, int band);

// The signature as 4·kMinHashes little-endian bytes, and back (nullopt
// when `bytes` has another size).
std::string EncodeSignature(const MinHashSignature& s);
std::optional<MinHashSignature> DecodeSignature(absl::string_view bytes);

}  // namespace fcrawl::text

#endif  // FCRAWL_CORE_MINHASH_H_
