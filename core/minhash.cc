#include "core/minhash.h"

#include <algorithm>
#include <limits>

#include "core/hash.h"

namespace fcrawl::text {

std::optional<MinHashSignature> MinHash(
    const std::vector<std::string>& tokens) {
  if (tokens.size() < static_cast<size_t>(kShingleWords)) return std::nullopt;
  std::vector<uint64_t> words;
  words.reserve(tokens.size());
  for (const std::string& t : tokens) words.push_back(hash::Fnv1a64(t));
  // One permutation hashing (Li, Owen and Zhang, NIPS 2012): one hash per
  // shingle, its low bits pick one of kMinHashes bins and the bin keeps the
  // least of the high bits, instead of kMinHashes hashes per shingle.
  constexpr uint32_t kEmpty = std::numeric_limits<uint32_t>::max();
  MinHashSignature sig;
  sig.fill(kEmpty);
  for (size_t i = 0; i + kShingleWords <= words.size(); ++i) {
    uint64_t shingle = 0;
    for (int w = 0; w < kShingleWords; ++w) {
      shingle = hash::Mix64(shingle ^ words[i + w]);
    }
    const int bin = static_cast<int>(shingle % kMinHashes);
    const uint32_t v = static_cast<uint32_t>(shingle >> 32);
    if (v < sig[bin]) sig[bin] = v;
  }
  // Bins no shingle fell in (short texts) take the value of the next
  // filled bin to their right, cyclically, marked with the distance so
  // they only match a bin filled the same way (densification by rotation,
  // Shrivastava and Li, ICML 2014).
  if (std::any_of(sig.begin(), sig.end(),
                  [](uint32_t v) { return v != kEmpty; })) {
    MinHashSignature dense = sig;
    for (int k = 0; k < kMinHashes; ++k) {
      if (sig[k] != kEmpty) continue;
      int d = 1;
      while (sig[(k + d) % kMinHashes] == kEmpty) ++d;
      dense[k] = static_cast<uint32_t>(
          hash::Mix64(sig[(k + d) % kMinHashes] + (uint64_t{1} << 40) * d));
    }
    sig = dense;
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
