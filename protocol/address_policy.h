// Which network addresses are public (protocol/fetcher.h's
// IsNonPublicAddress, and the fetcher's check of every socket it opens):
// the address ranges, kept apart from the curl adapter so they read as a
// table. Internal to the protocol library.
//
// Thread-safety: pure functions.
#ifndef FCRAWL_PROTOCOL_ADDRESS_POLICY_H_
#define FCRAWL_PROTOCOL_ADDRESS_POLICY_H_

#include <arpa/inet.h>
#include <netinet/in.h>

#include <cstddef>
#include <cstdint>

#include "absl/strings/string_view.h"

namespace fcrawl::protocol {

// Longest textual IP address (IPv6 with an embedded IPv4 part, no zone).
inline constexpr size_t kMaxIpText = INET6_ADDRSTRLEN;

// Whether the IPv4 address a.b.c.d (host byte order) is not public unicast.
bool IsNonPublicV4(uint32_t a);

// Whether the IPv6 address (16 bytes, network order) is not public
// unicast; the forms that carry an IPv4 address are judged by it.
bool IsNonPublicV6(const uint8_t* b);

// Parses a textual IPv4 or IPv6 address (no brackets): AF_INET with *v4
// set, AF_INET6 with *v6 set, or 0 when it is neither.
int ParseIpAddress(absl::string_view ip, in_addr* v4, in6_addr* v6);

// Whether `ip` is a textual IPv4 or IPv6 address (no brackets).
bool IsIpAddress(absl::string_view ip);

}  // namespace fcrawl::protocol

#endif  // FCRAWL_PROTOCOL_ADDRESS_POLICY_H_
