#include "core/html.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace fcrawl::html {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const Link* FindLink(const Document& doc, absl::string_view url) {
  for (const Link& l : doc.links) {
    if (l.url == url) return &l;
  }
  return nullptr;
}

// The document's text nodes, joined.
std::string TextOf(const Document& doc) {
  std::string texts;
  for (const Node& n : doc.nodes) {
    if (n.kind == Node::Kind::kText) texts += n.text;
  }
  return texts;
}

TEST(HtmlTest, TitleMetaAndLinksOfEveryKind) {
  const std::string page = R"html(<!DOCTYPE html><html><head>
    <title>  Physics
      news </title>
    <meta name="Keywords" content="physics, quantum">
    <meta name="description" content="All about physics.">
    </head><body>
    <a href="/a/b.html">First <b>link</b></a>
    <a href="rel.html" title="titled"></a>
    <a href="javascript:void(0)">js</a><a href="mailto:x@y.z">mail</a>
    <map><area href="/area" alt="An area"></map>
    <frameset><frame src="/frame.html"></frameset>
    <iframe src="/iframe.html" title="inner"></iframe>
    <img src="/img/p.png" alt="A picture">
    <object data="/anim.swf"><param name="movie" value="/movie.swf"></object>
    <embed src="/song.mp3">
    <video src="/clip.mp4"><source src="/clip.webm"></video>
    <audio src="/a.wav"></audio>
    <a href="/pics/"><img src="/i.gif" alt="Image anchor"></a>
    </body></html>)html";
  absl::StatusOr<Document> doc =
      Parse(page, "http://Example.com/dir/page.html");
  ASSERT_TRUE(doc.ok()) << doc.status();
  EXPECT_EQ(doc->url, "http://example.com/dir/page.html");
  EXPECT_EQ(doc->title, "Physics news");
  EXPECT_EQ(doc->keywords, "physics, quantum");
  EXPECT_EQ(doc->description, "All about physics.");
  EXPECT_TRUE(doc->has_media);

  const Link* a = FindLink(*doc, "http://example.com/a/b.html");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->anchor_text, "First link");
  EXPECT_EQ(a->kind, LinkKind::kAnchor);
  const Link* rel = FindLink(*doc, "http://example.com/dir/rel.html");
  ASSERT_NE(rel, nullptr);
  EXPECT_EQ(rel->anchor_text, "titled");
  EXPECT_EQ(FindLink(*doc, "http://example.com/area")->kind, LinkKind::kArea);
  EXPECT_EQ(FindLink(*doc, "http://example.com/area")->anchor_text, "An area");
  EXPECT_EQ(FindLink(*doc, "http://example.com/iframe.html")->kind,
            LinkKind::kFrame);
  EXPECT_EQ(FindLink(*doc, "http://example.com/img/p.png")->anchor_text,
            "A picture");
  EXPECT_EQ(FindLink(*doc, "http://example.com/anim.swf")->media,
            MediaType::kAnimation);
  EXPECT_EQ(FindLink(*doc, "http://example.com/movie.swf")->kind,
            LinkKind::kObject);
  EXPECT_EQ(FindLink(*doc, "http://example.com/song.mp3")->media,
            MediaType::kAudio);
  EXPECT_EQ(FindLink(*doc, "http://example.com/clip.mp4")->kind,
            LinkKind::kMedia);
  EXPECT_EQ(FindLink(*doc, "http://example.com/clip.webm")->media,
            MediaType::kVideo);
  EXPECT_EQ(FindLink(*doc, "http://example.com/a.wav")->media,
            MediaType::kAudio);
  EXPECT_EQ(FindLink(*doc, "http://example.com/pics/")->anchor_text,
            "Image anchor");
  for (const Link& l : doc->links) {
    EXPECT_THAT(l.url, ::testing::Not(HasSubstr("javascript")));
    EXPECT_THAT(l.url, ::testing::Not(HasSubstr("mailto")));
  }
}

