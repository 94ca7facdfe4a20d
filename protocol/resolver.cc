#include "protocol/resolver.h"

#include <ares.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <deque>
#include <mutex>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace fcrawl::protocol {

namespace {

absl::Status LibraryInit() {
  static std::once_flag once;
  static int rc = ARES_SUCCESS;
  std::call_once(once, [] { rc = ares_library_init(ARES_LIB_INIT_ALL); });
  if (rc != ARES_SUCCESS) {
    return absl::InternalError(
        absl::StrCat("ares_library_init: ", ares_strerror(rc)));
  }
  return absl::OkStatus();
}

// The address in `host` when it is an IP literal ("1.2.3.4", "::1",
// "[::1]"), canonical text.
std::optional<std::string> IpLiteral(absl::string_view host) {
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  if (host.empty() || host.size() >= INET6_ADDRSTRLEN) return std::nullopt;
  const std::string s(host);
  char text[INET6_ADDRSTRLEN];
  in_addr v4;
  if (inet_pton(AF_INET, s.c_str(), &v4) == 1 &&
      inet_ntop(AF_INET, &v4, text, sizeof(text)) != nullptr) {
    return std::string(text);
  }
  in6_addr v6;
  if (inet_pton(AF_INET6, s.c_str(), &v6) == 1 &&
      inet_ntop(AF_INET6, &v6, text, sizeof(text)) != nullptr) {
    return std::string(text);
  }
  return std::nullopt;
}

// A name a DNS query can carry: at most 253 bytes (a trailing dot aside),
// labels of 1..63 letters, digits, '-' or '_'.
bool ValidName(absl::string_view name) {
  if (!name.empty() && name.back() == '.') name.remove_suffix(1);
  if (name.empty() || name.size() > 253) return false;
  for (absl::string_view label : absl::StrSplit(name, '.')) {
    if (label.empty() || label.size() > 63) return false;
    for (char c : label) {
      if (!absl::ascii_isalnum(c) && c != '-' && c != '_') return false;
    }
  }
  return true;
}

absl::Status LookupError(int code, absl::string_view host) {
  const std::string message =
      absl::StrCat("could not resolve host ", host, ": ", ares_strerror(code));
  switch (code) {
    case ARES_ENOTFOUND:
    case ARES_ENODATA:
    case ARES_ENONAME:
      return absl::NotFoundError(message);
    case ARES_ETIMEOUT:
      return absl::DeadlineExceededError(message);
    case ARES_EBADNAME:
      return absl::InvalidArgumentError(message);
    default:
      return absl::UnavailableError(message);
  }
}

}  // namespace

struct Resolver::Impl {
  ResolverOptions options;
  ares_channel channel = nullptr;
  struct Entry {
    Resolution resolution;
    absl::Time stored;
  };
  absl::flat_hash_map<std::string, Entry> cache;
  struct Running {
    uint64_t id;
    absl::Time deadline;
  };
  absl::flat_hash_map<std::string, Running> running;
  std::deque<std::string> queued;
  absl::flat_hash_set<std::string> queued_set;
  std::vector<std::string> ended;  // for the next Poll
  uint64_t next_id = 1;
  int64_t lookups = 0;
  int64_t cache_hits = 0;
  int64_t failures = 0;

  // What c-ares gets back in its callback (deleted there).
  struct Call {
    Impl* impl;
    std::string host;
    uint64_t id;
  };

  ~Impl() {
    // Fires every pending callback with ARES_EDESTRUCTION; they only free
    // their Call.
    if (channel != nullptr) ares_destroy(channel);
  }

  void Store(const std::string& host, Resolution r, absl::Time now) {
    if (cache.size() >= options.max_entries && !cache.contains(host)) {
      Evict(now);
    }
    cache[host] = Entry{std::move(r), now};
  }

  void Evict(absl::Time now) {
    absl::erase_if(cache, [now](const auto& kv) {
      return kv.second.resolution.expires <= now;
    });
    if (cache.size() < options.max_entries) return;
    // Still full of live answers: drop the oldest tenth.
    std::vector<std::pair<absl::Time, std::string>> by_age;
    by_age.reserve(cache.size());
    for (const auto& [host, e] : cache) by_age.push_back({e.stored, host});
    const size_t drop = std::max<size_t>(1, cache.size() / 10);
    std::nth_element(by_age.begin(), by_age.begin() + (drop - 1), by_age.end());
    for (size_t i = 0; i < drop; ++i) cache.erase(by_age[i].second);
  }

