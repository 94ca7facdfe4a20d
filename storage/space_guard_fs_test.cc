#include "storage/space_guard_fs.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "absl/synchronization/mutex.h"
#include "core/test_temp_dir.h"
#include "gtest/gtest.h"
#include "rocksdb/db.h"
#include "rocksdb/options.h"

namespace fcrawl::storage {
namespace {

// RocksDB opened on the guarded Env, with the free space the test says: the
// hook is called before an append that would leave under
// kMinFreeAfterAppend, from the log's writes and from a flush's table
// file, and never while there is room.
TEST(SpaceGuardFsTest, CallsTheHookBeforeAnAppendThatWouldNotFit) {
  file::TestTempDir tmp;
  const std::string dir = tmp.path() + "/db";
  std::atomic<int64_t> free{int64_t{1} << 40};
  std::atomic<int> calls{0};
  absl::Mutex mu;  // RocksDB's threads ask too
  std::string asked;
  std::unique_ptr<rocksdb::Env> env = NewSpaceGuardEnv(
      dir,
      [&] {
        ++calls;
        return true;
      },
      [&](const std::string& path) -> absl::StatusOr<int64_t> {
        absl::MutexLock lock(&mu);
        asked = path;
        return free.load();
      });
  rocksdb::Options options;
  options.create_if_missing = true;
  options.env = env.get();
  rocksdb::DB* raw = nullptr;
  ASSERT_TRUE(rocksdb::DB::Open(options, dir, &raw).ok());
  std::unique_ptr<rocksdb::DB> db(raw);
  const int opened = calls.load();
  EXPECT_EQ(opened, 0);

  ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), "a", "1").ok());
  EXPECT_EQ(calls.load(), 0);
  {
    absl::MutexLock lock(&mu);
    EXPECT_EQ(asked, dir);
  }

  // Half a MiB free: the margin does not fit.
  free = 512 << 10;
  ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), "b", "2").ok());
  const int after_put = calls.load();
  EXPECT_GE(after_put, 1);
  ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());  // a table file
  EXPECT_GT(calls.load(), after_put);

  free = int64_t{1} << 40;
  const int before = calls.load();
  ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), "c", "3").ok());
  EXPECT_EQ(calls.load(), before);
  std::string v;
  ASSERT_TRUE(db->Get(rocksdb::ReadOptions(), "b", &v).ok());
  EXPECT_EQ(v, "2");
  ASSERT_TRUE(db->Close().ok());
}

}  // namespace
}  // namespace fcrawl::storage