TEST(HtmlTest, WhiteSpaceAloneIsOneSpaceExceptInPre) {
  absl::StatusOr<Document> doc = ParseUtf8(
      "<body><p><b>a</b>\n  <i>b</i></p>"
      "<pre><span>x = 1</span>\n  <span>y = 2</span></pre></body>");
  ASSERT_TRUE(doc.ok()) << doc.status();
  std::vector<std::string> texts;
  for (const Node& n : doc->nodes) {
    if (!n.is_element()) texts.push_back(n.text);
  }
  // A code highlighter's line break between two spans is the code's.
  EXPECT_THAT(texts,
              ::testing::ElementsAre("a", " ", "b", "x = 1", "\n  ", "y = 2"));
}

TEST(HtmlTest, FramesetPageKeepsFrameLinks) {
  absl::StatusOr<Document> doc = Parse(
      "<html><frameset><frame src='/left.html'><frame src='main.html'>"
      "</frameset></html>",
      "http://example.com/x/");
  ASSERT_TRUE(doc.ok());
  EXPECT_NE(FindLink(*doc, "http://example.com/left.html"), nullptr);
  EXPECT_NE(FindLink(*doc, "http://example.com/x/main.html"), nullptr);
}

TEST(HtmlTest, LooksLikeHtmlByTheSniffingRules) {
  EXPECT_TRUE(LooksLikeHtml("<html><body>x"));
  EXPECT_TRUE(LooksLikeHtml("\xEF\xBB\xBF\r\n  <!DOCTYPE html PUBLIC>"));
  EXPECT_TRUE(LooksLikeHtml("<TITLE>Home page</TITLE>"));
  EXPECT_TRUE(LooksLikeHtml("<!-- saved by a 1996 editor -->"));
  EXPECT_TRUE(LooksLikeHtml("<a href=x>"));
  EXPECT_FALSE(LooksLikeHtml("<address>"));  // "<A" not followed by ' '/'>'
  EXPECT_FALSE(LooksLikeHtml("<html"));      // nothing after the tag
  EXPECT_FALSE(LooksLikeHtml("%!PS-Adobe-2.0"));
  EXPECT_FALSE(LooksLikeHtml("Course notes: see <html> tags below"));
  EXPECT_FALSE(LooksLikeHtml(""));
  EXPECT_FALSE(LooksLikeHtml("<?xml version='1.0'?><rss>"));
}

TEST(HtmlTest, LooksLikeHtmlAfterTheHeadersOfASavedResponse) {
  EXPECT_TRUE(LooksLikeHtml(
      "MIME-Version: 1.0\nServer: CERN/3.0\nContent-Type: text/html\n\n"
      "<HTML><HEAD><TITLE>CS 415</TITLE>"));
  EXPECT_TRUE(LooksLikeHtml(
      "HTTP/1.0 200 OK\r\nContent-type: text/html\r\n\r\n  <html>x"));
  // One "Name: value" line is a sentence, not a header block.
  EXPECT_FALSE(LooksLikeHtml("Note: see below\n\n<html>x"));
  // Prose before the empty line.
  EXPECT_FALSE(
      LooksLikeHtml("Server: a\nDate: b\nthis is not a header\n\n<html>x"));
  // Headers with no end, or a PostScript file after them.
  EXPECT_FALSE(LooksLikeHtml("Server: a\nDate: b\n<html>x"));
  EXPECT_FALSE(LooksLikeHtml("Server: a\nDate: b\n\n%!PS-Adobe-2.0"));
  // The header block is looked for in the first 4 KiB only.
  std::string long_headers;
  for (int i = 0; i < 300; ++i) long_headers += "X-Field: value\n";
  EXPECT_FALSE(LooksLikeHtml(long_headers + "\n<html>x"));
}

