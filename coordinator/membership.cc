// Coordinator (coordinator/coordinator.h): membership. Who is in the
// cluster: Register, Leave and Scale, the leases that expire, the view they
// change (version + 1, a new host partition), the draining members, and when
// a view settles (every member and draining member handed over under it).
// Apart from coordinator.cc because it is the part of the state machine that
// coordinator.h's Membership and Settled view paragraphs describe; of the
// crawl it only asks, when a member leaves the view, for the seeds to be
// routed again and for done detection to start over. The heartbeat, which
// renews a lease but mostly carries figures and page quota, stays in
// coordinator.cc.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "coordinator/coordinator.h"
#include "coordinator/coordinator_internal.h"

namespace fcrawl::coordinator {

using internal::Invalid;

namespace {

constexpr int kMaxScale = 1000;

}  // namespace

absl::Status ValidateMemberAddress(const std::string& address) {
  if (address.empty() || address.size() > 256) {
    return absl::InvalidArgumentError(absl::StrCat(
        "a member address must have 1 to 256 bytes, not ", address.size()));
  }
  const size_t colon = address.rfind(':');
  if (colon == std::string::npos || colon == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("the member address '", address, "' is not host:port"));
  }
  absl::string_view host(address.data(), colon);
  const absl::string_view port_text(address.data() + colon + 1,
                                    address.size() - colon - 1);
  int port = 0;
  if (port_text.empty() || port_text.size() > 5 ||
      !std::all_of(port_text.begin(), port_text.end(),
                   [](char c) { return c >= '0' && c <= '9'; }) ||
      !absl::SimpleAtoi(port_text, &port) || port < 1 || port > 65535) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the member address '", address, "' needs a port in 1..65535"));
  }
  const bool bracketed = host.front() == '[';
  if (bracketed) {
    if (host.size() < 3 || host.back() != ']') {
      return absl::InvalidArgumentError(absl::StrCat(
          "the member address '", address, "' has a malformed IPv6 host"));
    }
    host = host.substr(1, host.size() - 2);
  }
  for (char c : host) {
    const bool ok = absl::ascii_isalnum(static_cast<unsigned char>(c)) ||
                    c == '.' || c == '-' || c == '_' || (bracketed && c == ':');
    if (!ok) {
      return absl::InvalidArgumentError(absl::StrCat(
          "the member address '", address,
          "' has a host with characters other than letters, digits, '.', "
          "'-' and '_'"));
    }
  }
  return absl::OkStatus();
}

// ------------------------------------------------------------ membership

int Coordinator::FindMemberLocked(const std::string& name) const {
  for (int i = 0; i < state_.view().members_size(); ++i) {
    if (state_.view().members(i).name() == name) return i;
  }
  return -1;
}

int Coordinator::FindDrainingLocked(const std::string& name) const {
  for (int i = 0; i < state_.draining_members_size(); ++i) {
    if (state_.draining_members(i).name() == name) return i;
  }
  return -1;
}

void Coordinator::ViewChangedLocked(bool removed) {
  proto::ClusterView* view = state_.mutable_view();
  view->set_version(view->version() + 1);
  partition_ = std::make_shared<const cluster::HostPartition>(*view);
  if (removed && HasCrawlLocked()) {
    // A member's hosts moved without (or before) a handoff: give its seeds
    // their new owners (idempotent on the workers).
    state_.set_seeds_routed(false);
    ++removals_;
  }
  have_candidate_ = false;
  state_dirty_ = true;
}

void Coordinator::MakeDrainingLocked(int index) {
  auto* members = state_.mutable_view()->mutable_members();
  proto::Member m = members->Get(index);
  members->DeleteSubrange(index, 1);
  state_.add_draining(m.name());
  *state_.add_draining_members() = std::move(m);
}

bool Coordinator::ExpireLeasesLocked(absl::Time now) {
  bool removed = false;
  bool dropped = false;
  auto expired =
      [&](const proto::Member& m) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
        auto it = runtime_.find(m.name());
        return it == runtime_.end() || now > it->second.lease_deadline;
      };
  auto* members = state_.mutable_view()->mutable_members();
  for (int i = members->size() - 1; i >= 0; --i) {
    if (!expired(members->Get(i))) continue;
    std::fprintf(
        stderr,
        "coordinator: %s sent no heartbeat for a lease (%lld ms): "
        "out of the view, its hosts go to the others\n",
        members->Get(i).name().c_str(),
        static_cast<long long>(absl::ToInt64Milliseconds(options_.lease)));
    runtime_.erase(members->Get(i).name());
    checked_heartbeats_.erase(members->Get(i).name());
    members->DeleteSubrange(i, 1);
    removed = true;
  }
  auto* draining = state_.mutable_draining_members();
  for (int i = draining->size() - 1; i >= 0; --i) {
    if (!expired(draining->Get(i))) continue;
    runtime_.erase(draining->Get(i).name());
    checked_heartbeats_.erase(draining->Get(i).name());
    draining->DeleteSubrange(i, 1);
    dropped = true;
  }
  if (!removed && !dropped) return false;
  if (dropped) {
    state_.clear_draining();
    for (const proto::Member& m : state_.draining_members()) {
      state_.add_draining(m.name());
    }
  }
  // The figures of an expired worker stay in stats_: it may come back on
  // the same folder, and its pages were fetched either way.
  if (removed) {
    ViewChangedLocked(/*removed=*/true);
    // Its seeds go to their new owners only two leases from now: a worker
    // started again on its folder within that time hands its hosts over
    // first, with the seeds it fetched, so they are not fetched twice (the
    // chaos benchmark saw a seed fetched again after its holder was killed).
    // One that does not come back has its seeds fetched anew after that.
    reseed_after_ = now + 2 * options_.lease;
  }
  CheckSettledLocked();
  state_dirty_ = true;
  PersistOrLogLocked();
  return true;
}

