#include "focus/url_rule.h"

#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "core/url.h"
#include "focus/strategy.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "proto/url_rules.pb.h"
#include "quark/quark.h"

namespace fcrawl::focus {
namespace {

using quark::BlockType;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr double kEps = 1e-9;

std::vector<UrlParts> Parts(const std::vector<std::string>& urls) {
  std::vector<UrlParts> out;
  for (const std::string& u : urls) {
    std::optional<UrlParts> p = DecomposeUrl(u);
    EXPECT_TRUE(p.has_value()) << u;
    if (p.has_value()) out.push_back(*p);
  }
  return out;
}

std::vector<std::string> Numbered(const std::string& prefix, int from, int to,
                                  const std::string& suffix) {
  std::vector<std::string> out;
  for (int i = from; i <= to; ++i)
    out.push_back(absl::StrCat(prefix, i, suffix));
  return out;
}

// ---------------------------------------------------------------------------
// Decomposition and distance (§4.3.3, 4.3–4.4)
// ---------------------------------------------------------------------------

TEST(DecomposeUrlTest, PaperExample) {
  // §4.3.3: host www.cbe21.com, directories subject, physics, courseware.php
  // (the file name is the last directory), query (photo_id, 100002).
  std::optional<UrlParts> p = DecomposeUrl(
      "http://www.cbe21.com/subject/physics/courseware.php?photo_id=100002");
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->scheme, "http");
  EXPECT_EQ(p->host, "www.cbe21.com");
  EXPECT_THAT(p->dirs, ElementsAre("subject", "physics", "courseware.php"));
  EXPECT_FALSE(p->directory);
  ASSERT_EQ(p->query.size(), 1u);
  EXPECT_EQ(p->query[0].first, "photo_id");
  EXPECT_EQ(p->query[0].second, "100002");
  EXPECT_FALSE(p->truncated);
}

TEST(DecomposeUrlTest, DirectoriesPortsAndQueries) {
  std::optional<UrlParts> dir =
      DecomposeUrl("http://teacher.cqbxzx.com/xy/jc/");
  ASSERT_TRUE(dir.has_value());
  EXPECT_THAT(dir->dirs, ElementsAre("xy", "jc"));
  EXPECT_TRUE(dir->directory);

  std::optional<UrlParts> root = DecomposeUrl("https://S.com");
  ASSERT_TRUE(root.has_value());
  EXPECT_EQ(root->host, "s.com");
  EXPECT_THAT(root->dirs, IsEmpty());
  EXPECT_FALSE(root->directory);

  std::optional<UrlParts> port = DecomposeUrl("http://s.com:8080/a?k&&b=1=2");
  ASSERT_TRUE(port.has_value());
  EXPECT_EQ(port->host, "s.com:8080");
  ASSERT_EQ(port->query.size(), 2u);
  EXPECT_EQ(port->query[0], std::make_pair(std::string("k"), std::string()));
  EXPECT_EQ(port->query[1],
            std::make_pair(std::string("b"), std::string("1=2")));
  EXPECT_EQ(UrlSite("http://s.com:80/x"), "s.com");
  EXPECT_EQ(UrlSite("http://s.com:81/x"), "s.com:81");
  EXPECT_EQ(UrlSite("mailto:a@b"), "");
}

TEST(UrlDistanceTest, EachCaseByHand) {
  // Equal: dPath 0, dQuery 0 → 1·1·1 − 1 = 0.
  EXPECT_EQ(UrlDistance("http://s.com/a/b/c.html", "http://s.com/a/b/c.html"),
            0);
  // k = 1 of m = n = 3: dPath = 4 → 1·5·1 − 1 = 4.
  EXPECT_EQ(UrlDistance("http://s.com/a/b/c.html", "http://s.com/a/x/c.html"),
            4);
  // m = 2, n = 3, k = 0: dPath = 2·1 = 2 → 3 − 1 = 2.
  EXPECT_EQ(UrlDistance("http://s.com/a/b/", "http://s.com/a/b/c.html"), 2);
  // m = 3 (a b c.html | x b c d.html), k = 2 (a≠x, c.html≠c), n − m = 1:
  // dPath = 8 + 2 = 10 → 11 − 1 = 10.
  EXPECT_EQ(UrlDistance("http://s.com/a/b/c.html", "http://s.com/x/b/c/d.html"),
            10);
  // Only the query differs: 1·1·2 − 1 = 1 (the paper's same-template case).
  EXPECT_EQ(UrlDistance("http://www.cbe21.com/courseware.php?photo_id=100001",
                        "http://www.cbe21.com/courseware.php?photo_id=100002"),
            1);
  // Path (k = 1) and query: 1·5·2 − 1 = 9.
  EXPECT_EQ(
      UrlDistance("http://s.com/a/b.html?id=1", "http://s.com/a/c.html?id=2"),
      9);
  // Query pairs compare as lists: another order differs → 1.
  EXPECT_EQ(UrlDistance("http://s.com/p?a=1&b=2", "http://s.com/p?b=2&a=1"), 1);
  // A query against none: 1.
  EXPECT_EQ(UrlDistance("http://s.com/p", "http://s.com/p?a=1"), 1);
  // Root against 2 directories: n − m = 2 → dPath 4 → 4.
  EXPECT_EQ(UrlDistance("http://s.com/", "http://s.com/a/b"), 4);
  // The scheme is not part of the site.
  EXPECT_EQ(UrlDistance("https://s.com/a", "http://s.com/a"), 0);
  // Different hosts (or ports) are not compared.
  EXPECT_EQ(UrlDistance("http://s.com/a", "http://t.com/a"), std::nullopt);
  EXPECT_EQ(UrlDistance("http://s.com/a", "http://s.com:8080/a"), std::nullopt);
  EXPECT_EQ(UrlDistance("not a url", "http://s.com/a"), std::nullopt);
  EXPECT_EQ(UrlDistance("http://s.com/a", "ftp://s.com/a"), std::nullopt);
}

TEST(UrlDistanceTest, AgreesWithCoreUrlDistance) {
  const std::vector<std::string> urls = {
      "http://s.com/",           "http://s.com/a/b/c.html",
      "http://s.com/a/x/c.html", "http://s.com/a?x=1",
      "http://s.com/a?x=2&y=3",  "http://s.com/q/r/s/t/"};
  for (const std::string& a : urls) {
    for (const std::string& b : urls) {
      absl::StatusOr<url::Url> ua = url::Parse(a), ub = url::Parse(b);
      ASSERT_TRUE(ua.ok() && ub.ok());
      EXPECT_EQ(UrlDistance(a, b),
                url::Distance(url::Structure(*ua), url::Structure(*ub)))
          << a << " " << b;
    }
  }
}

// ---------------------------------------------------------------------------
// Pattern extraction (§4.3.6)
// ---------------------------------------------------------------------------

TEST(ExtractPatternTest, AlignsDirectoriesAndQuery) {
  std::optional<UrlPattern> p = ExtractPattern(
      Parts({"http://s.com/physics/a/video/1.html?id=3&lang=en",
             "http://s.com/physics/b/video/22.html?id=4&lang=en"}));
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->Readable(), "http://s.com/physics/*/video/*.html?id=*&lang=en");
  EXPECT_EQ(p->Regex(),
            "^https?://s\\.com/physics/[^/?]+/video/[^/?]+\\.html"
            "\\?id(?:=[^&]*)?&lang=en$");
  EXPECT_EQ(p->covered, 2);
  EXPECT_EQ(p->relevant, 0);
}

TEST(ExtractPatternTest, FileNamesKeepTheirCommonExtension) {
  auto readable = [](const std::vector<std::string>& urls) {
    std::optional<UrlPattern> p = ExtractPattern(Parts(urls));
    return p.has_value() ? p->Readable() : "none";
  };
  EXPECT_EQ(readable({"http://s.com/f/motion.swf.html",
                      "http://s.com/f/light.swf.html"}),
            "http://s.com/f/*.swf.html");
  // The common tail "1.html" starts inside a name: only ".html" is kept.
  EXPECT_EQ(readable({"http://s.com/f/1.html", "http://s.com/f/11.html"}),
            "http://s.com/f/*.html");
  // No common extension.
  EXPECT_EQ(readable({"http://s.com/f/a.htm", "http://s.com/f/b.html"}),
            "http://s.com/f/*");
  // ".html" itself would leave nothing for the "*".
  EXPECT_EQ(readable({"http://s.com/f/.html", "http://s.com/f/x.html"}),
            "http://s.com/f/*");
  // Directories never keep a suffix.
  EXPECT_EQ(readable({"http://s.com/xy/jc/", "http://s.com/xy/wz/"}),
            "http://s.com/xy/*/");
  // Everything equal but the query value: the paper's dynamic page.
  EXPECT_EQ(readable({"http://www.cbe21.com/subject/physics/"
                      "courseware.php?photo_id=100003",
                      "http://www.cbe21.com/subject/physics/"
                      "courseware.php?photo_id=100001"}),
            "http://www.cbe21.com/subject/physics/courseware.php?photo_id=*");
}

