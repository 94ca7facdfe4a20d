// What one coordinator's work costs as the cluster grows (docs/design.md
// "What one coordinator carries"): the real Coordinator (coordinator/
// coordinator.h, its state store on disk, its ticker running) driven
// in-process by K simulated workers, without gRPC between them (a unary
// call's own cost is added in the design note from a separate figure).
//
//   coordinator_bench [--workers 10,100,1000] [--seconds 4] [--data DIR]
//
// For each K: K members register (all with the address of one in-process
// Worker service that accepts every call, so the seeds are delivered), a
// `learned` crawl starts (so quota follows the crawl's best URLs: the
// merge of every member's best_queued), and then, round robin, each member
// heartbeats with realistic figures (64 best_queued buckets, error kinds,
// skip reasons) in two phases:
//   heartbeat: no quota asked (what every worker sends 4 times a second);
//   grant:     quota asked on every heartbeat (each answer is a grant,
//              persisted with fdatasync before it is answered);
//   heartbeat over gRPC: the first phase through a gRPC server on loopback
//              and a stub (unary calls, one at a time); CPU is the
//              process's minus the calling thread's, i.e. the server side.
// Prints, per phase: calls, CPU µs per call (this process: coordinator,
// its ticker and the driver), wall µs per call, and the response bytes.
#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "cluster/rpc.h"
#include "coordinator/coordinator.h"
#include "proto/cluster.grpc.pb.h"

ABSL_FLAG(std::string, workers, "10,100,1000", "simulated worker counts");
ABSL_FLAG(double, seconds, 4, "seconds per phase and worker count");
ABSL_FLAG(std::string, data, "", "scratch folder (default: under /tmp)");

