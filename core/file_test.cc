#include "core/file.h"

#include <errno.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "core/test_temp_dir.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace fcrawl::file {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

std::string Read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(ErrnoStatusTest, NamesTheFileThenWhatThenTheReason) {
  const absl::Status s = ErrnoStatus(ENOENT, "cannot open", "/x/y.txt");
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(s.message()), StartsWith("/x/y.txt: cannot open: "));
  EXPECT_THAT(std::string(s.message()), HasSubstr("No such file"));
  EXPECT_EQ(ErrnoStatus(EACCES, "write", "f").code(),
            absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(ErrnoStatus(ENOSPC, "write", "f").code(),
            absl::StatusCode::kResourceExhausted);
}

TEST(ErrnoStatusTest, ReadsErrno) {
  errno = EEXIST;
  EXPECT_EQ(ErrnoStatus("create", "f").code(),
            absl::StatusCode::kAlreadyExists);
}

// The free space statvfs reports for the test's own folder is positive; a
// path that does not exist is an error naming it. (The crawl's floor on a
// file system that fills and empties is crawl_resume_test's DiskFullTest.)
TEST(FreeBytesTest, OfAFolderAndOfNothing) {
  TestTempDir tmp;
  absl::StatusOr<int64_t> free = FreeBytes(tmp.path());
  ASSERT_TRUE(free.ok()) << free.status();
  EXPECT_GT(*free, 0);
  absl::StatusOr<int64_t> none = FreeBytes(tmp.File("no/such/folder"));
  EXPECT_FALSE(none.ok());
  EXPECT_THAT(none.status().message(), HasSubstr("no/such/folder"));
}

// The resident memory grows by what the process touches: 64 MiB written
// shows (within what the allocator and the kernel may keep or drop).
TEST(ResidentBytesTest, SeesMemoryTouched) {
  absl::StatusOr<int64_t> before = ResidentBytes();
  ASSERT_TRUE(before.ok()) << before.status();
  EXPECT_GT(*before, 0);
  std::string block(64 << 20, 'x');
  absl::StatusOr<int64_t> after = ResidentBytes();
  ASSERT_TRUE(after.ok()) << after.status();
  EXPECT_GE(*after - *before, 48 << 20) << block.size();
}

TEST(RaiseOpenFileLimitTest, UpToTheHardLimitNeverDown) {
  struct rlimit saved;
  ASSERT_EQ(::getrlimit(RLIMIT_NOFILE, &saved), 0);
  if (saved.rlim_max != RLIM_INFINITY && saved.rlim_max < 600) {
    GTEST_SKIP() << "hard limit of open files below 600";
  }
  struct rlimit low = saved;
  low.rlim_cur = 256;
  ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &low), 0);
  absl::StatusOr<int64_t> raised = RaiseOpenFileLimit(600);
  ASSERT_TRUE(raised.ok()) << raised.status();
  EXPECT_EQ(*raised, 600);
  absl::StatusOr<int64_t> kept = RaiseOpenFileLimit(300);  // not lowered
  ASSERT_TRUE(kept.ok());
  EXPECT_EQ(*kept, 600);
  struct rlimit now;
  ASSERT_EQ(::getrlimit(RLIMIT_NOFILE, &now), 0);
  EXPECT_EQ(now.rlim_cur, 600u);
  if (saved.rlim_max != RLIM_INFINITY) {
    // Beyond the hard limit: as far as it goes.
    absl::StatusOr<int64_t> capped =
        RaiseOpenFileLimit(static_cast<int64_t>(saved.rlim_max) + 1000);
    ASSERT_TRUE(capped.ok());
    EXPECT_EQ(*capped, static_cast<int64_t>(saved.rlim_max));
  }
  ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &saved), 0);
}

