#include "quark/page_type.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "quark/quark.h"

namespace fcrawl::quark {
namespace {

using ::testing::ElementsAre;

AnalyzedPage Analyze(const std::string& html, const std::string& url) {
  absl::StatusOr<AnalyzedPage> page = AnalyzePage(html, url, "", "");
  EXPECT_TRUE(page.ok()) << page.status();
  return page.ok() ? *std::move(page) : AnalyzedPage{};
}

double Feature(const std::vector<double>& f, const std::string& name) {
  const std::vector<std::string>& names = PageTypeFeatureNames();
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return f[i];
  }
  ADD_FAILURE() << "no feature " << name;
  return NAN;
}

std::string Card(int i) {
  return absl::StrCat("<div class=\"card\"><a href=\"/products/item-", i,
                      "\"><img src=\"", i, ".jpg\" alt=\"\"><h3>Item ", i,
                      "</h3></a><span>$", 10 + i, ".00</span></div>");
}

TEST(PageTypeTest, NamesEveryType) {
  EXPECT_EQ(PageTypeName(PageType::kArticle), "article");
  EXPECT_EQ(PageTypeName(PageType::kForum), "forum");
  EXPECT_EQ(PageTypeName(PageType::kProduct), "product");
  EXPECT_EQ(PageTypeName(PageType::kCollection), "collection");
  EXPECT_EQ(PageTypeName(PageType::kListing), "listing");
  EXPECT_EQ(PageTypeName(PageType::kDocumentation), "documentation");
  EXPECT_EQ(PageTypeName(PageType::kService), "service");
  EXPECT_EQ(PageTypeName(PageType::kOther), "other");
}

// Every @type of the page's JSON-LD, at any depth, once, without its
// vocabulary's prefix.
TEST(PageTypeTest, DeclaredTypesAreCollected) {
  const std::string html =
      "<html><head><script type=\"application/ld+json\">{\"@context\": "
      "\"https://schema.org\", \"@graph\": [{\"@type\": \"WebPage\"}, "
      "{\"@type\": [\"http://schema.org/Product\", \"schema:Thing\"], "
      "\"offers\": {\"@type\": \"Offer\"}}, {\"@type\": \"Product\"}]}"
      "</script></head><body><p>A sock.</p></body></html>";
  const AnalyzedPage page = Analyze(html, "");
  EXPECT_THAT(page.declared.types,
              ElementsAre("WebPage", "Product", "Thing", "Offer"));
  // At most kMaxDeclaredTypes.
  std::string many = "[";
  for (int i = 0; i < 40; ++i) {
    absl::StrAppend(&many, i ? "," : "", "{\"@type\": \"T", i, "\"}");
  }
  many += "]";
  const AnalyzedPage capped =
      Analyze(absl::StrCat("<script type=\"application/ld+json\">", many,
                           "</script><p>x</p>"),
              "");
  EXPECT_EQ(capped.declared.types.size(), kMaxDeclaredTypes);
}

// The title's words: a list, a shop, a thread, documentation; a question
// in a post's title is no thread.
TEST(PageTypeTest, FeaturesOfTheTitle) {
  struct Case {
    const char* title;
    double list, shop, forum, docs;
  };
  for (const Case& c : std::vector<Case>{
           {"Air Fryer Recipes Archives - Pinch of Yum", 1, 0, 0, 0},
           {"List of Nobel laureates - Wikipedia", 1, 0, 0, 0},
           {"Buy the Trail 25 daypack | Acme Store", 0, 1, 0, 0},
           {"Re: which lens for birds?", 0, 0, 1, 0},
           {"Battery drains overnight - Home Assistant Forum", 0, 0, 1, 0},
           {"JSAPI reference | SpiderMonkey docs", 0, 0, 0, 1},
           {"Participatory Culture: What questions do you have?", 0, 0, 0, 0},
       }) {
    const std::vector<double> f = PageTypeFeatures(
        Analyze(absl::StrCat("<html><head><title>", c.title,
                             "</title></head><body><p>Text.</p></body></html>"),
                ""),
        "");
    EXPECT_EQ(Feature(f, "title_list"), c.list) << c.title;
    EXPECT_EQ(Feature(f, "title_shop"), c.shop) << c.title;
    EXPECT_EQ(Feature(f, "title_forum"), c.forum) << c.title;
    EXPECT_EQ(Feature(f, "title_docs"), c.docs) << c.title;
  }
  // The document's <title> counts too when the declared title lacks the
  // site's suffix.
  const std::vector<double> f = PageTypeFeatures(
      Analyze("<html><head><meta property='og:title' content='Battery "
              "drains overnight'><title>Battery drains overnight - Home "
              "Assistant Forum</title></head><body><p>Text.</p></body>"
              "</html>",
              ""),
      "");
  EXPECT_EQ(Feature(f, "title_forum"), 1);
}

// The features a product page gives, by hand: log1p(count) / scale.
TEST(PageTypeTest, FeaturesOfAProductPage) {
  std::string html =
      "<html><head><meta property=\"og:type\" content=\"product\">"
      "<script type=\"application/ld+json\">{\"@type\": \"Product\", "
      "\"offers\": {\"@type\": \"Offer\", \"price\": \"98\"}}</script>"
      "</head><body><h1>Wool Runner</h1><p>Price: $98</p>"
      "<form><select><option>8</option></select>"
      "<button>Add to Cart</button></form><h2>You may also like</h2>";
  for (int i = 0; i < 4; ++i) html += Card(i);
  html += "</body></html>";
  const std::vector<double> f =
      PageTypeFeatures(Analyze(html, "https://shop.test/products/wool-runner"),
                       "https://shop.test/products/wool-runner");
  EXPECT_EQ(Feature(f, "ld_any"), 1);
  EXPECT_EQ(Feature(f, "ld_product"), 1);
  EXPECT_EQ(Feature(f, "ld_offer"), 1);
  EXPECT_EQ(Feature(f, "og_product"), 1);
  EXPECT_EQ(Feature(f, "url_known"), 1);
  EXPECT_EQ(Feature(f, "url_product"), 1);
  EXPECT_EQ(Feature(f, "url_collection"), 0);
  EXPECT_NEAR(Feature(f, "url_depth"), 2.0 / 6, 1e-12);
  // "$98" and four cards' "$1x.00": 5 prices.
  EXPECT_NEAR(Feature(f, "prices"), std::log1p(5) / 3, 1e-12);
  EXPECT_NEAR(Feature(f, "cart_words"), std::log1p(1) / 2, 1e-12);
  EXPECT_NEAR(Feature(f, "buttons"), std::log1p(1) / 3, 1e-12);
  EXPECT_NEAR(Feature(f, "inputs"), std::log1p(1) / 3, 1e-12);
  // One group of four cards, each with a link, an image and a heading.
  EXPECT_NEAR(Feature(f, "card_groups"), std::log1p(1) / 3, 1e-12);
  EXPECT_NEAR(Feature(f, "max_card_group"), std::log1p(4) / 4, 1e-12);
  // h1, h2 and the cards' four h3.
  EXPECT_NEAR(Feature(f, "headings"), std::log1p(6) / 4, 1e-12);
  EXPECT_EQ(Feature(f, "pre"), 0);
  EXPECT_EQ(GuessPageType(f).type, PageType::kProduct);
}

// Without its address a page has no URL features.
TEST(PageTypeTest, NoUrlNoUrlFeatures) {
  const AnalyzedPage page = Analyze("<p>Hello there, reader.</p>", "");
  const std::vector<double> f = PageTypeFeatures(page, "");
  for (size_t i = 0; i < f.size(); ++i) {
    if (PageTypeFeatureNames()[i].rfind("url_", 0) == 0) {
      EXPECT_EQ(f[i], 0) << PageTypeFeatureNames()[i];
    }
  }
  // A date in the path, a number, an .html file.
  const std::vector<double> g =
      PageTypeFeatures(page, "http://news.test/2024/05/17/story-88231.html");
  EXPECT_EQ(Feature(g, "url_date"), 1);
  EXPECT_EQ(Feature(g, "url_number"), 1);
  EXPECT_EQ(Feature(g, "url_html"), 1);
  EXPECT_EQ(Feature(g, "url_article"), 1);
}

TEST(PageTypeTest, ThreadsAndDocumentationPages) {
  std::string thread =
      "<html><head><script type=\"application/ld+json\">{\"@type\": "
      "\"DiscussionForumPosting\"}</script></head><body><h1>Resolver "
      "confusion</h1>";
  for (int i = 0; i < 6; ++i) {
    absl::StrAppend(&thread, "<div class=\"topic-post\"><div class=\"names\">",
                    "user", i, "</div><div class=\"post-body\"><p>I tried ",
                    "the setting again and it still fails with the same ",
                    "error on every start.</p></div></div>");
  }
  thread += "</body></html>";
  const std::string url = "https://forums.test/t/resolver-confusion/144854";
  const AnalyzedPage t = Analyze(thread, url);
  EXPECT_EQ(t.page_type, PageType::kForum);
  EXPECT_GT(t.page_type_probability, kMinPageTypeProbability);

  std::string docs =
      "<html><body><nav class=\"toc\"><a href=\"#a\">Install</a></nav>"
      "<h1>Getting started</h1>";
  for (int i = 0; i < 6; ++i) {
    absl::StrAppend(&docs, "<h2>Step ", i, "</h2><p>Run the command below ",
                    "in a terminal to configure the build.</p><pre><code>",
                    "make config STEP=", i, "</code></pre>");
  }
  docs += "</body></html>";
  const AnalyzedPage d = Analyze(docs, "https://lib.test/docs/start.html");
  EXPECT_EQ(d.page_type, PageType::kDocumentation);
}

TEST(PageTypeTest, ProbabilitiesSumToOne) {
  const PageTypeGuess g =
      GuessPageType(std::vector<double>(PageTypeFeatureNames().size(), 0.5));
  double sum = 0;
  for (double p : g.probabilities) sum += p;
  EXPECT_NEAR(sum, 1, 1e-9);
  EXPECT_EQ(g.probability,
            *std::max_element(g.probabilities.begin(), g.probabilities.end()));
}

}  // namespace
}  // namespace fcrawl::quark