  void Fail(const std::string& host, absl::Status status, absl::Time now) {
    ++failures;
    Resolution r;
    r.status = std::move(status);
    r.expires = now + options.negative_ttl;
    Store(host, std::move(r), now);
  }

  void StartQueued(absl::Time now) {
    while (!queued.empty() &&
           running.size() < static_cast<size_t>(options.max_lookups)) {
      std::string host = std::move(queued.front());
      queued.pop_front();
      queued_set.erase(host);
      Begin(host, now);
    }
  }

  void Begin(const std::string& host, absl::Time now) {
    const uint64_t id = next_id++;
    running[host] = Running{id, now + options.timeout};
    ++lookups;
    ares_addrinfo_hints hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    // No RFC 6724 sorting: c-ares would open a socket per address to
    // find the source address; IPv4 first is done here instead.
    hints.ai_flags = ARES_AI_NOSORT;
    auto* call = new Call{this, host, id};
    ares_getaddrinfo(channel, host.c_str(), nullptr, &hints, &Impl::OnDone,
                     call);
  }

  static void OnDone(void* arg, int status, int /*timeouts*/,
                     ares_addrinfo* result) {
    std::unique_ptr<Call> call(static_cast<Call*>(arg));
    if (status == ARES_EDESTRUCTION || status == ARES_ECANCELLED) {
      if (result != nullptr) ares_freeaddrinfo(result);
      return;
    }
    call->impl->Done(*call, status, result);
    if (result != nullptr) ares_freeaddrinfo(result);
  }

  void Done(const Call& call, int status, const ares_addrinfo* result) {
    auto it = running.find(call.host);
    // A lookup given up at its deadline has been answered already.
    if (it == running.end() || it->second.id != call.id) return;
    running.erase(it);
    const absl::Time now = absl::Now();
    ended.push_back(call.host);
    if (status != ARES_SUCCESS) {
      Fail(call.host, LookupError(status, call.host), now);
      return;
    }
    std::vector<std::string> v4, v6;
    int ttl = INT_MAX;
    for (const ares_addrinfo_node* n = result != nullptr ? result->nodes
                                                         : nullptr;
         n != nullptr; n = n->ai_next) {
      char text[INET6_ADDRSTRLEN];
      if (n->ai_family == AF_INET && n->ai_addr != nullptr) {
        const auto* sa = reinterpret_cast<const sockaddr_in*>(n->ai_addr);
        if (inet_ntop(AF_INET, &sa->sin_addr, text, sizeof(text)) == nullptr) {
          continue;
        }
        if (std::find(v4.begin(), v4.end(), text) == v4.end()) {
          v4.push_back(text);
        }
      } else if (n->ai_family == AF_INET6 && n->ai_addr != nullptr) {
        const auto* sa = reinterpret_cast<const sockaddr_in6*>(n->ai_addr);
        if (inet_ntop(AF_INET6, &sa->sin6_addr, text, sizeof(text)) ==
            nullptr) {
          continue;
        }
        if (std::find(v6.begin(), v6.end(), text) == v6.end()) {
          v6.push_back(text);
        }
      } else {
        continue;
      }
      ttl = std::min(ttl, n->ai_ttl);
    }
    if (v4.empty() && v6.empty()) {
      Fail(call.host, LookupError(ARES_ENODATA, call.host), now);
      return;
    }
    Resolution r;
    r.addresses = std::move(v4);
    r.addresses.insert(r.addresses.end(), v6.begin(), v6.end());
    r.expires = now + std::clamp(absl::Seconds(std::max(ttl, 0)),
                                 options.min_ttl, options.max_ttl);
    Store(call.host, std::move(r), now);
  }

  // Lookups past their deadline end as timeouts (c-ares's own timers
  // normally end them first; this bounds a lookup whatever they do).
  void ExpireOverdue(absl::Time now) {
    std::vector<std::string> overdue;
    for (const auto& [host, r] : running) {
      if (r.deadline < now) overdue.push_back(host);
    }
    for (const std::string& host : overdue) {
      running.erase(host);
      ended.push_back(host);
      Fail(host, LookupError(ARES_ETIMEOUT, host), now);
    }
  }
};

