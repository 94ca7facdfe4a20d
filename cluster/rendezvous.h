// Host → worker partition by rendezvous (highest-random-weight) hashing
// (docs/design.md "The cluster"): every host goes to the member with the
// highest weight(member, host). A member that joins takes only the hosts it now
// wins; one that leaves gives away only its own. The weight is a fixed
// 64-bit hash (FNV-1a, then the splitmix64 finaliser), the same in every
// process, build and machine, so the coordinator and every worker compute
// the same owner from the same view.
//
// Thread-safety: HostPartition is immutable after construction.
#ifndef FCRAWL_CLUSTER_RENDEZVOUS_H_
#define FCRAWL_CLUSTER_RENDEZVOUS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "proto/cluster.pb.h"

namespace fcrawl::cluster {

// The weight of `member` for `host`.
uint64_t RendezvousWeight(absl::string_view member, absl::string_view host);

// A member name (the worker's stable name, hashed above): 1 to 64 of
// [A-Za-z0-9._-]. InvalidArgument naming the problem otherwise.
absl::Status ValidateMemberName(absl::string_view name);

class HostPartition {
 public:
  HostPartition() = default;
  explicit HostPartition(const proto::ClusterView& view);

  uint64_t version() const { return version_; }
  bool empty() const { return names_.empty(); }
  // The owner's name ("" when the view has no member). Ties (64-bit
  // collisions) go to the smaller name.
  const std::string& Owner(absl::string_view host) const;
  // Its address ("" when none).
  const std::string& OwnerAddress(absl::string_view host) const;
  bool Has(absl::string_view member) const;

 private:
  size_t OwnerIndex(absl::string_view host) const;
  uint64_t version_ = 0;
  std::vector<std::string> names_;
  std::vector<std::string> addresses_;
  std::vector<uint64_t> member_hashes_;
};

}  // namespace fcrawl::cluster

#endif  // FCRAWL_CLUSTER_RENDEZVOUS_H_
