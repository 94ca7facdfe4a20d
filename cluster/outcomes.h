// The fetch outcome classes a worker reports (proto::FetchOutcomeCounts,
// counted by worker/fetch_outcomes.h) as the coordinator's /metrics and
// crawlctl's summary list them.
#ifndef FCRAWL_CLUSTER_OUTCOMES_H_
#define FCRAWL_CLUSTER_OUTCOMES_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "proto/cluster.pb.h"

namespace fcrawl::cluster {

// Every class of `counts` with its count: each field but on_topic_hosts (a
// count of hosts, not of URLs), in the message's order, named as there
// ("not_found"). Read by reflection, so a class added to the message is
// listed without a change to the readers.
std::vector<std::pair<std::string, int64_t>> OutcomeClasses(
    const proto::FetchOutcomeCounts& counts);

}  // namespace fcrawl::cluster

#endif  // FCRAWL_CLUSTER_OUTCOMES_H_