absl::StatusOr<std::unique_ptr<Resolver>> Resolver::Create(
    const ResolverOptions& options) {
  if (options.timeout < absl::Milliseconds(10) || options.tries < 1 ||
      options.tries > 10 || options.max_lookups < 1 ||
      options.max_entries < 1 || options.min_ttl < absl::ZeroDuration() ||
      options.max_ttl < options.min_ttl ||
      options.negative_ttl < absl::ZeroDuration()) {
    return absl::InvalidArgumentError("resolver options out of range");
  }
  if (absl::Status s = LibraryInit(); !s.ok()) return s;
  auto impl = std::make_unique<Impl>();
  impl->options = options;
  ares_options o{};
  o.tries = options.tries;
  // c-ares doubles the per-try timeout after each round over the servers;
  // the first try's share makes all rounds fit in `timeout` for one server
  // (more servers are cut off by ExpireOverdue).
  const int64_t total_ms = absl::ToInt64Milliseconds(options.timeout);
  const int64_t rounds = (int64_t{1} << options.tries) - 1;
  o.timeout = static_cast<int>(std::max<int64_t>(10, total_ms / rounds));
  const int rc = ares_init_options(&impl->channel, &o,
                                   ARES_OPT_TRIES | ARES_OPT_TIMEOUTMS);
  if (rc != ARES_SUCCESS) {
    impl->channel = nullptr;
    return absl::InternalError(
        absl::StrCat("c-ares init: ", ares_strerror(rc)));
  }
  if (!options.servers.empty()) {
    for (const std::string& s : options.servers) {
      // c-ares's CSV parser is lenient; each entry must be an address with
      // an optional port.
      absl::string_view a = s;
      absl::string_view port;
      if (!a.empty() && a.front() == '[') {
        const size_t close = a.find(']');
        if (close == absl::string_view::npos) {
          return absl::InvalidArgumentError(
              absl::StrCat("dns server '", s, "': unclosed '['"));
        }
        if (close + 1 < a.size()) {
          if (a[close + 1] != ':') {
            return absl::InvalidArgumentError(
                absl::StrCat("dns server '", s, "': expected :port"));
          }
          port = a.substr(close + 2);
        }
        a = a.substr(1, close - 1);
      } else if (size_t colon = a.find(':');
                 colon != absl::string_view::npos &&
                 a.find(':', colon + 1) == absl::string_view::npos) {
        port = a.substr(colon + 1);
        a = a.substr(0, colon);
      }
      if (!IpLiteral(a).has_value()) {
        return absl::InvalidArgumentError(
            absl::StrCat("dns server '", s, "' is not an IP address"));
      }
      int p = 0;
      if (!port.empty() &&
          (!absl::SimpleAtoi(port, &p) || p < 1 || p > 65535)) {
        return absl::InvalidArgumentError(
            absl::StrCat("dns server '", s, "': bad port"));
      }
    }
    const std::string csv = absl::StrJoin(options.servers, ",");
    if (int r = ares_set_servers_ports_csv(impl->channel, csv.c_str());
        r != ARES_SUCCESS) {
      return absl::InvalidArgumentError(
          absl::StrCat("dns servers '", csv, "': ", ares_strerror(r)));
    }
  }
  return std::unique_ptr<Resolver>(new Resolver(std::move(impl)));
}

