#include "worker/fetcher.h"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <netinet/in.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <deque>
#include <mutex>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "core/url.h"

namespace fcrawl::worker {
namespace {

// Body bytes reserved up front from a Content-Length: a hostile server can
// announce any size, so the reservation is bounded and the string grows past
// it only as bytes actually arrive.
constexpr int64_t kMaxBodyReserve = 1 << 20;

// Longest textual IP address (IPv6 with an embedded IPv4 part, no zone).
constexpr size_t kMaxIpText = INET6_ADDRSTRLEN;

absl::Status GlobalInit() {
  static std::once_flag once;
  static CURLcode code = CURLE_OK;
  std::call_once(once, [] { code = curl_global_init(CURL_GLOBAL_DEFAULT); });
  if (code != CURLE_OK) {
    return absl::InternalError(
        absl::StrCat("curl_global_init: ", curl_easy_strerror(code)));
  }
  return absl::OkStatus();
}

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

uint32_t V4At(const uint8_t* b) {
  return (uint32_t{b[0]} << 24) | (uint32_t{b[1]} << 16) |
         (uint32_t{b[2]} << 8) | uint32_t{b[3]};
}

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

// Whether the socket address is not a public unicast address; writes its
// text to `text` (kMaxIpText bytes).
bool IsNonPublicSockaddr(const struct curl_sockaddr* address, char* text) {
  text[0] = '\0';
  if (address->family == AF_INET &&
      address->addrlen >= sizeof(struct sockaddr_in)) {
    struct sockaddr_in sin;
    std::memcpy(&sin, &address->addr, sizeof(sin));
    inet_ntop(AF_INET, &sin.sin_addr, text, kMaxIpText);
    return IsNonPublicV4(ntohl(sin.sin_addr.s_addr));
  }
  if (address->family == AF_INET6 &&
      address->addrlen >= sizeof(struct sockaddr_in6)) {
    struct sockaddr_in6 sin6;
    std::memcpy(&sin6, &address->addr, sizeof(sin6));
    inet_ntop(AF_INET6, &sin6.sin6_addr, text, kMaxIpText);
    return IsNonPublicV6(sin6.sin6_addr.s6_addr);
  }
  std::snprintf(text, kMaxIpText, "(address family %d)", address->family);
  return true;
}

// The host[:port] of an absolute URL, for error messages. Works on any text
// (curl may refuse URLs that url::Parse would too).
// curl renders an HTTP/2 exchange as "GET /x HTTP/2" and "HTTP/2 200 "
// heads; WARC readers expect HTTP/1.x, so the protocol tokens become
// "HTTP/1.1" (the headers stay as curl gave them).
void AsHttp11(std::string* request_head, std::string* response_head) {
  const size_t eol = request_head->find("\r\n");
  if (eol != std::string::npos && eol >= 7 &&
      request_head->compare(eol - 7, 7, " HTTP/2") == 0) {
    request_head->replace(eol - 6, 6, "HTTP/1.1");
  }
  if (absl::StartsWith(*response_head, "HTTP/2 ")) {
    response_head->replace(0, 6, "HTTP/1.1");
  }
}

// Parses a textual IPv4 or IPv6 address (no brackets): AF_INET with *v4
// set, AF_INET6 with *v6 set, or 0 when it is neither.
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

absl::string_view HostForMessage(absl::string_view url) {
  size_t begin = url.find("://");
  begin = begin == absl::string_view::npos ? 0 : begin + 3;
  size_t end = url.find_first_of("/?#", begin);
  if (end == absl::string_view::npos) end = url.size();
  absl::string_view host = url.substr(begin, end - begin);
  const size_t at = host.rfind('@');
  if (at != absl::string_view::npos) host.remove_prefix(at + 1);
  if (host.empty()) return "(no host)";
  return host;
}

// Header value without the line end and surrounding whitespace.
absl::string_view HeaderValue(absl::string_view line, size_t colon) {
  return absl::StripAsciiWhitespace(line.substr(colon + 1));
}

long ClampMillis(absl::Duration d) {
  const int64_t ms =
      absl::ToInt64Milliseconds(absl::Ceil(d, absl::Milliseconds(1)));
  return static_cast<long>(std::clamp<int64_t>(ms, 1, INT32_MAX));
}

// "host" or "host:port" / "[v6]" or "[v6]:port" -> host and port ("" when
// absent). False when malformed.
bool SplitHostPort(absl::string_view text, std::string* host,
                   std::string* port) {
  absl::string_view h = text;
  absl::string_view p;
  bool has_port = false;
  if (absl::StartsWith(text, "[")) {
    const size_t close = text.find(']');
    if (close == absl::string_view::npos || close < 2) return false;
    h = text.substr(0, close + 1);
    const absl::string_view rest = text.substr(close + 1);
    if (!rest.empty()) {
      if (rest[0] != ':') return false;
      has_port = true;
      p = rest.substr(1);
    }
  } else {
    const size_t colon = text.find(':');
    if (colon != absl::string_view::npos) {
      if (text.find(':', colon + 1) != absl::string_view::npos) {
        return false;  // a bare IPv6 address: must be bracketed
      }
      h = text.substr(0, colon);
      has_port = true;
      p = text.substr(colon + 1);
    }
  }
  if (h.empty()) return false;
  for (char c : h) {
    const auto u = static_cast<unsigned char>(c);
    if (absl::ascii_isspace(u) || absl::ascii_iscntrl(u)) return false;
  }
  if (has_port) {
    int value = 0;
    if (p.empty() || p.size() > 5 ||
        !std::all_of(p.begin(), p.end(),
                     [](char c) {
                       return absl::ascii_isdigit(
                           static_cast<unsigned char>(c));
                     }) ||
        !absl::SimpleAtoi(p, &value) || value < 1 || value > 65535) {
      return false;
    }
  }
  *host = std::string(h);
  *port = std::string(p);
  return true;
}

bool HasLineBreak(absl::string_view s) {
  return s.find_first_of("\r\n", 0) != absl::string_view::npos ||
         s.find('\0') != absl::string_view::npos;
}

// One easy handle and the state of the transfer it runs. Transfers are
// pooled and reused so curl keeps its per-handle buffers and the options set
// once at creation; connections live in the multi handle's cache.
struct Transfer {
  const FetcherOptions* options = nullptr;
  CURL* easy = nullptr;
  char error_buffer[CURL_ERROR_SIZE];
  FetchResult result;
  // Header state of the response being received.
  int64_t header_bytes = 0;   // all response header lines, interim included
  bool at_head_start = true;  // the next line is a status line
  int head_status = 0;        // status of the head being received
  bool head_done = false;     // the final head's blank line was seen
  int64_t content_length = -1;
  std::string location;  // raw header values
  std::string retry_after;
  std::string etag;
  std::string last_modified;
  bool header_overflow = false;
  bool refused = false;  // a non-public address was refused
  char refused_ip[kMaxIpText];
  // This transfer's own --connect-to (the address the crawl resolved);
  // null when the fetcher's shared `resolve` list applies.
  std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> own_connect_to{
      nullptr, &curl_slist_free_all};
  // This transfer's request headers when it sends validators (the shared
  // ones plus If-None-Match / If-Modified-Since); null otherwise.
  std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> own_headers{
      nullptr, &curl_slist_free_all};

