// Files: the status of a failed system call, and files replaced atomically.
//
// ErrnoStatus is the one way a failed system call becomes an absl::Status:
// the code comes from errno (NotFound for ENOENT, PermissionDenied for
// EACCES, ResourceExhausted for ENOSPC, ...; absl::ErrnoToStatus) and the
// message names the file first, then what was being done, then strerror:
// "PATH: WHAT: strerror".
//
// AtomicFile writes a file so that a crash at any point leaves either the
// old file or the complete new one, never a cut one: it writes a temporary
// file beside it, syncs it, renames it over the target and syncs the folder
// (checkpoints, graph caches, graph shards, ranker outputs, interest models).
//
// Thread-safety: the functions are thread-safe; an AtomicFile is
// thread-compatible (one thread at a time).
#ifndef FCRAWL_CORE_FILE_H_
#define FCRAWL_CORE_FILE_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <istream>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace fcrawl::file {

// "PATH: WHAT: strerror(err)" with the code of `err`. `path` may also be a
// description ("interest examples folder X").
absl::Status ErrnoStatus(int err, absl::string_view what,
                         absl::string_view path);
// The same for the current errno, which is read before anything else can
// change it; call it right after the failed call.
absl::Status ErrnoStatus(absl::string_view what, absl::string_view path);

class AtomicFile {
 public:
  AtomicFile() = default;
  // Removes the temporary file unless Commit() succeeded.
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  // Creates the temporary file `path` + `tmp_suffix` (truncating one left
  // by a crash). Writers that may run at the same time (one per process
  // sharing a folder) need distinct suffixes, or they would write into one
  // temporary file.
  absl::Status Open(const std::string& path,
                    absl::string_view tmp_suffix = ".tmp");
  // All of it, retrying short writes; unbuffered (one write(2) or more), so
  // callers writing many small pieces buffer them first. A failure removes
  // the temporary file; later calls fail with FailedPrecondition.
  absl::Status Write(const void* data, size_t n);
  absl::Status Write(absl::string_view bytes) {
    return Write(bytes.data(), bytes.size());
  }
  // fsync, close, rename over the target, fsync the folder (best effort:
  // the file is in place even if the folder cannot be synced).
  absl::Status Commit();

  bool is_open() const { return fd_ >= 0; }
  const std::string& path() const { return path_; }
  const std::string& tmp_path() const { return tmp_; }

 private:
  void Abandon();

  int fd_ = -1;
  std::string path_;
  std::string tmp_;
};

// The whole regular file at `path`, refused (InvalidArgument "PATH: WHAT is
// larger than N bytes") once it passes `max_bytes`, so that a hostile or
// mistaken path (a huge log) cannot exhaust memory; a folder, FIFO or
// device is refused ("PATH: not a regular file") without blocking. `what`
// names the file in errors ("interest model", "page model").
absl::StatusOr<std::string> ReadFileBounded(const std::string& path,
                                            size_t max_bytes,
                                            absl::string_view what);

// Called by ForEachLine with each line (without its '\n'), its 1-based
// number, and whether it ended with a newline (false only for a last line
// without one).
using LineFn = std::function<absl::Status(absl::string_view line,
                                          int64_t line_no, bool terminated)>;

// Calls `fn` for every line of `in`; stops at the first error `fn` returns.
// The length is checked while reading, so a hostile file without newlines
// never grows a huge buffer: a line over `max_line_bytes`, or more than
// `max_lines` lines, is ResourceExhausted naming `source`:line — unless
// `on_long_line` is given: then a long line is skipped (its number passed
// to it) and reading goes on.
absl::Status ForEachLine(
    std::istream& in, absl::string_view source, size_t max_line_bytes,
    int64_t max_lines, const LineFn& fn,
    const std::function<void(int64_t line_no)>* on_long_line = nullptr);

// Replaces the file at `path` with `bytes` through an AtomicFile.
absl::Status WriteFileAtomically(const std::string& path,
                                 absl::string_view bytes);

// `path` (absolute, or relative to `root`) as an absolute path inside the
// folder `root`, for a path that came from outside (an RPC, a request):
// InvalidArgument when it is empty, holds a NUL byte or a "." or ".."
// segment, or is not `root` or below it; PermissionDenied when a symbolic
// link on the way leads out of `root` (the deepest existing folder on the
// way is resolved). `root` must be an absolute, resolved path (realpath).
absl::StatusOr<std::string> ConfinedPath(const std::string& root,
                                         absl::string_view path);

// Bytes an unprivileged process may still write on the file system that
// holds `path` (statvfs: f_bavail blocks of f_frsize bytes). Errors: the
// errno of statvfs, naming `path`.
absl::StatusOr<int64_t> FreeBytes(const std::string& path);

// The resident memory of this process, bytes (/proc/self/statm's resident
// pages). Errors: Unavailable where /proc is not mounted.
absl::StatusOr<int64_t> ResidentBytes();

// A folder this process holds: `dir`/LOCK, created if needed, under an
// exclusive flock, released when the FolderLock is destroyed (and by the
// kernel when the process dies, so a killed process leaves no stale lock).
// `owner` says who holds such a folder, for the error: LockFolder(dir,
// "worker") on a folder another process holds → FailedPrecondition
// "cannot use the folder 'DIR': another worker holds it (DIR/LOCK)";
// other failures → the errno's status. Movable, not copyable.
class FolderLock {
 public:
  FolderLock() = default;
  explicit FolderLock(int fd) : fd_(fd) {}
  FolderLock(FolderLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  FolderLock& operator=(FolderLock&& other) noexcept;
  FolderLock(const FolderLock&) = delete;
  FolderLock& operator=(const FolderLock&) = delete;
  ~FolderLock();

 private:
  int fd_ = -1;
};
absl::StatusOr<FolderLock> LockFolder(const std::string& dir,
                                      absl::string_view owner);

// Raises this process's soft limit of open files (RLIMIT_NOFILE) to at
// least `wanted`, as far as the hard limit allows (a shell's default soft
// limit is often 1024, the hard one far higher); never lowers it. Returns
// the soft limit now in force. Errors: the errno of getrlimit/setrlimit.
absl::StatusOr<int64_t> RaiseOpenFileLimit(int64_t wanted);

}  // namespace fcrawl::file

#endif  // FCRAWL_CORE_FILE_H_
