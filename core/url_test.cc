#include "core/url.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace fcrawl::url {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Pair;

// Debian's Abseil has its own string_view type, which gmock prints byte by
// byte; a std::string reads better in failure messages.
std::string Message(const absl::Status& status) {
  return std::string(status.message());
}

// The normalised spec of `in`, or "ERROR: <message>" so a failing expectation
// shows why parsing failed.
std::string Norm(absl::string_view in) {
  absl::StatusOr<Url> url = Parse(in);
  if (!url.ok()) return "ERROR: " + Message(url.status());
  return url->spec();
}

Url MustParse(absl::string_view in) {
  absl::StatusOr<Url> url = Parse(in);
  EXPECT_TRUE(url.ok()) << in << ": " << url.status();
  return url.ok() ? *url : *Parse("http://parse-failed.invalid/");
}

std::string Res(absl::string_view base, absl::string_view reference) {
  absl::StatusOr<Url> url = Resolve(MustParse(base), reference);
  if (!url.ok()) return "ERROR: " + Message(url.status());
  return url->spec();
}

void ExpectInvalid(absl::string_view in, absl::string_view message_part) {
  absl::StatusOr<Url> url = Parse(in);
  ASSERT_FALSE(url.ok()) << in << " parsed as " << url->spec();
  EXPECT_EQ(url.status().code(), absl::StatusCode::kInvalidArgument) << in;
  EXPECT_THAT(Message(url.status()), HasSubstr(std::string(message_part)))
      << in;
}

// --- Parse: accessors ---------------------------------------------------

TEST(ParseTest, Accessors) {
  Url url = MustParse("HTTPS://WWW.Example.COM:8443/a/b/c.html?x=1&y=2#top");
  EXPECT_EQ(url.scheme(), "https");
  EXPECT_EQ(url.host(), "www.example.com");
  EXPECT_EQ(url.port(), 8443);
  EXPECT_EQ(url.path(), "/a/b/c.html");
  EXPECT_EQ(url.query(), "x=1&y=2");
  EXPECT_EQ(url.spec(), "https://www.example.com:8443/a/b/c.html?x=1&y=2");
  EXPECT_THAT(url.PathSegments(), ElementsAre("a", "b", "c.html"));
  EXPECT_EQ(url.Directory(), "/a/b/");
}

TEST(ParseTest, AccessorsWithoutPortOrQuery) {
  Url url = MustParse("http://example.com");
  EXPECT_EQ(url.scheme(), "http");
  EXPECT_EQ(url.host(), "example.com");
  EXPECT_EQ(url.port(), -1);
  EXPECT_EQ(url.path(), "/");
  EXPECT_EQ(url.query(), "");
  EXPECT_THAT(url.PathSegments(), IsEmpty());
  EXPECT_EQ(url.Directory(), "/");
}

TEST(ParseTest, PathSegmentsAndDirectory) {
  Url dir = MustParse("http://h/a//b/");
  EXPECT_THAT(dir.PathSegments(), ElementsAre("a", "b"));
  EXPECT_EQ(dir.Directory(), "/a//b/");
  Url file = MustParse("http://h/file");
  EXPECT_THAT(file.PathSegments(), ElementsAre("file"));
  EXPECT_EQ(file.Directory(), "/");
}

TEST(ParseTest, EqualityHashAndOrder) {
  EXPECT_EQ(MustParse("http://A.com:80/./x#f"), MustParse("http://a.com/x"));
  EXPECT_NE(MustParse("http://a.com/x"), MustParse("https://a.com/x"));
  EXPECT_LT(MustParse("http://a.com/x"), MustParse("http://a.com/y"));
  absl::flat_hash_set<Url> set = {MustParse("http://a.com/%7e"),
                                  MustParse("http://A.COM/~")};
  EXPECT_EQ(set.size(), 1u);
}

// --- Parse: normalisation -------------------------------------------------

TEST(NormaliseTest, Case) {
  EXPECT_EQ(Norm("HTTP://Example.COM/Path/File.HTML?Q=V"),
            "http://example.com/Path/File.HTML?Q=V");
  EXPECT_EQ(Norm("hTtPs://EXAMPLE.com/"), "https://example.com/");
}

TEST(NormaliseTest, DotSegments) {
  EXPECT_EQ(Norm("http://h/a/./b/../c"), "http://h/a/c");
  EXPECT_EQ(Norm("http://h/a/b/c/./../../g"), "http://h/a/g");
  EXPECT_EQ(Norm("http://h/a/b/.."), "http://h/a/");
  EXPECT_EQ(Norm("http://h/a/b/."), "http://h/a/b/");
  EXPECT_EQ(Norm("http://h/../../x"), "http://h/x");
  EXPECT_EQ(Norm("http://h/.."), "http://h/");
  EXPECT_EQ(Norm("http://h/a/%2E%2e/b"), "http://h/b");  // Escaped dots too.
  EXPECT_EQ(Norm("http://h/a/.b/..c/c."), "http://h/a/.b/..c/c.");
  EXPECT_EQ(Norm("http://h/a/b/../../..//c"), "http://h//c");
  // Dot segments in the query are data, not path.
  EXPECT_EQ(Norm("http://h/a?b/../c"), "http://h/a?b/../c");
}

