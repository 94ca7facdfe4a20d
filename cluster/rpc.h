// gRPC plumbing shared by the coordinator, the workers and crawlctl
// (docs/design.md "Inputs are hostile": network-facing services bind to
// loopback unless told otherwise).
//
// Security: the cluster may be given a shared token; every call must then
// carry it as "authorization: Bearer <token>" and calls without it (also
// health checks and reflection) are refused with UNAUTHENTICATED by an
// AuthMetadataProcessor. gRPC runs such a processor only on secure
// transports, so a token comes with TLS (tls_cert_file/tls_key_file) or, on
// a loopback address, with gRPC's local credentials (LOCAL_TCP: the peer
// must be on this machine; no encryption is needed there). A token on a
// non-loopback address without TLS is refused: it would travel in clear.
// Without a token the server is plain (insecure) gRPC, which a server
// accepts only on a loopback address unless `insecure` says so: anyone who
// can reach a non-loopback port could otherwise steer the crawl.
//
// Every server also serves grpc.health.v1.Health and server reflection, so
// grpcurl, grpc_health_probe and Python clients can talk to it.
#ifndef FCRAWL_CLUSTER_RPC_H_
#define FCRAWL_CLUSTER_RPC_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/blocking_counter.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "grpcpp/grpcpp.h"
#include "proto/cluster.grpc.pb.h"

namespace fcrawl::cluster {

// Largest message a server accepts or a client receives (a handoff chunk or
// a batch of routed links stays far below).
inline constexpr int kMaxMessageBytes = 32 << 20;
// Links or ranks in one Worker.AcceptLinks call: a worker refuses more, and
// the coordinator splits what it routes (seeds, links, ranks) into calls of
// at most this many, so sender and receiver agree by construction. At
// about 200 bytes a link, far below kMaxMessageBytes.
inline constexpr int kMaxLinksPerAccept = 10000;

struct RpcSecurity {
  std::string token;          // "" = no token
  std::string tls_cert_file;  // PEM; a server's certificate chain
  std::string tls_key_file;   // PEM; its private key
  std::string tls_ca_file;    // PEM; roots a client verifies servers with
  // Serve on a non-loopback address without a token and TLS (the
  // `--insecure` flag: an operator's explicit choice, e.g. a private
  // network). Servers only.
  bool insecure = false;
};

// The security settings from command-line values: `token` or the first line
// of `token_file` (not both; a token is 16..256 printable ASCII characters
// without spaces; a token file without one is an error, not "no token"),
// TLS files that must be readable. InvalidArgument / NotFound name the
// problem.
absl::StatusOr<RpcSecurity> MakeSecurity(const std::string& token,
                                         const std::string& token_file,
                                         const std::string& tls_cert_file,
                                         const std::string& tls_key_file,
                                         const std::string& tls_ca_file);

// "127.0.0.1:7000", "[::1]:7000", "localhost:7000" (any 127/8 address).
bool IsLoopbackAddress(absl::string_view host_port);

class RpcServer {
 public:
  // Starts a server on `address` ("host:port"; port 0 picks a free one)
  // with `services` (not owned; they must outlive the server) plus health
  // checking (every service SERVING) and reflection. InvalidArgument for a
  // token without TLS on a non-loopback address, and for a non-loopback
  // address without both a token and TLS unless security.insecure;
  // Unavailable when the address cannot be bound.
  static absl::StatusOr<std::unique_ptr<RpcServer>> Start(
      const std::string& address, const RpcSecurity& security,
      const std::vector<grpc::Service*>& services);
  ~RpcServer();

  int port() const { return port_; }
  // "host:port" with the port actually bound.
  const std::string& address() const { return address_; }
  // Stops accepting calls and waits up to `deadline` for running ones.
  void Shutdown(absl::Duration deadline = absl::Seconds(2));

