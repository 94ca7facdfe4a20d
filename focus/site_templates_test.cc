#include "focus/site_templates.h"

#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "quark/quark.h"

namespace fcrawl::focus {
namespace {

using ::testing::HasSubstr;

// A page of site s.com: the same menu and footer on every page (the footer
// with the page number in it), and its own article.
std::string SitePage(int i) {
  return absl::StrCat(
      "<html><body>"
      "<div id=menu class=nav><a href=/>Home</a> <a href=/courses/>Courses</a>"
      " <a href=/people/>People</a> <a href=http://ads.test/>Sponsor</a></div>"
      "<div id=main><h1>Article ",
      i, "</h1><p>",
      absl::StrCat("This article number ", i,
                   " talks about its own subject at some length, with words "
                   "that differ from page to page: ",
                   std::string(i % 7 + 1, 'x'), " ", i * 7919, "."),
      "</p></div>"
      "<div id=footer>Copyright 2007-20",
      10 + i % 9, " Example University. Page ", i, " of the site.</div>",
      "</body></html>");
}

quark::AnalyzedPage Analyze(const std::string& html) {
  absl::StatusOr<quark::AnalyzedPage> p =
      quark::AnalyzePage(html, "http://s.com/a.html", "text/html", "");
  EXPECT_TRUE(p.ok()) << p.status();
  return p.ok() ? std::move(*p) : quark::AnalyzedPage();
}

// The index of the block whose text contains `needle`, or -1.
int BlockWith(const quark::AnalyzedPage& p, absl::string_view needle) {
  for (size_t i = 0; i < p.segmentation.blocks.size(); ++i) {
    if (absl::StrContains(p.segmentation.blocks[i].text, needle)) {
      return static_cast<int>(i);
    }
  }
  return -1;
}

TEST(SiteTemplatesTest, RepeatedMenuAndFooterBecomeTemplateArticlesDoNot) {
  SiteTemplates t({});  // min_pages 4, min_share .5
  for (int i = 0; i < 3; ++i) {
    quark::AnalyzedPage p = Analyze(SitePage(i));
    const std::vector<bool> flags = t.Observe("s.com", p);
    ASSERT_EQ(flags.size(), p.segmentation.blocks.size());
    // Fewer than min_pages pages: nothing is template yet.
    for (bool f : flags) EXPECT_FALSE(f) << i;
  }
  quark::AnalyzedPage p = Analyze(SitePage(3));
  const std::vector<bool> flags = t.Observe("s.com", p);
  const int menu = BlockWith(p, "Courses");
  const int footer = BlockWith(p, "Copyright");
  const int article = BlockWith(p, "talks about");
  ASSERT_GE(menu, 0);
  ASSERT_GE(footer, 0);
  ASSERT_GE(article, 0);
  EXPECT_TRUE(flags[menu]);
  // The footer's year and page number differ; digits are folded.
  EXPECT_TRUE(flags[footer]);
  EXPECT_FALSE(flags[article]);
  // Another site with the same layout has its own counts.
  quark::AnalyzedPage other = Analyze(SitePage(4));
  for (bool f : t.Observe("t.com", other)) EXPECT_FALSE(f);
  EXPECT_EQ(t.sites(), 2);
}

TEST(SiteTemplatesTest, ShareThresholdByHand) {
  SiteTemplateOptions o;
  o.min_pages = 2;
  o.min_share = 0.5;
  SiteTemplates t(o);
  const std::string menu =
      "<div id=menu><a href=/x>Menu link</a> <a href=/y>Other place</a> "
      "<a href=/z>Third place</a></div>";
  auto page = [&](bool with_menu, int i) {
    return Analyze(absl::StrCat(
        "<html><body>", with_menu ? menu : "",
        "<div id=main><p>Unique text of page ", std::string(i + 1, 'q'),
        ", long enough to be a paragraph of its own with many words in it "
        "that go on.</p></div></body></html>"));
  };
  // Pages 1, 2 with the menu: 2 of 2 ≥ max(2, ⌈.5·2⌉) → template.
  t.Observe("s", page(true, 1));
  quark::AnalyzedPage p2 = page(true, 2);
  EXPECT_TRUE(t.Observe("s", p2)[BlockWith(p2, "Menu link")]);
  // Pages 3, 4, 5 without it; page 6 with it: 3 of 6 ≥ ⌈.5·6⌉ = 3.
  for (int i = 3; i <= 5; ++i) t.Observe("s", page(false, i));
  quark::AnalyzedPage p6 = page(true, 6);
  EXPECT_TRUE(t.Observe("s", p6)[BlockWith(p6, "Menu link")]);
  // Page 7 with it is 4 of 7 ≥ 4, but page 8 without and page 9 with it:
  // 5 of 9 ≥ ⌈4.5⌉ = 5 still; pages 10, 11 without and 12 with: 6 of 12 ≥ 6.
  // Then 13, 14 without and 15 with: 7 of 15 < ⌈7.5⌉ = 8 → no longer.
  quark::AnalyzedPage p = page(true, 7);
  EXPECT_TRUE(t.Observe("s", p)[BlockWith(p, "Menu link")]);
  t.Observe("s", page(false, 8));
  p = page(true, 9);
  EXPECT_TRUE(t.Observe("s", p)[BlockWith(p, "Menu link")]);
  t.Observe("s", page(false, 10));
  t.Observe("s", page(false, 11));
  p = page(true, 12);
  EXPECT_TRUE(t.Observe("s", p)[BlockWith(p, "Menu link")]);
  t.Observe("s", page(false, 13));
  t.Observe("s", page(false, 14));
  p = page(true, 15);
  EXPECT_FALSE(t.Observe("s", p)[BlockWith(p, "Menu link")]);
}

TEST(SiteTemplatesTest, SameTextElsewhereInTheLayoutIsNotTheSameBlock) {
  SiteTemplateOptions o;
  o.min_pages = 2;
  SiteTemplates t(o);
  quark::AnalyzedPage a = Analyze(
      "<html><body><div id=left><a href=/x>Shared words</a></div>"
      "<p>one</p></body></html>");
  quark::AnalyzedPage b = Analyze(
      "<html><body><div id=right><a href=/x>Shared words</a></div>"
      "<p>two</p></body></html>");
  EXPECT_NE(SiteTemplates::Signature(
                a, a.segmentation.blocks[BlockWith(a, "Shared")]),
            SiteTemplates::Signature(
                b, b.segmentation.blocks[BlockWith(b, "Shared")]));
  t.Observe("s", a);
  EXPECT_FALSE(t.Observe("s", b)[BlockWith(b, "Shared")]);
}

TEST(SiteTemplatesTest, BoundsHoldOnHostileInput) {
  SiteTemplateOptions o;
  o.max_signatures_per_site = 16;
  o.max_sites = 2;
  o.min_pages = 2;
  SiteTemplates t(o);
  // Many distinct blocks per page: the site's table stays bounded and the
  // repeated block survives the pruning.
  for (int i = 0; i < 20; ++i) {
    std::string html =
        "<html><body><div id=menu><a href=/>Menu</a> <a href=/a>Other "
        "place</a> <a href=/b>Third place</a></div>";
    for (int j = 0; j < 30; ++j) {
      absl::StrAppend(&html, "<div class=c", j, "><p>block ", i, "-", j,
                      std::string(j + i, 'z'), "</p></div>");
    }
    quark::AnalyzedPage p = Analyze(html + "</body></html>");
    const std::vector<bool> flags = t.Observe("s", p);
    if (i >= 2) {
      EXPECT_TRUE(flags[BlockWith(p, "Menu")]) << i;
    }
  }
  // A third site is not tracked: no template blocks, no growth.
  t.Observe("a", Analyze(SitePage(1)));
  for (int i = 0; i < 5; ++i) {
    quark::AnalyzedPage p = Analyze(SitePage(i));
    for (bool f : t.Observe("b", p)) EXPECT_FALSE(f);
  }
  EXPECT_EQ(t.sites(), 2);
  // Pages without blocks, blocks with a broken node index, a parent chain
  // that loops: no crash.
  quark::AnalyzedPage empty;
  EXPECT_TRUE(t.Observe("s", empty).empty());
  quark::AnalyzedPage broken = Analyze(SitePage(1));
  broken.segmentation.blocks[0].node = 1 << 30;
  if (broken.document.nodes.size() > 2) broken.document.nodes[2].parent = 2;
  for (quark::Block& b : broken.segmentation.blocks) b.node = 2;
  EXPECT_EQ(t.Observe("s", broken).size(), broken.segmentation.blocks.size());
}

TEST(SiteTemplatesTest, OptionsAreValidated) {
  SiteTemplateOptions o;
  EXPECT_TRUE(o.Validate().ok());
  o.min_share = 0;
  EXPECT_THAT(SiteTemplates::Create(o).status().message(),
              HasSubstr("min_share"));
  o = {};
  o.min_pages = 1;
  EXPECT_THAT(o.Validate().message(), HasSubstr("min_pages"));
  o = {};
  o.max_signatures_per_site = 3;
  EXPECT_THAT(o.Validate().message(), HasSubstr("max_signatures_per_site"));
  o = {};
  o.max_sites = 0;
  EXPECT_THAT(o.Validate().message(), HasSubstr("max_sites"));
}

TEST(SiteTemplatesTest, ConcurrentObservers) {
  SiteTemplates t({});
  std::vector<quark::AnalyzedPage> pages;
  for (int i = 0; i < 40; ++i) pages.push_back(Analyze(SitePage(i)));
  std::vector<std::thread> threads;
  for (int k = 0; k < 4; ++k) {
    threads.emplace_back([&, k] {
      for (int i = 0; i < 40; ++i)
        t.Observe(absl::StrCat("site", k % 2), pages[i]);
    });
  }
  for (std::thread& th : threads) th.join();
  const std::vector<bool> flags = t.Observe("site0", pages[0]);
  EXPECT_TRUE(flags[BlockWith(pages[0], "Courses")]);
  EXPECT_FALSE(flags[BlockWith(pages[0], "talks about")]);
}

}  // namespace
}  // namespace fcrawl::focus
