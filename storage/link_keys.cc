// The key layout of storage/link_keys.h, and link_db.h's HostKey and score
// encoding, which are the key parts a caller can see.
#include "storage/link_keys.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "core/url.h"
#include "storage/link_db.h"

namespace fcrawl::storage {
namespace keys {

std::string HostPrefix(absl::string_view host) {
  std::string key;
  key.reserve(host.size() + 2);
  key.push_back(kHostTag);
  key.append(host.data(), host.size());
  key.push_back('\0');
  return key;
}

std::string HostSubKey(absl::string_view host, char tag,
                       absl::string_view rest) {
  std::string key;
  key.reserve(host.size() + rest.size() + 3);
  key.push_back(kHostTag);
  key.append(host.data(), host.size());
  key.push_back('\0');
  key.push_back(tag);
  key.append(rest.data(), rest.size());
  return key;
}

size_t HostRangePrefixSize(absl::string_view key) {
  if (key.empty() || key[0] != kHostTag) return 0;
  const size_t nul = key.find('\0');
  if (nul == absl::string_view::npos || nul + 1 >= key.size()) return 0;
  return nul + 2;
}

std::string NextHostKey(absl::string_view host) {
  std::string key = HostPrefix(host);
  key.back() = '\x01';
  return key;
}

std::string EncodeFixed64(uint64_t v) {
  std::string out(8, '\0');
  for (int i = 0; i < 8; ++i) out[i] = static_cast<char>(v >> (56 - 8 * i));
  return out;
}

uint64_t DecodeFixed64(absl::string_view b) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = (v << 8) | static_cast<unsigned char>(b[i]);
  return v;
}

std::string SignatureKey(absl::string_view url) {
  return absl::StrCat("S", url);
}

std::string BandPrefix(int band, uint64_t band_key) {
  std::string key(1, kBandTag);
  key.push_back(static_cast<char>(band));
  key += EncodeFixed64(band_key);
  return key;
}

std::string BandKey(int band, uint64_t band_key, absl::string_view url) {
  std::string key = BandPrefix(band, band_key);
  key.append(url.data(), url.size());
  return key;
}

std::string OutboxKey(uint64_t seq) {
  return std::string(1, kOutboxPrefix) + EncodeFixed64(seq);
}

std::string DueKey(int64_t due_ms, absl::string_view url) {
  std::string key(1, kDuePrefix);
  // Times before 1970 do not occur; clamp so the order stays numeric.
  key += EncodeFixed64(static_cast<uint64_t>(std::max<int64_t>(0, due_ms)));
  key.append(url.data(), url.size());
  return key;
}

}  // namespace keys

namespace {
constexpr uint64_t kSignBit = uint64_t{1} << 63;
}  // namespace

std::string EncodeScore(double score) {
  uint64_t encoded;
  if (std::isnan(score)) {
    encoded = ~uint64_t{0};  // after -inf
  } else {
    if (score == 0) score = 0.0;  // -0 == +0: same bytes, ties by URL
    uint64_t bits;
    std::memcpy(&bits, &score, sizeof(bits));
    // Ascending order: flip every bit of negatives, the sign of the rest.
    const uint64_t ascending = (bits & kSignBit) ? ~bits : (bits | kSignBit);
    encoded = ~ascending;  // descending
  }
  return keys::EncodeFixed64(encoded);
}

double DecodeScore(absl::string_view bytes) {
  if (bytes.size() < keys::kScoreBytes) {
    return std::numeric_limits<double>::quiet_NaN();
  }
  const uint64_t encoded = keys::DecodeFixed64(bytes);
  if (encoded == ~uint64_t{0}) return std::numeric_limits<double>::quiet_NaN();
  const uint64_t ascending = ~encoded;
  const uint64_t bits =
      (ascending & kSignBit) ? (ascending & ~kSignBit) : ~ascending;
  double score;
  std::memcpy(&score, &bits, sizeof(score));
  return score;
}

}  // namespace fcrawl::storage
