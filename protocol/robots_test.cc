#include "protocol/robots.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace fcrawl::protocol {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::Optional;

constexpr absl::string_view kAgent = "fcrawl";

bool Allowed(absl::string_view robots, absl::string_view path,
             absl::string_view agent = kAgent) {
  return RobotsRules::Parse(robots).IsAllowed(agent, path);
}

// Checks every path of `allowed` and `disallowed` against `rules`.
void ExpectPaths(const RobotsRules& rules, absl::string_view agent,
                 const std::vector<std::string>& allowed,
                 const std::vector<std::string>& disallowed) {
  for (const std::string& path : allowed) {
    EXPECT_TRUE(rules.IsAllowed(agent, path)) << agent << " " << path;
  }
  for (const std::string& path : disallowed) {
    EXPECT_FALSE(rules.IsAllowed(agent, path)) << agent << " " << path;
  }
}

double MillisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - start)
      .count();
}

// RFC 9309 §5.1.
TEST(RobotsTest, RfcSimpleExample) {
  const RobotsRules rules = RobotsRules::Parse(
      "User-Agent: *\n"
      "Disallow: *.gif$\n"
      "Disallow: /example/\n"
      "Allow: /publications/\n"
      "\n"
      "User-Agent: foobot\n"
      "Disallow:/\n"
      "Allow:/example/page.html\n"
      "Allow:/example/allowed.gif\n"
      "\n"
      "User-Agent: barbot\n"
      "User-Agent: bazbot\n"
      "Disallow: /example/page.html\n"
      "\n"
      "User-Agent: quxbot\n"
      "\n"
      "EOF\n");
  ExpectPaths(rules, "foobot", {"/example/page.html", "/example/allowed.gif"},
              {"/", "/example/", "/example/page.htm", "/publications/"});
  for (const char* agent : {"barbot", "bazbot"}) {
    ExpectPaths(rules, agent, {"/", "/example/", "/a.gif", "/example/page.htm"},
                {"/example/page.html", "/example/page.html?x"});
  }
  ExpectPaths(rules, "quxbot",
              {"/", "/example/", "/a.gif", "/example/page.html"}, {});
  ExpectPaths(rules, "otherbot", {"/", "/publications/", "/a.gif?x", "/gif"},
              {"/a.gif", "/x/y.gif", "/example/", "/example/page.html"});
  EXPECT_EQ(rules.skipped_lines(), 1u);  // "EOF".
}

// RFC 9309 §5.2.
TEST(RobotsTest, RfcLongestMatch) {
  const RobotsRules rules = RobotsRules::Parse(
      "User-Agent: foobot\n"
      "Allow: /example/page/\n"
      "Disallow: /example/page/disallowed.gif\n");
  ExpectPaths(rules, "foobot", {"/example/page/", "/example/page/ok.gif"},
              {"/example/page/disallowed.gif"});
}

TEST(RobotsTest, LongestMatchIsOrderIndependent) {
  const RobotsRules rules = RobotsRules::Parse(
      "user-agent: *\n"
      "disallow: /a/b/c\n"
      "allow: /a\n"
      "disallow: /\n");
  ExpectPaths(rules, kAgent, {"/a", "/a/b", "/ax"}, {"/", "/b", "/a/b/c/d"});
}

TEST(RobotsTest, AllowWinsTies) {
  EXPECT_TRUE(
      Allowed("user-agent: *\ndisallow: /page\nallow: /page\n", "/page.html"));
  EXPECT_TRUE(
      Allowed("user-agent: *\nallow: /page\ndisallow: /page\n", "/page.html"));
  // Same length, one with a wildcard.
  EXPECT_TRUE(
      Allowed("user-agent: *\ndisallow: /fold*\nallow: /folde\n", "/folder/x"));
  // "allow: /$" (3 octets with the '$') beats "disallow: /" only on "/".
  const RobotsRules rules =
      RobotsRules::Parse("user-agent: *\nallow: /$\ndisallow: /\n");
  ExpectPaths(rules, kAgent, {"/"}, {"/page", "/?q"});
}

