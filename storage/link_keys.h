// The link state's key layout (see link_db.h's header comment): building
// and reading the RocksDB keys of one host's range, and the fixed-width
// big-endian numbers in them. Plain bytes, no RocksDB types; internal to
// storage.
#ifndef FCRAWL_STORAGE_LINK_KEYS_H_
#define FCRAWL_STORAGE_LINK_KEYS_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"

namespace fcrawl::storage::keys {

inline constexpr size_t kScoreBytes = 8;
inline constexpr char kKnownUrlsKey[] = "Iknown_urls";

// Host keys start with kHostTag; sub-range tags after "H" host "\0".
inline constexpr char kHostTag = 'H';
inline constexpr char kRecordTag = 'U';
inline constexpr char kIndexTag = 'Q';
inline constexpr char kInFlightTag = 'F';
inline constexpr char kPageTag = 'P';
inline constexpr char kHostRecordTag = 'M';
inline constexpr char kSiteStateTag = 'R';

// "H" host "\0".
std::string HostPrefix(absl::string_view host);

// "H" host "\0" tag rest.
std::string HostSubKey(absl::string_view host, char tag,
                       absl::string_view rest = {});

// The size of `key`'s "H" host "\0" tag prefix (the range of one host's
// records, queue, in-flight set, ...), or 0 when `key` is not a host key
// with a tag.
size_t HostRangePrefixSize(absl::string_view key);

// The first key after every key of `host`: "H" host "\x01". Host names never
// contain control bytes, so no other host's keys fall in between.
std::string NextHostKey(absl::string_view host);

// The near-duplicate index (LinkDb::NearDuplicate, core/minhash.h): each
// page's MinHash signature under "S" url, and one key per band of it,
// "D" band(1) band_key(8) url, so that pages agreeing on a band are one
// prefix scan apart.
inline constexpr char kBandTag = 'D';
inline constexpr size_t kBandPrefixBytes = 1 + 1 + 8;  // BandPrefix's size
std::string SignatureKey(absl::string_view url);
std::string BandPrefix(int band, uint64_t band_key);
std::string BandKey(int band, uint64_t band_key, absl::string_view url);

// The outbox of links routed to other workers (LinkDb::Outbox): "O" seq(8).
inline constexpr char kOutboxPrefix = 'O';
std::string OutboxKey(uint64_t seq);

// The revisit due index (LinkDb::Due): "V" due_ms(8) url, earliest first.
inline constexpr char kDuePrefix = 'V';
std::string DueKey(int64_t due_ms, absl::string_view url);

// `v` as 8 big-endian bytes, and back (`b` holds at least 8 bytes).
std::string EncodeFixed64(uint64_t v);
uint64_t DecodeFixed64(absl::string_view b);

}  // namespace fcrawl::storage::keys

#endif  // FCRAWL_STORAGE_LINK_KEYS_H_
