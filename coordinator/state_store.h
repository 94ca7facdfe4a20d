// The coordinator's own small store (docs/design.md "State"): a few keys that
// let a restarted coordinator know the crawl, its budget and its workers,
// kept in memory and in a log file with snapshots (state_store.cc), so the
// coordinator needs no database library.
//
// Keys used by the coordinator (the Coordinator class owns their meaning;
// coordinator_internal.h names them):
//   "state"           CoordinatorState without the crawl's config and
//                     on_topic_urls (written on every change: it is small)
//   "crawl"           the full CrawlAssignment (written once per crawl)
//   "stats/<name>"    the last WorkerStats of each worker of the crawl
//
// Thread-safety: every method may be called from any thread.
#ifndef FCRAWL_COORDINATOR_STATE_STORE_H_
#define FCRAWL_COORDINATOR_STATE_STORE_H_

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace fcrawl::coordinator {

// Puts and deletes applied atomically by StateStore::Apply.
struct StateWrite {
  std::vector<std::pair<std::string, std::string>> puts;
  std::vector<std::string> deletes;
  // Also delete every key that starts with this prefix ("" = none).
  std::string delete_prefix;
  // Wait for the log to reach the disk before returning (for figures that
  // must survive a power cut, such as granted quota).
  bool sync = false;
};

class StateStore {
 public:
  // Opens (creating it when missing) the store in `dir`; parent folders
  // are created too. FailedPrecondition when another process (or another
  // StateStore of this one) holds it; DataLoss for a damaged log (a torn
  // last record, left by a crash during an unsynced write, is dropped);
  // other errors as errno says.
  static absl::StatusOr<std::unique_ptr<StateStore>> Open(
      const std::string& dir);
  ~StateStore();
  StateStore(const StateStore&) = delete;
  StateStore& operator=(const StateStore&) = delete;

  absl::StatusOr<std::optional<std::string>> Get(absl::string_view key);
  absl::Status Apply(const StateWrite& write);
  // Every (key, value) whose key starts with `prefix`, in key order.
  absl::StatusOr<std::vector<std::pair<std::string, std::string>>> Scan(
      absl::string_view prefix);

 private:
  struct Impl;
  explicit StateStore(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace fcrawl::coordinator

#endif  // FCRAWL_COORDINATOR_STATE_STORE_H_