TEST(RobotsTest, EmptyDisallowAllowsEverything) {
  EXPECT_TRUE(Allowed("user-agent: *\ndisallow:\n", "/anything"));
  EXPECT_TRUE(Allowed("user-agent: *\ndisallow:   # nothing\n", "/"));
  // The empty rule still closes the user-agent run: b gets its own group.
  const RobotsRules rules = RobotsRules::Parse(
      "user-agent: a\ndisallow:\nuser-agent: b\ndisallow: /\n");
  EXPECT_TRUE(rules.IsAllowed("a", "/x"));
  EXPECT_FALSE(rules.IsAllowed("b", "/x"));
}

TEST(RobotsTest, NoRobotsRulesAllowEverything) {
  EXPECT_TRUE(RobotsRules().IsAllowed(kAgent, "/x"));
  EXPECT_TRUE(Allowed("", "/x"));
  EXPECT_TRUE(Allowed("user-agent: other\ndisallow: /\n", "/x"));
}

// Google's documented examples
// (developers.google.com/search/docs/crawling-indexing/robots/robots_txt).
TEST(RobotsTest, GooglePathExamples) {
  auto rules = [](absl::string_view pattern) {
    return RobotsRules::Parse(
        absl::StrCat("user-agent: *\ndisallow: ", pattern, "\n"));
  };
  // "Matches" are disallowed, "does not match" stay allowed.
  ExpectPaths(rules("/"), kAgent, {}, {"/", "/x", "/?q"});
  ExpectPaths(rules("/*"), kAgent, {}, {"/", "/x", "/?q"});
  ExpectPaths(rules("/$"), kAgent, {"/page.htm", "/?s=x"}, {"/"});
  ExpectPaths(rules("/fish"), kAgent,
              {"/Fish.asp", "/catfish", "/?id=fish", "/desert/fish"},
              {"/fish", "/fish.html", "/fish/salmon.html", "/fishheads",
               "/fishheads/yummy.html", "/fish.php?id=anything"});
  ExpectPaths(rules("/fish*"), kAgent,
              {"/Fish.asp", "/catfish", "/?id=fish", "/desert/fish"},
              {"/fish", "/fish.html", "/fish/salmon.html", "/fishheads",
               "/fishheads/yummy.html", "/fish.php?id=anything"});
  ExpectPaths(rules("/fish/"), kAgent,
              {"/fish", "/fish.html", "/animals/fish/", "/Fish/Salmon.asp"},
              {"/fish/", "/fish/?id=anything", "/fish/salmon.htm"});
  ExpectPaths(rules("/*.php"), kAgent, {"/", "/windows.PHP"},
              {"/index.php", "/filename.php", "/folder/filename.php",
               "/folder/filename.php?parameters", "/folder/any.php.file.html",
               "/filename.php/"});
  ExpectPaths(rules("/*.php$"), kAgent,
              {"/filename.php?parameters", "/filename.php/", "/filename.php5",
               "/windows.PHP"},
              {"/filename.php", "/folder/filename.php"});
  ExpectPaths(rules("/fish*.php"), kAgent, {"/Fish.PHP"},
              {"/fish.php", "/fishheads/catfish.php?parameters"});
}

TEST(RobotsTest, WildcardsAndAnchors) {
  ExpectPaths(RobotsRules::Parse("user-agent: *\ndisallow: /*?\n"), kAgent,
              {"/a", "/a/b"}, {"/a?", "/a?b=1", "/?"});
  ExpectPaths(RobotsRules::Parse("user-agent: *\ndisallow: /a**b***c$\n"),
              kAgent, {"/ac", "/abcd", "/abc?"},
              {"/abc", "/axxbyyc", "/abcbc"});
  // '$' is only special at the end.
  ExpectPaths(RobotsRules::Parse("user-agent: *\ndisallow: /a$b\n"), kAgent,
              {"/a", "/ab"}, {"/a$b", "/a$bc"});
  // A pattern without a leading '/' is taken as starting with one.
  ExpectPaths(RobotsRules::Parse("user-agent: *\ndisallow: private\n"), kAgent,
              {"/public"}, {"/private/x"});
}

