#include "core/html_raw_text.h"

#include <string>
#include <vector>

#include "core/html.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace fcrawl::html {
namespace {

constexpr size_t npos = absl::string_view::npos;

// Where the script whose text starts right after "<script>" ends, as the
// rest of `page` after that point.
std::string RestAfterScript(absl::string_view page) {
  const size_t from = page.find("<script>") + 8;
  const size_t end = ScriptDataEnd(page, from);
  return end == npos ? "(runs to the end)" : std::string(page.substr(end));
}

TEST(ScriptDataEndTest, TheFirstAppropriateEndTagEndsAPlainScript) {
  EXPECT_EQ(RestAfterScript("<script>a < b && c</b></script>x"), "</script>x");
  EXPECT_EQ(RestAfterScript("<script>s = '</scripts>'; </SCRIPT >x"),
            "</SCRIPT >x");
  EXPECT_EQ(RestAfterScript("<script>s = '</script/'</script>"),
            "</script/'</script>");
  // "</script" must be followed by whitespace, '/' or '>'.
  EXPECT_EQ(RestAfterScript("<script>a</script"), "(runs to the end)");
  EXPECT_EQ(RestAfterScript("<script>a</scriptx></script\t>"), "</script\t>");
  EXPECT_EQ(RestAfterScript("<script>no end"), "(runs to the end)");
}

TEST(ScriptDataEndTest, EscapedAndDoubleEscapedScripts) {
  // Inside "<!--", an end tag still ends the script...
  EXPECT_EQ(RestAfterScript("<script><!-- x = 1; </script> -->"),
            "</script> -->");
  // ...unless a "<script" opened a double-escaped run, which only its own
  // "</script" closes (the old document.write idiom).
  EXPECT_EQ(RestAfterScript("<script><!-- document.write('<script>a</script>');"
                            " --></script>y"),
            "</script>y");
  // "-->" leaves the escape: a "<script" after it is plain text again.
  EXPECT_EQ(RestAfterScript("<script><!-- a --> '<script>' </script>z"),
            "</script>z");
  // A double-escaped run that "-->" ends goes back to plain script data.
  EXPECT_EQ(RestAfterScript("<script><!--<script>--></script>q"), "</script>q");
  // "<!-" without the second dash does not escape.
  EXPECT_EQ(RestAfterScript("<script><!-<script></script>"), "</script>");
  // A double-escaped run never closed runs to the end.
  EXPECT_EQ(RestAfterScript("<script><!--<script></script>"),
            "(runs to the end)");
  // "<scripts" does not start a double-escaped run.
  EXPECT_EQ(RestAfterScript("<script><!--<scripts></script>w"), "</script>w");
}

TEST(CutRawTextTest, CutsScriptsAndStylesAndKeepsEverythingElse) {
  std::string out;
  std::vector<RawTextCut> cuts;
  ASSERT_TRUE(CutRawText(
      "<html><head><style>p{}</style><script src=a.js></script>"
      "<script type='text/javascript'>var a = '<p>';</script>"
      "<script type=\"application/ld+json\">{\"a\":1}</script></head>"
      "<body><!-- <script>x</script> --><title><script>t</script></title>"
      "<textarea><style>u</style></textarea><p title='<script>'>text</p>"
      "<SCRIPT\n>v</SCRIPT></body></html>",
      &out, &cuts));
  EXPECT_EQ(out,
            "<html><head><style></style><script src=a.js></script>"
            "<script type='text/javascript'></script>"
            "<script type=\"application/ld+json\">{\"a\":1}</script></head>"
            "<body><!-- <script>x</script> --><title><script>t</script></title>"
            "<textarea><style>u</style></textarea><p title='<script>'>text</p>"
            "<SCRIPT\n></SCRIPT></body></html>");
  ASSERT_EQ(cuts.size(), 3u);
  EXPECT_FALSE(cuts[0].script);
  EXPECT_EQ(out.substr(cuts[0].offset, 8), "</style>");
  EXPECT_TRUE(cuts[1].script);
  EXPECT_EQ(out.substr(cuts[1].offset - 1, 10), "></script>");
  EXPECT_EQ(out.substr(cuts[2].offset, 9), "</SCRIPT>");
}

TEST(CutRawTextTest, CommentsEndAsTheTokenizerEndsThem) {
  std::string out;
  std::vector<RawTextCut> cuts;
  // "<!-->", "<!--->" and "--!>" end a comment; "-- >" does not.
  ASSERT_TRUE(
      CutRawText("<!--><script>a</script><!---><script>b</script>"
                 "<!-- x --!><script>c</script>"
                 "<!-- -- > <script>d</script> -->",
                 &out, &cuts));
  EXPECT_EQ(out,
            "<!--><script></script><!---><script></script>"
            "<!-- x --!><script></script>"
            "<!-- -- > <script>d</script> -->");
  EXPECT_EQ(cuts.size(), 3u);
}

TEST(CutRawTextTest, LeavesWhatItCannotReadPlainly) {
  std::string out = "untouched";
  std::vector<RawTextCut> cuts;
  // A type written with a character reference; a script that runs to the
  // end; everything after <plaintext>; nothing to cut.
  for (absl::string_view page :
       {"<script type=\"application&#47;ld+json\">{}</script>",
        "<script>var never_closed = 1;", "<plaintext><script>x</script>",
        "<p>no scripts</p>", "<script></script>", "<!-- <style>x</style>"}) {
    EXPECT_FALSE(CutRawText(page, &out, &cuts)) << page;
  }
  EXPECT_EQ(out, "untouched");
  EXPECT_TRUE(cuts.empty());
}

// Cutting must not change the Document: pages where the scan alone would
// go wrong (scripts that are not HTML scripts to the tree builder) and the
// tokenizer's corners.
TEST(CutRawTextTest, ParseGivesTheSameDocumentWithAndWithoutCutting) {
  ParseOptions plain;
  plain.cut_raw_text = false;
  for (absl::string_view page : {
           "<html><head><script>var a = '<b>';</script><style>b{}</style>"
           "<title>T</title></head><body><p>text</p>"
           "<script><!-- document.write('<script>x</script>') --></script>"
           "<p>after</p></body></html>",
           // An SVG <script> is no HTML script: its content is markup.
           "<body><svg><script>1<a href='/in-svg'>in svg</a></script></svg>"
           "<p>after</p></body>",
           // In a frameset a <script> start tag is ignored and its content
           // parsed as it comes.
           "<frameset><script><frame src='/f.html'></script></frameset>",
           // An unclosed comment before a script hides it.
           "<p>a<!-- <script>var x;</script><p>b",
           // A script in a table, in a select, in a template, after </html>.
           "<table><script>t()</script><tr><td>c</td></tr></table>"
           "<select><script>s()</script><option>o</option></select>"
           "<template><script>u()</script></template></html>"
           "<script>late()</script><p>late text</p>",
           // JSON-LD is kept, a style in the body, a noscript.
           "<script type=application/ld+json>{\"@type\":\"Article\"}</script>"
           "<div><style>.a{}</style><noscript><script>n()</script>"
           "<img src=/n.gif></noscript><a href='/x'>x</a></div>",
           // Self-closing script tags are still raw text elements.
           "<script src=a.js /><p>swallowed</p></script><p>seen</p>",
           "<style>never closed",
       }) {
    absl::StatusOr<Document> cut = ParseUtf8(page, "http://example.com/");
    absl::StatusOr<Document> whole =
        ParseUtf8(page, "http://example.com/", plain);
    ASSERT_TRUE(cut.ok() && whole.ok()) << page;
    EXPECT_EQ(DocumentDifference(*cut, *whole), "") << page;
  }
}

TEST(DocumentDifferenceTest, NamesTheFirstDifference) {
  absl::StatusOr<Document> a = ParseUtf8("<p>one <a href='/a'>a</a></p>");
  absl::StatusOr<Document> b = ParseUtf8("<p>two <a href='/a'>a</a></p>");
  absl::StatusOr<Document> c = ParseUtf8("<p>one <a href='/b'>a</a></p>");
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  EXPECT_EQ(DocumentDifference(*a, *a), "");
  EXPECT_THAT(DocumentDifference(*a, *b), testing::HasSubstr("node"));
  // The href attribute differs before the link does.
  EXPECT_THAT(DocumentDifference(*a, *c), testing::HasSubstr("<a>"));
}

}  // namespace
}  // namespace fcrawl::html
