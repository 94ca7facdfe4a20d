// Processes of a ranking job simulated by threads of one process: an
// Exchange without MPI, for tests of the many-process code (rank.h, job.h)
// and for comparing it with the single-process run.
#ifndef FCRAWL_RANKER_LOCAL_EXCHANGE_H_
#define FCRAWL_RANKER_LOCAL_EXCHANGE_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "absl/types/span.h"
#include "ranker/rank.h"

namespace fcrawl::ranker {

// The shared side of `processes` LocalExchanges; each is used by one thread.
class LocalExchangeGroup {
 public:
  explicit LocalExchangeGroup(int processes);
  int size() const { return size_; }
  // Process `rank`'s Exchange, valid while the group is.
  Exchange* member(int rank) { return members_[rank].get(); }
  // Collective calls so far (of process 0), for tests.
  int64_t calls() const;

 private:
  friend class LocalExchange;
  // Waits until every process arrived (a reusable barrier).
  void Wait();

  const int size_;
  std::vector<std::unique_ptr<Exchange>> members_;
  mutable absl::Mutex mu_;
  int arrived_ ABSL_GUARDED_BY(mu_) = 0;
  uint64_t generation_ ABSL_GUARDED_BY(mu_) = 0;
  int64_t calls_ ABSL_GUARDED_BY(mu_) = 0;
  // What each process put up for the collective in progress; written by its
  // owner before the first Wait() of a collective and read by all between
  // that and the second (the barrier orders the accesses).
  std::vector<const void*> data_;
  std::vector<absl::Status> status_;
  std::vector<char> flag_;
};

}  // namespace fcrawl::ranker

#endif  // FCRAWL_RANKER_LOCAL_EXCHANGE_H_
