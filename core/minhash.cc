#include "core/minhash.h"

#include <cstring>
#include <limits>

#include "core/hash.h"

namespace fcrawl::text {

std::optional<MinHashSignature> MinHash(
    const std::vector<std::string>& tokens) {
  if (tokens.size() < static_cast<size_t>(kShingleWords)) return std::nullopt;
  std::vector<uint64_t> words;
  words.reserve(tokens.size());
  for (const std::string& t : tokens) words.push_back(hash::Fnv1a64(t));
  MinHashSignature sig;
  sig.fill(std::numeric_limits<uint32_t>::max());
  for (size_t i = 0; i + kShingleWords <= words.size(); ++i) {
    uint64_t shingle = 0;
    for (int w = 0; w < kShingleWords; ++w) {
      shingle = hash::Mix64(shingle ^ words[i + w]);
    }
    // kMinHashes hash functions: the shingle's hash mixed with a seed each.
    for (int k = 0; k < kMinHashes; ++k) {
      const uint32_t v = static_cast<uint32_t>(
          hash::Mix64(shingle + 0x9e3779b97f4a7c15ull * (k + 1)) >> 32);
      if (v < sig[k]) sig[k] = v;
    }
  }
  return sig;
}

double EstimatedResemblance(const MinHashSignature& a,
                            const MinHashSignature& b) {
  int equal = 0;
  for (int k = 0; k < kMinHashes; ++k) equal += a[k] == b[k] ? 1 : 0;
  return static_cast<double>(equal) / kMinHashes;
}

uint64_t BandKey(const MinHashSignature& s, int band) {
  uint64_t h = hash::Mix64(static_cast<uint64_t>(band) + 1);
  for (int r = 0; r < kRows; ++r) h = hash::Mix64(h ^ s[band * kRows + r]);
  return h;
}

std::string EncodeSignature(const MinHashSignature& s) {
  std::string out(4 * kMinHashes, '\0');
  for (int k = 0; k < kMinHashes; ++k) {
    for (int b = 0; b < 4; ++b) {
      out[4 * k + b] = static_cast<char>((s[k] >> (8 * b)) & 0xff);
    }
  }
  return out;
}

std::optional<MinHashSignature> DecodeSignature(absl::string_view bytes) {
  if (bytes.size() != 4 * kMinHashes) return std::nullopt;
  MinHashSignature s;
  for (int k = 0; k < kMinHashes; ++k) {
    uint32_t v = 0;
    for (int b = 0; b < 4; ++b) {
      v |= static_cast<uint32_t>(static_cast<unsigned char>(bytes[4 * k + b]))
           << (8 * b);
    }
    s[k] = v;
  }
  return s;
}

}  // namespace fcrawl::text
