#include "core/hash.h"

#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace fcrawl::hash {
namespace {

TEST(HashTest, Fnv1a64HasItsPublishedValues) {
  // FNV-1a 64 test vectors (offset basis for "", "a", "foobar").
  EXPECT_EQ(Fnv1a64(""), 14695981039346656037ull);
  EXPECT_EQ(Fnv1a64("a"), 0xaf63dc4c8601ec8cull);
  EXPECT_EQ(Fnv1a64("foobar"), 0x85944171f73967e8ull);
  // Continued: the hash of the joined string.
  EXPECT_EQ(Fnv1a64Continue(Fnv1a64("foo"), "bar"), 0x85944171f73967e8ull);
  EXPECT_EQ(Fnv1a64Continue(Fnv1a64(""), "a"), 0xaf63dc4c8601ec8cull);
  EXPECT_EQ(Fnv1a64Continue(Fnv1a64("a"), ""), 0xaf63dc4c8601ec8cull);
}

TEST(HashTest, Mix64IsSplitmix64) {
  // splitmix64 finaliser of 1 (computed by hand with Python big ints).
  EXPECT_EQ(Mix64(1), 0x5692161d100b05e5ull);
  EXPECT_EQ(Mix64(0), 0u);
}

// The values are written into checkpoints and graph caches: a change here
// makes every stored file look damaged, so it must be deliberate.
TEST(HashTest, StableHasherValuesArePinned) {
  StableHasher empty;
  EXPECT_EQ(empty.value(), 0xb8cb396de59eab6aull);
  StableHasher h;
  h.Add("fcrawl");
  h.AddPod(uint32_t{42});
  h.AddVector(std::vector<double>{0.5, 0.25});
  EXPECT_EQ(h.value(), 0x0de4105869166beeull);
}

TEST(HashTest, StableHasherSeesOrderAndBoundaries) {
  StableHasher ab, ba, joined;
  ab.Add("a");
  ab.Add("b");
  ba.Add("b");
  ba.Add("a");
  joined.Add("ab");
  EXPECT_NE(ab.value(), ba.value());
  EXPECT_NE(ab.value(), joined.value());
}

}  // namespace
}  // namespace fcrawl::hash
