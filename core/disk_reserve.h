// Disk space held back for the moment the disk fills up.
//
// A crawl pauses when the free space of its folder's file system falls under
// a floor (budget.min_free_disk_mb), but it reads that space once a second,
// and another process can fill the disk to zero in less. Then a log or WARC
// write fails, and worse a RocksDB write: a write-ahead log that failed once
// is never written again (Debian's RocksDB is built with assertions and
// aborts when it is), so a crawl must never let RocksDB see a full disk.
//
// A DiskReserve is a file of preallocated blocks in the crawl's folder. When
// a writer finds the disk full (or about to be: a RocksDB file checks the
// free space before each append, storage/link_db.h), it calls Release(),
// which deletes the file and gives its space back to the file system: the
// write is tried again and succeeds, the crawl sees the released reserve and
// pauses fetching at once, and what is in flight is committed into the space
// the reserve held. When the free space is back above the floor and the
// reserve, the crawl calls Restore() and goes on.
//
// Thread-safety: thread-safe. Release() and held() may be called from any
// thread at any time (the parse threads write WARC records, RocksDB flushes
// in its own threads), also while another thread calls Restore(): the file
// operations take a mutex, and the space is held exactly when held() says.
#ifndef FCRAWL_CORE_DISK_RESERVE_H_
#define FCRAWL_CORE_DISK_RESERVE_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"

namespace fcrawl {

// What a writer calls when a write found no space left: frees space held
// back for it and says whether it did, so that one more try may succeed.
// Empty: nothing to free (the write fails as it would have).
using NoSpaceHook = std::function<bool()>;

class DiskReserve {
 public:
  // Holds `bytes` (> 0) of `path`'s file system in the file `path`
  // (created, or grown to `bytes`, with posix_fallocate: the blocks are
  // taken, not a sparse hole). Errors: the errno of the failed call, naming
  // `path` (ResourceExhausted when the space is not there).
  static absl::StatusOr<std::unique_ptr<DiskReserve>> Create(std::string path,
                                                             int64_t bytes);
  // The same reserve released: nothing is allocated until Restore(). For a
  // crawl that starts on a disk that may be full already. Null for bytes
  // <= 0.
  static std::unique_ptr<DiskReserve> Released(std::string path, int64_t bytes);
  // Removes the file.
  ~DiskReserve();
  DiskReserve(const DiskReserve&) = delete;
  DiskReserve& operator=(const DiskReserve&) = delete;

  // Deletes the file, giving its space back. True when this call did (the
  // first call since Create or the last Restore); false when the space was
  // released already or the file could not be removed.
  bool Release();
  // Whether the space is held (not released).
  bool held() const { return held_.load(std::memory_order_acquire); }
  // Holds the space again after a Release (a no-op while held). Errors as
  // Create's; the reserve then stays released.
  absl::Status Restore();

  // A NoSpaceHook that releases this reserve; it must not outlive it.
  NoSpaceHook Hook() {
    return [this] { return Release(); };
  }

  const std::string& path() const { return path_; }
  int64_t bytes() const { return bytes_; }

 private:
  DiskReserve(std::string path, int64_t bytes)
      : path_(std::move(path)), bytes_(bytes) {}

  const std::string path_;
  const int64_t bytes_;
  absl::Mutex mu_;                 // around the file's creation and removal
  std::atomic<bool> held_{false};  // written under mu_
};

}  // namespace fcrawl

#endif  // FCRAWL_CORE_DISK_RESERVE_H_