TEST(AtomicFileTest, ReplacesTheFileOnCommitOnly) {
  TestTempDir tmp;
  const std::string path = tmp.Write("f.bin", "old");
  AtomicFile f;
  ASSERT_TRUE(f.Open(path).ok());
  EXPECT_EQ(f.tmp_path(), path + ".tmp");
  ASSERT_TRUE(f.Write("new ").ok());
  ASSERT_TRUE(f.Write("contents", 8).ok());
  EXPECT_EQ(Read(path), "old");  // not yet
  ASSERT_TRUE(f.Commit().ok());
  EXPECT_EQ(Read(path), "new contents");
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
  // Committed once: the object is closed.
  EXPECT_EQ(f.Write("x").code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(f.Commit().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(AtomicFileTest, AbandonedFileLeavesTheOldOneAndNoTemporary) {
  TestTempDir tmp;
  const std::string path = tmp.Write("f.bin", "old");
  {
    AtomicFile f;
    ASSERT_TRUE(f.Open(path, ".tmp.7").ok());
    ASSERT_TRUE(f.Write("half").ok());
    EXPECT_TRUE(std::filesystem::exists(path + ".tmp.7"));
  }
  EXPECT_EQ(Read(path), "old");
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp.7"));
}

TEST(AtomicFileTest, ErrorsNameTheFile) {
  TestTempDir tmp;
  AtomicFile f;
  const absl::Status s = f.Open(tmp.File("no/such/dir/f"));
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(s.message()),
              HasSubstr("no/such/dir/f.tmp: cannot create"));
  EXPECT_FALSE(f.is_open());
}

TEST(WriteFileAtomicallyTest, WritesAndReplaces) {
  TestTempDir tmp;
  const std::string path = tmp.File("model.pb");
  ASSERT_TRUE(WriteFileAtomically(path, "one").ok());
  EXPECT_EQ(Read(path), "one");
  ASSERT_TRUE(WriteFileAtomically(path, std::string("t\0o", 3)).ok());
  EXPECT_EQ(Read(path), std::string("t\0o", 3));
  EXPECT_FALSE(WriteFileAtomically(tmp.File("missing/x"), "x").ok());
}

TEST(ReadFileBoundedTest, ReadsUpToTheBoundAndNamesTheFileBeyondIt) {
  TestTempDir tmp;
  const std::string path = tmp.File("model.pb");
  ASSERT_TRUE(WriteFileAtomically(path, std::string("ab\0cd", 5)).ok());
  absl::StatusOr<std::string> whole = ReadFileBounded(path, 5, "page model");
  ASSERT_TRUE(whole.ok()) << whole.status();
  EXPECT_EQ(*whole, std::string("ab\0cd", 5));
  absl::StatusOr<std::string> big = ReadFileBounded(path, 4, "page model");
  EXPECT_EQ(big.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(big.status().message()),
              StartsWith(path + ": page model is larger than 4 bytes"));
  absl::StatusOr<std::string> missing =
      ReadFileBounded(tmp.File("none"), 4, "page model");
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(missing.status().message()),
              HasSubstr("cannot open page model"));
}

TEST(ConfinedPathTest, KeepsPathsInsideTheRoot) {
  TestTempDir tmp;
  char resolved[PATH_MAX];
  ASSERT_NE(realpath(tmp.path().c_str(), resolved), nullptr);
  const std::string root = std::string(resolved) + "/root";
  ASSERT_EQ(mkdir(root.c_str(), 0755), 0);
  ASSERT_EQ(mkdir((root + "/exports").c_str(), 0755), 0);
  // Relative paths are below the root; absolute ones must be.
  EXPECT_EQ(*ConfinedPath(root, "out/graph"), root + "/out/graph");
  EXPECT_EQ(*ConfinedPath(root, root + "/exports/a/"), root + "/exports/a");
  EXPECT_EQ(*ConfinedPath(root, root), root);
  for (const std::string& bad :
       {std::string(""), std::string("out/evil-../../x"), std::string("../x"),
        root + "/exports/../../etc", root + "/./x", std::string("/etc/passwd"),
        root + "-other/x", std::string("a\0b", 3)}) {
    absl::StatusOr<std::string> p = ConfinedPath(root, bad);
    EXPECT_TRUE(absl::IsInvalidArgument(p.status()))
        << bad << ": " << p.status();
  }
  // A "evil-.." segment is a name like any other.
  EXPECT_TRUE(ConfinedPath(root, "evil-../x").ok());
  // A symbolic link out of the root is refused.
  ASSERT_EQ(symlink("/tmp", (root + "/out-link").c_str()), 0);
  EXPECT_TRUE(
      absl::IsPermissionDenied(ConfinedPath(root, "out-link/graph").status()));
  // The root written through a symbolic link to it is the root.
  const std::string alias = std::string(resolved) + "/alias";
  ASSERT_EQ(symlink(root.c_str(), alias.c_str()), 0);
  absl::StatusOr<std::string> via = ConfinedPath(root, alias + "/exports/g");
  ASSERT_TRUE(via.ok()) << via.status();
  EXPECT_EQ(*via, root + "/exports/g");
}

TEST(TestTempDirTest, IsRemovedWithItsFiles) {
  std::string path;
  {
    TestTempDir tmp;
    path = tmp.path();
    ASSERT_FALSE(path.empty());
    EXPECT_THAT(path, HasSubstr("TestTempDirTest.IsRemovedWithItsFiles_"));
    tmp.Write("a", "x");
    std::filesystem::create_directories(tmp.File("b/c"));
    TestTempDir other;
    EXPECT_NE(other.path(), path);
  }
  EXPECT_FALSE(std::filesystem::exists(path));
}

}  // namespace
}  // namespace fcrawl::file

