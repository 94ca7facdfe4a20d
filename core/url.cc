// Parsing, normalisation and resolution of core/url.h, with host keys,
// registrable domains and session-id stripping; the URL-structure measures
// (Structure, Distance, link types) are in url_structure.cc.
#include "core/url.h"

#include <arpa/inet.h>
#include <libpsl.h>
#include <unicode/uidna.h>
#include <unicode/utypes.h>

#include <algorithm>
#include <cstring>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "core/quote.h"

namespace fcrawl::url {
namespace {

constexpr size_t kMaxHostLength = 253;  // RFC 1035 §2.3.4, without the dot.
constexpr size_t kMaxLabelLength = 63;

// Character classes, one bit each, looked up per byte. A table keeps the
// per-byte work of Parse to one load, which matters because every extracted
// link goes through here.
enum : uint8_t {
  kUnreserved = 1,  // RFC 3986 unreserved: ALPHA DIGIT - . _ ~
  kPathChar = 2,    // May stay literal in a path segment (pchar minus '%').
  kQueryChar = 4,   // May stay literal in a query.
  kHostChar = 8,    // Accepted in an ASCII host name.
  kSchemeChar = 16,
};

struct CharTable {
  uint8_t flags[256];
};

constexpr CharTable MakeCharTable() {
  CharTable t{};
  for (int c = 0; c < 256; ++c) {
    const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    const bool digit = c >= '0' && c <= '9';
    const bool unreserved =
        alpha || digit || c == '-' || c == '.' || c == '_' || c == '~';
    const bool sub_delim = c == '!' || c == '$' || c == '&' || c == '\'' ||
                           c == '(' || c == ')' || c == '*' || c == '+' ||
                           c == ',' || c == ';' || c == '=';
    const bool pchar = unreserved || sub_delim || c == ':' || c == '@';
    uint8_t f = 0;
    if (unreserved) f |= kUnreserved;
    if (pchar) f |= kPathChar;
    if (pchar || c == '/' || c == '?') f |= kQueryChar;
    // '_' is not allowed by RFC 952/1123 but is common in real host names
    // (and browsers resolve them), so refusing it would lose pages.
    if (alpha || digit || c == '-' || c == '_' || c == '.') f |= kHostChar;
    if (alpha || digit || c == '+' || c == '-' || c == '.') f |= kSchemeChar;
    t.flags[c] = f;
  }
  return t;
}

constexpr CharTable kChars = MakeCharTable();

bool Is(char c, uint8_t cls) {
  return (kChars.flags[static_cast<unsigned char>(c)] & cls) != 0;
}

bool IsSeparator(char c) { return c == '/' || c == '\\'; }

bool IsTabOrNewline(char c) { return c == '\t' || c == '\n' || c == '\r'; }

absl::Status TooLong(absl::string_view what, size_t size) {
  return absl::InvalidArgumentError(absl::StrCat(what, " is ", size,
                                                 " bytes, longer than the ",
                                                 kMaxUrlLength, "-byte limit"));
}

absl::Status BadEscape(absl::string_view in, size_t pos,
                       absl::string_view part) {
  return absl::InvalidArgumentError(absl::StrCat(
      "invalid percent-encoding ", QuoteInput(in.substr(pos, 3)), " in the ",
      part, ": '%' must be followed by two hex digits"));
}

// Appends `in` to `out`, normalising percent-encoding: escapes get upper-case
// hex, escapes of unreserved characters are decoded (RFC 3986 §6.2.2.2), and
// bytes outside `literal_class` are escaped. `part` names the URL part for
// error messages.
absl::Status AppendNormalisedEscapes(absl::string_view in,
                                     uint8_t literal_class,
                                     absl::string_view part, std::string* out) {
  size_t i = 0;
  while (i < in.size()) {
    // Most bytes stay as they are: copy each run of them in one append.
    const size_t run_begin = i;
    while (i < in.size() && in[i] != '%' && Is(in[i], literal_class)) ++i;
    out->append(in.data() + run_begin, i - run_begin);
    if (i == in.size()) break;
    const char c = in[i];
    if (c == '%') {
      const int hi = i + 2 < in.size() ? HexDigitValue(in[i + 1]) : -1;
      const int lo = hi >= 0 ? HexDigitValue(in[i + 2]) : -1;
      if (lo < 0) return BadEscape(in, i, part);
      const char decoded = static_cast<char>(hi * 16 + lo);
      if (Is(decoded, kUnreserved)) {
        out->push_back(decoded);
      } else {
        AppendPercentEscape(static_cast<unsigned char>(decoded), out);
      }
      i += 3;
    } else {
      AppendPercentEscape(static_cast<unsigned char>(c), out);
      ++i;
    }
  }
  return absl::OkStatus();
}

// Appends the normalised form of `raw` (empty, or starting with a separator)
// to `out`: segment by segment, escapes normalised, then dot segments removed
// (RFC 3986 §5.2.4). Doing both per segment lets "%2E%2E" count as ".." (the
// RFC normalises escapes first) without a second pass or a temporary string.
absl::Status AppendPath(absl::string_view raw, std::string* out) {
  const size_t path_begin = out->size();
  size_t i = 0;
  while (i < raw.size()) {
    size_t j = i + 1;  // raw[i] is a separator.
    while (j < raw.size() && !IsSeparator(raw[j])) ++j;
    const bool last = j == raw.size();
    const size_t segment_begin = out->size();
    out->push_back('/');
    absl::Status status = AppendNormalisedEscapes(raw.substr(i + 1, j - i - 1),
                                                  kPathChar, "path", out);
    if (!status.ok()) return status;
    const absl::string_view segment =
        absl::string_view(*out).substr(segment_begin + 1);
    if (segment == "." || segment == "..") {
      const bool up = segment.size() == 2;
      out->resize(segment_begin);
      // Every emitted segment starts with '/', so the last '/' at or after
      // path_begin starts the segment ".." removes.
      if (up && out->size() > path_begin) out->resize(out->rfind('/'));
      // "/a/b/.." is the directory "/a/", not the file "/a".
      if (last) out->push_back('/');
    }
    i = j;
  }
  if (out->size() == path_begin) out->push_back('/');
  return absl::OkStatus();
}

// Validates an ASCII host name and appends it lower-cased, without a trailing
// dot. Output of this function is accepted unchanged by it, which is what
// makes host normalisation idempotent (IDNA output goes through it as well).
absl::Status AppendAsciiHost(absl::string_view host, std::string* out) {
  // "example.com." names the same host as "example.com" (the root label).
  if (!host.empty() && host.back() == '.') host.remove_suffix(1);
  if (host.empty()) {
    return absl::InvalidArgumentError("URL has an empty host");
  }
  if (host.size() > kMaxHostLength) {
    return absl::InvalidArgumentError(
        absl::StrCat("host is ", host.size(), " bytes, longer than the ",
                     kMaxHostLength, "-byte limit for DNS names"));
  }
  size_t label_length = 0;
  for (const char c : host) {
    if (c == '.') {
      if (label_length == 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("host ", QuoteInput(host), " has an empty label"));
      }
      label_length = 0;
    } else if (Is(c, kHostChar)) {
      if (++label_length > kMaxLabelLength) {
        return absl::InvalidArgumentError(
            absl::StrCat("host ", QuoteInput(host), " has a label longer than ",
                         kMaxLabelLength, " bytes"));
      }
    } else {
      return absl::InvalidArgumentError(absl::StrCat(
          "host ", QuoteInput(host), " contains the invalid character ",
          QuoteInput(absl::string_view(&c, 1))));
    }
    out->push_back(absl::ascii_tolower(static_cast<unsigned char>(c)));
  }
  if (label_length == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("host ", QuoteInput(host), " has an empty label"));
  }
  return absl::OkStatus();
}

