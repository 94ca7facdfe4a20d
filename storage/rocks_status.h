// The one mapping from a RocksDB status to an absl::Status, used by every
// RocksDB adapter (storage/link_db.cc and link_db_read.cc,
// coordinator/state_store.cc), so that
// one failure gets one code wherever it happens. For those adapters only:
// RocksDB types stay inside them (docs/design.md, "Dependency direction").
//
//   a lock on the folder held by another process, or by another
//   handle of this process                → FailedPrecondition
//   NotFound                              → NotFound
//   Corruption                            → DataLoss
//   InvalidArgument                       → InvalidArgument
//   NotSupported                          → Unimplemented
//   Busy, TimedOut, TryAgain              → Unavailable
//   Aborted                               → Aborted
//   IOError: no space                     → ResourceExhausted
//   other IOError                         → Unavailable
//   anything else                         → Internal
//
// A held lock is FailedPrecondition, not Unavailable: retrying does not
// help until the other user closes the database, so callers must not treat
// it as a passing error.
#ifndef FCRAWL_STORAGE_ROCKS_STATUS_H_
#define FCRAWL_STORAGE_ROCKS_STATUS_H_

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "rocksdb/status.h"

namespace fcrawl::storage {

// The status for `s` with `context` in front of its message
// ("CONTEXT: RocksDB's message"); OK for OK.
absl::Status FromRocks(const rocksdb::Status& s, absl::string_view context);

// Whether `s` is the failure to take a database folder's lock (its LOCK
// file) because someone else holds it.
bool IsHeldLock(const rocksdb::Status& s);

}  // namespace fcrawl::storage

#endif  // FCRAWL_STORAGE_ROCKS_STATUS_H_
