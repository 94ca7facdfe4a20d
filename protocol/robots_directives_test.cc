#include "protocol/robots_directives.h"

#include <string>

#include "core/html.h"
#include "gtest/gtest.h"

namespace fcrawl::protocol {
namespace {

RobotsDirectives List(absl::string_view list) {
  RobotsDirectives d;
  AddDirectiveList(list, &d);
  return d;
}

TEST(RobotsDirectivesTest, DirectiveLists) {
  EXPECT_TRUE(List("noindex").noindex);
  EXPECT_FALSE(List("noindex").nofollow);
  EXPECT_TRUE(List(" NoFollow ").nofollow);
  const RobotsDirectives none = List("none");
  EXPECT_TRUE(none.noindex && none.nofollow);
  const RobotsDirectives both = List("noindex,nofollow");
  EXPECT_TRUE(both.noindex && both.nofollow);
  for (absl::string_view harmless :
       {"", "all", "index, follow", "noarchive, max-snippet:20", "noindexx",
        "no index", ",,,"}) {
    const RobotsDirectives d = List(harmless);
    EXPECT_FALSE(d.noindex || d.nofollow) << harmless;
  }
}

html::Document Doc(const std::string& html) {
  absl::StatusOr<html::Document> d =
      html::ParseUtf8(html, "http://a.test/page.html");
  EXPECT_TRUE(d.ok()) << d.status();
  return *std::move(d);
}

TEST(RobotsDirectivesTest, MetaRobotsAndTheCrawlersOwnName) {
  RobotsDirectives d = MetaDirectives(
      Doc("<html><head><meta name=ROBOTS content='noindex'></head></html>"),
      "fcrawl");
  EXPECT_TRUE(d.noindex);
  EXPECT_FALSE(d.nofollow);
  // Named after this crawler, or after another one (ignored).
  d = MetaDirectives(Doc("<meta name='fcrawl' content='nofollow'>"
                         "<meta name='googlebot' content='noindex'>"),
                     "fcrawl");
  EXPECT_FALSE(d.noindex);
  EXPECT_TRUE(d.nofollow);
  // Directives add up over several elements; a meta in the body counts
  // (parsers move it there when the head is broken).
  d = MetaDirectives(Doc("<meta name=robots content=noindex><p>x</p>"
                         "<meta name=robots content=nofollow>"),
                     "fcrawl");
  EXPECT_TRUE(d.noindex && d.nofollow);
  // No content, no name, other names: nothing.
  d = MetaDirectives(Doc("<meta name=robots><meta content=none>"
                         "<meta name=description content=none>"),
                     "fcrawl");
  EXPECT_FALSE(d.noindex || d.nofollow);
}

TEST(RobotsDirectivesTest, XRobotsTagHeaders) {
  const std::string head =
      "HTTP/1.1 200 OK\r\n"
      "Content-Type: text/html\r\n"
      "x-robots-tag: noarchive\r\n"
      "X-Robots-Tag: googlebot: noindex\r\n"
      "X-Robots-Tag: unavailable_after: 25 Jun 2010 15:00:00 PST\r\n"
      "\r\n";
  RobotsDirectives d = HeaderDirectives(head, "fcrawl");
  EXPECT_FALSE(d.noindex || d.nofollow);  // googlebot's is not ours
  d = HeaderDirectives(head + "X-Robots-Tag: FCrawl: none\r\n", "fcrawl");
  EXPECT_TRUE(d.noindex && d.nofollow);
  d = HeaderDirectives("HTTP/1.1 200 OK\nX-Robots-Tag: noindex, nofollow\n\n",
                       "fcrawl");
  EXPECT_TRUE(d.noindex && d.nofollow);
  // A directive list with a valued directive first is not a crawler name.
  d = HeaderDirectives("X-Robots-Tag: max-snippet: 0, noindex\r\n", "fcrawl");
  EXPECT_TRUE(d.noindex);
  // The header name must be exact; a body-like line is not a header.
  d = HeaderDirectives("X-Robots: noindex\r\nX-Robots-Tagged: noindex\r\n",
                       "fcrawl");
  EXPECT_FALSE(d.noindex);
}

TEST(RobotsDirectivesTest, RelNofollowOnAnchorsAndAreasOnly) {
  const html::Document doc =
      Doc("<a href=/a rel='external nofollow'>a</a>"
          "<a href=/b rel=UGC>b</a>"
          "<a href=/c rel=sponsored>c</a>"
          "<a href=/d rel=noopener>d</a>"
          "<a href=/e>e</a>"
          "<map><area href=/f rel=nofollow alt=f></map>"
          "<a href=/g rel=nofollowed>g</a>"
          "<img src=/h.png rel=nofollow>");
  std::string followed;
  for (const html::Link& l : doc.links) {
    if (!RelNofollow(doc, l)) followed += l.url.substr(l.url.rfind('/') + 1);
  }
  EXPECT_EQ(followed, "bcdegh.png");  // ugc, sponsored: hints only
  html::Link outside;
  outside.node = 99999;
  EXPECT_FALSE(RelNofollow(doc, outside));
}

}  // namespace
}  // namespace fcrawl::protocol