namespace {

using fcrawl::coordinator::Coordinator;
using fcrawl::coordinator::CoordinatorOptions;
namespace proto = fcrawl::proto;

// Accepts every routed link and seed (the seeding's target).
class AcceptAll final : public proto::Worker::Service {
  grpc::Status AcceptLinks(grpc::ServerContext*,
                           const proto::AcceptLinksRequest* request,
                           proto::AcceptLinksResponse* response) override {
    response->set_accepted(request->links_size());
    return grpc::Status::OK;
  }
};

double CpuSeconds(int who = RUSAGE_SELF) {
  rusage u;
  getrusage(who, &u);
  return u.ru_utime.tv_sec + u.ru_stime.tv_sec +
         (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

struct Phase {
  int64_t calls = 0;
  double cpu_s = 0, wall_s = 0;
  int64_t response_bytes = 0, grants = 0;
};

int Fail(const std::string& what) {
  std::fprintf(stderr, "coordinator_bench: %s\n", what.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  std::string data = absl::GetFlag(FLAGS_data);
  if (data.empty()) {
    data = absl::StrCat("/tmp/coordinator_bench-", getpid());
  }
  AcceptAll accept_all;
  auto server = fcrawl::cluster::RpcServer::Start(
      "127.0.0.1:0", fcrawl::cluster::RpcSecurity(), {&accept_all});
  if (!server.ok()) return Fail(server.status().ToString());
  const std::string address = (*server)->address();
  std::printf(
      "| workers | phase | calls | CPU µs/call | wall µs/call | "
      "response bytes/call |\n|---:|---|---:|---:|---:|---:|\n");
  for (absl::string_view k_text :
       absl::StrSplit(absl::GetFlag(FLAGS_workers), ',')) {
    int k = 0;
    if (!absl::SimpleAtoi(k_text, &k) || k < 1 || k > 100000) {
      return Fail(absl::StrCat("bad worker count '", k_text, "'"));
    }
    const std::string dir = absl::StrCat(data, "/k", k);
    std::filesystem::remove_all(dir);
    CoordinatorOptions o;
    o.data_dir = dir;
    o.lease = absl::Hours(1);  // no member expires while the driver loops
    auto c = Coordinator::Create(o);
    if (!c.ok()) return Fail(c.status().ToString());
    (*c)->Start();
    std::vector<std::string> names;
    for (int i = 0; i < k; ++i) {
      names.push_back(absl::StrCat("w", i));
      proto::RegisterRequest r;
      r.set_name(names.back());
      r.set_address(address);
      proto::RegisterResponse resp;
      grpc::Status s = (*c)->Register(nullptr, &r, &resp);
      if (!s.ok()) return Fail(s.error_message());
    }
    proto::StartCrawlRequest start;
    start.mutable_config()->add_seeds("http://a.test/");
    start.mutable_config()->mutable_strategy()->set_name("learned");
    start.mutable_config()->mutable_topic()->add_keywords("physics");
    start.mutable_config()->mutable_budget()->set_max_pages(1000000000000);
    proto::StartCrawlResponse started;
    if (grpc::Status s = (*c)->StartCrawl(nullptr, &start, &started); !s.ok()) {
      return Fail(s.error_message());
    }
    const uint64_t version = (*c)->Status().view().version();
    // Each member's heartbeat, built once (the figures a busy worker
    // sends; pages go up between calls).
    std::mt19937_64 rng(k);
    std::uniform_real_distribution<double> score(0, 1);
    std::vector<proto::HeartbeatRequest> requests(k);
    for (int i = 0; i < k; ++i) {
      proto::HeartbeatRequest& r = requests[i];
      r.set_name(names[i]);
      r.set_crawl_id(started.crawl_id());
      r.set_view_version(version);
      r.set_handed_over_version(version);
      proto::WorkerStats* s = r.mutable_stats();
      s->set_name(names[i]);
      s->set_queued(50000);
      s->set_in_flight(64);
      for (const char* e : {"http_4xx", "timeout", "dns", "http_5xx"}) {
        (*s->mutable_errors_by_kind())[e] = 10;
      }
      for (const char* e : {"scope", "robots", "threshold"}) {
        (*s->mutable_skipped())[e] = 100;
      }
      for (int b = 0; b < 64; ++b) {
        proto::ScoreCount* sc = s->add_best_queued();
        sc->set_score(score(rng));
        sc->set_count(1 + b);
      }
    }
    auto served = fcrawl::cluster::RpcServer::Start(
        "127.0.0.1:0", fcrawl::cluster::RpcSecurity(), {c->get()});
    if (!served.ok()) return Fail(served.status().ToString());
    auto stub = proto::Coordinator::NewStub(fcrawl::cluster::MakeChannel(
        (*served)->address(), fcrawl::cluster::RpcSecurity()));
    for (const int phase : {0, 1, 2}) {
      const bool ask = phase == 1, over_grpc = phase == 2;
      Phase p;
      const double cpu0 = CpuSeconds(), own0 = CpuSeconds(RUSAGE_THREAD);
      const absl::Time t0 = absl::Now();
      const absl::Time end = t0 + absl::Seconds(absl::GetFlag(FLAGS_seconds));
      while (absl::Now() < end) {
        for (int i = 0; i < k; ++i) {
          proto::HeartbeatRequest& r = requests[i];
          r.mutable_stats()->set_pages_fetched(r.stats().pages_fetched() + 1);
          r.set_wants_quota(ask);
          proto::HeartbeatResponse resp;
          grpc::Status s;
          if (over_grpc) {
            grpc::ClientContext ctx;
            fcrawl::cluster::PrepareContext({}, absl::Seconds(10), &ctx);
            s = stub->Heartbeat(&ctx, r, &resp);
          } else {
            s = (*c)->Heartbeat(nullptr, &r, &resp);
          }
          if (!s.ok()) return Fail(s.error_message());
          ++p.calls;
          p.response_bytes += static_cast<int64_t>(resp.ByteSizeLong());
          p.grants += resp.quota_granted() > 0 ? 1 : 0;
          if ((ask || over_grpc) && (i & 15) == 15 && absl::Now() >= end) {
            break;
          }
        }
      }
      p.wall_s = absl::ToDoubleSeconds(absl::Now() - t0);
      p.cpu_s = CpuSeconds() - cpu0;
      if (over_grpc) p.cpu_s -= CpuSeconds(RUSAGE_THREAD) - own0;
      std::printf("| %d | %s | %lld | %.1f | %.1f | %lld |\n", k,
                  over_grpc ? "heartbeat over gRPC"
                  : ask     ? "grant"
                            : "heartbeat",
                  static_cast<long long>(p.calls), 1e6 * p.cpu_s / p.calls,
                  1e6 * p.wall_s / p.calls,
                  static_cast<long long>(p.response_bytes / p.calls));
      if (ask && p.grants == 0) return Fail("no quota was granted");
      std::fflush(stdout);
    }
    (*served)->Shutdown();
    (*c)->Stop();
    c->reset();
    std::filesystem::remove_all(dir);
  }
  (*server)->Shutdown();
  std::filesystem::remove_all(data);
  return 0;
}