  void Reset(uint64_t id, absl::string_view url) {
    result = FetchResult();
    result.id = id;
    result.url = std::string(url);
    error_buffer[0] = '\0';
    header_bytes = 0;
    at_head_start = true;
    head_status = 0;
    head_done = false;
    content_length = -1;
    location.clear();
    retry_after.clear();
    etag.clear();
    last_modified.clear();
    header_overflow = false;
    refused = false;
    refused_ip[0] = '\0';
  }

  static size_t OnHeader(char* data, size_t size, size_t nitems, void* p);
  static size_t OnBody(char* data, size_t size, size_t nmemb, void* p);
  static int OnDebug(CURL* easy, curl_infotype type, char* data, size_t size,
                     void* p);
  static curl_socket_t OnOpenSocket(void* p, curlsocktype purpose,
                                    struct curl_sockaddr* address);
};

size_t Transfer::OnHeader(char* data, size_t size, size_t nitems, void* p) {
  auto* t = static_cast<Transfer*>(p);
  const size_t n = size * nitems;
  t->header_bytes += static_cast<int64_t>(n);
  if (t->header_bytes > t->options->max_header_bytes) {
    t->header_overflow = true;
    return 0;  // CURLE_WRITE_ERROR
  }
  // Trailers of a chunked body: counted against the cap, not kept.
  if (t->head_done) return n;
  const absl::string_view line(data, n);
  FetchResult& r = t->result;
  if (t->at_head_start) {
    // The status line of a head; the previous head (if any) was an interim
    // one.
    t->at_head_start = false;
    r.response_head.clear();
    r.content_type.clear();
    t->location.clear();
    t->retry_after.clear();
    t->etag.clear();
    t->last_modified.clear();
    t->content_length = -1;
    t->head_status = 0;
    const size_t space = line.find(' ');
    if (space != absl::string_view::npos && line.size() >= space + 4) {
      int status = 0;
      if (absl::SimpleAtoi(line.substr(space + 1, 3), &status)) {
        t->head_status = status;
      }
    }
  }
  r.response_head.append(data, n);
  if (line == "\r\n" || line == "\n") {
    if (t->head_status >= 100 && t->head_status < 200) {
      t->at_head_start = true;  // interim: the final head follows
      return n;
    }
    t->head_done = true;
    if (t->content_length > t->options->max_body_bytes) {
      r.truncated = true;
      return 0;  // stop before the body: CURLE_WRITE_ERROR
    }
    if (t->content_length > 0) {
      r.body.reserve(static_cast<size_t>(std::min(
          {t->content_length, t->options->max_body_bytes, kMaxBodyReserve})));
    }
    return n;
  }
  const size_t colon = line.find(':');
  if (colon == absl::string_view::npos) return n;
  const absl::string_view name = line.substr(0, colon);
  if (absl::EqualsIgnoreCase(name, "content-type")) {
    r.content_type = std::string(HeaderValue(line, colon));
  } else if (absl::EqualsIgnoreCase(name, "content-length")) {
    int64_t length = -1;
    if (absl::SimpleAtoi(HeaderValue(line, colon), &length) && length >= 0) {
      t->content_length = length;
    }
  } else if (absl::EqualsIgnoreCase(name, "location")) {
    t->location = std::string(HeaderValue(line, colon));
  } else if (absl::EqualsIgnoreCase(name, "retry-after")) {
    t->retry_after = std::string(HeaderValue(line, colon));
  } else if (absl::EqualsIgnoreCase(name, "etag")) {
    t->etag = std::string(HeaderValue(line, colon));
  } else if (absl::EqualsIgnoreCase(name, "last-modified")) {
    t->last_modified = std::string(HeaderValue(line, colon));
  }
  return n;
}

size_t Transfer::OnBody(char* data, size_t size, size_t nmemb, void* p) {
  auto* t = static_cast<Transfer*>(p);
  const size_t n = size * nmemb;
  std::string& body = t->result.body;
  const size_t room =
      static_cast<size_t>(t->options->max_body_bytes) - body.size();
  if (n <= room) {
    body.append(data, n);
    return n;
  }
  // Keep the first max_body_bytes and stop: a short count makes curl end
  // the transfer with CURLE_WRITE_ERROR, reported as truncated.
  body.append(data, room);
  t->result.truncated = true;
  return room;
}

int Transfer::OnDebug(CURL* easy, curl_infotype type, char* data, size_t size,
                      void* p) {
  if (type != CURLINFO_HEADER_OUT) return 0;
  auto* t = static_cast<Transfer*>(p);
  std::string& head = t->result.request_head;
  // A complete head followed by another one: curl re-sent the request (on a
  // new connection after a reused one failed); keep the last.
  if (absl::EndsWith(head, "\r\n\r\n")) head.clear();
  head.append(data, size);
  return 0;
}

curl_socket_t Transfer::OnOpenSocket(void* p, curlsocktype purpose,
                                     struct curl_sockaddr* address) {
  auto* t = static_cast<Transfer*>(p);
  // Behind a proxy the only socket is the proxy's (see FetcherOptions).
  if (!t->options->allow_private_addresses && t->options->proxy.empty()) {
    char text[kMaxIpText];
    if (IsNonPublicSockaddr(address, text)) {
      if (!t->refused) {
        t->refused = true;
        std::memcpy(t->refused_ip, text, sizeof(text));
      }
      return CURL_SOCKET_BAD;  // curl tries the next address, if any
    }
  }
  return socket(address->family, address->socktype | SOCK_CLOEXEC,
                address->protocol);
}

}  // namespace

struct Fetcher::Impl {
  FetcherOptions options;
  CURLM* multi = nullptr;
  // The `resolve` overrides as curl --connect-to entries, keyed by
  // lower-case "host:port" and by "host" (any port): one lookup per
  // transfer, however many there are (curl would scan a list of them for
  // every transfer).
  absl::flat_hash_map<std::string, std::string> connect_to;
  struct curl_slist* headers = nullptr;         // From, Accept-Language
  std::vector<std::unique_ptr<Transfer>> pool;  // every transfer made
  std::vector<Transfer*> idle;                  // not running
  size_t running = 0;                           // added to `multi`
  struct Queued {
    uint64_t id;
    std::string url;
    std::string connect_address;
    Validators validators;
  };
  std::deque<Queued> queued;       // waiting for a slot (max_in_flight)
  std::vector<FetchResult> ready;  // completed, not yet returned by Poll
  // curl's multi-socket interface over epoll: curl says which sockets to
  // watch for what (OnSocket) and when it next needs to run (OnTimer), and
  // Poll hands it only the sockets that are ready. curl_multi_poll would
  // look at every socket on every call: with 2,048 transfers that was
  // half the worker's CPU (poll(2) and curl walking every handle).
  int epoll_fd = -1;
  absl::Time timer = absl::InfiniteFuture();  // when curl wants to run

