#include "worker/crawl_setup.h"

#include "absl/time/time.h"
#include "gtest/gtest.h"
#include "proto/crawl_config.pb.h"

namespace fcrawl::worker {
namespace {

TEST(CrawlSetupTest, UrlScopeOfTheScopeSection) {
  proto::Scope s;
  s.set_max_url_bytes(24);
  s.add_allowed_hosts("a.test");
  s.add_allowed_domains("b.example.com");
  const UrlScope scope = UrlScopeOf(s);
  EXPECT_TRUE(scope.InScope("a.test"));
  EXPECT_TRUE(scope.InScope("x.b.example.com"));
  EXPECT_FALSE(scope.InScope("c.test"));
  // "http://a.test/" + 10 bytes is 24: kept; one more is too long.
  EXPECT_TRUE(scope.Canonical("http://a.test/0123456789").has_value());
  EXPECT_FALSE(scope.Canonical("http://a.test/0123456789a").has_value());
  // Both lists empty: every host.
  EXPECT_TRUE(UrlScopeOf(proto::Scope()).InScope("anything.test"));
}

TEST(CrawlSetupTest, RevisitPolicyOfTheRevisitSection) {
  proto::Revisit r;
  r.set_initial_interval_ms(5000);
  r.set_min_interval_ms(1000);
  r.set_max_interval_ms(60000);
  const RevisitPolicy p = RevisitPolicyOf(r);
  EXPECT_EQ(p.initial, absl::Seconds(5));
  EXPECT_EQ(p.min, absl::Seconds(1));
  EXPECT_EQ(p.max, absl::Minutes(1));
  // Unset: the config's defaults, a day between an hour and 30 days.
  const RevisitPolicy d = RevisitPolicyOf(proto::Revisit());
  EXPECT_EQ(d.initial, absl::Hours(24));
  EXPECT_EQ(d.min, absl::Hours(1));
  EXPECT_EQ(d.max, absl::Hours(24 * 30));
}

}  // namespace
}  // namespace fcrawl::worker
