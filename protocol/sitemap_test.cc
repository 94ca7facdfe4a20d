#include "protocol/sitemap.h"

#include <zlib.h>

#include <string>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace fcrawl::protocol {
namespace {

using ::testing::HasSubstr;

std::string Gzip(const std::string& data) {
  z_stream z{};
  EXPECT_EQ(deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY),
            Z_OK);
  std::string out(deflateBound(&z, data.size()) + 64, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

std::vector<std::string> Locs(const Sitemap& s) {
  std::vector<std::string> out;
  for (const SitemapEntry& e : s.entries) out.push_back(e.loc);
  return out;
}

constexpr char kUrlSet[] =
    R"(<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc> http://a.test/one.html </loc><lastmod>2024-05-01</lastmod>
    <changefreq>daily</changefreq></url>
  <url><loc>http://a.test/two?x=1&amp;y=2</loc>
    <lastmod>2024-05-01T10:20:30+02:00</lastmod></url>
  <url><loc><![CDATA[http://a.test/three.html]]></loc><lastmod>soon</lastmod></url>
  <url><lastmod>2024-01-01</lastmod></url>
</urlset>)";

TEST(SitemapTest, UrlSetWithLastmod) {
  absl::StatusOr<Sitemap> s = ParseSitemap(kUrlSet);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->kind, Sitemap::Kind::kUrlSet);
  EXPECT_THAT(Locs(*s), testing::ElementsAre("http://a.test/one.html",
                                             "http://a.test/two?x=1&y=2",
                                             "http://a.test/three.html"));
  EXPECT_EQ(s->entries[0].lastmod_ms, int64_t{1714521600000});
  // 10:20:30 at +02:00 is 08:20:30 UTC.
  EXPECT_EQ(s->entries[1].lastmod_ms, int64_t{1714521600000} + 30030000);
  EXPECT_EQ(s->entries[2].lastmod_ms, std::nullopt);
  EXPECT_THAT(s->warning, HasSubstr("without <loc>"));
  // The same gzip-compressed.
  absl::StatusOr<Sitemap> z = ParseSitemap(Gzip(kUrlSet));
  ASSERT_TRUE(z.ok()) << z.status();
  EXPECT_EQ(Locs(*z), Locs(*s));
}

TEST(SitemapTest, IndexAndText) {
  absl::StatusOr<Sitemap> s = ParseSitemap(
      "<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"
      "<sitemap><loc>http://a.test/s1.xml.gz</loc></sitemap>"
      "<sitemap><loc>http://a.test/s2.xml</loc>"
      "<lastmod>2024-05-01T10:20Z</lastmod></sitemap></sitemapindex>");
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->kind, Sitemap::Kind::kIndex);
  EXPECT_THAT(Locs(*s), testing::ElementsAre("http://a.test/s1.xml.gz",
                                             "http://a.test/s2.xml"));
  EXPECT_EQ(s->entries[1].lastmod_ms, int64_t{1714521600000} + 37200000);
  absl::StatusOr<Sitemap> t = ParseSitemap(
      "\xEF\xBB\xBFhttp://a.test/a\r\n\r\nnot a url\nHTTPS://a.test/b\n");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->kind, Sitemap::Kind::kText);
  EXPECT_THAT(Locs(*t),
              testing::ElementsAre("http://a.test/a", "HTTPS://a.test/b"));
}

TEST(SitemapTest, W3cDatetimes) {
  EXPECT_EQ(ParseW3cDatetime("1970-01-02"), 86400000);
  EXPECT_EQ(ParseW3cDatetime("1970-01-01T00:00:01.5Z"), 1500);
  EXPECT_EQ(ParseW3cDatetime("1970-01-01T01:00:00+01:00"), 0);
  EXPECT_EQ(ParseW3cDatetime("1970-02"), 31 * 86400000LL);
  EXPECT_EQ(ParseW3cDatetime("1971"), 365 * 86400000LL);
  for (const char* bad :
       {"", "yesterday", "2024-13-01", "2024-05-01T25:00Z", "2024-05-01 10:00",
        "infinite-future", "infinite-past", "20224", "20224-01-01", "+2024",
        "-001-01-01"}) {
    EXPECT_EQ(ParseW3cDatetime(bad), std::nullopt) << bad;
  }
}