  ~Impl() {
    for (const auto& t : pool) {
      if (t->easy == nullptr) continue;
      if (multi != nullptr) curl_multi_remove_handle(multi, t->easy);
      curl_easy_cleanup(t->easy);
    }
    if (multi != nullptr) curl_multi_cleanup(multi);
    curl_slist_free_all(headers);
    if (epoll_fd >= 0) close(epoll_fd);
  }

  static int OnSocket(CURL*, curl_socket_t s, int what, void* userp, void*) {
    auto* impl = static_cast<Impl*>(userp);
    if (what == CURL_POLL_REMOVE) {
      // The socket may be closed already: its entry left with it.
      epoll_ctl(impl->epoll_fd, EPOLL_CTL_DEL, s, nullptr);
      return 0;
    }
    epoll_event ev{};
    ev.data.fd = s;
    if (what == CURL_POLL_IN || what == CURL_POLL_INOUT) ev.events |= EPOLLIN;
    if (what == CURL_POLL_OUT || what == CURL_POLL_INOUT) ev.events |= EPOLLOUT;
    if (epoll_ctl(impl->epoll_fd, EPOLL_CTL_MOD, s, &ev) != 0 &&
        errno == ENOENT) {
      epoll_ctl(impl->epoll_fd, EPOLL_CTL_ADD, s, &ev);
    }
    return 0;
  }

