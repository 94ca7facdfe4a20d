#include "quark/declared.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "quark/quark.h"
#include "quark/test_util.h"

namespace fcrawl::quark {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kP1[] =
    "The harbour bridge reopened to traffic on Monday morning after two "
    "years of repairs that replaced its steel deck and most of its cables.";
constexpr char kP2[] =
    "Engineers found that salt from the winter roads had eaten into the "
    "joints much faster than the original designers had expected in 1931.";
constexpr char kP3[] =
    "The city council paid for the work with a special bond that voters "
    "approved three years ago by a margin of almost two to one.";
constexpr char kP4[] =
    "Buses will return to the bridge next week, and the ferry that carried "
    "commuters across the river during the repairs will stop on Friday.";
constexpr char kCaption[] =
    "The bridge at dawn on Monday, seen from the eastern pier by our "
    "photographer who waited there all night long.";
constexpr char kTeaser[] =
    "Read more: how the oldest bridges of the region are inspected every "
    "spring and why so many of them are closing";
constexpr char kComment[] =
    "I crossed the bridge every day for twenty years and I am glad that "
    "they finally fixed the joints, although the new paint is ugly.";

std::string Script(const std::string& json) {
  return absl::StrCat("<script type=\"application/ld+json\">", json,
                      "</script>");
}

// A news story with a caption, an advertisement label, a teaser line and
// a reader's comment in markup that says none of what they are.
std::string Story(const std::string& head, const std::string& more = "") {
  return absl::StrCat(
      "<html><head><title>Harbour bridge reopens - City News</title>", head,
      "</head><body><div class=\"n\"><a href=\"/\">Home</a> <a "
      "href=\"/world\">World</a> <a href=\"/city\">City</a></div>"
      "<div class=\"s\"><h1>Harbour bridge reopens after two years</h1>"
      "<p>",
      kP1, "</p><div class=\"f\"><img src=\"b.jpg\"><div>", kCaption,
      "</div></div><p>", kP2, "</p><div class=\"x\">Advertisement</div><p>",
      kP3, "</p><p>", kTeaser, "</p><p>", kP4, "</p>", more,
      "</div><div class=\"r\"><div class=\"q\"><b>Sam</b><p>", kComment,
      "</p></div></div></body></html>");
}

std::string Body() { return absl::StrCat(kP1, "\n", kP2, "\n", kP3, " ", kP4); }

std::string NewsArticle(const std::string& body) {
  return absl::StrCat(
      "{\"@context\": \"https://schema.org\", \"@graph\": [{\"@type\": "
      "\"WebPage\", \"name\": \"City News\"}, {\"@type\": \"NewsArticle\", "
      "\"headline\": \"Harbour bridge reopens after two years\", \"author\": "
      "[{\"@type\": \"Person\", \"name\": \"Ann Lee\"}, {\"@type\": "
      "\"Person\", \"name\": \"Bo Chan\"}], \"datePublished\": "
      "\"2026-11-02T08:00:00Z\", \"inLanguage\": \"en\", \"articleBody\": \"",
      body, "\"}]}");
}

TEST(DeclaredTest, ReadsTheArticleFromAGraph) {
  // A raw line break inside a string (invalid JSON that pages write) and
  // markup inside the body.
  AnalyzedPage page = testing::AnalyzeNewsPage(
      Story(Script(NewsArticle(
          absl::StrCat("<p>", kP1, "</p>\n<p>", kP2, "&nbsp;</p>")))),
      {});
  const DeclaredArticle& d = page.declared;
  EXPECT_EQ(d.headline, "Harbour bridge reopens after two years");
  EXPECT_EQ(d.author, "Ann Lee, Bo Chan");
  EXPECT_EQ(d.date_published, "2026-11-02T08:00:00Z");
  EXPECT_EQ(d.language, "en");
  EXPECT_EQ(d.body, absl::StrCat(kP1, " ", kP2));
  // No <meta> says who wrote it or when: the declaration does.
  EXPECT_EQ(page.metadata.byline, "Ann Lee, Bo Chan");
  EXPECT_EQ(page.metadata.date, "2026-11-02T08:00:00Z");
  EXPECT_EQ(page.metadata.language, "en");
}

TEST(DeclaredTest, WrappersTypesAndWhatIsNoArticle) {
  auto read = [](const std::string& scripts) {
    absl::StatusOr<html::Document> doc = html::ParseUtf8(absl::StrCat(
        "<html><head>", scripts, "</head><body><p>x</p></body></html>"));
    EXPECT_TRUE(doc.ok());
    return ReadDeclaredArticle(*doc);
  };
  EXPECT_EQ(read(Script("<!-- {\"@type\": [\"Thing\", "
                        "\"http://schema.org/BlogPosting\"], \"author\": "
                        "\"Kim\", \"articleBody\": \"b\"} -->"))
                .author,
            "Kim");
  EXPECT_EQ(read(Script("//<![CDATA[\n{\"@type\": \"Report\", \"headline\": "
                        "\"h\"}\n//]]>"))
                .headline,
            "h");
  // A product, a recipe, a forum post: not an article.
  EXPECT_EQ(
      read(Script("{\"@type\": \"Product\", \"headline\": \"p\"}")).headline,
      "");
  EXPECT_EQ(read(Script("{\"@type\": \"DiscussionForumPosting\", "
                        "\"articleBody\": \"first post only\"}"))
                .body,
            "");
  // Another script type is not JSON-LD.
  EXPECT_EQ(read("<script type=\"application/json\">{\"@type\": "
                 "\"NewsArticle\", \"headline\": \"h\"}</script>")
                .headline,
            "");
  // Nested as a page's main entity; an author given as a profile URL.
  DeclaredArticle nested =
      read(Script("{\"@type\": \"WebPage\", \"mainEntity\": {\"@type\": "
                  "\"Article\", \"headline\": \"n\", \"author\": "
                  "\"https://x.example/ann\"}}"));
  EXPECT_EQ(nested.headline, "n");
  EXPECT_EQ(nested.author, "");
  // Two articles with bodies (a front page's teasers): no body is the
  // page's. The same article declared twice is one.
  EXPECT_EQ(read(Script("[{\"@type\": \"NewsArticle\", \"articleBody\": "
                        "\"one\"}, {\"@type\": \"NewsArticle\", "
                        "\"articleBody\": \"two\"}]"))
                .body,
            "");
  EXPECT_EQ(
      read(absl::StrCat(Script("{\"@type\": \"NewsArticle\", \"articleBody\": "
                               "\"one\"}"),
                        Script("{\"@type\": \"NewsArticle\", \"articleBody\": "
                               "\"one\"}")))
          .body,
      "one");
}

TEST(DeclaredTest, HostileJsonIsSkipped) {
  auto read = [](const std::string& json) {
    absl::StatusOr<html::Document> doc = html::ParseUtf8(
        absl::StrCat("<html><head>", Script(json), "</head></html>"));
    EXPECT_TRUE(doc.ok());
    return ReadDeclaredArticle(*doc);
  };
  for (const std::string& json :
       {std::string("{\"@type\": \"NewsArticle\", \"headline\": "),
        std::string("not json at all"), std::string(100000, '['),
        absl::StrCat(std::string(50000, '['), std::string(50000, ']')),
        std::string("{\"@type\": 42, \"headline\": \"h\"}"),
        std::string("{\"@type\": \"NewsArticle\", \"headline\": {\"a\": 1}, "
                    "\"author\": [1, null, {\"name\": 2}]}")}) {
    DeclaredArticle d = read(json);
    EXPECT_EQ(d.headline, "") << json.substr(0, 40);
    EXPECT_EQ(d.author, "") << json.substr(0, 40);
    EXPECT_EQ(d.body, "") << json.substr(0, 40);
  }
  // Many values: the walk stops at kMaxJsonValues.
  std::string many = "[";
  for (int i = 0; i < 30000; ++i) absl::StrAppend(&many, i, ",");
  absl::StrAppend(&many, "{\"@type\": \"Article\", \"headline\": \"late\"}]");
  EXPECT_EQ(read(many).headline, "");
}

TEST(DeclaredTest, ScriptsAreBounded) {
  html::ParseOptions options;
  options.max_structured_data_scripts = 2;
  options.max_structured_data_bytes = 100;
  std::string page = "<html><head>";
  for (int i = 0; i < 3; ++i) absl::StrAppend(&page, Script("{\"a\": 1}"));
  absl::StrAppend(&page, Script(std::string(200, ' ') + "{}"), "</head>");
  absl::StatusOr<html::Document> doc = html::ParseUtf8(page, "", options);
  ASSERT_TRUE(doc.ok());
  EXPECT_EQ(doc->structured_data.size(), 2u);
  EXPECT_THAT(doc->warnings,
              ::testing::Contains(HasSubstr("JSON-LD beyond 2 scripts")));
}

TEST(DeclaredTest, TheDeclaredBodyDecidesWhatIsContent) {
  PageOptions off;
  off.analyzer.declared_body = false;
  const std::string plain = MainContent(
      testing::AnalyzeNewsPage(Story(Script(NewsArticle(Body()))), off)
          .segmentation);
  // Without the rule the story's extras are kept (what it is for).
  EXPECT_THAT(plain, HasSubstr(kP1));
  for (const char* extra : {kCaption, kTeaser, "Advertisement", kComment}) {
    EXPECT_THAT(plain, HasSubstr(extra));
  }
  AnalyzedPage page =
      testing::AnalyzeNewsPage(Story(Script(NewsArticle(Body()))), {});
  const std::string text = MainContent(page.segmentation);
  for (const char* p : {kP1, kP2, kP3, kP4}) EXPECT_THAT(text, HasSubstr(p));
  for (const char* extra : {kCaption, kTeaser, "Advertisement", kComment}) {
    EXPECT_THAT(text, Not(HasSubstr(extra)));
  }
}

TEST(DeclaredTest, ABodyThatCannotBeTrustedChangesNothing) {
  PageOptions off;
  off.analyzer.declared_body = false;
  for (const std::string& body :
       {// Cut short: a teaser of the first paragraphs, however long.
        absl::StrCat(kP1, " ", kP2, "..."), absl::StrCat(kP1, " ", kP2),
        // A teaser's mark, written as an HTML entity.
        absl::StrCat("<p>", kP1, " ", kP2, " ", kP3, " [&hellip;]</p>"),
        // Too short to tell.
        std::string(kP1),
        // Not what the page shows.
        std::string(
            "A new ferry line will link the two banks of the river from "
            "next spring, the transport office said on Tuesday, and its "
            "boats will run every twenty minutes from six in the morning "
            "until midnight on weekdays and until two on Saturdays, with "
            "fares the same as the buses'. The office expects some four "
            "thousand riders a day in the first year.")}) {
    const std::string page = Story(Script(NewsArticle(body)));
    EXPECT_EQ(MainContent(testing::AnalyzeNewsPage(page, {}).segmentation),
              MainContent(testing::AnalyzeNewsPage(page, off).segmentation))
        << body;
  }
}

TEST(DeclaredTest, AParagraphTheBodyLeavesOutStays) {
  // The body lacks the third paragraph, a long line of prose: it stays, as
  // the short lines the body lacks go.
  const std::string more[] = {
      "Traffic engineers expect the morning queues on the ring road to "
      "shorten by a quarter once the lorries can use the bridge again.",
      "Shop owners on both banks said that the closure had cost them a "
      "fifth of their customers, and some of them hope to win them back.",
      "The next repairs are planned for the railway bridge upstream, which "
      "is even older and carries twice as many trains as a decade ago."};
  std::string body = absl::StrCat(kP1, " ", kP2, " ", kP4);
  std::string page_more;
  for (const std::string& m : more) {
    absl::StrAppend(&body, " ", m);
    absl::StrAppend(&page_more, "<p>", m, "</p>");
  }
  const std::string text = MainContent(
      testing::AnalyzeNewsPage(Story(Script(NewsArticle(body)), page_more), {})
          .segmentation);
  EXPECT_THAT(text, HasSubstr(more[2]));
  for (const char* p : {kP1, kP2, kP3, kP4}) EXPECT_THAT(text, HasSubstr(p));
  EXPECT_THAT(text, Not(HasSubstr("Advertisement")));
}

TEST(DeclaredTest, AParagraphApartFromTheStoryIsContent) {
  // The last paragraph stands after the comments in a container whose
  // class says "sidebar": Analyze leaves it out. The declaration says it
  // is the article's.
  std::string page =
      absl::StrReplaceAll(Story(Script(NewsArticle(Body()))),
                          {{absl::StrCat("<p>", kP4, "</p>"), ""}});
  page = absl::StrReplaceAll(
      page, {{"</body>", absl::StrCat("<div class=\"sidebar\"><p>", kP4,
                                      "</p></div></body>")}});
  PageOptions off;
  off.analyzer.declared_body = false;
  EXPECT_THAT(MainContent(testing::AnalyzeNewsPage(page, off).segmentation),
              Not(HasSubstr(kP4)));
  EXPECT_THAT(MainContent(testing::AnalyzeNewsPage(page, {}).segmentation),
              HasSubstr(kP4));
}

}  // namespace
}  // namespace fcrawl::quark
