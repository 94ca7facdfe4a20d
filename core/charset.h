// Charset handling: turns fetched page bytes in any encoding into UTF-8.
//
// Everything downstream of the fetcher works on UTF-8, while pages arrive as
// bytes in whatever encoding their author's tools used, often mislabelled.
// This module decides which charset a page is in and decodes it.
//
// Contract
//  * Every input is hostile. Every function here accepts any bytes, never
//    crashes, runs in time linear in its input, and DecodeToUtf8 returns
//    valid UTF-8 at most about 3x the size of its input (one U+FFFD, three
//    bytes, per input byte in the worst case).
//  * Errors: only DecodeToUtf8 fails, and only with InvalidArgument when the
//    caller's override names no charset this module knows. Undecodable bytes
//    are never an error: they become U+FFFD and are counted.
//  * Thread-safety: all functions are thread-safe and may run concurrently on
//    any number of threads. ICU converters are not thread-safe, so each
//    thread keeps its own (see charset.cc); nothing is shared but immutable
//    tables.
//
// Charset labels follow the WHATWG Encoding Standard (the labels browsers
// accept, matched case-insensitively after trimming whitespace), with the
// mappings that matter for real pages:
//   gb2312, gbk, x-gbk, gb_2312-80, chinese, ... -> GB18030 (the superset, so
//       pages labelled GB2312 that use GBK-only characters decode right)
//   big5, big5-hkscs, cn-big5, x-x-big5, ...   -> Big5 (decoded as HKSCS)
//   shift_jis, sjis, x-sjis, windows-31j, ...  -> Shift_JIS (decoded as CP932)
//   euc-kr, ks_c_5601-1987, windows-949, ...   -> EUC-KR (decoded as CP949)
//   iso-8859-1, latin1, us-ascii, ascii, ...   -> windows-1252
//   utf8, utf-8, unicode-1-1-utf-8, ...        -> UTF-8
//   utf-16 (BOM decides, else LE), utf-16le, utf-16be
// plus a few common aliases browsers also honour (cp936, euc-cn, cp932,
// cp949, cp950) and the extra names uchardet reports (EUC-TW, ISO-2022-KR,
// HZ-GB-2312, IBM852, MAC-CYRILLIC, ...). Anything else is unknown.

#ifndef FCRAWL_CORE_CHARSET_H_
#define FCRAWL_CORE_CHARSET_H_

#include <cstddef>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace fcrawl::charset {

// Where the charset used for a page came from, in order of precedence.
enum class CharsetSource {
  kOverride,    // the caller's override_charset (e.g. a CLI --charset)
  kBom,         // a UTF-8, UTF-16LE or UTF-16BE byte order mark
  kHttpHeader,  // the charset parameter of the HTTP Content-Type
  kMeta,        // <meta charset> or <meta http-equiv=Content-Type>
  kDetected,    // detection on the first 64 KB (UTF-8 check, then uchardet)
  kDefault,     // nothing said: UTF-8 if the bytes are valid UTF-8, else
                // windows-1252
};

// "override", "bom", "http-header", "meta", "detected", "default".
absl::string_view CharsetSourceName(CharsetSource source);

struct DecodeResult {
  std::string utf8;     // always valid UTF-8, without the BOM (if any) of
                        // the charset used
  std::string charset;  // canonical name of the charset used, e.g. "UTF-8",
                        // "GB18030", "Big5", "Shift_JIS", "EUC-KR",
                        // "windows-1252", "UTF-16LE"
  CharsetSource source = CharsetSource::kDefault;
  size_t invalid_sequences = 0;  // sequences replaced with U+FFFD
};

// Returns the charset parameter of an HTTP Content-Type value as written
// ("text/html; charset=GBK" -> "GBK"), or "" if there is none. Parameter
// names are case-insensitive; spaces around ';' and '=' and double or single
// quotes around the value are accepted. The label is not validated.
std::string CharsetFromContentType(absl::string_view content_type);

// Returns the charset label declared by the first <meta charset=...> or
// <meta http-equiv="Content-Type" content="...; charset=..."> within the
// first 4096 bytes of `html_prefix`, as written (trimmed), or "" if none.
// Follows the HTML5 prescan (simplified): comments and other tags are
// skipped, attributes may come in any order with any quoting, and a <meta>
// whose label names no known charset is skipped so a later one can count. A
// <meta> cut off by the 4096-byte limit does not count.
std::string CharsetFromMeta(absl::string_view html_prefix);

// Decodes `bytes` to UTF-8. The charset is taken from the first of:
//  1. `override_charset`, if non-empty;
//  2. a UTF-8, UTF-16LE or UTF-16BE BOM (which is stripped);
//  3. the charset parameter of `content_type`;
//  4. a <meta> in the first 4096 bytes (one naming UTF-16 means UTF-8, as in
//     HTML: an ASCII scan could not have found it in UTF-16 text);
//  5. detection on the first 64 KB: non-ASCII bytes that are valid UTF-8 are
//     UTF-8, anything else goes to uchardet;
//  6. the default when detection has nothing (e.g. pure ASCII): UTF-8 if
//     all of `bytes` is valid UTF-8, else windows-1252.
// Unknown labels in the header or <meta> are ignored; an unknown override
// fails with InvalidArgument "unknown charset '<label>'". Bytes invalid in
// the chosen charset become U+FFFD, counted in invalid_sequences. Other
// errors (Internal, ResourceExhausted) mean ICU misbehaved and do not happen
// with the ICU this was tested on.
absl::StatusOr<DecodeResult> DecodeToUtf8(
    absl::string_view bytes, absl::string_view content_type = "",
    absl::string_view override_charset = "");

// Returns the canonical name of the charset `label` selects ("gbk" ->
// "GB18030"), or "" if the label is unknown.
absl::string_view CanonicalCharsetName(absl::string_view label);

// True if `s` is well-formed UTF-8 (no overlongs, surrogates, or code points
// above U+10FFFF).
bool IsValidUtf8(absl::string_view s);

// Returns `s` with each ill-formed sequence replaced by U+FFFD, following the
// Unicode "maximal subpart" practice that browsers and ICU use (e.g. the
// surrogate ED A0 80 becomes three U+FFFD, a truncated E4 B8 becomes one).
// If `replaced` is not null it receives the number of U+FFFD inserted.
std::string SanitizeUtf8(absl::string_view s, size_t* replaced = nullptr);

}  // namespace fcrawl::charset

#endif  // FCRAWL_CORE_CHARSET_H_
