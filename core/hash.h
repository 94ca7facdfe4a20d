// Stable 64-bit hashes: the same value in every process, build and machine,
// for anything that is written to disk or compared between processes
// (rendezvous weights, fingerprints, checksums). absl::Hash is seeded per
// process, so it cannot be used for those; use it for in-memory tables.
//
// Neither hash is cryptographic.
#ifndef FCRAWL_CORE_HASH_H_
#define FCRAWL_CORE_HASH_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "absl/strings/string_view.h"

namespace fcrawl::hash {

// FNV-1a 64 of `s`: byte at a time, for short keys such as host and member
// names (cluster/rendezvous.h). Fnv1a64Continue(Fnv1a64(a), b) is
// Fnv1a64(a + b), without making the string a + b.
inline uint64_t Fnv1a64Continue(uint64_t h, absl::string_view s) {
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}
inline uint64_t Fnv1a64(absl::string_view s) {
  return Fnv1a64Continue(14695981039346656037ull, s);
}

// The splitmix64 finaliser: a bijection on 64 bits that spreads every input
// bit over the whole output.
inline uint64_t Mix64(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  x ^= x >> 31;
  return x;
}

// Word-at-a-time mixing in the style of xxHash64's round function, for bulk
// data (graph fingerprints, checkpoint and graph-cache checksums); only
// meant to catch a different input or a damaged file.
class StableHasher {
 public:
  void Add(const void* data, size_t n) {
    const unsigned char* p = static_cast<const unsigned char*>(data);
    uint64_t h = kP5 + n;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
      uint64_t w;
      std::memcpy(&w, p + i, 8);
      h = Round(h, w);
    }
    uint64_t tail = 0;
    if (i < n) std::memcpy(&tail, p + i, n - i);
    h = Round(h, tail);
    state_ = Round(state_ ^ Avalanche(h), kP4);
  }
  void Add(absl::string_view s) { Add(s.data(), s.size()); }
  template <typename T>
  void AddPod(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    Add(&v, sizeof(v));
  }
  template <typename T>
  void AddVector(const std::vector<T>& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    AddPod(static_cast<uint64_t>(v.size()));
    Add(v.data(), v.size() * sizeof(T));
  }
  uint64_t value() const { return Avalanche(state_); }

 private:
  static constexpr uint64_t kP1 = 0x9E3779B185EBCA87ULL;
  static constexpr uint64_t kP2 = 0xC2B2AE3D27D4EB4FULL;
  static constexpr uint64_t kP3 = 0x165667B19E3779F9ULL;
  static constexpr uint64_t kP4 = 0x85EBCA77C2B2AE63ULL;
  static constexpr uint64_t kP5 = 0x27D4EB2F165667C5ULL;

  static uint64_t Rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }
  static uint64_t Round(uint64_t acc, uint64_t w) {
    acc += w * kP2;
    acc = Rotl(acc, 31);
    return acc * kP1;
  }
  static uint64_t Avalanche(uint64_t h) {
    h ^= h >> 33;
    h *= kP2;
    h ^= h >> 29;
    h *= kP3;
    h ^= h >> 32;
    return h;
  }

  uint64_t state_ = kP1;
};

}  // namespace fcrawl::hash

#endif  // FCRAWL_CORE_HASH_H_