TEST(NormaliseTest, DefaultPorts) {
  EXPECT_EQ(Norm("http://h:80/"), "http://h/");
  EXPECT_EQ(Norm("https://h:443/"), "https://h/");
  EXPECT_EQ(Norm("http://h:443/"), "http://h:443/");
  EXPECT_EQ(Norm("https://h:80/"), "https://h:80/");
  EXPECT_EQ(Norm("http://h:08080/"), "http://h:8080/");
  EXPECT_EQ(Norm("http://h:/"), "http://h/");
  EXPECT_EQ(MustParse("http://h:80/").port(), -1);
  EXPECT_EQ(MustParse("http://h:8080/").port(), 8080);
}

TEST(NormaliseTest, PercentEncoding) {
  EXPECT_EQ(Norm("http://h/a%2fb%3a"), "http://h/a%2Fb%3A");  // Upper-cased.
  EXPECT_EQ(Norm("http://h/%7Euser/%41%62%2D%2E%5F"), "http://h/~user/Ab-._");
  EXPECT_EQ(Norm("http://h/%7e"), "http://h/~");
  EXPECT_EQ(Norm("http://h/a b"), "http://h/a%20b");
  EXPECT_EQ(Norm("http://h/?q=a b"), "http://h/?q=a%20b");
  EXPECT_EQ(Norm("http://h/caf\xC3\xA9"), "http://h/caf%C3%A9");
  EXPECT_EQ(Norm("http://h/\xE4\xB8\xAD?\xE6\x96\x87=1"),
            "http://h/%E4%B8%AD?%E6%96%87=1");
  EXPECT_EQ(Norm("http://h/a\x01"
                 "b"),
            "http://h/a%01b");
  EXPECT_EQ(Norm("http://h/<\"{|}>^`[]"),
            "http://h/%3C%22%7B%7C%7D%3E%5E%60%5B%5D");
  // Reserved characters keep their meaning and are left alone.
  EXPECT_EQ(Norm("http://h/a;b=c,d!$'()*+:@?x=/?&y"),
            "http://h/a;b=c,d!$'()*+:@?x=/?&y");
  // Escapes of reserved characters are kept (they mean something else).
  EXPECT_EQ(Norm("http://h/a%3Fb?c%26d=%3d"), "http://h/a%3Fb?c%26d=%3D");
}

TEST(NormaliseTest, FragmentDroppedAndEmptyParts) {
  EXPECT_EQ(Norm("http://h/a#frag"), "http://h/a");
  EXPECT_EQ(Norm("http://h/a?q#frag?x"), "http://h/a?q");
  EXPECT_EQ(Norm("http://h#f"), "http://h/");
  EXPECT_EQ(Norm("http://h/#%zz"), "http://h/");  // Fragment not inspected.
  EXPECT_EQ(Norm("http://h"), "http://h/");
  EXPECT_EQ(Norm("http://h?q=1"), "http://h/?q=1");
  EXPECT_EQ(Norm("http://h/?"), "http://h/");
}

TEST(NormaliseTest, Whitespace) {
  EXPECT_EQ(Norm("  \t http://h/a \n"), "http://h/a");
  EXPECT_EQ(Norm("http://h/a\n/b\t\r/c"), "http://h/a/b/c");
  EXPECT_EQ(Norm("ht\ntp://ex\tample.com/"), "http://example.com/");
}

TEST(NormaliseTest, Backslashes) {
  EXPECT_EQ(Norm("http:\\\\h\\a\\b"), "http://h/a/b");
  EXPECT_EQ(Norm("http://h/a?b\\c"), "http://h/a?b%5Cc");
}

TEST(NormaliseTest, Hosts) {
  EXPECT_EQ(Norm("http://Example.COM./"), "http://example.com/");
  EXPECT_EQ(Norm("http://ex%41mple.com/"), "http://example.com/");
  EXPECT_EQ(Norm("http://my_host.example/"), "http://my_host.example/");
  EXPECT_EQ(Norm("http://192.168.0.1:8080/x"), "http://192.168.0.1:8080/x");
  EXPECT_EQ(Norm("http://[2001:DB8::1]/"), "http://[2001:db8::1]/");
  EXPECT_EQ(Norm("http://[2001:db8:0:0:0:0:0:1]:8080/"),
            "http://[2001:db8::1]:8080/");
  EXPECT_EQ(Norm("https://[::FFFF:1.2.3.4]:443/"), "https://[::ffff:1.2.3.4]/");
  EXPECT_EQ(MustParse("http://[::1]/").host(), "[::1]");
  const std::string label63(63, 'a');
  EXPECT_EQ(Norm("http://" + label63 + ".com/"), "http://" + label63 + ".com/");
}

