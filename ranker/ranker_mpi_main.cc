// ranker-mpi: the ranker as the processes of an MPI job, each owning a slice
// of the pages and exchanging its part of every round (rank.h "Many
// processes"); the same commands, flags and results as `ranker`
// (ranker_cli.h), bit for bit:
//
//   mpirun -np 3 ranker-mpi run --algorithm quarkrank --out r.tsv SHARDS...
//
// Every process reads all the shards (a shared filesystem) and holds the
// whole graph; process 0 alone writes checkpoints and outputs and prints the
// summary and progress. --threads defaults to the cores divided by the
// processes on the machine. SIGINT/SIGTERM (mpirun sends SIGTERM to every
// process when it gets either) or SIGUSR1 (which mpirun forwards) stop every
// process after the same round.
#include <mpi.h>

#include <cstdio>

#include "ranker/mpi_exchange.h"
#include "ranker/ranker_cli.h"

int main(int argc, char** argv) {
  // The ranker's threads only compute; MPI is called from the main thread.
  int provided = 0;
  if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) !=
      MPI_SUCCESS) {
    std::fprintf(stderr, "ranker-mpi: MPI_Init_thread failed\n");
    return 1;
  }
  if (provided < MPI_THREAD_FUNNELED) {
    std::fprintf(stderr, "ranker-mpi: MPI lacks MPI_THREAD_FUNNELED\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
  }
  int code = 0;
  {
    fcrawl::ranker::MpiExchange exchange(MPI_COMM_WORLD);
    code = fcrawl::ranker::RankerMain(argc, argv, &exchange);
  }
  MPI_Finalize();
  return code;
}
