// Coordinator (coordinator/coordinator.h): link delivery. Routing the
// links, ranks and graph exports the workers send to the workers that own
// their hosts needs the view (the host partition) and nothing else of the
// coordinator's state, so it lives apart from the state machine
// (coordinator.cc, membership.cc, crawl_lifecycle.cc); each delivery is
// counted (BeginRouteLocked/EndRoute) so that a crawl is not declared done
// while links are on their way.
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "cluster/ranks.h"
#include "coordinator/coordinator.h"
#include "coordinator/coordinator_internal.h"
#include "core/url.h"
#include "formats/crawl_config.h"

namespace fcrawl::coordinator {

using internal::Invalid;

namespace {

// The seeds of a crawl as the worker sees them: config.seeds plus the
// interest strategy's scope start pages, normalised, without repeats.
std::vector<std::string> SeedUrls(const proto::CrawlConfig& config) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (const std::string& s : formats::SeedUrlsOf(config)) {
    absl::StatusOr<url::Url> u = url::Parse(s);
    if (!u.ok()) continue;  // validated already
    std::string spec(u->spec());
    if (seen.insert(spec).second) out.push_back(std::move(spec));
  }
  return out;
}

}  // namespace

// ---------------------------------------------------------------- routing

absl::StatusOr<std::shared_ptr<const cluster::HostPartition>>
Coordinator::BeginRouteLocked() {
  if (partition_ == nullptr || partition_->empty()) {
    return absl::UnavailableError(
        "no workers in the cluster: start one (or wait for one to register)");
  }
  ++routes_in_progress_;
  return partition_;
}

void Coordinator::EndRoute(int64_t delivered, bool count) {
  absl::MutexLock l(&mu_);
  --routes_in_progress_;
  if (count && delivered > 0) {
    state_.set_links_routed(state_.links_routed() + delivered);
    counters_dirty_ = true;
  }
}

std::vector<Coordinator::OwnerBatch> Coordinator::Group(
    const cluster::HostPartition& partition, const std::string& crawl_id,
    const std::vector<std::string>& hosts,
    const std::function<void(size_t, proto::AcceptLinksRequest*)>& add) {
  std::vector<OwnerBatch> batches;
  // Each owner's open batch; a full one (cluster::kMaxLinksPerAccept, the
  // most a worker takes in one call) is followed by a new one.
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < hosts.size(); ++i) {
    const std::string& owner = partition.Owner(hosts[i]);
    auto [it, added] = index.emplace(owner, batches.size());
    if (!added) {
      const proto::AcceptLinksRequest& open = batches[it->second].request;
      if (open.links_size() + open.ranks_size() >=
          cluster::kMaxLinksPerAccept) {
        it->second = batches.size();
        added = true;
      }
    }
    if (added) {
      OwnerBatch b;
      b.name = owner;
      b.address = partition.OwnerAddress(hosts[i]);
      b.request.set_view_version(partition.version());
      b.request.set_crawl_id(crawl_id);
      batches.push_back(std::move(b));
    }
    add(i, &batches[it->second].request);
  }
  return batches;
}

std::pair<int64_t, absl::Status> Coordinator::Deliver(
    std::vector<OwnerBatch>& batches,
    std::vector<proto::AcceptLinksResponse>* responses) {
  if (batches.empty()) return {0, absl::OkStatus()};
  std::vector<std::shared_ptr<proto::Worker::Stub>> stubs;
  std::vector<const proto::AcceptLinksRequest*> requests;
  for (const OwnerBatch& b : batches) {
    stubs.push_back(worker_stubs_.For(b.address));
    requests.push_back(&b.request);
  }
  std::vector<proto::AcceptLinksResponse> answers;
  const std::vector<grpc::Status> statuses = cluster::AcceptLinksAll(
      options_.security, options_.route_timeout, stubs, requests, &answers);
  int64_t delivered = 0;
  absl::Status first;
  for (size_t i = 0; i < batches.size(); ++i) {
    const proto::AcceptLinksRequest& r = batches[i].request;
    if (statuses[i].ok()) {
      delivered += r.links_size() + r.ranks_size();
    } else if (first.ok()) {
      first = absl::UnavailableError(absl::StrCat(
          "worker ", batches[i].name, " (", batches[i].address,
          ") did not take its ",
          r.ranks_size() > 0 ? absl::StrCat(r.ranks_size(), " ranks")
                             : absl::StrCat(r.links_size(), " links"),
          ": ", statuses[i].error_message(), " (code ",
          static_cast<int>(statuses[i].error_code()), ")"));
    }
  }
  if (responses != nullptr) *responses = std::move(answers);
  return {delivered, first};
}