TEST(RobotsTest, PathWithoutLeadingSlash) {
  const RobotsRules rules =
      RobotsRules::Parse("user-agent: *\nallow: /$\ndisallow: /\n");
  EXPECT_TRUE(rules.IsAllowed(kAgent, ""));
  EXPECT_FALSE(rules.IsAllowed(kAgent, "?q=1"));
}

TEST(RobotsTest, GroupsForTheSameAgentAreMerged) {
  const RobotsRules rules = RobotsRules::Parse(
      "user-agent: fcrawl\n"
      "disallow: /a\n"
      "\n"
      "user-agent: other\n"
      "disallow: /\n"
      "\n"
      "user-agent: FCrawl\n"
      "disallow: /b\n"
      "allow: /a/ok\n");
  ExpectPaths(rules, kAgent, {"/", "/c", "/a/ok"}, {"/a", "/b/x"});
  ExpectPaths(rules, "other", {}, {"/c"});
}

TEST(RobotsTest, StarGroupsAreMerged) {
  const RobotsRules rules = RobotsRules::Parse(
      "user-agent: *\ndisallow: /a\n"
      "user-agent: other\ndisallow: /\n"
      "user-agent: *\ndisallow: /b\n");
  ExpectPaths(rules, kAgent, {"/c"}, {"/a", "/b"});
}

TEST(RobotsTest, SpecificAgentReplacesStar) {
  const RobotsRules rules = RobotsRules::Parse(
      "user-agent: *\n"
      "disallow: /\n"
      "crawl-delay: 10\n"
      "\n"
      "user-agent: fcrawl\n"
      "disallow: /private\n");
  ExpectPaths(rules, kAgent, {"/", "/public"}, {"/private"});
  ExpectPaths(rules, "otherbot", {}, {"/", "/public"});
  EXPECT_EQ(rules.CrawlDelay(kAgent), std::nullopt);
  EXPECT_THAT(rules.CrawlDelay("otherbot"), Optional(10.0));
  // An empty group for the agent still replaces '*'.
  EXPECT_TRUE(
      Allowed("user-agent: *\ndisallow: /\nuser-agent: fcrawl\n", "/x"));
}

TEST(RobotsTest, UserAgentMatchingUsesProductTokens) {
  const RobotsRules rules = RobotsRules::Parse(
      "user-agent: FCrawl/2.0 (+http://example.com)\n"
      "disallow: /a\n"
      "user-agent: fcrawler\n"
      "disallow: /b\n"
      "user-agent: fcrawl-images\n"
      "disallow: /c\n");
  for (const char* agent : {"fcrawl", "FCRAWL", "fcrawl/1.0", "FcRaWl"}) {
    ExpectPaths(rules, agent, {"/b", "/c"}, {"/a"});
  }
  ExpectPaths(rules, "fcrawler", {"/a", "/c"}, {"/b"});
  ExpectPaths(rules, "fcrawl-images", {"/a", "/b"}, {"/c"});
  // "*x" names no agent; "* " with trailing text is still the global group.
  EXPECT_TRUE(Allowed("user-agent: *x\ndisallow: /\n", "/a"));
  EXPECT_FALSE(Allowed("user-agent: * and more\ndisallow: /\n", "/a"));
}

TEST(RobotsTest, KeysAreCaseInsensitiveAndWhitespaceIsTrimmed) {
  const RobotsRules rules = RobotsRules::Parse(
      "  USER-AGENT  :   FCRAWL  \n"
      "\tDisAllow\t:\t/a\t\n"
      "ALLOW: /a/b \n"
      "Crawl-Delay : 2\n");
  ExpectPaths(rules, kAgent, {"/", "/a/b"}, {"/a"});
  EXPECT_THAT(rules.CrawlDelay(kAgent), Optional(2.0));
  // Misspellings Google accepts too.
  EXPECT_FALSE(Allowed("useragent: *\ndissallow: /a\n", "/a"));
  EXPECT_FALSE(Allowed("user agent: *\ndisalow: /a\n", "/a"));
}

TEST(RobotsTest, Comments) {
  const RobotsRules rules = RobotsRules::Parse(
      "# robots.txt for example.com\n"
      "user-agent: * # everyone\n"
      "# disallow: /commented\n"
      "disallow: /a#fragment\n"
      "disallow: /b # comment\n"
      "#user-agent: fcrawl\n");
  ExpectPaths(rules, kAgent, {"/", "/commented"}, {"/a", "/b", "/bc"});
  EXPECT_EQ(rules.skipped_lines(), 0u);
}