bool Coordinator::CheckSettledLocked() {
  const uint64_t v = state_.view().version();
  if (state_.settled_version() == v && state_.has_settled_view()) return false;
  auto handed_over =
      [&](const proto::Member& m) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
        auto it = runtime_.find(m.name());
        return it != runtime_.end() && it->second.handed_over_version >= v;
      };
  for (const proto::Member& m : state_.view().members()) {
    if (!handed_over(m)) return false;
  }
  for (const proto::Member& m : state_.draining_members()) {
    if (!handed_over(m)) return false;
  }
  state_.set_settled_version(v);
  *state_.mutable_settled_view() = state_.view();
  state_dirty_ = true;
  return true;
}

grpc::Status Coordinator::Register(grpc::ServerContext*,
                                   const proto::RegisterRequest* request,
                                   proto::RegisterResponse* response) {
  if (absl::Status s = cluster::ValidateMemberName(request->name()); !s.ok()) {
    return cluster::ToGrpc(s);
  }
  if (absl::Status s = ValidateMemberAddress(request->address()); !s.ok()) {
    return cluster::ToGrpc(s);
  }
  absl::MutexLock l(&mu_);
  const absl::Time now = Now();
  ExpireLeasesLocked(now);
  const std::string& name = request->name();
  if (int i = FindMemberLocked(name); i >= 0) {
    runtime_[name].lease_deadline = now + options_.lease;
    proto::Member* m = state_.mutable_view()->mutable_members(i);
    if (m->address() != request->address()) {
      m->set_address(request->address());
      ViewChangedLocked(/*removed=*/false);
    }
  } else if (int j = FindDrainingLocked(name); j >= 0) {
    runtime_[name].lease_deadline = now + options_.lease;
    proto::Member* m = state_.mutable_draining_members(j);
    if (m->address() != request->address()) {
      m->set_address(request->address());
      state_dirty_ = true;
    }
  } else {
    auto* members = state_.mutable_view()->mutable_members();
    proto::Member* m = members->Add();
    m->set_name(name);
    m->set_address(request->address());
    // Keep the members sorted by name (the order is irrelevant to owners,
    // but a stable one reads better in status and tests).
    for (int k = members->size() - 1;
         k > 0 && members->Get(k - 1).name() > members->Get(k).name(); --k) {
      members->SwapElements(k - 1, k);
    }
    Runtime rt;
    rt.lease_deadline = now + options_.lease;
    runtime_[name] = rt;
    ViewChangedLocked(/*removed=*/false);
  }
  CheckSettledLocked();
  if (state_dirty_) PersistOrLogLocked();
  *response->mutable_view() = state_.view();
  response->set_lease_ms(absl::ToInt64Milliseconds(options_.lease));
  if (HasCrawlLocked()) *response->mutable_crawl() = state_.crawl();
  return grpc::Status::OK;
}

grpc::Status Coordinator::Leave(grpc::ServerContext*,
                                const proto::LeaveRequest* request,
                                proto::LeaveResponse*) {
  if (absl::Status s = cluster::ValidateMemberName(request->name()); !s.ok()) {
    return cluster::ToGrpc(s);
  }
  absl::MutexLock l(&mu_);
  ExpireLeasesLocked(Now());
  if (int i = FindMemberLocked(request->name()); i >= 0) {
    MakeDrainingLocked(i);
    ViewChangedLocked(/*removed=*/true);
    CheckSettledLocked();
    PersistOrLogLocked();
    return grpc::Status::OK;
  }
  if (FindDrainingLocked(request->name()) >= 0) return grpc::Status::OK;
  return grpc::Status(grpc::StatusCode::NOT_FOUND,
                      absl::StrCat("'", request->name(), "' is not a member"));
}

grpc::Status Coordinator::Scale(grpc::ServerContext*,
                                const proto::ScaleRequest* request,
                                proto::ScaleResponse* response) {
  if (request->workers() < 0 || request->workers() > kMaxScale) {
    return Invalid(absl::StrCat("workers must be in [0, ", kMaxScale, "], not ",
                                request->workers()));
  }
  absl::MutexLock l(&mu_);
  ExpireLeasesLocked(Now());
  const int members = state_.view().members_size();
  if (request->workers() < members) {
    std::vector<std::string> names;
    for (const proto::Member& m : state_.view().members()) {
      names.push_back(m.name());
    }
    std::sort(names.begin(), names.end());
    for (size_t k = request->workers(); k < names.size(); ++k) {
      MakeDrainingLocked(FindMemberLocked(names[k]));
    }
    ViewChangedLocked(/*removed=*/true);
    CheckSettledLocked();
    PersistOrLogLocked();
  }
  response->set_members(state_.view().members_size());
  for (const std::string& d : state_.draining()) response->add_draining(d);
  response->set_missing(
      std::max(0, request->workers() - state_.view().members_size()));
  return grpc::Status::OK;
}

}  // namespace fcrawl::coordinator