namespace fcrawl::file {
namespace {

TEST(ForEachLineTest, LinesLimitsAndSkippingLongOnes) {
  std::vector<std::string> seen;
  auto collect = [&](absl::string_view line, int64_t n, bool terminated) {
    seen.push_back(absl::StrCat(n, terminated ? ":" : "!", line));
    return absl::OkStatus();
  };
  std::istringstream in("a\n\nbbbbbbbb\ncc\nlast");
  absl::Status s = ForEachLine(in, "src", 4, 100, collect);
  EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(s.message(), "src:3: line longer than 4 bytes");
  EXPECT_THAT(seen, ::testing::ElementsAre("1:a", "2:"));

  seen.clear();
  std::vector<int64_t> long_lines;
  const std::function<void(int64_t)> on_long = [&](int64_t n) {
    long_lines.push_back(n);
  };
  std::istringstream again("a\n\nbbbbbbbb\ncc\nlast\nxxxxxxxxxx");
  EXPECT_TRUE(ForEachLine(again, "src", 4, 100, collect, &on_long).ok());
  EXPECT_THAT(seen, ::testing::ElementsAre("1:a", "2:", "4:cc", "5:last"));
  EXPECT_THAT(long_lines, ::testing::ElementsAre(3, 6));

  std::istringstream many("1\n2\n3\n");
  s = ForEachLine(many, "m", 10, 2, collect);
  EXPECT_EQ(s.message(), "m: more than 2 lines (the limit)");
}

TEST(LockFolderTest, OneHolderAtATime) {
  TestTempDir tmp;
  const std::string dir = tmp.File("data");  // created by LockFolder
  absl::StatusOr<FolderLock> first = LockFolder(dir, "worker");
  ASSERT_TRUE(first.ok()) << first.status();
  absl::StatusOr<FolderLock> second = LockFolder(dir, "worker");
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(second.status().message(), "cannot use the folder '" + dir +
                                           "': another worker holds it (" +
                                           dir + "/LOCK)");
  FolderLock moved = *std::move(first);  // moving keeps the lock
  EXPECT_FALSE(LockFolder(dir, "worker").ok());
  moved = FolderLock();  // released
  EXPECT_TRUE(LockFolder(dir, "worker").ok());
}

}  // namespace
}  // namespace fcrawl::file