  static int OnTimer(CURLM*, long timeout_ms, void* userp) {
    auto* impl = static_cast<Impl*>(userp);
    impl->timer = timeout_ms < 0 ? absl::InfiniteFuture()
                                 : absl::Now() + absl::Milliseconds(timeout_ms);
    return 0;
  }

  // Lets curl run the transfers whose time has come (timeouts, new ones).
  void RunTimer() {
    if (absl::Now() < timer) return;
    timer = absl::InfiniteFuture();
    int still_running = 0;
    curl_multi_socket_action(multi, CURL_SOCKET_TIMEOUT, 0, &still_running);
  }

  // Waits up to `wait` for ready sockets and lets curl serve them.
  void WaitSockets(absl::Duration wait) {
    const int64_t ms = std::clamp<int64_t>(
        absl::ToInt64Milliseconds(absl::Ceil(wait, absl::Milliseconds(1))), 0,
        INT_MAX);
    epoll_event events[256];
    const int n = epoll_wait(epoll_fd, events, 256, static_cast<int>(ms));
    for (int i = 0; i < n; ++i) {
      int flags = 0;
      if (events[i].events & EPOLLIN) flags |= CURL_CSELECT_IN;
      if (events[i].events & EPOLLOUT) flags |= CURL_CSELECT_OUT;
      if (events[i].events & (EPOLLERR | EPOLLHUP)) flags |= CURL_CSELECT_ERR;
      int still_running = 0;
      curl_multi_socket_action(multi, events[i].data.fd, flags, &still_running);
    }
  }