TEST(NormaliseTest, InternationalisedHosts) {
  EXPECT_EQ(Norm("http://b\xC3\xBC"
                 "cher.example/"),
            "http://xn--bcher-kva.example/");
  EXPECT_EQ(MustParse("http://B\xC3\x9C"
                      "CHER.example/")
                .host(),
            "xn--bcher-kva.example");
  // 例え.jp
  EXPECT_EQ(Norm("http://\xE4\xBE\x8B\xE3\x81\x88.jp/"),
            "http://xn--r8jz45g.jp/");
  // Ideographic full stop as the separator (UTS #46 maps it to '.').
  EXPECT_EQ(Norm("http://\xE4\xBE\x8B\xE3\x81\x88\xE3\x80\x82jp/"),
            "http://xn--r8jz45g.jp/");
  // Percent-encoded UTF-8 in the host.
  EXPECT_EQ(Norm("http://b%C3%BCcher.example/"),
            "http://xn--bcher-kva.example/");
  // Non-transitional: ß stays ß (as in browsers), not "ss".
  EXPECT_EQ(Norm("http://fa\xC3\x9F.de/"), "http://xn--fa-hia.de/");
  // Full-width ASCII maps to plain ASCII.
  EXPECT_EQ(Norm("http://\xEF\xBC\xA1\xEF\xBC\xA2.com/"), "http://ab.com/");
  // Already-punycode hosts are left as they are (lower-cased).
  EXPECT_EQ(Norm("http://XN--BCHER-KVA.example/"),
            "http://xn--bcher-kva.example/");
}

TEST(NormaliseTest, IsIdempotentOnExamples) {
  for (const char* in :
       {"http://h/a%2fb",
        "http://b\xC3\xBC"
        "cher.example/x y?\xC3\xA9#f",
        "https://[::1]:8443//a/./../b?c=%7e", "http://h/a/..%2F"}) {
    Url once = MustParse(in);
    EXPECT_EQ(MustParse(once.spec()), once) << in;
  }
}

// --- Parse: errors --------------------------------------------------------

TEST(ParseErrorTest, TooLong) {
  const std::string long_url = "http://h/" + std::string(3000 - 9, 'a');
  ExpectInvalid(long_url, "URL is 3000 bytes, longer than the 2048-byte limit");
  const std::string just_fits =
      "http://h/" + std::string(kMaxUrlLength - 9, 'a');
  EXPECT_TRUE(Parse(just_fits).ok());
  ExpectInvalid(just_fits + "a", "2049 bytes");
  // Within the limit as input, over it once spaces become %20.
  const std::string spaces = "http://h/" + std::string(1000, ' ') + "x";
  ExpectInvalid(spaces, "normalised URL is 3010 bytes");
}

TEST(ParseErrorTest, BadPercentEncoding) {
  ExpectInvalid("http://h/%zz", "invalid percent-encoding '%zz' in the path");
  ExpectInvalid("http://h/%4", "invalid percent-encoding '%4' in the path");
  ExpectInvalid("http://h/a%", "invalid percent-encoding");
  ExpectInvalid("http://h/?q=%g1", "in the query");
  ExpectInvalid("http://h%zz/", "in the host");
}

TEST(ParseErrorTest, UnsupportedSchemes) {
  ExpectInvalid("javascript:alert(1)", "unsupported scheme 'javascript'");
  ExpectInvalid("mailto:a@b.com", "unsupported scheme 'mailto'");
  ExpectInvalid("FTP://h/file", "unsupported scheme 'ftp'");
  ExpectInvalid("data:text/plain,hi", "unsupported scheme 'data'");
  ExpectInvalid("www.example.com/a", "no scheme");
  ExpectInvalid("/relative/path", "no scheme");
  ExpectInvalid("", "empty");
  ExpectInvalid("http:h/a", "expected '//' after 'http:'");
}