TEST(SitemapTest, LimitsOfTheProtocolAndOurs) {
  std::string xml = "<urlset>";
  for (int i = 0; i < 120; ++i) {
    absl::StrAppend(&xml, "<url><loc>http://a.test/", i, "</loc></url>");
  }
  xml += "</urlset>";
  SitemapLimits limits;
  limits.max_urls = 100;
  absl::StatusOr<Sitemap> s = ParseSitemap(xml, limits);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->entries.size(), 100u);
  EXPECT_EQ(s->over_limit, 20);
  // A gzip bomb stops at the uncompressed limit.
  limits.max_uncompressed_bytes = 1 << 20;
  const std::string bomb = Gzip("<urlset>" + std::string(8 << 20, ' '));
  EXPECT_LT(bomb.size(), 20000u);
  absl::StatusOr<Sitemap> b = ParseSitemap(bomb, limits);
  EXPECT_FALSE(b.ok());
  EXPECT_THAT(b.status().message(), HasSubstr("bytes uncompressed"));
  EXPECT_FALSE(ParseSitemap(std::string(2 << 20, 'x'), limits).ok());
  // A location longer than any URL is dropped, not kept.
  absl::StatusOr<Sitemap> l = ParseSitemap(
      "<urlset><url><loc>http://a.test/" + std::string(5000, 'a') +
      "</loc></url><url><loc>http://a.test/ok</loc></url></urlset>");
  ASSERT_TRUE(l.ok()) << l.status();
  EXPECT_THAT(Locs(*l), testing::ElementsAre("http://a.test/ok"));
}

TEST(SitemapTest, HostileAndBrokenFiles) {
  // Not a sitemap: an HTML error page, an RSS feed.
  EXPECT_THAT(ParseSitemap("<html><body>404</body></html>").status().message(),
              HasSubstr("neither <urlset> nor <sitemapindex>"));
  EXPECT_FALSE(ParseSitemap("<rss><channel></channel></rss>").ok());
  EXPECT_FALSE(ParseSitemap("<urlset><url><loc>http://a").ok());
  EXPECT_FALSE(ParseSitemap("").ok());
  // Broken after some entries: they are kept, with a warning.
  absl::StatusOr<Sitemap> cut = ParseSitemap(
      "<urlset><url><loc>http://a.test/1</loc></url><url><loc>http://a.te");
  ASSERT_TRUE(cut.ok()) << cut.status();
  EXPECT_THAT(Locs(*cut), testing::ElementsAre("http://a.test/1"));
  EXPECT_THAT(cut->warning, HasSubstr("not well-formed"));
  // Entities are not expanded (no billion laughs, no external files).
  const std::string laughs =
      "<?xml version=\"1.0\"?><!DOCTYPE urlset ["
      "<!ENTITY a \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\">"
      "<!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">"
      "<!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\">"
      "<!ENTITY d \"&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;\">"
      "<!ENTITY e \"&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;\">"
      "<!ENTITY f \"&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;\">"
      "<!ENTITY x SYSTEM \"file:///etc/passwd\">]>"
      "<urlset><url><loc>http://a.test/&f;</loc></url>"
      "<url><loc>http://a.test/&x;</loc></url>"
      "<url><loc>http://a.test/plain</loc></url></urlset>";
  // libxml2 refuses the file (an error that names it), or reads it
  // without expanding: either way no location grows or leaks a file.
  absl::StatusOr<Sitemap> l = ParseSitemap(laughs);
  if (l.ok()) {
    for (const SitemapEntry& e : l->entries) {
      EXPECT_LT(e.loc.size(), 100u) << e.loc.substr(0, 100);
      EXPECT_EQ(e.loc.find("root:"), std::string::npos);
    }
  } else {
    EXPECT_THAT(l.status().message(), HasSubstr("not well-formed"));
  }
  // An external entity alone is not fetched.
  absl::StatusOr<Sitemap> x = ParseSitemap(
      "<?xml version=\"1.0\"?><!DOCTYPE urlset ["
      "<!ENTITY x SYSTEM \"file:///etc/passwd\">]>"
      "<urlset><url><loc>http://a.test/&x;</loc></url>"
      "<url><loc>http://a.test/plain</loc></url></urlset>");
  ASSERT_TRUE(x.ok()) << x.status();
  for (const SitemapEntry& e : x->entries) {
    EXPECT_EQ(e.loc.find("root:"), std::string::npos) << e.loc;
  }
  EXPECT_THAT(Locs(*x), testing::Contains("http://a.test/plain"));
  // Deep nesting is bounded by the reader.
  std::string deep = "<urlset>";
  for (int i = 0; i < 100000; ++i) deep += "<a>";
  absl::StatusOr<Sitemap> d = ParseSitemap(deep);
  EXPECT_TRUE(!d.ok() || d->entries.empty());
}

}  // namespace
}  // namespace fcrawl::protocol
