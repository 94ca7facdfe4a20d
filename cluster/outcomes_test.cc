#include "cluster/outcomes.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"

namespace fcrawl::cluster {
namespace {

TEST(OutcomeClassesTest, EveryClassInOrderWithoutTheHosts) {
  proto::FetchOutcomeCounts c;
  c.set_on_topic(5);
  c.set_off_topic(7);
  c.set_not_found(2);
  c.set_robots(1);
  c.set_on_topic_hosts(3);
  const std::vector<std::pair<std::string, int64_t>> want = {
      {"on_topic", 5},   {"off_topic", 7},       {"not_found", 2},
      {"http_error", 0}, {"transport_error", 0}, {"robots", 1},
      {"not_html", 0},   {"redirected", 0}};
  EXPECT_EQ(OutcomeClasses(c), want);
}

}  // namespace
}  // namespace fcrawl::cluster
