// HTTP fetching: a libcurl multi adapter that runs many GET
// transfers at once on the calling thread, through curl's multi-socket
// interface over epoll (a wait costs in the sockets that are ready, not in
// the transfers running: thousands stay cheap).
//
// One Fetch is one request: HTTP/2 where a TLS server offers it (ALPN) and
// `http2` is on, else HTTP/1.1. The request and response heads kept for
// WARC are the bytes on the wire for HTTP/1.1; for HTTP/2 (binary frames)
// they are curl's HTTP/1.1-style rendering of the same headers, with the
// protocol token of the request and status lines written "HTTP/1.1"
// (FetchResult::protocol says "h2"), as other HTTP/2 crawlers write them
// to WARC. Redirects are
// NOT followed here, because every hop has to be checked against the crawl's
// scope and robots.txt before it is requested (the crawl loop does that and
// starts a new Fetch for the Location). Politeness (one transfer per host,
// per-host and per-IP delays) is the caller's job too: the fetcher starts
// what it is given.
// Connections are kept alive and reused (curl's connection cache, at most
// max_in_flight sockets open, idle ones included). Proxy settings in the
// environment are ignored; `proxy` sets one explicitly.
//
// Every byte received is hostile. What the fetcher bounds:
//  - time: connect timeout, total timeout, and a low-speed limit (a server
//    that trickles bytes is cut off once it is slower than
//    low_speed_bytes_per_s for low_speed_seconds);
//  - size: the body is kept up to max_body_bytes AFTER decompression (curl
//    decodes gzip/deflate/br itself and hands us decoded bytes, so a gzip
//    bomb stops at the cap); a Content-Length above the cap is read up to
//    the cap when the Content-Type may be a page (none, text/, HTML or
//    XML: the page is cut and parsed, as a chunked one is) and stops the
//    transfer before the body otherwise; headers are capped at
//    max_header_bytes (counting interim 1xx heads and chunked trailers; a
//    single header line over curl's own 100 KB limit fails the same way);
//  - where it connects: private, loopback, link-local, unspecified and
//    multicast addresses (IPv4 and IPv6, IPv4-mapped included) are refused
//    at socket-open time, whether the address came from DNS or from a
//    `resolve` override, unless allow_private_addresses is set.
// A transfer that hits a bound completes with an error (see FetchResult).
//
// Ownership and threads: a Fetcher is used by one thread at a time (the
// crawl loop's); it owns its curl handles. curl_global_init is done once per
// process by the first Create() (thread-safe).

#ifndef FCRAWL_PROTOCOL_FETCHER_H_
#define FCRAWL_PROTOCOL_FETCHER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace fcrawl::protocol {

struct FetcherOptions {
  absl::Duration connect_timeout = absl::Seconds(10);
  absl::Duration total_timeout = absl::Seconds(30);
  // 0 = no low-speed check. Checked by the fetcher once a second over
  // every running transfer (head and body bytes), not by curl's per-transfer
  // timers; a transfer is stopped within a second past low_speed_time.
  int64_t low_speed_bytes_per_s = 1000;
  absl::Duration low_speed_time = absl::Seconds(10);
  // Body bytes kept, decompressed. Larger bodies: truncated = true, and the
  // transfer is stopped at the cap (nothing more is read from the server).
  int64_t max_body_bytes = 10 << 20;
  // Response header bytes (all header lines of the response, interim 1xx
  // heads and trailers included); more is a ResourceExhausted error.
  int64_t max_header_bytes = 256 << 10;
  std::string user_agent = "fcrawl/0.1";
  // From and Accept-Language headers; "" = not sent.
  std::string from;
  std::string accept_language;
  // Accept-Encoding: what curl can decode ("" would let curl offer all).
  std::string accept_encoding = "gzip, deflate, br";
  bool allow_private_addresses = false;
  // Address overrides, as curl's --connect-to: ("host" or "host:port",
  // "ip:port" or "[ipv6]:port"). A request for a matching host (and port;
  // any port when host_port has none) connects to the address (on the
  // URL's port when the address has none); the URL, Host header and TLS
  // name stay. The address is still subject to allow_private_addresses.
  struct Resolve {
    std::string host_port;
    std::string address;
  };
  std::vector<Resolve> resolve;
  // Transfers running at once; Start() beyond this queues in the fetcher
  // (FIFO), and a queued transfer's timeouts start when it starts running.
  int max_in_flight = 64;
  // Verify TLS certificates (tests against self-signed servers turn it off).
  bool verify_tls = true;
  // CA certificates (PEM file) to verify servers with instead of the
  // system's; "" = the system's.
  std::string ca_file;
  // Offer HTTP/2 to TLS servers (ALPN); cleartext stays HTTP/1.1.
  bool http2 = true;
  // Every transfer through this proxy: "http://host:port",
  // "https://host:port", "socks4://", "socks4a://", "socks5://" or
  // "socks5h://" (the proxy resolves names); "" = none. With a proxy the
  // proxy decides where connections go: allow_private_addresses and
  // `resolve` do not apply (the only socket opened is the proxy's), and the
  // request head of a plain-HTTP fetch has the absolute URL, as sent.
  std::string proxy;
};

