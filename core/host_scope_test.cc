#include "core/host_scope.h"

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "core/url.h"
#include "gtest/gtest.h"

namespace fcrawl::url {
namespace {

using Names = std::vector<std::string>;

TEST(NormalisedHostTest, AsUrlParseWritesIt) {
  EXPECT_EQ(NormalisedHost("WWW.Example.COM"), "www.example.com");
  EXPECT_EQ(NormalisedHost("bücher.de"), "xn--bcher-kva.de");
  EXPECT_EQ(NormalisedHost("[::1]"), "[::1]");
  EXPECT_EQ(NormalisedHost("example.com:80"), "");
  EXPECT_EQ(NormalisedHost("http://example.com"), "");
  EXPECT_EQ(NormalisedHost("example.com/a"), "");
  EXPECT_EQ(NormalisedHost("a b.com"), "");
  EXPECT_EQ(NormalisedHost(""), "");
}

// NormalisedHost's shortcut for plain lower-case names must give what the
// URL parse gives, on both sides of every rule of the shortcut.
TEST(NormalisedHostTest, PlainNamesAsTheUrlParseGivesThem) {
  const std::string label63(63, 'x');
  const std::string long_name =  // 253 bytes
      absl::StrCat(label63, ".", label63, ".", label63, ".", label63.substr(6),
                   ".com");
  ASSERT_EQ(long_name.size(), 253u);
  for (const std::string& name : Names{"example.com",
                                       "www.a-b.example.co.uk",
                                       "a",
                                       "localhost",
                                       "a1.b2",
                                       "f000123-news.test",
                                       "1.2.3.4",
                                       "1.2.3.a",
                                       "0x7f.1",
                                       "a.0x7f",
                                       "a.b1",
                                       "a.1b",
                                       "-a.com",
                                       "a-.com",
                                       "a..com",
                                       ".a.com",
                                       "a.com.",
                                       "xn--bcher-kva.de",
                                       "a.xn--p1ai",
                                       "a_b.com",
                                       "A.com",
                                       label63,
                                       label63 + "x.com",
                                       long_name,
                                       long_name + "x",
                                       "ab--cd.com"}) {
    absl::StatusOr<Url> u = Parse(absl::StrCat("http://", name, "/"));
    const std::string by_parse =
        u.ok() && u->port() == -1 && u->path() == "/" && u->query().empty()
            ? std::string(u->host())
            : "";
    EXPECT_EQ(NormalisedHost(name), by_parse) << name;
  }
}

TEST(HostScopeTest, EmptyListsAdmitEverything) {
  EXPECT_TRUE(HostScope().Contains("any.test"));
  EXPECT_TRUE(HostScope(Names{}, Names{}).Contains("any.test"));
}

TEST(HostScopeTest, HostsExactlyDomainsWithEverythingUnder) {
  const HostScope scope(Names{"www.a.test", "Mixed.B.Test", "bücher.de"},
                        Names{"c.test", "example.co.uk"});
  EXPECT_TRUE(scope.Contains("www.a.test"));
  EXPECT_FALSE(scope.Contains("a.test"));
  EXPECT_FALSE(scope.Contains("x.www.a.test"));
  EXPECT_TRUE(scope.Contains("mixed.b.test"));
  EXPECT_TRUE(scope.Contains("xn--bcher-kva.de"));
  EXPECT_TRUE(scope.Contains("c.test"));
  EXPECT_TRUE(scope.Contains("deep.sub.c.test"));
  EXPECT_FALSE(scope.Contains("evilc.test"));
  EXPECT_FALSE(scope.Contains("c.test.evil"));
  EXPECT_TRUE(scope.Contains("news.example.co.uk"));
  EXPECT_FALSE(scope.Contains("co.uk"));
  EXPECT_FALSE(scope.Contains("other.co.uk"));
  EXPECT_FALSE(scope.Contains(""));
}

// Lists that only hold entries that do not normalise admit nothing (the
// config's validation refuses such lists before a crawl starts).
TEST(HostScopeTest, UnusableEntriesAdmitNothing) {
  const HostScope scope(Names{"http://a.test/"}, Names{});
  EXPECT_FALSE(scope.Contains("a.test"));
}

TEST(HostScopeTest, LargeListsByLookup) {
  Names hosts, domains;
  for (int i = 0; i < 200000; ++i) {
    hosts.push_back(absl::StrCat("h", i, ".test"));
    domains.push_back(absl::StrCat("d", i, ".test"));
  }
  const HostScope scope(hosts, domains);
  EXPECT_TRUE(scope.Contains("h199999.test"));
  EXPECT_TRUE(scope.Contains("www.d123456.test"));
  EXPECT_FALSE(scope.Contains("h200000.test"));
  EXPECT_FALSE(scope.Contains("www.h5.test"));
}

}  // namespace
}  // namespace fcrawl::url
