// ClusterNode's Worker service (worker/member/cluster_node.h): the handlers of
// what other members, the ranker and the coordinator send this node: routed
// links and pushed ranks (AcceptLinks), hosts handed over (TakeHosts), graph
// and corpus exports (Export) and figures (GetStats). Separate from
// cluster_node.cc as the node's untrusted input: the bounds on what a peer
// may send in one call and the checks of it are all here; what passes is
// queued for the crawl thread (Deliver), which applies it in
// ClusterNode::Impl::Service. The state is worker/member/cluster_node_impl.h's.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "cluster/ranks.h"
#include "cluster/rpc.h"
#include "core/file.h"
#include "corpus/corpus.h"
#include "focus/strategy.h"
#include "formats/crawl_log.h"
#include "proto/cluster.grpc.pb.h"
#include "storage/link_db.h"
#include "worker/graph_export.h"
#include "worker/member/cluster_node_impl.h"

namespace fcrawl::worker {
namespace {

using proto::LinkRecord;

// Bounds on what peers may send in one call (hostile input; the number of
// links is kMaxLinksPerCall, cluster_node_impl.h).
constexpr int64_t kMaxRecordsPerHandoff = 5000000;
constexpr size_t kMaxUrlBytes = 2048;
constexpr size_t kMaxHostBytes = 300;

absl::Status CheckRecord(const LinkRecord& r, int index) {
  if (r.url().empty() || r.url().size() > kMaxUrlBytes) {
    return absl::InvalidArgumentError(absl::StrCat(
        "record ", index, ": URL empty or over ", kMaxUrlBytes, " bytes"));
  }
  if (storage::HostKey(r.url()).empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("record ", index, ": not an absolute http(s) URL"));
  }
  return absl::OkStatus();
}

}  // namespace

// ------------------------------------------------------------ handlers

grpc::Status ClusterNode::Impl::Deliver(
    const std::string& crawl_id,
    std::vector<std::shared_ptr<InboxItem>> items) {
  {
    absl::MutexLock lock(&mu_);
    const absl::Time deadline = absl::Now() + options_.rpc_timeout / 2;
    auto ready = [&]() ABSL_SHARED_LOCKS_REQUIRED(mu_) {
      return !running_crawl_id_.empty() &&
             (crawl_id.empty() || running_crawl_id_ == crawl_id);
    };
    while (!ready() && !shutting_down_.load() && absl::Now() < deadline) {
      crawl_cv_.WaitWithDeadline(&mu_, deadline);
    }
    if (!ready()) {
      return grpc::Status(
          grpc::StatusCode::UNAVAILABLE,
          absl::StrCat("worker ", options_.name, " is not running crawl '",
                       crawl_id, "' (running: '", running_crawl_id_, "')"));
    }
    for (auto& item : items) inbox_.push_back(item);
  }
  for (auto& item : items) {
    if (!item->done.WaitForNotificationWithTimeout(4 * options_.rpc_timeout)) {
      return grpc::Status(grpc::StatusCode::UNAVAILABLE,
                          "the crawl did not apply the data in time");
    }
    if (!item->status.ok()) return cluster::ToGrpc(item->status);
  }
  return grpc::Status::OK;
}

grpc::Status ClusterNode::Impl::Leaving(absl::string_view what) const {
  // A draining node is out of the view: it owns none of the hosts of the
  // links or hosts it is sent, and once it has said "handed over" it may be
  // told to exit, so whatever it took then could go with it. The sender
  // (whose view is older) keeps them for their owner under the newer view.
  return grpc::Status(
      grpc::StatusCode::UNAVAILABLE,
      absl::StrCat("worker ", options_.name, " is leaving the cluster: send ",
                   what, " to their owner under the newer view"));
}

grpc::Status ClusterNode::Impl::AcceptLinks(
    const proto::AcceptLinksRequest& request,
    proto::AcceptLinksResponse* response) {
  if (request.links_size() > kMaxLinksPerCall) {
    return grpc::Status(
        grpc::StatusCode::INVALID_ARGUMENT,
        absl::StrCat(request.links_size(), " links in one call; at most ",
                     kMaxLinksPerCall));
  }
  if (request.ranks_size() > kMaxLinksPerCall) {
    return grpc::Status(
        grpc::StatusCode::INVALID_ARGUMENT,
        absl::StrCat(request.ranks_size(), " ranks in one call; at most ",
                     kMaxLinksPerCall));
  }
  if (request.links_size() > 0 && drain_.load()) return Leaving("links");
  std::vector<std::shared_ptr<InboxItem>> items;
  if (request.links_size() > 0) {
    auto item = std::make_shared<InboxItem>();
    item->kind = InboxItem::Kind::kLinks;
    item->records.reserve(request.links_size());
    for (int i = 0; i < request.links_size(); ++i) {
      const LinkRecord& r = request.links(i).record();
      if (absl::Status s = CheckRecord(r, i); !s.ok()) {
        return cluster::ToGrpc(s);
      }
      const std::string& context = request.links(i).link_context();
      if (context.size() > focus::Strategy::kMaxLinkContextBytes) {
        return grpc::Status(
            grpc::StatusCode::INVALID_ARGUMENT,
            absl::StrCat("links[", i, "].link_context: ", context.size(),
                         " bytes; at most ",
                         focus::Strategy::kMaxLinkContextBytes));
      }
      item->records.push_back(r);
      item->link_contexts.push_back(context);
    }
    items.push_back(std::move(item));
  }
  std::shared_ptr<InboxItem> ranks;
  if (request.ranks_size() > 0) {
    ranks = std::make_shared<InboxItem>();
    ranks->kind = InboxItem::Kind::kRanks;
    ranks->ranks.reserve(request.ranks_size());
    for (int i = 0; i < request.ranks_size(); ++i) {
      const proto::RankedPage& p = request.ranks(i);
      if (absl::Status s = cluster::CheckRankedPage(p, i); !s.ok()) {
        return cluster::ToGrpc(s);
      }
      ranks->ranks.emplace_back(p.url(), p.rank());
    }
    items.push_back(ranks);
  }
  if (items.empty()) return grpc::Status::OK;
  grpc::Status s = Deliver(request.crawl_id(), std::move(items));
  if (!s.ok()) return s;
  response->set_accepted(request.links_size());
  if (ranks != nullptr) {
    response->set_ranks_applied(ranks->ranks_applied);
    response->set_ranks_requeued(ranks->ranks_requeued);
  }
  return s;
}