// Names the first IDNA error bit for the error message.
absl::string_view IdnaErrorName(uint32_t errors) {
  static constexpr std::pair<uint32_t, absl::string_view> kNames[] = {
      {UIDNA_ERROR_EMPTY_LABEL, "empty label"},
      {UIDNA_ERROR_LABEL_TOO_LONG, "label too long"},
      {UIDNA_ERROR_DOMAIN_NAME_TOO_LONG, "name too long"},
      {UIDNA_ERROR_LEADING_COMBINING_MARK,
       "label starts with a combining mark"},
      {UIDNA_ERROR_DISALLOWED, "disallowed code point or invalid UTF-8"},
      {UIDNA_ERROR_PUNYCODE, "invalid punycode"},
      {UIDNA_ERROR_LABEL_HAS_DOT, "label contains a dot"},
      {UIDNA_ERROR_INVALID_ACE_LABEL, "invalid xn-- label"},
      {UIDNA_ERROR_BIDI, "violates the bidi rule"},
      {UIDNA_ERROR_CONTEXTJ, "invalid joiner context"},
      {UIDNA_ERROR_CONTEXTO_PUNCTUATION, "invalid punctuation context"},
      {UIDNA_ERROR_CONTEXTO_DIGITS, "mixed digit sets"},
  };
  for (const auto& [bit, name] : kNames) {
    if (errors & bit) return name;
  }
  return "unknown error";
}