TEST(HtmlTest, RefreshUrlAsTheStandardReadsIt) {
  EXPECT_EQ(RefreshUrl("0; URL=http://example.com/new/"),
            "http://example.com/new/");
  EXPECT_EQ(RefreshUrl("5;url='/moved.html' "), "/moved.html");
  EXPECT_EQ(RefreshUrl(" 3 ; Url = \"a b.html\" trailing"), "a b.html");
  EXPECT_EQ(RefreshUrl("0, next.html"), "next.html");
  EXPECT_EQ(RefreshUrl("1.5 next.html"), "next.html");
  EXPECT_EQ(RefreshUrl("0;urlish.html"), "urlish.html");
  EXPECT_EQ(RefreshUrl("10"), "");  // reloads itself
  EXPECT_EQ(RefreshUrl("10;  "), "");
  EXPECT_EQ(RefreshUrl("url=x.html"), "");  // no delay
  EXPECT_EQ(RefreshUrl("5x; url=x.html"), "");
  EXPECT_EQ(RefreshUrl(""), "");
}

TEST(HtmlTest, MetaRefreshIsALink) {
  absl::StatusOr<Document> doc = Parse(
      "<html><head><META HTTP-EQUIV=\"Refresh\" CONTENT=\"2; "
      "URL=../new/home.html\"><meta http-equiv=refresh content=30>"
      "<meta name=description content='moved'></head>"
      "<body>This page has moved.</body></html>",
      "http://example.com/old/home.html");
  ASSERT_TRUE(doc.ok());
  ASSERT_EQ(doc->links.size(), 1u);
  EXPECT_EQ(doc->links[0].url, "http://example.com/new/home.html");
  EXPECT_EQ(doc->links[0].kind, LinkKind::kRefresh);
  EXPECT_EQ(LinkKindName(doc->links[0].kind), "refresh");
  EXPECT_EQ(doc->description, "moved");
}

TEST(HtmlTest, BaseElementChangesResolution) {
  absl::StatusOr<Document> doc = Parse(
      "<html><head><base href='http://other.org/base/'></head>"
      "<body><a href='x.html'>x</a></body></html>",
      "http://example.com/dir/page.html");
  ASSERT_TRUE(doc.ok());
  EXPECT_EQ(doc->base_url, "http://other.org/base/");
  EXPECT_NE(FindLink(*doc, "http://other.org/base/x.html"), nullptr);
}

TEST(HtmlTest, RelativeBaseResolvesAgainstPageUrl) {
  absl::StatusOr<Document> doc =
      Parse("<base href='/root/'><a href='y'>y</a>", "http://example.com/a/b");
  ASSERT_TRUE(doc.ok());
  EXPECT_NE(FindLink(*doc, "http://example.com/root/y"), nullptr);
}

TEST(HtmlTest, WithoutUrlRelativeLinksAreKeptUnresolved) {
  absl::StatusOr<Document> doc =
      Parse("<a href='x/y.html'>rel</a><a href='http://a.com/'>abs</a>");
  ASSERT_TRUE(doc.ok());
  ASSERT_EQ(doc->links.size(), 2u);
  EXPECT_EQ(doc->links[0].url, "x/y.html");
  EXPECT_FALSE(doc->links[0].resolved);
  EXPECT_EQ(doc->links[1].url, "http://a.com/");
  EXPECT_TRUE(doc->links[1].resolved);
}

// A resolved link carries its URL parsed (what the crawl canonicalises and
// keys it from): the same URL as parsing `url` again gives. ParsedUrl gives
// it, parses a link made without it, and gives null for a link that does
// not parse.
TEST(HtmlTest, ResolvedLinksCarryTheirUrlParsed) {
  absl::StatusOr<Document> doc = Parse(
      "<a href='../B/%7euser/x.HTML?q=1#f'>x</a><a href='y.html'>y</a>"
      "<a href='HTTP://Other.ORG:80/z'>z</a>",
      "http://example.com/dir/sub/page.html");
  ASSERT_TRUE(doc.ok()) << doc.status();
  ASSERT_EQ(doc->links.size(), 3u);
  for (const Link& l : doc->links) {
    ASSERT_TRUE(l.parsed.has_value()) << l.url;
    EXPECT_EQ(l.parsed->spec(), l.url);
    absl::StatusOr<url::Url> again = url::Parse(l.url);
    ASSERT_TRUE(again.ok()) << l.url;
    EXPECT_EQ(*again, *l.parsed);
    EXPECT_EQ(again->host(), l.parsed->host());
    EXPECT_EQ(again->path(), l.parsed->path());
    std::optional<url::Url> storage;
    EXPECT_EQ(ParsedUrl(l, &storage), &*l.parsed);
    EXPECT_FALSE(storage.has_value());
  }
  EXPECT_EQ(doc->links[2].url, "http://other.org/z");

  Link made;
  made.url = "http://Example.com/a/../b";
  std::optional<url::Url> storage;
  const url::Url* u = ParsedUrl(made, &storage);
  ASSERT_NE(u, nullptr);
  EXPECT_EQ(u->spec(), "http://example.com/b");
  Link relative;
  relative.url = "x/y.html";
  relative.resolved = false;
  EXPECT_EQ(ParsedUrl(relative, &storage), nullptr);
}