TEST(ParseErrorTest, BadHosts) {
  ExpectInvalid("http:///a", "empty host");
  ExpectInvalid("http://", "empty host");
  ExpectInvalid("http://:80/", "empty host");
  ExpectInvalid("http://./", "empty host");
  ExpectInvalid("http://a..b/", "empty label");
  ExpectInvalid("http://.a/", "empty label");
  ExpectInvalid("http://a b/", "invalid character ' '");
  ExpectInvalid("http://a$b.com/", "invalid character '$'");
  ExpectInvalid("http://" + std::string(64, 'a') + ".com/",
                "label longer than 63 bytes");
  std::string long_host;
  for (int i = 0; i < 26; ++i) long_host += "abcdefghi.";
  ExpectInvalid("http://" + long_host + "com/", "longer than the 253-byte");
  ExpectInvalid("http://[::1/", "lacks its ']'");
  ExpectInvalid("http://[1:2:3]/", "invalid IPv6 address");
  ExpectInvalid("http://[::1]x/", "after the IPv6 host");
  ExpectInvalid("http://a\xFF.com/", "cannot convert internationalised host");
  ExpectInvalid("http://b\xC3\xBC$cher.com/", "invalid character '$'");
}

TEST(ParseErrorTest, BadPorts) {
  ExpectInvalid("http://h:99999/", "port '99999' is out of range");
  ExpectInvalid("http://h:65536/", "out of range");
  ExpectInvalid("http://h:8x/", "invalid port '8x': not a number");
  ExpectInvalid("http://h:-1/", "not a number");
  ExpectInvalid("http://h:0/", "port 0");
  EXPECT_EQ(Norm("http://h:65535/"), "http://h:65535/");
}

TEST(ParseErrorTest, Userinfo) {
  ExpectInvalid("http://user:pass@h/", "userinfo");
  ExpectInvalid("http://user@h/", "userinfo");
  // '@' after the authority is just data.
  EXPECT_EQ(Norm("http://h/a@b?c@d"), "http://h/a@b?c@d");
}

// --- Resolve --------------------------------------------------------------

constexpr char kRfcBase[] = "http://a/b/c/d;p?q";

// RFC 3986 §5.4.1. Only differences: the fragment is dropped, "//g" gets the
// path "/", and "g:h" is refused because the crawler cannot fetch it.
TEST(ResolveTest, Rfc3986NormalExamples) {
  EXPECT_EQ(Res(kRfcBase, "g:h"),
            "ERROR: unsupported scheme 'g': only http and https URLs can be "
            "crawled");
  EXPECT_EQ(Res(kRfcBase, "g"), "http://a/b/c/g");
  EXPECT_EQ(Res(kRfcBase, "./g"), "http://a/b/c/g");
  EXPECT_EQ(Res(kRfcBase, "g/"), "http://a/b/c/g/");
  EXPECT_EQ(Res(kRfcBase, "/g"), "http://a/g");
  EXPECT_EQ(Res(kRfcBase, "//g"), "http://g/");
  EXPECT_EQ(Res(kRfcBase, "?y"), "http://a/b/c/d;p?y");
  EXPECT_EQ(Res(kRfcBase, "g?y"), "http://a/b/c/g?y");
  EXPECT_EQ(Res(kRfcBase, "#s"), "http://a/b/c/d;p?q");
  EXPECT_EQ(Res(kRfcBase, "g#s"), "http://a/b/c/g");
  EXPECT_EQ(Res(kRfcBase, "g?y#s"), "http://a/b/c/g?y");
  EXPECT_EQ(Res(kRfcBase, ";x"), "http://a/b/c/;x");
  EXPECT_EQ(Res(kRfcBase, "g;x"), "http://a/b/c/g;x");
  EXPECT_EQ(Res(kRfcBase, "g;x?y#s"), "http://a/b/c/g;x?y");
  EXPECT_EQ(Res(kRfcBase, ""), "http://a/b/c/d;p?q");
  EXPECT_EQ(Res(kRfcBase, "."), "http://a/b/c/");
  EXPECT_EQ(Res(kRfcBase, "./"), "http://a/b/c/");
  EXPECT_EQ(Res(kRfcBase, ".."), "http://a/b/");
  EXPECT_EQ(Res(kRfcBase, "../"), "http://a/b/");
  EXPECT_EQ(Res(kRfcBase, "../g"), "http://a/b/g");
  EXPECT_EQ(Res(kRfcBase, "../.."), "http://a/");
  EXPECT_EQ(Res(kRfcBase, "../../"), "http://a/");
  EXPECT_EQ(Res(kRfcBase, "../../g"), "http://a/g");
}