TEST(RobotsTest, ByteOrderMarkIsSkipped) {
  EXPECT_FALSE(Allowed("\xEF\xBB\xBFuser-agent: *\ndisallow: /a\n", "/a"));
  // Only at the start.
  EXPECT_TRUE(
      Allowed("user-agent: *\n\xEF\xBB\xBF"
              "disallow: /a\n",
              "/a"));
}

TEST(RobotsTest, LineEnds) {
  for (const char* eol : {"\n", "\r\n", "\r"}) {
    SCOPED_TRACE(absl::CEscape(eol));
    const RobotsRules rules = RobotsRules::Parse(
        absl::StrCat("user-agent: a", eol, "user-agent: b", eol, "disallow: /x",
                     eol, eol, "user-agent: c", eol, "disallow: /y"));
    ExpectPaths(rules, "a", {"/y"}, {"/x"});
    ExpectPaths(rules, "b", {"/y"}, {"/x"});
    ExpectPaths(rules, "c", {"/x"}, {"/y"});
    EXPECT_EQ(rules.skipped_lines(), 0u);
  }
}

TEST(RobotsTest, RulesBeforeAnyUserAgentAreIgnored) {
  const RobotsRules rules = RobotsRules::Parse(
      "disallow: /x\n"
      "crawl-delay: 5\n"
      "user-agent: *\n"
      "disallow: /y\n");
  ExpectPaths(rules, kAgent, {"/x"}, {"/y"});
  EXPECT_EQ(rules.CrawlDelay(kAgent), std::nullopt);
  EXPECT_EQ(rules.skipped_lines(), 2u);
}

TEST(RobotsTest, SkippedLinesAreCounted) {
  const RobotsRules rules = RobotsRules::Parse(
      "user-agent: *\n"
      "this line has no separator\n"
      "host: example.com\n"
      "disallow: /a\n"
      "sitemap:\n"
      "   \n"
      "# comment\n");
  EXPECT_EQ(rules.skipped_lines(), 3u);
  EXPECT_FALSE(rules.IsAllowed(kAgent, "/a"));
}

TEST(RobotsTest, PercentEncodingEquivalence) {
  // %7E is the unreserved '~': both spellings are the same path.
  for (const char* pattern : {"/%7Ejoe", "/%7ejoe", "/~joe"}) {
    SCOPED_TRACE(pattern);
    const RobotsRules rules =
        RobotsRules::Parse(absl::StrCat("user-agent: *\ndisallow: ", pattern));
    ExpectPaths(rules, kAgent, {"/joe", "/%7E"},
                {"/~joe", "/%7Ejoe", "/%7ejoe/x"});
  }
  // %2F is not '/': they name different resources.
  ExpectPaths(RobotsRules::Parse("user-agent: *\ndisallow: /a%2fb\n"), kAgent,
              {"/a/b"}, {"/a%2fb", "/a%2Fb/c"});
  ExpectPaths(RobotsRules::Parse("user-agent: *\ndisallow: /a/b\n"), kAgent,
              {"/a%2Fb"}, {"/a/b"});
  // A UTF-8 pattern matches the percent-encoded URL and vice versa.
  ExpectPaths(RobotsRules::Parse("user-agent: *\ndisallow: /føø\n"), kAgent,
              {"/foo", "/f%C3%B8"},
              {"/f%C3%B8%C3%B8", "/f%c3%b8%c3%b8/x", "/føø"});
  ExpectPaths(RobotsRules::Parse("user-agent: *\ndisallow: /f%C3%B8%C3%B8\n"),
              kAgent, {"/foo"}, {"/føø", "/f%c3%b8%c3%b8"});
  // A stray '%' is the same as %25.
  ExpectPaths(RobotsRules::Parse("user-agent: *\ndisallow: /100%\n"), kAgent,
              {"/100"}, {"/100%", "/100%25", "/100%zz"});
}

