#include "protocol/canonical.h"

#include <optional>
#include <string>
#include <vector>

#include "core/html.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace fcrawl::protocol {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

html::Document Doc(const std::string& html,
                   const std::string& url = "http://www.a.test/dir/page.html") {
  absl::StatusOr<html::Document> d = html::ParseUtf8(html, url);
  EXPECT_TRUE(d.ok()) << d.status();
  return *std::move(d);
}

TEST(CanonicalTest, LinkHeaders) {
  EXPECT_THAT(HeaderCanonicals("HTTP/1.1 200 OK\r\n"
                               "Link: <http://a.test/x>; rel=\"canonical\"\r\n"
                               "\r\n"),
              ElementsAre("http://a.test/x"));
  // Several link-values in one header, other relations, a quoted comma,
  // an unquoted rel, a relation list, header names in any case.
  EXPECT_THAT(
      HeaderCanonicals("HTTP/1.1 200 OK\n"
                       "link: </style.css>; rel=preload; title=\"a, b\", "
                       "</c1>; rel=canonical\n"
                       "LINK: </c2>; rel=\"alternate canonical\"\n"
                       "Link: </next>; rel=next\n"),
      ElementsAre("/c1", "/c2"));
  EXPECT_THAT(HeaderCanonicals("HTTP/1.1 200 OK\nLink: <http://a.test/x\n"),
              IsEmpty());  // no closing '>'
  EXPECT_THAT(
      HeaderCanonicals("HTTP/1.1 200 OK\nX-Link: </x>; rel=canonical\n"),
      IsEmpty());
  EXPECT_THAT(HeaderCanonicals(""), IsEmpty());
}

TEST(CanonicalTest, LinkElementsInTheHeadOnly) {
  EXPECT_THAT(
      DocumentCanonicals(Doc("<html><head><link rel=stylesheet href=s.css>"
                             "<link rel=\"Canonical\" href=\"/c.html\"></head>"
                             "<body><p>text</p></body></html>")),
      ElementsAre("/c.html"));
  // A canonical a page's user content puts in the body is not the page's.
  EXPECT_THAT(DocumentCanonicals(Doc("<html><head><title>t</title></head>"
                                     "<body><p>post</p><link rel=canonical "
                                     "href=http://www.a.test/mine></body>")),
              IsEmpty());
  EXPECT_THAT(DocumentCanonicals(Doc("<link rel=canonical>")), IsEmpty());
}

TEST(CanonicalTest, DeclaredCanonicalResolvesAndChecks) {
  const std::string page = "http://www.a.test/dir/page.html";
  // Relative to the page, normalised (default port, case of the host).
  EXPECT_EQ(DeclaredCanonical(Doc("<head><link rel=canonical "
                                  "href=\"HTTP://WWW.A.TEST:80/dir/c.html#x\">"
                                  "</head>"),
                              "", page),
            "http://www.a.test/dir/c.html");
  EXPECT_EQ(
      DeclaredCanonical(
          Doc("<head><link rel=canonical href=\"c.html\"></head>"), "", page),
      "http://www.a.test/dir/c.html");
  // <base> moves what the element resolves against, not the header.
  EXPECT_EQ(
      DeclaredCanonical(Doc("<head><base href=\"http://www.a.test/b/\">"
                            "<link rel=canonical href=\"c.html\"></head>"),
                        "", page),
      "http://www.a.test/b/c.html");
  EXPECT_EQ(DeclaredCanonical(
                Doc("<p>x"), "HTTP/1.1 200 OK\nLink: <c.html>; rel=canonical\n",
                page),
            "http://www.a.test/dir/c.html");
  // Another host of the same registrable domain is accepted.
  EXPECT_EQ(DeclaredCanonical(Doc("<head><link rel=canonical "
                                  "href=\"https://a.test/p\"></head>"),
                              "", page),
            "https://a.test/p");
  // Header and element agreeing are one declaration.
  EXPECT_EQ(DeclaredCanonical(
                Doc("<head><link rel=canonical href=\"/dir/c.html\"></head>"),
                "HTTP/1.1 200 OK\nLink: </dir/c.html>; rel=canonical\n", page),
            "http://www.a.test/dir/c.html");
}

TEST(CanonicalTest, DeclarationsNotTrusted) {
  const std::string page = "http://www.a.test/dir/page.html";
  // Another site's URL: a page must not claim it.
  EXPECT_EQ(DeclaredCanonical(Doc("<head><link rel=canonical "
                                  "href=\"http://www.b.test/p\"></head>"),
                              "", page),
            std::nullopt);
  // Two declarations that disagree.
  EXPECT_EQ(DeclaredCanonical(
                Doc("<head><link rel=canonical href=/x><link rel=canonical "
                    "href=/y></head>"),
                "", page),
            std::nullopt);
  EXPECT_EQ(
      DeclaredCanonical(Doc("<head><link rel=canonical href=/x></head>"),
                        "HTTP/1.1 200 OK\nLink: </y>; rel=canonical\n", page),
      std::nullopt);
  // Not http(s); unusable.
  EXPECT_EQ(DeclaredCanonical(Doc("<head><link rel=canonical "
                                  "href=\"ftp://www.a.test/p\"></head>"),
                              "", page),
            std::nullopt);
  EXPECT_EQ(DeclaredCanonical(Doc("<head><link rel=canonical "
                                  "href=\"http://[::1\"></head>"),
                              "", page),
            std::nullopt);
  EXPECT_EQ(
      DeclaredCanonical(Doc("<head><title>none</title></head>"), "", page),
      std::nullopt);
  EXPECT_EQ(DeclaredCanonical(Doc("<head><link rel=canonical href=/x></head>"),
                              "", "not a url"),
            std::nullopt);
}

}  // namespace
}  // namespace fcrawl::protocol
