// Exchange (rank.h) over MPI: the processes of an MPI communicator, for
// ranker-mpi. Calls must come from the thread that initialised MPI
// (MPI_THREAD_FUNNELED suffices). MPI's default error handler aborts the
// whole job on a communication failure, so no process waits forever.
#ifndef FCRAWL_RANKER_MPI_EXCHANGE_H_
#define FCRAWL_RANKER_MPI_EXCHANGE_H_

#include <mpi.h>

#include <cstdint>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "ranker/rank.h"

namespace fcrawl::ranker {

class MpiExchange : public Exchange {
 public:
  // A collective over `comm` (it counts the processes on each machine);
  // `comm` must outlive the exchange.
  explicit MpiExchange(MPI_Comm comm);

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  int local_size() const override { return local_size_; }

  void AllGather(absl::Span<float> data,
                 absl::Span<const uint64_t> counts) override;
  void AllGather(absl::Span<double> data,
                 absl::Span<const uint64_t> counts) override;
  bool All(bool value) override;
  bool Any(bool value) override;
  absl::Status AgreeStatus(const absl::Status& local) override;
  void Barrier() override;

  // Bytes this process has received in AllGather so far.
  uint64_t received_bytes() const { return received_bytes_; }

 private:
  void Gather(void* data, size_t elem, MPI_Datatype type,
              absl::Span<const uint64_t> counts);

  MPI_Comm comm_;
  int rank_ = 0;
  int size_ = 1;
  int local_size_ = 1;
  uint64_t received_bytes_ = 0;
};

}  // namespace fcrawl::ranker

#endif  // FCRAWL_RANKER_MPI_EXCHANGE_H_