  // A new transfer with every option that does not change between requests.
  Transfer* NewTransfer() {
    auto t = std::make_unique<Transfer>();
    t->options = &options;
    t->easy = curl_easy_init();
    if (t->easy == nullptr) return nullptr;
    CURL* e = t->easy;
    Transfer* tp = t.get();
    bool ok = true;
    auto set = [&ok](CURLcode c) { ok = ok && c == CURLE_OK; };
    set(curl_easy_setopt(e, CURLOPT_PRIVATE, tp));
    set(curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L));
    set(curl_easy_setopt(e, CURLOPT_ERRORBUFFER, tp->error_buffer));
    set(curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https"));
    set(curl_easy_setopt(e, CURLOPT_REDIR_PROTOCOLS_STR, "http,https"));
    set(curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L));
    // The configured proxy or none, whatever the environment says
    // (http_proxy...).
    set(curl_easy_setopt(e, CURLOPT_PROXY, options.proxy.c_str()));
    if (!options.proxy.empty()) {
      // The proxy's answer to CONNECT is not the response's head.
      set(curl_easy_setopt(e, CURLOPT_SUPPRESS_CONNECT_HEADERS, 1L));
    }
    // HTTP/2 only over TLS (ALPN); heads are rewritten for WARC in Finish.
    set(curl_easy_setopt(
        e, CURLOPT_HTTP_VERSION,
        static_cast<long>(options.http2 ? CURL_HTTP_VERSION_2TLS
                                        : CURL_HTTP_VERSION_1_1)));
    if (!options.ca_file.empty()) {
      set(curl_easy_setopt(e, CURLOPT_CAINFO, options.ca_file.c_str()));
    }
    set(curl_easy_setopt(e, CURLOPT_USERAGENT, options.user_agent.c_str()));
    if (headers != nullptr) {
      set(curl_easy_setopt(e, CURLOPT_HTTPHEADER, headers));
    }
    set(curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING,
                         options.accept_encoding.c_str()));
    set(curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS,
                         ClampMillis(options.connect_timeout)));
    set(curl_easy_setopt(e, CURLOPT_TIMEOUT_MS,
                         ClampMillis(options.total_timeout)));
    if (options.low_speed_bytes_per_s > 0) {
      const int64_t seconds =
          std::max<int64_t>(1, absl::ToInt64Seconds(absl::Ceil(
                                   options.low_speed_time, absl::Seconds(1))));
      set(curl_easy_setopt(e, CURLOPT_LOW_SPEED_LIMIT,
                           static_cast<long>(std::min<int64_t>(
                               options.low_speed_bytes_per_s, INT32_MAX))));
      set(curl_easy_setopt(
          e, CURLOPT_LOW_SPEED_TIME,
          static_cast<long>(std::min<int64_t>(seconds, INT32_MAX))));
    }
    set(curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER,
                         options.verify_tls ? 1L : 0L));
    set(curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST,
                         options.verify_tls ? 2L : 0L));
    set(curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, &Transfer::OnHeader));
    set(curl_easy_setopt(e, CURLOPT_HEADERDATA, tp));
    set(curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, &Transfer::OnBody));
    set(curl_easy_setopt(e, CURLOPT_WRITEDATA, tp));
    // The request head is only available through the debug callback, which
    // needs VERBOSE; everything else it gets is dropped.
    set(curl_easy_setopt(e, CURLOPT_DEBUGFUNCTION, &Transfer::OnDebug));
    set(curl_easy_setopt(e, CURLOPT_DEBUGDATA, tp));
    set(curl_easy_setopt(e, CURLOPT_VERBOSE, 1L));
    set(curl_easy_setopt(e, CURLOPT_OPENSOCKETFUNCTION,
                         &Transfer::OnOpenSocket));
    set(curl_easy_setopt(e, CURLOPT_OPENSOCKETDATA, tp));
    if (!ok) {
      curl_easy_cleanup(e);
      return nullptr;
    }
    pool.push_back(std::move(t));
    return tp;
  }

  void Complete(FetchResult result, absl::Status error) {
    result.error = std::move(error);
    result.started = absl::Now();
    ready.push_back(std::move(result));
  }

  // The `resolve` entry for `url`'s host and port (the scheme's default
  // when it has none), else for its host on any port; null when none.
  const std::string* ConnectToFor(absl::string_view url) const {
    const std::string authority = absl::AsciiStrToLower(HostForMessage(url));
    absl::string_view host = authority, port;
    const size_t bracket = authority.rfind(']');
    const size_t colon = authority.rfind(':');
    if (colon != std::string::npos &&
        (bracket == std::string::npos || colon > bracket)) {
      host = absl::string_view(authority).substr(0, colon);
      port = absl::string_view(authority).substr(colon + 1);
    } else {
      port = absl::StartsWithIgnoreCase(url, "https:") ? "443" : "80";
    }
    if (auto it = connect_to.find(absl::StrCat(host, ":", port));
        it != connect_to.end()) {
      return &it->second;
    }
    if (auto it = connect_to.find(host); it != connect_to.end()) {
      return &it->second;
    }
    return nullptr;
  }

  // Starts `url` on a transfer now (a slot is free).
  void Launch(uint64_t id, absl::string_view url,
              absl::string_view connect_address, const Validators& validators) {
    Transfer* t = nullptr;
    if (!idle.empty()) {
      t = idle.back();
      idle.pop_back();
    } else {
      t = NewTransfer();
    }
    if (t == nullptr) {
      FetchResult r;
      r.id = id;
      r.url = std::string(url);
      Complete(std::move(r),
               absl::InternalError(absl::StrCat(
                   HostForMessage(url), ": cannot set up a curl handle")));
      return;
    }
    t->Reset(id, url);
    t->own_connect_to.reset();
    if (connect_address.empty() && !connect_to.empty()) {
      if (const std::string* entry = ConnectToFor(url); entry != nullptr) {
        t->own_connect_to.reset(curl_slist_append(nullptr, entry->c_str()));
      }
    } else if (!connect_address.empty()) {
      // Any host, any port: connect to the given address on the URL's port.
      const bool v6 = connect_address.find(':') != absl::string_view::npos;
      const std::string entry = absl::StrCat(
          "::", v6 ? "[" : "", connect_address, v6 ? "]" : "", ":");
      t->own_connect_to.reset(curl_slist_append(nullptr, entry.c_str()));
    }
    CURLcode code =
        curl_easy_setopt(t->easy, CURLOPT_CONNECT_TO, t->own_connect_to.get());
    // A conditional GET: the shared headers plus the validators that are
    // safe to send (a stored value with a line break would inject headers).
    t->own_headers.reset();
    if (IsValidator(validators.etag) || IsValidator(validators.last_modified)) {
      curl_slist* list = nullptr;
      for (const curl_slist* h = headers; h != nullptr; h = h->next) {
        list = curl_slist_append(list, h->data);
      }
      if (IsValidator(validators.etag)) {
        list = curl_slist_append(
            list, absl::StrCat("If-None-Match: ", validators.etag).c_str());
      }
      if (IsValidator(validators.last_modified)) {
        list = curl_slist_append(
            list, absl::StrCat("If-Modified-Since: ", validators.last_modified)
                      .c_str());
      }
      t->own_headers.reset(list);
    }
    if (code == CURLE_OK) {
      code = curl_easy_setopt(
          t->easy, CURLOPT_HTTPHEADER,
          t->own_headers != nullptr ? t->own_headers.get() : headers);
    }
    if (code == CURLE_OK) {
      code = curl_easy_setopt(t->easy, CURLOPT_URL, t->result.url.c_str());
    }
    if (code != CURLE_OK) {
      idle.push_back(t);
      Complete(std::move(t->result),
               absl::InvalidArgumentError(absl::StrCat(
                   HostForMessage(url), ": ", curl_easy_strerror(code))));
      return;
    }
    t->result.started = absl::Now();
    const CURLMcode mcode = curl_multi_add_handle(multi, t->easy);
    if (mcode != CURLM_OK) {
      idle.push_back(t);
      Complete(std::move(t->result),
               absl::InternalError(absl::StrCat(HostForMessage(url), ": ",
                                                curl_multi_strerror(mcode))));
      return;
    }
    ++running;
  }

  absl::Status MapError(const Transfer& t, CURLcode code) const {
    if (code == CURLE_OK) return absl::OkStatus();
    const absl::string_view host = HostForMessage(t.result.url);
    if (t.header_overflow) {
      return absl::ResourceExhaustedError(
          absl::StrCat(host, ": response headers exceed max_header_bytes (",
                       options.max_header_bytes, " bytes)"));
    }
    if (code == CURLE_WRITE_ERROR && t.result.truncated) {
      return absl::OkStatus();
    }
    if (t.refused && code == CURLE_COULDNT_CONNECT) {
      return absl::PermissionDeniedError(
          absl::StrCat(host, ": refused to connect to non-public address ",
                       t.refused_ip, " (allow_private_addresses is off)"));
    }
    std::string message = absl::StrCat(host, ": ", curl_easy_strerror(code));
    if (t.error_buffer[0] != '\0') {
      absl::StrAppend(&message, " (", t.error_buffer, ")");
    }
    switch (code) {
      case CURLE_OPERATION_TIMEDOUT:
        return absl::DeadlineExceededError(message);
      case CURLE_COULDNT_RESOLVE_HOST:
      case CURLE_COULDNT_CONNECT:
      case CURLE_SEND_ERROR:
      case CURLE_RECV_ERROR:
      case CURLE_GOT_NOTHING:
      case CURLE_PARTIAL_FILE:
      case CURLE_SSL_CONNECT_ERROR:
      case CURLE_PEER_FAILED_VERIFICATION:
        return absl::UnavailableError(message);
      case CURLE_OUT_OF_MEMORY:
        // curl refuses a single header line over CURL_MAX_HTTP_HEADER (100
        // KB) this way, before the header callback sees it.
        if (!t.head_done) {
          return absl::ResourceExhaustedError(
              absl::StrCat(host, ": response header line over curl's limit of ",
                           CURL_MAX_HTTP_HEADER, " bytes (", message, ")"));
        }
        return absl::InternalError(message);
      case CURLE_URL_MALFORMAT:
      case CURLE_UNSUPPORTED_PROTOCOL:
      case CURLE_WEIRD_SERVER_REPLY:
      case CURLE_BAD_CONTENT_ENCODING:
      case CURLE_HTTP2:
      case CURLE_HTTP2_STREAM:
        return absl::InvalidArgumentError(message);
      default:
        return absl::InternalError(message);
    }
  }

  FetchResult Finish(Transfer* t, CURLcode code) {
    FetchResult& r = t->result;
    const absl::Time now = absl::Now();
    r.elapsed = now - r.started;
    long status = 0;
    if (curl_easy_getinfo(t->easy, CURLINFO_RESPONSE_CODE, &status) ==
        CURLE_OK) {
      r.status = static_cast<int>(status);
    }
    char* ip = nullptr;
    if (curl_easy_getinfo(t->easy, CURLINFO_PRIMARY_IP, &ip) == CURLE_OK &&
        ip != nullptr) {
      r.ip = ip;
    }
    long version = 0;
    if (curl_easy_getinfo(t->easy, CURLINFO_HTTP_VERSION, &version) ==
            CURLE_OK &&
        version != 0) {
      if (version == CURL_HTTP_VERSION_2_0) {
        r.protocol = "h2";
        AsHttp11(&r.request_head, &r.response_head);
      } else {
        r.protocol = "http/1.1";
      }
    }
    r.error = MapError(*t, code);
    if (!r.error.ok()) {
      std::string().swap(r.body);  // partial; release the memory
    }
    if (!t->location.empty()) {
      absl::StatusOr<url::Url> base = url::Parse(r.url);
      if (base.ok()) {
        absl::StatusOr<url::Url> target = url::Resolve(*base, t->location);
        if (target.ok()) r.location = target->spec();
      }
    }
    if (!t->retry_after.empty()) {
      r.retry_after = ParseRetryAfter(t->retry_after, now);
    }
    // Validators are sent back to the server later: kept only when that is
    // safe.
    if (IsValidator(t->etag)) r.etag = t->etag;
    if (IsValidator(t->last_modified)) r.last_modified = t->last_modified;
    return std::move(r);
  }

  // Moves every finished transfer to `out` and fills freed slots from the
  // queue.
  void Drain(std::vector<FetchResult>* out) {
    int left = 0;
    while (CURLMsg* msg = curl_multi_info_read(multi, &left)) {
      if (msg->msg != CURLMSG_DONE) continue;
      CURL* easy = msg->easy_handle;
      const CURLcode code = msg->data.result;  // read before removing
      char* priv = nullptr;
      curl_easy_getinfo(easy, CURLINFO_PRIVATE, &priv);
      Transfer* t = reinterpret_cast<Transfer*>(priv);
      curl_multi_remove_handle(multi, easy);
      --running;
      out->push_back(Finish(t, code));
      idle.push_back(t);
    }
    while (running < static_cast<size_t>(options.max_in_flight) &&
           !queued.empty()) {
      Queued q = std::move(queued.front());
      queued.pop_front();
      Launch(q.id, q.url, q.connect_address, q.validators);
    }
    if (!ready.empty()) {
      for (FetchResult& r : ready) out->push_back(std::move(r));
      ready.clear();
    }
  }
};

