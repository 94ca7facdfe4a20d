#include "core/disk_reserve.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/file.h"

namespace fcrawl {
namespace {

// Creates `path` holding `bytes` of allocated blocks; on failure removes
// what it made.
absl::Status Allocate(const std::string& path, int64_t bytes) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return file::ErrnoStatus("cannot create the disk reserve", path);
  int err = 0;
  do {
    err = ::posix_fallocate(fd, 0, static_cast<off_t>(bytes));
  } while (err == EINTR);
  ::close(fd);
  if (err != 0) {
    ::unlink(path.c_str());
    return file::ErrnoStatus(
        err, absl::StrCat("cannot hold ", bytes, " bytes of disk reserve in"),
        path);
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::unique_ptr<DiskReserve>> DiskReserve::Create(
    std::string path, int64_t bytes) {
  if (bytes <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("disk reserve of ", bytes, " bytes in ", path));
  }
  std::unique_ptr<DiskReserve> r(new DiskReserve(std::move(path), bytes));
  if (absl::Status s = Allocate(r->path_, bytes); !s.ok()) return s;
  r->held_.store(true, std::memory_order_release);
  return r;
}

std::unique_ptr<DiskReserve> DiskReserve::Released(std::string path,
                                                   int64_t bytes) {
  if (bytes <= 0) return nullptr;
  return std::unique_ptr<DiskReserve>(new DiskReserve(std::move(path), bytes));
}

DiskReserve::~DiskReserve() { ::unlink(path_.c_str()); }

bool DiskReserve::Release() {
  absl::MutexLock lock(&mu_);
  if (!held_.load(std::memory_order_acquire)) return false;
  held_.store(false, std::memory_order_release);
  return ::unlink(path_.c_str()) == 0 || errno == ENOENT;
}

absl::Status DiskReserve::Restore() {
  absl::MutexLock lock(&mu_);
  if (held_.load(std::memory_order_acquire)) return absl::OkStatus();
  if (absl::Status s = Allocate(path_, bytes_); !s.ok()) return s;
  held_.store(true, std::memory_order_release);
  return absl::OkStatus();
}

}  // namespace fcrawl
