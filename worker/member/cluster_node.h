// A worker as a member of a crawl cluster (docs/design.md "The cluster"; the
// messages are proto/cluster.proto).
//
// The node registers with the coordinator under a stable name, heartbeats
// (figures in; view, settled view, crawl state, page tokens, drain out),
// serves the Worker service (TakeHosts, AcceptLinks, Export, GetStats) and
// runs the crawl engine (worker/crawler.h) with itself as its ClusterHooks:
//
// - Ownership: host → member by rendezvous hashing over the view
//   (cluster/rendezvous.h). Links to hosts of other members are batched
//   sent straight to their owner under the latest view this node has
//   (Worker.AcceptLinks; the coordinator is not on the data path), retried
//   until acknowledged. A link whose host changed owner meanwhile is kept
//   by the receiver and handed over with the host, never dropped.
// - Handoff: when the view changes, every host in the database that now
//   belongs to another member stops being fetched; once nothing of it is in
//   flight its link records, host record (robots.txt) and learned URL
//   patterns are streamed to the new owner (TakeHosts), committed there,
//   and then dropped here (its fetched pages stay, for the graph export).
//   The view counts as handed over once no such host is left. A host gained
//   is fetched only once the view is settled (every member handed over), so
//   no URL is fetched by two workers. Links and hosts that arrive are
//   applied by the crawl thread and acknowledged only when committed.
// - Budget: a URL is fetched only with a page token; tokens come in
//   heartbeat answers, a URL that ends without a request gives its token
//   back, and an idle node returns what it holds.
// - A node killed without warning loses only what was in flight and its
//   unsent outbox; started again on the same folder with the same name it
//   registers again and continues from its database.
//
// Data: <data_dir>/<crawl_id>/ is the crawl's output folder (db/, logs,
// WARC) for each crawl the node takes part in.
//
// Thread-safety: Create and Run from one thread; the gRPC handlers and the
// heartbeat and routing threads synchronise on the node's mutex.
#ifndef FCRAWL_WORKER_MEMBER_CLUSTER_NODE_H_
#define FCRAWL_WORKER_MEMBER_CLUSTER_NODE_H_

#include <atomic>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "cluster/rpc.h"
#include "worker/crawler.h"

namespace fcrawl::worker {

struct ClusterNodeOptions {
  // Stable name of this worker (1..64 of [A-Za-z0-9._-]); required.
  std::string name;
  // The coordinator's gRPC address; required.
  std::string coordinator;
  // Where this worker's service listens; port 0 picks a free one.
  std::string listen = "127.0.0.1:0";
  // Folder with one sub-folder per crawl; required.
  std::string data_dir;
  // Graph exports (Export RPC) are written only inside this folder
  // (file::ConfinedPath: no "." or ".." segments, no symbolic link out);
  // "" = the working directory at Create. Must exist.
  std::string export_root;
  cluster::RpcSecurity security;
  // Routed links sent per round (split by owner; at most
  // cluster::kMaxLinksPerAccept in all); the outbox is sent at least this
  // often.
  int route_batch = 2000;
  absl::Duration route_interval = absl::Milliseconds(50);
  // Link records per TakeHosts message.
  int handoff_chunk = 2000;
  // Timeout of calls to the coordinator and to other workers.
  absl::Duration rpc_timeout = absl::Seconds(10);
  // The crawl engine's options (threads, progress line). `cluster` and
  // `stop` are set by the node.
  CrawlerOptions crawler;
};

class ClusterNode {
 public:
  // Checks the options and starts the Worker service. InvalidArgument for
  // a bad name or missing coordinator/data folder; the errors of
  // cluster::RpcServer::Start.
  static absl::StatusOr<std::unique_ptr<ClusterNode>> Create(
      const ClusterNodeOptions& options);
  ~ClusterNode();
  ClusterNode(const ClusterNode&) = delete;
  ClusterNode& operator=(const ClusterNode&) = delete;

  // The Worker service's address ("host:port", the port actually bound).
  const std::string& address() const;

  // Registers and takes part in crawls until the coordinator lets the node
  // go after a drain, or `stop` is set twice (the first time the node asks
  // to leave: it hands its hosts over and then returns). Errors: the crawl
  // engine's (database, output files) and a coordinator that stays
  // unreachable at registration for `give_up` (default: never).
  absl::Status Run(std::atomic<int>* stop,
                   absl::Duration give_up = absl::InfiniteDuration());

 private:
  class Impl;
  explicit ClusterNode(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace fcrawl::worker

#endif  // FCRAWL_WORKER_MEMBER_CLUSTER_NODE_H_