struct FetchResult {
  uint64_t id = 0;  // the id given to Start()
  std::string url;  // the URL requested
  // HTTP status of the response; 0 when there was none (error).
  int status = 0;
  // Transport or bound error; OK when a complete response was received
  // (whatever its status), or a truncated one (see `truncated`). Codes:
  // DeadlineExceeded (connect/total timeout, low-speed limit), Unavailable
  // (DNS, connection refused/reset, empty reply, body shorter than its
  // Content-Length, TLS handshake or certificate failure), PermissionDenied
  // (non-public address refused), ResourceExhausted (header cap),
  // InvalidArgument (malformed or non-http(s) URL, malformed response or
  // content encoding), Internal (other curl errors). The message names the
  // URL's host[:port] and the curl error text. On error `body` is empty;
  // `status` and the heads hold whatever had arrived.
  absl::Status error;
  // Body larger than max_body_bytes, error stays OK. By counting the
  // decoded bytes: `body` holds the first max_body_bytes. By Content-Length
  // (announced above the cap): the same for a type that may be a page;
  // for any other type nothing of the body is read, `body` is empty.
  bool truncated = false;
  // Content-Type header value as sent ("" when absent).
  std::string content_type;
  // Location header resolved against `url` (absolute; "" when absent or not
  // a valid http(s) URL) — only meaningful for 3xx.
  std::string location;
  // Retry-After (seconds or HTTP-date, converted to a delay from the moment
  // the transfer completed; a past date gives zero), when the response
  // carried a valid one (whatever its status).
  std::optional<absl::Duration> retry_after;
  // The IP address connected to ("" when no connection was made).
  std::string ip;
  // The exact request header block sent and response header block received
  // (status line and headers, ending with the blank line; line ends as the
  // server sent them, normally CRLF), for WARC records. The response block
  // is that of the final response when the server sent interim (1xx)
  // responses; chunked trailers are not in it.
  std::string request_head;
  std::string response_head;
  // "h2" or "http/1.1" (also on errors after a connection was made; ""
  // when none was).
  std::string protocol;
  // The final response's ETag and Last-Modified values when IsValidator
  // accepts them ("" otherwise), to send back on a revisit.
  std::string etag;
  std::string last_modified;
  std::string body;        // decoded (Content-Encoding removed)
  absl::Time started;      // when the request was handed to curl
  absl::Duration elapsed;  // from `started` to completion
};

// Validators of an earlier response of the same URL, sent with a request
// as If-None-Match and If-Modified-Since (a conditional GET: a server
// answers 304 Not Modified, without a body, when the page did not change).
// A value IsValidator refuses is not sent.
struct Validators {
  std::string etag;
  std::string last_modified;
};
inline constexpr size_t kMaxValidatorBytes = 256;
// Non-empty printable ASCII of at most kMaxValidatorBytes: safe to put in a
// request header (no line break can inject another header).
bool IsValidator(absl::string_view value);

class Fetcher {
 public:
  // InvalidArgument for options out of range (non-positive timeouts or
  // caps, a malformed resolve entry, a line break in user_agent or
  // accept_encoding, a proxy that is not scheme://host[:port] of a scheme
  // above); Internal when curl cannot be set up.
  static absl::StatusOr<std::unique_ptr<Fetcher>> Create(
      const FetcherOptions& options);

  Fetcher(const Fetcher&) = delete;
  Fetcher& operator=(const Fetcher&) = delete;
  ~Fetcher();  // aborts every running transfer

  // Starts a GET of `url` (absolute http/https). Never blocks. A URL curl
  // refuses completes at the next Poll with an error. `connect_address`
  // (an IPv4 or IPv6 address, no brackets), when given, is where the
  // transfer connects instead of resolving the URL's host (the crawl's own
  // resolver found it, protocol/resolver.h); the `resolve` overrides then do
  // not apply. The address is still subject to allow_private_addresses.
  // `validators` (IsValidator ones) make the request conditional.
  void Start(uint64_t id, absl::string_view url,
             absl::string_view connect_address = "",
             const Validators& validators = {});

  // Drives the transfers for at most `timeout` (returning as soon as at
  // least one has completed, or at once when nothing is running) and returns
  // the completed ones.
  std::vector<FetchResult> Poll(absl::Duration timeout);

  // Transfers started and not yet returned by Poll.
  size_t in_flight() const;

 private:
  struct Impl;
  explicit Fetcher(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Retry-After value (RFC 9110 §10.2.3: delay-seconds or HTTP-date in any of
// the three formats of §5.6.7) as a delay from `now` (zero for a past date);
// nullopt when malformed. Exposed for tests.
std::optional<absl::Duration> ParseRetryAfter(absl::string_view value,
                                              absl::Time now);

// Whether `ip` (textual IPv4 or IPv6, no brackets) is private, loopback,
// link-local, unspecified, multicast or otherwise not a public unicast
// address. Unparseable text counts as private (refused). IPv4: 0/8, 10/8,
// 100.64/10, 127/8, 169.254/16, 172.16/12, 192.0.0/24, the documentation
// and benchmarking nets, 192.88.99/24, 192.168/16, 224/4 and 240/4 (with
// 255.255.255.255). IPv6: everything outside 2000::/3 (::, ::1, fc00::/7,
// fe80::/10, ff00::/8...), 2001::/23, 2001:db8::/32 and 3fff::/20; the
// IPv4-mapped (::ffff:0:0/96), NAT64 (64:ff9b::/96) and 6to4 (2002::/16)
// forms are judged by the IPv4 address they carry.
bool IsNonPublicAddress(absl::string_view ip);

}  // namespace fcrawl::protocol

#endif  // FCRAWL_PROTOCOL_FETCHER_H_
