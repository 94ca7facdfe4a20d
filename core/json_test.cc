#include "core/json.h"

#include <cmath>
#include <limits>
#include <string>

#include "absl/time/time.h"
#include "gtest/gtest.h"

namespace fcrawl::json {
namespace {

// ---- JSON strings ----------------------------------------------------------

TEST(JsonQuoteTest, EscapesQuotesAndBackslashes) {
  EXPECT_EQ(Quote(""), "\"\"");
  EXPECT_EQ(Quote("plain text"), "\"plain text\"");
  EXPECT_EQ(Quote("say \"hi\""), "\"say \\\"hi\\\"\"");
  EXPECT_EQ(Quote("C:\\dir\\"), "\"C:\\\\dir\\\\\"");
  EXPECT_EQ(Quote("a/b"), "\"a/b\"");
  // Plain runs between escapes, at either end and in the middle.
  EXPECT_EQ(Quote("\"ab\\cd\ne\xC3\xA9"
                  "f\x7fg\""),
            "\"\\\"ab\\\\cd\\ne\xC3\xA9"
            "f\\u007fg\\\"\"");
  std::string out = "x";
  AppendQuoted(&out, "run");
  EXPECT_EQ(out, "x\"run\"");
}

TEST(JsonQuoteTest, EscapesControlCharacters) {
  EXPECT_EQ(Quote("\b\f\n\r\t"), "\"\\b\\f\\n\\r\\t\"");
  EXPECT_EQ(Quote(std::string("a\0b", 3)), "\"a\\u0000b\"");
  EXPECT_EQ(Quote("\x01\x1f\x7f"), "\"\\u0001\\u001f\\u007f\"");
  EXPECT_EQ(Quote("\x1b[31m"), "\"\\u001b[31m\"");
  // Every ASCII control character comes out escaped.
  for (int c = 0; c < 0x20; ++c) {
    const std::string q = Quote(std::string(1, static_cast<char>(c)));
    for (char o : q) EXPECT_GE(static_cast<unsigned char>(o), 0x20) << c;
  }
  // U+2028 and U+2029 (line separators in JavaScript).
  EXPECT_EQ(Quote("a\xE2\x80\xA8"
                  "b\xE2\x80\xA9"),
            "\"a\\u2028b\\u2029\"");
}

TEST(JsonQuoteTest, KeepsValidUtf8) {
  const std::string s =
      "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80 \xEF\xBF\xBF \xF4\x8F\xBF\xBF "
      "\xED\x9F\xBF \xEE\x80\x80";
  EXPECT_EQ(Quote(s), "\"" + s + "\"");
}

TEST(JsonQuoteTest, ReplacesInvalidUtf8) {
  const std::string r = "\xEF\xBF\xBD";  // U+FFFD
  EXPECT_EQ(Quote("\xFF"), "\"" + r + "\"");
  EXPECT_EQ(Quote("a\x80z"), "\"a" + r + "z\"");
  EXPECT_EQ(Quote("\xC0\xAF"), "\"" + r + r + "\"");  // overlong '/'
  EXPECT_EQ(Quote("\xC3"), "\"" + r + "\"");          // truncated at end
  EXPECT_EQ(Quote("\xC3(x"), "\"" + r + "(x\"");
  EXPECT_EQ(Quote("\xED\xA0\x80"), "\"" + r + r + r + "\"");  // surrogate
  EXPECT_EQ(Quote("\xF4\x90\x80\x80"), "\"" + r + r + r + r + "\"");  // >10FFFF
  EXPECT_EQ(Quote("\xE0\x80\x80"), "\"" + r + r + r + "\"");  // overlong
  // A truncated 3- or 4-byte sequence is one maximal subpart: one U+FFFD.
  EXPECT_EQ(Quote("\xE2\x82x"), "\"" + r + "x\"");
  EXPECT_EQ(Quote("\xF0\x9F\x98x"), "\"" + r + "x\"");
  EXPECT_EQ(Quote("\xF0\x9F\x98"), "\"" + r + "\"");
  // Unicode 15 §3.9 example: 61 F1 80 80 E1 80 C2 62 80 63 80 BF 64.
  EXPECT_EQ(Quote("\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64"),
            "\"a" + r + r + r + "b" + r + "c" + r + r + "d\"");
}

// Whatever the bytes, the output is valid UTF-8 without raw control
// characters, and an escape-free input survives unchanged.
TEST(JsonQuoteTest, AllBytePairsGiveCleanOutput) {
  for (int a = 0; a < 256; ++a) {
    for (int b = 0; b < 256; b += 3) {
      std::string in = {static_cast<char>(a), static_cast<char>(b)};
      const std::string q = Quote(in);
      ASSERT_GE(q.size(), 2u);
      for (unsigned char c : q) ASSERT_GE(c, 0x20) << a << " " << b;
      // Re-quoting the inside of valid output changes nothing but escapes.
      const std::string inner = q.substr(1, q.size() - 2);
      const std::string again = Quote(inner);
      ASSERT_EQ(again.find("\xEF\xBF\xBD") != std::string::npos,
                inner.find("\xEF\xBF\xBD") != std::string::npos);
    }
  }
}

TEST(JsonNumberTest, ShortestFormAndNullForNonFinite) {
  EXPECT_EQ(Number(0.5), "0.5");
  EXPECT_EQ(Number(0.1), "0.1");
  EXPECT_EQ(Number(3), "3");
  EXPECT_EQ(Number(-2.25), "-2.25");
  EXPECT_EQ(Number(std::nan("")), "null");
  EXPECT_EQ(Number(std::numeric_limits<double>::infinity()), "null");
  EXPECT_EQ(Number(-std::numeric_limits<double>::infinity()), "null");
}

TEST(JsonTimeTest, Rfc3339Milliseconds) {
  EXPECT_EQ(Rfc3339Millis(absl::FromUnixMicros(1714566896123999)),
            "2024-05-01T12:34:56.123Z");
  EXPECT_EQ(Rfc3339Millis(absl::FromUnixSeconds(0)),
            "1970-01-01T00:00:00.000Z");
}

}  // namespace
}  // namespace fcrawl::json
