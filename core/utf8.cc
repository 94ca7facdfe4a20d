// The UTF-8 primitives of core/utf8.h and charset.h's IsValidUtf8 and
// SanitizeUtf8.
#include "core/utf8.h"

#include <cstring>

#include "core/charset.h"

namespace fcrawl::charset {
namespace internal {

// Returns the offset of the first ill-formed sequence in s, or s.size().
size_t FirstInvalidUtf8(absl::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const size_t n = s.size();
  size_t i = 0;
  while (i < n) {
    const unsigned char b = p[i];
    if (b < 0x80) {
      // Most of a page is ASCII markup: skip it eight bytes at a time.
      ++i;
      while (i + 8 <= n) {
        uint64_t word;
        std::memcpy(&word, p + i, 8);
        if (word & 0x8080808080808080ULL) break;
        i += 8;
      }
      continue;
    }
    // Three-byte sequences are most CJK text; check them inline.
    if ((b & 0xF0) == 0xE0 && i + 2 < n && (p[i + 1] & 0xC0) == 0x80 &&
        (p[i + 2] & 0xC0) == 0x80) {
      const uint32_t cp = ((b & 0x0Fu) << 12) | ((p[i + 1] & 0x3Fu) << 6);
      if (cp >= 0x800 && (cp < 0xD800 || cp > 0xDFFF)) {
        i += 3;
        continue;
      }
      return i;
    }
    bool ok;
    const size_t len = Utf8Step(p + i, n - i, &ok);
    if (!ok) return i;
    i += len;
  }
  return n;
}

bool IsAscii(absl::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const size_t n = s.size();
  size_t i = 0;
  // OR 64-byte blocks together and test once per block: fast on long ASCII
  // runs, and stops early on text that is not ASCII.
  for (; i + 64 <= n; i += 64) {
    uint64_t acc = 0;
    for (size_t k = 0; k < 64; k += 8) {
      uint64_t word;
      std::memcpy(&word, p + i + k, 8);
      acc |= word;
    }
    if (acc & 0x8080808080808080ULL) return false;
  }
  for (; i < n; ++i) {
    if (p[i] & 0x80) return false;
  }
  return true;
}

void AppendUtf8(uint32_t cp, std::string* out) {
  char buf[4];
  size_t len;
  if (cp < 0x80) {
    buf[0] = static_cast<char>(cp);
    len = 1;
  } else if (cp < 0x800) {
    buf[0] = static_cast<char>(0xC0 | (cp >> 6));
    buf[1] = static_cast<char>(0x80 | (cp & 0x3F));
    len = 2;
  } else if (cp < 0x10000) {
    buf[0] = static_cast<char>(0xE0 | (cp >> 12));
    buf[1] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    buf[2] = static_cast<char>(0x80 | (cp & 0x3F));
    len = 3;
  } else {
    buf[0] = static_cast<char>(0xF0 | (cp >> 18));
    buf[1] = static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    buf[2] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    buf[3] = static_cast<char>(0x80 | (cp & 0x3F));
    len = 4;
  }
  out->append(buf, len);
}

}  // namespace internal

using internal::FirstInvalidUtf8;
using internal::kReplacementUtf8;
using internal::Utf8Step;

bool IsValidUtf8(absl::string_view s) {
  return FirstInvalidUtf8(s) == s.size();
}

std::string SanitizeUtf8(absl::string_view s, size_t* replaced) {
  size_t count = 0;
  size_t i = FirstInvalidUtf8(s);
  std::string out;
  if (i == s.size()) {
    out.assign(s.data(), s.size());
  } else {
    out.reserve(s.size() + s.size() / 4 + 16);
    out.append(s.data(), i);
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    const size_t n = s.size();
    while (i < n) {
      bool ok;
      const size_t len = Utf8Step(p + i, n - i, &ok);
      if (ok) {
        out.append(s.data() + i, len);
      } else {
        out.append(kReplacementUtf8.data(), kReplacementUtf8.size());
        ++count;
      }
      i += len;
    }
  }
  if (replaced != nullptr) *replaced = count;
  return out;
}

}  // namespace fcrawl::charset
