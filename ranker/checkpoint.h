// Checkpoints: the state of a ranking after a round, so that `ranker round`
// can run one round as a batch job and an interrupted `ranker run` resumes.
//
// One file, <dir>/checkpoint.fcr, replaced atomically (written to a
// temporary file, synced, renamed) after every round, so a crash leaves the
// previous round's checkpoint intact. It holds the algorithm, the parameter
// string, the graph's fingerprint (a checkpoint of another graph or other
// weights is refused), the round number and every chain's vector, and ends
// with a checksum of everything before it. Numbers are in the host's byte
// order (checkpoints do not travel between architectures).
#ifndef FCRAWL_RANKER_CHECKPOINT_H_
#define FCRAWL_RANKER_CHECKPOINT_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "ranker/graph.h"
#include "ranker/rank.h"

namespace fcrawl::ranker {

struct Checkpoint {
  std::string algorithm;
  std::string params;  // GraphParams() plus the damping
  uint64_t graph_fingerprint = 0;
  uint64_t num_pages = 0;
  RankState state;
};

std::string CheckpointPath(const std::string& dir);

// Writes `state` with the other fields of `meta` (whose state is ignored);
// streams the vectors, so it needs no copy of them. Creates `dir` if
// needed.
absl::Status WriteCheckpoint(const std::string& dir, const Checkpoint& meta,
                             const RankState& state);

// nullopt when the folder holds no checkpoint; an error when it holds a
// damaged one.
absl::StatusOr<std::optional<Checkpoint>> ReadCheckpoint(
    const std::string& dir);

// The params string a checkpoint of `graph` ranked with `ranker` carries.
std::string CheckpointParams(const Graph& graph, const Ranker& ranker);

// OK when `c` was made on this graph with these parameters.
absl::Status CheckCheckpoint(const Checkpoint& c, const Graph& graph,
                             const Ranker& ranker);

}  // namespace fcrawl::ranker

#endif  // FCRAWL_RANKER_CHECKPOINT_H_