Resolver::Resolver(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Resolver::~Resolver() = default;

std::optional<Resolution> Resolver::Lookup(absl::string_view host_in,
                                           absl::Time now) {
  Impl& impl = *impl_;
  if (std::optional<std::string> ip = IpLiteral(host_in)) {
    Resolution r;
    r.addresses.push_back(*std::move(ip));
    r.expires = absl::InfiniteFuture();
    r.from_cache = true;
    return r;
  }
  const std::string host = absl::AsciiStrToLower(host_in);
  if (host == "localhost" || absl::EndsWith(host, ".localhost")) {
    // RFC 6761 §6.3: always the loopback address, never sent to DNS.
    Resolution r;
    r.addresses = {"127.0.0.1", "::1"};
    r.expires = absl::InfiniteFuture();
    r.from_cache = true;
    return r;
  }
  if (auto it = impl.cache.find(host);
      it != impl.cache.end() && now < it->second.resolution.expires) {
    ++impl.cache_hits;
    Resolution r = it->second.resolution;
    r.from_cache = true;
    return r;
  }
  if (!ValidName(host)) {
    // Answered at once, not stored: a name no query can carry costs nothing
    // to refuse again, and must not fill the cache.
    ++impl.failures;
    Resolution r;
    r.status = absl::InvalidArgumentError(absl::StrCat(
        "could not resolve host ", host, ": not a valid DNS name"));
    r.expires = now;
    return r;
  }
  if (impl.running.contains(host) || impl.queued_set.contains(host)) {
    return std::nullopt;
  }
  impl.queued.push_back(host);
  impl.queued_set.insert(host);
  impl.StartQueued(now);
  return std::nullopt;
}

std::vector<std::string> Resolver::Poll(absl::Duration timeout) {
  Impl& impl = *impl_;
  const absl::Time deadline = absl::Now() + timeout;
  while (true) {
    ares_socket_t socks[ARES_GETSOCK_MAXNUM];
    const int mask = ares_getsock(impl.channel, socks, ARES_GETSOCK_MAXNUM);
    pollfd fds[ARES_GETSOCK_MAXNUM];
    nfds_t n = 0;
    for (int i = 0; i < ARES_GETSOCK_MAXNUM; ++i) {
      short events = 0;
      if (ARES_GETSOCK_READABLE(mask, i)) events |= POLLIN;
      if (ARES_GETSOCK_WRITABLE(mask, i)) events |= POLLOUT;
      if (events == 0) continue;
      fds[n++] = pollfd{socks[i], events, 0};
    }
    absl::Time now = absl::Now();
    absl::Duration wait = std::max(absl::ZeroDuration(), deadline - now);
    timeval tv{};
    if (timeval* t = ares_timeout(impl.channel, nullptr, &tv); t != nullptr) {
      wait = std::min(wait, absl::DurationFromTimeval(*t));
    }
    if (!impl.ended.empty() || impl.running.empty())
      wait = absl::ZeroDuration();
    const int ms = static_cast<int>(std::min<int64_t>(
        absl::ToInt64Milliseconds(absl::Ceil(wait, absl::Milliseconds(1))),
        INT_MAX));
    const int ready = n > 0 ? poll(fds, n, ms) : 0;
    if (n == 0 && ms > 0) {
      // Nothing to wait on but a timer: sleep until it.
      poll(nullptr, 0, ms);
    }
    bool any = false;
    for (nfds_t i = 0; ready > 0 && i < n; ++i) {
      const bool r = (fds[i].revents & (POLLIN | POLLERR | POLLHUP)) != 0;
      const bool w = (fds[i].revents & POLLOUT) != 0;
      if (!r && !w) continue;
      any = true;
      ares_process_fd(impl.channel, r ? fds[i].fd : ARES_SOCKET_BAD,
                      w ? fds[i].fd : ARES_SOCKET_BAD);
    }
    // Timers (retries, timeouts) run on a call without sockets.
    if (!any) ares_process_fd(impl.channel, ARES_SOCKET_BAD, ARES_SOCKET_BAD);
    now = absl::Now();
    impl.ExpireOverdue(now);
    impl.StartQueued(now);
    if (!impl.ended.empty() || impl.running.empty() || now >= deadline) break;
  }
  std::vector<std::string> out;
  out.swap(impl.ended);
  return out;
}

size_t Resolver::pending() const {
  return impl_->running.size() + impl_->queued.size();
}

absl::Time Resolver::NextWake(absl::Time now) const {
  if (impl_->running.empty()) return absl::InfiniteFuture();
  timeval tv{};
  absl::Time wake = absl::InfiniteFuture();
  if (timeval* t = ares_timeout(impl_->channel, nullptr, &tv); t != nullptr) {
    wake = now + absl::DurationFromTimeval(*t);
  }
  for (const auto& [host, r] : impl_->running)
    wake = std::min(wake, r.deadline);
  return wake;
}

int64_t Resolver::lookups() const { return impl_->lookups; }
int64_t Resolver::cache_hits() const { return impl_->cache_hits; }
int64_t Resolver::failures() const { return impl_->failures; }

}  // namespace fcrawl::protocol
