#include "core/host_port.h"

#include <optional>

#include "gtest/gtest.h"

namespace fcrawl {
namespace {

TEST(SplitHostPortTest, TheFourForms) {
  std::optional<HostPort> h = SplitHostPort("example.test");
  ASSERT_TRUE(h.has_value());
  EXPECT_EQ(h->host, "example.test");
  EXPECT_FALSE(h->port.has_value());
  h = SplitHostPort("example.test:8080");
  ASSERT_TRUE(h.has_value());
  EXPECT_EQ(h->host, "example.test");
  EXPECT_EQ(h->port, 8080);
  h = SplitHostPort("[::1]");
  ASSERT_TRUE(h.has_value());
  EXPECT_EQ(h->host, "[::1]");
  EXPECT_EQ(Unbracketed(h->host), "::1");
  EXPECT_FALSE(h->port.has_value());
  h = SplitHostPort("[2001:db8::7]:443");
  ASSERT_TRUE(h.has_value());
  EXPECT_EQ(Unbracketed(h->host), "2001:db8::7");
  EXPECT_EQ(h->port, 443);
  // Port 0 is a port (a listener's any free port); 65535 the last one.
  EXPECT_EQ(SplitHostPort("127.0.0.1:0")->port, 0);
  EXPECT_EQ(SplitHostPort("h:65535")->port, 65535);
  EXPECT_EQ(Unbracketed("example.test"), "example.test");
}

TEST(SplitHostPortTest, RefusesWhatIsNoHostPort) {
  for (const char* bad : {"", ":80", "::1", "::1:80", "[::1", "[]", "[::1]80",
                          "[::1]:", "h:", "h:65536", "h:123456", "h:8o", "h:-1",
                          "h: 80", "a b:80", "h\t:80", "h:+80"}) {
    EXPECT_FALSE(SplitHostPort(bad).has_value()) << bad;
  }
}

}  // namespace
}  // namespace fcrawl
