// Tests of the URL-rule learner (focus/url_rule.h, [MMTOPIC] §4.3): URL
// decomposition and distance, pattern extraction, clustering, learning a
// site's patterns, template links, PatternSet, the stored rules and their
// listing, and hostile URLs. The url-rule strategy built on it is tested in
// url_rule_strategy_test.cc.
#include "focus/url_rule.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/url.h"
#include "focus/url_rule_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "proto/url_rules.pb.h"

namespace fcrawl::focus {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using url_rule_testing::Numbered;
using url_rule_testing::Parts;
using url_rule_testing::Pattern;
using url_rule_testing::SampleRules;

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

}  // namespace
}  // namespace fcrawl::focus
