// The coordinator's state as a log file: <dir>/state.log holds a snapshot
// record of every key, then one record per Apply (length, FNV-1a 64 of the
// bytes, a StateStoreRecord). Open replays it; a torn last record (a crash
// during a write that was not synced) is dropped, a damaged record before
// the end is DataLoss. When the log has grown to 4× its snapshot (and at
// least 1 MiB), the next Apply writes a new snapshot through an AtomicFile.
// A few small keys change often ("state", "stats/<name>"), one large key
// rarely ("crawl"): a log rewrites only what changed, and a sync costs one
// fdatasync. <dir>/LOCK is held (file::LockFolder) while the store is open.
#include "coordinator/state_store.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <map>
#include <system_error>

#include "absl/base/thread_annotations.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "core/file.h"
#include "core/hash.h"
#include "proto/cluster.pb.h"

namespace fcrawl::coordinator {
namespace {

constexpr size_t kHeaderBytes = 12;  // uint32 length, uint64 checksum
// A state log larger than this is refused (the state is a few keys).
constexpr int64_t kMaxLogBytes = int64_t{1} << 30;
constexpr int64_t kMinCompactBytes = int64_t{1} << 20;

std::string Frame(const proto::StateStoreRecord& record) {
  const std::string body = record.SerializeAsString();
  std::string out(kHeaderBytes, '\0');
  const uint32_t n = static_cast<uint32_t>(body.size());
  const uint64_t sum = hash::Fnv1a64(body);
  std::memcpy(out.data(), &n, 4);
  std::memcpy(out.data() + 4, &sum, 8);
  out += body;
  return out;
}

}  // namespace

struct StateStore::Impl {
  std::string dir, log_path;
  file::FolderLock lock;  // held while the store is open
  absl::Mutex mu;
  int log_fd ABSL_GUARDED_BY(mu) = -1;
  std::map<std::string, std::string> entries ABSL_GUARDED_BY(mu);
  int64_t log_bytes ABSL_GUARDED_BY(mu) = 0;
  int64_t snapshot_bytes ABSL_GUARDED_BY(mu) = 0;

  ~Impl() {
    if (log_fd >= 0) ::close(log_fd);
  }

  // Replays `bytes` (the whole log) into `entries`.
  absl::Status Replay(const std::string& bytes)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu) {
    size_t pos = 0;
    while (pos < bytes.size()) {
      uint32_t n = 0;
      uint64_t sum = 0;
      const bool whole_header = bytes.size() - pos >= kHeaderBytes;
      if (whole_header) {
        std::memcpy(&n, bytes.data() + pos, 4);
        std::memcpy(&sum, bytes.data() + pos + 4, 8);
      }
      const bool whole = whole_header && bytes.size() - pos - kHeaderBytes >= n;
      proto::StateStoreRecord r;
      const bool good = whole &&
                        hash::Fnv1a64(absl::string_view(bytes).substr(
                            pos + kHeaderBytes, n)) == sum &&
                        r.ParseFromArray(bytes.data() + pos + kHeaderBytes,
                                         static_cast<int>(n));
      if (!good) {
        if (!whole) break;  // torn last record: never acknowledged as synced
        return absl::DataLossError(absl::StrCat(
            log_path, ": damaged record at byte ", pos, " of ", bytes.size()));
      }
      Merge(r);
      if (r.snapshot()) snapshot_bytes = kHeaderBytes + n;
      pos += kHeaderBytes + n;
    }
    log_bytes = static_cast<int64_t>(pos);
    return absl::OkStatus();
  }

  void Merge(const proto::StateStoreRecord& r)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu) {
    if (r.snapshot()) entries.clear();
    if (!r.delete_prefix().empty()) {
      auto it = entries.lower_bound(r.delete_prefix());
      while (it != entries.end() &&
             absl::StartsWith(it->first, r.delete_prefix())) {
        it = entries.erase(it);
      }
    }
    for (const std::string& k : r.deletes()) entries.erase(k);
    for (const auto& e : r.puts()) entries[e.key()] = e.value();
  }

  // A new log holding one snapshot record; reopens log_fd on it.
  absl::Status Compact() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu) {
    proto::StateStoreRecord snap;
    snap.set_snapshot(true);
    for (const auto& [k, v] : entries) {
      auto* e = snap.add_puts();
      e->set_key(k);
      e->set_value(v);
    }
    const std::string framed = Frame(snap);
    if (absl::Status s = file::WriteFileAtomically(log_path, framed); !s.ok()) {
      return s;
    }
    if (log_fd >= 0) ::close(log_fd);
    log_fd = ::open(log_path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
    if (log_fd < 0) return file::ErrnoStatus("open", log_path);
    log_bytes = snapshot_bytes = static_cast<int64_t>(framed.size());
    return absl::OkStatus();
  }
};

