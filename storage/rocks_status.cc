#include "storage/rocks_status.h"

#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace fcrawl::storage {

bool IsHeldLock(const rocksdb::Status& s) {
  if (!s.IsIOError()) return false;
  // RocksDB reports a held lock as an IOError with no subcode of its own:
  // "lock hold by current process" for a second handle in this process,
  // "While lock file: DIR/LOCK: Resource temporarily unavailable" for
  // another process.
  const std::string text = s.ToString();
  return absl::StrContains(text, "lock hold") ||
         absl::StrContains(text, "While lock") ||
         absl::StrContains(text, "/LOCK");
}

absl::Status FromRocks(const rocksdb::Status& s, absl::string_view context) {
  if (s.ok()) return absl::OkStatus();
  const std::string message = absl::StrCat(context, ": ", s.ToString());
  if (IsHeldLock(s)) return absl::FailedPreconditionError(message);
  if (s.IsNotFound()) return absl::NotFoundError(message);
  if (s.IsCorruption()) return absl::DataLossError(message);
  if (s.IsInvalidArgument()) return absl::InvalidArgumentError(message);
  if (s.IsNotSupported()) return absl::UnimplementedError(message);
  if (s.IsBusy() || s.IsTimedOut() || s.IsTryAgain()) {
    return absl::UnavailableError(message);
  }
  if (s.IsAborted()) return absl::AbortedError(message);
  if (s.IsIOError()) {
    if (s.IsNoSpace()) return absl::ResourceExhaustedError(message);
    return absl::UnavailableError(message);
  }
  return absl::InternalError(message);
}

}  // namespace fcrawl::storage
