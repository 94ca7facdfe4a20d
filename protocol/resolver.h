// Asynchronous DNS for the crawl loop: a c-ares adapter with a cache.
//
// Why not leave DNS to curl: curl resolves inside a transfer, so a host that
// does not resolve holds one of the max_in_flight transfer slots for up to
// the connect timeout, and a crawl with many dead hosts (any old web) spends
// most of its slots waiting on them. Here a lookup runs outside the transfer
// slots; the crawl hands curl the address it found (Fetcher::Start's
// `connect_address`), so curl never resolves a name itself.
//
// What it does:
//  - Lookup(host) answers from the cache or starts a lookup (at most
//    max_lookups at once; more wait in a FIFO queue, their time counted from
//    when they start) and returns nullopt; Poll() drives the lookups without
//    blocking and returns the hosts whose lookup ended.
//  - Answers are cached for the records' TTL (the smallest of the addresses'
//    TTLs), clamped to [min_ttl, max_ttl]; failures (no such name, no
//    address, timeout, server failure) for negative_ttl. The cache holds at
//    most max_entries hosts; beyond it expired entries go first, then the
//    oldest.
//  - IP literals (with or without brackets) and "localhost" are answered at
//    once without a lookup; /etc/hosts is read as the system resolver does.
//  - A lookup is bounded by `timeout` (c-ares splits it over `tries`
//    attempts per server). Names longer than 253 bytes or with empty labels
//    are refused without a query, and not cached (junk host names from
//    hostile pages must not fill the cache).
// Errors in a Resolution: NotFound (no such name or no address),
// DeadlineExceeded (no answer in time), Unavailable (server failure, refused,
// connection error), InvalidArgument (a name no DNS query can carry). The
// message names the host and the c-ares error.
//
// Addresses are returned IPv4 first (the crawl connects to the first), in
// the order DNS gave them within each family.
//
// Thread-safety: none; one thread (the crawl loop's) uses a Resolver.
// Ownership: the Resolver owns its c-ares channel and sockets.
#ifndef FCRAWL_PROTOCOL_RESOLVER_H_
#define FCRAWL_PROTOCOL_RESOLVER_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace fcrawl::protocol {

struct ResolverOptions {
  // A lookup's whole time, over all tries and servers.
  absl::Duration timeout = absl::Seconds(5);
  int tries = 2;
  // Lookups running at once.
  int max_lookups = 256;
  // DNS servers as "ip" or "ip:port" ("[ipv6]:port"); empty = the system's
  // (/etc/resolv.conf).
  std::vector<std::string> servers;
  absl::Duration min_ttl = absl::Seconds(60);
  absl::Duration max_ttl = absl::Hours(6);
  absl::Duration negative_ttl = absl::Seconds(30);
  size_t max_entries = 100000;
};

struct Resolution {
  absl::Status status;                 // OK when `addresses` is not empty
  std::vector<std::string> addresses;  // textual, no brackets
  absl::Time expires;                  // cached until then
  bool from_cache = false;             // answered without a new lookup
};

class Resolver {
 public:
  // InvalidArgument for options out of range or a malformed server;
  // Internal when c-ares cannot be set up (e.g. no readable resolv.conf
  // and no servers given).
  static absl::StatusOr<std::unique_ptr<Resolver>> Create(
      const ResolverOptions& options);
  Resolver(const Resolver&) = delete;
  Resolver& operator=(const Resolver&) = delete;
  ~Resolver();  // cancels running lookups

  // The cached answer for `host` (a name or an IP literal) when there is a
  // fresh one; otherwise starts a lookup (unless one for the host is
  // running or queued) and returns nullopt: its end is reported by Poll().
  std::optional<Resolution> Lookup(absl::string_view host, absl::Time now);

  // Drives running lookups for at most `timeout` (0: only what is ready
  // now) and returns the hosts whose lookup ended; their answers are in the
  // cache (Lookup returns them).
  std::vector<std::string> Poll(absl::Duration timeout);

  // Lookups running or queued.
  size_t pending() const;
  // When Poll should next be called (a c-ares timer); InfiniteFuture when
  // nothing runs.
  absl::Time NextWake(absl::Time now) const;

  // Counters since Create: lookups sent, answered from the cache, failed.
  int64_t lookups() const;
  int64_t cache_hits() const;
  int64_t failures() const;

 private:
  struct Impl;
  explicit Resolver(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace fcrawl::protocol

#endif  // FCRAWL_PROTOCOL_RESOLVER_H_
