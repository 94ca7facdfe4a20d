// The fetch outcome classes a worker reports (proto::FetchOutcomeCounts,
// counted by worker/fetch_outcomes.h) as the coordinator's /metrics and
// crawlctl's summary list them, and the folders whose fetches failed most
// (WorkerStats.dead_folders) as the coordinator checks and merges them.
#ifndef FCRAWL_CLUSTER_OUTCOMES_H_
#define FCRAWL_CLUSTER_OUTCOMES_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "proto/cluster.pb.h"

namespace fcrawl::cluster {

// Every class of `counts` with its count: each field but on_topic_hosts (a
// count of hosts, not of URLs), in the message's order, named as there
// ("not_found"). Read by reflection, so a class added to the message is
// listed without a change to the readers.
std::vector<std::pair<std::string, int64_t>> OutcomeClasses(
    const proto::FetchOutcomeCounts& counts);

// A worker reports at most this many dead folders (WorkerStats.dead_folders)
// and the coordinator's status lists at most as many over all workers.
inline constexpr int kMaxDeadFolders = 20;
// Bytes of a folder's name (a host and a path of a URL, url::kMaxUrlLength).
inline constexpr size_t kMaxFolderBytes = 2048;

// Whether a worker's dead folders (untrusted: the heartbeat's) can be shown:
// at most kMaxDeadFolders, a name of 1 to kMaxFolderBytes bytes, counts
// >= 0 with pages <= fetches, P(page) in [0, 1]. InvalidArgument naming
// the field and the entry otherwise.
absl::Status ValidateDeadFolders(
    const google::protobuf::RepeatedPtrField<proto::FolderOutcome>& folders);

// The worst kMaxDeadFolders of `folders` (one worker's, or several
// workers' with `worker` set), most failed fetches first, then the lower
// P(page), the folder and the worker.
std::vector<proto::FolderOutcome> MergeDeadFolders(
    std::vector<proto::FolderOutcome> folders);

}  // namespace fcrawl::cluster

#endif  // FCRAWL_CLUSTER_OUTCOMES_H_