grpc::Status Coordinator::RouteLinks(grpc::ServerContext*,
                                     const proto::RouteLinksRequest* request,
                                     proto::RouteLinksResponse* response) {
  if (request->from().size() > 64) return Invalid("from is over 64 bytes");
  if (request->links_size() > options_.max_links_per_route) {
    return Invalid(absl::StrCat(request->links_size(),
                                " links in one call; at most ",
                                options_.max_links_per_route));
  }
  const int n = request->links_size();
  std::vector<std::string> hosts(n);
  std::vector<const proto::RoutedLink*> links(n);
  for (int i = 0; i < n; ++i) {
    const proto::LinkRecord& r = request->links(i).record();
    if (r.url().size() > kMaxRoutedUrlBytes) {
      return Invalid(absl::StrCat("links[", i, "]: the URL has ",
                                  r.url().size(), " bytes; at most ",
                                  kMaxRoutedUrlBytes));
    }
    hosts[i] = url::HostKey(r.url());
    if (hosts[i].empty()) {
      absl::StatusOr<url::Url> u = url::Parse(r.url());
      return Invalid(absl::StrCat(
          "links[", i, "]: not an absolute http(s) URL with a host",
          u.ok() ? "" : absl::StrCat(": ", u.status().message())));
    }
    if (r.status() != proto::LinkRecord::QUEUED) {
      return Invalid(absl::StrCat("links[", i, "]: status ",
                                  proto::LinkRecord::Status_Name(r.status()),
                                  "; a routed link must be QUEUED"));
    }
    if (r.depth() < 0) {
      return Invalid(absl::StrCat("links[", i, "]: negative depth"));
    }
    links[i] = &request->links(i);
  }
  if (n == 0) return grpc::Status::OK;
  std::shared_ptr<const cluster::HostPartition> partition;
  std::string crawl_id;
  {
    absl::MutexLock l(&mu_);
    absl::StatusOr<std::shared_ptr<const cluster::HostPartition>> p =
        BeginRouteLocked();
    if (!p.ok()) return cluster::ToGrpc(p.status());
    partition = *std::move(p);
    crawl_id = state_.crawl().crawl_id();
  }
  std::vector<OwnerBatch> batches = Group(
      *partition, crawl_id, hosts, [&](size_t i, proto::AcceptLinksRequest* r) {
        *r->add_links() = *links[i];
      });
  auto [delivered, status] = Deliver(batches);
  EndRoute(delivered, /*count=*/true);
  if (!status.ok()) return cluster::ToGrpc(status);
  response->set_delivered(delivered);
  return grpc::Status::OK;
}

grpc::Status Coordinator::PushRanks(grpc::ServerContext*,
                                    const proto::PushRanksRequest* request,
                                    proto::PushRanksResponse* response) {
  if (request->ranks_size() > options_.max_ranks_per_push) {
    return Invalid(absl::StrCat(request->ranks_size(),
                                " ranks in one call; at most ",
                                options_.max_ranks_per_push));
  }
  if (request->crawl_id().size() > 64) {
    return Invalid("crawl_id is over 64 bytes");
  }
  const int n = request->ranks_size();
  std::vector<std::string> hosts(n);
  for (int i = 0; i < n; ++i) {
    if (absl::Status s = cluster::CheckRankedPage(request->ranks(i), i);
        !s.ok()) {
      return cluster::ToGrpc(s);
    }
    hosts[i] = url::HostKey(request->ranks(i).url());
    if (hosts[i].empty()) {
      return Invalid(absl::StrCat("ranks[", i, "]: not a URL with a host"));
    }
  }
  std::shared_ptr<const cluster::HostPartition> partition;
  std::string crawl_id;
  {
    absl::MutexLock l(&mu_);
    if (!HasCrawlLocked()) {
      return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION,
                          "no crawl to push ranks to");
    }
    crawl_id = state_.crawl().crawl_id();
    if (!request->crawl_id().empty() && request->crawl_id() != crawl_id) {
      return grpc::Status(
          grpc::StatusCode::FAILED_PRECONDITION,
          absl::StrCat("the ranks are of crawl '", request->crawl_id(),
                       "'; the cluster runs crawl '", crawl_id, "'"));
    }
    if (state_.state() != proto::RUNNING && state_.state() != proto::PAUSED) {
      return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION,
                          absl::StrCat("crawl ", crawl_id, " is ",
                                       proto::CrawlState_Name(state_.state()),
                                       ": ranks only help a crawl that runs"));
    }
    if (n == 0) return grpc::Status::OK;
    absl::StatusOr<std::shared_ptr<const cluster::HostPartition>> p =
        BeginRouteLocked();
    if (!p.ok()) return cluster::ToGrpc(p.status());
    partition = *std::move(p);
  }
  std::vector<OwnerBatch> batches = Group(
      *partition, crawl_id, hosts, [&](size_t i, proto::AcceptLinksRequest* r) {
        *r->add_ranks() = request->ranks(static_cast<int>(i));
      });
  std::vector<proto::AcceptLinksResponse> answers;
  auto [delivered, status] = Deliver(batches, &answers);
  EndRoute(delivered, /*count=*/false);
  if (!status.ok()) return cluster::ToGrpc(status);
  response->set_delivered(delivered);
  for (const proto::AcceptLinksResponse& a : answers) {
    response->set_applied(response->applied() + a.ranks_applied());
    response->set_requeued(response->requeued() + a.ranks_requeued());
  }
  return grpc::Status::OK;
}