grpc::Status ClusterNode::Impl::TakeHosts(
    grpc::ServerReader<proto::HostChunk>* reader,
    proto::TakeHostsResponse* response) {
  if (drain_.load()) return Leaving("hosts");
  std::vector<std::shared_ptr<InboxItem>> items;
  std::shared_ptr<InboxItem> current;
  std::string crawl_id;
  int64_t records = 0;
  proto::HostChunk chunk;
  while (reader->Read(&chunk)) {
    if (chunk.host().empty() || chunk.host().size() > kMaxHostBytes) {
      return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                          "a handoff chunk without a valid host");
    }
    crawl_id = chunk.crawl_id();
    if (current == nullptr || current->host != chunk.host()) {
      if (current != nullptr) {
        return grpc::Status(
            grpc::StatusCode::INVALID_ARGUMENT,
            absl::StrCat("host ", current->host,
                         " ended without host_done before ", chunk.host()));
      }
      current = std::make_shared<InboxItem>();
      current->kind = InboxItem::Kind::kHost;
      current->host = chunk.host();
      if (chunk.has_host_record()) current->host_record = chunk.host_record();
      current->site_state = chunk.site_state();
    }
    records += chunk.records_size();
    if (records > kMaxRecordsPerHandoff) {
      return grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED,
                          absl::StrCat("over ", kMaxRecordsPerHandoff,
                                       " records in one handoff"));
    }
    for (int i = 0; i < chunk.records_size(); ++i) {
      const LinkRecord& r = chunk.records(i);
      if (absl::Status s = CheckRecord(r, i); !s.ok()) {
        return cluster::ToGrpc(s);
      }
      if (storage::HostKey(r.url()) != current->host) {
        return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                            absl::StrCat("record ", i, " (", r.url(),
                                         ") is not of host ", current->host));
      }
      current->records.push_back(r);
    }
    if (chunk.host_done()) {
      items.push_back(std::move(current));
      current = nullptr;
    }
  }
  if (current != nullptr) {
    return grpc::Status(
        grpc::StatusCode::INVALID_ARGUMENT,
        absl::StrCat("the stream ended inside host ", current->host));
  }
  if (items.empty()) return grpc::Status::OK;
  grpc::Status s = Deliver(crawl_id, items);
  if (s.ok()) {
    response->set_hosts(static_cast<int64_t>(items.size()));
    response->set_records(records);
  }
  return s;
}

grpc::Status ClusterNode::Impl::Export(const proto::ExportRequest& request,
                                       proto::ExportResponse* response) {
  // Only inside this worker's export root, whoever asks.
  absl::StatusOr<std::string> out_dir =
      file::ConfinedPath(export_root_, request.out_dir());
  if (!out_dir.ok()) {
    return cluster::ToGrpc(absl::Status(
        out_dir.status().code(),
        absl::StrCat("out_dir: ", out_dir.status().message(),
                     " (this worker exports only inside --export_root ",
                     export_root_, ")")));
  }
  std::string folder;
  {
    absl::MutexLock lock(&mu_);
    folder = data_folder_;
  }
  if (folder.empty()) {
    return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION,
                        "this worker has no crawl to export");
  }
  if (request.corpus()) {
    // The worker's corpus records, the latest per URL, as one file.
    std::error_code ec;
    std::filesystem::create_directories(*out_dir, ec);
    if (ec) {
      return grpc::Status(
          grpc::StatusCode::PERMISSION_DENIED,
          absl::StrCat("cannot create folder ", *out_dir, ": ", ec.message()));
    }
    corpus::CorpusStats stats;
    absl::Status s = corpus::ExportCorpus(
        {folder}, {}, std::nullopt, corpus::ExportOptions(),
        absl::StrCat(*out_dir, "/", formats::CrawlLog::kPagesName), &stats);
    if (!s.ok()) return cluster::ToGrpc(s);
    response->set_pages(stats.written);
    response->add_shards(
        absl::StrCat(*out_dir, "/", formats::CrawlLog::kPagesName));
    return grpc::Status::OK;
  }
  GraphExportOptions o;
  o.worker = options_.name;
  if (request.shard_pages() > 0) o.pages_per_shard = request.shard_pages();
  absl::StatusOr<GraphExportSummary> s =
      ExportGraph(folder + "/db", *out_dir, o);
  if (!s.ok()) return cluster::ToGrpc(s.status());
  response->set_pages(s->pages);
  response->set_links(s->links);
  response->add_shards(absl::StrCat(s->shards, " shards in ", *out_dir));
  return grpc::Status::OK;
}

proto::WorkerStats ClusterNode::Impl::Stats() {
  absl::MutexLock lock(&mu_);
  proto::WorkerStats s = stats_;
  s.set_name(options_.name);
  s.set_cpu_seconds(cluster::ProcessCpuSeconds());
  s.set_links_routed(links_routed_);
  return s;
}

}  // namespace fcrawl::worker