const UIDNA* Uts46() {
  // UTS #46 instances are immutable and documented thread-safe, so one shared
  // instance serves all threads. Non-transitional processing (ß stays ß) is
  // what current browsers do, so we fetch the host the page author meant.
  static const UIDNA* const idna = [] {
    UErrorCode error = U_ZERO_ERROR;
    UIDNA* p = uidna_openUTS46(UIDNA_CHECK_BIDI | UIDNA_CHECK_CONTEXTJ |
                                   UIDNA_NONTRANSITIONAL_TO_ASCII |
                                   UIDNA_NONTRANSITIONAL_TO_UNICODE,
                               &error);
    return U_SUCCESS(error) ? p : nullptr;
  }();
  return idna;
}

// Converts a host with non-ASCII bytes (UTF-8) to punycode and appends it.
absl::Status AppendIdnHost(absl::string_view host, std::string* out) {
  const UIDNA* idna = Uts46();
  if (idna == nullptr) {
    return absl::InternalError("ICU could not open the UTS #46 IDNA converter");
  }
  char buffer[kMaxHostLength + 3];  // Room for a trailing dot and a NUL.
  UIDNAInfo info = UIDNA_INFO_INITIALIZER;
  UErrorCode error = U_ZERO_ERROR;
  const int32_t length = uidna_nameToASCII_UTF8(
      idna, host.data(), static_cast<int32_t>(host.size()), buffer,
      sizeof(buffer), &info, &error);
  if (error == U_BUFFER_OVERFLOW_ERROR ||
      error == U_STRING_NOT_TERMINATED_WARNING) {
    return absl::InvalidArgumentError(absl::StrCat(
        "host is ", length, " bytes after IDNA conversion, longer than the ",
        kMaxHostLength, "-byte limit for DNS names"));
  }
  if (U_FAILURE(error)) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot convert internationalised host ", QuoteInput(host),
                     " to ASCII: ", u_errorName(error)));
  }
  // Hyphen rules are ignored as browsers do (WHATWG CheckHyphens=false); the
  // length and empty-label rules are checked by AppendAsciiHost with a better
  // message.
  constexpr uint32_t kIgnored =
      UIDNA_ERROR_LEADING_HYPHEN | UIDNA_ERROR_TRAILING_HYPHEN |
      UIDNA_ERROR_HYPHEN_3_4 | UIDNA_ERROR_EMPTY_LABEL |
      UIDNA_ERROR_LABEL_TOO_LONG | UIDNA_ERROR_DOMAIN_NAME_TOO_LONG;
  const uint32_t errors = info.errors & ~kIgnored;
  if (errors != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot convert internationalised host ", QuoteInput(host),
                     " to ASCII: ", IdnaErrorName(errors)));
  }
  return AppendAsciiHost(absl::string_view(buffer, length), out);
}