TEST(RobotsTest, RobotsTxtIsAlwaysAllowed) {
  const RobotsRules rules = RobotsRules::Parse(
      "user-agent: *\ndisallow: /\ndisallow: /robots.txt$\n");
  EXPECT_TRUE(rules.IsAllowed(kAgent, "/robots.txt"));
  EXPECT_TRUE(rules.IsAllowed(kAgent, "/robots.txt?x=1"));
  EXPECT_FALSE(rules.IsAllowed(kAgent, "/robots.txt2"));
  EXPECT_FALSE(rules.IsAllowed(kAgent, "/a/robots.txt"));
  EXPECT_TRUE(RobotsRules::DisallowAll().IsAllowed(kAgent, "/robots.txt"));
}

TEST(RobotsTest, CrawlDelay) {
  auto delay = [](absl::string_view value, const RobotsOptions& options = {}) {
    return RobotsRules::Parse(
               absl::StrCat("user-agent: *\ncrawl-delay: ", value, "\n"),
               options)
        .CrawlDelay(kAgent);
  };
  EXPECT_THAT(delay("5"), Optional(5.0));
  EXPECT_THAT(delay("0"), Optional(0.0));
  EXPECT_THAT(delay("0.5"), Optional(0.5));
  EXPECT_THAT(delay(".25"), Optional(0.25));
  EXPECT_THAT(delay("3600"), Optional(60.0));
  EXPECT_THAT(delay("99999999999999999999999"), Optional(60.0));
  RobotsOptions options;
  options.max_crawl_delay_seconds = 2;
  EXPECT_THAT(delay("5", options), Optional(2.0));
  for (const char* bad :
       {"", "abc", "-1", "+1", "1e3", "1.2.3", ".", "5 s", "nan", "inf"}) {
    EXPECT_EQ(delay(bad), std::nullopt) << bad;
  }
  EXPECT_EQ(
      RobotsRules::Parse("user-agent: *\ncrawl-delay: x\n").skipped_lines(),
      1u);
  EXPECT_EQ(
      RobotsRules::Parse("user-agent: *\ndisallow: /\n").CrawlDelay(kAgent),
      std::nullopt);
}

TEST(RobotsTest, CrawlDelayPerGroupTakesTheLargest) {
  const RobotsRules rules = RobotsRules::Parse(
      "user-agent: fcrawl\ncrawl-delay: 3\n"
      "user-agent: other\ncrawl-delay: 30\n"
      "user-agent: fcrawl\ncrawl-delay: 7\ncrawl-delay: 1\n");
  EXPECT_THAT(rules.CrawlDelay(kAgent), Optional(7.0));
  EXPECT_THAT(rules.CrawlDelay("other"), Optional(30.0));
  EXPECT_EQ(rules.CrawlDelay("nobody"), std::nullopt);
  // Crawl-delay closes a user-agent run like a rule does.
  const RobotsRules split = RobotsRules::Parse(
      "user-agent: *\ncrawl-delay: 10\nuser-agent: fcrawl\ndisallow: /x\n");
  EXPECT_EQ(split.CrawlDelay(kAgent), std::nullopt);
  EXPECT_TRUE(split.IsAllowed("other", "/x"));
}

TEST(RobotsTest, Sitemaps) {
  const RobotsRules rules = RobotsRules::Parse(
      "Sitemap: http://example.com/a.xml\n"
      "user-agent: a\n"
      "sitemap: http://example.com/b.xml # comment\n"
      "user-agent: b\n"
      "disallow: /x\n"
      "SITEMAP:https://example.com/c.xml\n");
  EXPECT_THAT(rules.sitemaps(), ElementsAre("http://example.com/a.xml",
                                            "http://example.com/b.xml",
                                            "https://example.com/c.xml"));
  // A sitemap line does not split the user-agent run.
  EXPECT_FALSE(rules.IsAllowed("a", "/x"));
  EXPECT_FALSE(rules.IsAllowed("b", "/x"));
  EXPECT_THAT(RobotsRules::Parse("user-agent: *\n").sitemaps(), IsEmpty());
}

