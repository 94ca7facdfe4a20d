// The ranker's batch jobs: build the graph from shards, resume from the last
// checkpoint, run rounds (all of them, or exactly one), write the outputs.
#ifndef FCRAWL_RANKER_JOB_H_
#define FCRAWL_RANKER_JOB_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "ranker/graph.h"
#include "ranker/output.h"
#include "ranker/rank.h"

namespace fcrawl::ranker {

struct RoundReport {
  int64_t round = 0;  // the round just finished
  double seconds = 0;
  uint64_t edge_visits = 0;
  std::vector<std::pair<std::string, double>> l1;  // per chain stepped
};

struct JobOptions {
  std::vector<std::string> inputs;  // shard files and folders
  GraphOptions graph;
  RankOptions rank;
  // Empty: no checkpoints (run only). Otherwise the last round's state is
  // read from and written to this folder.
  std::string checkpoint_dir;
  // Checkpoint every this many rounds (and after the last one): writing a
  // checkpoint of a large graph can take longer than the round.
  int checkpoint_every = 1;
  // Used only with checkpoint_dir: the built graph is kept in
  // <checkpoint_dir>/graph.fcgc (graph_cache.h) and reloaded while the
  // shards and graph options stay the same, so a `round` job costs a load
  // (seconds less at 1M pages) instead of a build.
  bool graph_cache = true;
  bool fresh = false;      // start at round 0 even if a checkpoint exists
  std::string out;         // ranked pages, if set
  std::string blocks_out;  // ranked blocks (blpr), if set
  OutputOptions output;
  std::function<bool()> stop;                        // checked between rounds
  std::function<void(const RoundReport&)> on_round;  // progress
  // Many processes (ranker-mpi; rank.h "Many processes"): nullptr is one
  // process. Otherwise every process runs the same job with the same
  // options: each builds the whole graph from the shards (a shared
  // filesystem) and reads the checkpoint, and the rounds run in lockstep,
  // every process holding the whole state. Process 0 alone writes the
  // checkpoints and outputs. Failures are agreed: a process's build or
  // checkpoint error and process 0's write errors make every process's job
  // fail (none waits forever in a collective), and a stop() on any process
  // stops all after the same round.
  Exchange* exchange = nullptr;
};

struct JobReport {
  GraphStats stats;
  uint32_t pages = 0;
  uint64_t edges = 0;
  uint64_t blocks = 0;  // the blocks of the pages read (GraphStats.blocks)
  uint64_t fingerprint = 0;
  size_t graph_bytes = 0;
  double load_seconds = 0;
  bool graph_from_cache = false;  // the graph came from the graph cache
  // A damaged or unreadable graph cache, or one that could not be written
  // (the graph was built from the shards all the same); empty normally.
  std::string graph_cache_problem;
  int64_t start_round = 0;  // round of the state the job started from
  int64_t round = 0;        // round of the state it ended with
  int rounds_run = 0;
  double round_seconds = 0;
  uint64_t edge_visits = 0;
  int processes = 1;            // JobOptions::exchange's size
  uint64_t exchange_bytes = 0;  // received by this process, all rounds
  bool resumed = false;
  bool converged = false;
  bool stopped = false;                            // by JobOptions::stop
  std::vector<std::pair<std::string, double>> l1;  // last change per chain
};

// Rounds until every chain converged, rank.max_rounds rounds were run in
// all (counting the checkpoint's), or stop() says so; then the outputs.
absl::StatusOr<JobReport> RunJob(const JobOptions& options);

// Exactly one round from the last checkpoint (or from round 0), written as
// the new checkpoint; needs checkpoint_dir. Runs no round (and writes
// nothing but the outputs) when the state has converged or reached
// rank.max_rounds already.
absl::StatusOr<JobReport> RoundJob(const JobOptions& options);

// The outputs of the last checkpoint; needs checkpoint_dir.
absl::StatusOr<JobReport> OutputJob(const JobOptions& options);

}  // namespace fcrawl::ranker

#endif  // FCRAWL_RANKER_JOB_H_