absl::StatusOr<std::unique_ptr<Fetcher>> Fetcher::Create(
    const FetcherOptions& options) {
  if (options.connect_timeout <= absl::ZeroDuration()) {
    return absl::InvalidArgumentError("connect_timeout must be positive");
  }
  if (options.total_timeout <= absl::ZeroDuration()) {
    return absl::InvalidArgumentError("total_timeout must be positive");
  }
  if (options.low_speed_bytes_per_s < 0) {
    return absl::InvalidArgumentError("low_speed_bytes_per_s must be >= 0");
  }
  if (options.low_speed_bytes_per_s > 0 &&
      options.low_speed_time <= absl::ZeroDuration()) {
    return absl::InvalidArgumentError("low_speed_time must be positive");
  }
  if (options.max_body_bytes <= 0) {
    return absl::InvalidArgumentError("max_body_bytes must be positive");
  }
  if (options.max_header_bytes <= 0) {
    return absl::InvalidArgumentError("max_header_bytes must be positive");
  }
  if (options.max_in_flight <= 0) {
    return absl::InvalidArgumentError("max_in_flight must be positive");
  }
  if (HasLineBreak(options.user_agent)) {
    return absl::InvalidArgumentError("user_agent has a line break or NUL");
  }
  if (HasLineBreak(options.accept_encoding)) {
    return absl::InvalidArgumentError(
        "accept_encoding has a line break or NUL");
  }
  if (!options.proxy.empty()) {
    static constexpr absl::string_view kSchemes[] = {"http://",   "https://",
                                                     "socks4://", "socks4a://",
                                                     "socks5://", "socks5h://"};
    bool scheme = false;
    for (absl::string_view s : kSchemes) {
      if (absl::StartsWithIgnoreCase(options.proxy, s) &&
          options.proxy.size() > s.size()) {
        scheme = true;
      }
    }
    const bool clean = std::all_of(options.proxy.begin(), options.proxy.end(),
                                   [](char c) { return c > 0x20 && c < 0x7f; });
    if (!scheme || !clean) {
      return absl::InvalidArgumentError(absl::StrCat(
          "proxy must be scheme://host[:port] with scheme http, https, "
          "socks4, socks4a, socks5 or socks5h, got '",
          options.proxy.substr(0, 100), "'"));
    }
  }
  if (HasLineBreak(options.ca_file)) {
    return absl::InvalidArgumentError("ca_file has a line break or NUL");
  }
  if (!options.ca_file.empty() && access(options.ca_file.c_str(), R_OK) != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("ca_file '", options.ca_file, "' cannot be read"));
  }
  if (HasLineBreak(options.from)) {
    return absl::InvalidArgumentError("from has a line break or NUL");
  }
  if (HasLineBreak(options.accept_language)) {
    return absl::InvalidArgumentError(
        "accept_language has a line break or NUL");
  }
  if (absl::Status s = GlobalInit(); !s.ok()) return s;

  auto impl = std::make_unique<Impl>();
  impl->options = options;
  for (const FetcherOptions::Resolve& r : options.resolve) {
    std::string host, port, to_host, to_port;
    if (!SplitHostPort(r.host_port, &host, &port)) {
      return absl::InvalidArgumentError(
          absl::StrCat("resolve: malformed host_port '", r.host_port, "'"));
    }
    if (!SplitHostPort(r.address, &to_host, &to_port)) {
      return absl::InvalidArgumentError(
          absl::StrCat("resolve: malformed address '", r.address, "'"));
    }
    // curl's --connect-to: HOST:PORT:CONNECT-TO-HOST:CONNECT-TO-PORT, an
    // empty PORT matching any port and an empty CONNECT-TO-PORT keeping the
    // URL's.
    const std::string entry =
        absl::StrCat(host, ":", port, ":", to_host, ":", to_port);
    // The first entry for a host (and port) wins, as in curl's list.
    impl->connect_to.try_emplace(
        absl::AsciiStrToLower(port.empty() ? host
                                           : absl::StrCat(host, ":", port)),
        entry);
  }
  for (const auto& [name, value] :
       {std::pair<absl::string_view, const std::string&>{"From", options.from},
        {"Accept-Language", options.accept_language}}) {
    if (value.empty()) continue;
    const std::string line = absl::StrCat(name, ": ", value);
    struct curl_slist* list = curl_slist_append(impl->headers, line.c_str());
    if (list == nullptr) return absl::InternalError("curl_slist_append failed");
    impl->headers = list;
  }
  impl->multi = curl_multi_init();
  if (impl->multi == nullptr)
    return absl::InternalError("curl_multi_init failed");
  // Politeness (one transfer per host) is the caller's job, so no per-host
  // limit here; the total bounds sockets, idle cached connections included
  // (curl closes the oldest idle one when a new one is needed).
  if (curl_multi_setopt(impl->multi, CURLMOPT_MAX_TOTAL_CONNECTIONS,
                        static_cast<long>(options.max_in_flight)) != CURLM_OK) {
    return absl::InternalError("curl_multi_setopt failed");
  }
  impl->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
  if (impl->epoll_fd < 0) {
    return absl::ErrnoToStatus(errno, "epoll_create1");
  }
  Impl* ip = impl.get();
  if (curl_multi_setopt(impl->multi, CURLMOPT_SOCKETFUNCTION,
                        &Impl::OnSocket) != CURLM_OK ||
      curl_multi_setopt(impl->multi, CURLMOPT_SOCKETDATA, ip) != CURLM_OK ||
      curl_multi_setopt(impl->multi, CURLMOPT_TIMERFUNCTION, &Impl::OnTimer) !=
          CURLM_OK ||
      curl_multi_setopt(impl->multi, CURLMOPT_TIMERDATA, ip) != CURLM_OK) {
    return absl::InternalError("curl_multi_setopt failed");
  }
  impl->pool.reserve(static_cast<size_t>(options.max_in_flight));
  impl->idle.reserve(static_cast<size_t>(options.max_in_flight));
  return std::unique_ptr<Fetcher>(new Fetcher(std::move(impl)));
}

