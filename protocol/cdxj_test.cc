#include "protocol/cdxj.h"

#include "gtest/gtest.h"

namespace fcrawl::protocol {
namespace {

TEST(SurtKeyTest, AsWarcioAndPywbWriteIt) {
  EXPECT_EQ(SurtKey("http://example.com/"), "com,example)/");
  EXPECT_EQ(SurtKey("http://example.com"), "com,example)/");
  EXPECT_EQ(SurtKey("https://h2.test/robots.txt"), "test,h2)/robots.txt");
  // www and www<n> dropped; the rest lower-cased; query parameters sorted.
  EXPECT_EQ(SurtKey("http://www.Example.com/A/B.html?z=1&a=2&m"),
            "com,example)/a/b.html?a=2&m&z=1");
  EXPECT_EQ(SurtKey("http://www2.example.com/x"), "com,example)/x");
  EXPECT_EQ(SurtKey("http://wwwx.example.com/x"), "com,example,wwwx)/x");
  // Default ports dropped, others kept; fragments and user info dropped.
  EXPECT_EQ(SurtKey("http://example.com:80/p"), "com,example)/p");
  EXPECT_EQ(SurtKey("https://example.com:443/p"), "com,example)/p");
  EXPECT_EQ(SurtKey("http://example.com:8080/p#top"), "com,example:8080)/p");
  EXPECT_EQ(SurtKey("https://u:pw@a.b.example.org/"), "org,example,b,a)/");
  EXPECT_EQ(SurtKey("http://example.com/?"), "com,example)/");
  // IP addresses are reversed too, as warcio does.
  EXPECT_EQ(SurtKey("http://192.0.2.1/x"), "1,2,0,192)/x");
  EXPECT_EQ(SurtKey("http://[::1]:8080/x"), "[::1]:8080)/x");
  // Not http(s): as it is.
  EXPECT_EQ(SurtKey("dns:example.com"), "dns:example.com");
}

TEST(CdxjLineTest, FieldsOfAResponseRecord) {
  CdxjRecord r;
  r.url = "http://www.example.com/a?b=1";
  r.warc_date = "2026-11-26T23:34:00.827643Z";
  r.response_head =
      "HTTP/1.1 404 Not Found\r\nServer: x\r\n"
      "Content-Type: Text/HTML ; charset=utf-8\r\n\r\n";
  r.payload_digest = "sha1:GDP5FU53RJ7DEQN5O6JOSCUY5O3QXY5E";
  r.length = 533;
  r.offset = 794;
  r.filename = "crawl-1.warc.gz";
  EXPECT_EQ(
      CdxjLine(r),
      "com,example)/a?b=1 20261126233400 "
      "{\"url\":\"http://www.example.com/a?b=1\",\"mime\":\"Text/HTML\","
      "\"status\":\"404\",\"digest\":\"GDP5FU53RJ7DEQN5O6JOSCUY5O3QXY5E\","
      "\"length\":\"533\",\"offset\":\"794\","
      "\"filename\":\"crawl-1.warc.gz\"}");
  // No Content-Type: no mime field.
  r.response_head = "HTTP/2 200 \r\ncontent-length: 0\r\n\r\n";
  EXPECT_EQ(CdxjLine(r).find("\"mime\""), std::string::npos);
  EXPECT_NE(CdxjLine(r).find("\"status\":\"200\""), std::string::npos);
}

}  // namespace
}  // namespace fcrawl::protocol
