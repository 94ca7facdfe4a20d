#include "core/quote.h"

#include <string>

#include "gtest/gtest.h"

namespace fcrawl {
namespace {

TEST(QuoteInputTest, ControlBytesAndBrokenUtf8AreEscaped) {
  EXPECT_EQ(QuoteInput("plain"), "'plain'");
  EXPECT_EQ(QuoteInput(std::string("a\nb\0c\x7f", 6)), "'a\\x0ab\\x00c\\x7f'");
  // Well-formed UTF-8 stays readable; a stray byte and a cut sequence do
  // not.
  EXPECT_EQ(QuoteInput("b\xC3\xBC"
                       "cher"),
            "'b\xC3\xBC"
            "cher'");
  EXPECT_EQ(QuoteInput("\xFFz\xE4\xB8"), "'\\xffz\\xe4\\xb8'");
}

TEST(QuoteInputTest, LongInputIsCut) {
  EXPECT_EQ(QuoteInput(std::string(100, 'a'), 4), "'aaaa...' (100 bytes)");
  EXPECT_EQ(QuoteInput(std::string(80, 'a')), "'" + std::string(80, 'a') + "'");
  // A sequence cut at the limit is shown as its bytes.
  EXPECT_EQ(QuoteInput("ab\xC3\xBC", 3), "'ab\\xc3...' (4 bytes)");
}

}  // namespace
}  // namespace fcrawl