TEST(HtmlTest, NodesAreInDocumentOrderWithParentsFirst) {
  absl::StatusOr<Document> doc =
      Parse("<div><p>one <b>two</b></p><p>three</p></div>");
  ASSERT_TRUE(doc.ok());
  ASSERT_FALSE(doc->nodes.empty());
  EXPECT_EQ(doc->nodes[0].tag, "html");
  std::string texts;
  for (size_t i = 0; i < doc->nodes.size(); ++i) {
    const Node& n = doc->nodes[i];
    if (i > 0) {
      EXPECT_LT(n.parent, static_cast<int32_t>(i));
    }
    if (n.kind == Node::Kind::kText) texts += n.text + "|";
  }
  EXPECT_EQ(texts, "one |two|three|");
}

TEST(HtmlTest, ScriptAndStyleTextIsNotPageText) {
  absl::StatusOr<Document> doc = Parse(
      "<style>body{color:red}</style><script>var x = '<b>no</b>';</script>"
      "<p>visible</p><!-- comment -->");
  ASSERT_TRUE(doc.ok());
  EXPECT_EQ(TextOf(*doc), "visible");
}

TEST(HtmlTest, MediaTypeOfUrl) {
  EXPECT_EQ(MediaTypeOfUrl("http://a/b/song.MP3"), MediaType::kAudio);
  EXPECT_EQ(MediaTypeOfUrl("http://a/b/x.rmvb?x=1"), MediaType::kVideo);
  EXPECT_EQ(MediaTypeOfUrl("http://a/b/x.swf#f"), MediaType::kAnimation);
  EXPECT_EQ(MediaTypeOfUrl("http://a/b/x.html"), MediaType::kNone);
  EXPECT_EQ(MediaTypeOfUrl("http://a/mp3/"), MediaType::kNone);
  EXPECT_EQ(MediaTypeOfUrl("http://a.mp3.example/"), MediaType::kNone);
}

TEST(HtmlTest, NamesUnreadableFile) {
  // Lecture notes, homework and papers as old course pages link them.
  EXPECT_TRUE(NamesUnreadableFile("http://a/cs101/notes3.ps"));
  EXPECT_TRUE(NamesUnreadableFile("http://a/cs101/hw8.PDF"));
  EXPECT_TRUE(NamesUnreadableFile("http://a/cs101/lec19.dvi?v=2"));
  EXPECT_TRUE(NamesUnreadableFile("http://a/pub/paper.ps.gz"));
  EXPECT_TRUE(NamesUnreadableFile("http://a/pub/tools.tar.Z"));
  EXPECT_TRUE(NamesUnreadableFile("http://a/img/logo.gif#top"));
  EXPECT_TRUE(NamesUnreadableFile("http://a/media/talk.mp3"));  // media too
  EXPECT_TRUE(NamesUnreadableFile("http://a/media/intro.swf"));
  // Pages, and names whose dot is not an extension.
  EXPECT_FALSE(NamesUnreadableFile("http://a/cs101/"));
  EXPECT_FALSE(NamesUnreadableFile("http://a/cs101/index.html"));
  EXPECT_FALSE(NamesUnreadableFile("http://a/cgi-bin/view.cgi?f=a.pdf"));
  EXPECT_FALSE(NamesUnreadableFile("http://a/~user"));
  EXPECT_FALSE(NamesUnreadableFile("http://a/notes.txt"));
  EXPECT_FALSE(NamesUnreadableFile("http://a/v1.2/"));
  EXPECT_FALSE(NamesUnreadableFile("http://a/archive.zipped"));
  EXPECT_FALSE(NamesUnreadableFile("http://pdf.example/"));
}

