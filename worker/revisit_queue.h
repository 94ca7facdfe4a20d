// The revisit room of the crawl loop (config `revisit`, worker/revisit.h):
// takes the pages that came due from the database's due index to their
// hosts' queues, where they go first behind the host's robots.txt and
// delay, and says whether a continuous crawl has to go on for them.
//
// A page stays in the due index until its revisit's outcome is committed
// (PageCommitter), which replaces the entry with the next due time: a
// worker killed meanwhile revisits it after the restart. Pages taken and
// not yet ended are remembered here, so they are not taken twice.
//
// Owns: the set of revisits under way and this run's revisit count.
// Borrows the database and the scheduler, which must outlive it.
//
// Thread-safety: the crawl thread only.
#ifndef FCRAWL_WORKER_REVISIT_QUEUE_H_
#define FCRAWL_WORKER_REVISIT_QUEUE_H_

#include <cstdint>
#include <string>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/time/time.h"
#include "storage/link_db.h"
#include "worker/host_scheduler.h"
#include "worker/revisit.h"

namespace fcrawl::worker {

// From the config's revisit and budget sections (worker/crawl_setup.h's
// RevisitQueueOptionsOf).
struct RevisitQueueOptions {
  bool continuous;  // revisit.continuous
  RevisitPolicy policy;
  int64_t max_revisits;  // budget.max_revisits; 0 = no limit
};

class RevisitQueue {
 public:
  RevisitQueue(const RevisitQueueOptions& options, storage::LinkDb* db,
               HostScheduler* scheduler);

  // revisit.continuous is on.
  bool enabled() const { return enabled_; }

  // A crawl that turns continuous on after pages were fetched without it:
  // each page that can be revisited (Revisitable) and has no due time gets
  // one, initial_interval after its fetch (at once when that is past).
  // Done once per output folder (a crawl-wide flag), before the crawl.
  absl::Status IndexEarlierPages(absl::Time now);

  // Moves the pages due by `now` to their hosts' queues (Task::revisit),
  // while budget.max_revisits lasts, at most `room` of them under way at
  // once. An index entry its record disowns (no record, or a record due at
  // another time) is dropped.
  absl::Status TakeDue(absl::Time now, size_t room);

  // `url` is due at `due_ms`: its index entry goes into `batch` (committed
  // by the caller), and TakeDue looks at the index again by then.
  void Schedule(const std::string& url, int64_t due_ms,
                storage::LinkBatch* batch);

  // The revisit of `url` ended: its outcome is committed (room for one
  // more under way).
  void Ended(const std::string& url) {
    under_way_.erase(url);
    look_ = true;
  }

  // budget.max_revisits is spent (never when it is 0).
  bool BudgetSpent() const;
  // The crawl goes on for revisits: enabled, budget left, and one under
  // way or a page due some time.
  bool KeepsCrawlAlive() const;
  // When the next page not under way is due (InfiniteFuture: none, or
  // not enabled), as of the last TakeDue and the pages scheduled since.
  absl::Time NextDue() const { return next_due_; }

  // Revisits taken to the hosts' queues (this run).
  int64_t taken() const { return taken_; }

 private:
  const RevisitQueueOptions options_;
  storage::LinkDb& db_;
  HostScheduler& scheduler_;
  const bool enabled_;
  absl::flat_hash_set<std::string> under_way_;
  int64_t taken_ = 0;
  absl::Time next_due_ = absl::InfiniteFuture();
  // The index must be read again before next_due_ (at the start, and when
  // a revisit ended: room under way, or entries it skipped because of it).
  bool look_ = true;
};

// A record whose page is revisited in a continuous crawl: fetched (DONE)
// with a 2xx answer and a page of its own (not an alias, not a
// duplicate).
bool Revisitable(const proto::LinkRecord& record);

}  // namespace fcrawl::worker

#endif  // FCRAWL_WORKER_REVISIT_QUEUE_H_