absl::Status AppendIpv6Host(absl::string_view literal, std::string* out) {
  // literal is "[...]".
  const absl::string_view address = literal.substr(1, literal.size() - 2);
  char text[INET6_ADDRSTRLEN];
  in6_addr binary;
  if (address.size() >= sizeof(text)) {
    return absl::InvalidArgumentError(
        absl::StrCat("invalid IPv6 address ", QuoteInput(address)));
  }
  std::memcpy(text, address.data(), address.size());
  text[address.size()] = '\0';
  if (inet_pton(AF_INET6, text, &binary) != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("invalid IPv6 address ", QuoteInput(address)));
  }
  // Canonical text (RFC 5952: lower case, longest zero run as "::") so that
  // the same address always gives the same URL.
  if (inet_ntop(AF_INET6, &binary, text, sizeof(text)) == nullptr) {
    return absl::InternalError("inet_ntop failed on a parsed IPv6 address");
  }
  out->append("[").append(text).append("]");
  return absl::OkStatus();
}

absl::Status AppendHost(absl::string_view host, std::string* out) {
  if (!host.empty() && host.front() == '[') return AppendIpv6Host(host, out);
  // Percent-escapes in a host are rare; decode them (RFC 3986 §3.2.2 allows
  // them in reg-name) into a temporary only when present.
  std::string decoded;
  if (host.find('%') != absl::string_view::npos) {
    decoded.reserve(host.size());
    for (size_t i = 0; i < host.size(); ++i) {
      if (host[i] != '%') {
        decoded.push_back(host[i]);
        continue;
      }
      const int hi = i + 2 < host.size() ? HexDigitValue(host[i + 1]) : -1;
      const int lo = hi >= 0 ? HexDigitValue(host[i + 2]) : -1;
      if (lo < 0) return BadEscape(host, i, "host");
      decoded.push_back(static_cast<char>(hi * 16 + lo));
      i += 2;
    }
    host = decoded;
  }
  const bool ascii = std::all_of(host.begin(), host.end(), [](char c) {
    return static_cast<unsigned char>(c) < 0x80;
  });
  return ascii ? AppendAsciiHost(host, out) : AppendIdnHost(host, out);
}

// Parses a port; returns -1 for the scheme's default port or an empty one.
absl::StatusOr<int> ParsePort(absl::string_view text, bool https) {
  if (text.empty()) return -1;  // "http://a:/" (RFC 3986 §6.2.3).
  int port = 0;
  for (const char c : text) {
    if (!absl::ascii_isdigit(static_cast<unsigned char>(c))) {
      return absl::InvalidArgumentError(
          absl::StrCat("invalid port ", QuoteInput(text), ": not a number"));
    }
    port = port * 10 + (c - '0');
    if (port > 65535) {
      return absl::InvalidArgumentError(absl::StrCat(
          "port ", QuoteInput(text), " is out of range: the limit is 65535"));
    }
  }
  if (port == 0) {
    return absl::InvalidArgumentError("port 0 cannot be connected to");
  }
  if (port == (https ? 443 : 80)) return -1;
  return port;
}

// Removes what browsers ignore: leading and trailing C0 controls and spaces,
// and tabs and newlines anywhere (hrefs are often wrapped across lines).
// Returns a view of `in` when nothing inside had to go, so the common case
// does not copy. Not absl::StripAsciiWhitespace, which trims only the six
// ASCII space characters: browsers trim every C0 control.
absl::string_view Clean(absl::string_view in, std::string* buffer) {
  while (!in.empty() && static_cast<unsigned char>(in.front()) <= ' ') {
    in.remove_prefix(1);
  }
  while (!in.empty() && static_cast<unsigned char>(in.back()) <= ' ') {
    in.remove_suffix(1);
  }
  // A plain loop: string_view::find_first_of calls memchr once per byte,
  // which showed up as the top cost of Parse.
  if (std::none_of(in.begin(), in.end(),
                   [](char c) { return IsTabOrNewline(c); })) {
    return in;
  }
  buffer->reserve(in.size());
  for (const char c : in) {
    if (!IsTabOrNewline(c)) buffer->push_back(c);
  }
  return *buffer;
}

