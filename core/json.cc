#include "core/json.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>

#include "absl/time/time.h"

namespace fcrawl::json {
namespace {

constexpr char kHex[] = "0123456789abcdef";

void AppendUnicodeEscape(std::string* out, uint32_t cp) {
  out->append("\\u");
  for (int shift = 12; shift >= 0; shift -= 4) {
    out->push_back(kHex[(cp >> shift) & 0xF]);
  }
}

constexpr absl::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// Bytes that stand for themselves in a JSON string: printable ASCII other
// than '"' and '\\'. One table lookup a byte instead of five comparisons.
struct PlainBytes {
  bool plain[256] = {};
  constexpr PlainBytes() {
    for (int c = 0x20; c < 0x7F; ++c) plain[c] = c != '"' && c != '\\';
  }
};
constexpr PlainBytes kPlain;

}  // namespace

void AppendQuoted(std::string* out, absl::string_view s) {
  out->reserve(out->size() + s.size() + 2);
  out->push_back('"');
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const size_t n = s.size();
  size_t i = 0;
  while (i < n) {
    // A run of printable ASCII other than '"' and '\\' (most of any text)
    // is copied as it is, in one append.
    size_t run = i;
    while (run < n && kPlain.plain[p[run]]) ++run;
    if (run > i) {
      out->append(reinterpret_cast<const char*>(p + i), run - i);
      i = run;
      if (i == n) break;
    }
    const unsigned char c = p[i];
    if (c < 0x80) {
      switch (c) {
        case '"':
          out->append("\\\"");
          break;
        case '\\':
          out->append("\\\\");
          break;
        case '\b':
          out->append("\\b");
          break;
        case '\f':
          out->append("\\f");
          break;
        case '\n':
          out->append("\\n");
          break;
        case '\r':
          out->append("\\r");
          break;
        case '\t':
          out->append("\\t");
          break;
        default:
          if (c < 0x20 || c == 0x7F) {
            AppendUnicodeEscape(out, c);
          } else {
            out->push_back(static_cast<char>(c));
          }
      }
      ++i;
      continue;
    }
    // Multi-byte sequence, per the Unicode Standard table 3-7 of well-formed
    // UTF-8. An ill-formed sequence is replaced by one U+FFFD per maximal
    // subpart.
    size_t len;
    unsigned char lo = 0x80, hi = 0xBF;  // range of the second byte
    if (c >= 0xC2 && c <= 0xDF) {
      len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      len = 3;
      if (c == 0xE0) lo = 0xA0;
      if (c == 0xED) hi = 0x9F;  // no surrogates
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4;
      if (c == 0xF0) lo = 0x90;
      if (c == 0xF4) hi = 0x8F;  // nothing beyond U+10FFFF
    } else {
      out->append(kReplacement.data(), kReplacement.size());
      ++i;
      continue;
    }
    size_t k = 1;
    for (; k < len && i + k < n; ++k) {
      const unsigned char b = p[i + k];
      const unsigned char blo = k == 1 ? lo : 0x80;
      const unsigned char bhi = k == 1 ? hi : 0xBF;
      if (b < blo || b > bhi) break;
    }
    if (k < len) {
      out->append(kReplacement.data(), kReplacement.size());
      i += k;
      continue;
    }
    if (len == 3 && c == 0xE2 && p[i + 1] == 0x80 &&
        (p[i + 2] == 0xA8 || p[i + 2] == 0xA9)) {
      // U+2028, U+2029: valid JSON, but not valid in JavaScript strings.
      AppendUnicodeEscape(out, p[i + 2] == 0xA8 ? 0x2028 : 0x2029);
    } else {
      out->append(reinterpret_cast<const char*>(p + i), len);
    }
    i += len;
  }
  out->push_back('"');
}

std::string Quote(absl::string_view s) {
  std::string out;
  AppendQuoted(&out, s);
  return out;
}

std::string Number(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[64];
  const std::to_chars_result r = std::to_chars(buf, buf + sizeof(buf), v);
  return std::string(buf, r.ptr);
}

std::string Rfc3339Millis(absl::Time t) {
  // %E3S truncates, so a time never moves into the next second.
  return absl::FormatTime("%Y-%m-%dT%H:%M:%E3SZ", t, absl::UTCTimeZone());
}

}  // namespace fcrawl::json
