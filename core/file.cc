#include "core/file.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace fcrawl::file {

absl::Status ErrnoStatus(int err, absl::string_view what,
                         absl::string_view path) {
  // absl::ErrnoToStatus appends ": strerror(err)".
  return absl::ErrnoToStatus(err, absl::StrCat(path, ": ", what));
}

absl::Status ErrnoStatus(absl::string_view what, absl::string_view path) {
  const int err = errno;
  return ErrnoStatus(err, what, path);
}

AtomicFile::~AtomicFile() { Abandon(); }

void AtomicFile::Abandon() {
  if (fd_ < 0) return;
  ::close(fd_);
  fd_ = -1;
  ::unlink(tmp_.c_str());
}

absl::Status AtomicFile::Open(const std::string& path,
                              absl::string_view tmp_suffix) {
  Abandon();
  path_ = path;
  tmp_ = absl::StrCat(path, tmp_suffix);
  fd_ = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) return ErrnoStatus("cannot create", tmp_);
  return absl::OkStatus();
}

absl::Status AtomicFile::Write(const void* data, size_t n) {
  if (fd_ < 0) return absl::FailedPreconditionError("file not open");
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t w = ::write(fd_, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      absl::Status s = ErrnoStatus("write", tmp_);
      Abandon();
      return s;
    }
    p += w;
    n -= static_cast<size_t>(w);
  }
  return absl::OkStatus();
}

absl::Status AtomicFile::Commit() {
  if (fd_ < 0) return absl::FailedPreconditionError("file not open");
  if (::fsync(fd_) != 0) {
    absl::Status s = ErrnoStatus("fsync", tmp_);
    Abandon();
    return s;
  }
  const int rc = ::close(fd_);
  fd_ = -1;
  if (rc != 0) {
    absl::Status s = ErrnoStatus("close", tmp_);
    ::unlink(tmp_.c_str());
    return s;
  }
  if (::rename(tmp_.c_str(), path_.c_str()) != 0) {
    absl::Status s = ErrnoStatus("rename into place", path_);
    ::unlink(tmp_.c_str());
    return s;
  }
  // The rename itself must reach the disk, or a crash could bring back the
  // old file after the caller went on as if the new one were there.
  std::string dir = std::filesystem::path(path_).parent_path().string();
  if (dir.empty()) dir = ".";
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
  return absl::OkStatus();
}

absl::Status WriteFileAtomically(const std::string& path,
                                 absl::string_view bytes) {
  AtomicFile file;
  if (absl::Status s = file.Open(path); !s.ok()) return s;
  if (absl::Status s = file.Write(bytes); !s.ok()) return s;
  return file.Commit();
}

absl::StatusOr<std::string> ReadFileBounded(const std::string& path,
                                            size_t max_bytes,
                                            absl::string_view what) {
  // O_NONBLOCK: a FIFO must not block the open; it is refused below.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return ErrnoStatus(absl::StrCat("cannot open ", what), path);
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    return ErrnoStatus(err, absl::StrCat("cannot read ", what), path);
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": not a regular file (", what, ")"));
  }
  std::string bytes;
  char buffer[1 << 16];
  while (true) {
    const ssize_t n = ::read(fd, buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      return ErrnoStatus(err, absl::StrCat("cannot read ", what), path);
    }
    if (n == 0) break;
    if (bytes.size() + static_cast<size_t>(n) > max_bytes) {
      ::close(fd);
      return absl::InvalidArgumentError(absl::StrCat(
          path, ": ", what, " is larger than ", max_bytes, " bytes"));
    }
    bytes.append(buffer, static_cast<size_t>(n));
  }
  ::close(fd);
  return bytes;
}

absl::StatusOr<std::string> ConfinedPath(const std::string& root,
                                         absl::string_view path) {
  if (path.empty() || path.find('\0') != absl::string_view::npos ||
      path.size() > 4096) {
    return absl::InvalidArgumentError(
        "a path must have 1 to 4096 bytes and no NUL");
  }
  std::string full =
      path[0] == '/' ? std::string(path) : absl::StrCat(root, "/", path);
  for (absl::string_view segment : absl::StrSplit(full, '/')) {
    if (segment == "." || segment == "..") {
      return absl::InvalidArgumentError(
          absl::StrCat("the path ", path, " has a '", segment, "' segment"));
    }
  }
  while (full.size() > 1 && full.back() == '/') full.pop_back();
  auto inside = [&root](absl::string_view p) {
    return p == root || root == "/" ||
           (absl::StartsWith(p, root) && p.size() > root.size() &&
            p[root.size()] == '/');
  };
  // Resolved as far as it exists (symbolic links on the way, also in the
  // part written as the root), with the part still to be made appended.
  std::string existing = full;
  std::string rest;
  struct stat st;
  while (::stat(existing.c_str(), &st) != 0) {
    const size_t slash = existing.rfind('/');
    rest = absl::StrCat(existing.substr(slash), rest);
    existing = slash == 0 ? "/" : existing.substr(0, slash);
  }
  char resolved[PATH_MAX];
  if (::realpath(existing.c_str(), resolved) == nullptr) {
    return ErrnoStatus("cannot resolve", existing);
  }
  std::string candidate = resolved;
  if (candidate == "/" && !rest.empty()) candidate.clear();
  candidate.append(rest);
  if (inside(candidate)) return candidate;
  if (!inside(full)) {
    return absl::InvalidArgumentError(
        absl::StrCat("the path ", path, " is not inside ", root));
  }
  return absl::PermissionDeniedError(absl::StrCat(
      "the path ", path, " leads out of ", root, " (through ", existing, ")"));
}

