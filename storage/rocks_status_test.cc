#include "storage/rocks_status.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "rocksdb/status.h"

namespace fcrawl::storage {
namespace {

using ::testing::StartsWith;

TEST(FromRocksTest, HeldLockIsFailedPrecondition) {
  // What RocksDB says for a folder locked by another process and by another
  // handle in this process.
  for (const rocksdb::Status& s :
       {rocksdb::Status::IOError(
            "While lock file: /d/LOCK: Resource temporarily unavailable"),
        rocksdb::Status::IOError("lock hold by current process, acquire "
                                 "time 1700000000 acquiring thread 1: "
                                 "/d/LOCK: No locks available")}) {
    EXPECT_TRUE(IsHeldLock(s)) << s.ToString();
    EXPECT_EQ(FromRocks(s, "opening /d").code(),
              absl::StatusCode::kFailedPrecondition);
  }
  EXPECT_FALSE(IsHeldLock(rocksdb::Status::IOError("disk on fire")));
  EXPECT_FALSE(IsHeldLock(rocksdb::Status::Corruption("/d/LOCK")));
}

TEST(FromRocksTest, Codes) {
  EXPECT_TRUE(FromRocks(rocksdb::Status::OK(), "x").ok());
  EXPECT_EQ(FromRocks(rocksdb::Status::NotFound(), "x").code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(FromRocks(rocksdb::Status::Corruption("bad block"), "x").code(),
            absl::StatusCode::kDataLoss);
  EXPECT_EQ(FromRocks(rocksdb::Status::InvalidArgument(), "x").code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(FromRocks(rocksdb::Status::NotSupported(), "x").code(),
            absl::StatusCode::kUnimplemented);
  EXPECT_EQ(FromRocks(rocksdb::Status::Busy(), "x").code(),
            absl::StatusCode::kUnavailable);
  EXPECT_EQ(FromRocks(rocksdb::Status::TimedOut(), "x").code(),
            absl::StatusCode::kUnavailable);
  EXPECT_EQ(FromRocks(rocksdb::Status::Aborted(), "x").code(),
            absl::StatusCode::kAborted);
  EXPECT_EQ(FromRocks(rocksdb::Status::NoSpace(), "x").code(),
            absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(FromRocks(rocksdb::Status::IOError("read failed"), "x").code(),
            absl::StatusCode::kUnavailable);
}

TEST(FromRocksTest, MessageStartsWithTheContext) {
  const absl::Status s =
      FromRocks(rocksdb::Status::Corruption("bad block"), "reading /d");
  EXPECT_THAT(std::string(s.message()),
              StartsWith("reading /d: Corruption: bad block"));
}

}  // namespace
}  // namespace fcrawl::storage
