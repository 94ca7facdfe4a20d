// The encodings core/charset decodes and the labels that name them: the
// table every part of the charset code reads (what to decode with), and the
// WHATWG "get an encoding" lookup from a label to a table entry. Internal to
// core's charset code; callers outside core use core/charset.h.
#ifndef FCRAWL_CORE_CHARSET_LABELS_H_
#define FCRAWL_CORE_CHARSET_LABELS_H_

#include <array>
#include <cstddef>
#include <cstdint>

#include "absl/strings/string_view.h"

namespace fcrawl::charset::internal {

// Labels longer than this are garbage; refusing them early keeps lookups
// cheap on hostile headers.
inline constexpr size_t kMaxLabelLength = 64;

// Code points of bytes 0x80..0xFF of a single-byte encoding.
using ByteTable = std::array<uint16_t, 128>;

// The charsets core/charset decodes, and how.
enum class Kind {
  kUtf8,       // validated and copied, no ICU
  kUtf16Auto,  // "utf-16": the BOM picks the byte order, else little-endian
  kTable,      // a single-byte ByteTable, no ICU
  kIcu,        // an ICU converter
};

struct Encoding {
  absl::string_view name;  // canonical name reported in DecodeResult
  Kind kind;
  const char* icu;         // ICU converter name (kIcu)
  const ByteTable* table;  // kTable
  // Bytes 0x00-0x7F always stand for themselves, so pure-ASCII input can be
  // copied without ICU. False for UTF-16/32 and the 7-bit stateful ISO-2022
  // and HZ encodings, where ASCII bytes can be escapes.
  bool ascii_compatible;
  // ICU's IBM PC code pages (and its CP932) decode bytes 0x1A, 0x1C and 0x7F
  // as U+001C, U+007F and U+001A (IBM's control-code rotation). Browsers and
  // WHATWG map them to themselves; we undo the rotation so the ICU path agrees
  // with the pure-ASCII fast path.
  bool ibm_controls;
  // GB18030 proper has no single byte 0x80, but CP936 (what Windows writes
  // for "GBK") uses it for the euro sign and WHATWG decodes it so.
  bool euro_0x80;
};

// Ids (for EncodingOf) of the entries the code refers to directly.
enum EncodingId : int {
  kUtf8 = 0,
  kUtf16 = 1,
  kUtf16Le = 2,
  kUtf16Be = 3,
  kWindows1252Id = 4,
};

// How many encodings there are (the table's size, checked where it is).
inline constexpr int kNumEncodings = 47;

// The encoding with id 0 <= id < kNumEncodings.
const Encoding& EncodingOf(int id);

// Returns the id of the encoding `label` names (ASCII case-insensitive,
// HTML's ASCII whitespace around it ignored), or -1.
int LookupLabel(absl::string_view label);

// HTML's ASCII whitespace (space, tab, LF, FF, CR). Not absl::ascii_isspace,
// which also takes vertical tab: WHATWG's label and <meta> rules do not.
inline bool IsHtmlSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
}

// `s` without leading and trailing IsHtmlSpace characters.
inline absl::string_view TrimHtmlSpace(absl::string_view s) {
  while (!s.empty() && IsHtmlSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsHtmlSpace(s.back())) s.remove_suffix(1);
  return s;
}

}  // namespace fcrawl::charset::internal

#endif  // FCRAWL_CORE_CHARSET_LABELS_H_
