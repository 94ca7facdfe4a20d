#include "quark/markdown.h"

#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "quark/page_proto.h"
#include "quark/test_util.h"

namespace fcrawl::quark {
namespace {

using ::fcrawl::quark::testing::ReadFixture;
using ::testing::HasSubstr;
using ::testing::Not;

// A page whose every block is content, so the test sees each element's
// rendering without the analysis choosing.
struct AllContent {
  html::Document doc;
  Segmentation seg;
};

AllContent Segment(absl::string_view body) {
  AllContent p;
  absl::StatusOr<html::Document> doc = html::Parse(
      absl::StrCat("<html><body>", body, "</body></html>"), "http://x.test/");
  EXPECT_TRUE(doc.ok()) << doc.status();
  if (!doc.ok()) return p;
  p.doc = *std::move(doc);
  absl::StatusOr<Segmentation> seg = Recognize(p.doc);
  EXPECT_TRUE(seg.ok()) << seg.status();
  if (!seg.ok()) return p;
  p.seg = *std::move(seg);
  for (Block& b : p.seg.blocks) b.type = BlockType::kContent;
  return p;
}

std::string Markdown(absl::string_view body) {
  AllContent p = Segment(body);
  return MainContentMarkdown(p.doc, p.seg);
}

std::string PlainText(absl::string_view body) {
  return MainContent(Segment(body).seg);
}

// The Markdown with its syntax taken away, as markdown.h's contract lists
// it: quote and list markers, heading marks, code fences, table pipes and
// delimiter rows, and the backslashes the renderer writes.
std::string StripMarkdown(absl::string_view md) {
  std::string out;
  size_t fence = 0;  // the open code block's fence length, 0 outside one
  for (absl::string_view line : absl::StrSplit(md, '\n')) {
    line = absl::StripLeadingAsciiWhitespace(line);
    while (absl::ConsumePrefix(&line, ">")) {
      line = absl::StripLeadingAsciiWhitespace(line);
    }
    // List markers ("- ", "12. ") and their indents, outer to inner.
    for (bool more = true; more && fence == 0;) {
      more = absl::ConsumePrefix(&line, "- ");
      size_t d = 0;
      while (d < line.size() && absl::ascii_isdigit(line[d])) ++d;
      if (!more && d > 0 && absl::StartsWith(line.substr(d), ". ")) {
        line.remove_prefix(d + 2);
        more = true;
      }
    }
    if (line.size() >= 3 && line.find_first_not_of('`') == line.npos &&
        line.size() >= fence) {
      fence = fence == 0 ? line.size() : 0;
      continue;
    }
    std::string text(line);
    if (fence == 0) {
      if (absl::StartsWith(text, "|")) {  // a table row
        if (text.find_first_not_of("|- ") == std::string::npos) continue;
        text = absl::StrReplaceAll(text, {{"\\|", "\x01"}, {"|", " "}});
        text = absl::StrReplaceAll(text, {{"\x01", "|"}});
      } else {
        size_t h = text.find_first_not_of('#');
        if (h > 0 && h <= 6 && h < text.size() && text[h] == ' ') {
          text.erase(0, h + 1);
          if (absl::EndsWith(text, "#")) {
            size_t run = text.find_last_not_of('#') + 1;
            if (run > 0 && text[run - 1] == '\\') text.erase(run - 1, 1);
          }
        }
        if (text.size() > 1 && text[0] == '\\') text.erase(0, 1);
        size_t d = 0;
        while (d < text.size() && absl::ascii_isdigit(text[d])) ++d;
        if (d > 0 && d + 1 < text.size() && text[d] == '\\') text.erase(d, 1);
      }
    }
    absl::StrAppend(&out, text, "\n");
  }
  return out;
}

std::vector<std::string> Words(absl::string_view text) {
  return absl::StrSplit(text, absl::ByAnyChar(" \t\n"), absl::SkipEmpty());
}

TEST(MarkdownTest, Headings) {
  const std::string md = Markdown(
      "<h1>Title one</h1><h2>Second level</h2><h3>Third</h3><h4>Fourth</h4>"
      "<h5>Fifth</h5><h6>Sixth</h6><p>Body text.</p>");
  EXPECT_EQ(md,
            "# Title one\n\n## Second level\n\n### Third\n\n#### Fourth\n\n"
            "##### Fifth\n\n###### Sixth\n\nBody text.");
}

TEST(MarkdownTest, HeadingKeepsATrailingHash) {
  EXPECT_EQ(Markdown("<h2>Learn C #</h2>"), "## Learn C \\#");
  EXPECT_EQ(Markdown("<h2>C#</h2>"), "## C#");
}

TEST(MarkdownTest, UnorderedAndOrderedLists) {
  EXPECT_EQ(Markdown("<ul><li>apples</li><li>pears</li></ul>"),
            "- apples\n- pears");
  EXPECT_EQ(Markdown("<ol><li>first</li><li>second</li></ol>"),
            "1. first\n2. second");
  EXPECT_EQ(Markdown("<ol start=\"7\"><li>seventh</li><li>eighth</li></ol>"),
            "7. seventh\n8. eighth");
  // A hostile start is clamped to a short marker.
  EXPECT_EQ(Markdown("<ol start=\"99999999999999\"><li>a</li><li>b</li></ol>"),
            "999999999. a\n999999999. b");
}

TEST(MarkdownTest, NestedListsAreIndentedUnderTheirItem) {
  EXPECT_EQ(Markdown("<ul><li>fruit<ul><li>apple</li><li>pear</li></ul></li>"
                     "<li>veg<ol><li>leek</li></ol></li></ul>"),
            "- fruit\n  - apple\n  - pear\n- veg\n  1. leek");
}

TEST(MarkdownTest, ParagraphsBeforeAndAfterAListAreApart) {
  EXPECT_EQ(Markdown("<p>Before the list.</p><ul><li>one</li></ul>"
                     "<p>After the list.</p>"),
            "Before the list.\n\n- one\n\nAfter the list.");
}

TEST(MarkdownTest, PreIsAFencedBlockWithItsLineBreaks) {
  EXPECT_EQ(Markdown("<p>Code:</p><pre>int main() {\n  return 0;\n}\n</pre>"),
            "Code:\n\n```\nint main() {\n  return 0;\n}\n```");
  // The plain text has the same words on one line.
  EXPECT_EQ(PlainText("<pre>int main() {\n  return 0;\n}\n</pre>"),
            "int main() { return 0; }");
}

TEST(MarkdownTest, HighlightedCodeKeepsItsLineBreaks) {
  // A highlighter's spans with the line breaks between them.
  EXPECT_EQ(Markdown("<pre><code><span>def f():</span>\n    "
                     "<span>return 1</span>\n</code></pre>"),
            "```\ndef f():\n    return 1\n```");
}

TEST(MarkdownTest, FenceIsLongerThanBackticksInside) {
  EXPECT_EQ(Markdown("<pre>a\n```\nb</pre>"), "````\na\n```\nb\n````");
}

TEST(MarkdownTest, TableBecomesAPipeTable) {
  EXPECT_EQ(Markdown("<table><tr><th>Name</th><th>Value</th></tr>"
                     "<tr><td>a|b</td><td>1</td></tr>"
                     "<tr><td>c</td><td>2</td></tr></table>"),
            "| Name | Value |\n| --- | --- |\n| a\\|b | 1 |\n| c | 2 |");
  // Without a <th> row the first row is the header; short rows are padded.
  EXPECT_EQ(Markdown("<table><tr><td>x</td><td>y</td><td>z</td></tr>"
                     "<tr><td>1</td></tr></table>"),
            "| x | y | z |\n| --- | --- | --- |\n| 1 |  |  |");
}

TEST(MarkdownTest, LayoutTableIsNotAPipeTable) {
  const std::string article(600, 'w');
  const std::string md =
      Markdown(absl::StrCat("<table><tr><td>menu</td><td><p>", article,
                            "</p></td></tr><tr><td>a</td><td>b</td></tr>"
                            "</table>"));
  EXPECT_THAT(md, Not(HasSubstr("|")));
  EXPECT_THAT(Markdown("<table><tr><td>a</td><td><table><tr><td>b</td>"
                       "<td>c</td></tr><tr><td>d</td><td>e</td></tr></table>"
                       "</td></tr><tr><td>f</td><td>g</td></tr></table>"),
              HasSubstr("| b | c |"));  // the inner table is data
}

TEST(MarkdownTest, BlockquoteIsQuoted) {
  EXPECT_EQ(Markdown("<blockquote><p>Quoted one.</p><p>Quoted two.</p>"
                     "</blockquote><p>After.</p>"),
            "> Quoted one.\n>\n> Quoted two.\n\nAfter.");
}

TEST(MarkdownTest, LinksKeepTheirAnchorText) {
  EXPECT_EQ(Markdown("<p>Read <a href=\"/x\">the manual</a> first.</p>"),
            "Read the manual first.");
}

TEST(MarkdownTest, TextThatWouldReadAsSyntaxIsEscaped) {
  EXPECT_EQ(Markdown("<p># not a heading</p>"), "\\# not a heading");
  EXPECT_EQ(Markdown("<p>#hashtag</p>"), "#hashtag");
  EXPECT_EQ(Markdown("<p>- not a list</p>"), "\\- not a list");
  EXPECT_EQ(Markdown("<p>1. not a list</p>"), "1\\. not a list");
  EXPECT_EQ(Markdown("<p>3.14 is pi</p>"), "3.14 is pi");
  EXPECT_EQ(Markdown("<p>> not a quote</p>"), "\\> not a quote");
  EXPECT_EQ(Markdown("<p>---</p>"), "\\---");
  EXPECT_EQ(Markdown("<p>```</p>"), "\\```");
  EXPECT_EQ(Markdown("<p>[1]: http://x</p>"), "\\[1]: http://x");
  EXPECT_EQ(Markdown("<ul><li>- dash</li></ul>"), "- \\- dash");
}

TEST(MarkdownTest, EmptyContentIsEmpty) {
  AllContent p = Segment("<p>text</p>");
  for (Block& b : p.seg.blocks) b.type = BlockType::kNoise;
  EXPECT_EQ(MainContentMarkdown(p.doc, p.seg), "");
}

TEST(MarkdownTest, OddTreesDoNotBreakIt) {
  for (const char* body : {
           "<td>cell outside a row</td><th>and a header</th>",
           "<tr><td>row outside a table</td></tr>",
           "<table><tr><td><ul><li>list in a table</li></ul></td>"
           "<td>x</td></tr><tr><td>y</td><td>z</td></tr></table>",
           "<table><tr><td colspan=\"99999999\">wide</td><td>b</td></tr>"
           "<tr><td>c</td><td>d</td></tr></table>",
           "<ul><li><table><tr><td>a</td><td>b</td></tr><tr><td>c</td>"
           "<td>d</td></tr></table></li></ul>",
           "<li>item without a list</li><pre><h1>heading in pre</h1></pre>",
           "<blockquote><ol><li><pre>x\ny</pre></li></ol></blockquote>",
       }) {
    SCOPED_TRACE(body);
    const std::string md = Markdown(body);
    EXPECT_EQ(Words(StripMarkdown(md)), Words(PlainText(body))) << md;
  }
}

TEST(MarkdownTest, DeepNestingIsBounded) {
  std::string body;
  for (int i = 0; i < 5000; ++i) body.append("<blockquote><ul><li>x");
  const std::string md = Markdown(body);
  const std::string plain = PlainText(body);
  EXPECT_EQ(Words(StripMarkdown(md)), Words(plain));
  EXPECT_LE(md.size(), 4 * (plain.size() + 1) + 4096);
}

TEST(MarkdownTest, OutputStaysASmallMultipleOfTheText) {
  // One wide row, then thousands of one-letter rows padded to its width.
  std::string body = "<table><tr>";
  for (int i = 0; i < 64; ++i) body.append("<td>h</td>");
  body.append("</tr>");
  for (int i = 0; i < 3000; ++i) body.append("<tr><td>v</td></tr>");
  body.append("</table>");
  const std::string md = Markdown(body);
  const std::string plain = PlainText(body);
  EXPECT_LE(md.size(), 4 * plain.size() + 4096);
  EXPECT_EQ(Words(StripMarkdown(md)), Words(plain));
}

// On real pages, analysed as the crawler does, the Markdown says the words
// MainContent says, in the same order.
TEST(MarkdownTest, SameWordsAsTheTextOnTestPages) {
  for (const char* name :
       {"article.html", "zh_netease_gbk.html", "zh_people.html", "zh_sina.html",
        "zh_sina_blog.html"}) {
    SCOPED_TRACE(name);
    const std::string html = ReadFixture(name);
    ASSERT_FALSE(html.empty());
    absl::StatusOr<AnalyzedPage> page =
        AnalyzePage(html, "http://news.example/a", "text/html", "");
    ASSERT_TRUE(page.ok()) << page.status();
    const std::string text = MainContent(page->segmentation);
    const std::string md =
        MainContentMarkdown(page->document, page->segmentation);
    ASSERT_FALSE(text.empty());
    EXPECT_EQ(Words(StripMarkdown(md)), Words(text)) << md;
  }
}

// The corpus record carries the Markdown only when asked to.
TEST(MarkdownTest, CorpusRecordHasItWhenAskedFor) {
  absl::StatusOr<AnalyzedPage> page = AnalyzePage(
      ReadFixture("article.html"), "http://news.example/a", "text/html", "");
  ASSERT_TRUE(page.ok()) << page.status();
  EXPECT_FALSE(ToCorpusRecord(*page).has_main_markdown());
  CorpusRecordOptions options;
  options.markdown = true;
  const proto::CorpusRecord r = ToCorpusRecord(*page, options);
  ASSERT_TRUE(r.has_main_markdown());
  EXPECT_EQ(r.main_markdown(),
            MainContentMarkdown(page->document, page->segmentation));
  EXPECT_EQ(Words(StripMarkdown(r.main_markdown())), Words(r.main_text()));
}

}  // namespace
}  // namespace fcrawl::quark
