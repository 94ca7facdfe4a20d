// UTF-8 primitives shared by core's charset and text code: validation,
// the maximal-subpart rule for replacing bad sequences, and encoding a code
// point. IsValidUtf8 and SanitizeUtf8, built on them, are public in
// core/charset.h.
#ifndef FCRAWL_CORE_UTF8_H_
#define FCRAWL_CORE_UTF8_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"

namespace fcrawl::charset::internal {

// U+FFFD, which stands for each ill-formed sequence.
inline constexpr absl::string_view kReplacementUtf8 = "\xEF\xBF\xBD";

// Examines the sequence starting at p[0] (n >= 1 bytes available). Returns
// its length and sets *ok if it is well-formed; otherwise returns the length
// of its maximal subpart (Unicode 15, section 3.9), which becomes one U+FFFD.
// Inline: it is the inner loop of every validation and decode.
inline size_t Utf8Step(const unsigned char* p, size_t n, bool* ok) {
  const unsigned char b = p[0];
  if (b < 0x80) {
    *ok = true;
    return 1;
  }
  int need = 0;  // continuation bytes; 0: b cannot start a sequence
  unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the next byte
  if (b >= 0xC2 && b <= 0xDF) {
    need = 1;
  } else if (b >= 0xE0 && b <= 0xEF) {
    need = 2;
    if (b == 0xE0) lo = 0xA0;  // no overlongs
    if (b == 0xED) hi = 0x9F;  // no surrogates
  } else if (b >= 0xF0 && b <= 0xF4) {
    need = 3;
    if (b == 0xF0) lo = 0x90;  // no overlongs
    if (b == 0xF4) hi = 0x8F;  // nothing above U+10FFFF
  }
  if (need == 0) {  // 0x80-0xC1 (continuation, overlong) or 0xF5-0xFF
    *ok = false;
    return 1;
  }
  size_t i = 1;
  for (int k = 0; k < need; ++k, ++i) {
    if (i >= n || p[i] < lo || p[i] > hi) {
      *ok = false;
      return i;
    }
    lo = 0x80;
    hi = 0xBF;
  }
  *ok = true;
  return i;
}

// The offset of the first ill-formed sequence in `s`, or s.size().
size_t FirstInvalidUtf8(absl::string_view s);

// True if every byte of `s` is below 0x80.
bool IsAscii(absl::string_view s);

// Appends the UTF-8 encoding of code point `cp` to `out`.
void AppendUtf8(uint32_t cp, std::string* out);

}  // namespace fcrawl::charset::internal

#endif  // FCRAWL_CORE_UTF8_H_