StateStore::StateStore(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

StateStore::~StateStore() = default;

absl::StatusOr<std::unique_ptr<StateStore>> StateStore::Open(
    const std::string& dir) {
  absl::StatusOr<file::FolderLock> lock = file::LockFolder(dir, "coordinator");
  if (!lock.ok()) return lock.status();
  auto impl = std::make_unique<Impl>();
  impl->dir = dir;
  impl->log_path = dir + "/state.log";
  impl->lock = *std::move(lock);
  absl::MutexLock l(&impl->mu);
  std::string bytes;
  {
    const int fd = ::open(impl->log_path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0 && errno != ENOENT) {
      return file::ErrnoStatus("open", impl->log_path);
    }
    if (fd >= 0) {
      struct stat st;
      if (::fstat(fd, &st) != 0 || st.st_size > kMaxLogBytes) {
        ::close(fd);
        return absl::DataLossError(absl::StrCat(impl->log_path,
                                                ": unreadable or larger than ",
                                                kMaxLogBytes, " bytes"));
      }
      bytes.resize(static_cast<size_t>(st.st_size));
      size_t got = 0;
      while (got < bytes.size()) {
        const ssize_t r = ::read(fd, bytes.data() + got, bytes.size() - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        got += static_cast<size_t>(r);
      }
      ::close(fd);
      bytes.resize(got);
    }
  }
  if (absl::Status s = impl->Replay(bytes); !s.ok()) return s;
  // A fresh log holds one snapshot, so a torn tail is gone for good.
  if (absl::Status s = impl->Compact(); !s.ok()) return s;
  return std::unique_ptr<StateStore>(new StateStore(std::move(impl)));
}

absl::StatusOr<std::optional<std::string>> StateStore::Get(
    absl::string_view key) {
  absl::MutexLock l(&impl_->mu);
  auto it = impl_->entries.find(std::string(key));
  if (it == impl_->entries.end()) return std::optional<std::string>();
  return std::optional<std::string>(it->second);
}

absl::Status StateStore::Apply(const StateWrite& write) {
  proto::StateStoreRecord r;
  r.set_delete_prefix(write.delete_prefix);
  for (const std::string& k : write.deletes) r.add_deletes(k);
  for (const auto& [k, v] : write.puts) {
    auto* e = r.add_puts();
    e->set_key(k);
    e->set_value(v);
  }
  const std::string framed = Frame(r);
  absl::MutexLock l(&impl_->mu);
  if (impl_->log_bytes >
      std::max(kMinCompactBytes, 4 * impl_->snapshot_bytes)) {
    if (absl::Status s = impl_->Compact(); !s.ok()) return s;
  }
  size_t done = 0;
  while (done < framed.size()) {
    const ssize_t w =
        ::write(impl_->log_fd, framed.data() + done, framed.size() - done);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) {
      const absl::Status s = file::ErrnoStatus("write", impl_->log_path);
      // Whatever part of the record reached the file is a torn tail: a new
      // log keeps the next records readable.
      impl_->Compact().IgnoreError();
      return s;
    }
    done += static_cast<size_t>(w);
  }
  if (write.sync && ::fdatasync(impl_->log_fd) != 0) {
    return file::ErrnoStatus("fdatasync", impl_->log_path);
  }
  impl_->log_bytes += static_cast<int64_t>(framed.size());
  impl_->Merge(r);
  return absl::OkStatus();
}

absl::StatusOr<std::vector<std::pair<std::string, std::string>>>
StateStore::Scan(absl::string_view prefix) {
  absl::MutexLock l(&impl_->mu);
  std::vector<std::pair<std::string, std::string>> out;
  for (auto it = impl_->entries.lower_bound(std::string(prefix));
       it != impl_->entries.end() && absl::StartsWith(it->first, prefix);
       ++it) {
    out.emplace_back(it->first, it->second);
  }
  return out;
}

}  // namespace fcrawl::coordinator