// If `in` starts with a syntactically valid scheme and ':', returns the scheme
// (as written) and leaves the rest after ':' in `rest`.
std::optional<absl::string_view> SplitScheme(absl::string_view in,
                                             absl::string_view* rest) {
  if (in.empty() || !absl::ascii_isalpha(static_cast<unsigned char>(in[0]))) {
    return std::nullopt;
  }
  for (size_t i = 1; i < in.size(); ++i) {
    if (in[i] == ':') {
      *rest = in.substr(i + 1);
      return in.substr(0, i);
    }
    if (!Is(in[i], kSchemeChar)) return std::nullopt;
  }
  return std::nullopt;
}

absl::Status UnsupportedScheme(absl::string_view scheme) {
  return absl::InvalidArgumentError(absl::StrCat(
      "unsupported scheme ", QuoteInput(absl::AsciiStrToLower(scheme)),
      ": only http and https URLs can be crawled"));
}

bool HasAuthority(absl::string_view s) {
  return s.size() >= 2 && IsSeparator(s[0]) && IsSeparator(s[1]);
}

// The pieces of a URL (or reference) after the scheme: authority, path and
// query, fragment already removed.
struct Pieces {
  absl::string_view authority;
  absl::string_view path;
  absl::string_view query;
  bool has_query = false;
};

// Splits a path-and-query (fragment already removed) at the first '?'.
Pieces SplitPathAndQuery(absl::string_view s) {
  Pieces p;
  const size_t question = s.find('?');
  p.path = s.substr(0, question);
  if (question != absl::string_view::npos) {
    p.query = s.substr(question + 1);
    p.has_query = true;
  }
  return p;
}

Pieces SplitAfterSlashes(absl::string_view s) {
  // s follows "//": authority up to the first '/', '\', or '?'.
  size_t end = 0;
  while (end < s.size() && !IsSeparator(s[end]) && s[end] != '?') ++end;
  Pieces p = SplitPathAndQuery(s.substr(end));
  p.authority = s.substr(0, end);
  return p;
}

absl::string_view WithoutFragment(absl::string_view s) {
  return s.substr(0, s.find('#'));
}

}  // namespace

int HexDigitValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void AppendPercentEscape(unsigned char c, std::string* out) {
  static constexpr char kHexDigits[] = "0123456789ABCDEF";
  out->push_back('%');
  out->push_back(kHexDigits[c >> 4]);
  out->push_back(kHexDigits[c & 15]);
}

// Builds Urls from pieces; the friend of Url that sets its offsets.
class UrlParser {
 public:
  static absl::StatusOr<Url> Build(bool https, const Pieces& pieces) {
    Url url;
    std::string& out = url.spec_;
    out.reserve(8 + pieces.authority.size() + pieces.path.size() +
                pieces.query.size() + 16);
    out.append(https ? "https://" : "http://");
    url.scheme_end_ = https ? 5 : 4;

    // Authority: no userinfo, host, optional port.
    absl::string_view authority = pieces.authority;
    if (authority.find('@') != absl::string_view::npos) {
      return absl::InvalidArgumentError(
          "URLs with userinfo (user:password@host) are not supported");
    }
    absl::string_view host = authority;
    absl::string_view port_text;
    bool has_port = false;
    if (!authority.empty() && authority.front() == '[') {
      const size_t close = authority.find(']');
      if (close == absl::string_view::npos) {
        return absl::InvalidArgumentError(absl::StrCat(
            "IPv6 host ", QuoteInput(authority), " lacks its ']'"));
      }
      host = authority.substr(0, close + 1);
      const absl::string_view after = authority.substr(close + 1);
      if (!after.empty()) {
        if (after.front() != ':') {
          return absl::InvalidArgumentError(absl::StrCat(
              "unexpected ", QuoteInput(after), " after the IPv6 host"));
        }
        port_text = after.substr(1);
        has_port = true;
      }
    } else if (const size_t colon = authority.find(':');
               colon != absl::string_view::npos) {
      host = authority.substr(0, colon);
      port_text = authority.substr(colon + 1);
      has_port = true;
    }
    url.host_begin_ = static_cast<uint16_t>(out.size());
    if (absl::Status s = AppendHost(host, &out); !s.ok()) return s;
    url.host_end_ = static_cast<uint16_t>(out.size());
    // The output host is at most 253 + 2 bytes, so the uint16_t offsets
    // cannot overflow before the final length check.
    if (has_port) {
      absl::StatusOr<int> port = ParsePort(port_text, https);
      if (!port.ok()) return port.status();
      url.port_ = *port;
      if (url.port_ != -1) out += absl::StrCat(":", url.port_);
    }

    const size_t path_begin = out.size();
    if (absl::Status s = AppendPath(pieces.path, &out); !s.ok()) return s;
    const size_t path_end = out.size();
    if (!pieces.query.empty()) {
      out.push_back('?');
      if (absl::Status s =
              AppendNormalisedEscapes(pieces.query, kQueryChar, "query", &out);
          !s.ok()) {
        return s;
      }
    }
    if (out.size() > kMaxUrlLength)
      return TooLong("normalised URL", out.size());
    url.path_begin_ = static_cast<uint16_t>(path_begin);
    url.path_end_ = static_cast<uint16_t>(path_end);
    return url;
  }

