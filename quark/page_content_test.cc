#include "quark/page_content.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "quark/quark.h"

namespace fcrawl::quark {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// Analyze's main text of `html` and, after ChooseContentByType with `type`
// and `probability`, the widened one.
struct Texts {
  std::string before;
  std::string after;
};
Texts Widen(const std::string& html, PageType type, double probability = 0.9) {
  absl::StatusOr<html::Document> doc = html::Parse(html, "http://example.com/");
  EXPECT_TRUE(doc.ok()) << doc.status();
  absl::StatusOr<Segmentation> seg = Recognize(*doc);
  EXPECT_TRUE(seg.ok()) << seg.status();
  Analyze(*doc, &*seg);
  Texts t;
  t.before = MainContent(*seg);
  ChooseContentByType(*doc, type, probability, &*seg);
  t.after = MainContent(*seg);
  return t;
}

// The frame of a modern site: a banner with the site's menu, a footer, a
// cookie notice.
constexpr char kBanner[] =
    "<header class='site-header'><a href='/'>Acme</a><nav><ul>"
    "<li><a href='/a'>Home</a></li><li><a href='/b'>Services</a></li>"
    "<li><a href='/c'>Pricing</a></li><li><a href='/d'>Contact</a></li>"
    "</ul></nav></header>";
constexpr char kFooter[] =
    "<footer><p>Acme Ltd, 1 High Street, Springfield. Registered in England "
    "and Wales, company number 01234567.</p><a href='/privacy'>Privacy</a>"
    "</footer><div id='cookie-banner'><p>We use cookies to improve your "
    "experience on our site. By continuing you agree to our use of "
    "cookies.</p><button>Accept</button></div>";

std::string ListingPage() {
  std::string cards;
  for (int i = 1; i <= 6; ++i) {
    absl::StrAppend(&cards, "<div class='card'><h3><a href='/course/", i,
                    "'>Course number ", i, " in garden design</a></h3><p>",
                    "Summary ", i,
                    ": six weeks of evening classes on planting.</p></div>");
  }
  return absl::StrCat(
      "<html><body>", kBanner,
      "<main><h1>Evening courses</h1><p>Our courses for the autumn term, "
      "taught by the college's own gardeners in the walled garden and the "
      "glasshouses, with every tool and plant provided for the "
      "class.</p><div class='grid'>",
      cards, "</div></main>", kFooter, "</body></html>");
}

TEST(ChooseContentByTypeTest, ListingKeepsEveryCard) {
  Texts t = Widen(ListingPage(), PageType::kListing);
  for (int i = 1; i <= 6; ++i) {
    EXPECT_THAT(t.after, HasSubstr(absl::StrCat("Course number ", i)));
    EXPECT_THAT(t.after, HasSubstr(absl::StrCat("Summary ", i, ":")));
  }
  // Analyze alone keeps the introduction, not the cards.
  EXPECT_THAT(t.before, Not(HasSubstr("Summary 6")));
  // The frame stays out: the menu, the footer, the cookie notice.
  EXPECT_THAT(t.after, Not(HasSubstr("Pricing")));
  EXPECT_THAT(t.after, Not(HasSubstr("Registered in England")));
  EXPECT_THAT(t.after, Not(HasSubstr("cookies")));
}

TEST(ChooseContentByTypeTest, CollectionKeepsEveryCard) {
  Texts t = Widen(ListingPage(), PageType::kCollection);
  EXPECT_THAT(t.after, HasSubstr("Summary 1:"));
  EXPECT_THAT(t.after, HasSubstr("Summary 6:"));
}

std::string ServicePage() {
  return absl::StrCat(
      "<html><body>", kBanner,
      "<section class='hero'><h1>Boiler repair in Springfield</h1>"
      "<p>Same-day visits.</p><a href='/book'>Book now</a></section>"
      "<section class='features'><h2>Why us</h2><ul>"
      "<li>Gas Safe engineers</li><li>Fixed prices</li>"
      "<li>Twelve months' guarantee</li></ul></section>"
      "<section class='about'><p>We have repaired and serviced boilers of "
      "every make across Springfield and the villages around it for over "
      "thirty years, and our engineers carry the common parts in their "
      "vans so most repairs are done on the first visit.</p></section>"
      "<section class='faq'><h2>Questions</h2><details><summary>How much "
      "does a repair cost?</summary><p>Most repairs cost under 150 "
      "pounds.</p></details><details><summary>Do you cover "
      "weekends?</summary><p>Yes, Saturdays and Sundays too.</p></details>"
      "</section>",
      kFooter, "</body></html>");
}

TEST(ChooseContentByTypeTest, ServiceKeepsEverySection) {
  Texts t = Widen(ServicePage(), PageType::kService);
  EXPECT_THAT(t.after, HasSubstr("Boiler repair in Springfield"));  // hero
  EXPECT_THAT(t.after, HasSubstr("Gas Safe engineers"));            // features
  EXPECT_THAT(t.after, HasSubstr("thirty years"));                  // about
  EXPECT_THAT(t.after, HasSubstr("Do you cover weekends?"));        // FAQ
  EXPECT_THAT(t.after, HasSubstr("Saturdays and Sundays"));
  // Analyze alone takes the section named "about" for an author's box.
  EXPECT_THAT(t.before, Not(HasSubstr("thirty years")));
  EXPECT_THAT(t.after, Not(HasSubstr("Contact")));
  EXPECT_THAT(t.after, Not(HasSubstr("Registered in England")));
}

std::string ProductPage() {
  return absl::StrCat(
      "<html><body>", kBanner,
      "<main><div class='product'><h1>Trail 25 daypack</h1>"
      "<div class='description'><p>A light daypack for long walks, with a "
      "padded back panel, a hydration sleeve and side pockets for "
      "bottles.</p></div><table class='specs'><tr><th>Capacity</th>"
      "<td>25 litres</td></tr><tr><th>Weight</th><td>820 grams</td></tr>"
      "</table></div><section id='reviews'><h2>Reviews</h2><p>Great pack, "
      "I carried it across the Alps and it never let me down once.</p>"
      "</section><div class='related-products'><h2>You may also like</h2>"
      "<p>Trail 40 backpack, a larger pack for weekends away.</p></div>"
      "</main>",
      kFooter, "</body></html>");
}

TEST(ChooseContentByTypeTest, ProductKeepsDescriptionAndSpecifications) {
  Texts t = Widen(ProductPage(), PageType::kProduct);
  EXPECT_THAT(t.after, HasSubstr("hydration sleeve"));
  EXPECT_THAT(t.after, HasSubstr("25 litres"));
  EXPECT_THAT(t.after, HasSubstr("820 grams"));
  // Reviews and other products are not the product's content...
  EXPECT_THAT(t.after, Not(HasSubstr("across the Alps")));
  EXPECT_THAT(t.after, Not(HasSubstr("Trail 40")));
  // ...though on a listing they are cards like any other.
  EXPECT_THAT(Widen(ProductPage(), PageType::kListing).after,
              HasSubstr("Trail 40"));
}

// A shop's carousel of other products, its classes generated: only its
// heading says what it is. Analyze keeps its cards (one template) as
// records; on a product page they go, from the highest element above the
// heading whose other headings are the cards' own (lower-ranked) titles.
std::string ProductWithCarousel() {
  std::string cards;
  for (int i = 1; i <= 4; ++i) {
    absl::StrAppend(&cards, "<div class='x7Qa'><h3><a href='/itm/", i,
                    "'>Trail ", 20 + 10 * i, " backpack in forest green</a>",
                    "</h3><p class='k2'>$", 80 + i,
                    ".00 and free delivery "
                    "to your door within five working days</p></div>");
  }
  return absl::StrCat(
      "<html><body>", kBanner,
      "<main><div class='a1'><div class='b2'><div class='c3'><h2 class='tr7D'>"
      "People who viewed this item also viewed</h2></div><div class='d4'>",
      cards,
      "</div></div></div><div class='product'><h1>Trail 25 daypack</h1>"
      "<p>A light daypack for long walks, with a padded back panel, a "
      "hydration sleeve and side pockets for bottles.</p><h2>Details</h2>"
      "<p>Made of recycled nylon with a water-repellent finish that keeps "
      "the rain out of your lunch.</p></div></main>",
      kFooter, "</body></html>");
}

TEST(ChooseContentByTypeTest, ProductDropsOtherProductsNamedByTheirHeading) {
  Texts t = Widen(ProductWithCarousel(), PageType::kProduct);
  EXPECT_THAT(t.before, HasSubstr("also viewed"));  // Analyze took it
  EXPECT_THAT(t.after, Not(HasSubstr("Trail 30 backpack")));
  EXPECT_THAT(t.after, Not(HasSubstr("also viewed")));
  EXPECT_THAT(t.after, Not(HasSubstr("$81.00")));
  // The product's own sections, after the carousel, stay.
  EXPECT_THAT(t.after, HasSubstr("hydration sleeve"));
  EXPECT_THAT(t.after, HasSubstr("recycled nylon"));
  // On a listing the same cards are content.
  EXPECT_THAT(Widen(ProductWithCarousel(), PageType::kListing).after,
              HasSubstr("Trail 30 backpack"));
}

// Buyers' reviews that Analyze took as the page's text (many reviews
// outweigh a short description): on a product page they go, whatever
// Analyze chose; on a forum-like listing they stay.
TEST(ChooseContentByTypeTest, ProductDropsTheReviewsAnalyzeTook) {
  std::string reviews;
  for (int i = 1; i <= 8; ++i) {
    absl::StrAppend(&reviews, "<div class='review-item'><p>Review ", i,
                    ": I carried this pack across the hills every weekend "
                    "for a month and the straps never rubbed once.</p></div>");
  }
  const std::string page = absl::StrCat(
      "<html><body>", kBanner,
      "<main><div class='product'><h1>Trail 25 daypack</h1><p>A light "
      "daypack with a hydration sleeve.</p></div><section "
      "id='customer-reviews'><h2>What buyers say</h2>",
      reviews, "</section></main>", kFooter, "</body></html>");
  Texts t = Widen(page, PageType::kProduct);
  EXPECT_THAT(t.before, HasSubstr("Review 3: I carried"));  // Analyze took it
  EXPECT_THAT(t.after, Not(HasSubstr("Review 3: I carried")));
  EXPECT_THAT(t.after, HasSubstr("hydration sleeve"));
  EXPECT_THAT(Widen(page, PageType::kListing).after,
              HasSubstr("Review 3: I carried"));
}

// A carousel that says what it is only in its aria-label ("Customers
// frequently viewed"), its cards' titles of the heading's own rank: it
// goes on a product page and on a collection (whose own grid stays); on a
// listing its cards are content like any other.
TEST(ChooseContentByTypeTest, OtherProductsNamedByTheirLabelGo) {
  std::string carousel =
      "<div class='a-carousel' aria-label='Customers frequently viewed'>";
  for (int i = 1; i <= 4; ++i) {
    absl::StrAppend(&carousel, "<div class='c'><h2><a href='/dp/", i,
                    "'>Wireless earbuds model ", i,
                    " with charging case</a></h2><p>EUR ", 20 + i,
                    ".00 and free delivery within two days</p></div>");
  }
  absl::StrAppend(&carousel, "</div>");
  std::string html = ProductWithCarousel();
  html.insert(html.find("</main>"), carousel);
  Texts product = Widen(html, PageType::kProduct);
  EXPECT_THAT(product.after, Not(HasSubstr("earbuds model 2")));
  EXPECT_THAT(product.after, HasSubstr("hydration sleeve"));
  std::string shop = ListingPage();
  shop.insert(shop.find("</main>"), carousel);
  Texts collection = Widen(shop, PageType::kCollection);
  EXPECT_THAT(collection.after, Not(HasSubstr("earbuds model 2")));
  EXPECT_THAT(collection.after, HasSubstr("Summary 6:"));
  EXPECT_THAT(Widen(shop, PageType::kListing).after,
              HasSubstr("earbuds model 2"));
}

// Thousands of such headings in one section (a hostile page) are marked
// in one walk of the section, not one walk each.
TEST(ChooseContentByTypeTest, ManyOfferingHeadingsStayLinear) {
  std::string html =
      "<html><body><main><h1>Trail 25 daypack</h1><p>A light "
      "daypack for long walks, with a padded back panel.</p>"
      "<div class='x'>";
  for (int i = 0; i < 20000; ++i) {
    absl::StrAppend(&html, "<h6>Sponsored</h6><p><a href='/i/", i,
                    "'>Item</a></p>");
  }
  absl::StrAppend(&html, "</div></main></body></html>");
  Texts t = Widen(html, PageType::kProduct);
  EXPECT_THAT(t.after, HasSubstr("padded back panel"));
  EXPECT_THAT(t.after, Not(HasSubstr("Sponsored")));
}

TEST(ChooseContentByTypeTest, WrapperNamedAsFrameAroundMainIsNoFrame) {
  // The page's outer <div> is named after the menu's state; it holds
  // <main>, so it is a layout's wrapper, not a menu.
  std::string html = ListingPage();
  html.replace(html.find("<body>"), 6, "<body><div class='menu-closed'>");
  html.replace(html.find("</body>"), 7, "</div></body>");
  // A comment section holding <article>s is still frame.
  html.insert(html.find("</main>"),
              "<div class='comments'><article><p>Is there parking near the "
              "walled garden for the evening classes?</p></article></div>");
  Texts t = Widen(html, PageType::kListing);
  EXPECT_THAT(t.after, HasSubstr("Summary 6:"));
  EXPECT_THAT(t.after, Not(HasSubstr("parking")));
  EXPECT_THAT(t.after, Not(HasSubstr("Pricing")));
}

TEST(ChooseContentByTypeTest, OnlyInsideTheMainElementWhenThereIsOne) {
  std::string html = ListingPage();
  // A promotion beside <main>, in no frame element.
  html.insert(html.find("<main>"),
              "<div class='promo-strip'><p>Spring sale: twenty per cent "
              "off every course booked before March.</p></div>");
  Texts t = Widen(html, PageType::kListing);
  EXPECT_THAT(t.after, HasSubstr("Summary 6:"));
  EXPECT_THAT(t.after, Not(HasSubstr("Spring sale")));
}

std::string ArticlePage() {
  std::string body;
  for (int i = 0; i < 8; ++i) {
    absl::StrAppend(&body, "<p>Paragraph ", i,
                    " of the story: the council voted on Tuesday to close "
                    "the library on Sundays, and residents who use its "
                    "reading room said they would petition against it.</p>");
  }
  return absl::StrCat(
      "<html><body>", kBanner,
      "<main><article><h1>Library to close on "
      "Sundays</h1>",
      body, "</article></main>",
      "<aside class='sidebar'><h3>Most read</h3><p>Bridge repairs delayed "
      "again as the contractor waits for steel from the north.</p></aside>",
      kFooter, "</body></html>");
}

// A <main> that holds little of the page (a shop's heading in <main>, its
// grid of products laid out after it) does not keep the widening inside
// it.
TEST(ChooseContentByTypeTest, SmallMainElementSaysNothing) {
  std::string html = ListingPage();
  const size_t grid = html.find("<p>Our courses");
  const size_t end = html.find("</main>");
  const std::string cards = html.substr(grid, end - grid);
  html.erase(grid, end - grid);
  html.insert(html.find("</main>") + 7, cards);
  Texts t = Widen(html, PageType::kCollection);
  EXPECT_THAT(t.before, Not(HasSubstr("Summary 6:")));
  EXPECT_THAT(t.after, HasSubstr("Summary 6:"));
  EXPECT_THAT(t.after, Not(HasSubstr("Registered in England")));
}

TEST(ChooseContentByTypeTest, ArticleSidebarIsStillDropped) {
  Texts t = Widen(ArticlePage(), PageType::kArticle);
  EXPECT_THAT(t.after, HasSubstr("Paragraph 7 of the story"));
  EXPECT_THAT(t.after, Not(HasSubstr("Bridge repairs")));
  EXPECT_EQ(t.after, t.before);  // the article is most of the page's text
}

// An article in sections that Analyze did not join (a ranking's cards,
// then two sections of prose): what it kept is under half of the page's
// body, so the article gains the other sections' prose, but not a
// teaser whose linked title is most of its text.
TEST(ChooseContentByTypeTest, ArticleGainsItsSectionsButNoTeaser) {
  std::string cards;
  for (const char* school :
       {"Northfield College", "Southgate University", "Eastmoor Institute"}) {
    absl::StrAppend(&cards, "<div class='card'><h3>", school,
                    "</h3><p>What sets it apart: evening classes online, "
                    "small groups, tutors who answer within a day and a "
                    "library open at night to every student.</p></div>");
  }
  const std::string html = absl::StrCat(
      "<html><body>", kBanner,
      "<main><div class='hero'><h1>Online degrees ranked</h1></div>"
      "<div class='rank'>",
      cards,
      "</div><div class='k1'><div class='k2'><h2>How we ranked them</h2>"
      "<p>We read each school's fees, its courses and the support it gives "
      "to students who study from home, then asked its graduates how they "
      "fared.</p></div></div><div class='k3'><div class='k4'><h2>What an "
      "online degree costs</h2><p>Fees run from a few thousand a year at "
      "state schools to many times that at private ones; most schools let "
      "you pay by the term.</p></div></div><div class='k5'><div "
      "class='k6'><p><a href='/more/a'>Ten cheapest online degrees of the "
      "year, school by school, with their fees and start dates</a> and "
      "more.</p></div></div></main>",
      kFooter, "</body></html>");
  Texts t = Widen(html, PageType::kArticle);
  EXPECT_THAT(t.before, Not(HasSubstr("Eastmoor Institute")));
  EXPECT_THAT(t.after, HasSubstr("Eastmoor Institute"));
  EXPECT_THAT(t.after, HasSubstr("a few thousand a year"));
  EXPECT_THAT(t.after, Not(HasSubstr("Ten cheapest")));
  EXPECT_THAT(t.after, Not(HasSubstr("Registered in England")));
}

TEST(ChooseContentByTypeTest, ForumIsLeftAsAnalyzeFoundIt) {
  Texts t = Widen(ServicePage(), PageType::kForum);
  EXPECT_EQ(t.after, t.before);
}

// A thread whose first post quotes a long article: Analyze's reference is
// the quotation, of its own class, and its template rule leaves the
// replies out. On a sure forum every post counts: the blocks inside the
// other instances of the element that holds the first post, not the
// authors' cards named so.
std::string ThreadWithQuote() {
  // XenForo's markup: each post an <article class='message'>, its text in
  // a div.bbWrapper, the author and the reactions beside it.
  auto post = [](int i, const std::string& text) {
    return absl::StrCat(
        "<article class='message message--post'><div class='message-user'>"
        "<a href='/u/",
        i, "'>Member ", i,
        "</a></div><div class='message-main'><div "
        "class='message-attribution'>11 January 2024 #",
        i, "</div><article class='message-body'><div class='bbWrapper'>", text,
        "</div></article><div class='message-footer'><a href='/r'>Reply</a> "
        "Reactions: <a href='/x'>bob</a></div></div></article>");
  };
  std::string posts = post(
      1,
      "Who knows, maybe this helps sales.<blockquote class='bbCodeBlock "
      "bbCodeBlock--quote'><div class='bbCodeBlock-content'>Digital cameras "
      "are proving to be everywhere in 2024, especially vintage and "
      "colourful ones, and a search for pink cameras gives millions of "
      "views. One of the most popular models online can be found on resale "
      "sites for over two hundred dollars, and newer point-and-shoot ones "
      "cost more than that.</div></blockquote>");
  for (int i = 2; i <= 6; ++i) {
    absl::StrAppend(&posts, post(i, absl::StrCat("Reply ", i,
                                                 ": my old camera still takes "
                                                 "better pictures than my "
                                                 "phone ever did.")));
  }
  return absl::StrCat("<html><body>", kBanner,
                      "<main><h1>Digital cameras in 2024</h1><div "
                      "class='block-body'>",
                      posts, "</div></main>", kFooter, "</body></html>");
}

TEST(ChooseContentByTypeTest, SureForumKeepsEveryPost) {
  Texts t = Widen(ThreadWithQuote(), PageType::kForum, 0.9);
  EXPECT_THAT(t.before, HasSubstr("Digital cameras are proving"));
  EXPECT_THAT(t.before, Not(HasSubstr("Reply 4: my old camera")));
  EXPECT_THAT(t.after, HasSubstr("Reply 2: my old camera"));
  EXPECT_THAT(t.after, HasSubstr("Reply 6: my old camera"));
  EXPECT_THAT(t.after, HasSubstr("maybe this helps sales"));
  EXPECT_THAT(t.after, Not(HasSubstr("Member 4")));
  EXPECT_THAT(t.after, Not(HasSubstr("Registered in England")));
  // An unsure guess leaves the page as Analyze found it.
  Texts unsure = Widen(ThreadWithQuote(), PageType::kForum, 0.5);
  EXPECT_EQ(unsure.after, unsure.before);
}

TEST(ChooseContentByTypeTest, PageWithoutLandmarksIsLeftAlone) {
  // An old table layout: a sidebar of plain cells that nothing names.
  std::string html =
      "<html><body><table><tr><td><p>Archives: July 2012, June 2012, May "
      "2012, April 2012 and every month before, one link each.</p></td><td>";
  for (int i = 0; i < 6; ++i) {
    absl::StrAppend(&html, "<p>Paragraph ", i,
                    " of the post: a long walk along the coast path from "
                    "the harbour to the lighthouse and back again.</p>");
  }
  absl::StrAppend(&html, "</td></tr></table></body></html>");
  Texts t = Widen(html, PageType::kListing);
  EXPECT_EQ(t.after, t.before);
}

TEST(ChooseContentByTypeTest, UnsureTypeKeepsTheArticleAnalyzeFound) {
  // Analyze's content is most of the page: an unsure "listing" is not
  // widened; a sure one is (and keeps the teaser links Analyze dropped).
  std::string html = ArticlePage();
  html.insert(html.find("</main>"),
              "<div class='more'><a href='/m'>The museum opens late on "
              "Fridays</a> <a href='/n'>A new bus timetable for the ring "
              "road</a></div>");
  Texts unsure = Widen(html, PageType::kListing, 0.35);
  EXPECT_THAT(unsure.before, Not(HasSubstr("museum opens late")));
  EXPECT_EQ(unsure.after, unsure.before);
  EXPECT_THAT(Widen(html, PageType::kListing, 0.9).after,
              HasSubstr("museum opens late"));
}

TEST(ChooseContentByTypeTest, ChineseListingKeepsEveryCard) {
  std::string cards;
  for (int i = 1; i <= 4; ++i) {
    absl::StrAppend(&cards, "<li><h3><a href='/n/", i, "'>第", i,
                    "条新闻标题：城市公园开放时间调整</a></h3><p>摘要", i,
                    "：自下月起公园每天早上六点开放，晚上十点关闭。</p></li>");
  }
  std::string html = absl::StrCat(
      "<html><body><header><nav><a href='/'>首页</a><a href='/news'>新闻</a>"
      "<a href='/about'>关于我们</a></nav></header><main><ul class='list'>",
      cards,
      "</ul></main><footer><p>版权所有 某某网 备案号12345678</p></footer>"
      "</body></html>");
  Texts t = Widen(html, PageType::kListing);
  for (int i = 1; i <= 4; ++i) {
    EXPECT_THAT(t.after, HasSubstr(absl::StrCat("摘要", i, "：")));
  }
  EXPECT_THAT(t.after, Not(HasSubstr("版权所有")));
  EXPECT_THAT(t.after, Not(HasSubstr("首页")));
}

TEST(FavorsRecallTest, SureForumsAndDocumentationOnly) {
  EXPECT_TRUE(FavorsRecall(PageType::kForum, 0.9));
  EXPECT_TRUE(FavorsRecall(PageType::kDocumentation, 0.7));
  // News pages with reader comments are guessed forums, unsure ones.
  EXPECT_FALSE(FavorsRecall(PageType::kForum, 0.5));
  EXPECT_FALSE(FavorsRecall(PageType::kArticle, 0.99));
  EXPECT_FALSE(FavorsRecall(PageType::kService, 0.99));
}

TEST(FavorsRecallTest, AnalyzingAgainStartsAfresh) {
  // AnalyzePage analyses a sure forum a second time favoring recall;
  // nothing of the first analysis may stay behind. Analysed favoring
  // recall and then balanced, a page is as analysed balanced alone.
  const std::string html = ArticlePage();
  absl::StatusOr<html::Document> doc = html::Parse(html, "http://example.com/");
  ASSERT_TRUE(doc.ok());
  absl::StatusOr<Segmentation> once = Recognize(*doc);
  ASSERT_TRUE(once.ok());
  Segmentation twice = *once;
  Analyze(*doc, &*once);
  AnalyzerOptions recall;
  recall.favor = Favor::kRecall;
  Analyze(*doc, &twice, recall);
  // Favoring recall keeps the footer, which Bayes accepts.
  EXPECT_THAT(MainContent(twice), HasSubstr("Registered in England"));
  Analyze(*doc, &twice);
  EXPECT_EQ(MainContent(twice), MainContent(*once));
  for (size_t i = 0; i < once->blocks.size(); ++i) {
    EXPECT_EQ(twice.blocks[i].type, once->blocks[i].type) << i;
    EXPECT_EQ(twice.blocks[i].similar_to_main, once->blocks[i].similar_to_main)
        << i;
  }
}

}  // namespace
}  // namespace fcrawl::quark