TEST(ExtractPatternTest, ShapesMustAgree) {
  EXPECT_FALSE(ExtractPattern({}).has_value());
  EXPECT_FALSE(ExtractPattern(
                   Parts({"http://s.com/a/b.html", "http://s.com/a/b/c.html"}))
                   .has_value());
  EXPECT_FALSE(
      ExtractPattern(Parts({"http://s.com/a?x=1", "http://s.com/a?y=1"}))
          .has_value());
  EXPECT_FALSE(ExtractPattern(Parts({"http://s.com/a/", "http://s.com/a/b"}))
                   .has_value());
  EXPECT_FALSE(
      ExtractPattern(Parts({"http://s.com/a", "http://t.com/a"})).has_value());
}

TEST(ExtractPatternTest, GroupsOfOneGiveNoPattern) {
  std::vector<UrlPattern> p = ExtractPatterns(
      Parts({"http://s.com/v/1.html", "http://s.com/v/",
             "http://s.com/v/2.html", "http://s.com/v/3.html"}));
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].Readable(), "http://s.com/v/*.html");
  EXPECT_EQ(p[0].covered, 3);
}

TEST(ExtractPatternTest, LiteralsAreQuoted) {
  std::vector<UrlPattern> learned = ExtractPatterns(
      Parts({"http://s.com/c++/(x)/a.html", "http://s.com/c++/(x)/b.html"}));
  ASSERT_EQ(learned.size(), 1u);
  EXPECT_EQ(learned[0].Readable(), "http://s.com/c++/(x)/*.html");
  absl::StatusOr<PatternSet> set = PatternSet::Compile(learned);
  ASSERT_TRUE(set.ok()) << set.status();
  EXPECT_THAT(set->Match("http://s.com/c++/(x)/zz.html"), ElementsAre(0));
  // '+', '(' and '.' are literal, not regex operators.
  EXPECT_THAT(set->Match("http://s.com/ccc/(x)/zz.html"), IsEmpty());
  EXPECT_THAT(set->Match("http://s.com/c++/x/zz.html"), IsEmpty());
  EXPECT_THAT(set->Match("http://s.com/c++/(x)/zzxhtml"), IsEmpty());
  EXPECT_THAT(set->Match("http://sxcom/c++/(x)/zz.html"), IsEmpty());
}

// ---------------------------------------------------------------------------
// Clustering
// ---------------------------------------------------------------------------

TEST(ClusterUrlsTest, MoreThanMWithinDOfEachOther) {
  std::vector<std::string> urls =
      Numbered("http://s.com/physics/video/2008/", 1, 6, ".html");
  urls.push_back("http://s.com/news/1.html");
  urls.push_back("http://s.com/about/index.html");
  // The six differ pairwise in their file name only: distance 4 ≤ 4.
  std::vector<std::vector<int>> c = ClusterUrls(Parts(urls), 4, 5);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_THAT(c[0], ElementsAre(0, 1, 2, 3, 4, 5));
  // Six is not more than six.
  EXPECT_THAT(ClusterUrls(Parts(urls), 4, 6), IsEmpty());
  // At d = 3 no two of them are close.
  EXPECT_THAT(ClusterUrls(Parts(urls), 3, 1), IsEmpty());
}

TEST(ClusterUrlsTest, CompleteLinkageDoesNotChain) {
  // A–B 4, B–C 4, A–C 8: not all within 4 of each other.
  const std::vector<UrlParts> p =
      Parts({"http://s.com/d/a/1.html", "http://s.com/d/a/2.html",
             "http://s.com/d/b/2.html"});
  EXPECT_THAT(ClusterUrls(p, 4, 2), IsEmpty());
  // With clusters of two allowed the greedy step takes B (two neighbours)
  // and its first neighbour A.
  std::vector<std::vector<int>> c = ClusterUrls(p, 4, 1);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_THAT(c[0], ElementsAre(0, 1));
  // At d = 8 all three are within reach of each other.
  EXPECT_EQ(ClusterUrls(p, 8, 2).size(), 1u);
}

TEST(ClusterUrlsTest, TwoRegionsTwoClusters) {
  std::vector<std::string> urls =
      Numbered("http://s.com/physics/video/2008/", 1, 6, ".html");
  for (const std::string& u :
       Numbered("http://s.com/physics/flash/player.swf.html?id=", 1, 7, "")) {
    urls.push_back(u);
  }
  std::vector<std::vector<int>> c = ClusterUrls(Parts(urls), 4, 5);
  ASSERT_EQ(c.size(), 2u);
  // The flash pages (pairwise 1) have more neighbours: found first.
  EXPECT_THAT(c[0], ElementsAre(6, 7, 8, 9, 10, 11, 12));
  EXPECT_THAT(c[1], ElementsAre(0, 1, 2, 3, 4, 5));
}

// ---------------------------------------------------------------------------
// The learner
// ---------------------------------------------------------------------------

TEST(LearnUrlPatternsTest, PurposeBuiltSite) {
  // Relevant pages live in two directories; two misjudged pages add noise.
  std::vector<std::string> video =
      Numbered("http://site.edu/physics/video/2008/", 1, 8, ".html");
  std::vector<std::string> flash = Numbered(
      "http://site.edu/physics/flash/player.swf.html?id=", 100, 106, "");
  std::vector<std::string> relevant = video;
  relevant.insert(relevant.end(), flash.begin(), flash.end());
  relevant.push_back("http://site.edu/news/2008/3.html");
  relevant.push_back("http://site.edu/sports/video/2008/1.html");
  const std::vector<std::string> irrelevant = {
      "http://site.edu/",
      "http://site.edu/news/2008/1.html",
      "http://site.edu/news/2008/2.html",
      "http://site.edu/about/index.html",
      "http://site.edu/about/contact.html",
      "http://site.edu/sports/video/2008/2.html",
      "http://site.edu/sports/video/2008/3.html",
      "http://site.edu/physics/video/2009/1.html",
      "http://site.edu/physics/video/2008/",
      "http://site.edu/physics/video/2008/sub/1.html",
      "http://site.edu/physics/flash/player.swf.html",
      "http://site.edu/physics/flash/player.swf.html?page=2",
      "http://other.edu/physics/video/2008/1.html",
  };
  UrlRuleOptions o;  // m = 5, d = 4
  const std::vector<UrlPattern> learned =
      LearnUrlPatterns(relevant, {}, 30, o, 1234);
  ASSERT_EQ(learned.size(), 2u);
  EXPECT_EQ(learned[0].Readable(), "http://site.edu/physics/video/2008/*.html");
  EXPECT_EQ(learned[0].covered, 8);
  EXPECT_EQ(learned[1].Readable(),
            "http://site.edu/physics/flash/player.swf.html?id=*");
  EXPECT_EQ(learned[1].covered, 7);
  for (const UrlPattern& p : learned) {
    EXPECT_EQ(p.relevant, 17);
    EXPECT_EQ(p.learned_at_ms, 1234);
  }
  absl::StatusOr<PatternSet> set = PatternSet::Compile(learned);
  ASSERT_TRUE(set.ok()) << set.status();
  for (const std::string& u : video) EXPECT_THAT(set->Match(u), ElementsAre(0));
  for (const std::string& u : flash) EXPECT_THAT(set->Match(u), ElementsAre(1));
  // New pages of the learned directories match too.
  EXPECT_THAT(set->Match("http://site.edu/physics/video/2008/99.html"),
              ElementsAre(0));
  EXPECT_THAT(set->Match("https://site.edu/physics/flash/player.swf.html?id="),
              ElementsAre(1));
  for (const std::string& u : irrelevant) {
    EXPECT_THAT(set->Match(u), IsEmpty()) << u;
  }
}

TEST(LearnUrlPatternsTest, NeedsMoreThanM) {
  UrlRuleOptions o;
  const std::vector<std::string> five =
      Numbered("http://s.com/v/", 1, 5, ".html");
  EXPECT_THAT(LearnUrlPatterns(five, {}, 10, o, 0), IsEmpty());
  std::vector<std::string> six = five;
  six.push_back("http://s.com/v/6.html");
  EXPECT_EQ(LearnUrlPatterns(six, {}, 10, o, 0).size(), 1u);
  // Duplicates, malformed and over-long URLs do not count.
  std::vector<std::string> padded = five;
  padded.push_back(five[0]);
  padded.push_back("http://");
  padded.push_back("");
  std::string deep = "http://s.com";
  for (int i = 0; i < 100; ++i) deep += "/v";
  padded.push_back(deep + "/6.html");  // truncated at 64 directories
  EXPECT_THAT(LearnUrlPatterns(padded, {}, 10, o, 0), IsEmpty());
}