TEST(HtmlTest, CharsetFromHeaderIsUsed) {
  // "物理" in GBK.
  std::string gbk = "<html><body><p>\xce\xef\xc0\xed</p></body></html>";
  absl::StatusOr<Document> doc = Parse(gbk, "", "text/html; charset=gbk");
  ASSERT_TRUE(doc.ok()) << doc.status();
  EXPECT_EQ(doc->charset_source, "http-header");
  bool found = false;
  for (const Node& n : doc->nodes) {
    if (n.kind == Node::Kind::kText && n.text == "物理") found = true;
  }
  EXPECT_TRUE(found);
}

TEST(HtmlTest, HostileInputs) {
  // Empty input: a document with just the root.
  absl::StatusOr<Document> empty = Parse("");
  ASSERT_TRUE(empty.ok());
  EXPECT_GE(empty->nodes.size(), 1u);

  // Oversized input is refused before any work.
  ParseOptions small;
  small.max_input_bytes = 100;
  absl::StatusOr<Document> big =
      Parse(std::string(101, 'a'), "", "", "", small);
  EXPECT_EQ(big.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(big.status().message()), HasSubstr("100-byte limit"));

  // Binary data.
  std::string binary;
  for (int i = 0; i < 4096; ++i)
    binary.push_back(static_cast<char>(i * 7 % 256));
  absl::StatusOr<Document> bin = Parse(binary);
  EXPECT_EQ(bin.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(bin.status().message()), HasSubstr("binary"));

  // Invalid UTF-8 is replaced, not fatal.
  absl::StatusOr<Document> bad =
      Parse("<p>ok \xff\xfe\xc0\xaf bad</p>", "", "text/html; charset=utf-8");
  ASSERT_TRUE(bad.ok());
  EXPECT_GT(bad->invalid_sequences, 0u);

  // An invalid page URL is a clear error.
  EXPECT_FALSE(Parse("<p>x</p>", "ftp://x/").ok());
}

TEST(HtmlTest, DeepNestingIsFlattenedAndTextKept) {
  std::string page;
  for (int i = 0; i < 100000; ++i) page += "<div>";
  page += "deep text";
  for (int i = 0; i < 100000; ++i) page += "</div>";
  absl::StatusOr<Document> doc = Parse(page);
  ASSERT_TRUE(doc.ok());
  ASSERT_FALSE(doc->warnings.empty());
  EXPECT_THAT(doc->warnings[0], HasSubstr("flattened"));
  bool found = false;
  for (const Node& n : doc->nodes) {
    if (n.kind == Node::Kind::kText && n.text == "deep text") found = true;
  }
  EXPECT_TRUE(found);
  EXPECT_LT(doc->nodes.size(), 400u);
}

TEST(HtmlTest, LinkLimit) {
  std::string page;
  for (int i = 0; i < 50; ++i)
    page += "<a href='/" + std::to_string(i) + "'>x</a>";
  ParseOptions options;
  options.max_links = 10;
  absl::StatusOr<Document> doc = Parse(page, "http://a.com/", "", "", options);
  ASSERT_TRUE(doc.ok());
  EXPECT_EQ(doc->links.size(), 10u);
  EXPECT_FALSE(doc->warnings.empty());
}

TEST(HtmlTest, HiddenAndFormFieldTextIsNotPageText) {
  absl::StatusOr<Document> doc = Parse(
      "<p>shown</p><div hidden>tmpl</div><div style='DISPLAY: none'>a</div>"
      "<span style='visibility:hidden'><a href='/h'>b</a></span>"
      "<textarea>typed</textarea><select><option>opt</option></select>",
      "http://example.com/");
  ASSERT_TRUE(doc.ok());
  EXPECT_EQ(TextOf(*doc), "shown");
  // Links inside hidden elements are still links.
  EXPECT_NE(FindLink(*doc, "http://example.com/h"), nullptr);
}

