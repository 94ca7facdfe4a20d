// URL parsing, normalisation, resolution (url.cc) and the URL-structure
// measures the crawl strategies use ([MMTOPIC] §4.3.3–4.3.5 URL distance,
// [INTEREST] link types; url_structure.cc).
//
// Only absolute http and https URLs exist in this module: the crawler fetches
// nothing else, so every other scheme is rejected at the door instead of
// being carried around as a URL that can never be fetched.
//
// Thread-safety: every function here is thread-safe. `Url` is an immutable
// value type; concurrent reads of one `Url` are safe.
//
// Input encoding: URLs are byte strings expected to be UTF-8 (callers that
// extract links from pages in other charsets convert the href first). Bytes
// that may not appear in a URL are percent-encoded byte by byte, so invalid
// UTF-8 in a path or query does not fail; in a host it does (IDNA rejects it).

#ifndef FCRAWL_CORE_URL_H_
#define FCRAWL_CORE_URL_H_

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace fcrawl::url {

// Longest URL (input to Parse, reference given to Resolve, and normalised
// result) that is accepted. Longer URLs are almost always session-id or
// calendar traps, and many servers refuse them anyway.
inline constexpr size_t kMaxUrlLength = 2048;

class UrlParser;  // Defined in url.cc; the only way to build a Url.

// A parsed, normalised absolute http/https URL. Always valid: the only ways to
// obtain one are Parse() and Resolve(). Two Urls are equal exactly when their
// normalised specs are equal, so equality means "same resource" as far as
// RFC 3986 §6 syntax-based normalisation can tell.
//
// The string_view accessors point into the Url's own storage and stay valid
// as long as the Url object lives and is not assigned to.
class Url {
 public:
  Url(const Url&) = default;
  Url(Url&&) = default;
  Url& operator=(const Url&) = default;
  Url& operator=(Url&&) = default;

  // "http" or "https".
  absl::string_view scheme() const {
    return absl::string_view(spec_).substr(0, scheme_end_);
  }
  // Lower-case ASCII; internationalised names in punycode ("xn--..."), no
  // trailing dot. IPv6 literals keep their brackets ("[2001:db8::1]") so the
  // value can go straight into a Host header.
  absl::string_view host() const {
    return absl::string_view(spec_).substr(host_begin_,
                                           host_end_ - host_begin_);
  }
  // The explicit port, or -1 when absent or equal to the scheme's default.
  int port() const { return port_; }
  // Percent-encoding-normalised, without dot segments, always starts with '/'.
  absl::string_view path() const {
    return absl::string_view(spec_).substr(path_begin_,
                                           path_end_ - path_begin_);
  }
  // Without the '?'; empty when the URL has no query (or an empty one).
  absl::string_view query() const {
    if (path_end_ == spec_.size()) return {};
    return absl::string_view(spec_).substr(path_end_ + 1);
  }
  // The whole normalised URL: scheme://host[:port]path[?query]. No fragment.
  const std::string& spec() const { return spec_; }

  // The non-empty '/'-separated segments of path(), still percent-encoded.
  // The last one is the file name unless the path ends in '/'.
  // "/a/b/c.html" -> {"a", "b", "c.html"}; "/a//b/" -> {"a", "b"}; "/" -> {}.
  std::vector<std::string> PathSegments() const;

  // path() up to and including its last '/': "/a/b/c.html" -> "/a/b/",
  // "/a/b/" -> "/a/b/", "/" -> "/".
  absl::string_view Directory() const;

  friend bool operator==(const Url& a, const Url& b) {
    return a.spec_ == b.spec_;
  }
  friend bool operator!=(const Url& a, const Url& b) { return !(a == b); }
  // Orders by spec so Urls can be map keys and sorted deterministically.
  friend bool operator<(const Url& a, const Url& b) {
    return a.spec_ < b.spec_;
  }
  template <typename H>
  friend H AbslHashValue(H h, const Url& u) {
    return H::combine(std::move(h), u.spec_);
  }
  // Writes spec(); lets test failures and logs show the URL.
  friend std::ostream& operator<<(std::ostream& os, const Url& u);

 private:
  friend class UrlParser;
  Url() = default;

  std::string spec_;
  // Offsets into spec_. kMaxUrlLength fits in 16 bits; keeping the object
  // small matters because the frontier holds millions of Urls.
  uint16_t scheme_end_ = 0;
  uint16_t host_begin_ = 0;
  uint16_t host_end_ = 0;
  uint16_t path_begin_ = 0;
  uint16_t path_end_ = 0;  // Where '?' starts, or spec_.size() if no query.
  int32_t port_ = -1;
};

// Parses an absolute http or https URL and normalises it (RFC 3986 §6):
//  - leading and trailing spaces/control characters are trimmed and tabs,
//    CRs and LFs anywhere are removed (what browsers do with hrefs);
//  - scheme and host are lower-cased; a non-ASCII host is converted to
//    punycode with UTS #46 (non-transitional, as browsers do); a trailing dot
//    on the host is removed; percent-escapes in the host are decoded first;
//    IPv4 addresses are kept as written; IPv6 literals are validated and
//    written in canonical form (lower case, "::" for the longest zero run);
//  - the default port (80 for http, 443 for https) is removed, as are leading
//    zeros of other ports; an empty port ("http://a:/") counts as absent;
//  - '\' in the part before the query is treated as '/', as browsers do;
//  - percent-escapes get upper-case hex, escapes of unreserved characters
//    (ALPHA DIGIT - . _ ~) are decoded, and bytes that may not appear in a URL
//    (controls, space, non-ASCII, and "<>\"^`{|}[]") are percent-encoded;
//  - dot segments are removed (RFC 3986 §5.2.4, after escape decoding, so
//    "%2e%2e" counts as ".."); an empty path becomes "/";
//  - the fragment is dropped without being looked at; an empty query
//    ("http://a/?") is dropped.
// Normalisation is idempotent: Parse(u.spec()) returns u for every u that
// Parse or Resolve produced.
//
// Errors (all InvalidArgument, the message naming the problem; messages do not
// repeat the whole URL, so callers that log should add it):
//  - the input is longer than kMaxUrlLength bytes (checked before any other
//    work), or the normalised URL is;
//  - no scheme, or a scheme other than http/https ("unsupported scheme 'ftp'");
//  - no "//" after the scheme;
//  - userinfo ("user:pass@host"), which a crawler has no use for and which is a
//    favourite of phishing links;
//  - an empty host, a host with characters other than letters, digits, '-',
//    '_' and '.', an empty label, a label over 63 bytes, a host over 253
//    bytes, a malformed IPv6 literal, or a host IDNA cannot convert;
//  - a port that is not all digits, or is 0 or above 65535;
//  - '%' not followed by two hex digits in the host, path or query.
absl::StatusOr<Url> Parse(absl::string_view spec);

// The host of `spec` in lower case plus ":port" when it has an explicit
// non-default port ("www.a.test", "127.0.0.1:8080"): the key by which the
// link state, the cluster's partitioning and politeness name a host. ""
// when `spec` is not an absolute http(s) URL.
std::string HostKey(absl::string_view spec);
// The same key from a URL already parsed: no second parse (a page's links
// are parsed once in the scope check, then keyed).
std::string HostKey(const Url& url);

// Resolves `reference` (an href as found in a page) against `base` following
// RFC 3986 §5.2, then normalises as Parse does. Covers relative paths, "../",
// network-path references ("//host/x"), query-only ("?q") and fragment-only
// ("#f", giving `base` itself) references and absolute URLs. Like browsers
// (and RFC 3986 §5.2.2's non-strict mode), a reference whose scheme equals the
// base's is resolved as relative: "http:g" against an http base is "g".
//
// Errors (InvalidArgument): a reference with any scheme but http/https
// ("unsupported scheme 'javascript'", also mailto:, data:, tel:, ftp:, ...);
// a reference or a result longer than kMaxUrlLength; and every error Parse
// reports for the resulting URL.
absl::StatusOr<Url> Resolve(const Url& base, absl::string_view reference);

// The registrable domain ("eTLD+1") of `host` from the Public Suffix List
// built into libpsl: "www.bbc.co.uk" -> "bbc.co.uk", "a.b.example.com" ->
// "example.com". Returns `host` itself for IPv4/IPv6 addresses and for hosts
// that have no registrable domain (a public suffix such as "co.uk", or a
// single label such as "localhost"). `host` should be a Url::host() (lower-case
// ASCII/punycode); upper-case ASCII is lower-cased, the result is always
// lower-case. Thread-safe: libpsl's built-in list is read-only.
std::string RegistrableDomain(absl::string_view host);

// Percent-encoding's two halves, for every reader and writer of %XX
// (URLs, URL words, robots.txt paths): the value of a hex digit (-1 for
// another byte), and `c` appended as "%XX" with upper-case digits (RFC
// 3986 §2.1).
int HexDigitValue(char c);
void AppendPercentEscape(unsigned char c, std::string* out);

// Session-id parameters, case-insensitive names: sid, sessionid, session_id,
// jsessionid, phpsessid, aspsessionid (and aspsessionid<suffix>), cfid,
// cftoken, zenid, osCsid. Servers that put a fresh id in every link make
// one page reachable under endless URLs; a crawler that drops them sees
// one URL.
bool IsSessionIdParameter(absl::string_view name);

// `url` without its session-id query parameters (IsSessionIdParameter) and
// without ";jsessionid=..." path parameters; the other parameters keep
// their order. Returns `url` itself when there is nothing to remove.
Url StripSessionIds(const Url& url);

// ---------------------------------------------------------------------------
// URL structure (url_structure.cc): the URL-rule strategy's view of a URL and
// its URL distance ([MMTOPIC] §4.3.3–4.3.5), and the link types between a
// page and a link target ([INTEREST]).
// ---------------------------------------------------------------------------

// The URL as the URL-rule strategy sees it ([MMTOPIC] §4.3.3): the host, the
// path's directories (including the file name as the last one) and the query's
// key/value pairs in order. All parts stay percent-encoded as in Url.
struct UrlStructure {
  std::string host;
  std::vector<std::string> dirs;
  std::vector<std::pair<std::string, std::string>> query;

  friend bool operator==(const UrlStructure& a, const UrlStructure& b) {
    return a.host == b.host && a.dirs == b.dirs && a.query == b.query;
  }
};

// Splits `url`: dirs = url.PathSegments(); the query is split on '&' and each
// piece at its first '=' ("k" without '=' gives ("k", "")); empty pieces
// ("a=1&&b=2") are skipped.
UrlStructure Structure(const Url& url);

// URL distance of [MMTOPIC] §4.3.5, formula (4.3):
//   dURL = dHost·(dPath+1)·(dQuery+1) − 1
// with dHost = 1 (std::nullopt when the hosts differ: the paper does not
// compare URLs of different hosts); with m ≤ n the two directory counts and k
// the number of differing directories among the first m,
// dPath = 4k + 2(n−m) (4.4); dQuery = 0 if the query lists are equal (same
// pairs, same order) else 1. Example: /a/b/c.html vs /a/x/c.html gives 4.
std::optional<int> Distance(const UrlStructure& a, const UrlStructure& b);

// Link types between a page and a link target ([INTEREST]).
enum class LinkType {
  kDownward,    // Target in a directory below the page's directory.
  kUpward,      // Target in an ancestor directory of the page's directory.
  kHorizontal,  // Target in the same directory (a self-link is horizontal).
  kCrosswise,   // Same host, another branch of the directory tree.
  kOutward,     // Another host.
};

// Classifies the link from page `from` to `to` by host() and Directory().
// Only the host decides "same site": scheme and port are ignored, and
// "www.example.com" and "example.com" are different hosts (outward).
LinkType ClassifyLink(const Url& from, const Url& to);

// "downward", "upward", "horizontal", "crosswise" or "outward".
absl::string_view LinkTypeName(LinkType type);

}  // namespace fcrawl::url

#endif  // FCRAWL_CORE_URL_H_
