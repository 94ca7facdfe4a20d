// The encoding table and the label lookup of core/charset_labels.h.
#include "core/charset_labels.h"

#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/ascii.h"
#include "absl/strings/string_view.h"
#include "core/charset.h"

namespace fcrawl::charset {
namespace internal {
namespace {

// ---------------------------------------------------------------------------
// Single-byte tables for the encodings decoded without ICU: windows-1252 is
// the most common legacy charset and the fallback, so it gets a fast path;
// ICU 72 has no ISO-8859-16 at all. Entries are the code points of bytes
// 0x80..0xFF, from the WHATWG indexes.

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
static_assert(sizeof(kEncodings) / sizeof(kEncodings[0]) == kNumEncodings,
              "kNumEncodings out of step with kEncodings");

constexpr int IdOf(absl::string_view name) {
  for (int i = 0; i < kNumEncodings; ++i) {
    if (kEncodings[i].name == name) return i;
  }
  return -1;
}

struct Label {
  absl::string_view label;  // lowercase
  absl::string_view encoding;
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

}  // namespace

const Encoding& EncodingOf(int id) { return kEncodings[id]; }

int LookupLabel(absl::string_view label) {
  // Built once; function-local statics are initialised thread-safely.
  static const auto* const kMap = [] {
    auto* map = new absl::flat_hash_map<absl::string_view, int>();
    for (const Label& l : kLabels) map->emplace(l.label, IdOf(l.encoding));
    return map;
  }();
  label = TrimHtmlSpace(label);
  // The length check comes first, so a hostile header costs no more than a
  // short copy.
  if (label.empty() || label.size() > kMaxLabelLength) return -1;
  auto it = kMap->find(absl::AsciiStrToLower(label));
  return it == kMap->end() ? -1 : it->second;
}

}  // namespace internal

absl::string_view CanonicalCharsetName(absl::string_view label) {
  const int id = internal::LookupLabel(label);
  return id < 0 ? absl::string_view() : internal::EncodingOf(id).name;
}

}  // namespace fcrawl::charset