// React's streamed Suspense boundaries (core/html_streamed.h): a hidden
// segment <div hidden id="S:x"> is read where its placeholder <template
// id="B:x"> (or "P:x") stands, as the page's script would move it, and the
// boundary's fallback is dropped.
TEST(HtmlTest, StreamedSegmentIsReadAtItsPlaceholder) {
  absl::StatusOr<Document> doc = Parse(
      "<p>a</p><div><!--$?--><template id=\"B:0\"></template>"
      "<div class=spinner>Loading</div><!--/$--></div><p>c</p>"
      "<div hidden id=\"S:0\"><p>b<a href='/in'>link</a></p></div>"
      "<script>$RC(\"B:0\",\"S:0\")</script>",
      "http://example.com/");
  ASSERT_TRUE(doc.ok());
  EXPECT_EQ(TextOf(*doc), "ablinkc");
  EXPECT_NE(FindLink(*doc, "http://example.com/in"), nullptr);
}

TEST(HtmlTest, StreamedSegmentsNestAndFillPartPlaceholders) {
  // S:1 holds the placeholder of S:2 ("P:" form, no fallback) and of S:3
  // (with a fallback); S:1 comes after S:2 in the page.
  absl::StatusOr<Document> doc = Parse(
      "<main><!--$?--><template id=\"B:1\"></template><!--/$--></main>"
      "<p>z</p>"
      "<div hidden id=\"S:2\"><b>inner</b></div>"
      "<div hidden id=\"S:1\"><h1>title</h1><template id=\"P:2\">"
      "</template><i>end</i><!--$?--><template id=\"B:3\"></template>"
      "<p>Loading</p><!--/$--></div><div hidden id=\"S:3\">!</div>",
      "http://example.com/");
  ASSERT_TRUE(doc.ok());
  EXPECT_EQ(TextOf(*doc), "titleinnerend!z");
}

TEST(HtmlTest, StreamedSegmentWithoutPlaceholderStaysHidden) {
  // No placeholder for S:5; a <template> of another id is inert; a
  // segment that holds its own placeholder is read once.
  absl::StatusOr<Document> doc = Parse(
      "<p>a</p><template id=\"B:9\">t</template>"
      "<div hidden id=\"S:5\">orphan</div>"
      "<template id=\"B:7\"></template>"
      "<div hidden id=\"S:7\">x<template id=\"B:7\"></template>y</div>"
      "<div hidden id=\"other\">z</div>",
      "http://example.com/");
  ASSERT_TRUE(doc.ok());
  EXPECT_EQ(TextOf(*doc), "axy");
}

TEST(HtmlTest, StreamedBoundaryTakesTheSegmentItsScriptNames) {
  // React numbers boundaries and segments apart: $RC("B:0","S:1") says
  // that S:1 completes B:0; S:0 is the part P:0 stands for.
  absl::StatusOr<Document> doc = Parse(
      "<div><!--$?--><template id=\"B:0\"></template><!--/$--></div>"
      "<div hidden id=\"S:1\"><p>boundary</p><template id=\"P:0\">"
      "</template></div><div hidden id=\"S:0\"><p>part</p></div>"
      "<script>$RC(\"B:0\",\"S:1\")</script>",
      "http://example.com/");
  ASSERT_TRUE(doc.ok());
  EXPECT_EQ(TextOf(*doc), "boundarypart");
}

TEST(HtmlTest, StreamedSegmentsKeepTheirLinksAndTheFirstOfAnIdCounts) {
  // S:7's only placeholder is inside S:7: it stays hidden where it stands,
  // its link kept. Of two S:1, the first completes P:1.
  absl::StatusOr<Document> doc = Parse(
      "<p>a</p><template id=\"P:1\"></template>"
      "<div hidden id=\"S:7\">x<template id=\"B:7\"></template>"
      "<a href='/k'>k</a></div>"
      "<div hidden id=\"S:1\">first</div><div hidden id=\"S:1\">second</div>",
      "http://example.com/");
  ASSERT_TRUE(doc.ok());
  EXPECT_EQ(TextOf(*doc), "afirst");
  EXPECT_NE(FindLink(*doc, "http://example.com/k"), nullptr);
}