TEST(TemplateTest, IsTemplateWideByHand) {
  // 10 pages, share 0.8: more than 8 pages.
  EXPECT_TRUE(IsTemplateWide(9, 10, 0.8));
  EXPECT_FALSE(IsTemplateWide(8, 10, 0.8));
  // 3 pages: more than 2.4, so all three.
  EXPECT_TRUE(IsTemplateWide(3, 3, 0.8));
  EXPECT_FALSE(IsTemplateWide(2, 3, 0.8));
  // Fewer than 3 pages: never.
  EXPECT_FALSE(IsTemplateWide(2, 2, 0.8));
  EXPECT_FALSE(IsTemplateWide(5, 10, std::nan("")));
}

TEST(TemplateTest, BannerRemovedBeforeLearning) {
  // Five real media pages plus a Flash banner page linked from every page:
  // with the banner six pages would form a cluster, without it only five.
  std::vector<std::string> relevant =
      Numbered("http://s.com/physics/video/2008/", 1, 5, ".html");
  const std::string banner = "http://s.com/physics/video/2008/banner.html";
  relevant.push_back(banner);
  const InLinkCounts everywhere = {{banner, 10}, {relevant[0], 2}};
  EXPECT_EQ(RemoveTemplateUrls(relevant, everywhere, 10, 0.8),
            std::vector<std::string>(relevant.begin(), relevant.begin() + 5));
  UrlRuleOptions o;
  EXPECT_THAT(LearnUrlPatterns(relevant, everywhere, 10, o, 0), IsEmpty());
  const InLinkCounts some = {{banner, 8}};  // 8 of 10 is not more than 0.8
  EXPECT_EQ(LearnUrlPatterns(relevant, some, 10, o, 0).size(), 1u);
  o.set_template_share(1.0);  // nothing is linked from more than every page
  EXPECT_EQ(LearnUrlPatterns(relevant, everywhere, 10, o, 0).size(), 1u);
}

// ---------------------------------------------------------------------------
// PatternSet
// ---------------------------------------------------------------------------

UrlPattern Pattern(const std::vector<std::string>& urls, int covered) {
  std::optional<UrlPattern> p = ExtractPattern(Parts(urls));
  EXPECT_TRUE(p.has_value());
  UrlPattern out = p.value_or(UrlPattern{});
  out.covered = covered;
  return out;
}

TEST(PatternSetTest, MatchAndBest) {
  // /p/*/a.html (covered 3) and /p/x/*.html (covered 7) overlap on
  // /p/x/a.html: the one that covered more URLs is best.
  absl::StatusOr<PatternSet> set = PatternSet::Compile(
      {Pattern({"http://s.com/p/1/a.html", "http://s.com/p/2/a.html"}, 3),
       Pattern({"http://s.com/p/x/1.html", "http://s.com/p/x/2.html"}, 7)});
  ASSERT_TRUE(set.ok());
  EXPECT_THAT(set->Match("http://s.com/p/x/a.html"), ElementsAre(0, 1));
  EXPECT_EQ(set->Best("http://s.com/p/x/a.html"), 1);
  EXPECT_EQ(set->Best("http://s.com/p/y/a.html"), 0);
  EXPECT_EQ(set->Best("http://s.com/q/y/a.html"), -1);
  // Anchored at both ends; the normal form is matched.
  EXPECT_THAT(set->Match("http://s.com/p/x/a.html/more"), IsEmpty());
  EXPECT_THAT(set->Match("http://evil.com/?http://s.com/p/x/a.html"),
              IsEmpty());
  EXPECT_THAT(set->Match("HTTP://S.COM/p/x/../x/a.html#frag"),
              ElementsAre(0, 1));
  EXPECT_THAT(set->Match("http://s.com/p/x/a.html?q=1"), IsEmpty());
  // An empty set matches nothing.
  EXPECT_THAT(PatternSet().Match("http://s.com/p/x/a.html"), IsEmpty());
  EXPECT_EQ(PatternSet().Distance("http://s.com/p/x/a.html"), std::nullopt);
}

TEST(PatternSetTest, DistanceToNearestPattern) {
  absl::StatusOr<PatternSet> set = PatternSet::Compile(
      {Pattern({"http://s.com/physics/video/2008/1.html",
                "http://s.com/physics/video/2008/2.html"},
               2),
       Pattern(
           {"http://s.com/f/p.swf.html?id=1", "http://s.com/f/p.swf.html?id=2"},
           2),
       Pattern({"http://s.com/xy/jc/", "http://s.com/xy/wz/"}, 2)});
  ASSERT_TRUE(set.ok());
  // A match is at distance 0.
  EXPECT_EQ(set->Distance("http://s.com/physics/video/2008/9.html"), 0);
  // 2009 ≠ 2008: k = 1 → dPath 4 → 4.
  EXPECT_EQ(set->Distance("http://s.com/physics/video/2009/9.html"), 4);
  // physics video 2008 | *.html vs sub: k = 1 ("sub" lacks .html), one more
  // directory: dPath = 4 + 2 = 6 → 6.
  EXPECT_EQ(set->Distance("http://s.com/physics/video/2008/sub/1.html"), 6);
  // The file name lacks the kept extension: k = 1 → 4.
  EXPECT_EQ(set->Distance("http://s.com/physics/video/2008/9.php"), 4);
  // Extra query key: dQuery = 1 → 1·1·2 − 1 = 1.
  EXPECT_EQ(set->Distance("http://s.com/f/p.swf.html?id=9&x=1"), 1);
  // Structurally equal to /xy/*/ but without the '/': the regex rejects it,
  // so it is 1, not 0.
  EXPECT_EQ(set->Distance("http://s.com/xy/jc"), 1);
  // Nearest of several: /f/q.html vs /f/p.swf.html?id=*: k = 1, query
  // differs → 9; vs /xy/*/: k = 1 (f ≠ xy), the wildcard accepts q.html → 4.
  EXPECT_EQ(set->Distance("http://s.com/f/q.html"), 4);
  // Another site: not compared.
  EXPECT_EQ(set->Distance("http://t.com/physics/video/2008/9.html"),
            std::nullopt);
  EXPECT_EQ(set->Distance("::"), std::nullopt);
}

TEST(PatternSetTest, TooManyPatterns) {
  std::vector<UrlPattern> many(
      kUrlRuleMaxPatterns + 1,
      Pattern({"http://s.com/a/1", "http://s.com/a/2"}, 1));
  absl::StatusOr<PatternSet> set = PatternSet::Compile(many);
  EXPECT_EQ(set.status().code(), absl::StatusCode::kInvalidArgument);
}

// ---------------------------------------------------------------------------
// Persistence and listing
// ---------------------------------------------------------------------------

SiteRules SampleRules() {
  SiteRules r;
  r.host = "s.com";
  r.phase = SitePhase::kGuided;
  r.fetched_per_layer = {1, 2, 0, 4};
  r.pages_fetched = 7;
  r.pages_analysed = 6;
  UrlPattern video = Pattern({"http://s.com/physics/video/2008/1.html",
                              "http://s.com/physics/video/2008/2.html"},
                             6);
  video.relevant = 7;
  video.learned_at_ms = 1700000000000;
  UrlPattern flash = Pattern(
      {"http://s.com/f/p.swf.html?id=1&k", "https://s.com/f/p.swf.html?id=2&k"},
      2);
  flash.relevant = 7;
  r.patterns = {flash, video};
  r.relevant_urls = Numbered("http://s.com/physics/video/2008/", 1, 7, ".html");
  r.inlinks = {{"http://s.com/banner.html", 6}};
  r.updated_at_ms = 1700000000000;
  return r;
}

