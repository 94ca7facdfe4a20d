// A cache of the built Graph, so that `ranker round` (one round per process)
// reloads the graph instead of rebuilding it from the shards: at 1M pages
// and 20M links a build takes 6-18 s and a round 0.03-0.1 s.
//
// One file, <checkpoint_dir>/graph.fcgc, replaced atomically (see
// core/file.h). It holds every array of the Graph as BuildGraph left it
// and is keyed by InputsKey(): the shard paths in order, each shard's size,
// mtime, ctime, device and inode, the options that shape the graph
// (GraphParams, max_record_bytes) and the format version. A cache whose key
// differs is stale and is rebuilt; nothing else is trusted from the outside.
// The key is taken before the build, so a shard replaced while the graph is
// built makes the next key differ. It relies on shards being replaced, not
// rewritten in place with the same size within one mtime tick (ShardWriter
// writes a new file and renames it into place).
//
// Layout (host byte order, like checkpoints; caches do not travel):
//   header: magic "FCGCACHE", version, inputs key, algorithm, page/record/
//           URL counts, fingerprint, GraphStats, the params string, the
//           element count of every section; its own checksum
//   body:   the sections back to back (URL lengths, URL bytes, then the
//           Graph's arrays in declaration order; zero_row as bytes)
//   trailer: checksum of the body, hashed in 1 MiB blocks (StableHasher)
// A loader bounds every count by the file size before allocating anything,
// checks the checksums, then checks the structure (offsets monotone and
// ending at the edge and block counts, ids below the page count, array
// sizes as BuildGraph makes them for the algorithm), so a damaged or
// hostile file is refused with DataLoss and never crashes a round.
#ifndef FCRAWL_RANKER_GRAPH_CACHE_H_
#define FCRAWL_RANKER_GRAPH_CACHE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "ranker/graph.h"

namespace fcrawl::ranker {

// <checkpoint_dir>/graph.fcgc
std::string GraphCachePath(const std::string& checkpoint_dir);

// The fingerprint of the inputs of BuildGraph(shard_paths, options) (see
// above). Fails if a shard cannot be stat'ed.
absl::StatusOr<uint64_t> InputsKey(const std::vector<std::string>& shard_paths,
                                   const GraphOptions& options);

// Writes `g` (as built: not after DropEdges) to `path`, creating its folder.
absl::Status SaveGraphCache(const std::string& path, const Graph& g,
                            uint64_t inputs_key);

// NotFound: no file. FailedPrecondition: a cache of other inputs (stale).
// DataLoss, naming the file and the problem: a damaged file. Other codes:
// the file could not be read.
absl::StatusOr<std::unique_ptr<Graph>> LoadGraphCache(const std::string& path,
                                                      uint64_t inputs_key);

// The graph of BuildGraph(shard_paths, options), from the cache at
// `cache_path` when it holds these inputs (then *from_cache is true);
// otherwise built and written there. A cache that cannot be read or written
// never fails the build -- the shards are the truth, the cache only saves
// time -- but a damaged or unreadable cache, or a new one that could not be
// written, is described in *problem (if given; empty when the cache was
// used, absent or stale, the normal cases) for the user to see, since every
// round would otherwise rebuild without anyone knowing why. Errors are
// BuildGraph's. `write` false: a graph it builds is not written (the
// processes of an MPI job but one).
absl::StatusOr<std::unique_ptr<Graph>> LoadOrBuildGraph(
    const std::vector<std::string>& shard_paths, const GraphOptions& options,
    const std::string& cache_path, bool* from_cache,
    std::string* problem = nullptr, bool write = true);

}  // namespace fcrawl::ranker

#endif  // FCRAWL_RANKER_GRAPH_CACHE_H_