TEST(HtmlTest, StreamedFallbackEndsAtItsOwnBoundaryEnd) {
  // The fallback holds a finished boundary of its own (<!--$-->...<!--/$-->):
  // the whole fallback goes, what follows the boundary stays.
  absl::StatusOr<Document> doc = Parse(
      "<div><!--$?--><template id=\"B:0\"></template><!--$--><p>in</p>"
      "<!--/$--><p>spin</p><!--/$--><p>after</p></div>"
      "<div hidden id=\"S:0\">X</div>",
      "http://example.com/");
  ASSERT_TRUE(doc.ok());
  EXPECT_EQ(TextOf(*doc), "Xafter");
}

TEST(HtmlTest, ManyStreamedBoundariesWithoutEndsStayLinear) {
  // 100,000 sibling placeholders and no <!--/$-->: a fallback scan that
  // started again at each one would take minutes.
  std::string page = "<div>";
  for (int i = 0; i < 100000; ++i) page += "<template id=\"B:1\"></template>";
  page += "</div><div hidden id=\"S:1\">z</div>";
  absl::StatusOr<Document> doc = Parse(page, "http://example.com/");
  ASSERT_TRUE(doc.ok());
  EXPECT_EQ(TextOf(*doc), "z");
}

TEST(HtmlTest, StreamedSegmentAtAHiddenPlaceholderIsHidden) {
  absl::StatusOr<Document> doc = Parse(
      "<p>a</p><div style='display:none'><template id=\"B:0\"></template>"
      "</div><div hidden id=\"S:0\">secret<a href='/s'>s</a></div>",
      "http://example.com/");
  ASSERT_TRUE(doc.ok());
  EXPECT_EQ(TextOf(*doc), "a");
  EXPECT_NE(FindLink(*doc, "http://example.com/s"), nullptr);
}

// A tag manager's <noscript><iframe ... /></noscript>: "/>" closes no
// iframe, and without core/html_noscript.h the rest of the page was the
// iframe's text.
TEST(HtmlTest, RawTextLeftOpenInNoscriptEndsWithIt) {
  absl::StatusOr<Document> doc = Parse(
      "<p>a</p><NOSCRIPT><iframe src='/ns.html' height='0' "
      "style='display:none' /></noscript><p>b<a href='/b'>c</a></p>"
      "<noscript><textarea>t</noscript><p>d</p>",
      "http://example.com/");
  ASSERT_TRUE(doc.ok());
  EXPECT_EQ(TextOf(*doc), "abcd");
  EXPECT_NE(FindLink(*doc, "http://example.com/b"), nullptr);
  EXPECT_NE(FindLink(*doc, "http://example.com/ns.html"), nullptr);
}

TEST(HtmlTest, ClosedRawTextInNoscriptIsLeftAsItIs) {
  // Closed elements, a name that only starts like one (<iframes>), and an
  // unclosed <noscript> are not touched.
  absl::StatusOr<Document> doc = Parse(
      "<noscript><iframe src='/f'></iframe><style>x</style></noscript>"
      "<p>a</p><noscript><iframes></noscript><p>b</p><noscript><p>c",
      "http://example.com/");
  ASSERT_TRUE(doc.ok());
  EXPECT_EQ(TextOf(*doc), "ab");
}

TEST(HtmlTest, NoscriptFallbackIsNotPageText) {
  absl::StatusOr<Document> doc = Parse(
      "<p>shown</p><noscript>&lt;object classid=\"clsid:D27\"&gt; "
      "<p>Please enable <a "
      "href='/js'>JavaScript</a></p></noscript><p>after</p>",
      "http://example.com/");
  ASSERT_TRUE(doc.ok());
  EXPECT_EQ(TextOf(*doc), "shownafter");
  EXPECT_NE(FindLink(*doc, "http://example.com/js"), nullptr);
}