TEST(SiteRulesTest, ProtoRoundTrip) {
  const SiteRules r = SampleRules();
  proto::SiteUrlRules p = SiteRulesToProto(r);
  std::string bytes = p.SerializeAsString();
  proto::SiteUrlRules parsed;
  ASSERT_TRUE(parsed.ParseFromString(bytes));
  EXPECT_EQ(parsed.phase(), proto::SiteUrlRules::PHASE_GUIDED);
  EXPECT_EQ(parsed.patterns(1).regex(), r.patterns[1].Regex());
  EXPECT_EQ(parsed.patterns(1).readable(),
            "http://s.com/physics/video/2008/*.html");
  absl::StatusOr<SiteRules> back = SiteRulesFromProto(parsed);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->host, r.host);
  EXPECT_EQ(back->phase, r.phase);
  EXPECT_EQ(back->fetched_per_layer, r.fetched_per_layer);
  EXPECT_EQ(back->pages_fetched, 7);
  EXPECT_EQ(back->pages_analysed, 6);
  ASSERT_EQ(back->patterns.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_TRUE(back->patterns[i].SameRule(r.patterns[i]));
    EXPECT_EQ(back->patterns[i].Regex(), r.patterns[i].Regex());
    EXPECT_EQ(back->patterns[i].Readable(), r.patterns[i].Readable());
    EXPECT_EQ(back->patterns[i].covered, r.patterns[i].covered);
    EXPECT_EQ(back->patterns[i].relevant, r.patterns[i].relevant);
    EXPECT_EQ(back->patterns[i].learned_at_ms, r.patterns[i].learned_at_ms);
  }
  EXPECT_EQ(back->relevant_urls, r.relevant_urls);
  EXPECT_EQ(back->inlinks, r.inlinks);
  EXPECT_EQ(back->updated_at_ms, r.updated_at_ms);
}

TEST(SiteRulesTest, StoredInLinksAreBounded) {
  SiteRules r;
  r.host = "s.com";
  for (int i = 0; i < 300; ++i) {
    r.inlinks[absl::StrCat("http://s.com/", i)] = i % 7;
  }
  proto::SiteUrlRules p = SiteRulesToProto(r);
  ASSERT_EQ(p.inlinks_size(), static_cast<int>(kUrlRuleMaxStoredInLinks));
  EXPECT_EQ(p.inlinks(0).pages(), 6);  // largest first
  EXPECT_GE(p.inlinks(p.inlinks_size() - 1).pages(), 1);
  EXPECT_TRUE(SiteRulesFromProto(p).ok());
}

TEST(SiteRulesTest, InconsistentValuesAreDataLoss) {
  const proto::SiteUrlRules good = SiteRulesToProto(SampleRules());
  auto code = [](const proto::SiteUrlRules& p) {
    return SiteRulesFromProto(p).status().code();
  };
  proto::SiteUrlRules p = good;
  p.clear_patterns();
  EXPECT_EQ(code(p), absl::StatusCode::kDataLoss);  // guided, no patterns
  p = good;
  p.set_pages_fetched(-1);
  EXPECT_EQ(code(p), absl::StatusCode::kDataLoss);
  p = good;
  p.set_fetched_per_layer(0, -3);
  EXPECT_EQ(code(p), absl::StatusCode::kDataLoss);
  p = good;
  p.clear_host();
  EXPECT_EQ(code(p), absl::StatusCode::kDataLoss);
  p = good;
  p.set_phase(static_cast<proto::SiteUrlRules::Phase>(42));
  EXPECT_EQ(code(p), absl::StatusCode::kDataLoss);
  p = good;
  p.mutable_patterns(0)->mutable_segments(0)->set_literal("");
  EXPECT_EQ(code(p), absl::StatusCode::kDataLoss);
  p = good;
  for (int i = 0; i < 201; ++i) p.add_relevant_urls("http://s.com/x");
  EXPECT_EQ(code(p), absl::StatusCode::kDataLoss);
  EXPECT_TRUE(SiteRulesFromProto(proto::SiteUrlRules()).status().code() ==
              absl::StatusCode::kDataLoss);
}

TEST(FormatSiteRulesTest, Listing) {
  EXPECT_EQ(
      FormatSiteRules(SiteRulesToProto(SampleRules())),
      "site s.com: guided (updated 2023-11-14T22:13:20Z)\n"
      "  pages fetched: 7; per physical layer: 0:1 1:2 3:4\n"
      "  pages analysed: 6; relevant URLs kept: 7; in-link counts "
      "kept: 1\n"
      "  patterns: 2 (most covered first)\n"
      "    1. http://s.com/physics/video/2008/*.html\n"
      "       covers 6 of 7 relevant URLs; learned "
      "2023-11-14T22:13:20Z\n"
      "       regex ^https?://s\\.com/physics/video/2008/[^/?]+\\.html$\n"
      "    2. http://s.com/f/p.swf.html?id=*&k=\n"
      "       covers 2 of 7 relevant URLs; learned unknown\n"
      "       regex ^https?://s\\.com/f/p\\.swf\\.html\\?id(?:=[^&]*)?&k=?$\n"
      "\n");
  proto::SiteUrlRules empty;
  empty.set_host("t.com");
  EXPECT_EQ(FormatSiteRules(empty),
            "site t.com: exploring (updated unknown)\n"
            "  pages fetched: 0; per physical layer: none\n"
            "  pages analysed: 0; relevant URLs kept: 0; in-link counts "
            "kept: 0\n"
            "  patterns: 0\n"
            "\n");
}

// ---------------------------------------------------------------------------
// Hostile input
// ---------------------------------------------------------------------------

TEST(HostileInputTest, HugeAndMalformedUrls) {
  std::string huge = "http://s.com";
  for (int i = 0; i < 10000; ++i) huge += "/a";
  EXPECT_FALSE(DecomposeUrl(huge).has_value());
  EXPECT_EQ(UrlDistance(huge, "http://s.com/a"), std::nullopt);
  EXPECT_EQ(UrlSite(huge), "");

  // 500 directories fit in a URL: only the first 64 are considered.
  std::string deep = "http://s.com";
  for (int i = 0; i < 500; ++i) deep += "/a";
  std::optional<UrlParts> d = DecomposeUrl(deep);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->dirs.size(), kUrlRuleMaxSegments);
  EXPECT_TRUE(d->truncated);
  // 64 vs 1 directories, the first equal: dPath = 2·63 = 126 → 126.
  EXPECT_EQ(UrlDistance(deep, "http://s.com/a"), 126);

  std::string query = "http://s.com/p?";
  for (int i = 0; i < 300; ++i) absl::StrAppend(&query, "k", i, "=v&");
  std::optional<UrlParts> q = DecomposeUrl(query);
  ASSERT_TRUE(q.has_value());
  EXPECT_EQ(q->query.size(), kUrlRuleMaxQueryPairs);
  EXPECT_TRUE(q->truncated);

  for (const char* bad :
       {"", "http://", "http:///a", "javascript:alert(1)", "http://a b.com/",
        "http://s.com:99999/", "\xff\xfe"}) {
    EXPECT_FALSE(DecomposeUrl(bad).has_value()) << bad;
  }

  absl::StatusOr<PatternSet> set = PatternSet::Compile(
      {Pattern({"http://s.com/a/1", "http://s.com/a/2"}, 2)});
  ASSERT_TRUE(set.ok());
  EXPECT_THAT(set->Match(huge), IsEmpty());
  EXPECT_EQ(set->Distance(huge), std::nullopt);
  // A NUL byte is percent-encoded by normalisation: "/a/%00x" is a
  // directory like any other.
  EXPECT_THAT(set->Match(std::string("http://s.com/a/\0x", 17)),
              ElementsAre(0));
  // ≥ 1: 64 directories against 2.
  EXPECT_EQ(set->Distance(deep), 4 * 0 + 2 * 62);
}

// ---------------------------------------------------------------------------
// The strategy
// ---------------------------------------------------------------------------

class FakeSiteStore : public SiteStore {
 public:
  absl::StatusOr<std::optional<std::string>> Load(
      absl::string_view host) override {
    absl::MutexLock lock(&mu_);
    ++loads_;
    if (fail_loads_) return absl::UnavailableError("disk on fire");
    auto it = values_.find(std::string(host));
    if (it == values_.end()) return std::nullopt;
    return it->second;
  }
  absl::Status Save(absl::string_view host, absl::string_view bytes) override {
    absl::MutexLock lock(&mu_);
    ++saves_;
    values_[std::string(host)] = std::string(bytes);
    return absl::OkStatus();
  }

  void Put(const std::string& host, const std::string& bytes) {
    absl::MutexLock lock(&mu_);
    values_[host] = bytes;
  }
  std::optional<proto::SiteUrlRules> Get(const std::string& host) {
    absl::MutexLock lock(&mu_);
    auto it = values_.find(host);
    if (it == values_.end()) return std::nullopt;
    proto::SiteUrlRules p;
    if (!p.ParseFromString(it->second)) return std::nullopt;
    return p;
  }
  int saves() {
    absl::MutexLock lock(&mu_);
    return saves_;
  }
  int loads() {
    absl::MutexLock lock(&mu_);
    return loads_;
  }
  void set_fail_loads(bool f) {
    absl::MutexLock lock(&mu_);
    fail_loads_ = f;
  }