grpc::Status Coordinator::ExportGraph(grpc::ServerContext*,
                                      const proto::ExportGraphRequest* request,
                                      proto::ExportGraphResponse* response) {
  const std::string& dir = request->out_dir();
  if (dir.empty() || dir.size() > 4000 || dir[0] != '/' ||
      dir.find('\0') != std::string::npos) {
    return Invalid(
        "out_dir must be an absolute folder path (at most 4000 bytes)");
  }
  for (absl::string_view segment : absl::StrSplit(dir, '/')) {
    if (segment == "." || segment == "..") {
      return Invalid("out_dir must not have '.' or '..' segments");
    }
  }
  if (request->shard_pages() < 0) return Invalid("shard_pages is negative");
  std::vector<std::pair<std::string, std::string>> members;  // name, address
  {
    absl::MutexLock l(&mu_);
    for (const proto::Member& m : state_.view().members()) {
      members.emplace_back(m.name(), m.address());
    }
  }
  if (members.empty()) {
    return grpc::Status(grpc::StatusCode::UNAVAILABLE,
                        "no workers in the cluster to export");
  }
  std::vector<std::shared_ptr<proto::Worker::Stub>> stubs;
  std::vector<proto::ExportRequest> requests(members.size());
  for (size_t i = 0; i < members.size(); ++i) {
    stubs.push_back(worker_stubs_.For(members[i].second));
    requests[i].set_out_dir(absl::StrCat(dir, "/", members[i].first));
    requests[i].set_shard_pages(request->shard_pages());
    requests[i].set_corpus(request->corpus());
  }
  std::vector<proto::ExportResponse> answers;
  const std::vector<grpc::Status> statuses = cluster::CallAll(
      options_.security, options_.export_timeout, members.size(), &answers,
      [&](size_t i, grpc::ClientContext* context,
          proto::ExportResponse* response,
          std::function<void(grpc::Status)> done) {
        stubs[i]->async()->Export(context, &requests[i], response,
                                  std::move(done));
      });
  int ok = 0;
  for (size_t i = 0; i < members.size(); ++i) {
    proto::WorkerExport* w = response->add_workers();
    w->set_name(members[i].first);
    w->set_out_dir(requests[i].out_dir());
    if (statuses[i].ok()) {
      ++ok;
      w->set_pages(answers[i].pages());
      w->set_links(answers[i].links());
    } else {
      w->set_error(absl::StrCat(statuses[i].error_message(), " (code ",
                                static_cast<int>(statuses[i].error_code()),
                                ")"));
    }
  }
  if (ok == 0) {
    return grpc::Status(grpc::StatusCode::UNAVAILABLE,
                        absl::StrCat("no worker exported; first error: ",
                                     response->workers(0).error()));
  }
  return grpc::Status::OK;
}

void Coordinator::RouteSeedsIfDue() {
  std::vector<proto::RoutedLink> seeds;
  std::vector<std::string> hosts;
  std::shared_ptr<const cluster::HostPartition> partition;
  uint64_t removals = 0;
  std::string crawl_id;
  {
    absl::MutexLock l(&mu_);
    if (state_.state() != proto::RUNNING || state_.seeds_routed() || seeding_ ||
        state_.view().members_size() == 0 || Now() < reseed_after_) {
      return;
    }
    const int64_t now_ms = absl::ToUnixMillis(Now());
    for (std::string& u : SeedUrls(state_.crawl().config())) {
      std::string host = url::HostKey(u);
      if (host.empty()) continue;
      proto::RoutedLink link;
      proto::LinkRecord* r = link.mutable_record();
      r->set_url(std::move(u));
      r->set_status(proto::LinkRecord::QUEUED);
      r->set_depth(0);
      r->set_discovered_at_ms(now_ms);
      seeds.push_back(std::move(link));
      hosts.push_back(std::move(host));
    }
    absl::StatusOr<std::shared_ptr<const cluster::HostPartition>> p =
        BeginRouteLocked();
    if (!p.ok()) return;
    partition = *std::move(p);
    seeding_ = true;
    removals = removals_;
    crawl_id = state_.crawl().crawl_id();
  }
  std::vector<const proto::RoutedLink*> links;
  for (const proto::RoutedLink& s : seeds) links.push_back(&s);
  std::vector<OwnerBatch> batches = Group(
      *partition, crawl_id, hosts, [&](size_t i, proto::AcceptLinksRequest* r) {
        *r->add_links() = *links[i];
      });
  auto [delivered, status] = Deliver(batches);
  EndRoute(delivered, /*count=*/false);
  absl::MutexLock l(&mu_);
  seeding_ = false;
  if (!status.ok()) {
    // Retried at the next tick; a dead owner leaves the view when its
    // lease expires and the seeds get a new one.
    return;
  }
  if (removals == removals_ && crawl_id == state_.crawl().crawl_id() &&
      !state_.seeds_routed()) {
    state_.set_seeds_routed(true);
    state_dirty_ = true;
    PersistOrLogLocked();
  }
}

}  // namespace fcrawl::coordinator
