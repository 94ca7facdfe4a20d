#include "worker/crawl_setup.h"

#include <string>
#include <vector>

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

TEST(CrawlSetupTest, ParseOptionsOfTheConfig) {
  proto::CrawlConfig c;
  c.mutable_politeness()->set_user_agent("probe/2");
  c.mutable_politeness()->set_obey_robots_meta(false);
  c.mutable_politeness()->set_obey_x_robots_tag(true);
  c.mutable_politeness()->set_obey_rel_nofollow(false);
  c.mutable_scope()->set_follow_canonical(false);
  c.mutable_scope()->set_max_links_per_page(7);
  c.mutable_budget()->set_max_depth(3);
  c.mutable_sitemaps()->set_max_urls(11);
  c.mutable_corpus()->set_markdown(true);
  c.mutable_duplicates()->set_enabled(false);
  c.mutable_duplicates()->set_min_words(13);
  const ParseOptions o = ParseOptionsOf(c);
  EXPECT_EQ(o.user_agent, "probe/2");
  EXPECT_FALSE(o.obey_robots_meta);
  EXPECT_TRUE(o.obey_x_robots_tag);
  EXPECT_FALSE(o.obey_rel_nofollow);
  EXPECT_FALSE(o.follow_canonical);
  EXPECT_EQ(o.max_links_per_page, 7);
  EXPECT_EQ(o.max_depth, 3);
  EXPECT_EQ(o.sitemap_max_urls, 11);
  EXPECT_TRUE(o.corpus_markdown);
  EXPECT_FALSE(o.duplicates);
  EXPECT_EQ(o.duplicate_min_words, 13);
}

TEST(CrawlSetupTest, RevisitQueueOptionsOfTheConfig) {
  proto::CrawlConfig c;
  c.mutable_revisit()->set_continuous(true);
  c.mutable_revisit()->set_initial_interval_ms(2000);
  c.mutable_budget()->set_max_revisits(9);
  const RevisitQueueOptions o = RevisitQueueOptionsOf(c);
  EXPECT_TRUE(o.continuous);
  EXPECT_EQ(o.policy.initial, absl::Seconds(2));
  EXPECT_EQ(o.max_revisits, 9);
}

TEST(CrawlSetupTest, FrontierOptionsOfTheConfig) {
  proto::CrawlConfig c;
  c.add_seeds("http://a.test/");
  c.mutable_strategy()->mutable_interest()->add_scopes()->set_start_url(
      "http://b.test/start");
  c.mutable_budget()->set_max_depth(4);
  // The scopes' start pages are seeds of the interest strategy only.
  EXPECT_EQ(FrontierOptionsOf(c).seeds,
            std::vector<std::string>({"http://a.test/"}));
  c.mutable_strategy()->set_name("interest");
  const FrontierOptions o = FrontierOptionsOf(c);
  EXPECT_EQ(o.seeds, std::vector<std::string>(
                         {"http://a.test/", "http://b.test/start"}));
  EXPECT_EQ(o.max_depth, 4);
}

TEST(CrawlSetupTest, SchedulerOptionsOfTheConfig) {
  proto::CrawlConfig c;
  c.add_seeds("http://a.test/");
  proto::Politeness* p = c.mutable_politeness();
  p->set_user_agent("probe/3");
  p->set_obey_robots(false);
  p->set_robots_cache_seconds(60);
  p->set_per_host_delay_ms(250);
  p->set_per_ip_delay_ms(40);
  p->set_max_crawl_delay_ms(9000);
  c.mutable_budget()->set_max_pages(123);
  c.mutable_scope()->set_max_pages_per_host(45);
  c.mutable_fetch()->set_max_in_flight(6);
  c.mutable_fetch()->set_unreachable_retries(4);
  c.mutable_fetch()->set_unreachable_retry_ms(1500);
  c.mutable_strategy()->set_order_window(2);
  c.mutable_sitemaps()->set_from_robots(false);
  c.mutable_sitemaps()->set_guess_on_seed_hosts(true);
  c.mutable_sitemaps()->set_max_per_host(3);
  const SchedulerOptions o = SchedulerOptionsOf(c);
  EXPECT_EQ(o.user_agent, "probe/3");
  EXPECT_EQ(o.seeds, std::vector<std::string>({"http://a.test/"}));
  EXPECT_FALSE(o.obey_robots);
  EXPECT_EQ(o.robots_cache, absl::Minutes(1));
  EXPECT_EQ(o.per_host_delay, absl::Milliseconds(250));
  EXPECT_EQ(o.per_ip_delay, absl::Milliseconds(40));
  EXPECT_EQ(o.max_crawl_delay, absl::Seconds(9));
  EXPECT_EQ(o.max_pages, 123);
  EXPECT_EQ(o.max_pages_per_host, 45);
  EXPECT_EQ(o.max_in_flight, 6);
  EXPECT_EQ(o.order_window, 2);
  EXPECT_EQ(o.unreachable_retries, 4);
  EXPECT_EQ(o.unreachable_retry, absl::Milliseconds(1500));
  EXPECT_FALSE(o.sitemaps_from_robots);
  EXPECT_TRUE(o.sitemaps_guess_on_seed_hosts);
  EXPECT_EQ(o.sitemaps_max_per_host, 3);
}

TEST(CrawlSetupTest, CommitOptionsOfTheConfig) {
  proto::CrawlConfig c;
  c.mutable_revisit()->set_continuous(true);
  c.mutable_revisit()->set_max_interval_ms(7000);
  c.mutable_duplicates()->set_min_resemblance(0.9);
  c.mutable_duplicates()->set_expand(true);
  const CommitOptions o = CommitOptionsOf(c);
  EXPECT_TRUE(o.revisits);
  EXPECT_EQ(o.revisit_policy.max, absl::Seconds(7));
  EXPECT_EQ(o.min_resemblance, 0.9);
  EXPECT_TRUE(o.expand_duplicates);
}

}  // namespace
}  // namespace fcrawl::worker