TEST(RobotsTest, RobotsForStatus) {
  const std::string body = "user-agent: *\ndisallow: /private\n";
  const RobotsRules ok = RobotsForStatus(200, body);
  ExpectPaths(ok, kAgent, {"/public"}, {"/private"});
  ExpectPaths(RobotsForStatus(204, body), kAgent, {"/public"}, {"/private"});
  for (int status : {404, 403, 401, 410, 429, 301}) {
    SCOPED_TRACE(status);
    ExpectPaths(RobotsForStatus(status, body), kAgent, {"/", "/private"}, {});
  }
  for (int status : {503, 500, 599, 0, 100, -1, 600}) {
    SCOPED_TRACE(status);
    const RobotsRules rules = RobotsForStatus(status, body);
    ExpectPaths(rules, kAgent, {"/robots.txt"}, {"/", "/public", "/private"});
  }
}

TEST(RobotsTest, AllowAllAndDisallowAll) {
  ExpectPaths(RobotsRules::AllowAll(), kAgent, {"/", "/x?y"}, {});
  ExpectPaths(RobotsRules::DisallowAll(), "anybot", {"/robots.txt"},
              {"/", "/x?y", ""});
}

TEST(RobotsTest, RandomBytesDoNotCrash) {
  std::mt19937 rng(42);
  std::string junk(1 << 20, '\0');
  for (char& c : junk) c = static_cast<char>(rng());
  const auto start = std::chrono::steady_clock::now();
  const RobotsRules rules = RobotsRules::Parse(junk);
  EXPECT_TRUE(rules.truncated());
  EXPECT_TRUE(rules.IsAllowed(kAgent, "/"));
  EXPECT_TRUE(rules.IsAllowed(kAgent, "/some/path?q=1"));
  // Time is the feature (parsing is linear): generous for a loaded machine,
  // far below what a superlinear parser would take on a megabyte.
  EXPECT_LT(MillisecondsSince(start), 30000);
  // Random text-like bytes (more separators and keys).
  const std::string alphabet = "ua:/*$#% \r\n\tDIsallow-gent";
  std::string text(1 << 20, ' ');
  for (char& c : text) c = alphabet[rng() % alphabet.size()];
  const RobotsRules text_rules = RobotsRules::Parse(text);
  text_rules.IsAllowed(kAgent, "/ua/*$%");
  EXPECT_LT(MillisecondsSince(start), 2000);
}

TEST(RobotsTest, BodyBeyondMaxBytesIsIgnored) {
  std::string body = "user-agent: *\ndisallow: /early\n";
  while (body.size() < 600 * 1024) body += "# padding padding padding\n";
  body += "disallow: /late\n";
  const RobotsRules rules = RobotsRules::Parse(body);
  EXPECT_TRUE(rules.truncated());
  ExpectPaths(rules, kAgent, {"/late"}, {"/early"});

  const RobotsRules small = RobotsRules::Parse(body.substr(0, 512 * 1024));
  EXPECT_FALSE(small.truncated());
}

TEST(RobotsTest, LineCutByMaxBytesIsDropped) {
  const std::string body = "user-agent: *\ndisallow: /abcdefghij\n";
  RobotsOptions options;
  options.max_bytes = 28;  // Cuts inside "/abcdefghij".
  const RobotsRules cut = RobotsRules::Parse(body, options);
  EXPECT_TRUE(cut.truncated());
  EXPECT_TRUE(cut.IsAllowed(kAgent, "/abcdef"));
  // A limit that falls exactly on a line end keeps the line.
  options.max_bytes = body.size() - 1;
  const RobotsRules whole = RobotsRules::Parse(body, options);
  EXPECT_TRUE(whole.truncated());
  EXPECT_FALSE(whole.IsAllowed(kAgent, "/abcdefghij"));
  EXPECT_TRUE(whole.IsAllowed(kAgent, "/abcdef"));
}

TEST(RobotsTest, OverlongLinesAreSkipped) {
  const std::string body =
      absl::StrCat("user-agent: *\ndisallow: /", std::string(100 * 1024, 'a'),
                   "\ndisallow: /b\n");
  const RobotsRules rules = RobotsRules::Parse(body);
  EXPECT_EQ(rules.skipped_lines(), 1u);
  ExpectPaths(rules, kAgent, {absl::StrCat("/", std::string(100 * 1024, 'a'))},
              {"/b"});
}

