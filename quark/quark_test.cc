#include "quark/quark.h"

#include <fstream>
#include <sstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "core/text.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "quark/test_util.h"

namespace fcrawl::quark {
namespace {

using ::fcrawl::quark::testing::ReadFixture;
using ::testing::HasSubstr;

Segmentation Segment(absl::string_view html, const RecognizerOptions& o = {}) {
  absl::StatusOr<html::Document> doc = html::Parse(html, "http://example.com/");
  EXPECT_TRUE(doc.ok()) << doc.status();
  absl::StatusOr<Segmentation> seg = Recognize(*doc, o);
  EXPECT_TRUE(seg.ok()) << seg.status();
  return *seg;
}

// The paper's ripeness rule without our mixed_blocks extension.
RecognizerOptions NoMixedBlocks() {
  RecognizerOptions o;
  o.mixed_blocks = false;
  return o;
}

TEST(TagClassTest, PaperClassesAndPrecedence) {
  EXPECT_EQ(ClassifyTag("script"), TagClass::kSuper);
  EXPECT_EQ(ClassifyTag("fieldset"), TagClass::kSuper);  // S over B
  EXPECT_EQ(ClassifyTag("td"), TagClass::kBig);          // B over A
  EXPECT_EQ(ClassifyTag("div"), TagClass::kBig);
  EXPECT_EQ(ClassifyTag("article"), TagClass::kBig);  // HTML5 sectioning
  EXPECT_EQ(ClassifyTag("p"), TagClass::kLayout);
  EXPECT_EQ(ClassifyTag("img"), TagClass::kLayout);
  EXPECT_EQ(ClassifyTag("a"), TagClass::kDisplay);
  EXPECT_EQ(ClassifyTag("h3"), TagClass::kDisplay);
  EXPECT_EQ(ClassifyTag("tr"), TagClass::kAffiliated);
  EXPECT_EQ(ClassifyTag("blink"), TagClass::kOther);
}

TEST(RecognizerTest, BigNodeRipeByTextLength) {
  // 40 code points: a block. 39: passes up to body.
  std::string forty(40, 'x');
  std::string thirtynine(39, 'y');
  // The paper's rule alone: with mixed_blocks the body, which holds a
  // block and text beside it, would collect the rest instead of the root.
  Segmentation seg = Segment(
      "<div>" + forty + "</div><div>" + thirtynine + "</div>", NoMixedBlocks());
  ASSERT_EQ(seg.blocks.size(), 2u);
  EXPECT_EQ(seg.blocks[0].tag, "html");  // the root collects the rest
  EXPECT_EQ(seg.blocks[0].text, thirtynine);
  EXPECT_EQ(seg.blocks[1].tag, "div");
  EXPECT_EQ(seg.blocks[1].text, forty);
  EXPECT_EQ(seg.blocks[1].text_length, 40u);
}

// A CJK character counts kCjkWeight towards min_block_text, as in the
// analyzer's size feature: a forum reply of 20 Chinese characters is a
// block of its own, not text of the post's frame.
TEST(RecognizerTest, ChineseTextCountsTwiceTowardsABlock) {
  std::string twenty;
  for (int i = 0; i < 20; ++i) twenty += "\xe4\xb8\xad";  // 中
  std::string nineteen;
  for (int i = 0; i < 19; ++i) nineteen += "\xe6\x96\x87";  // 文
  Segmentation seg = Segment(
      "<div>" + twenty + "</div><div>" + nineteen + "</div>", NoMixedBlocks());
  ASSERT_EQ(seg.blocks.size(), 2u);
  EXPECT_EQ(seg.blocks[0].text, nineteen);  // 38: passes up to the root
  EXPECT_EQ(seg.blocks[1].tag, "div");
  EXPECT_EQ(seg.blocks[1].text, twenty);
  EXPECT_EQ(seg.blocks[1].text_length, 20u);  // lengths stay code points
}

TEST(RecognizerTest, BigNodeRipeByLayoutShare) {
  // Short text, but every pending element under the div is L (li): a block.
  Segmentation seg = Segment(
      "<div><ul><li>a</li><li>b</li></ul></div><div><span>c</span>"
      "</div>",
      NoMixedBlocks());
  ASSERT_EQ(seg.blocks.size(), 2u);
  EXPECT_EQ(seg.blocks[1].tag, "div");
  EXPECT_EQ(seg.blocks[1].text, "a\nb");
  EXPECT_EQ(seg.blocks[0].tag, "html");  // the span's div was not ripe
  EXPECT_EQ(seg.blocks[0].text, "c");
}

TEST(RecognizerTest, LayoutRatioBelowThresholdIsNotRipe) {
  RecognizerOptions o;
  o.min_layout_ratio = 0.6;
  // 1 L (li) out of 2 pending elements (li, a) = 0.5 < 0.6.
  Segmentation seg = Segment("<div><li><a href='/x'>a</a></li></div>", o);
  ASSERT_EQ(seg.blocks.size(), 1u);
  EXPECT_EQ(seg.blocks[0].tag, "html");
}

TEST(RecognizerTest, SuperNodeIsABlockAtOnce) {
  Segmentation seg = Segment("<div>" + std::string(50, 'a') +
                             "<fieldset>short</fieldset></div>");
  ASSERT_EQ(seg.blocks.size(), 2u);
  EXPECT_EQ(seg.blocks[0].tag, "div");
  EXPECT_EQ(seg.blocks[1].tag, "fieldset");
  EXPECT_EQ(seg.blocks[1].text, "short");
  EXPECT_EQ(seg.blocks[0].text, std::string(50, 'a'));  // disjoint
}

TEST(RecognizerTest, FootersSidebarsAndCommentsAreBlocksOfTheirOwn) {
  // A short footer list inside the page wrapper: by the paper's rules its
  // text passes up into the wrapper's block beside the skip link.
  const std::string page =
      "<div id='wrapper'><a href='#nav'>jump to navigation</a><div>" +
      std::string(50, 'a') +
      "</div><ul id='footer'><li>(c) 2012 Network</li></ul>"
      "<ul class='sidebar-box'><li>x</li></ul><ul class='comment-list'>"
      "<li>ok</li></ul><ul class='main-sidebar-wrap'><li>y</li></ul></div>";
  Segmentation seg = Segment(page);
  ASSERT_EQ(seg.blocks.size(), 5u);
  EXPECT_EQ(seg.blocks[0].text, "jump to navigation\ny");
  EXPECT_EQ(seg.blocks[2].text, "(c) 2012 Network");
  EXPECT_EQ(seg.blocks[3].text, "x");
  EXPECT_EQ(seg.blocks[4].text, "ok");

  RecognizerOptions paper;
  paper.hint_blocks = false;
  Segmentation plain = Segment(page, paper);
  ASSERT_EQ(plain.blocks.size(), 2u);
  EXPECT_EQ(plain.blocks[0].text,
            "jump to navigation\n(c) 2012 Network\nx\nok\ny");
}

TEST(RecognizerTest, TextBesideABlockStaysWithItsRecord) {
  // A forum archive: each post's author and date line is too short for a
  // block, and by the paper's rules it passes up into the page wrapper,
  // where every post's header ends up in one block.
  const std::string post_text = std::string(60, 'p');
  std::string page = "<div class='pagebody'><div class='nav'>Forum index</div>";
  for (const char* who : {"alice", "bob"}) {
    absl::StrAppend(&page, "<div class='post'><div class='top'><div>", who,
                    "</div><div>05-06-2005</div></div><div class='text'>",
                    post_text, "</div></div>");
  }
  page += "</div>";
  Segmentation seg = Segment(page);
  std::vector<std::string> texts;
  for (const Block& b : seg.blocks) texts.push_back(b.text);
  EXPECT_THAT(texts,
              ::testing::ElementsAre("Forum index", "alice\n05-06-2005",
                                     post_text, "bob\n05-06-2005", post_text));

  Segmentation plain = Segment(page, NoMixedBlocks());
  ASSERT_EQ(plain.blocks.size(), 3u);
  EXPECT_EQ(plain.blocks[0].text,
            "Forum index\nalice\n05-06-2005\nbob\n05-06-2005");
}

TEST(RecognizerTest, CustomTagsAndPatterns) {
  RecognizerOptions o;
  o.custom_tags = {"p"};
  Segmentation seg = Segment("<div><p>date line</p>rest</div>", o);
  ASSERT_EQ(seg.blocks.size(), 2u);
  EXPECT_EQ(seg.blocks[1].tag, "p");
  EXPECT_TRUE(seg.blocks[1].has_custom_tag);

  RecognizerOptions re;
  re.custom_patterns = {"\\d{4}-\\d{2}-\\d{2}"};
  Segmentation dated =
      Segment("<div><p>Published 2008-05-01 by X</p><p>other</p></div>", re);
  ASSERT_EQ(dated.blocks.size(), 2u);
  EXPECT_EQ(dated.blocks[1].text, "Published 2008-05-01 by X");

  RecognizerOptions bad;
  bad.custom_patterns = {"(unclosed"};
  absl::StatusOr<html::Document> doc = html::Parse("<p>x</p>");
  EXPECT_EQ(Recognize(*doc, bad).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(RecognizerTest, NoTextIsLostAndBlocksAreDisjoint) {
  std::string page = ReadFixture("article.html");
  ASSERT_FALSE(page.empty());
  absl::StatusOr<html::Document> doc = html::Parse(page, "http://example.com/");
  ASSERT_TRUE(doc.ok());
  absl::StatusOr<Segmentation> seg = Recognize(*doc);
  ASSERT_TRUE(seg.ok());
  // Every non-space character of the page text is in exactly one block.
  std::string all, blocks;
  for (const html::Node& n : doc->nodes) {
    if (n.kind == html::Node::Kind::kText) all += n.text;
  }
  size_t total = 0;
  for (const Block& b : seg->blocks) {
    blocks += b.text;
    total += b.text_length;
  }
  auto strip = [](std::string s) {
    std::string out;
    for (char c : s) {
      if (c != ' ' && c != '\n' && c != '\t' && c != '\r') out.push_back(c);
    }
    std::sort(out.begin(), out.end());
    return out;
  };
  EXPECT_EQ(strip(all), strip(blocks));
  EXPECT_EQ(total, seg->text_length);
  // Each link sits in exactly one block.
  size_t links = 0;
  for (const Block& b : seg->blocks) links += b.links.size();
  EXPECT_EQ(links, doc->links.size());
  // Blocks are in document order with increasing text offsets.
  for (size_t i = 1; i < seg->blocks.size(); ++i) {
    EXPECT_LT(seg->blocks[i - 1].node, seg->blocks[i].node);
  }
}

TEST(RecognizerTest, DeeplyNestedPageIsSegmented) {
  std::string page;
  for (int i = 0; i < 100000; ++i) page += "<div>";
  page += std::string(60, 'z');
  absl::StatusOr<AnalyzedPage> analysed = AnalyzePage(page, "", "", "");
  ASSERT_TRUE(analysed.ok());
  ASSERT_EQ(analysed->segmentation.blocks.size(), 1u);
  EXPECT_EQ(analysed->segmentation.blocks[0].text, std::string(60, 'z'));
}

TEST(RecognizerTest, EmptyPageHasNoBlocks) {
  absl::StatusOr<AnalyzedPage> page = AnalyzePage("", "", "", "");
  ASSERT_TRUE(page.ok());
  EXPECT_TRUE(page->segmentation.blocks.empty());
  EXPECT_EQ(MainContent(page->segmentation), "");
}

TEST(RecognizerTest, TextOffsetsFollowDocumentOrder) {
  Segmentation seg = Segment("<div>" + std::string(45, 'a') + "</div><div>" +
                             std::string(45, 'b') + "</div>");
  ASSERT_EQ(seg.blocks.size(), 2u);
  EXPECT_EQ(seg.blocks[0].start, 0u);
  EXPECT_EQ(seg.blocks[1].start, 45u);
}

// A layout cell whose text goes on after an inner table: the cell's text
// is one block in two pieces, and the second piece starts where the page
// text resumes after the table's block.
TEST(RecognizerTest, TextAfterANestedBlockIsANewPiece) {
  const std::string intro(45, 'a'), table(45, 'b'), rest(10, 'c');
  Segmentation seg =
      Segment("<table><tr><td>" + intro + "<table><tr><td>" + table +
              "</td></tr></table> " + rest + "</td></tr></table>");
  ASSERT_EQ(seg.blocks.size(), 2u);
  const Block& cell = seg.blocks[0];
  EXPECT_EQ(cell.text, intro + "\n" + rest);
  EXPECT_EQ(cell.start, 0u);
  ASSERT_EQ(cell.pieces.size(), 1u);
  EXPECT_EQ(cell.pieces[0].line, 1);
  EXPECT_EQ(cell.pieces[0].start, 90u);  // after the inner table's 45
  EXPECT_EQ(seg.blocks[1].text, table);
  EXPECT_EQ(seg.blocks[1].start, 45u);
  EXPECT_TRUE(seg.blocks[1].pieces.empty());
}

// A line-breaking element starts a new line of the block's text even when
// it holds no text: "line one<br>line two" is two lines, not "line oneline
// two"; an inline image breaks nothing.
TEST(RecognizerTest, EmptyLineBreakingElementsBreakTheLine) {
  Segmentation seg = Segment(
      "<div>First line of the post<br>Second line<br><br>Third "
      "line<hr>Fourth line<div></div>Fifth line and an icon<img "
      "src='/i.png'>inline</div>");
  ASSERT_EQ(seg.blocks.size(), 1u);
  EXPECT_EQ(seg.blocks[0].text,
            "First line of the post\nSecond line\nThird line\nFourth "
            "line\nFifth line and an iconinline");
}

// Each line of a block's text knows its first and last text node, so the
// elements around a line can be found.
TEST(RecognizerTest, LinesKnowTheirTextNodes) {
  absl::StatusOr<html::Document> doc = html::Parse(
      "<div>one <b>two</b><p>three</p>four</div>", "http://example.com/");
  ASSERT_TRUE(doc.ok());
  absl::StatusOr<Segmentation> seg = Recognize(*doc, {});
  ASSERT_TRUE(seg.ok());
  ASSERT_EQ(seg->blocks.size(), 1u);
  const Block& b = seg->blocks[0];
  EXPECT_EQ(b.text, "one two\nthree\nfour");
  ASSERT_EQ(b.line_nodes.size(), 3u);
  auto text_of = [&](int32_t node) { return doc->nodes[node].text; };
  EXPECT_EQ(text_of(b.line_nodes[0].first), "one ");
  EXPECT_EQ(text_of(b.line_nodes[0].last), "two");
  EXPECT_EQ(text_of(b.line_nodes[1].first), "three");
  EXPECT_EQ(b.line_nodes[1].first, b.line_nodes[1].last);
  EXPECT_EQ(text_of(b.line_nodes[2].first), "four");
}

// Anchor text is the text of <a href> only: a named anchor or a stray <a>,
// closed or not, turns none of the article into link text.
TEST(RecognizerTest, AnchorWithoutHrefIsNotLinkText) {
  std::string para(80, 'w');
  Segmentation seg = Segment("<div><a name='top'></a><a>stray</a><p>" + para +
                             "</p><a href='/x'>real link</a></div>");
  ASSERT_EQ(seg.blocks.size(), 1u);
  EXPECT_EQ(seg.blocks[0].anchor_text_length, 9u);  // "real link"
}

TEST(RecognizerTest, UnclosedNamedAnchorDoesNotSwallowTheArticle) {
  // The parser reopens the unclosed <a name> in every following paragraph.
  std::string para(60, 'p');
  Segmentation seg = Segment("<div><a name='top'>Top<p>" + para + "</p><p>" +
                             para + "</p><p>" + para + "</p></div>");
  ASSERT_EQ(seg.blocks.size(), 1u);
  EXPECT_EQ(seg.blocks[0].text_length, 3u + 3 * 60 + 3);  // with line breaks
  EXPECT_EQ(seg.blocks[0].anchor_text_length, 0u);
}

TEST(RecognizerTest, UnclosedHrefAnchorEndsAtTheNextParagraph) {
  // <a href> never closed: its copies in the following paragraphs are the
  // parser's, not links; its own text ends at the first line break.
  std::string para(60, 'p');
  absl::StatusOr<html::Document> doc =
      html::Parse("<div><p><a href='/more'>Read more<p>" + para + "</p><p>" +
                      para + "</p><div>" + para + "</div></div>",
                  "http://example.com/");
  ASSERT_TRUE(doc.ok());
  int anchors = 0;
  for (const html::Link& l : doc->links) {
    if (l.kind == html::LinkKind::kAnchor) ++anchors;
  }
  EXPECT_EQ(anchors, 1);  // the copies add no links
  absl::StatusOr<Segmentation> seg = Recognize(*doc);
  ASSERT_TRUE(seg.ok());
  size_t anchor = 0, total = 0;
  for (const Block& b : seg->blocks) {
    anchor += b.anchor_text_length;
    total += b.text_length;
  }
  EXPECT_EQ(anchor, 9u);  // "Read more"
  EXPECT_GT(total, 180u);
}

TEST(RecognizerTest, ClosedAnchorAroundABlockIsLinkText) {
  // An <a href> that is closed in the source stays link text throughout.
  std::string para(60, 'p');
  Segmentation seg = Segment("<div><a href='/x'><p>" + para + "</p></a></div>");
  size_t anchor = 0;
  for (const Block& b : seg.blocks) anchor += b.anchor_text_length;
  EXPECT_EQ(anchor, 60u);
}

}  // namespace
}  // namespace fcrawl::quark