Fetcher::Fetcher(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Fetcher::~Fetcher() = default;

bool IsValidator(absl::string_view value) {
  if (value.empty() || value.size() > kMaxValidatorBytes) return false;
  for (char c : value) {
    if (c < 0x20 || c > 0x7e) return false;
  }
  return true;
}

void Fetcher::Start(uint64_t id, absl::string_view url,
                    absl::string_view connect_address,
                    const Validators& validators) {
  Impl& impl = *impl_;
  if (url.find('\0') != absl::string_view::npos) {
    FetchResult r;
    r.id = id;
    r.url = std::string(url);
    impl.Complete(std::move(r),
                  absl::InvalidArgumentError("URL contains a NUL byte"));
    return;
  }
  if (!connect_address.empty() && !IsIpAddress(connect_address)) {
    FetchResult r;
    r.id = id;
    r.url = std::string(url);
    impl.Complete(std::move(r), absl::InvalidArgumentError(absl::StrCat(
                                    HostForMessage(url),
                                    ": connect address is not an IP address")));
    return;
  }
  if (impl.running >= static_cast<size_t>(impl.options.max_in_flight)) {
    impl.queued.push_back(
        {id, std::string(url), std::string(connect_address), validators});
    return;
  }
  impl.Launch(id, url, connect_address, validators);
}

std::vector<FetchResult> Fetcher::Poll(absl::Duration timeout) {
  Impl& impl = *impl_;
  std::vector<FetchResult> out;
  if (impl.running == 0) {
    impl.Drain(&out);  // queued or immediately failed starts
    if (impl.running == 0) return out;
  }
  const absl::Time deadline = absl::Now() + timeout;
  while (true) {
    impl.RunTimer();
    impl.Drain(&out);
    if (!out.empty() || impl.running == 0) break;
    const absl::Time now = absl::Now();
    if (now >= deadline) {
      // Even a Poll that may not wait serves the sockets that are ready: a
      // caller polling with no timeout again and again must not starve
      // them (curl_multi_perform, before, ran every transfer each call).
      impl.WaitSockets(absl::ZeroDuration());
      impl.RunTimer();
      impl.Drain(&out);
      break;
    }
    impl.WaitSockets(std::min(deadline, impl.timer) - now);
  }
  return out;
}

size_t Fetcher::in_flight() const {
  return impl_->running + impl_->queued.size() + impl_->ready.size();
}

std::optional<absl::Duration> ParseRetryAfter(absl::string_view value,
                                              absl::Time now) {
  value = absl::StripAsciiWhitespace(value);
  if (value.empty()) return std::nullopt;
  if (std::all_of(value.begin(), value.end(), [](char c) {
        return absl::ascii_isdigit(static_cast<unsigned char>(c));
      })) {
    int64_t seconds = 0;
    if (!absl::SimpleAtoi(value, &seconds)) return std::nullopt;  // overflow
    return absl::Seconds(seconds);
  }
  // HTTP-date (RFC 9110 §5.6.7): IMF-fixdate, then the obsolete RFC 850 and
  // asctime forms, which recipients must still accept.
  static constexpr const char* kFormats[] = {
      "%a, %d %b %Y %H:%M:%S GMT",
      "%A, %d-%b-%y %H:%M:%S GMT",
      "%a %b %e %H:%M:%S %Y",
  };
  for (const char* format : kFormats) {
    absl::Time t;
    std::string err;
    if (absl::ParseTime(format, value, absl::UTCTimeZone(), &t, &err)) {
      return std::max(t - now, absl::ZeroDuration());
    }
  }
  return std::nullopt;
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

}  // namespace fcrawl::worker
