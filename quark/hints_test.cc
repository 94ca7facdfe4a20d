// The structure hints' readings of names (quark/hints.h) on whole pages:
// wrappers named against around the main content, sidebar layouts, an
// unclosed <aside>, the lines of controls.
#include "quark/hints.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "quark/quark.h"

namespace fcrawl::quark {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// The main content of `page` analysed with `options` ("" when it fails).
std::string MainText(const std::string& page, const PageOptions& options = {}) {
  absl::StatusOr<AnalyzedPage> a =
      AnalyzePage(page, "http://example.com/", "", "", options);
  EXPECT_TRUE(a.ok()) << a.status();
  return a.ok() ? MainContent(a->segmentation) : "";
}

// An element named against that wraps the page's <main> or <article> is
// the layout's wrapper ("sidebar-collapsed" on the page's outer <div>):
// it says nothing, and the article inside it is found. The sidebar beside
// the article, and a comment section whose comments are <article>s, are
// still against.
TEST(HintsTest, WrapperNamedAgainstAroundTheMainContentSaysNothing) {
  std::string para;
  for (int i = 0; i < 6; ++i) {
    para += "The ferry to the island now leaves at seven every morning. ";
  }
  const std::string page =
      "<html><body><div id='page' class='sidebar-collapsed'><main>"
      "<article><h1>New timetable</h1><p>" +
      para + "</p><p>" + para +
      "</p></article><div class='comments'><article class='comment'><p>"
      "The seven o'clock boat is always late, and the cafe on board is "
      "closed until eight, so we wait on the pier in the cold.</p>"
      "</article></div></main><div class='sidebar'><p>Popular: the new "
      "harbour wall, the lifeboat's open day, the regatta results and the "
      "summer fete.</p></div></div></body></html>";
  PageOptions no_type;  // the analysis alone, whatever the page's type
  no_type.analyzer.by_type = false;
  const std::string main = MainText(page, no_type);
  EXPECT_THAT(main, HasSubstr("ferry to the island"));
  EXPECT_THAT(main, Not(HasSubstr("seven o'clock boat")));
  EXPECT_THAT(main, Not(HasSubstr("lifeboat")));
}

// A class naming a layout with a sidebar ("with-sidebar-layout",
// "has-sidebar", "sidebar-collapsed", the BEM modifier "l-grid--sidebar")
// wraps the main column beside the
// sidebar: it is not a sidebar, and the article inside it is found.
TEST(HintsTest, SidebarLayoutIsNoSidebar) {
  std::string para;
  for (int i = 0; i < 6; ++i) {
    para += "The bakery on the corner now opens at six on weekdays. ";
  }
  for (const char* layout :
       {"with-sidebar-layout", "has-sidebar",
        "SidebarLayoutStyles__Container-sc-3", "l-grid l-grid--sidebar"}) {
    const std::string page =
        std::string(
            "<html><body><div class='promo'><p>Sign up for our "
            "weekly letter of local news, events and offers from "
            "the shops on the high street and beyond.</p></div>"
            "<div class='") +
        layout + "'><div class='col'><h1>Early bread</h1><p>" + para +
        "</p><p>" + para +
        "</p></div><div class='sidebar'><p>Popular: the new harbour "
        "wall, the lifeboat's open day, the regatta results and the summer "
        "fete.</p></div></div></body></html>";
    PageOptions no_type;
    no_type.analyzer.by_type = false;
    const std::string main = MainText(page, no_type);
    EXPECT_THAT(main, HasSubstr("bakery on the corner")) << layout;
    EXPECT_THAT(main, Not(HasSubstr("lifeboat"))) << layout;
    EXPECT_THAT(main, Not(HasSubstr("weekly letter"))) << layout;
  }
}

// Words of ids and classes that begin with a prefix: "reviews" and
// "ratings-list" do, "preview" and "operating" do not, nor a word after
// "no-" (it names a layout without the thing).
TEST(HintsTest, NamesWordStartingWith) {
  auto named = [](const std::string& attr, const std::string& value) {
    html::Node n;
    n.kind = html::Node::Kind::kElement;
    n.tag = "div";
    n.attributes.emplace_back(attr, value);
    return NamesWordStartingWith(n, {"review", "rating"});
  };
  EXPECT_TRUE(named("class", "product-Reviews list"));
  EXPECT_TRUE(named("id", "ratings-list"));
  EXPECT_TRUE(named("class", "x review2"));
  EXPECT_FALSE(named("class", "preview-image"));
  EXPECT_FALSE(named("class", "operating-hours"));
  EXPECT_FALSE(named("class", "no-reviews"));
  EXPECT_FALSE(named("title", "reviews"));  // neither an id nor a class
}

// Elementor, a page builder of many WordPress sites, names every element
// "elementor-widget-…", the post's body as much as the menu: "widget"
// there says nothing, so the post is found and the menu stays out.
TEST(HintsTest, PageBuilderWidgetsSayNothing) {
  std::string para;
  for (int i = 0; i < 6; ++i) {
    para += "The town's market hall reopens on Saturday after the repairs. ";
  }
  const std::string page =
      "<html><body><div class='elementor-widget elementor-widget-nav-menu'>"
      "<div class='elementor-widget-container'><ul><li><a href='/'>Home</a>"
      "</li><li><a href='/about'>About us</a></li><li><a href='/news'>News"
      "</a></li></ul></div></div><div class='notice'><p>We use cookies and "
      "similar tools to remember your choices and to count the visits to "
      "each page of this site; you may refuse them.</p></div>"
      "<div class='elementor-element elementor-widget "
      "elementor-widget-theme-post-content'><div "
      "class='elementor-widget-container'><p>" +
      para + "</p><p>" + para + "</p></div></div></body></html>";
  PageOptions no_type;
  no_type.analyzer.by_type = false;
  const std::string main = MainText(page, no_type);
  EXPECT_THAT(main, HasSubstr("market hall reopens"));
  EXPECT_THAT(main, Not(HasSubstr("About us")));
  EXPECT_THAT(main, Not(HasSubstr("cookies")));
}

// A dialog laid over the page (a consent platform's box, role=dialog, whose
// classes name nothing) is never its text, however long its prose.
TEST(HintsTest, DialogIsNoContent) {
  std::string consent, post;
  for (int i = 0; i < 8; ++i) {
    consent +=
        "We and our partners store and access information on a "
        "device and process personal data for advertising. ";
  }
  for (int i = 0; i < 4; ++i) {
    post += "My old tablet still runs every app I need for drawing. ";
  }
  const std::string page =
      "<html><body><div class='qc-main'><div role='dialog' "
      "aria-modal='true' class='css-wo4mzk'><div class='qc-summary'>" +
      consent + "</div></div></div><div class='thread'><div class='x1'><p>" +
      post + "</p></div></div></body></html>";
  PageOptions no_type;
  no_type.analyzer.by_type = false;
  const std::string main = MainText(page, no_type);
  EXPECT_THAT(main, HasSubstr("old tablet"));
  EXPECT_THAT(main, Not(HasSubstr("our partners")));
}

// A word after "not", "no" or "without" is denied: Weebly holds a page's
// sections in "wsite-not-footer", which is no footer.
TEST(HintsTest, DeniedWordsSayNothing) {
  std::string para;
  for (int i = 0; i < 6; ++i) {
    para += "We repair treadmills and bikes at your home, at a flat rate. ";
  }
  const std::string page =
      "<html><body><div class='notice'><p>We use cookies and similar tools "
      "to remember your choices and to count the visits to each page of "
      "this site; you may refuse them.</p></div><div class='wsite-elements "
      "wsite-not-footer'><p>" +
      para + "</p><p>" + para + "</p></div></body></html>";
  PageOptions no_type;
  no_type.analyzer.by_type = false;
  const std::string main = MainText(page, no_type);
  EXPECT_THAT(main, HasSubstr("repair treadmills"));
}

// Names that would take most of an article away are no frame's: every
// paragraph of this story is classed "contextmenu Body" (a script's hook
// holding the word "menu"), and the story stays; a share line classed so
// beside a story is still left out.
TEST(HintsTest, NamesThatWouldTakeTheArticleAwayMarkNothing) {
  std::string story;
  for (int i = 0; i < 8; ++i) {
    absl::StrAppend(&story, "<p class='contextmenu Body'>Paragraph ", i,
                    ": the harbour's new crane lifted its first container "
                    "on Monday, a week ahead of the planned date.</p>");
  }
  const std::string page = "<html><body><article><h1>New crane</h1>" + story +
                           "</article></body></html>";
  EXPECT_THAT(MainText(page), HasSubstr("Paragraph 7: the harbour"));
  std::string plain;
  for (int i = 0; i < 8; ++i) {
    absl::StrAppend(&plain, "<p>Paragraph ", i,
                    ": the harbour's new crane lifted its first container "
                    "on Monday, a week ahead of the planned date.</p>");
  }
  const std::string shared =
      "<html><body><article><h1>New crane</h1>" + plain +
      "<p class='contextmenu'>Share this story with a friend</p>"
      "</article></body></html>";
  const std::string main = MainText(shared);
  EXPECT_THAT(main, HasSubstr("Paragraph 7: the harbour"));
  EXPECT_THAT(main, Not(HasSubstr("Share this story")));
}

// An element with this class, as ElementHint and IsStrongAgainst read it.
html::Node Classed(const std::string& cls) {
  html::Node e;
  e.tag = "div";
  e.attributes.emplace_back("class", cls);
  return e;
}

// The words of names that say nothing, and those that still do.
TEST(HintsTest, WordsThatSayNothing) {
  // A BEM modifier: the grid's variant with a sidebar says nothing; a
  // sidebar's variant, and related links placed in a sidebar, are against.
  EXPECT_EQ(ElementHint(Classed("l-grid l-grid--sidebar")), kNoHint);
  EXPECT_FALSE(IsStrongAgainst(Classed("l-grid l-grid--sidebar")));
  EXPECT_EQ(ElementHint(Classed("sidebar sidebar--left")), kAgainst);
  EXPECT_TRUE(IsStrongAgainst(Classed("sidebar sidebar--left")));
  EXPECT_EQ(ElementHint(Classed("c-related c-related--sidebar")), kAgainst);
  // Denied words.
  EXPECT_EQ(ElementHint(Classed("wsite-elements wsite-not-footer")), kNoHint);
  EXPECT_FALSE(IsStrongAgainst(Classed("wsite-elements wsite-not-footer")));
  EXPECT_EQ(ElementHint(Classed("no-sidebar")), kNoHint);
  EXPECT_EQ(ElementHint(Classed("site-footer")), kAgainst);
  EXPECT_TRUE(IsStrongAgainst(Classed("site-footer")));
  // Elementor's "widget"; its menu is still against, the post for.
  EXPECT_EQ(ElementHint(Classed("elementor-widget-container")), kNoHint);
  EXPECT_EQ(ElementHint(Classed("elementor-widget elementor-widget-nav-menu")),
            kAgainst);
  EXPECT_EQ(ElementHint(Classed(
                "elementor-widget elementor-widget-theme-post-content")),
            kFor);
  EXPECT_EQ(ElementHint(Classed("widget widget_text")), kAgainst);
}

// An <aside> the page leaves open takes in everything after it, <main>
// included (the HTML parser closes it only at the end of the body): an
// <aside> that holds the page's <main> is no sidebar.
TEST(HintsTest, UnclosedAsideAroundMainIsNoSidebar) {
  std::string para;
  for (int i = 0; i < 6; ++i) {
    para += "The library's reading room reopens after the new roof. ";
  }
  const std::string page =
      "<html><body><div><p>Sign up for our weekly letter of local news, "
      "events and offers from the shops on the high street and "
      "beyond.</p></div><aside class='announcement'><div><a "
      "href='/news'>Announcement: the museum is open late</a></div>"
      "<main><article><h1>Reading room</h1><p>" +
      para + "</p><p>" + para + "</p></article></main></body></html>";
  PageOptions no_type;
  no_type.analyzer.by_type = false;
  const std::string main = MainText(page, no_type);
  EXPECT_THAT(main, HasSubstr("reading room reopens"));
  EXPECT_THAT(main, Not(HasSubstr("weekly letter")));
}

// A control's label is what the reader can do, not what the page says:
// a line wholly inside a <button>, <label> or role=button element is left
// out; a paragraph with a button inside it stays.
TEST(HintsTest, LinesOfControlsAreLeftOut) {
  std::string para;
  for (int i = 0; i < 6; ++i) {
    para += "The hut sleeps twelve walkers in two rooms with a stove. ";
  }
  const std::string page =
      "<html><body><div class='entry'><p>" + para +
      "</p><div><button type='button'>Show more photos</button></div>"
      "<div><label><input type='checkbox'> Remember my dates</label></div>"
      "<div><a href='/book' role='button'>Book a bed</a></div>"
      "<p>Beds cost twenty pounds a night. <button>Copy price</button> "
      "Breakfast is extra.</p><p>" +
      para + "</p></div></body></html>";
  const std::string main = MainText(page);
  EXPECT_THAT(main, HasSubstr("sleeps twelve"));
  EXPECT_THAT(main, HasSubstr("Beds cost twenty pounds"));
  for (const char* gone :
       {"Show more photos", "Remember my dates", "Book a bed"}) {
    EXPECT_THAT(main, Not(HasSubstr(gone))) << gone;
  }
}

}  // namespace
}  // namespace fcrawl::quark