TEST(RobotsTest, RuleCountIsCapped) {
  std::string body = "user-agent: *\n";
  for (int i = 0; i < 200000; ++i)
    absl::StrAppend(&body, "disallow: /p", i, "$\n");
  RobotsOptions options;
  options.max_bytes = body.size();
  const auto start = std::chrono::steady_clock::now();
  const RobotsRules rules = RobotsRules::Parse(body, options);
  EXPECT_FALSE(rules.truncated());
  EXPECT_EQ(rules.skipped_lines(), 100000u);
  ExpectPaths(rules, kAgent, {"/p100000", "/p199999", "/q"},
              {"/p0", "/p99999"});
  // Time is the feature (linear in rules): generous for a loaded machine.
  EXPECT_LT(MillisecondsSince(start), 30000);
}

TEST(RobotsTest, PathologicalWildcardIsFast) {
  const RobotsRules rules = RobotsRules::Parse(
      "user-agent: *\n"
      "disallow: /*a*a*a*a*a*a*a*a*b\n"
      "disallow: /*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*c$\n");
  const std::string path = "/" + std::string(2048, 'a');
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < 10; ++i) {
    EXPECT_TRUE(rules.IsAllowed(kAgent, path));
  }
  EXPECT_FALSE(rules.IsAllowed(kAgent, path + "b"));
  EXPECT_FALSE(rules.IsAllowed(kAgent, path + "c"));
  EXPECT_TRUE(rules.IsAllowed(kAgent, path + "cd"));
  // Time is the feature: matching does not backtrack. A backtracking matcher
  // would take longer than anyone waits on these patterns, so a bound this
  // generous still tells them apart on a loaded machine.
  EXPECT_LT(MillisecondsSince(start), 10000);
}

// Naive reference: does `pattern` ('*' wildcards) match a prefix of `path`
// (all of it when `anchored`)? Exponential, for tiny inputs only.
bool ReferenceMatch(absl::string_view pattern, bool anchored,
                    absl::string_view path) {
  if (pattern.empty()) return !anchored || path.empty();
  if (pattern[0] == '*') {
    for (size_t i = 0; i <= path.size(); ++i) {
      if (ReferenceMatch(pattern.substr(1), anchored, path.substr(i))) {
        return true;
      }
    }
    return false;
  }
  return !path.empty() && path[0] == pattern[0] &&
         ReferenceMatch(pattern.substr(1), anchored, path.substr(1));
}

TEST(RobotsTest, MatchingAgreesWithReference) {
  std::mt19937 rng(7);
  auto random_string = [&rng](absl::string_view alphabet, size_t max_len) {
    std::string out;
    for (size_t n = rng() % (max_len + 1); n > 0; --n) {
      out += alphabet[rng() % alphabet.size()];
    }
    return out;
  };
  for (int i = 0; i < 20000; ++i) {
    const std::string pattern = "/" + random_string("ab*", 7);
    const bool anchored = rng() % 2 == 0;
    const std::string path = "/" + random_string("ab", 9);
    const RobotsRules rules = RobotsRules::Parse(absl::StrCat(
        "user-agent: *\ndisallow: ", pattern, anchored ? "$" : "", "\n"));
    ASSERT_EQ(rules.IsAllowed(kAgent, path),
              !ReferenceMatch(pattern, anchored, path))
        << pattern << (anchored ? "$" : "") << " vs " << path;
  }
}

TEST(RobotsTest, HostileFileOfWildcardRulesIsFast) {
  // 500 KB of rules built to defeat backtracking and naive substring search.
  std::string body = "user-agent: *\n";
  while (body.size() < 500 * 1024) {
    absl::StrAppend(&body, "disallow: /*", std::string(500, 'a'), "b\n",
                    "disallow: /*a*a*a*a*a*a*a*a*a*a*c$\n");
  }
  const RobotsRules rules = RobotsRules::Parse(body);
  const std::string path = "/" + std::string(2047, 'a');
  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(rules.IsAllowed(kAgent, path));
  // Time is the feature (no backtracking); generous as above.
  EXPECT_LT(MillisecondsSince(start), 10000);
}

}  // namespace
}  // namespace fcrawl::protocol
