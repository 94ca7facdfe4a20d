#include "cluster/rendezvous.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "core/hash.h"

namespace fcrawl::cluster {
namespace {

using ::fcrawl::hash::Fnv1a64;
using ::fcrawl::hash::Mix64;

const std::string& Empty() {
  static const std::string* const kEmpty = new std::string();
  return *kEmpty;
}
}  // namespace

namespace {
uint64_t Combine(uint64_t member_hash, uint64_t host_hash) {
  return Mix64(member_hash ^ Mix64(host_hash));
}
}  // namespace

uint64_t RendezvousWeight(absl::string_view member, absl::string_view host) {
  return Combine(Fnv1a64(member), Fnv1a64(host));
}

absl::Status ValidateMemberName(absl::string_view name) {
  if (name.empty() || name.size() > 64) {
    return absl::InvalidArgumentError(absl::StrCat(
        "a member name must have 1 to 64 characters, not ", name.size()));
  }
  // It names folders and files (exports, logs): it starts with a letter or
  // digit, so "." and ".." and hidden names cannot be one.
  if (!absl::ascii_isalnum(static_cast<unsigned char>(name[0]))) {
    return absl::InvalidArgumentError(
        "a member name must start with a letter or a digit");
  }
  for (char c : name) {
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '.' &&
        c != '_' && c != '-') {
      return absl::InvalidArgumentError(
          "a member name may only have letters, digits, '.', '_' and '-'");
    }
  }
  return absl::OkStatus();
}

HostPartition::HostPartition(const proto::ClusterView& view)
    : version_(view.version()) {
  for (const proto::Member& m : view.members()) {
    names_.push_back(m.name());
    addresses_.push_back(m.address());
    member_hashes_.push_back(Fnv1a64(m.name()));
  }
}

size_t HostPartition::OwnerIndex(absl::string_view host) const {
  const uint64_t hh = Fnv1a64(host);
  size_t best = names_.size();
  uint64_t best_weight = 0;
  for (size_t i = 0; i < names_.size(); ++i) {
    const uint64_t w = Combine(member_hashes_[i], hh);
    if (best == names_.size() || w > best_weight ||
        (w == best_weight && names_[i] < names_[best])) {
      best = i;
      best_weight = w;
    }
  }
  return best;
}

const std::string& HostPartition::Owner(absl::string_view host) const {
  const size_t i = OwnerIndex(host);
  return i < names_.size() ? names_[i] : Empty();
}

const std::string& HostPartition::OwnerAddress(absl::string_view host) const {
  const size_t i = OwnerIndex(host);
  return i < addresses_.size() ? addresses_[i] : Empty();
}

bool HostPartition::Has(absl::string_view member) const {
  for (const std::string& n : names_) {
    if (n == member) return true;
  }
  return false;
}

}  // namespace fcrawl::cluster
