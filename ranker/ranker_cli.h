// The ranker's command line (`ranker` and `ranker-mpi`): block-level link
// analysis over graph shards, as batch jobs.
//
//   ranker run    [flags] SHARDS...  rounds until converged or --max_rounds,
//                                    then the outputs; with --checkpoint_dir
//                                    every round is checkpointed and a run
//                                    that was interrupted resumes
//   ranker round  [flags] SHARDS...  exactly one round from the last
//                                    checkpoint (needs --checkpoint_dir)
//   ranker output [flags] SHARDS...  the outputs of the last checkpoint
//   ranker info   [flags] SHARDS...  builds the graph and prints its counts
//
// SHARDS are shard files or folders of *.fcg files (also --shards PATH).
// A JSON summary goes to stdout, progress to stderr. SIGINT or SIGTERM stops
// `run` after the current round (its checkpoint is kept; exit status 130).
// Exit status: 0 done, 1 runtime error, 2 usage error, 130 stopped.
#ifndef FCRAWL_RANKER_RANKER_CLI_H_
#define FCRAWL_RANKER_RANKER_CLI_H_

namespace fcrawl::ranker {

class Exchange;

// Parses the flags, runs the command and returns the exit status.
// `exchange` is null for one process; otherwise it connects the processes
// of an MPI job (ranker_mpi_main.cc), which all call this with the same
// arguments.
int RankerMain(int argc, char** argv, Exchange* exchange);

}  // namespace fcrawl::ranker

#endif  // FCRAWL_RANKER_RANKER_CLI_H_