 private:
  absl::Mutex mu_;
  std::map<std::string, std::string> values_ ABSL_GUARDED_BY(mu_);
  int saves_ ABSL_GUARDED_BY(mu_) = 0;
  int loads_ ABSL_GUARDED_BY(mu_) = 0;
  bool fail_loads_ ABSL_GUARDED_BY(mu_) = false;
};

struct LinkSpec {
  std::string url;
  std::string anchor;
};

// A page with its links in one block (with an optional group title).
quark::AnalyzedPage MakePage(const std::string& url,
                             const std::vector<LinkSpec>& links,
                             const std::string& group_title = "") {
  quark::AnalyzedPage p;
  p.document.url = url;
  quark::Block b;
  b.type = BlockType::kRelatedLinks;
  b.group_title = group_title;
  for (size_t i = 0; i < links.size(); ++i) {
    html::Link l;
    l.url = links[i].url;
    l.anchor_text = links[i].anchor;
    p.document.links.push_back(l);
    b.links.push_back(static_cast<int32_t>(i));
  }
  p.segmentation.blocks.push_back(b);
  return p;
}

FetchedPage Fetched(const quark::AnalyzedPage& page, double relevance,
                    FrontierState state = {}, bool media = false) {
  FetchedPage f;
  f.page = &page;
  f.url = page.document.url;
  f.final_url = page.document.url;
  f.relevance = relevance;
  f.state = state;
  f.has_media = media;
  return f;
}

FrontierState Inherited(double pr) {
  FrontierState s;
  s.inherited = pr;
  return s;
}

std::unique_ptr<Strategy> MakeUrlRule(const StrategyOptions& o,
                                      const Topic& topic) {
  absl::StatusOr<std::unique_ptr<Strategy>> s =
      MakeStrategy("url-rule", o, topic);
  EXPECT_TRUE(s.ok()) << s.status();
  return s.ok() ? std::move(*s) : nullptr;
}

StrategyOptions SmallOptions() {
  StrategyOptions o;
  o.url_rule.set_min_relevant_pages(3);
  o.url_rule.set_layer2_quota(2);
  return o;
}

const Topic& PhysicsTopic() {
  static const Topic* t = new Topic(Topic::FromText("physics video", ""));
  return *t;
}

// Four relevant pages of /physics/video/2008/ (PR 0.8 each, no links): with
// m = 3 the site learns /physics/video/2008/*.html.
void TeachVideoPattern(Strategy& s) {
  for (int i = 1; i <= 4; ++i) {
    quark::AnalyzedPage p = MakePage(
        absl::StrCat("http://s.com/physics/video/2008/", i, ".html"), {});
    EXPECT_THAT(s.ScoreLinks(Fetched(p, 0.9, Inherited(0.8))), IsEmpty());
  }
}

TEST(UrlRuleStrategyTest, BasicsAndSeed) {
  std::unique_ptr<Strategy> s = MakeUrlRule(SmallOptions(), PhysicsTopic());
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->name(), "url-rule");
  const FrontierState seed = s->SeedState();
  EXPECT_EQ(seed.score, kSeedScore);
  EXPECT_EQ(seed.inherited, 1);
  quark::AnalyzedPage none;
  FetchedPage null_page;
  EXPECT_THAT(s->ScoreLinks(null_page), IsEmpty());
  EXPECT_THAT(s->ScoreLinks(Fetched(none, 1)), IsEmpty());
}

// §4.3.7 (1): with seed sites given, other sites' URLs are refused; seeds
// themselves always pass.
TEST(UrlRuleStrategyTest, KeepsToTheSeedSites) {
  StrategyOptions o = SmallOptions();
  o.sites = {"phys.test", "media.test:8080"};
  std::unique_ptr<Strategy> s = MakeUrlRule(o, PhysicsTopic());
  ASSERT_NE(s, nullptr);
  FrontierState link;
  link.score = 0.5;
  EXPECT_TRUE(s->Admit("http://phys.test/a.html", 1, link).fetch);
  EXPECT_TRUE(s->Admit("http://media.test:8080/", 0, link).fetch);
  const Admission other = s->Admit("http://news.test/a.html", 1, link);
  EXPECT_FALSE(other.fetch);
  EXPECT_THAT(other.reason,
              HasSubstr("news.test is not one of the seed sites"));
  EXPECT_FALSE(s->Admit("http://media.test/", 0, link).fetch);  // other port
  EXPECT_TRUE(s->Admit("http://news.test/", 0, s->SeedState()).fetch);
}

TEST(UrlRuleStrategyTest, ExplorationScoresAreBreadthFirstWithPageRank) {
  std::unique_ptr<Strategy> s = MakeUrlRule(SmallOptions(), PhysicsTopic());
  quark::AnalyzedPage home =
      MakePage("http://s.com/", {{"http://s.com/a.html", "a"},
                                 {"http://s.com/b/c.html", "c"},
                                 {"http://other.org/x.html", "x"},
                                 {"http://s.com/a.html", "physics again"}});
  std::vector<ScoredLink> out = s->ScoreLinks(Fetched(home, 0, s->SeedState()));
  ASSERT_EQ(out.size(), 3u);
  // C = 3 distinct links, seed PR 1, N = 1 (the home page), no sibling
  // fetched yet: PR = 0.15/1 + 0.85·(1/3) = 0.15 + 0.283333 = 0.433333.
  const double part = 0.85 / 3;
  for (const ScoredLink& l : out) {
    EXPECT_NEAR(l.state.inherited, 0.15 + part, kEps);
    EXPECT_NEAR(l.state.sum, part, kEps);
    EXPECT_EQ(l.state.count, 1);
  }
  // BFS: −1, −2 for s.com, −3 for other.org.
  EXPECT_EQ(out[0].link, 0);
  EXPECT_EQ(out[0].state.score, -1);
  EXPECT_EQ(out[1].state.score, -2);
  EXPECT_EQ(out[2].link, 2);
  EXPECT_EQ(out[2].state.score, -3);
  // Links of a seed page to its own site are spared the quota.
  EXPECT_EQ(out[0].state.depth_budget, 1);
  EXPECT_EQ(out[2].state.depth_budget, 0);
  // Content (4.7) of a.html, best occurrence: "physics again" has 1 of the
  // 2 topic terms (0.5), the URL none: 1·(0.8·0.5 + 0.2·0) = 0.4.
  EXPECT_NEAR(out[0].state.content, 0.4, kEps);
  EXPECT_EQ(s->sequence(), 3);
  s->RestoreSequence(100);
  quark::AnalyzedPage more =
      MakePage("http://s.com/a.html", {{"http://s.com/z", ""}});
  EXPECT_EQ(s->ScoreLinks(Fetched(more, 0))[0].state.score, -101);
}

TEST(UrlRuleStrategyTest, ExplorationQuotasPerPhysicalLayer) {
  StrategyOptions o = SmallOptions();  // NUM_P2 = 2
  std::unique_ptr<Strategy> s = MakeUrlRule(o, PhysicsTopic());
  const FrontierState plain;
  // Layer 1: quota NUM_P2 = 2 (Reading: layers 0 and 1 get the layer-2
  // quota).
  EXPECT_TRUE(s->Admit("http://s.com/a1.html", 1, plain).fetch);
  EXPECT_TRUE(s->Admit("http://s.com/a2.html", 1, plain).fetch);
  Admission refused = s->Admit("http://s.com/a3.html", 1, plain);
  EXPECT_FALSE(refused.fetch);
  EXPECT_EQ(refused.reason,
            "url-rule: exploration quota of physical layer 1 of s.com is "
            "spent (NUM_P1 = 2)");
  // Layer 3: NUM_P3 = 2·(3−1) = 4.
  for (int i = 0; i < 4; ++i) {
    EXPECT_TRUE(s->Admit(absl::StrCat("http://s.com/a/b/", i), 3, plain).fetch)
        << i;
  }
  refused = s->Admit("http://s.com/a/b/9", 3, plain);
  EXPECT_FALSE(refused.fetch);
  EXPECT_THAT(refused.reason, HasSubstr("NUM_P3 = 4"));
  // Layer 10: NUM_P10 = 2·9 = 18; layer 11 is beyond max_layer 10.
  for (int i = 0; i < 18; ++i) {
    EXPECT_TRUE(
        s->Admit(absl::StrCat("http://s.com/1/2/3/4/5/6/7/8/9/", i), 10, plain)
            .fetch);
  }
  EXPECT_FALSE(s->Admit("http://s.com/1/2/3/4/5/6/7/8/9/x", 10, plain).fetch);
  refused = s->Admit("http://s.com/1/2/3/4/5/6/7/8/9/10/11", 11, plain);
  EXPECT_FALSE(refused.fetch);
  EXPECT_THAT(refused.reason, HasSubstr("beyond max_layer 10"));
  // Seeds and the links of seed pages pass a spent quota.
  EXPECT_TRUE(s->Admit("http://s.com/seed.html", 1, s->SeedState()).fetch);
  FrontierState seed_child;
  seed_child.depth_budget = 1;
  EXPECT_TRUE(s->Admit("http://s.com/a4.html", 1, seed_child).fetch);
  // Quotas are per site.
  EXPECT_TRUE(s->Admit("http://t.com/a3.html", 1, plain).fetch);
  // Malformed URLs are refused.
  EXPECT_FALSE(s->Admit("not a url", 1, plain).fetch);
  EXPECT_FALSE(s->Admit("", -5, plain).fetch);
}

