// What coordinator.cc and routing.cc share and nothing else needs.
#ifndef FCRAWL_COORDINATOR_COORDINATOR_INTERNAL_H_
#define FCRAWL_COORDINATOR_COORDINATOR_INTERNAL_H_

#include "absl/strings/string_view.h"
#include "grpcpp/support/status.h"

namespace fcrawl::coordinator::internal {

// INVALID_ARGUMENT with `message`: an RPC's request refused.
grpc::Status Invalid(absl::string_view message);

}  // namespace fcrawl::coordinator::internal

#endif  // FCRAWL_COORDINATOR_COORDINATOR_INTERNAL_H_
