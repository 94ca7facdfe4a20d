// A RocksDB file system that never lets a write find the disk full while
// space is held back for it (core/disk_reserve.h). Internal to storage:
// RocksDB types stay inside it.
//
// A write-ahead log or table file whose write failed for want of space is
// never written again (RocksDB marks the file writer failed, and Debian's
// build asserts on the next use), so the space must be there before the
// write, not after: every append to a file RocksDB writes first reads the
// free space of the database's file system (statvfs, about a microsecond;
// appends are RocksDB's buffered flushes, not each record), and when the
// append and a margin would not fit, calls the NoSpaceHook, which frees
// the reserve. The append then goes ahead either way.
//
// Thread-safety: as RocksDB asks of a FileSystem (the hook must be
// thread-safe: RocksDB's flush and compaction threads write too).
#ifndef FCRAWL_STORAGE_SPACE_GUARD_FS_H_
#define FCRAWL_STORAGE_SPACE_GUARD_FS_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "core/disk_reserve.h"
#include "core/file.h"
#include "rocksdb/env.h"

namespace fcrawl::storage {

// Free bytes an append must leave on the file system, or the hook is called.
inline constexpr int64_t kMinFreeAfterAppend = 1 << 20;

// How the free space is read: file::FreeBytes (tests give their own).
using FreeBytesFn = std::function<absl::StatusOr<int64_t>(const std::string&)>;

// An Env whose files are RocksDB's default ones, each append checked as
// above against the file system that holds `dir`. `hook` must be set.
std::unique_ptr<rocksdb::Env> NewSpaceGuardEnv(
    std::string dir, NoSpaceHook hook,
    FreeBytesFn free_bytes = file::FreeBytes);

}  // namespace fcrawl::storage

#endif  // FCRAWL_STORAGE_SPACE_GUARD_FS_H_