// RFC 3986 §5.4.2.
TEST(ResolveTest, Rfc3986AbnormalExamples) {
  EXPECT_EQ(Res(kRfcBase, "../../../g"), "http://a/g");
  EXPECT_EQ(Res(kRfcBase, "../../../../g"), "http://a/g");
  EXPECT_EQ(Res(kRfcBase, "/./g"), "http://a/g");
  EXPECT_EQ(Res(kRfcBase, "/../g"), "http://a/g");
  EXPECT_EQ(Res(kRfcBase, "g."), "http://a/b/c/g.");
  EXPECT_EQ(Res(kRfcBase, ".g"), "http://a/b/c/.g");
  EXPECT_EQ(Res(kRfcBase, "g.."), "http://a/b/c/g..");
  EXPECT_EQ(Res(kRfcBase, "..g"), "http://a/b/c/..g");
  EXPECT_EQ(Res(kRfcBase, "./../g"), "http://a/b/g");
  EXPECT_EQ(Res(kRfcBase, "./g/."), "http://a/b/c/g/");
  EXPECT_EQ(Res(kRfcBase, "g/./h"), "http://a/b/c/g/h");
  EXPECT_EQ(Res(kRfcBase, "g/../h"), "http://a/b/c/h");
  EXPECT_EQ(Res(kRfcBase, "g;x=1/./y"), "http://a/b/c/g;x=1/y");
  EXPECT_EQ(Res(kRfcBase, "g;x=1/../y"), "http://a/b/c/y");
  EXPECT_EQ(Res(kRfcBase, "g?y/./x"), "http://a/b/c/g?y/./x");
  EXPECT_EQ(Res(kRfcBase, "g?y/../x"), "http://a/b/c/g?y/../x");
  EXPECT_EQ(Res(kRfcBase, "g#s/./x"), "http://a/b/c/g");
  EXPECT_EQ(Res(kRfcBase, "g#s/../x"), "http://a/b/c/g");
  // Non-strict (browser) reading of a same-scheme reference.
  EXPECT_EQ(Res(kRfcBase, "http:g"), "http://a/b/c/g");
}

TEST(ResolveTest, AbsoluteAndNetworkPathReferences) {
  EXPECT_EQ(Res("http://a/b", "https://Other.com:443/x/../y#f"),
            "https://other.com/y");
  EXPECT_EQ(Res("https://a/b", "//cdn.example/lib.js"),
            "https://cdn.example/lib.js");
  EXPECT_EQ(Res("http://a/b", "HTTP://B/c"), "http://b/c");
  EXPECT_EQ(Res("http://a:8080/b/c", "d"), "http://a:8080/b/d");
  EXPECT_EQ(Res("http://a:8080/b/c", "//e/f"), "http://e/f");
  EXPECT_EQ(Res("http://[::1]:81/b/c", "?x"), "http://[::1]:81/b/c?x");
}

TEST(ResolveTest, NormalisesTheResult) {
  EXPECT_EQ(Res("http://a/b/c", "  d e.html\n"), "http://a/b/d%20e.html");
  EXPECT_EQ(Res("http://a/b/c", "%7Efoo/%2e%2e/x"), "http://a/b/x");
  EXPECT_EQ(Res("http://a/b/c", "..\\x\\y"), "http://a/x/y");
  EXPECT_EQ(Res("http://a/b/c", "?q=\xC3\xA9"), "http://a/b/c?q=%C3%A9");
  EXPECT_EQ(Res("http://a/b/c",
                "//b\xC3\xBC"
                "cher.example"),
            "http://xn--bcher-kva.example/");
}

