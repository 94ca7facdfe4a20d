#include "cluster/rendezvous.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace fcrawl::cluster {
namespace {

proto::ClusterView View(std::initializer_list<const char*> names,
                        uint64_t version = 1) {
  proto::ClusterView v;
  v.set_version(version);
  for (const char* n : names) {
    proto::Member* m = v.add_members();
    m->set_name(n);
    m->set_address(absl::StrCat(n, ":1"));
  }
  return v;
}

TEST(RendezvousTest, WeightIsFixed) {
  // Every process must compute this value (core/hash_test.cc checks the
  // hashes it is made of).
  EXPECT_EQ(RendezvousWeight("w1", "a.test"), 0xa9eba0054b4fb976ull);
}

TEST(RendezvousTest, OwnerIsTheHighestWeight) {
  HostPartition p(View({"w1", "w2", "w3"}, 7));
  EXPECT_EQ(p.version(), 7u);
  for (const char* host : {"a.test", "b.test", "127.0.0.1:8080"}) {
    std::string best;
    uint64_t bw = 0;
    for (const char* n : {"w1", "w2", "w3"}) {
      if (best.empty() || RendezvousWeight(n, host) > bw) {
        best = n;
        bw = RendezvousWeight(n, host);
      }
    }
    EXPECT_EQ(p.Owner(host), best) << host;
    EXPECT_EQ(p.OwnerAddress(host), best + ":1");
  }
  EXPECT_TRUE(p.Has("w2"));
  EXPECT_FALSE(p.Has("w4"));
}

TEST(RendezvousTest, EmptyViewHasNoOwner) {
  HostPartition p;
  EXPECT_TRUE(p.empty());
  EXPECT_EQ(p.Owner("a.test"), "");
  EXPECT_EQ(p.OwnerAddress("a.test"), "");
}

TEST(RendezvousTest, JoinAndLeaveMoveOnlyWhatTheyMust) {
  HostPartition three(View({"w1", "w2", "w3"}));
  HostPartition four(View({"w1", "w2", "w3", "w4"}));
  HostPartition two(View({"w1", "w3"}));
  int moved_to_w4 = 0;
  int per_owner[3] = {0, 0, 0};
  const int kHosts = 6000;
  for (int i = 0; i < kHosts; ++i) {
    const std::string host = absl::StrCat("site", i, ".test");
    const std::string& before = three.Owner(host);
    per_owner[before[1] - '1']++;
    // A join moves hosts only to the new member.
    if (four.Owner(host) != before) {
      EXPECT_EQ(four.Owner(host), "w4");
      ++moved_to_w4;
    }
    // A leave moves only the leaving member's hosts.
    if (before != "w2") {
      EXPECT_EQ(two.Owner(host), before);
    }
  }
  // About a quarter moves to the fourth member, a third stays with each.
  EXPECT_NEAR(moved_to_w4, kHosts / 4, kHosts / 20);
  for (int c : per_owner) EXPECT_NEAR(c, kHosts / 3, kHosts / 20);
}

TEST(RendezvousTest, MemberOrderDoesNotMatter) {
  HostPartition a(View({"w1", "w2", "w3"}));
  HostPartition b(View({"w3", "w1", "w2"}));
  for (int i = 0; i < 500; ++i) {
    const std::string host = absl::StrCat("h", i);
    EXPECT_EQ(a.Owner(host), b.Owner(host));
  }
}

}  // namespace
}  // namespace fcrawl::cluster

namespace fcrawl::cluster {
namespace {

TEST(MemberNameTest, OneTo64OfLettersDigitsDotDashUnderscore) {
  EXPECT_TRUE(ValidateMemberName("w1").ok());
  EXPECT_TRUE(ValidateMemberName("worker-0.node_a").ok());
  EXPECT_TRUE(ValidateMemberName(std::string(64, 'a')).ok());
  EXPECT_FALSE(ValidateMemberName("").ok());
  EXPECT_FALSE(ValidateMemberName(std::string(65, 'a')).ok());
  EXPECT_FALSE(ValidateMemberName("a b").ok());
  EXPECT_FALSE(ValidateMemberName("a/b").ok());
  EXPECT_FALSE(ValidateMemberName("é").ok());
  // Names become folder and file names: none that walks out of a folder.
  EXPECT_FALSE(ValidateMemberName("..").ok());
  EXPECT_FALSE(ValidateMemberName(".").ok());
  EXPECT_FALSE(ValidateMemberName(".hidden").ok());
  EXPECT_FALSE(ValidateMemberName("-rf").ok());
  EXPECT_TRUE(ValidateMemberName("9lives..x").ok());
}

}  // namespace
}  // namespace fcrawl::cluster
