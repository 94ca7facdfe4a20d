#include "core/disk_reserve.h"

#include <sys/stat.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/test_temp_dir.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace fcrawl {
namespace {

using ::testing::HasSubstr;

// Bytes of blocks the file at `path` takes on disk; -1 when it is absent.
int64_t AllocatedBytes(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return -1;
  return static_cast<int64_t>(st.st_blocks) * 512;
}

TEST(DiskReserveTest, HoldsReleasesAndRestoresItsSpace) {
  file::TestTempDir tmp;
  const std::string path = tmp.path() + "/reserve";
  constexpr int64_t kBytes = 1 << 20;
  absl::StatusOr<std::unique_ptr<DiskReserve>> r =
      DiskReserve::Create(path, kBytes);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE((*r)->held());
  // The blocks are taken, not a sparse hole.
  EXPECT_GE(AllocatedBytes(path), kBytes);

  NoSpaceHook hook = (*r)->Hook();
  EXPECT_TRUE(hook());  // the first release frees the space...
  EXPECT_FALSE((*r)->held());
  EXPECT_EQ(AllocatedBytes(path), -1);
  EXPECT_FALSE(hook());  // ...a second has nothing left to free
  EXPECT_FALSE((*r)->Release());

  ASSERT_TRUE((*r)->Restore().ok());
  EXPECT_TRUE((*r)->held());
  EXPECT_GE(AllocatedBytes(path), kBytes);
  ASSERT_TRUE((*r)->Restore().ok());  // held: nothing to do
  EXPECT_TRUE((*r)->Release());

  ASSERT_TRUE((*r)->Restore().ok());
  r->reset();  // destroyed: the file goes with it
  EXPECT_EQ(AllocatedBytes(path), -1);
}

// Writers release it from their threads while the crawl takes it back:
// at every quiet point the file is there exactly when held() says so.
TEST(DiskReserveTest, ReleaseAndRestoreFromManyThreads) {
  file::TestTempDir tmp;
  const std::string path = tmp.path() + "/reserve";
  absl::StatusOr<std::unique_ptr<DiskReserve>> r =
      DiskReserve::Create(path, 64 << 10);
  ASSERT_TRUE(r.ok()) << r.status();
  for (int round = 0; round < 50; ++round) {
    std::atomic<int> freed{0};
    std::vector<std::thread> writers;
    for (int t = 0; t < 4; ++t) {
      writers.emplace_back([&] {
        for (int i = 0; i < 20; ++i) freed += (*r)->Release() ? 1 : 0;
      });
    }
    for (int i = 0; i < 20; ++i) ASSERT_TRUE((*r)->Restore().ok());
    for (std::thread& w : writers) w.join();
    EXPECT_GE(freed.load(), 1);
    EXPECT_EQ((*r)->held(), AllocatedBytes(path) >= (64 << 10)) << round;
    ASSERT_TRUE((*r)->Restore().ok());
  }
}

TEST(DiskReserveTest, StartsReleased) {
  file::TestTempDir tmp;
  const std::string path = tmp.path() + "/reserve";
  std::unique_ptr<DiskReserve> r = DiskReserve::Released(path, 4096);
  ASSERT_NE(r, nullptr);
  EXPECT_FALSE(r->held());
  EXPECT_EQ(AllocatedBytes(path), -1);
  EXPECT_FALSE(r->Release());
  ASSERT_TRUE(r->Restore().ok());
  EXPECT_TRUE(r->held());
  EXPECT_GE(AllocatedBytes(path), 4096);
  EXPECT_EQ(DiskReserve::Released(path, 0), nullptr);
}

TEST(DiskReserveTest, SpaceThatIsNotThereIsAnErrorAndLeavesNoFile) {
  file::TestTempDir tmp;
  const std::string path = tmp.path() + "/reserve";
  // An exbibyte: no test machine's disk has it.
  absl::StatusOr<std::unique_ptr<DiskReserve>> r =
      DiskReserve::Create(path, int64_t{1} << 60);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr(path));
  EXPECT_EQ(AllocatedBytes(path), -1);

  EXPECT_FALSE(DiskReserve::Create(path, 0).ok());
  EXPECT_FALSE(
      DiskReserve::Create(tmp.path() + "/no/such/folder/r", 4096).ok());
}

}  // namespace
}  // namespace fcrawl