  // Parses a cleaned absolute URL (no length check: callers do it).
  static absl::StatusOr<Url> ParseAbsolute(absl::string_view s) {
    if (s.empty()) return absl::InvalidArgumentError("URL is empty");
    absl::string_view rest;
    const std::optional<absl::string_view> scheme = SplitScheme(s, &rest);
    if (!scheme.has_value()) {
      return absl::InvalidArgumentError(
          "URL has no scheme; only absolute http:// and https:// URLs are "
          "accepted");
    }
    const bool https = absl::EqualsIgnoreCase(*scheme, "https");
    if (!https && !absl::EqualsIgnoreCase(*scheme, "http")) {
      return UnsupportedScheme(*scheme);
    }
    if (!HasAuthority(rest)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "expected '//' after '", https ? "https" : "http", ":'"));
    }
    return Build(https, SplitAfterSlashes(WithoutFragment(rest.substr(2))));
  }

  static absl::StatusOr<Url> Resolve(const Url& base,
                                     absl::string_view reference) {
    if (reference.size() > kMaxUrlLength) {
      return TooLong("reference", reference.size());
    }
    std::string buffer;
    absl::string_view s = WithoutFragment(Clean(reference, &buffer));
    const bool https = base.scheme_end_ == 5;
    absl::string_view rest;
    if (const std::optional<absl::string_view> scheme = SplitScheme(s, &rest)) {
      if (absl::EqualsIgnoreCase(*scheme, base.scheme())) {
        // Same scheme as the base: resolve as relative (RFC 3986 §5.2.2,
        // non-strict), as browsers do with "http:page.html".
        s = rest;
      } else {
        return ParseAbsolute(s);  // Rejects schemes other than http(s).
      }
    }
    if (HasAuthority(s)) return Build(https, SplitAfterSlashes(s.substr(2)));

    Pieces pieces = SplitPathAndQuery(s);
    const absl::string_view spec(base.spec_);
    pieces.authority =
        spec.substr(base.host_begin_, base.path_begin_ - base.host_begin_);
    std::string merged;
    if (pieces.path.empty()) {
      pieces.path = base.path();
      if (!pieces.has_query) pieces.query = base.query();
    } else if (!IsSeparator(pieces.path.front())) {
      // RFC 3986 §5.2.3 merge: the base has an authority and its path is
      // never empty, so this is the base's directory plus the reference.
      merged = absl::StrCat(base.Directory(), pieces.path);
      pieces.path = merged;
    }
    return Build(https, pieces);
  }
};

std::ostream& operator<<(std::ostream& os, const Url& u) {
  return os << u.spec();
}

std::vector<std::string> Url::PathSegments() const {
  return absl::StrSplit(path(), '/', absl::SkipEmpty());
}

absl::string_view Url::Directory() const {
  const absl::string_view p = path();
  return p.substr(0, p.rfind('/') + 1);
}

