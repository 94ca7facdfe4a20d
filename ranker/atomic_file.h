// A file replaced atomically: written to a temporary file beside it, synced,
// renamed over it and its folder synced, so that a crash at any point leaves
// either the old file or the complete new one (checkpoints, graph caches).
#ifndef FCRAWL_RANKER_ATOMIC_FILE_H_
#define FCRAWL_RANKER_ATOMIC_FILE_H_

#include <cstddef>
#include <cstdint>
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

// A header or small record put together in memory before it is written:
// numbers in the host's byte order, strings behind a uint32 length.
class ByteWriter {
 public:
  void Bytes(const void* p, size_t n) {
    out_.append(static_cast<const char*>(p), n);
  }
  template <typename T>
  void Pod(T v) {
    Bytes(&v, sizeof(v));
  }
  void String(const std::string& s) {
    Pod(static_cast<uint32_t>(s.size()));
    Bytes(s.data(), s.size());
  }
  std::string& out() { return out_; }

 private:
  std::string out_;
};

}  // namespace fcrawl::ranker

#endif  // FCRAWL_RANKER_ATOMIC_FILE_H_
