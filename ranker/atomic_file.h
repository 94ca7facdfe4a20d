// A file replaced atomically: written to a temporary file beside it, synced,
// renamed over it and its folder synced, so that a crash at any point leaves
// either the old file or the complete new one (checkpoints, graph caches).
#ifndef FCRAWL_RANKER_ATOMIC_FILE_H_
#define FCRAWL_RANKER_ATOMIC_FILE_H_

#include <cstddef>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace fcrawl::ranker {

// The status of the failed system call that set errno, naming the file:
// "PATH: WHAT: strerror".
absl::Status ErrnoStatus(absl::string_view what, const std::string& path);

class AtomicFile {
 public:
  AtomicFile() = default;
  // Removes the temporary file unless Commit() succeeded.
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  // Creates the temporary file `path` + `tmp_suffix`. Writers that may run
  // at the same time (one per process sharing a folder) need distinct
  // suffixes, or they would write into one temporary file.
  absl::Status Open(const std::string& path,
                    absl::string_view tmp_suffix = ".tmp");
  // All of it, retrying short writes.
  absl::Status Write(const void* data, size_t n);
  // fsync, close, rename over `path`, fsync the folder (best effort: the
  // file is in place even if the folder cannot be synced).
  absl::Status Commit();

  const std::string& tmp_path() const { return tmp_; }

 private:
  void Abandon();

  int fd_ = -1;
  std::string path_;
  std::string tmp_;
};

}  // namespace fcrawl::ranker

#endif  // FCRAWL_RANKER_ATOMIC_FILE_H_
