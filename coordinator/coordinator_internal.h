// What the Coordinator's files (coordinator.cc, membership.cc,
// crawl_lifecycle.cc, routing.cc) share and nothing else needs.
#ifndef FCRAWL_COORDINATOR_COORDINATOR_INTERNAL_H_
#define FCRAWL_COORDINATOR_COORDINATOR_INTERNAL_H_

#include "absl/strings/string_view.h"
#include "grpcpp/support/status.h"

namespace fcrawl::coordinator::internal {

// The coordinator's keys in its store (state_store.h).
inline constexpr char kStateKey[] = "state";
inline constexpr char kCrawlPrefix[] = "crawl/";
inline constexpr char kStatsPrefix[] = "stats/";
// quota_granted alone (decimal), written with every "state" and on its own
// (synced) for a grant, so that a grant does not rewrite the views and the
// draining list (46 KB at 1,000 workers; bench/coordinator_bench). It wins
// over "state"'s copy at load.
inline constexpr char kQuotaKey[] = "quota";

// INVALID_ARGUMENT with `message`: an RPC's request refused.
grpc::Status Invalid(absl::string_view message);

}  // namespace fcrawl::coordinator::internal

#endif  // FCRAWL_COORDINATOR_COORDINATOR_INTERNAL_H_