absl::StatusOr<Url> Parse(absl::string_view spec) {
  // Checked first so hostile input costs nothing.
  if (spec.size() > kMaxUrlLength) return TooLong("URL", spec.size());
  std::string buffer;
  return UrlParser::ParseAbsolute(Clean(spec, &buffer));
}

absl::StatusOr<Url> Resolve(const Url& base, absl::string_view reference) {
  return UrlParser::Resolve(base, reference);
}

std::string RegistrableDomain(absl::string_view host) {
  std::string lower = absl::AsciiStrToLower(host);
  if (lower.empty() || lower.front() == '[') return lower;  // IPv6 literal.
  // An all-digit last label cannot be a TLD, so the host is an IPv4 address
  // (the WHATWG URL standard uses the same test).
  const absl::string_view last_label = absl::string_view(lower).substr(
      lower.rfind('.') == std::string::npos ? 0 : lower.rfind('.') + 1);
  if (!last_label.empty() &&
      std::all_of(last_label.begin(), last_label.end(),
                  [](char c) { return absl::ascii_isdigit(c); })) {
    return lower;
  }
  const psl_ctx_t* psl = psl_builtin();
  if (psl == nullptr) return lower;  // libpsl built without a list.
  const char* domain = psl_registrable_domain(psl, lower.c_str());
  // NULL when the host is itself a public suffix (or has no registrable part).
  if (domain == nullptr) return lower;
  return std::string(domain);  // Points into `lower`; copy before it dies.
}

bool IsSessionIdParameter(absl::string_view name) {
  static constexpr absl::string_view kNames[] = {
      "sid",  "sessionid", "session_id", "jsessionid", "phpsessid",
      "cfid", "cftoken",   "zenid",      "oscsid"};
  for (absl::string_view n : kNames) {
    if (absl::EqualsIgnoreCase(name, n)) return true;
  }
  // ASP: "ASPSESSIONIDQQGGQGPA" and the like.
  return absl::StartsWithIgnoreCase(name, "aspsessionid");
}

Url StripSessionIds(const Url& url) {
  const absl::string_view path = url.path();
  // Most URLs have no path parameter and no query: nothing to strip, and
  // nothing to copy (every out-link of every page comes here).
  if (url.query().empty() && path.find(';') == absl::string_view::npos) {
    return url;
  }
  std::string new_path;
  bool changed = false;
  // ";jsessionid=..." path parameter (Java servlets), up to the next '/'.
  {
    const std::string lower = absl::AsciiStrToLower(path);
    const size_t at = lower.find(";jsessionid=");
    if (at != std::string::npos) {
      size_t end = lower.find('/', at);
      if (end == std::string::npos) end = lower.size();
      new_path = absl::StrCat(path.substr(0, at), path.substr(end));
      changed = true;
    } else {
      new_path = std::string(path);
    }
  }
  std::vector<absl::string_view> kept;
  for (const absl::string_view piece :
       absl::StrSplit(url.query(), '&', absl::SkipEmpty())) {
    if (IsSessionIdParameter(piece.substr(0, piece.find('=')))) {
      changed = true;
    } else {
      kept.push_back(piece);
    }
  }
  if (!changed) return url;
  std::string spec = absl::StrCat(url.scheme(), "://", url.host());
  if (url.port() != -1) absl::StrAppend(&spec, ":", url.port());
  absl::StrAppend(&spec, new_path.empty() ? "/" : new_path);
  if (!kept.empty()) absl::StrAppend(&spec, "?", absl::StrJoin(kept, "&"));
  absl::StatusOr<Url> stripped = Parse(spec);
  // Removing parts of a valid URL gives a valid URL; keep the original if
  // normalisation ever disagrees.
  return stripped.ok() ? *std::move(stripped) : url;
}

std::string HostKey(absl::string_view spec) {
  absl::StatusOr<Url> parsed = Parse(spec);
  if (!parsed.ok()) return "";
  return HostKey(*parsed);
}

std::string HostKey(const Url& url) {
  std::string key(url.host());
  if (url.port() != -1) absl::StrAppend(&key, ":", url.port());
  return key;
}

}  // namespace fcrawl::url
