// What a ClusterNode (worker/member/cluster_node.h) sends other members: links
// routed to the owners of their hosts (the crawl hooks that buffer and
// persist them, the outbox's send thread) and hosts handed over when the view
// changes (chosen by the crawl thread, streamed by the handoff thread).
// Separate from cluster_node.cc as the outbound half of the data path between
// workers; the inbound half, the Worker service that receives both, is
// cluster_service.cc. The state is worker/member/cluster_node_impl.h's; the
// crawl side of a hand-over is worker/hand_over.h's.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "cluster/rendezvous.h"
#include "cluster/rpc.h"
#include "focus/strategy.h"
#include "proto/cluster.grpc.pb.h"
#include "storage/link_db.h"
#include "worker/crawler.h"
#include "worker/member/cluster_node_impl.h"

namespace fcrawl::worker {
namespace {

using proto::LinkRecord;

// Outbox links remembered to skip routing the same URL again.
constexpr size_t kMaxRoutedMemory = 1 << 20;

}  // namespace

// ------------------------------------------------------------- routing

void ClusterNode::Impl::Route(LinkRecord record, std::string link_context) {
  // The same URL again, without a better score: the owner has it already.
  const uint64_t h = hash_(record.url());
  auto [it, inserted] = routed_.try_emplace(h, record.link_score());
  if (!inserted) {
    if (record.link_score() <= it->second) return;
    it->second = record.link_score();
  }
  if (routed_.size() > kMaxRoutedMemory) routed_.clear();
  proto::RoutedLink routed;
  *routed.mutable_record() = std::move(record);
  if (link_context.size() <= focus::Strategy::kMaxLinkContextBytes) {
    routed.set_link_context(std::move(link_context));
  }
  const uint64_t seq = ++last_route_seq_;
  to_persist_.emplace_back(seq, routed.SerializeAsString());
  route_buffer_.push_back({seq, std::move(routed)});
}

std::vector<std::pair<uint64_t, std::string>>
ClusterNode::Impl::RoutesToPersist() {
  return std::exchange(to_persist_, {});
}

std::vector<uint64_t> ClusterNode::Impl::TakeDelivered() {
  absl::MutexLock lock(&mu_);
  return std::exchange(delivered_, {});
}

void ClusterNode::Impl::RestoreRoutes(
    std::vector<std::pair<uint64_t, std::string>> stored) {
  std::vector<uint64_t> unreadable;
  for (auto& [seq, bytes] : stored) {
    last_route_seq_ = std::max(last_route_seq_, seq);
    proto::RoutedLink link;
    if (!link.ParseFromString(bytes) || !link.has_record()) {
      unreadable.push_back(seq);  // erased like a delivered one
      continue;
    }
    route_buffer_.push_back({seq, std::move(link)});
  }
  if (!unreadable.empty()) {
    absl::MutexLock lock(&mu_);
    delivered_.insert(delivered_.end(), unreadable.begin(), unreadable.end());
  }
}

void ClusterNode::Impl::SendLoop() {
  // Routed links go straight to their owners under the latest view this
  // node has (not through the coordinator, which keeps membership, views,
  // budget and control only). An owner that has lost the host by the time
  // the links arrive stores them and hands them over with the host, like
  // any link for a host it does not own; a link leaves the outbox only
  // when its owner has applied it (AcceptLinks answers after the crawl
  // thread stored it).
  cluster::StubCache<proto::Worker> stubs(options_.security);
  std::shared_ptr<const cluster::HostPartition> view;
  absl::Duration backoff = absl::Milliseconds(100);
  struct Call {
    std::string owner, address;
    proto::AcceptLinksRequest request;
    std::vector<uint64_t> seqs;
  };
  while (!shutting_down_.load()) {
    std::vector<Call> calls;
    {
      absl::MutexLock lock(&mu_);
      while (!shutting_down_.load() && outbox_.empty()) {
        send_cv_.WaitWithTimeout(&mu_, options_.route_interval);
      }
      if (shutting_down_.load()) return;
      if (view == nullptr || view->version() != view_.version()) {
        view = std::make_shared<const cluster::HostPartition>(view_);
      }
      if (view->empty()) {
        send_cv_.WaitWithTimeout(&mu_, backoff);
        backoff = std::min(backoff * 2, absl::Seconds(2));
        continue;
      }
      // At most kMaxLinksPerCall in all, so no owner's call is refused for
      // its size.
      const size_t n = std::min<size_t>(
          {outbox_.size(), static_cast<size_t>(options_.route_batch),
           static_cast<size_t>(kMaxLinksPerCall)});
      std::map<std::string, size_t> index;  // owner → calls[i]
      for (size_t i = 0; i < n; ++i) {
        Routed r = std::move(outbox_.front());
        outbox_.pop_front();
        const std::string host = storage::HostKey(r.link.record().url());
        const std::string& owner = view->Owner(host);
        auto [it, added] = index.emplace(owner, calls.size());
        if (added) {
          Call c;
          c.owner = owner;
          c.address = view->OwnerAddress(host);
          c.request.set_view_version(view->version());
          c.request.set_crawl_id(running_crawl_id_);
          calls.push_back(std::move(c));
        }
        Call& c = calls[it->second];
        *c.request.add_links() = std::move(r.link);
        c.seqs.push_back(r.seq);
      }
      sending_ = static_cast<int64_t>(n);
    }
    // Calls to other workers in parallel; links this node owns under the
    // latest view (its acting view was older when it routed them) are
    // applied here.
    std::vector<size_t> remote;
    std::vector<grpc::Status> statuses(calls.size());
    for (size_t i = 0; i < calls.size(); ++i) {
      if (calls[i].owner == options_.name) {
        proto::AcceptLinksResponse ignored;
        statuses[i] = AcceptLinks(calls[i].request, &ignored);
      } else {
        remote.push_back(i);
      }
    }
    std::vector<std::shared_ptr<proto::Worker::Stub>> remote_stubs;
    std::vector<const proto::AcceptLinksRequest*> requests;
    for (size_t i : remote) {
      remote_stubs.push_back(stubs.For(calls[i].address));
      requests.push_back(&calls[i].request);
    }
    const std::vector<grpc::Status> remote_statuses = cluster::AcceptLinksAll(
        options_.security, options_.rpc_timeout, remote_stubs, requests);
    for (size_t k = 0; k < remote.size(); ++k) {
      statuses[remote[k]] = remote_statuses[k];
    }
    absl::MutexLock lock(&mu_);
    sending_ = 0;
    bool failed = false;
    // Undelivered links go back in front (redelivery is idempotent), in
    // their order, and wait for the owner or a new view.
    for (size_t i = calls.size(); i-- > 0;) {
      Call& c = calls[i];
      if (statuses[i].ok()) {
        links_routed_ += c.request.links_size();
        delivered_.insert(delivered_.end(), c.seqs.begin(), c.seqs.end());
        continue;
      }
      failed = true;
      for (int j = c.request.links_size() - 1; j >= 0; --j) {
        outbox_.push_front({c.seqs[j], std::move(*c.request.mutable_links(j))});
      }
    }
    if (!failed) {
      backoff = absl::Milliseconds(100);
      continue;
    }
    send_cv_.WaitWithTimeout(&mu_, backoff);
    backoff = std::min(backoff * 2, absl::Seconds(2));
  }
}

// ------------------------------------------------------------- handoff

void ClusterNode::Impl::HandoffLoop() {
  while (!shutting_down_.load()) {
    std::shared_ptr<HandoffJob> job;
    {
      absl::MutexLock lock(&mu_);
      while (!shutting_down_.load() && handoff_jobs_.empty()) {
        handoff_cv_.WaitWithTimeout(&mu_, absl::Milliseconds(200));
      }
      if (shutting_down_.load()) return;
      job = handoff_jobs_.front();
    }
    std::string crawl_id;
    {
      absl::MutexLock lock(&mu_);
      crawl_id = running_crawl_id_;
    }
    auto stub = proto::Worker::NewStub(
        cluster::MakeChannel(job->address, options_.security));
    grpc::ClientContext ctx;
    cluster::PrepareContext(options_.security, 6 * options_.rpc_timeout, &ctx);
    proto::TakeHostsResponse resp;
    std::unique_ptr<grpc::ClientWriter<proto::HostChunk>> writer =
        stub->TakeHosts(&ctx, &resp);
    bool ok = true;
    for (const HostPayload& h : job->hosts) {
      size_t next = 0;
      bool first = true;
      do {
        proto::HostChunk chunk;
        chunk.set_from(options_.name);
        chunk.set_view_version(job->view_version);
        chunk.set_crawl_id(crawl_id);
        chunk.set_host(h.host);
        if (first) {
          if (h.host_record.has_value()) {
            *chunk.mutable_host_record() = *h.host_record;
          }
          chunk.set_site_state(h.site_state);
        }
        const size_t end =
            std::min(h.records.size(),
                     next + static_cast<size_t>(options_.handoff_chunk));
        for (; next < end; ++next) *chunk.add_records() = h.records[next];
        chunk.set_host_done(next == h.records.size());
        first = false;
        if (!writer->Write(chunk)) {
          ok = false;
          break;
        }
      } while (ok && next < h.records.size());
      if (!ok) break;
    }
    if (ok) writer->WritesDone();
    grpc::Status s = writer->Finish();
    job->result =
        cluster::FromGrpc(s, absl::StrCat("handing hosts over to ", job->owner,
                                          " at ", job->address));
    absl::MutexLock lock(&mu_);
    handoff_jobs_.pop_front();
    handoff_done_.push_back(job);
  }
}

absl::Status ClusterNode::Impl::StartHandoffs(ClusterContext& context) {
  if (to_hand_over_.empty() || absl::Now() < next_handoff_try_) {
    return absl::OkStatus();
  }
  std::map<std::string, std::shared_ptr<HandoffJob>> by_owner;
  std::vector<std::string> started;
  for (const std::string& host : to_hand_over_) {
    if (in_handoff_.contains(host)) continue;
    if (acting_ == nullptr || acting_->empty()) break;
    const std::string& owner = acting_->Owner(host);
    if (owner == options_.name) {
      started.push_back(host);  // it came back: nothing to hand over
      continue;
    }
    if (context.HostBusy(host)) continue;
    HostPayload p;
    p.host = host;
    if (absl::Status s =
            context.ReadHost(host, &p.records, &p.host_record, &p.site_state);
        !s.ok()) {
      return s;
    }
    std::shared_ptr<HandoffJob>& job = by_owner[owner];
    if (job == nullptr) {
      job = std::make_shared<HandoffJob>();
      job->owner = owner;
      job->address = acting_->OwnerAddress(host);
      job->view_version = acting_->version();
    }
    job->hosts.push_back(std::move(p));
    in_handoff_[host] = false;
    started.push_back(host);
  }
  for (const std::string& h : started) to_hand_over_.erase(h);
  if (by_owner.empty()) return absl::OkStatus();
  absl::MutexLock lock(&mu_);
  for (auto& [owner, job] : by_owner) handoff_jobs_.push_back(job);
  handoff_cv_.SignalAll();
  return absl::OkStatus();
}

absl::Status ClusterNode::Impl::FinishHandoffs(ClusterContext& context) {
  std::deque<std::shared_ptr<HandoffJob>> done;
  {
    absl::MutexLock lock(&mu_);
    done.swap(handoff_done_);
  }
  for (const std::shared_ptr<HandoffJob>& job : done) {
    for (const HostPayload& h : job->hosts) {
      const bool dirty = in_handoff_[h.host];
      in_handoff_.erase(h.host);
      if (!job->result.ok() || dirty) {
        // Failed, or links for it arrived meanwhile: send it again.
        to_hand_over_.insert(h.host);
        continue;
      }
      if (absl::Status s = context.DropHost(h.host); !s.ok()) return s;
      ++hosts_handed_over_;
    }
    if (!job->result.ok()) {
      std::fprintf(stderr, "worker %s: %s (retrying)\n", options_.name.c_str(),
                   std::string(job->result.message()).c_str());
      next_handoff_try_ = absl::Now() + absl::Milliseconds(500);
    }
  }
  return absl::OkStatus();
}

}  // namespace fcrawl::worker