 private:
  RpcServer() = default;
  std::unique_ptr<grpc::Server> server_;
  int port_ = 0;
  std::string address_;
  bool shut_down_ = false;
};

// A channel to `address` with the transport the server uses for the same
// settings (TLS with tls_ca_file; local credentials for a token on a
// loopback address; else insecure).
std::shared_ptr<grpc::Channel> MakeChannel(const std::string& address,
                                           const RpcSecurity& security);

// Sets the token and a deadline of now + `timeout` on `context`.
void PrepareContext(const RpcSecurity& security, absl::Duration timeout,
                    grpc::ClientContext* context);

// Issues n calls at once and waits for all of them: start(i, context,
// response, done) starts call i on its stub's async interface (the caller
// keeps the stubs and requests alive until this returns). Returns each
// call's status; `responses` gets each call's answer. Used by the
// coordinator (seeds, ranks, exports to every worker) and by the workers
// (routed links straight to their owners).
template <typename Response, typename Start>
std::vector<grpc::Status> CallAll(const RpcSecurity& security,
                                  absl::Duration timeout, size_t n,
                                  std::vector<Response>* responses,
                                  const Start& start) {
  responses->assign(n, Response());
  std::vector<grpc::Status> statuses(n);
  std::vector<std::unique_ptr<grpc::ClientContext>> contexts;
  absl::BlockingCounter pending(static_cast<int>(n));
  for (size_t i = 0; i < n; ++i) {
    contexts.push_back(std::make_unique<grpc::ClientContext>());
    PrepareContext(security, timeout, contexts.back().get());
    start(i, contexts.back().get(), &(*responses)[i],
          [&statuses, &pending, i](grpc::Status s) {
            statuses[i] = std::move(s);
            pending.DecrementCount();
          });
  }
  pending.Wait();
  return statuses;
}

// Worker.AcceptLinks of requests[i] on stubs[i], all at once (CallAll),
// each with `timeout`: each call's status; `responses` (when not null)
// gets each answer. The coordinator's seeds and ranks and the workers'
// routed links go out this way.
std::vector<grpc::Status> AcceptLinksAll(
    const RpcSecurity& security, absl::Duration timeout,
    const std::vector<std::shared_ptr<proto::Worker::Stub>>& stubs,
    const std::vector<const proto::AcceptLinksRequest*>& requests,
    std::vector<proto::AcceptLinksResponse>* responses = nullptr);

// Stubs of one service (`Service::Stub`) by server address, each made on
// first use over MakeChannel(address, security) and kept. Thread-safe.
// Servers that went away keep their entries; past kMaxEntries addresses
// (a cluster that churned through thousands) the cache starts afresh
// (calls in flight hold their stub).
template <typename Service>
class StubCache {
 public:
  static constexpr size_t kMaxEntries = 4096;
  explicit StubCache(RpcSecurity security) : security_(std::move(security)) {}

  std::shared_ptr<typename Service::Stub> For(const std::string& address)
      ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock l(&mu_);
    auto it = stubs_.find(address);
    if (it != stubs_.end()) return it->second;
    if (stubs_.size() >= kMaxEntries) stubs_.clear();
    std::shared_ptr<typename Service::Stub> stub =
        Service::NewStub(MakeChannel(address, security_));
    stubs_[address] = stub;
    return stub;
  }

 private:
  const RpcSecurity security_;
  absl::Mutex mu_;
  absl::flat_hash_map<std::string, std::shared_ptr<typename Service::Stub>>
      stubs_ ABSL_GUARDED_BY(mu_);
};

// CPU time (user + system) of this process, seconds: what the coordinator
// and the workers report for the cluster's CPU figures.
double ProcessCpuSeconds();

// Status conversions; `what` prefixes the message ("Heartbeat to ...: ").
absl::Status FromGrpc(const grpc::Status& status, absl::string_view what);
grpc::Status ToGrpc(const absl::Status& status);

}  // namespace fcrawl::cluster

#endif  // FCRAWL_CLUSTER_RPC_H_
