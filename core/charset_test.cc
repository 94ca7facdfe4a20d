// Tests of decoding pages to UTF-8 (DecodeToUtf8 in core/charset.h): the
// legacy charsets named every way and detected, every charset on garbage,
// which source wins, decoder details, UTF-8 repair, hostile input and
// concurrency. What a label names and finding labels in Content-Type and
// <meta> are tested in charset_labels_test.cc.
#include "core/charset.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace fcrawl::charset {
namespace {

using ::testing::HasSubstr;

// Fixtures are encoded once with glibc iconv (testdata/charset/
// make_fixtures.sh), so the decoder is never checked against its own
// encoder. <name>.txt holds the encoded text, <name>.utf8.txt the expected.
std::string ReadFixture(const std::string& name) {
  const std::string path =
      std::string(FCRAWL_SOURCE_DIR) + "/core/testdata/charset/" + name;
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// A realistic page around `body`; `head` goes first in <head>.
std::string Page(absl::string_view body, absl::string_view head = "") {
  return absl::StrCat("<!DOCTYPE html>\n<html>\n<head>\n", head,
                      "\n<title>Test page</title>\n"
                      "<link rel=\"stylesheet\" href=\"/style.css\">\n</head>\n"
                      "<body>\n<div class=\"content\">\n<p>",
                      body, "</p>\n</div>\n</body>\n</html>\n");
}

std::string MetaCharset(absl::string_view label) {
  return absl::StrCat("<meta charset=\"", label, "\">");
}

std::string MetaHttpEquiv(absl::string_view label) {
  return absl::StrCat(
      "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=", label,
      "\">");
}

DecodeResult MustDecode(absl::string_view bytes, absl::string_view content_type,
                        absl::string_view override_charset = "") {
  absl::StatusOr<DecodeResult> result =
      DecodeToUtf8(bytes, content_type, override_charset);
  EXPECT_TRUE(result.ok()) << result.status();
  if (!result.ok()) return DecodeResult();
  EXPECT_TRUE(IsValidUtf8(result->utf8));
  return *std::move(result);
}

// ---------------------------------------------------------------------------
// The seven legacy charsets, each named by header, by either <meta> form, and
// found by detection alone.

struct CharsetCase {
  const char* fixture;  // testdata/charset/<fixture>.txt
  const char* label;    // the label a page would use
  const char* charset;  // the canonical charset expected
  // What uchardet 0.0.7 reports for the page without any label: the charset
  // itself where it gets it right. See the DetectionAlone test.
  const char* detected;
};

std::ostream& operator<<(std::ostream& os, const CharsetCase& c) {
  return os << c.fixture;
}

class CharsetCaseTest : public ::testing::TestWithParam<CharsetCase> {
 protected:
  std::string Encoded() {
    return ReadFixture(std::string(GetParam().fixture) + ".txt");
  }
  std::string Expected() {
    return ReadFixture(std::string(GetParam().fixture) + ".utf8.txt");
  }
};

TEST_P(CharsetCaseTest, HeaderNamesCharset) {
  const CharsetCase& c = GetParam();
  const DecodeResult r =
      MustDecode(Page(Encoded()), std::string("text/html; charset=") + c.label);
  EXPECT_EQ(r.utf8, Page(Expected()));
  EXPECT_EQ(r.charset, c.charset);
  EXPECT_EQ(r.source, CharsetSource::kHttpHeader);
  EXPECT_EQ(r.invalid_sequences, 0u);
}

TEST_P(CharsetCaseTest, MetaCharsetNamesCharset) {
  const CharsetCase& c = GetParam();
  const DecodeResult r =
      MustDecode(Page(Encoded(), MetaCharset(c.label)), "text/html");
  EXPECT_EQ(r.utf8, Page(Expected(), MetaCharset(c.label)));
  EXPECT_EQ(r.charset, c.charset);
  EXPECT_EQ(r.source, CharsetSource::kMeta);
  EXPECT_EQ(r.invalid_sequences, 0u);
}

TEST_P(CharsetCaseTest, MetaHttpEquivNamesCharset) {
  const CharsetCase& c = GetParam();
  const DecodeResult r =
      MustDecode(Page(Encoded(), MetaHttpEquiv(c.label)), "");
  EXPECT_EQ(r.utf8, Page(Expected(), MetaHttpEquiv(c.label)));
  EXPECT_EQ(r.charset, c.charset);
  EXPECT_EQ(r.source, CharsetSource::kMeta);
  EXPECT_EQ(r.invalid_sequences, 0u);
}

TEST_P(CharsetCaseTest, OverrideNamesCharset) {
  const CharsetCase& c = GetParam();
  const DecodeResult r = MustDecode(Encoded(), "", c.label);
  EXPECT_EQ(r.utf8, Expected());
  EXPECT_EQ(r.charset, c.charset);
  EXPECT_EQ(r.source, CharsetSource::kOverride);
}

TEST_P(CharsetCaseTest, DetectionAlone) {
  const CharsetCase& c = GetParam();
  const DecodeResult r = MustDecode(Page(Encoded()), "");
  EXPECT_EQ(r.source, CharsetSource::kDetected);
  EXPECT_EQ(r.charset, c.detected);
  if (absl::string_view(c.detected) == c.charset) {
    EXPECT_EQ(r.utf8, Page(Expected()));
    EXPECT_EQ(r.invalid_sequences, 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Fixtures, CharsetCaseTest,
    ::testing::Values(
        // 镕 and 喆 exist in GBK but not GB2312.
        CharsetCase{"gbk", "gbk", "GB18030", "GB18030"},
        CharsetCase{"gb2312", "gb2312", "GB18030", "GB18030"},
        // 𠀀, 𪚥, Ä and Ü are four-byte sequences in GB18030.
        CharsetCase{"gb18030", "GB18030", "GB18030", "GB18030"},
        CharsetCase{"big5", "big5", "Big5", "Big5"},
        // ～ (0x8160) and ① (0x8740) as Windows writes them.
        CharsetCase{"shift_jis", "shift_jis", "Shift_JIS", "Shift_JIS"},
        CharsetCase{"euc-kr", "euc-kr", "EUC-KR", "EUC-KR"},
        // café, naïve, “smart quotes”, € and the rest of 0x80-0x9F.
        CharsetCase{"windows-1252", "windows-1252", "windows-1252",
                    "windows-1252"}),
    [](const ::testing::TestParamInfo<CharsetCase>& info) {
      std::string name = info.param.fixture;
      for (char& ch : name) {
        if (ch == '-') ch = '_';
      }
      return name;
    });

// ---------------------------------------------------------------------------
// Every charset, by its canonical name.

// Every charset the module knows opens, decodes ASCII, and turns 64 KB of
// random bytes into valid UTF-8 no more than 3x the size.
TEST(CharsetLabelsTest, EveryCharsetDecodesGarbageSafely) {
  const char* kCharsets[] = {
      "UTF-8",        "UTF-16",         "UTF-16LE",     "UTF-16BE",
      "windows-1252", "GB18030",        "Big5",         "Shift_JIS",
      "EUC-KR",       "EUC-JP",         "ISO-2022-JP",  "IBM866",
      "ISO-8859-2",   "ISO-8859-3",     "ISO-8859-4",   "ISO-8859-5",
      "ISO-8859-6",   "ISO-8859-7",     "ISO-8859-8",   "ISO-8859-8-I",
      "ISO-8859-10",  "ISO-8859-13",    "ISO-8859-14",  "ISO-8859-15",
      "ISO-8859-16",  "KOI8-R",         "KOI8-U",       "macintosh",
      "windows-874",  "windows-1250",   "windows-1251", "windows-1253",
      "windows-1254", "windows-1255",   "windows-1256", "windows-1257",
      "windows-1258", "x-mac-cyrillic", "EUC-TW",       "ISO-2022-KR",
      "ISO-2022-CN",  "HZ-GB-2312",     "IBM852",       "IBM855",
      "IBM862",       "x-mac-ce",       "UTF-32",
  };
  std::mt19937 rng(7);
  std::string garbage(64 * 1024, '\0');
  for (char& c : garbage) c = static_cast<char>(rng());
  for (const char* name : kCharsets) {
    SCOPED_TRACE(name);
    ASSERT_EQ(CanonicalCharsetName(name), name);
    const DecodeResult ascii = MustDecode("<p>Hello, world</p>", "", name);
    if (absl::string_view(name).substr(0, 5) != "UTF-1" &&
        absl::string_view(name) != "UTF-32") {
      EXPECT_EQ(ascii.utf8, "<p>Hello, world</p>");
    }
    if (absl::string_view(name).substr(0, 5) != "UTF-1" &&
        absl::string_view(name) != "UTF-32" &&
        absl::string_view(name).substr(0, 8) != "ISO-2022" &&
        absl::string_view(name) != "HZ-GB-2312") {
      // With a non-ASCII byte at the end the decoder proper runs, not the
      // pure-ASCII copy; it must agree that ASCII bytes are themselves.
      std::string all_ascii(128, '\0');
      for (int i = 0; i < 128; ++i) all_ascii[i] = static_cast<char>(i);
      const DecodeResult mixed = MustDecode(all_ascii + "\xFF", "", name);
      EXPECT_EQ(mixed.utf8.substr(0, 128), all_ascii);
    }
    const DecodeResult r = MustDecode(garbage, "", name);
    EXPECT_LE(r.utf8.size(), 3 * garbage.size() + 16);
  }
}

// ---------------------------------------------------------------------------
// Precedence: override > BOM > header > meta > detection > default.

TEST(CharsetPrecedenceTest, HeaderBeatsMeta) {
  const std::string page = Page(ReadFixture("gbk.txt"), MetaCharset("big5"));
  const DecodeResult r = MustDecode(page, "text/html; charset=gbk");
  EXPECT_EQ(r.charset, "GB18030");
  EXPECT_EQ(r.source, CharsetSource::kHttpHeader);
  EXPECT_EQ(r.utf8, Page(ReadFixture("gbk.utf8.txt"), MetaCharset("big5")));
}

TEST(CharsetPrecedenceTest, OverrideBeatsHeader) {
  const std::string page = Page(ReadFixture("gbk.txt"));
  const DecodeResult r = MustDecode(page, "text/html; charset=big5", "gbk");
  EXPECT_EQ(r.charset, "GB18030");
  EXPECT_EQ(r.source, CharsetSource::kOverride);
  EXPECT_EQ(r.utf8, Page(ReadFixture("gbk.utf8.txt")));
}

TEST(CharsetPrecedenceTest, OverrideBeatsBom) {
  // The project's rule: an explicit override wins even over a BOM.
  const DecodeResult r = MustDecode(
      "\xEF\xBB\xBF"
      "caf\xC3\xA9",
      "", "windows-1252");
  EXPECT_EQ(r.utf8,
            "\xC3\xAF\xC2\xBB\xC2\xBF"
            "caf\xC3\x83\xC2\xA9");
  EXPECT_EQ(r.source, CharsetSource::kOverride);
}

TEST(CharsetPrecedenceTest, Utf8BomBeatsHeaderAndIsStripped) {
  const std::string page = "\xEF\xBB\xBF" + Page("caf\xC3\xA9 \xE4\xB8\xAD");
  const DecodeResult r = MustDecode(page, "text/html; charset=gbk");
  EXPECT_EQ(r.charset, "UTF-8");
  EXPECT_EQ(r.source, CharsetSource::kBom);
  EXPECT_EQ(r.utf8, Page("caf\xC3\xA9 \xE4\xB8\xAD"));
}

TEST(CharsetPrecedenceTest, Utf16BomsBeatHeader) {
  // "hé中😀" in UTF-16: h, é, 中, then a surrogate pair.
  const std::string le(
      "\xFF\xFE"
      "h\0"
      "\xE9\0"
      "\x2D\x4E"
      "\x3D\xD8\x00\xDE",
      12);
  const std::string be(
      "\xFE\xFF"
      "\0h"
      "\0\xE9"
      "\x4E\x2D"
      "\xD8\x3D\xDE\x00",
      12);
  const std::string want = "h\xC3\xA9\xE4\xB8\xAD\xF0\x9F\x98\x80";
  DecodeResult r = MustDecode(le, "text/html; charset=windows-1252");
  EXPECT_EQ(r.utf8, want);
  EXPECT_EQ(r.charset, "UTF-16LE");
  EXPECT_EQ(r.source, CharsetSource::kBom);
  r = MustDecode(be, "text/html; charset=windows-1252");
  EXPECT_EQ(r.utf8, want);
  EXPECT_EQ(r.charset, "UTF-16BE");
  EXPECT_EQ(r.source, CharsetSource::kBom);
  // "utf-16" named by override or header follows the BOM, which is stripped.
  r = MustDecode(be, "", "utf-16");
  EXPECT_EQ(r.utf8, want);
  EXPECT_EQ(r.charset, "UTF-16BE");
  // Without a BOM "utf-16" means little-endian, as in browsers.
  r = MustDecode(le.substr(2), "text/html; charset=utf-16");
  EXPECT_EQ(r.utf8, want);
  EXPECT_EQ(r.charset, "UTF-16LE");
  EXPECT_EQ(r.source, CharsetSource::kHttpHeader);
}

TEST(CharsetPrecedenceTest, Utf16Errors) {
  // Lone surrogates and an odd trailing byte become U+FFFD.
  const std::string bytes(
      "\xFF\xFE"
      "a\0"
      "\x00\xD8"
      "b\0"
      "\x00\xDC"
      "c",
      11);
  const DecodeResult r = MustDecode(bytes, "");
  EXPECT_EQ(r.utf8,
            "a\xEF\xBF\xBD"
            "b\xEF\xBF\xBD\xEF\xBF\xBD");
  EXPECT_EQ(r.invalid_sequences, 3u);
}

TEST(CharsetPrecedenceTest, UnknownHeaderCharsetFallsThroughToMeta) {
  const std::string page = Page(ReadFixture("gbk.txt"), MetaCharset("gbk"));
  const DecodeResult r = MustDecode(page, "text/html; charset=x-bogus");
  EXPECT_EQ(r.charset, "GB18030");
  EXPECT_EQ(r.source, CharsetSource::kMeta);
  EXPECT_EQ(r.utf8, Page(ReadFixture("gbk.utf8.txt"), MetaCharset("gbk")));
}

TEST(CharsetPrecedenceTest, UnknownMetaFallsThroughToDetection) {
  const std::string page = Page(ReadFixture("gbk.txt"), MetaCharset("x-bogus"));
  const DecodeResult r = MustDecode(page, "text/html; charset=");
  EXPECT_EQ(r.charset, "GB18030");
  EXPECT_EQ(r.source, CharsetSource::kDetected);
}

TEST(CharsetPrecedenceTest, UnknownOverrideIsAnError) {
  absl::StatusOr<DecodeResult> r = DecodeToUtf8("abc", "", "xyz");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(r.status().message(), HasSubstr("unknown charset 'xyz'"));
  // Hostile labels are escaped and shortened in the message.
  r = DecodeToUtf8("abc", "",
                   std::string("\x01\xFF", 2) + std::string(500, 'a'));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(r.status().message(), HasSubstr("unknown charset '\\001\\377a"));
  EXPECT_LT(r.status().message().size(), 200u);
}

TEST(CharsetPrecedenceTest, MetaNamingUtf16MeansUtf8) {
  // An ASCII scan found the <meta>, so the page is not UTF-16 (HTML rule).
  const std::string page = Page("caf\xC3\xA9", MetaCharset("utf-16"));
  const DecodeResult r = MustDecode(page, "");
  EXPECT_EQ(r.charset, "UTF-8");
  EXPECT_EQ(r.source, CharsetSource::kMeta);
  EXPECT_EQ(r.utf8, page);
}

TEST(CharsetPrecedenceTest, DefaultIsUtf8ForAsciiAndValidUtf8) {
  DecodeResult r = MustDecode(Page("plain ASCII text"), "");
  EXPECT_EQ(r.charset, "UTF-8");
  EXPECT_EQ(r.source, CharsetSource::kDefault);
  EXPECT_EQ(r.utf8, Page("plain ASCII text"));

  r = MustDecode("", "");
  EXPECT_EQ(r.utf8, "");
  EXPECT_EQ(r.charset, "UTF-8");
  EXPECT_EQ(r.source, CharsetSource::kDefault);
  EXPECT_EQ(r.invalid_sequences, 0u);
}

TEST(CharsetPrecedenceTest, ValidUtf8WithoutLabelsIsDetectedAsUtf8) {
  // uchardet alone calls these WINDOWS-1250 and IBM852.
  for (const std::string body : {"caf\xC3\xA9",
                                 "Stra\xC3\x9F"
                                 "e"}) {
    const DecodeResult r = MustDecode("<p>" + body + "</p>", "");
    EXPECT_EQ(r.utf8, "<p>" + body + "</p>");
    EXPECT_EQ(r.charset, "UTF-8");
    EXPECT_EQ(r.source, CharsetSource::kDetected);
  }
  // A character cut by the 64 KB detection window is still UTF-8.
  const std::string page =
      std::string(64 * 1024 - 1, 'a') + "\xE4\xB8\xAD" + "b";
  const DecodeResult r = MustDecode(page, "");
  EXPECT_EQ(r.utf8, page);
  EXPECT_EQ(r.source, CharsetSource::kDetected);
}

TEST(CharsetPrecedenceTest, AsciiDetectionWindowFallsToDefault) {
  // Detection sees only ASCII; the default then looks at all the bytes.
  const std::string ascii(70 * 1024, 'a');
  DecodeResult r = MustDecode(ascii + "caf\xC3\xA9", "");
  EXPECT_EQ(r.charset, "UTF-8");
  EXPECT_EQ(r.source, CharsetSource::kDefault);
  r = MustDecode(ascii + "caf\xE9", "");
  EXPECT_EQ(r.charset, "windows-1252");
  EXPECT_EQ(r.source, CharsetSource::kDefault);
  EXPECT_EQ(r.utf8, ascii + "caf\xC3\xA9");
}

TEST(CharsetPrecedenceTest, EmptyInputWithLabels) {
  DecodeResult r = MustDecode("", "text/html; charset=gbk");
  EXPECT_EQ(r.utf8, "");
  EXPECT_EQ(r.charset, "GB18030");
  EXPECT_EQ(r.source, CharsetSource::kHttpHeader);
  r = MustDecode("", "", "shift_jis");
  EXPECT_EQ(r.utf8, "");
  EXPECT_EQ(r.charset, "Shift_JIS");
}

TEST(CharsetPrecedenceTest, PureAsciiUnderAsciiCompatibleLabelIsCopied) {
  const std::string page = Page("nothing but ASCII");
  const DecodeResult r = MustDecode(page, "text/html; charset=big5");
  EXPECT_EQ(r.utf8, page);
  EXPECT_EQ(r.charset, "Big5");
}

// ---------------------------------------------------------------------------
// Decoding details that differ between variants of a charset.

TEST(CharsetDecodeTest, Cp949ExtensionUnderEucKrLabel) {
  // 똠 and 꿍 are outside KS X 1001; pages labelled euc-kr use CP949.
  const DecodeResult r =
      MustDecode(ReadFixture("cp949.txt"), "text/html; charset=euc-kr");
  EXPECT_EQ(r.utf8, ReadFixture("cp949.utf8.txt"));
  EXPECT_EQ(r.invalid_sequences, 0u);
}

TEST(CharsetDecodeTest, HkscsCharactersUnderBig5Label) {
  // Cantonese characters (佢 is 0xCA5C: a '\' trail byte) that plain
  // Big5/CP950 lacks; Hong Kong pages labelled big5 use them.
  const DecodeResult r =
      MustDecode(ReadFixture("hkscs.txt"), "text/html; charset=big5");
  EXPECT_EQ(r.utf8, ReadFixture("hkscs.utf8.txt"));
  EXPECT_EQ(r.invalid_sequences, 0u);
}

TEST(CharsetDecodeTest, ShiftJisWindowsCharacters) {
  // 0x8160 ～ FULLWIDTH TILDE, 0x8740 ① (NEC), 0x878A ㈱, 0xFA40 ⅰ (IBM).
  const DecodeResult r =
      MustDecode("\x81\x60\x87\x40\x87\x8A\xFA\x40", "", "shift_jis");
  EXPECT_EQ(r.utf8, "\xEF\xBD\x9E\xE2\x91\xA0\xE3\x88\xB1\xE2\x85\xB0");
  EXPECT_EQ(r.invalid_sequences, 0u);
}

TEST(CharsetDecodeTest, ControlBytesAreThemselvesInIbmDerivedCharsets) {
  // ICU's CP932 and IBM code pages rotate 0x1A/0x1C/0x7F; browsers do not.
  const std::string controls("\x1A\x1C\x7F", 3);
  for (const char* label : {"shift_jis", "ibm866", "ibm852"}) {
    SCOPED_TRACE(label);
    EXPECT_EQ(MustDecode(controls + "\xA0", "", label).utf8.substr(0, 3),
              controls);
    EXPECT_EQ(MustDecode(controls, "", label).utf8, controls);
  }
}

TEST(CharsetDecodeTest, Gb18030ByteOx80IsEuro) {
  // CP936 writes € as 0x80; WHATWG decodes it so.
  const DecodeResult r = MustDecode("5\x80", "text/html; charset=gbk");
  EXPECT_EQ(r.utf8, "5\xE2\x82\xAC");
  EXPECT_EQ(r.invalid_sequences, 0u);
}

TEST(CharsetDecodeTest, Windows1252UndefinedBytesAreC1Controls) {
  const DecodeResult r = MustDecode("\x80\x81\x9D\xFF", "", "latin1");
  EXPECT_EQ(r.utf8, "\xE2\x82\xAC\xC2\x81\xC2\x9D\xC3\xBF");
  EXPECT_EQ(r.invalid_sequences, 0u);
}

TEST(CharsetDecodeTest, InvalidMultibyteSequencesAreReplacedAndCounted) {
  // A GBK lead byte followed by an ASCII quote, then a lone lead at the end.
  const DecodeResult r = MustDecode("a\x81\"b\xFF", "", "gbk");
  EXPECT_TRUE(IsValidUtf8(r.utf8));
  EXPECT_GE(r.invalid_sequences, 2u);
  EXPECT_THAT(r.utf8, HasSubstr("b"));
  EXPECT_THAT(r.utf8, HasSubstr("\xEF\xBF\xBD"));
}

// ---------------------------------------------------------------------------
// UTF-8 validation and repair.

struct Utf8Case {
  std::string input;
  std::string want;
  size_t replaced;
};

TEST(Utf8Test, InvalidSequencesBecomeReplacementCharacters) {
  const std::string R = "\xEF\xBF\xBD";
  const Utf8Case kCases[] = {
      {"a\xFF"
       "b",
       "a" + R + "b", 1},                         // lone 0xFF
      {"a\xFE\xFF", "a" + R + R, 2},              // BOM bytes, not first
      {"x\xE4\xB8", "x" + R, 1},                  // truncated at the end
      {"\xE4\xB8x", R + "x", 1},                  // truncated mid-text
      {"\xF0\x9F\x98", R, 1},                     // truncated 4-byte
      {"\xC0\xAF", R + R, 2},                     // overlong '/'
      {"\xE0\x80\xAF", R + R + R, 3},             // overlong, 3 bytes
      {"\xED\xA0\x80", R + R + R, 3},             // surrogate U+D800
      {"\xED\xBF\xBF", R + R + R, 3},             // surrogate U+DFFF
      {"\xF4\x90\x80\x80", R + R + R + R, 4},     // above U+10FFFF
      {"\xF5\x80", R + R, 2},                     // invalid lead
      {"\x80\xBF", R + R, 2},                     // stray continuations
      {"\xC3", R, 1},                             // lone lead
      {"caf\xC3\xA9\xE9", "caf\xC3\xA9" + R, 1},  // latin-1 byte after UTF-8
  };
  for (const Utf8Case& c : kCases) {
    SCOPED_TRACE(testing::PrintToString(c.input));
    EXPECT_FALSE(IsValidUtf8(c.input));
    size_t replaced = 99;
    EXPECT_EQ(SanitizeUtf8(c.input, &replaced), c.want);
    EXPECT_EQ(replaced, c.replaced);
    const DecodeResult r = MustDecode(c.input, "text/html; charset=utf-8");
    EXPECT_EQ(r.utf8, c.want);
    EXPECT_EQ(r.invalid_sequences, c.replaced);
    EXPECT_EQ(r.charset, "UTF-8");
  }
}

TEST(Utf8Test, ValidSequencesAreKept) {
  const std::string kValid[] = {
      "",
      "plain ascii, long enough to use the eight-byte path",
      std::string("nul\0inside", 10),
      "\xC2\x80",          // U+0080
      "\xDF\xBF",          // U+07FF
      "\xE0\xA0\x80",      // U+0800
      "\xED\x9F\xBF",      // U+D7FF, just below surrogates
      "\xEE\x80\x80",      // U+E000, just above
      "\xEF\xBF\xBF",      // U+FFFF
      "\xF0\x90\x80\x80",  // U+10000
      "\xF4\x8F\xBF\xBF",  // U+10FFFF
      "\xE4\xB8\xAD\xE6\x96\x87 \xF0\x9F\x98\x80 caf\xC3\xA9",
  };
  for (const std::string& s : kValid) {
    SCOPED_TRACE(testing::PrintToString(s));
    EXPECT_TRUE(IsValidUtf8(s));
    size_t replaced = 99;
    EXPECT_EQ(SanitizeUtf8(s, &replaced), s);
    EXPECT_EQ(replaced, 0u);
  }
  EXPECT_EQ(SanitizeUtf8("\xFF", nullptr), "\xEF\xBF\xBD");
}

TEST(Utf8Test, InvalidUtf8WithoutLabelsIsNotCalledUtf8) {
  const DecodeResult r = MustDecode(
      "caf\xE9 cr\xE8me br\xFBl\xE9"
      "e",
      "");
  EXPECT_EQ(r.utf8,
            "caf\xC3\xA9 cr\xC3\xA8me br\xC3\xBBl\xC3\xA9"
            "e");
  EXPECT_EQ(r.charset, "windows-1252");
}

// ---------------------------------------------------------------------------
// Hostile input.

TEST(CharsetHostileTest, RandomMegabyteGivesValidUtf8Quickly) {
  std::mt19937_64 rng(20240521);
  std::string garbage(1 << 20, '\0');
  for (size_t i = 0; i < garbage.size(); i += 8) {
    const uint64_t v = rng();
    std::memcpy(&garbage[i], &v, 8);
  }
  const auto start = std::chrono::steady_clock::now();
  const DecodeResult r = MustDecode(garbage, "");
  const auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_TRUE(IsValidUtf8(r.utf8));
  EXPECT_LE(r.utf8.size(), 3 * garbage.size());
  // Time is the feature: decoding is linear in the input, whatever the
  // bytes. A megabyte takes milliseconds; a quadratic decoder would take
  // hours, so a bound this generous still tells them apart on a loaded
  // machine or under the sanitizers.
  EXPECT_LT(elapsed, std::chrono::seconds(30));

  for (const char* label : {"utf-8", "gbk", "big5", "shift_jis", "euc-kr",
                            "utf-16", "iso-2022-jp", "hz-gb-2312"}) {
    SCOPED_TRACE(label);
    const DecodeResult l = MustDecode(garbage, "", label);
    EXPECT_LE(l.utf8.size(), 3 * garbage.size());
    EXPECT_GT(l.invalid_sequences, 0u);
  }
  size_t replaced = 0;
  const std::string sanitized = SanitizeUtf8(garbage, &replaced);
  EXPECT_TRUE(IsValidUtf8(sanitized));
  EXPECT_GT(replaced, garbage.size() / 4);
}

TEST(CharsetHostileTest, AllFfBytesStayWithinThreeTimes) {
  // The worst case: every byte is its own U+FFFD.
  const std::string ff(100000, '\xFF');
  const DecodeResult r = MustDecode(ff, "text/html; charset=utf-8");
  EXPECT_EQ(r.utf8.size(), 3 * ff.size());
  EXPECT_EQ(r.invalid_sequences, ff.size());
  const DecodeResult g = MustDecode(ff, "", "gbk");
  EXPECT_LE(g.utf8.size(), 3 * ff.size());
}

// ---------------------------------------------------------------------------

TEST(CharsetSourceNameTest, Names) {
  EXPECT_EQ(CharsetSourceName(CharsetSource::kOverride), "override");
  EXPECT_EQ(CharsetSourceName(CharsetSource::kBom), "bom");
  EXPECT_EQ(CharsetSourceName(CharsetSource::kHttpHeader), "http-header");
  EXPECT_EQ(CharsetSourceName(CharsetSource::kMeta), "meta");
  EXPECT_EQ(CharsetSourceName(CharsetSource::kDetected), "detected");
  EXPECT_EQ(CharsetSourceName(CharsetSource::kDefault), "default");
}

TEST(CharsetThreadTest, ConcurrentGbkDecodesAgree) {
  const std::string page = Page(ReadFixture("gbk.txt"));
  const std::string want = Page(ReadFixture("gbk.utf8.txt"));
  constexpr int kThreads = 4;
  constexpr int kRounds = 200;
  std::vector<int> mismatches(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kRounds; ++i) {
        // Alternate header, override and detection so converters, the
        // detector and the fast paths all run concurrently.
        absl::StatusOr<DecodeResult> r =
            i % 3 == 0   ? DecodeToUtf8(page, "text/html; charset=gbk")
            : i % 3 == 1 ? DecodeToUtf8(page, "", "gb2312")
                         : DecodeToUtf8(page);
        if (!r.ok() || r->utf8 != want || r->charset != "GB18030") {
          ++mismatches[t];
        }
      }
    });
  }
  for (std::thread& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(mismatches[t], 0) << t;
}

}  // namespace
}  // namespace fcrawl::charset