TEST(UrlRuleStrategyTest, RefusedUrlsAreDeferredNotDropped) {
  StrategyOptions o = SmallOptions();  // NUM_P2 = 2
  std::unique_ptr<Strategy> s = MakeUrlRule(o, PhysicsTopic());
  FrontierState first, second;
  first.score = -7;  // BFS positions: 7 was queued before 9
  second.score = -9;
  ASSERT_TRUE(s->Admit("http://s.com/a1.html", 1, first).fetch);
  ASSERT_TRUE(s->Admit("http://s.com/a2.html", 1, first).fetch);
  const Admission a = s->Admit("http://s.com/a3.html", 1, first);
  const Admission b = s->Admit("http://s.com/a4.html", 1, second);
  ASSERT_FALSE(a.fetch);
  ASSERT_TRUE(a.defer_score.has_value());
  ASSERT_TRUE(b.defer_score.has_value());
  // Below every score the strategy admits (BFS positions, guided S >= 0),
  // in the same order as before.
  EXPECT_LT(*a.defer_score, -1e14);
  EXPECT_GT(*a.defer_score, *b.defer_score);
  EXPECT_THAT(a.reason, HasSubstr("NUM_P1 = 2"));
  // Back at the head of its queue, a deferred URL is fetched and counted.
  FrontierState back;
  back.score = *a.defer_score;
  EXPECT_TRUE(s->Admit("http://s.com/a3.html", 1, back).fetch);
  // Guided scores defer above explored ones and keep their order.
  FrontierState good, poor;
  good.score = 0.9;
  poor.score = 0.2;
  const Admission g = s->Admit("http://s.com/a5.html", 1, good);
  const Admission p = s->Admit("http://s.com/a6.html", 1, poor);
  ASSERT_TRUE(g.defer_score.has_value() && p.defer_score.has_value());
  EXPECT_GT(*g.defer_score, *p.defer_score);
  EXPECT_GT(*p.defer_score, *a.defer_score);
  // Corrupt scores still defer to a finite score.
  FrontierState nan_state;
  nan_state.score = std::nan("");
  const Admission n = s->Admit("http://s.com/a7.html", 1, nan_state);
  ASSERT_TRUE(n.defer_score.has_value());
  EXPECT_TRUE(std::isfinite(*n.defer_score));
  // A site outside the seed sites is never deferred: it is out of scope.
  o.sites = {"s.com"};
  std::unique_ptr<Strategy> scoped = MakeUrlRule(o, PhysicsTopic());
  EXPECT_FALSE(scoped->Admit("http://t.com/x", 1, first).defer_score);
  // The paper's rule: refused URLs are skipped.
  o = SmallOptions();
  o.url_rule.set_defer_refused(false);
  std::unique_ptr<Strategy> paper = MakeUrlRule(o, PhysicsTopic());
  ASSERT_TRUE(paper->Admit("http://s.com/a1.html", 1, first).fetch);
  ASSERT_TRUE(paper->Admit("http://s.com/a2.html", 1, first).fetch);
  const Admission skipped = paper->Admit("http://s.com/a3.html", 1, first);
  EXPECT_FALSE(skipped.fetch);
  EXPECT_FALSE(skipped.defer_score.has_value());
}

TEST(UrlRuleStrategyTest, LearnsThenGuides) {
  FakeSiteStore store;
  std::unique_ptr<Strategy> s = MakeUrlRule(SmallOptions(), PhysicsTopic());
  ASSERT_TRUE(s->AttachSiteStore(&store).ok());
  // Irrelevant pages teach nothing.
  for (int i = 1; i <= 5; ++i) {
    quark::AnalyzedPage p =
        MakePage(absl::StrCat("http://s.com/news/2008/", i, ".html"), {});
    s->ScoreLinks(Fetched(p, 0.05));
  }
  EXPECT_FALSE(store.Get("s.com").has_value());
  EXPECT_TRUE(s->Admit("http://s.com/news/x.html", 2, {}).fetch);
  TeachVideoPattern(*s);
  // Learned, guided and saved.
  std::optional<proto::SiteUrlRules> saved = store.Get("s.com");
  ASSERT_TRUE(saved.has_value());
  EXPECT_EQ(saved->phase(), proto::SiteUrlRules::PHASE_GUIDED);
  ASSERT_EQ(saved->patterns_size(), 1);
  EXPECT_EQ(saved->patterns(0).readable(),
            "http://s.com/physics/video/2008/*.html");
  EXPECT_EQ(saved->patterns(0).covered(), 4);
  EXPECT_EQ(saved->pages_analysed(), 9);
  // Non-matching URLs of the site are refused, matching ones fetched.
  Admission a = s->Admit("http://s.com/news/y.html", 2, {});
  EXPECT_FALSE(a.fetch);
  EXPECT_EQ(a.reason, "url-rule: no learned URL pattern of s.com matches");
  EXPECT_TRUE(s->Admit("http://s.com/physics/video/2008/77.html", 4, {}).fetch);
  // Guided admission knows no layer quota.
  for (int i = 0; i < 20; ++i) {
    EXPECT_TRUE(
        s->Admit(absl::StrCat("http://s.com/physics/video/2008/p", i, ".html"),
                 4, {})
            .fetch);
  }
  // Seeds always pass; other sites still explore.
  EXPECT_TRUE(s->Admit("http://s.com/", 0, s->SeedState()).fetch);
  EXPECT_TRUE(s->Admit("http://t.com/news/y.html", 2, {}).fetch);
}

TEST(UrlRuleStrategyTest, GuidedScoresFormulas46To48) {
  std::unique_ptr<Strategy> s = MakeUrlRule(SmallOptions(), PhysicsTopic());
  TeachVideoPattern(*s);
  quark::AnalyzedPage list =
      MakePage("http://s.com/physics/list.html",
               {{"http://s.com/physics/video/2008/9.html", "physics lecture"},
                {"http://s.com/physics/video/2009/1.html", ""},
                {"http://s.com/physics/video/2008/1.html", ""}});
  std::vector<ScoredLink> out = s->ScoreLinks(Fetched(list, 0, Inherited(0.4)));
  ASSERT_EQ(out.size(), 3u);
  // N = 5 pages analysed: (1−d)/N = 0.15/5 = 0.03. Parent: PR 0.4, C = 3 →
  // 0.133333. Siblings: only 2008/1.html was fetched (PR 0.8, C = 1): 0.8.
  //
  // L0 (matches, |D| = 0 → factor 1): part = 0.85·(0.133333 + 0.8)
  //   = 0.793333; PR = 0.823333. Content: anchor {physics, lecture} has 1
  //   of 2 topic terms (0.5), the URL both (1), no group title (1):
  //   1·(0.8·0.5 + 0.2·1) = 0.6. S = 0.4·0.6 + 0.6·0.823333 = 0.734.
  EXPECT_NEAR(out[0].state.sum, 0.85 * (0.4 / 3 + 0.8), kEps);
  EXPECT_NEAR(out[0].state.inherited, 0.03 + 0.85 * (0.4 / 3 + 0.8), kEps);
  EXPECT_NEAR(out[0].state.content, 0.6, kEps);
  EXPECT_NEAR(out[0].state.score, 0.734, kEps);
  // L1: 2009 ≠ 2008 → |D| = 4: part = 0.793333/4 = 0.198333; PR =
  //   0.228333; Content = 0.2·1 = 0.2; S = 0.08 + 0.6·0.228333 = 0.217.
  EXPECT_NEAR(out[1].state.inherited, 0.03 + 0.85 * (0.4 / 3 + 0.8) / 4, kEps);
  EXPECT_NEAR(out[1].state.content, 0.2, kEps);
  EXPECT_NEAR(out[1].state.score, 0.217, kEps);
  // L2 is the fetched sibling itself: siblings 0.8 − 0.8 = 0; part =
  //   0.85·0.133333 = 0.113333; PR = 0.143333; S = 0.08 + 0.086 = 0.166.
  EXPECT_NEAR(out[2].state.inherited, 0.03 + 0.85 * 0.4 / 3, kEps);
  EXPECT_NEAR(out[2].state.score, 0.166, kEps);
  EXPECT_EQ(out[2].state.depth_budget, 0);
}

