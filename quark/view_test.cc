#include <fstream>
#include <sstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "quark/quark.h"
#include "quark/test_util.h"

namespace fcrawl::quark {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(ViewTest, OutlinesEveryBlockAndDropsScripts) {
  std::string page = testing::ReadFixture("article.html");
  ASSERT_FALSE(page.empty());
  page.insert(page.find("<div id=\"article\">"),
              "<script>alert(1)</script><a href=\"javascript:alert(2)\" "
              "onclick=\"alert(3)\">x</a>");
  absl::StatusOr<AnalyzedPage> a =
      AnalyzePage(page, "http://example.com/physics/", "", "");
  ASSERT_TRUE(a.ok());
  std::string view = RenderView(*a);
  EXPECT_THAT(view, HasSubstr("data-quark=\"content\""));
  EXPECT_THAT(view, HasSubstr("data-quark=\"navigation\""));
  EXPECT_THAT(view, HasSubstr("data-quark=\"related_links\""));
  EXPECT_THAT(view, HasSubstr("data-quark=\"noise\""));
  EXPECT_THAT(view, HasSubstr("id=\"quark-legend\""));
  EXPECT_THAT(view, HasSubstr("<base href=\"http://example.com/physics/\">"));
  EXPECT_THAT(view, Not(HasSubstr("<script")));
  EXPECT_THAT(view, Not(HasSubstr("alert")));
  // One marker per block.
  size_t markers = 0;
  for (size_t p = view.find("data-quark=\""); p != std::string::npos;
       p = view.find("data-quark=\"", p + 1)) {
    ++markers;
  }
  EXPECT_EQ(markers, a->segmentation.blocks.size());
}

TEST(ViewTest, TextIsEscaped) {
  absl::StatusOr<AnalyzedPage> a =
      AnalyzePage("<p>a &lt;b&gt; &amp; c</p>", "", "", "");
  ASSERT_TRUE(a.ok());
  std::string view = RenderView(*a);
  EXPECT_THAT(view, HasSubstr("a &lt;b&gt; &amp; c"));
}

}  // namespace
}  // namespace fcrawl::quark
