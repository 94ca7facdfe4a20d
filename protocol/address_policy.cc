// The address ranges of protocol/address_policy.h and IsNonPublicAddress.
#include "protocol/address_policy.h"

#include <cstring>

#include "protocol/fetcher.h"

namespace fcrawl::protocol {

// a.b.c.d in host byte order.
bool IsNonPublicV4(uint32_t a) {
  struct Net {
    uint32_t net;
    int bits;
  };
  static constexpr Net kNets[] = {
      {0x00000000u, 8},   // 0.0.0.0/8 "this network"
      {0x0A000000u, 8},   // 10/8 private
      {0x64400000u, 10},  // 100.64/10 shared (CGNAT)
      {0x7F000000u, 8},   // 127/8 loopback
      {0xA9FE0000u, 16},  // 169.254/16 link-local
      {0xAC100000u, 12},  // 172.16/12 private
      {0xC0000000u, 24},  // 192.0.0/24 IETF protocol assignments
      {0xC0000200u, 24},  // 192.0.2/24 TEST-NET-1
      {0xC0586300u, 24},  // 192.88.99/24 6to4 relay anycast
      {0xC0A80000u, 16},  // 192.168/16 private
      {0xC6120000u, 15},  // 198.18/15 benchmarking
      {0xC6336400u, 24},  // 198.51.100/24 TEST-NET-2
      {0xCB007100u, 24},  // 203.0.113/24 TEST-NET-3
      {0xE0000000u, 4},   // 224/4 multicast
      {0xF0000000u, 4},   // 240/4 reserved, 255.255.255.255 broadcast
  };
  for (const Net& n : kNets) {
    if ((a >> (32 - n.bits)) == (n.net >> (32 - n.bits))) return true;
  }
  return false;
}

namespace {

uint32_t V4At(const uint8_t* b) {
  return (uint32_t{b[0]} << 24) | (uint32_t{b[1]} << 16) |
         (uint32_t{b[2]} << 8) | uint32_t{b[3]};
}

}  // namespace

// IPv6 is public only inside the global unicast block 2000::/3, minus the
// special-purpose ranges in it; addresses that embed an IPv4 address
// (IPv4-mapped, NAT64, 6to4) are judged by that address.
bool IsNonPublicV6(const uint8_t* b) {
  static constexpr uint8_t kZero[12] = {};
  // ::ffff:a.b.c.d (IPv4-mapped).
  if (std::memcmp(b, kZero, 10) == 0 && b[10] == 0xff && b[11] == 0xff) {
    return IsNonPublicV4(V4At(b + 12));
  }
  // 64:ff9b::a.b.c.d (well-known NAT64 prefix).
  if (b[0] == 0x00 && b[1] == 0x64 && b[2] == 0xff && b[3] == 0x9b &&
      std::memcmp(b + 4, kZero, 8) == 0) {
    return IsNonPublicV4(V4At(b + 12));
  }
  // Outside 2000::/3: unspecified, loopback, IPv4-compatible, ULA fc00::/7,
  // link-local fe80::/10, site-local, multicast ff00::/8, discard 100::/64...
  if ((b[0] & 0xE0) != 0x20) return true;
  if (b[0] == 0x20 && b[1] == 0x01) {
    if ((b[2] & 0xFE) == 0x00) return true;  // 2001::/23 IETF (Teredo...)
    if (b[2] == 0x0d && b[3] == 0xb8) return true;  // 2001:db8::/32 docs
  }
  if (b[0] == 0x20 && b[1] == 0x02) {  // 2002::/16 6to4
    return IsNonPublicV4(V4At(b + 2));
  }
  if (b[0] == 0x3f && b[1] == 0xff && (b[2] & 0xF0) == 0) {
    return true;  // 3fff::/20 documentation
  }
  return false;
}

int ParseIpAddress(absl::string_view ip, in_addr* v4, in6_addr* v6) {
  char text[kMaxIpText + 1];
  if (ip.empty() || ip.size() > kMaxIpText) return 0;
  std::memcpy(text, ip.data(), ip.size());
  text[ip.size()] = '\0';
  if (std::memchr(text, '\0', ip.size()) != nullptr) return 0;
  if (inet_pton(AF_INET, text, v4) == 1) return AF_INET;
  if (inet_pton(AF_INET6, text, v6) == 1) return AF_INET6;
  return 0;
}

bool IsIpAddress(absl::string_view ip) {
  in_addr v4;
  in6_addr v6;
  return ParseIpAddress(ip, &v4, &v6) != 0;
}

bool IsNonPublicAddress(absl::string_view ip) {
  in_addr v4;
  in6_addr v6;
  switch (ParseIpAddress(ip, &v4, &v6)) {
    case AF_INET:
      return IsNonPublicV4(ntohl(v4.s_addr));
    case AF_INET6:
      return IsNonPublicV6(v6.s6_addr);
    default:
      return true;  // unparseable: refused
  }
}

}  // namespace fcrawl::protocol
