#include "core/arena.h"

#include <cstdint>
#include <cstring>
#include <set>

#include "gtest/gtest.h"

namespace fcrawl {
namespace {

constexpr size_t kAlign = alignof(std::max_align_t);

TEST(ArenaTest, AllocationsAreAlignedDistinctAndWritable) {
  Arena arena(Arena::Options{.first_chunk = 256, .max_chunk = 1024});
  std::set<uintptr_t> seen;
  for (size_t size : {1, 7, 16, 17, 0, 100, 3}) {
    auto* p = static_cast<unsigned char*>(arena.Allocate(size));
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % kAlign, 0u) << size;
    EXPECT_TRUE(seen.insert(reinterpret_cast<uintptr_t>(p)).second) << size;
    std::memset(p, 0xab, size);
  }
  // Rounded up to 16: 16 + 16 + 16 + 32 + 16 (zero bytes still get a unique
  // pointer) + 112 + 16.
  EXPECT_EQ(arena.allocated_bytes(), 224u);
  EXPECT_EQ(arena.reserved_bytes(), 256u);  // all in the first chunk
}

TEST(ArenaTest, ChunksDoubleUpToTheMaximum) {
  Arena arena(Arena::Options{.first_chunk = 64, .max_chunk = 256});
  // 64 bytes at a time: each chunk fills exactly.
  for (int i = 0; i < 1 + 2 + 4 + 4; ++i)
    ASSERT_NE(arena.Allocate(64), nullptr);
  // Chunks of 64, 128, 256, 256.
  EXPECT_EQ(arena.reserved_bytes(), 64u + 128u + 256u + 256u);
  EXPECT_EQ(arena.allocated_bytes(), 11u * 64u);
}

TEST(ArenaTest, ALargeRequestGetsItsOwnChunkAndKeepsTheCurrentOne) {
  Arena arena(Arena::Options{.first_chunk = 128, .max_chunk = 128});
  auto* small = static_cast<char*>(arena.Allocate(16));
  auto* big = static_cast<char*>(arena.Allocate(1000));
  auto* after = static_cast<char*>(arena.Allocate(16));
  ASSERT_NE(big, nullptr);
  std::memset(big, 1, 1000);
  // The small allocation after the big one comes from the first chunk.
  EXPECT_EQ(after, small + 16);
  EXPECT_EQ(arena.reserved_bytes(), 128u + 1008u);
}

TEST(ArenaTest, AnImpossibleRequestReturnsNull) {
  Arena arena;
  EXPECT_EQ(arena.Allocate(SIZE_MAX), nullptr);
  EXPECT_EQ(arena.Allocate(SIZE_MAX - 3), nullptr);
  EXPECT_NE(arena.Allocate(8), nullptr);  // still usable
}

TEST(ArenaTest, CallbacksAllocateFromTheArena) {
  Arena arena;
  void* p = Arena::AllocateCallback(&arena, 40);
  ASSERT_NE(p, nullptr);
  Arena::DeallocateCallback(&arena, p);  // a no-op
  EXPECT_EQ(arena.allocated_bytes(), 48u);
}

}  // namespace
}  // namespace fcrawl