FolderLock& FolderLock::operator=(FolderLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

FolderLock::~FolderLock() {
  if (fd_ >= 0) ::close(fd_);  // releases the flock
}

absl::StatusOr<FolderLock> LockFolder(const std::string& dir,
                                      absl::string_view owner) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    return absl::InternalError(
        absl::StrCat("cannot create the folder '", dir, "': ", ec.message()));
  }
  const std::string path = dir + "/LOCK";
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return ErrnoStatus("open", path);
  FolderLock lock(fd);
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno == EWOULDBLOCK) {
      return absl::FailedPreconditionError(
          absl::StrCat("cannot use the folder '", dir, "': another ", owner,
                       " holds it (", path, ")"));
    }
    return ErrnoStatus("flock", path);
  }
  return lock;
}

absl::StatusOr<int64_t> FreeBytes(const std::string& path) {
  struct statvfs st;
  if (::statvfs(path.c_str(), &st) != 0) {
    return ErrnoStatus("cannot read the free space of", path);
  }
  return static_cast<int64_t>(st.f_bavail) * static_cast<int64_t>(st.f_frsize);
}

absl::StatusOr<int64_t> ResidentBytes() {
  // "size resident shared text lib data dt", in pages.
  std::FILE* f = std::fopen("/proc/self/statm", "re");
  if (f == nullptr) {
    return absl::UnavailableError("cannot read /proc/self/statm");
  }
  long long size = 0, resident = 0;
  const int read = std::fscanf(f, "%lld %lld", &size, &resident);
  std::fclose(f);
  if (read != 2 || resident < 0) {
    return absl::UnavailableError("/proc/self/statm: unexpected contents");
  }
  return static_cast<int64_t>(resident) * ::sysconf(_SC_PAGESIZE);
}

absl::StatusOr<int64_t> RaiseOpenFileLimit(int64_t wanted) {
  struct rlimit rl;
  if (::getrlimit(RLIMIT_NOFILE, &rl) != 0) {
    return absl::ErrnoToStatus(errno, "getrlimit(RLIMIT_NOFILE)");
  }
  const rlim_t want = wanted < 0 ? 0 : static_cast<rlim_t>(wanted);
  if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < want) {
    rl.rlim_cur =
        rl.rlim_max == RLIM_INFINITY ? want : std::min(want, rl.rlim_max);
    if (::setrlimit(RLIMIT_NOFILE, &rl) != 0) {
      return absl::ErrnoToStatus(errno, "setrlimit(RLIMIT_NOFILE)");
    }
  }
  return rl.rlim_cur == RLIM_INFINITY ? std::numeric_limits<int64_t>::max()
                                      : static_cast<int64_t>(rl.rlim_cur);
}

absl::Status ForEachLine(
    std::istream& in, absl::string_view source, size_t max_line_bytes,
    int64_t max_lines, const LineFn& fn,
    const std::function<void(int64_t line_no)>* on_long_line) {
  std::streambuf* sb = in.rdbuf();
  if (sb == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(source, ": no stream"));
  }
  std::string line;
  int64_t line_no = 0;
  bool skipping = false;  // in a long line that is being skipped
  char buf[64 * 1024];
  auto emit = [&](bool terminated) -> absl::Status {
    ++line_no;
    if (line_no > max_lines) {
      return absl::ResourceExhaustedError(absl::StrCat(
          source, ": more than ", max_lines, " lines (the limit)"));
    }
    absl::Status s = fn(line, line_no, terminated);
    line.clear();
    return s;
  };
  while (true) {
    const std::streamsize got = sb->sgetn(buf, sizeof(buf));
    if (got <= 0) break;
    absl::string_view chunk(buf, static_cast<size_t>(got));
    while (!chunk.empty()) {
      const size_t nl = chunk.find('\n');
      const absl::string_view piece = chunk.substr(0, nl);
      if (!skipping && line.size() + piece.size() > max_line_bytes) {
        if (on_long_line == nullptr) {
          return absl::ResourceExhaustedError(
              absl::StrCat(source, ":", line_no + 1, ": line longer than ",
                           max_line_bytes, " bytes"));
        }
        skipping = true;
        line.clear();
      }
      if (!skipping) line.append(piece.data(), piece.size());
      if (nl == absl::string_view::npos) break;
      chunk.remove_prefix(nl + 1);
      if (skipping) {
        skipping = false;
        ++line_no;
        (*on_long_line)(line_no);
        continue;
      }
      if (absl::Status s = emit(true); !s.ok()) return s;
    }
  }
  if (skipping) {
    (*on_long_line)(line_no + 1);
    return absl::OkStatus();
  }
  if (!line.empty()) return emit(false);
  return absl::OkStatus();
}

}  // namespace fcrawl::file