TEST(UrlRuleStrategyTest, GroupTitleWeightsContent) {
  std::unique_ptr<Strategy> s = MakeUrlRule(SmallOptions(), PhysicsTopic());
  quark::AnalyzedPage p = MakePage(
      "http://s.com/",
      {{"http://s.com/physics/video/1.html", "physics lecture"}}, "physics");
  std::vector<ScoredLink> out = s->ScoreLinks(Fetched(p, 0));
  ASSERT_EQ(out.size(), 1u);
  // Score(group title) = cos("physics", topic) = 1/√2 (both topic terms
  // weigh the same); Content = 0.707107·(0.8·0.5 + 0.2·1) = 0.424264.
  EXPECT_NEAR(out[0].state.content, 0.6 / std::sqrt(2.0), kEps);
}

TEST(UrlRuleStrategyTest, MergeByHand) {
  std::unique_ptr<Strategy> s = MakeUrlRule(SmallOptions(), PhysicsTopic());
  FrontierState q{0.5, 0.3, 0, 0.2, 1, 0.5};
  FrontierState o{0.4, 0.25, 1, 0.2, 1, 0.3};
  FrontierState m = s->Merge(q, o);
  // Σ parts 0.2 + 0.2 = 0.4; (1−d)/N of the offer 0.25 − 0.2 = 0.05;
  // PR 0.45; Content max 0.5; S = 0.4·0.5 + 0.6·0.45 = 0.47.
  EXPECT_NEAR(m.sum, 0.4, kEps);
  EXPECT_NEAR(m.inherited, 0.45, kEps);
  EXPECT_EQ(m.count, 2);
  EXPECT_EQ(m.content, 0.5);
  EXPECT_EQ(m.depth_budget, 1);
  EXPECT_NEAR(m.score, 0.47, kEps);
  // Exploring: the earlier BFS entry keeps its place.
  FrontierState e1{-3, 0.3, 0, 0.2, 1, 0};
  FrontierState e2{-7, 0.3, 0, 0.2, 1, 0};
  EXPECT_EQ(s->Merge(e1, e2).score, -3);
  EXPECT_EQ(s->Merge(e2, e1).score, -3);
  // A seed stays a seed.
  EXPECT_EQ(s->Merge(s->SeedState(), o).score, kSeedScore);
  // A guided offer lifts a URL queued while exploring.
  EXPECT_GE(s->Merge(e1, o).score, 0);
}

TEST(UrlRuleStrategyTest, WithRankByHand) {
  std::unique_ptr<Strategy> s = MakeUrlRule(SmallOptions(), PhysicsTopic());
  TeachVideoPattern(*s);  // s.com: 4 pages analysed, guided
  // N = 4: (1−d)/N = 0.0375. R = 2 → PR = 2/4 = 0.5, sum 0.4625;
  // Content 0.5 → S = 0.4·0.5 + 0.6·0.5 = 0.5.
  FrontierState q{0.3, 0.2, 0, 0.1625, 2, 0.5};
  std::optional<FrontierState> r =
      s->WithRank("http://s.com/physics/video/2008/7.html", q, 2.0);
  ASSERT_TRUE(r.has_value());
  EXPECT_NEAR(r->inherited, 0.5, kEps);
  EXPECT_NEAR(r->sum, 0.4625, kEps);
  EXPECT_EQ(r->count, 2);
  EXPECT_NEAR(r->score, 0.5, kEps);
  // A later offer adds its part: Merge keeps the ranked PR as its base.
  FrontierState o{0.2, 0.0375 + 0.1, 0, 0.1, 1, 0.2};
  EXPECT_NEAR(s->Merge(*r, o).inherited, 0.0375 + 0.4625 + 0.1, kEps);
  // R = 0: PR is the teleport part 0.0375, sum 0.
  r = s->WithRank("http://s.com/x.html", q, 0.0);
  ASSERT_TRUE(r.has_value());
  EXPECT_NEAR(r->inherited, 0.0375, kEps);
  EXPECT_NEAR(r->sum, 0, kEps);
  // A site still exploring (no pages analysed: N = 1) keeps its BFS place.
  FrontierState e{-5, 0.2, 0, 0.05, 1, 0.5};
  r = s->WithRank("http://other.org/a.html", e, 0.5);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->score, -5);
  EXPECT_NEAR(r->inherited, 0.5, kEps);
  // Seeds, garbage ranks and URLs without a site change nothing.
  EXPECT_FALSE(s->WithRank("http://s.com/", s->SeedState(), 3).has_value());
  EXPECT_FALSE(s->WithRank("http://s.com/", q, -1).has_value());
  EXPECT_FALSE(s->WithRank("http://s.com/", q, NAN).has_value());
  EXPECT_FALSE(s->WithRank("not a url", q, 1).has_value());
}

TEST(UrlRuleStrategyTest, LearnFromMediaOrBoth) {
  StrategyOptions o = SmallOptions();
  o.url_rule.set_learn_from("media");
  std::unique_ptr<Strategy> media = MakeUrlRule(o, PhysicsTopic());
  o.url_rule.set_learn_from("both");
  std::unique_ptr<Strategy> both = MakeUrlRule(o, PhysicsTopic());
  for (int i = 1; i <= 4; ++i) {
    quark::AnalyzedPage p = MakePage(
        absl::StrCat("http://s.com/physics/video/2008/", i, ".html"), {});
    // Media without topical relevance.
    media->ScoreLinks(Fetched(p, 0.0, {}, /*media=*/true));
    both->ScoreLinks(Fetched(p, 0.0, {}, /*media=*/true));
  }
  EXPECT_FALSE(media->Admit("http://s.com/news/1.html", 2, {}).fetch);
  EXPECT_TRUE(both->Admit("http://s.com/news/1.html", 2, {}).fetch);
}

TEST(UrlRuleStrategyTest, TemplateLinksDoNotTeach) {
  // Every page links the banner page; the banner and three real pages are
  // relevant: 4 > m = 3 only with the banner, which is template-wide.
  std::unique_ptr<Strategy> s = MakeUrlRule(SmallOptions(), PhysicsTopic());
  const std::string banner = "http://s.com/physics/video/2008/banner.html";
  for (int i = 1; i <= 6; ++i) {
    quark::AnalyzedPage p = MakePage(
        absl::StrCat("http://s.com/news/", i, ".html"), {{banner, "flash"}});
    s->ScoreLinks(Fetched(p, 0));
  }
  quark::AnalyzedPage b = MakePage(banner, {});
  s->ScoreLinks(Fetched(b, 0.9));
  for (int i = 1; i <= 3; ++i) {
    quark::AnalyzedPage p =
        MakePage(absl::StrCat("http://s.com/physics/video/2008/", i, ".html"),
                 {{banner, "flash"}});
    s->ScoreLinks(Fetched(p, 0.9));
  }
  // 9 of 10 analysed pages link the banner (> 0.8): still exploring.
  EXPECT_TRUE(s->Admit("http://s.com/news/x.html", 2, {}).fetch);
  // A fourth real page makes the cluster.
  quark::AnalyzedPage p =
      MakePage("http://s.com/physics/video/2008/4.html", {});
  s->ScoreLinks(Fetched(p, 0.9));
  EXPECT_FALSE(s->Admit("http://s.com/news/y.html", 2, {}).fetch);
}

TEST(UrlRuleStrategyTest, RestartReloadsGuidedSite) {
  FakeSiteStore store;
  {
    std::unique_ptr<Strategy> s = MakeUrlRule(SmallOptions(), PhysicsTopic());
    ASSERT_TRUE(s->AttachSiteStore(&store).ok());
    TeachVideoPattern(*s);
  }
  std::unique_ptr<Strategy> again = MakeUrlRule(SmallOptions(), PhysicsTopic());
  ASSERT_TRUE(again->AttachSiteStore(&store).ok());
  const int loads = store.loads();
  Admission a = again->Admit("http://s.com/news/y.html", 2, {});
  EXPECT_FALSE(a.fetch);
  EXPECT_THAT(a.reason, HasSubstr("no learned URL pattern of s.com"));
  EXPECT_EQ(store.loads(), loads + 1);
  EXPECT_TRUE(
      again->Admit("http://s.com/physics/video/2008/5.html", 4, {}).fetch);
  EXPECT_EQ(store.loads(), loads + 1);  // loaded once
  // Links to the site are scored as guided right away.
  quark::AnalyzedPage p = MakePage(
      "http://t.com/", {{"http://s.com/physics/video/2008/6.html", ""}});
  std::vector<ScoredLink> out = again->ScoreLinks(Fetched(p, 0));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_GE(out[0].state.score, 0);
}

