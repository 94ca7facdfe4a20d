#include "core/parallel.h"

#include <atomic>
#include <cstddef>
#include <vector>

#include "gtest/gtest.h"

namespace fcrawl::parallel {
namespace {

TEST(ParallelTest, NumChunksCoversEveryItem) {
  EXPECT_EQ(NumChunks(0, 4), 0u);
  EXPECT_EQ(NumChunks(1, 4), 1u);
  EXPECT_EQ(NumChunks(4, 4), 1u);
  EXPECT_EQ(NumChunks(5, 4), 2u);
}

TEST(ParallelTest, EffectiveThreads) {
  EXPECT_EQ(EffectiveThreads(3), 3);
  EXPECT_GE(EffectiveThreads(0), 1);
}

TEST(ParallelTest, EveryChunkOnceWhateverTheThreadCount) {
  for (int threads : {0, 1, 2, 7, 64}) {
    std::vector<std::atomic<int>> calls(100);
    ParallelFor(threads, calls.size(), [&](size_t c) { ++calls[c]; });
    for (size_t c = 0; c < calls.size(); ++c) {
      EXPECT_EQ(calls[c].load(), 1) << "chunk " << c << ", " << threads;
    }
  }
  ParallelFor(4, 0, [](size_t) { ADD_FAILURE() << "no chunk to run"; });
}

TEST(ParallelTest, SumsInChunkOrder) {
  // 1e16 + 1 - 1e16 is 0 in this order; summed in another order it is 1.
  EXPECT_EQ(SumInOrder({1e16, 1.0, -1e16}), 0.0);
  EXPECT_EQ(SumInOrder({}), 0.0);
}

}  // namespace
}  // namespace fcrawl::parallel