// A single-page application that shows nothing without scripts serves its
// text in a <noscript> (a Discourse forum thread: every post is there).
// When the <noscript> text is most of the page's text, and not a few
// words, it is page text.
TEST(HtmlTest, NoscriptThatHoldsThePageIsPageText) {
  std::string posts;
  for (int i = 0; i < 12; ++i) {
    absl::StrAppend(&posts, "<div class='post'><p>Post ", i,
                    ": the certificate renews by itself every sixty "
                    "days.</p></div>");
  }
  const std::string page =
      "<html><head><title>Thread</title></head><body><div id='app'>"
      "Loading</div><noscript><h1>Thread</h1>" +
      posts + "<a href='/t/2'>Next</a></noscript><script>app()</script>" +
      "</body></html>";
  absl::StatusOr<Document> doc = Parse(page, "http://example.com/");
  ASSERT_TRUE(doc.ok());
  const std::string text = TextOf(*doc);
  EXPECT_THAT(text, HasSubstr("Post 0: the certificate"));
  EXPECT_THAT(text, HasSubstr("Post 11: the certificate"));
  EXPECT_THAT(text, HasSubstr("Loading"));
  EXPECT_EQ(doc->title, "Thread");
  EXPECT_NE(FindLink(*doc, "http://example.com/t/2"), nullptr);
  // The same posts outside the <noscript> as well: its copy stays hidden.
  const std::string rendered = "<html><body>" + posts + "<noscript>" + posts +
                               "</noscript></body></html>";
  doc = Parse(rendered, "http://example.com/");
  ASSERT_TRUE(doc.ok());
  const std::string once = TextOf(*doc);
  EXPECT_EQ(once.find("Post 0:"), once.rfind("Post 0:"));
}

// A closed dialog (a <dialog> without `open`, role=dialog or alertdialog)
// is shown only when the reader opens it: a shop's terms of use, a size
// chart. Its text is not page text; its links are still links.
TEST(HtmlTest, ClosedDialogIsNotPageText) {
  std::string terms, description;
  for (int i = 0; i < 12; ++i) {
    absl::StrAppend(&terms, "<p>Clause ", i,
                    ": you will not resell any product bought here.</p>");
    absl::StrAppend(&description, "<p>Soft merino wool, machine washable, ", i,
                    " colours.</p>");
  }
  absl::StatusOr<Document> doc = Parse(
      "<html><body><h1>Wool runner</h1>" + description +
          "<div role='dialog' aria-modal='true'>" + terms +
          "<a href='/terms'>Terms</a></div><dialog><p>Sign up</p></dialog>"
          "<div role=' AlertDialog '><p>Sold out</p></div>"
          "<dialog open><p>Shown</p></dialog></body></html>",
      "http://example.com/");
  ASSERT_TRUE(doc.ok());
  const std::string text = TextOf(*doc);
  EXPECT_THAT(text, HasSubstr("Soft merino wool"));
  EXPECT_THAT(text, Not(HasSubstr("Clause")));
  EXPECT_THAT(text, Not(HasSubstr("Sign up")));
  EXPECT_THAT(text, Not(HasSubstr("Sold out")));
  EXPECT_THAT(text, HasSubstr("Shown"));  // an open <dialog> is rendered
  EXPECT_NE(FindLink(*doc, "http://example.com/terms"), nullptr);
}

// A page that shows next to nothing outside its dialog (a script's shell
// that opens its thread as a modal, or an unclosed <dialog> that runs to
// the end of the body) is the dialog's text.
TEST(HtmlTest, DialogThatHoldsThePageIsPageText) {
  std::string posts;
  for (int i = 0; i < 12; ++i) {
    absl::StrAppend(&posts, "<div class='post'><p>Post ", i,
                    ": the certificate renews by itself every sixty "
                    "days.</p></div>");
  }
  absl::StatusOr<Document> doc =
      Parse("<html><body><div id='app'>Loading</div><dialog><h1>Thread</h1>" +
                posts + "</body></html>",
            "http://example.com/");
  ASSERT_TRUE(doc.ok());
  const std::string text = TextOf(*doc);
  EXPECT_THAT(text, HasSubstr("Post 0: the certificate"));
  EXPECT_THAT(text, HasSubstr("Loading"));
}

}  // namespace
}  // namespace fcrawl::html
