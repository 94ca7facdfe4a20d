#include "core/charset.h"

#include <uchardet/uchardet.h>
#include <unicode/ucnv.h>
#include <unicode/ucnv_cb.h>
#include <unicode/ucnv_err.h>
#include <unicode/utypes.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"

namespace fcrawl::charset {
namespace {

// The <meta> prescan looks this far, by the project's rule (the HTML standard
// now says 1024, but real pages put long <head>s before their <meta>).
constexpr size_t kMetaScanLimit = 4096;
// uchardet's verdict settles within a few KB; 64 KB keeps detection cheap on
// huge bodies while leaving room for pages whose head is all ASCII markup.
constexpr size_t kDetectLimit = size_t{64} * 1024;
// Labels longer than this are garbage; refusing them early keeps lookups
// cheap on hostile headers.
constexpr size_t kMaxLabelLength = 64;

// ---------------------------------------------------------------------------
// Single-byte tables for the encodings decoded without ICU: windows-1252 is
// the most common legacy charset and the fallback, so it gets a fast path;
// ICU 72 has no ISO-8859-16 at all. Entries are the code points of bytes
// 0x80..0xFF, from the WHATWG indexes.
using ByteTable = std::array<uint16_t, 128>;

constexpr ByteTable MakeTable(const uint16_t (&c1)[32],
                              const uint16_t (&high)[96]) {
  ByteTable t{};
  for (int i = 0; i < 32; ++i) t[i] = c1[i];
  for (int i = 0; i < 96; ++i) t[32 + i] = high[i];
  return t;
}

constexpr uint16_t kIdentityC1[32] = {
    0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8A,
    0x8B, 0x8C, 0x8D, 0x8E, 0x8F, 0x90, 0x91, 0x92, 0x93, 0x94, 0x95,
    0x96, 0x97, 0x98, 0x99, 0x9A, 0x9B, 0x9C, 0x9D, 0x9E, 0x9F};

constexpr uint16_t kIdentityHigh[96] = {
    0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6, 0xA7, 0xA8, 0xA9, 0xAA, 0xAB,
    0xAC, 0xAD, 0xAE, 0xAF, 0xB0, 0xB1, 0xB2, 0xB3, 0xB4, 0xB5, 0xB6, 0xB7,
    0xB8, 0xB9, 0xBA, 0xBB, 0xBC, 0xBD, 0xBE, 0xBF, 0xC0, 0xC1, 0xC2, 0xC3,
    0xC4, 0xC5, 0xC6, 0xC7, 0xC8, 0xC9, 0xCA, 0xCB, 0xCC, 0xCD, 0xCE, 0xCF,
    0xD0, 0xD1, 0xD2, 0xD3, 0xD4, 0xD5, 0xD6, 0xD7, 0xD8, 0xD9, 0xDA, 0xDB,
    0xDC, 0xDD, 0xDE, 0xDF, 0xE0, 0xE1, 0xE2, 0xE3, 0xE4, 0xE5, 0xE6, 0xE7,
    0xE8, 0xE9, 0xEA, 0xEB, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF2, 0xF3,
    0xF4, 0xF5, 0xF6, 0xF7, 0xF8, 0xF9, 0xFA, 0xFB, 0xFC, 0xFD, 0xFE, 0xFF};

// windows-1252 as WHATWG defines it: the five bytes Microsoft left undefined
// (0x81 0x8D 0x8F 0x90 0x9D) decode to the C1 controls, so no byte is invalid.
constexpr uint16_t kWindows1252C1[32] = {
    0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
    0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
    0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178};

constexpr uint16_t kIso8859_16High[96] = {
    0x00A0, 0x0104, 0x0105, 0x0141, 0x20AC, 0x201E, 0x0160, 0x00A7, 0x0161,
    0x00A9, 0x0218, 0x00AB, 0x0179, 0x00AD, 0x017A, 0x017B, 0x00B0, 0x00B1,
    0x010C, 0x0142, 0x017D, 0x201D, 0x00B6, 0x00B7, 0x017E, 0x010D, 0x0219,
    0x00BB, 0x0152, 0x0153, 0x0178, 0x017C, 0x00C0, 0x00C1, 0x00C2, 0x0102,
    0x00C4, 0x0106, 0x00C6, 0x00C7, 0x00C8, 0x00C9, 0x00CA, 0x00CB, 0x00CC,
    0x00CD, 0x00CE, 0x00CF, 0x0110, 0x0143, 0x00D2, 0x00D3, 0x00D4, 0x0150,
    0x00D6, 0x015A, 0x0170, 0x00D9, 0x00DA, 0x00DB, 0x00DC, 0x0118, 0x021A,
    0x00DF, 0x00E0, 0x00E1, 0x00E2, 0x0103, 0x00E4, 0x0107, 0x00E6, 0x00E7,
    0x00E8, 0x00E9, 0x00EA, 0x00EB, 0x00EC, 0x00ED, 0x00EE, 0x00EF, 0x0111,
    0x0144, 0x00F2, 0x00F3, 0x00F4, 0x0151, 0x00F6, 0x015B, 0x0171, 0x00F9,
    0x00FA, 0x00FB, 0x00FC, 0x0119, 0x021B, 0x00FF};

constexpr ByteTable kWindows1252 = MakeTable(kWindows1252C1, kIdentityHigh);
constexpr ByteTable kIso8859_16 = MakeTable(kIdentityC1, kIso8859_16High);

// ---------------------------------------------------------------------------
// The charsets this module decodes.

enum class Kind {
  kUtf8,       // validated and copied, no ICU
  kUtf16Auto,  // "utf-16": the BOM picks the byte order, else little-endian
  kTable,      // single-byte table above, no ICU
  kIcu,        // an ICU converter
};

struct Encoding {
  std::string_view name;  // canonical name reported in DecodeResult
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

// Indexes into kEncodings for the entries the code refers to directly.
enum EncodingId : int {
  kUtf8 = 0,
  kUtf16 = 1,
  kUtf16Le = 2,
  kUtf16Be = 3,
  kWindows1252Id = 4,
};

// ICU converter names are the exact internal names where an alias is
// ambiguous, so the mapping cannot change under us. The Big5, Shift_JIS,
// EUC-KR and GB18030 choices were checked against the WHATWG indexes for all
// two-byte sequences (ICU 72 against the indexes of the text-encoding
// polyfill):
//  * Big5 -> ibm-1375_P100-2008 (Big5-HKSCS:2008). ICU's "big5"
//    (windows-950) maps ~5000 HKSCS characters, used by Hong Kong pages, to
//    private-use code points; HKSCS agrees with WHATWG on all but ~160.
//  * Shift_JIS -> ibm-943_P15A-2003 (windows-31j/CP932): decodes the NEC and
//    IBM extensions (①, Ⅰ, ㈱) that pages written on Windows use, and 0x8160
//    as ～ U+FF5E, like WHATWG. It is what "Shift_JIS" means on the web.
//  * EUC-KR -> windows-949-2000 (CP949/UHC): a superset of EUC-KR with the
//    8822 extra Hangul syllables (e.g. 똠); matches WHATWG for every mapped
//    pair.
//  * GB18030 -> gb18030: a superset of GB2312 and GBK; one-off 0x80 -> €.
constexpr Encoding kEncodings[] = {
    // kind, icu, table, ascii_compatible, ibm_controls, euro_0x80
    {"UTF-8", Kind::kUtf8, nullptr, nullptr, true, false, false},
    {"UTF-16", Kind::kUtf16Auto, nullptr, nullptr, false, false, false},
    {"UTF-16LE", Kind::kIcu, "UTF-16LE", nullptr, false, false, false},
    {"UTF-16BE", Kind::kIcu, "UTF-16BE", nullptr, false, false, false},
    {"windows-1252", Kind::kTable, nullptr, &kWindows1252, true, false, false},
    {"GB18030", Kind::kIcu, "gb18030", nullptr, true, false, true},
    {"Big5", Kind::kIcu, "ibm-1375_P100-2008", nullptr, true, false, false},
    {"Shift_JIS", Kind::kIcu, "ibm-943_P15A-2003", nullptr, true, true, false},
    {"EUC-KR", Kind::kIcu, "windows-949-2000", nullptr, true, false, false},
    {"EUC-JP", Kind::kIcu, "euc-jp-2007", nullptr, true, false, false},
    {"ISO-2022-JP", Kind::kIcu, "ISO-2022-JP", nullptr, false, false, false},
    {"IBM866", Kind::kIcu, "ibm-866_P100-1995", nullptr, true, true, false},
    {"ISO-8859-2", Kind::kIcu, "ISO-8859-2", nullptr, true, false, false},
    {"ISO-8859-3", Kind::kIcu, "ISO-8859-3", nullptr, true, false, false},
    {"ISO-8859-4", Kind::kIcu, "ISO-8859-4", nullptr, true, false, false},
    {"ISO-8859-5", Kind::kIcu, "ISO-8859-5", nullptr, true, false, false},
    {"ISO-8859-6", Kind::kIcu, "ISO-8859-6", nullptr, true, false, false},
    {"ISO-8859-7", Kind::kIcu, "ISO-8859-7", nullptr, true, false, false},
    {"ISO-8859-8", Kind::kIcu, "ISO-8859-8", nullptr, true, false, false},
    // Logical and visual Hebrew differ only in display order, not in bytes.
    {"ISO-8859-8-I", Kind::kIcu, "ISO-8859-8", nullptr, true, false, false},
    {"ISO-8859-10", Kind::kIcu, "ISO-8859-10", nullptr, true, false, false},
    {"ISO-8859-13", Kind::kIcu, "ISO-8859-13", nullptr, true, false, false},
    {"ISO-8859-14", Kind::kIcu, "ISO-8859-14", nullptr, true, false, false},
    {"ISO-8859-15", Kind::kIcu, "ISO-8859-15", nullptr, true, false, false},
    {"ISO-8859-16", Kind::kTable, nullptr, &kIso8859_16, true, false, false},
    {"KOI8-R", Kind::kIcu, "KOI8-R", nullptr, true, false, false},
    {"KOI8-U", Kind::kIcu, "KOI8-U", nullptr, true, false, false},
    {"macintosh", Kind::kIcu, "macintosh", nullptr, true, false, false},
    {"windows-874", Kind::kIcu, "windows-874-2000", nullptr, true, false,
     false},
    {"windows-1250", Kind::kIcu, "windows-1250", nullptr, true, false, false},
    {"windows-1251", Kind::kIcu, "windows-1251", nullptr, true, false, false},
    {"windows-1253", Kind::kIcu, "windows-1253", nullptr, true, false, false},
    {"windows-1254", Kind::kIcu, "windows-1254", nullptr, true, false, false},
    {"windows-1255", Kind::kIcu, "windows-1255", nullptr, true, false, false},
    {"windows-1256", Kind::kIcu, "windows-1256", nullptr, true, false, false},
    {"windows-1257", Kind::kIcu, "windows-1257", nullptr, true, false, false},
    {"windows-1258", Kind::kIcu, "windows-1258", nullptr, true, false, false},
    {"x-mac-cyrillic", Kind::kIcu, "x-mac-cyrillic", nullptr, true, false,
     false},
    // Not WHATWG encodings, but uchardet reports them and ICU decodes them.
    // (WHATWG maps the ISO-2022-KR/CN and HZ labels to "replacement", which
    // protects browsers from script hidden in escapes; a crawler wants text.)
    {"EUC-TW", Kind::kIcu, "euc-tw-2014", nullptr, true, false, false},
    {"ISO-2022-KR", Kind::kIcu, "ISO_2022,locale=ko,version=0", nullptr, false,
     false, false},
    {"ISO-2022-CN", Kind::kIcu, "ISO_2022,locale=zh,version=1", nullptr, false,
     false, false},
    {"HZ-GB-2312", Kind::kIcu, "HZ", nullptr, false, false, false},
    {"IBM852", Kind::kIcu, "ibm-852_P100-1995", nullptr, true, true, false},
    {"IBM855", Kind::kIcu, "ibm-855_P100-1995", nullptr, true, true, false},
    {"IBM862", Kind::kIcu, "ibm-862_P100-1995", nullptr, true, true, false},
    {"x-mac-ce", Kind::kIcu, "macos-29-10.2", nullptr, true, false, false},
    {"UTF-32", Kind::kIcu, "UTF-32", nullptr, false, false, false},
};
constexpr int kNumEncodings = sizeof(kEncodings) / sizeof(kEncodings[0]);

constexpr int IdOf(std::string_view name) {
  for (int i = 0; i < kNumEncodings; ++i) {
    if (kEncodings[i].name == name) return i;
  }
  return -1;
}

struct Label {
  std::string_view label;  // lowercase
  std::string_view encoding;
};

// WHATWG Encoding Standard labels, then common aliases browsers honour and
// the names uchardet 0.0.7 reports. x-user-defined decodes as windows-1252:
// its private-use output is useless to a crawler, and WHATWG does the same
// for it in <meta>.
constexpr Label kLabels[] = {
    {"unicode-1-1-utf-8", "UTF-8"},
    {"unicode11utf8", "UTF-8"},
    {"unicode20utf8", "UTF-8"},
    {"utf-8", "UTF-8"},
    {"utf8", "UTF-8"},
    {"x-unicode20utf8", "UTF-8"},
    {"866", "IBM866"},
    {"cp866", "IBM866"},
    {"csibm866", "IBM866"},
    {"ibm866", "IBM866"},
    {"csisolatin2", "ISO-8859-2"},
    {"iso-8859-2", "ISO-8859-2"},
    {"iso-ir-101", "ISO-8859-2"},
    {"iso8859-2", "ISO-8859-2"},
    {"iso88592", "ISO-8859-2"},
    {"iso_8859-2", "ISO-8859-2"},
    {"iso_8859-2:1987", "ISO-8859-2"},
    {"l2", "ISO-8859-2"},
    {"latin2", "ISO-8859-2"},
    {"csisolatin3", "ISO-8859-3"},
    {"iso-8859-3", "ISO-8859-3"},
    {"iso-ir-109", "ISO-8859-3"},
    {"iso8859-3", "ISO-8859-3"},
    {"iso88593", "ISO-8859-3"},
    {"iso_8859-3", "ISO-8859-3"},
    {"iso_8859-3:1988", "ISO-8859-3"},
    {"l3", "ISO-8859-3"},
    {"latin3", "ISO-8859-3"},
    {"csisolatin4", "ISO-8859-4"},
    {"iso-8859-4", "ISO-8859-4"},
    {"iso-ir-110", "ISO-8859-4"},
    {"iso8859-4", "ISO-8859-4"},
    {"iso88594", "ISO-8859-4"},
    {"iso_8859-4", "ISO-8859-4"},
    {"iso_8859-4:1988", "ISO-8859-4"},
    {"l4", "ISO-8859-4"},
    {"latin4", "ISO-8859-4"},
    {"csisolatincyrillic", "ISO-8859-5"},
    {"cyrillic", "ISO-8859-5"},
    {"iso-8859-5", "ISO-8859-5"},
    {"iso-ir-144", "ISO-8859-5"},
    {"iso8859-5", "ISO-8859-5"},
    {"iso88595", "ISO-8859-5"},
    {"iso_8859-5", "ISO-8859-5"},
    {"iso_8859-5:1988", "ISO-8859-5"},
    {"arabic", "ISO-8859-6"},
    {"asmo-708", "ISO-8859-6"},
    {"csiso88596e", "ISO-8859-6"},
    {"csiso88596i", "ISO-8859-6"},
    {"csisolatinarabic", "ISO-8859-6"},
    {"ecma-114", "ISO-8859-6"},
    {"iso-8859-6", "ISO-8859-6"},
    {"iso-8859-6-e", "ISO-8859-6"},
    {"iso-8859-6-i", "ISO-8859-6"},
    {"iso-ir-127", "ISO-8859-6"},
    {"iso8859-6", "ISO-8859-6"},
    {"iso88596", "ISO-8859-6"},
    {"iso_8859-6", "ISO-8859-6"},
    {"iso_8859-6:1987", "ISO-8859-6"},
    {"csisolatingreek", "ISO-8859-7"},
    {"ecma-118", "ISO-8859-7"},
    {"elot_928", "ISO-8859-7"},
    {"greek", "ISO-8859-7"},
    {"greek8", "ISO-8859-7"},
    {"iso-8859-7", "ISO-8859-7"},
    {"iso-ir-126", "ISO-8859-7"},
    {"iso8859-7", "ISO-8859-7"},
    {"iso88597", "ISO-8859-7"},
    {"iso_8859-7", "ISO-8859-7"},
    {"iso_8859-7:1987", "ISO-8859-7"},
    {"sun_eu_greek", "ISO-8859-7"},
    {"csiso88598e", "ISO-8859-8"},
    {"csisolatinhebrew", "ISO-8859-8"},
    {"hebrew", "ISO-8859-8"},
    {"iso-8859-8", "ISO-8859-8"},
    {"iso-8859-8-e", "ISO-8859-8"},
    {"iso-ir-138", "ISO-8859-8"},
    {"iso8859-8", "ISO-8859-8"},
    {"iso88598", "ISO-8859-8"},
    {"iso_8859-8", "ISO-8859-8"},
    {"iso_8859-8:1988", "ISO-8859-8"},
    {"visual", "ISO-8859-8"},
    {"csiso88598i", "ISO-8859-8-I"},
    {"iso-8859-8-i", "ISO-8859-8-I"},
    {"logical", "ISO-8859-8-I"},
    {"csisolatin6", "ISO-8859-10"},
    {"iso-8859-10", "ISO-8859-10"},
    {"iso-ir-157", "ISO-8859-10"},
    {"iso8859-10", "ISO-8859-10"},
    {"iso885910", "ISO-8859-10"},
    {"l6", "ISO-8859-10"},
    {"latin6", "ISO-8859-10"},
    {"iso-8859-13", "ISO-8859-13"},
    {"iso8859-13", "ISO-8859-13"},
    {"iso885913", "ISO-8859-13"},
    {"iso-8859-14", "ISO-8859-14"},
    {"iso8859-14", "ISO-8859-14"},
    {"iso885914", "ISO-8859-14"},
    {"csisolatin9", "ISO-8859-15"},
    {"iso-8859-15", "ISO-8859-15"},
    {"iso8859-15", "ISO-8859-15"},
    {"iso885915", "ISO-8859-15"},
    {"iso_8859-15", "ISO-8859-15"},
    {"l9", "ISO-8859-15"},
    {"iso-8859-16", "ISO-8859-16"},
    {"cskoi8r", "KOI8-R"},
    {"koi", "KOI8-R"},
    {"koi8", "KOI8-R"},
    {"koi8-r", "KOI8-R"},
    {"koi8_r", "KOI8-R"},
    {"koi8-ru", "KOI8-U"},
    {"koi8-u", "KOI8-U"},
    {"csmacintosh", "macintosh"},
    {"mac", "macintosh"},
    {"macintosh", "macintosh"},
    {"x-mac-roman", "macintosh"},
    {"dos-874", "windows-874"},
    {"iso-8859-11", "windows-874"},
    {"iso8859-11", "windows-874"},
    {"iso885911", "windows-874"},
    {"tis-620", "windows-874"},
    {"windows-874", "windows-874"},
    {"cp1250", "windows-1250"},
    {"windows-1250", "windows-1250"},
    {"x-cp1250", "windows-1250"},
    {"cp1251", "windows-1251"},
    {"windows-1251", "windows-1251"},
    {"x-cp1251", "windows-1251"},
    {"ansi_x3.4-1968", "windows-1252"},
    {"ascii", "windows-1252"},
    {"cp1252", "windows-1252"},
    {"cp819", "windows-1252"},
    {"csisolatin1", "windows-1252"},
    {"ibm819", "windows-1252"},
    {"iso-8859-1", "windows-1252"},
    {"iso-ir-100", "windows-1252"},
    {"iso8859-1", "windows-1252"},
    {"iso88591", "windows-1252"},
    {"iso_8859-1", "windows-1252"},
    {"iso_8859-1:1987", "windows-1252"},
    {"l1", "windows-1252"},
    {"latin1", "windows-1252"},
    {"us-ascii", "windows-1252"},
    {"windows-1252", "windows-1252"},
    {"x-cp1252", "windows-1252"},
    {"x-user-defined", "windows-1252"},
    {"cp1253", "windows-1253"},
    {"windows-1253", "windows-1253"},
    {"x-cp1253", "windows-1253"},
    {"cp1254", "windows-1254"},
    {"csisolatin5", "windows-1254"},
    {"iso-8859-9", "windows-1254"},
    {"iso-ir-148", "windows-1254"},
    {"iso8859-9", "windows-1254"},
    {"iso88599", "windows-1254"},
    {"iso_8859-9", "windows-1254"},
    {"iso_8859-9:1989", "windows-1254"},
    {"l5", "windows-1254"},
    {"latin5", "windows-1254"},
    {"windows-1254", "windows-1254"},
    {"x-cp1254", "windows-1254"},
    {"cp1255", "windows-1255"},
    {"windows-1255", "windows-1255"},
    {"x-cp1255", "windows-1255"},
    {"cp1256", "windows-1256"},
    {"windows-1256", "windows-1256"},
    {"x-cp1256", "windows-1256"},
    {"cp1257", "windows-1257"},
    {"windows-1257", "windows-1257"},
    {"x-cp1257", "windows-1257"},
    {"cp1258", "windows-1258"},
    {"windows-1258", "windows-1258"},
    {"x-cp1258", "windows-1258"},
    {"x-mac-cyrillic", "x-mac-cyrillic"},
    {"x-mac-ukrainian", "x-mac-cyrillic"},
    // GBK and GB2312 labels decode as GB18030, the superset (WHATWG's GBK
    // decoder is its GB18030 decoder).
    {"chinese", "GB18030"},
    {"csgb2312", "GB18030"},
    {"csiso58gb231280", "GB18030"},
    {"gb2312", "GB18030"},
    {"gb_2312", "GB18030"},
    {"gb_2312-80", "GB18030"},
    {"gbk", "GB18030"},
    {"iso-ir-58", "GB18030"},
    {"x-gbk", "GB18030"},
    {"gb18030", "GB18030"},
    {"big5", "Big5"},
    {"big5-hkscs", "Big5"},
    {"cn-big5", "Big5"},
    {"csbig5", "Big5"},
    {"x-x-big5", "Big5"},
    {"cseucpkdfmtjapanese", "EUC-JP"},
    {"euc-jp", "EUC-JP"},
    {"x-euc-jp", "EUC-JP"},
    {"csiso2022jp", "ISO-2022-JP"},
    {"iso-2022-jp", "ISO-2022-JP"},
    {"csshiftjis", "Shift_JIS"},
    {"ms932", "Shift_JIS"},
    {"ms_kanji", "Shift_JIS"},
    {"shift-jis", "Shift_JIS"},
    {"shift_jis", "Shift_JIS"},
    {"sjis", "Shift_JIS"},
    {"windows-31j", "Shift_JIS"},
    {"x-sjis", "Shift_JIS"},
    {"cseuckr", "EUC-KR"},
    {"csksc56011987", "EUC-KR"},
    {"euc-kr", "EUC-KR"},
    {"iso-ir-149", "EUC-KR"},
    {"korean", "EUC-KR"},
    {"ks_c_5601-1987", "EUC-KR"},
    {"ks_c_5601-1989", "EUC-KR"},
    {"ksc5601", "EUC-KR"},
    {"ksc_5601", "EUC-KR"},
    {"windows-949", "EUC-KR"},
    {"unicodefffe", "UTF-16BE"},
    {"utf-16be", "UTF-16BE"},
    {"csunicode", "UTF-16"},
    {"iso-10646-ucs-2", "UTF-16"},
    {"ucs-2", "UTF-16"},
    {"unicode", "UTF-16"},
    {"unicodefeff", "UTF-16"},
    {"utf-16", "UTF-16"},
    {"utf-16le", "UTF-16LE"},
    // Common aliases outside the WHATWG list.
    {"cp936", "GB18030"},
    {"ms936", "GB18030"},
    {"windows-936", "GB18030"},
    {"euc-cn", "GB18030"},
    {"cp950", "Big5"},
    {"windows-950", "Big5"},
    {"big5hkscs", "Big5"},
    {"cp932", "Shift_JIS"},
    {"windows-932", "Shift_JIS"},
    {"shiftjis", "Shift_JIS"},
    {"cp949", "EUC-KR"},
    {"uhc", "EUC-KR"},
    // Further names uchardet reports.
    {"euc-tw", "EUC-TW"},
    {"csiso2022kr", "ISO-2022-KR"},
    {"iso-2022-kr", "ISO-2022-KR"},
    {"iso-2022-cn", "ISO-2022-CN"},
    {"iso-2022-cn-ext", "ISO-2022-CN"},
    {"hz-gb-2312", "HZ-GB-2312"},
    {"852", "IBM852"},
    {"cp852", "IBM852"},
    {"ibm852", "IBM852"},
    {"855", "IBM855"},
    {"cp855", "IBM855"},
    {"ibm855", "IBM855"},
    {"862", "IBM862"},
    {"cp862", "IBM862"},
    {"ibm862", "IBM862"},
    {"mac-centraleurope", "x-mac-ce"},
    {"x-mac-ce", "x-mac-ce"},
    {"x-mac-centraleurroman", "x-mac-ce"},
    {"mac-cyrillic", "x-mac-cyrillic"},
    {"utf-32", "UTF-32"},
};

constexpr bool AllLabelsResolve() {
  for (const Label& l : kLabels) {
    if (IdOf(l.encoding) < 0) return false;
  }
  return true;
}
static_assert(AllLabelsResolve(), "a label names an encoding not in the table");
static_assert(IdOf("UTF-8") == kUtf8 && IdOf("UTF-16") == kUtf16 &&
                  IdOf("UTF-16LE") == kUtf16Le &&
                  IdOf("UTF-16BE") == kUtf16Be &&
                  IdOf("windows-1252") == kWindows1252Id,
              "EncodingId out of step with kEncodings");

bool IsAsciiSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
}

std::string_view TrimAsciiSpace(std::string_view s) {
  while (!s.empty() && IsAsciiSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsAsciiSpace(s.back())) s.remove_suffix(1);
  return s;
}

// Debian's abseil keeps absl::string_view distinct from std::string_view, so
// this file uses its own small helpers instead of absl/strings/match.h.
absl::string_view Absl(std::string_view s) {
  return absl::string_view(s.data(), s.size());
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (absl::ascii_tolower(static_cast<unsigned char>(a[i])) !=
        absl::ascii_tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

bool StartsWithIgnoreCase(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() &&
         EqualsIgnoreCase(s.substr(0, prefix.size()), prefix);
}

// Returns the id of the encoding `label` names, or -1.
int LookupLabel(std::string_view label) {
  // Built once; function-local statics are initialised thread-safely.
  static const auto* const kMap = [] {
    auto* map = new absl::flat_hash_map<std::string_view, int>();
    for (const Label& l : kLabels) map->emplace(l.label, IdOf(l.encoding));
    return map;
  }();
  label = TrimAsciiSpace(label);
  if (label.empty() || label.size() > kMaxLabelLength) return -1;
  char lower[kMaxLabelLength];
  for (size_t i = 0; i < label.size(); ++i) {
    lower[i] = absl::ascii_tolower(static_cast<unsigned char>(label[i]));
  }
  auto it = kMap->find(std::string_view(lower, label.size()));
  return it == kMap->end() ? -1 : it->second;
}

// ---------------------------------------------------------------------------
// UTF-8.

// Examines the sequence starting at p[0] (n >= 1 bytes available). Returns
// its length and sets *ok if it is well-formed; otherwise returns the length
// of its maximal subpart (Unicode 15, section 3.9), which becomes one U+FFFD.
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

// Returns the offset of the first ill-formed sequence in s, or s.size().
size_t FirstInvalidUtf8(std::string_view s) {
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

bool IsAscii(std::string_view s) {
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

constexpr std::string_view kReplacementUtf8 = "\xEF\xBF\xBD";

// ---------------------------------------------------------------------------
// Decoders. Each appends valid UTF-8 for `in` to `out` and counts the
// U+FFFD it had to insert.

void DecodeTable(std::string_view in, const ByteTable& table,
                 std::string* out) {
  out->reserve(out->size() + in.size() + in.size() / 2);
  const auto* p = reinterpret_cast<const unsigned char*>(in.data());
  const size_t n = in.size();
  size_t i = 0;
  while (i < n) {
    size_t run = i;
    while (run < n && p[run] < 0x80) ++run;
    out->append(in.data() + i, run - i);
    i = run;
    for (; i < n && p[i] >= 0x80; ++i) AppendUtf8(table[p[i] - 0x80], out);
  }
}

struct CallbackContext {
  size_t invalid = 0;
  bool euro_0x80 = false;
};

// ICU to-Unicode callback: writes U+FFFD for each illegal or unmapped
// sequence and counts it. ICU's own substitute callback can write U+001A for
// single-byte converters, which is not what a reader should see.
void SubstituteAndCount(const void* context, UConverterToUnicodeArgs* args,
                        const char* code_units, int32_t length,
                        UConverterCallbackReason reason, UErrorCode* err) {
  // Reset, close and clone carry no data. They can arrive after the decode
  // that set `context` returned (the thread's converter is reset before its
  // next use), so `context` must not be touched for them.
  if (reason > UCNV_IRREGULAR) return;
  auto* ctx = static_cast<CallbackContext*>(const_cast<void*>(context));
  UChar sub = 0xFFFD;
  if (ctx->euro_0x80 && length == 1 &&
      static_cast<unsigned char>(code_units[0]) == 0x80) {
    sub = 0x20AC;
  } else {
    ++ctx->invalid;
  }
  *err = U_ZERO_ERROR;
  ucnv_cbToUWriteUChars(args, &sub, 1, 0, err);
}

// ICU converters are not thread-safe and opening one costs a table lookup
// under a global mutex, so each thread keeps one per encoding, reset before
// each use. At most kNumEncodings + 1 small objects per thread.
class ThreadConverters {
 public:
  ThreadConverters() = default;
  ThreadConverters(const ThreadConverters&) = delete;
  ThreadConverters& operator=(const ThreadConverters&) = delete;
  ~ThreadConverters() {
    for (UConverter* c : converters_) {
      if (c != nullptr) ucnv_close(c);
    }
    if (utf8_ != nullptr) ucnv_close(utf8_);
  }

  // Returns the converter for encoding `id`, reset, or null if ICU cannot
  // open it.
  UConverter* Get(int id) {
    UConverter*& c = converters_[id];
    if (c == nullptr) {
      UErrorCode err = U_ZERO_ERROR;
      c = ucnv_open(kEncodings[id].icu, &err);
      if (U_FAILURE(err)) c = nullptr;
    } else {
      ucnv_reset(c);
    }
    return c;
  }

  UConverter* Utf8() {
    if (utf8_ == nullptr) {
      UErrorCode err = U_ZERO_ERROR;
      utf8_ = ucnv_open("UTF-8", &err);
      if (U_FAILURE(err)) utf8_ = nullptr;
    } else {
      ucnv_reset(utf8_);
    }
    return utf8_;
  }

 private:
  std::array<UConverter*, kNumEncodings> converters_{};
  UConverter* utf8_ = nullptr;
};

ThreadConverters& Converters() {
  thread_local ThreadConverters converters;
  return converters;
}

absl::Status DecodeIcu(std::string_view in, int id, std::string* out,
                       size_t* invalid) {
  const Encoding& enc = kEncodings[id];
  ThreadConverters& converters = Converters();
  UConverter* source = converters.Get(id);
  UConverter* target = converters.Utf8();
  if (source == nullptr || target == nullptr) {
    return absl::InternalError(
        absl::StrCat("ICU has no converter '", enc.icu, "'"));
  }
  CallbackContext ctx;
  ctx.euro_0x80 = enc.euro_0x80;
  UErrorCode err = U_ZERO_ERROR;
  ucnv_setToUCallBack(source, SubstituteAndCount, &ctx, nullptr, nullptr, &err);
  if (U_FAILURE(err)) {
    return absl::InternalError(
        absl::StrCat("ucnv_setToUCallBack: ", u_errorName(err)));
  }

  // Every charset here needs at most 3 UTF-8 bytes per input byte (one
  // U+FFFD per invalid byte is the worst case), so 3n is the cap; start
  // smaller and grow, as most text needs 1-1.5n.
  const size_t hard_cap = 3 * in.size() + 16;
  size_t start = out->size();
  out->resize(start + std::min(hard_cap, in.size() + in.size() / 2 + 64));
  constexpr int kPivotSize = 4096;
  UChar pivot[kPivotSize];
  UChar* pivot_source = pivot;
  UChar* pivot_target = pivot;
  const char* src = in.data();
  const char* src_limit = in.data() + in.size();
  size_t written = 0;
  bool first = true;
  for (;;) {
    char* dst = out->data() + start + written;
    char* dst_limit = out->data() + out->size();
    err = U_ZERO_ERROR;
    ucnv_convertEx(target, source, &dst, dst_limit, &src, src_limit, pivot,
                   &pivot_source, &pivot_target, pivot + kPivotSize,
                   /*reset=*/first ? 1 : 0, /*flush=*/1, &err);
    first = false;
    written = dst - (out->data() + start);
    if (err == U_BUFFER_OVERFLOW_ERROR) {
      const size_t size = out->size() - start;
      if (size >= hard_cap) {
        out->resize(start + written);
        return absl::ResourceExhaustedError(absl::StrCat(
            "decoding as ", Absl(enc.name), " exceeded 3x its input"));
      }
      out->resize(start + std::min(hard_cap, size * 2));
      continue;
    }
    break;
  }
  out->resize(start + written);
  if (U_FAILURE(err)) {
    return absl::InternalError(
        absl::StrCat("ucnv_convertEx(", enc.icu, "): ", u_errorName(err)));
  }
  if (enc.ibm_controls) {
    for (size_t i = start; i < out->size(); ++i) {
      char& c = (*out)[i];
      if (c == 0x1C) {
        c = 0x1A;
      } else if (c == 0x7F) {
        c = 0x1C;
      } else if (c == 0x1A) {
        c = 0x7F;
      }
    }
  }
  *invalid += ctx.invalid;
  return absl::OkStatus();
}

// Decodes `in` as encoding `id` (never kUtf16Auto) into `result`.
absl::Status Decode(std::string_view in, int id, DecodeResult* result) {
  const Encoding& enc = kEncodings[id];
  result->charset = std::string(enc.name);
  if (enc.ascii_compatible && IsAscii(in)) {
    result->utf8.assign(in.data(), in.size());
    return absl::OkStatus();
  }
  switch (enc.kind) {
    case Kind::kUtf8:
      result->utf8 = SanitizeUtf8(in, &result->invalid_sequences);
      return absl::OkStatus();
    case Kind::kTable:
      DecodeTable(in, *enc.table, &result->utf8);
      return absl::OkStatus();
    case Kind::kIcu: {
      absl::Status status =
          DecodeIcu(in, id, &result->utf8, &result->invalid_sequences);
      if (!status.ok()) return status;
      // Belt and braces: ICU's stateful converters are many and odd; the
      // contract says valid UTF-8, and validation is cheap next to ICU.
      if (FirstInvalidUtf8(result->utf8) != result->utf8.size()) {
        size_t replaced = 0;
        result->utf8 = SanitizeUtf8(result->utf8, &replaced);
        result->invalid_sequences += replaced;
      }
      return absl::OkStatus();
    }
    case Kind::kUtf16Auto:
      break;
  }
  return absl::InternalError("unresolved UTF-16 byte order");
}

// Length of the BOM at the start of `bytes` and the encoding it names, or 0.
size_t SniffBom(std::string_view bytes, int* id) {
  if (StartsWith(bytes, "\xEF\xBB\xBF")) {
    *id = kUtf8;
    return 3;
  }
  if (StartsWith(bytes, "\xFF\xFE")) {
    *id = kUtf16Le;
    return 2;
  }
  if (StartsWith(bytes, "\xFE\xFF")) {
    *id = kUtf16Be;
    return 2;
  }
  return 0;
}

// Resolves "utf-16" by the BOM and strips a BOM that matches the encoding the
// caller chose (an override or header can name the encoding a BOM also
// names; the BOM is not text).
std::string_view ResolveAndStripBom(std::string_view bytes, int* id) {
  int bom_id;
  const size_t bom_len = SniffBom(bytes, &bom_id);
  if (*id == kUtf16) {
    *id = (bom_len > 0 && bom_id == kUtf16Be) ? kUtf16Be : kUtf16Le;
  }
  if (bom_len > 0 && bom_id == *id) bytes.remove_prefix(bom_len);
  return bytes;
}

// True if `sample` is well-formed UTF-8, allowing the last sequence to be cut
// off when `sample` is a prefix of a longer input.
bool IsUtf8Sample(std::string_view sample, bool truncated) {
  const size_t bad = FirstInvalidUtf8(sample);
  if (bad == sample.size()) return true;
  if (!truncated) return false;
  const auto* p = reinterpret_cast<const unsigned char*>(sample.data());
  bool ok;
  const size_t len = Utf8Step(p + bad, sample.size() - bad, &ok);
  return bad + len == sample.size() && p[bad] >= 0xC2 && p[bad] <= 0xF4;
}

// The charset detected from the first kDetectLimit bytes, or -1 when there is
// no evidence (pure ASCII, or nothing uchardet names that we decode).
int Detect(std::string_view bytes) {
  const std::string_view sample = bytes.substr(0, kDetectLimit);
  // uchardet would say "ASCII", which is no evidence; the caller's default
  // decides. Checking first also skips uchardet's ~0.2 ms fixed cost.
  if (IsAscii(sample)) return -1;
  // Non-ASCII text that is valid UTF-8 is UTF-8: legacy multi-byte text is
  // almost never valid UTF-8 by accident. uchardet gets short UTF-8 texts
  // wrong ("<p>café</p>" -> WINDOWS-1250, "Straße" -> IBM852), so it is
  // asked only when the bytes are not UTF-8.
  if (IsUtf8Sample(sample, sample.size() < bytes.size())) return kUtf8;
  std::unique_ptr<struct uchardet, void (*)(uchardet_t)> detector(
      uchardet_new(), uchardet_delete);
  if (detector == nullptr) return -1;
  if (uchardet_handle_data(detector.get(), sample.data(), sample.size()) != 0) {
    return -1;
  }
  uchardet_data_end(detector.get());
  const char* name = uchardet_get_charset(detector.get());
  if (name == nullptr || *name == '\0' || EqualsIgnoreCase(name, "ASCII")) {
    return -1;
  }
  return LookupLabel(name);
}

// ---------------------------------------------------------------------------
// <meta> prescan (HTML Standard 13.2.3.2, "prescan a byte stream").

bool IsAsciiAlpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

enum class AttrResult { kAttribute, kNone, kEndOfInput };

// "Get an attribute": parses one attribute at s[*pos]. kNone means the tag
// ended ('>' at *pos); kEndOfInput means the tag is cut off.
AttrResult GetAttribute(std::string_view s, size_t* pos, std::string* name,
                        std::string* value) {
  const size_t n = s.size();
  size_t i = *pos;
  while (i < n && (IsAsciiSpace(s[i]) || s[i] == '/')) ++i;
  if (i >= n) return AttrResult::kEndOfInput;
  if (s[i] == '>') {
    *pos = i;
    return AttrResult::kNone;
  }
  name->clear();
  value->clear();
  // Name.
  for (;; ++i) {
    if (i >= n) return AttrResult::kEndOfInput;
    const char c = s[i];
    if (c == '=' && !name->empty()) {
      ++i;
      break;
    }
    if (IsAsciiSpace(c)) {
      while (i < n && IsAsciiSpace(s[i])) ++i;
      if (i >= n) return AttrResult::kEndOfInput;
      if (s[i] != '=') {  // a name without value; s[i] starts the next one
        *pos = i;
        return AttrResult::kAttribute;
      }
      ++i;
      break;
    }
    if (c == '/' || c == '>') {
      *pos = i;
      return AttrResult::kAttribute;
    }
    name->push_back(absl::ascii_tolower(static_cast<unsigned char>(c)));
  }
  // Value.
  while (i < n && IsAsciiSpace(s[i])) ++i;
  if (i >= n) return AttrResult::kEndOfInput;
  if (s[i] == '"' || s[i] == '\'') {
    const char quote = s[i];
    const size_t end = s.find(quote, i + 1);
    if (end == std::string_view::npos) return AttrResult::kEndOfInput;
    value->assign(s.substr(i + 1, end - i - 1));
    *pos = end + 1;
    return AttrResult::kAttribute;
  }
  if (s[i] == '>') {
    *pos = i;
    return AttrResult::kAttribute;
  }
  const size_t start = i;
  while (i < n && !IsAsciiSpace(s[i]) && s[i] != '>') ++i;
  if (i >= n) return AttrResult::kEndOfInput;
  value->assign(s.substr(start, i - start));
  *pos = i;
  return AttrResult::kAttribute;
}

// "Extract a character encoding from a meta element" for a content attribute
// such as "text/html; charset=gbk". Returns "" if there is none.
std::string_view CharsetFromContentAttribute(std::string_view content) {
  const size_t n = content.size();
  size_t pos = 0;
  for (;;) {
    // Find "charset", ASCII case-insensitively.
    size_t found = std::string_view::npos;
    for (size_t i = pos; i + 7 <= n; ++i) {
      if (EqualsIgnoreCase(content.substr(i, 7), "charset")) {
        found = i;
        break;
      }
    }
    if (found == std::string_view::npos) return "";
    pos = found + 7;
    while (pos < n && IsAsciiSpace(content[pos])) ++pos;
    if (pos >= n || content[pos] != '=') continue;  // e.g. "charsets"
    ++pos;
    while (pos < n && IsAsciiSpace(content[pos])) ++pos;
    if (pos >= n) return "";
    if (content[pos] == '"' || content[pos] == '\'') {
      const size_t end = content.find(content[pos], pos + 1);
      if (end == std::string_view::npos) return "";
      return content.substr(pos + 1, end - pos - 1);
    }
    const size_t start = pos;
    while (pos < n && !IsAsciiSpace(content[pos]) && content[pos] != ';') {
      ++pos;
    }
    return content.substr(start, pos - start);
  }
}

}  // namespace

// ---------------------------------------------------------------------------
// Public API.

std::string_view CharsetSourceName(CharsetSource source) {
  switch (source) {
    case CharsetSource::kOverride:
      return "override";
    case CharsetSource::kBom:
      return "bom";
    case CharsetSource::kHttpHeader:
      return "http-header";
    case CharsetSource::kMeta:
      return "meta";
    case CharsetSource::kDetected:
      return "detected";
    case CharsetSource::kDefault:
      return "default";
  }
  return "unknown";
}

std::string_view CanonicalCharsetName(std::string_view label) {
  const int id = LookupLabel(label);
  return id < 0 ? std::string_view() : kEncodings[id].name;
}

std::string CharsetFromContentType(std::string_view content_type) {
  const size_t n = content_type.size();
  size_t pos = 0;
  // Each round parses one ';'-separated segment "name=value"; the first
  // segment (the MIME type) has no '=' and is skipped the same way, which
  // also accepts a bare "charset=utf-8".
  while (pos < n) {
    size_t i = pos;
    while (i < n && content_type[i] != ';' && content_type[i] != '=') ++i;
    const std::string_view name =
        TrimAsciiSpace(content_type.substr(pos, i - pos));
    if (i >= n) break;
    if (content_type[i] == ';') {
      pos = i + 1;
      continue;
    }
    // content_type[i] == '='.
    ++i;
    while (i < n && IsAsciiSpace(content_type[i])) ++i;
    std::string value;
    if (i < n && content_type[i] == '"') {
      // RFC 9110 quoted-string; an unterminated one runs to the end.
      for (++i; i < n && content_type[i] != '"'; ++i) {
        if (content_type[i] == '\\' && i + 1 < n) ++i;
        value.push_back(content_type[i]);
      }
      ++i;
    } else if (i < n && content_type[i] == '\'') {
      // Not HTTP, but seen in the wild.
      const size_t end = content_type.find('\'', i + 1);
      const size_t stop = end == std::string_view::npos ? n : end;
      value.assign(content_type.substr(i + 1, stop - i - 1));
      i = stop + 1;
    } else {
      const size_t start = i;
      while (i < n && content_type[i] != ';' && content_type[i] != ',' &&
             !IsAsciiSpace(content_type[i])) {
        ++i;
      }
      value.assign(content_type.substr(start, i - start));
    }
    if (EqualsIgnoreCase(name, "charset")) {
      return std::string(TrimAsciiSpace(value));
    }
    // Skip to the next parameter.
    while (i < n && content_type[i] != ';') ++i;
    pos = i + 1;
  }
  return "";
}

std::string CharsetFromMeta(std::string_view html_prefix) {
  const std::string_view s = html_prefix.substr(0, kMetaScanLimit);
  const size_t n = s.size();
  std::string name, value;
  size_t pos = 0;
  while (pos < n) {
    if (s[pos] != '<') {
      ++pos;
      continue;
    }
    const std::string_view rest = s.substr(pos);
    if (StartsWith(rest, "<!--")) {
      // "<!-->" closes too: the "--" of the opener counts.
      const size_t end = s.find("-->", pos + 2);
      if (end == std::string_view::npos) return "";
      pos = end + 3;
      continue;
    }
    if (rest.size() > 5 && StartsWithIgnoreCase(rest, "<meta") &&
        (IsAsciiSpace(rest[5]) || rest[5] == '/')) {
      pos += 6;
      bool seen_http_equiv = false, seen_content = false, seen_charset = false;
      bool got_pragma = false;
      int need_pragma = -1;  // -1 null, 0 false, 1 true
      std::string charset;
      bool have_charset = false;
      for (;;) {
        const AttrResult r = GetAttribute(s, &pos, &name, &value);
        if (r == AttrResult::kEndOfInput) return "";
        if (r == AttrResult::kNone) break;
        // Only the first of duplicate attributes counts.
        if (name == "http-equiv" && !seen_http_equiv) {
          seen_http_equiv = true;
          if (EqualsIgnoreCase(TrimAsciiSpace(value), "content-type")) {
            got_pragma = true;
          }
        } else if (name == "content" && !seen_content) {
          seen_content = true;
          if (!have_charset) {
            const std::string_view label = CharsetFromContentAttribute(value);
            if (!label.empty()) {
              charset.assign(TrimAsciiSpace(label));
              have_charset = true;
              need_pragma = 1;
            }
          }
        } else if (name == "charset" && !seen_charset) {
          seen_charset = true;
          charset.assign(TrimAsciiSpace(value));
          have_charset = true;
          need_pragma = 0;
        }
      }
      ++pos;  // past '>'
      if (need_pragma == -1 || (need_pragma == 1 && !got_pragma)) continue;
      if (!have_charset || LookupLabel(charset) < 0) continue;
      return charset;
    }
    if (rest.size() > 1 &&
        (IsAsciiAlpha(rest[1]) ||
         (rest[1] == '/' && rest.size() > 2 && IsAsciiAlpha(rest[2])))) {
      // Another tag: skip its name and attributes, so a '>' or "<meta"
      // inside a quoted attribute value cannot fool the scan.
      while (pos < n && !IsAsciiSpace(s[pos]) && s[pos] != '>') ++pos;
      for (;;) {
        const AttrResult r = GetAttribute(s, &pos, &name, &value);
        if (r == AttrResult::kEndOfInput) return "";
        if (r == AttrResult::kNone) break;
      }
      ++pos;
      continue;
    }
    if (rest.size() > 1 &&
        (rest[1] == '!' || rest[1] == '/' || rest[1] == '?')) {
      const size_t end = s.find('>', pos + 1);
      if (end == std::string_view::npos) return "";
      pos = end + 1;
      continue;
    }
    ++pos;
  }
  return "";
}

absl::StatusOr<DecodeResult> DecodeToUtf8(std::string_view bytes,
                                          std::string_view content_type,
                                          std::string_view override_charset) {
  DecodeResult result;
  int id = -1;
  std::string_view body = bytes;
  if (!override_charset.empty()) {
    id = LookupLabel(override_charset);
    if (id < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "unknown charset '",
          absl::CEscape(Absl(override_charset.substr(0, kMaxLabelLength))),
          "'"));
    }
    result.source = CharsetSource::kOverride;
    body = ResolveAndStripBom(bytes, &id);
  } else if (const size_t bom_len = SniffBom(bytes, &id); bom_len > 0) {
    result.source = CharsetSource::kBom;
    body.remove_prefix(bom_len);
  } else if ((id = LookupLabel(CharsetFromContentType(content_type))) >= 0) {
    result.source = CharsetSource::kHttpHeader;
    body = ResolveAndStripBom(bytes, &id);
  } else if ((id = LookupLabel(CharsetFromMeta(bytes))) >= 0) {
    result.source = CharsetSource::kMeta;
    // A <meta> found by an ASCII scan cannot be in UTF-16 (or UTF-32), so the
    // page is not either: HTML says to use UTF-8.
    if (id == kUtf16 || id == kUtf16Le || id == kUtf16Be ||
        kEncodings[id].name == "UTF-32") {
      id = kUtf8;
    }
  } else if ((id = Detect(bytes)) >= 0) {
    result.source = CharsetSource::kDetected;
    body = ResolveAndStripBom(bytes, &id);
  } else {
    result.source = CharsetSource::kDefault;
    id = FirstInvalidUtf8(bytes) == bytes.size() ? kUtf8 : kWindows1252Id;
  }
  absl::Status status = Decode(body, id, &result);
  if (!status.ok()) return status;
  return result;
}

bool IsValidUtf8(std::string_view s) { return FirstInvalidUtf8(s) == s.size(); }

std::string SanitizeUtf8(std::string_view s, size_t* replaced) {
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
        out.append(kReplacementUtf8);
        ++count;
      }
      i += len;
    }
  }
  if (replaced != nullptr) *replaced = count;
  return out;
}

}  // namespace fcrawl::charset