TEST(ResolveTest, Errors) {
  const Url base = MustParse("http://a/b/c");
  for (const auto& [reference, scheme] :
       std::vector<std::pair<std::string, std::string>>{
           {"javascript:void(0)", "javascript"},
           {"JavaScript:void(0)", "javascript"},
           {"mailto:x@y.z", "mailto"},
           {"data:image/png;base64,AAAA", "data"},
           {"tel:+123", "tel"},
           {"ftp://h/f", "ftp"},
           {" \tjavascript:x", "javascript"}}) {
    absl::StatusOr<Url> url = Resolve(base, reference);
    ASSERT_FALSE(url.ok()) << reference;
    EXPECT_EQ(url.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(Message(url.status()),
                HasSubstr(absl::StrCat("unsupported scheme '", scheme, "'")));
  }
  EXPECT_THAT(Res("http://a/b", "//user@h/"), HasSubstr("userinfo"));
  EXPECT_THAT(Res("http://a/b", "%zz"), HasSubstr("invalid percent-encoding"));
  EXPECT_THAT(Res("http://a/b", "//"), HasSubstr("empty host"));
  EXPECT_THAT(Res("http://a/b", "https:x"),
              HasSubstr("expected '//' after 'https:'"));
  EXPECT_THAT(Res("http://a/b", std::string(3000, 'x')),
              HasSubstr("reference is 3000 bytes, longer than the 2048-byte"));
  // The reference fits but the resolved URL does not.
  const Url long_base =
      MustParse("http://a/" + std::string(1500, 'd') + "/file");
  EXPECT_THAT(Message(Resolve(long_base, std::string(1000, 'x')).status()),
              HasSubstr("normalised URL is 2510 bytes"));
}

// --- RegistrableDomain ----------------------------------------------------

TEST(RegistrableDomainTest, UsesThePublicSuffixList) {
  EXPECT_EQ(RegistrableDomain("www.bbc.co.uk"), "bbc.co.uk");
  EXPECT_EQ(RegistrableDomain("a.b.example.com"), "example.com");
  EXPECT_EQ(RegistrableDomain("example.com"), "example.com");
  EXPECT_EQ(RegistrableDomain("news.sina.com.cn"), "sina.com.cn");
  EXPECT_EQ(RegistrableDomain("WWW.Example.COM"), "example.com");
  EXPECT_EQ(RegistrableDomain("www.xn--bcher-kva.example"),
            "xn--bcher-kva.example");
}

TEST(RegistrableDomainTest, ReturnsHostItselfWhenThereIsNone) {
  EXPECT_EQ(RegistrableDomain("127.0.0.1"), "127.0.0.1");
  EXPECT_EQ(RegistrableDomain("[2001:db8::1]"), "[2001:db8::1]");
  EXPECT_EQ(RegistrableDomain("co.uk"), "co.uk");
  EXPECT_EQ(RegistrableDomain("com"), "com");
  EXPECT_EQ(RegistrableDomain(""), "");
}

// --- Structure and Distance -----------------------------------------------

UrlStructure S(absl::string_view url) { return Structure(MustParse(url)); }

TEST(StructureTest, SplitsHostDirsAndQuery) {
  UrlStructure s =
      S("http://www.cbe21.com/subject/physics/courseware.php?photo_id=100002");
  EXPECT_EQ(s.host, "www.cbe21.com");
  EXPECT_THAT(s.dirs, ElementsAre("subject", "physics", "courseware.php"));
  EXPECT_THAT(s.query, ElementsAre(Pair("photo_id", "100002")));

  UrlStructure t = S("http://h/a/?k=v&flag&&x=1=2&=e");
  EXPECT_THAT(t.dirs, ElementsAre("a"));
  EXPECT_THAT(t.query, ElementsAre(Pair("k", "v"), Pair("flag", ""),
                                   Pair("x", "1=2"), Pair("", "e")));
  EXPECT_THAT(S("http://h/").dirs, IsEmpty());
  EXPECT_THAT(S("http://h/").query, IsEmpty());
}

// Each expectation is computed by hand from
// dURL = dHost·(dPath+1)·(dQuery+1) − 1, dPath = 4k + 2(n−m).
TEST(DistanceTest, HandComputedValues) {
  // Identical: k=0, n−m=0, dQuery=0 → 1·1·1−1 = 0.
  EXPECT_EQ(Distance(S("http://h/a/b.html"), S("http://h/a/b.html")), 0);
  // Paper example: directory differs, k=1 → dPath=4 → 1·5·1−1 = 4.
  EXPECT_EQ(Distance(S("http://h/a/b/c.html"), S("http://h/a/x/c.html")), 4);
  // Different file names in the same directory: k=1 → 4.
  EXPECT_EQ(Distance(S("http://h/a/b/c.html"), S("http://h/a/b/d.html")), 4);
  // Extra directory at the end: m=1 {a}, n=2 {a,b}, k=0 → dPath=2 → 2.
  EXPECT_EQ(Distance(S("http://h/a/"), S("http://h/a/b/")), 2);
  // Inserted directory: {a,c.html} vs {a,b,c.html}; k=1 (c.html≠b),
  // n−m=1 → dPath=6 → 1·7·1−1 = 6.
  EXPECT_EQ(Distance(S("http://h/a/c.html"), S("http://h/a/b/c.html")), 6);
  // Only the query differs: dPath=0, dQuery=1 → 1·1·2−1 = 1.
  EXPECT_EQ(Distance(S("http://h/p.php?id=1"), S("http://h/p.php?id=2")), 1);
  EXPECT_EQ(Distance(S("http://h/p.php"), S("http://h/p.php?id=2")), 1);
  // Same pairs in another order count as different.
  EXPECT_EQ(Distance(S("http://h/p?a=1&b=2"), S("http://h/p?b=2&a=1")), 1);
  // Both: k=1 → dPath=4, dQuery=1 → 1·5·2−1 = 9.
  EXPECT_EQ(
      Distance(S("http://h/a/b/c.php?id=1"), S("http://h/a/x/c.php?id=2")), 9);
  // Two differing dirs plus two extra: k=2, n−m=2 → dPath=12, with a query
  // difference → 1·13·2−1 = 25.
  EXPECT_EQ(Distance(S("http://h/a/b?x=1"), S("http://h/c/d/e/f")), 25);
  // Root against a deep path: m=0, n=3 → dPath=6 → 6.
  EXPECT_EQ(Distance(S("http://h/"), S("http://h/a/b/c")), 6);
  // Symmetric.
  EXPECT_EQ(Distance(S("http://h/a/b/c"), S("http://h/")), 6);
}

TEST(DistanceTest, DifferentHostsAreNotCompared) {
  EXPECT_EQ(Distance(S("http://a.com/x"), S("http://b.com/x")), std::nullopt);
  EXPECT_EQ(Distance(S("http://www.a.com/x"), S("http://a.com/x")),
            std::nullopt);
}

// --- Link types -----------------------------------------------------------

LinkType Classify(absl::string_view from, absl::string_view to) {
  return ClassifyLink(MustParse(from), MustParse(to));
}

TEST(ClassifyLinkTest, EachType) {
  const char kFrom[] = "http://h/news/sport/index.html";
  EXPECT_EQ(Classify(kFrom, "http://h/news/sport/a.html"),
            LinkType::kHorizontal);
  EXPECT_EQ(Classify(kFrom, "http://h/news/sport/?page=2"),
            LinkType::kHorizontal);
  EXPECT_EQ(Classify(kFrom, kFrom), LinkType::kHorizontal);
  EXPECT_EQ(Classify(kFrom, "http://h/news/sport/2024/a.html"),
            LinkType::kDownward);
  EXPECT_EQ(Classify(kFrom, "http://h/news/sport/2024/"), LinkType::kDownward);
  EXPECT_EQ(Classify(kFrom, "http://h/news/a.html"), LinkType::kUpward);
  EXPECT_EQ(Classify(kFrom, "http://h/"), LinkType::kUpward);
  EXPECT_EQ(Classify(kFrom, "http://h/news/finance/a.html"),
            LinkType::kCrosswise);
  EXPECT_EQ(Classify(kFrom, "http://h/blog/x"), LinkType::kCrosswise);
  // "/news/sport2/" is not below "/news/sport/": whole segments only.
  EXPECT_EQ(Classify(kFrom, "http://h/news/sport2/a.html"),
            LinkType::kCrosswise);
  EXPECT_EQ(Classify(kFrom, "http://other/news/sport/a.html"),
            LinkType::kOutward);
  EXPECT_EQ(Classify(kFrom, "http://www.h/news/sport/a.html"),
            LinkType::kOutward);
  // Scheme and port do not make another site.
  EXPECT_EQ(Classify(kFrom, "https://h:8443/news/sport/a.html"),
            LinkType::kHorizontal);
}

TEST(ClassifyLinkTest, Names) {
  EXPECT_EQ(LinkTypeName(LinkType::kDownward), "downward");
  EXPECT_EQ(LinkTypeName(LinkType::kUpward), "upward");
  EXPECT_EQ(LinkTypeName(LinkType::kHorizontal), "horizontal");
  EXPECT_EQ(LinkTypeName(LinkType::kCrosswise), "crosswise");
  EXPECT_EQ(LinkTypeName(LinkType::kOutward), "outward");
}

// --- Robustness -----------------------------------------------------------

// Pseudo-random inputs, half raw bytes and half built from URL-ish pieces so
// that many of them parse. Checks only that nothing crashes and that
// normalisation is idempotent: Parse(u.spec()) == u for every accepted u.
TEST(RobustnessTest, RandomInputsDoNotCrashAndNormaliseIdempotently) {
  std::mt19937 rng(20240601);
  auto pick = [&rng](size_t n) { return static_cast<size_t>(rng() % n); };
  const std::vector<std::string> prefixes = {"http://",
                                             "https://",
                                             "HTTP://",
                                             "http:",
                                             "http:\\\\",
                                             "//",
                                             "",
                                             "ftp://",
                                             "javascript:",
                                             "http://[::1]",
                                             "https://b\xC3\xBC",
                                             "../",
                                             "?",
                                             "#"};
  const std::vector<std::string> pieces = {"a",
                                           "B",
                                           "0",
                                           "9",
                                           ".",
                                           "..",
                                           "/",
                                           "\\",
                                           "?",
                                           "#",
                                           "%",
                                           "%2e",
                                           "%2E",
                                           "%7e",
                                           "%zz",
                                           "%4",
                                           "%00",
                                           "%C3%BC",
                                           ":",
                                           ":80",
                                           ":443",
                                           ":65536",
                                           "@",
                                           "[",
                                           "]",
                                           "::",
                                           "-",
                                           "_",
                                           "~",
                                           " ",
                                           "\t",
                                           "\n",
                                           "&",
                                           "=",
                                           "\xC3\xBC",
                                           "\xE4\xBE\x8B",
                                           "\xE3\x80\x82",
                                           "\xFF",
                                           "xn--",
                                           "example",
                                           ".com",
                                           "/./",
                                           "/../",
                                           "%2F",
                                           "\x7F",
                                           "\x01",
                                           "$",
                                           "'",
                                           "|",
                                           "^"};
  const Url base = MustParse("http://a/b/c/d;p?q");
  const Url base_idn = MustParse(
      "https://b\xC3\xBC"
      "cher.example:8443/x/y/");
  int parsed = 0;
  int resolved = 0;
  const std::vector<std::string> hosts = {"example.com",
                                          "EXAMPLE.com.",
                                          "b\xC3\xBC"
                                          "cher.example",
                                          "[::1]",
                                          "[2001:DB8:0::1]:80",
                                          "h:8080",
                                          "h:80",
                                          "h:",
                                          "1.2.3.4",
                                          "xn--bcher-kva.example",
                                          "%41.com",
                                          "\xE4\xBE\x8B.jp"};
  for (int i = 0; i < 10000; ++i) {
    std::string input;
    switch (i % 3) {
      case 0: {  // Raw bytes, sometimes behind a plausible prefix.
        const size_t length = pick(64);
        for (size_t j = 0; j < length; ++j) {
          input.push_back(static_cast<char>(pick(256)));
        }
        if (pick(2) == 0) input = prefixes[pick(prefixes.size())] + input;
        break;
      }
      case 1: {  // URL-ish pieces in any order.
        input = prefixes[pick(prefixes.size())];
        const size_t count = pick(24);
        for (size_t j = 0; j < count; ++j) input += pieces[pick(pieces.size())];
        break;
      }
      default: {  // A valid start, then URL-ish pieces for path and query.
        input = absl::StrCat(pick(2) == 0 ? "http://" : "HTTPS://",
                             hosts[pick(hosts.size())], "/");
        const size_t count = pick(24);
        for (size_t j = 0; j < count; ++j) input += pieces[pick(pieces.size())];
        break;
      }
    }

    absl::StatusOr<Url> url = Parse(input);
    if (url.ok()) {
      ++parsed;
      absl::StatusOr<Url> again = Parse(url->spec());
      ASSERT_TRUE(again.ok()) << "input '" << input << "' gave " << url->spec()
                              << " which fails: " << again.status();
      ASSERT_EQ(again->spec(), url->spec()) << "input '" << input << "'";
    } else {
      ASSERT_FALSE(url.status().message().empty());
    }

    for (const Url* b : {&base, &base_idn}) {
      absl::StatusOr<Url> r = Resolve(*b, input);
      if (!r.ok()) continue;
      ++resolved;
      absl::StatusOr<Url> again = Parse(r->spec());
      ASSERT_TRUE(again.ok())
          << "reference '" << input << "' gave " << r->spec()
          << " which fails: " << again.status();
      ASSERT_EQ(again->spec(), r->spec()) << "reference '" << input << "'";
    }
  }
  // The property is only meaningful if a good share of inputs got through.
  EXPECT_GT(parsed, 1000);
  EXPECT_GT(resolved, 4000);
}

TEST(StripSessionIdsTest, RemovesSessionParametersOnly) {
  auto strip = [](absl::string_view spec) {
    absl::StatusOr<Url> u = Parse(spec);
    EXPECT_TRUE(u.ok()) << spec;
    return StripSessionIds(*u).spec();
  };
  EXPECT_EQ(strip("http://a.test/login.html?sid=0123456789abcdef"),
            "http://a.test/login.html");
  EXPECT_EQ(strip("http://a.test/x?a=1&PHPSESSID=zz&b=2"),
            "http://a.test/x?a=1&b=2");
  EXPECT_EQ(strip("http://a.test/x?ASPSESSIONIDQQGG=1&jsessionid=2"),
            "http://a.test/x");
  EXPECT_EQ(strip("http://a.test/shop;jsessionid=ABC123/item?id=7"),
            "http://a.test/shop/item?id=7");
  EXPECT_EQ(strip("http://a.test/cart;JSESSIONID=ABC"), "http://a.test/cart");
  // Not session ids: kept as they are, in order.
  EXPECT_EQ(strip("http://a.test/x?side=1&sids=2&q=sid"),
            "http://a.test/x?side=1&sids=2&q=sid");
  EXPECT_EQ(strip("http://a.test:8080/x?sid="), "http://a.test:8080/x");
  // Neither a path parameter nor a query: the URL as it was.
  EXPECT_EQ(strip("http://a.test/plain/page.html"),
            "http://a.test/plain/page.html");
  EXPECT_EQ(strip("http://a.test/x;v=1"), "http://a.test/x;v=1");
  EXPECT_TRUE(IsSessionIdParameter("SessionId"));
  EXPECT_TRUE(IsSessionIdParameter("PHPSESSID"));
  EXPECT_TRUE(IsSessionIdParameter("AspSessionIdXYZ"));
  EXPECT_FALSE(IsSessionIdParameter("aspsession"));
  EXPECT_FALSE(IsSessionIdParameter("session"));
}

}  // namespace
}  // namespace fcrawl::url