TEST(UrlRuleStrategyTest, SavesEveryFiftyPages) {
  FakeSiteStore store;
  std::unique_ptr<Strategy> s = MakeUrlRule(SmallOptions(), PhysicsTopic());
  ASSERT_TRUE(s->AttachSiteStore(&store).ok());
  for (int i = 0; i < 49; ++i) {
    ASSERT_TRUE(
        s->Admit(absl::StrCat("http://s.com/", i), 1, s->SeedState()).fetch);
  }
  EXPECT_EQ(store.saves(), 0);
  ASSERT_TRUE(s->Admit("http://s.com/x", 1, s->SeedState()).fetch);
  EXPECT_EQ(store.saves(), 1);
  std::optional<proto::SiteUrlRules> saved = store.Get("s.com");
  ASSERT_TRUE(saved.has_value());
  EXPECT_EQ(saved->pages_fetched(), 50);
  EXPECT_EQ(saved->phase(), proto::SiteUrlRules::PHASE_EXPLORING);
  ASSERT_EQ(saved->fetched_per_layer_size(), 2);
  EXPECT_EQ(saved->fetched_per_layer(1), 50);
  // Analysed pages count too.
  for (int i = 0; i < 50; ++i) {
    quark::AnalyzedPage p = MakePage(absl::StrCat("http://s.com/n/", i), {});
    s->ScoreLinks(Fetched(p, 0));
  }
  EXPECT_EQ(store.saves(), 2);
  EXPECT_EQ(store.Get("s.com")->pages_analysed(), 50);
}

TEST(UrlRuleStrategyTest, CorruptOrUnreadableStateExploresAgain) {
  FakeSiteStore store;
  store.Put("s.com", "\xff\xff not a proto");
  proto::SiteUrlRules inconsistent;
  inconsistent.set_host("t.com");
  inconsistent.set_phase(proto::SiteUrlRules::PHASE_GUIDED);  // no patterns
  store.Put("t.com", inconsistent.SerializeAsString());
  proto::SiteUrlRules wrong_host = SiteRulesToProto(SampleRules());
  store.Put("u.com", wrong_host.SerializeAsString());
  std::unique_ptr<Strategy> s = MakeUrlRule(SmallOptions(), PhysicsTopic());
  ASSERT_TRUE(s->AttachSiteStore(&store).ok());
  for (const char* host : {"s.com", "t.com", "u.com"}) {
    EXPECT_TRUE(
        s->Admit(absl::StrCat("http://", host, "/news/1.html"), 2, {}).fetch)
        << host;
  }
  // The corrupt value is overwritten by the next save.
  for (int i = 0; i < 50; ++i) {
    quark::AnalyzedPage p = MakePage(absl::StrCat("http://s.com/n/", i), {});
    s->ScoreLinks(Fetched(p, 0));
  }
  std::optional<proto::SiteUrlRules> saved = store.Get("s.com");
  ASSERT_TRUE(saved.has_value());
  EXPECT_EQ(saved->host(), "s.com");
  EXPECT_TRUE(SiteRulesFromProto(*saved).ok());

  FakeSiteStore failing;
  failing.set_fail_loads(true);
  std::unique_ptr<Strategy> f = MakeUrlRule(SmallOptions(), PhysicsTopic());
  ASSERT_TRUE(f->AttachSiteStore(&failing).ok());
  EXPECT_TRUE(f->Admit("http://s.com/news/1.html", 2, {}).fetch);
}

TEST(UrlRuleStrategyTest, HostilePages) {
  FakeSiteStore store;
  std::unique_ptr<Strategy> s = MakeUrlRule(SmallOptions(), PhysicsTopic());
  ASSERT_TRUE(s->AttachSiteStore(&store).ok());
  // 5000 links: all scored, in-link counting stays bounded.
  std::vector<LinkSpec> many;
  for (int i = 0; i < 5000; ++i) {
    many.push_back({absl::StrCat("http://s.com/x/", i, ".html"), "x"});
  }
  quark::AnalyzedPage big = MakePage("http://s.com/", many);
  EXPECT_EQ(s->ScoreLinks(Fetched(big, 0)).size(), 5000u);
  // Malformed page URL and links: nothing learned, only parseable links.
  std::string huge = "http://s.com";
  for (int i = 0; i < 10000; ++i) huge += "/a";
  quark::AnalyzedPage bad =
      MakePage(huge, {{"http://", ""}, {huge, ""}, {"http://s.com/ok", ""}});
  bad.document.links.push_back(html::Link{"relative/x", "",
                                          html::LinkKind::kAnchor,
                                          html::MediaType::kNone, false, -1});
  std::vector<ScoredLink> out = s->ScoreLinks(Fetched(bad, 0.9));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].link, 2);
  // NaN similarities (group titles) and relevance do not poison states.
  absl::StatusOr<std::unique_ptr<Strategy>> nan =
      MakeStrategy("url-rule", SmallOptions(),
                   [](absl::string_view) { return std::nan(""); });
  ASSERT_TRUE(nan.ok());
  quark::AnalyzedPage titled =
      MakePage("http://s.com/", {{"http://s.com/a", "a"}}, "title");
  FrontierState nan_state;
  nan_state.inherited = std::nan("");
  out = (*nan)->ScoreLinks(Fetched(titled, std::nan(""), nan_state));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(std::isfinite(out[0].state.inherited));
  EXPECT_TRUE(std::isfinite(out[0].state.score));
  EXPECT_EQ(out[0].state.content, 0);
  // 300 relevant pages of one directory: the sample stays at 200.
  for (int i = 0; i < 300; ++i) {
    quark::AnalyzedPage p =
        MakePage(absl::StrCat("http://s.com/r", i, "/p.html"), {});
    s->ScoreLinks(Fetched(p, 0.9));
  }
  // Force a save and look at the bounds.
  for (int i = 0; i < 50; ++i) {
    s->Admit(absl::StrCat("http://s.com/", i), 0, s->SeedState());
  }
  std::optional<proto::SiteUrlRules> saved = store.Get("s.com");
  ASSERT_TRUE(saved.has_value());
  EXPECT_LE(saved->relevant_urls_size(), 200);
  EXPECT_LE(saved->inlinks_size(), static_cast<int>(kUrlRuleMaxStoredInLinks));
  EXPECT_EQ(saved->phase(), proto::SiteUrlRules::PHASE_GUIDED);
  EXPECT_EQ(saved->patterns(0).readable(), "http://s.com/*/p.html");
}

TEST(UrlRuleStrategyTest, ConcurrentScoreLinksAndAdmit) {
  FakeSiteStore store;
  std::unique_ptr<Strategy> s = MakeUrlRule(SmallOptions(), PhysicsTopic());
  ASSERT_TRUE(s->AttachSiteStore(&store).ok());
  std::vector<quark::AnalyzedPage> pages;
  for (int i = 0; i < 200; ++i) {
    const std::string host = i % 2 == 0 ? "s.com" : "t.com";
    pages.push_back(MakePage(
        absl::StrCat("http://", host, "/physics/video/2008/", i, ".html"),
        {{absl::StrCat("http://s.com/physics/video/2008/", i + 1, ".html"),
          "physics"},
         {absl::StrCat("http://t.com/news/", i, ".html"), "news"}}));
  }
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (size_t i = t; i < pages.size(); i += 4) {
        EXPECT_EQ(s->ScoreLinks(Fetched(pages[i], 0.9)).size(), 2u);
      }
    });
  }
  threads.emplace_back([&] {
    for (int i = 0; i < 500; ++i) {
      s->Admit(absl::StrCat("http://s.com/news/", i, ".html"), 2, {});
    }
  });
  for (std::thread& t : threads) t.join();
  for (const char* host : {"s.com", "t.com"}) {
    std::optional<proto::SiteUrlRules> saved = store.Get(host);
    ASSERT_TRUE(saved.has_value()) << host;
    EXPECT_EQ(saved->phase(), proto::SiteUrlRules::PHASE_GUIDED);
  }
  EXPECT_FALSE(s->Admit("http://t.com/news/1.html", 2, {}).fetch);
}

}  // namespace
}  // namespace fcrawl::focus
