// Over 800 lines for a reason: the Coordinator is one class (one lock's
// state, in coordinator.cc, membership.cc, crawl_lifecycle.cc and
// routing.cc), and every test here shares the CoordinatorTest fixture of fake
// workers and a fake clock.
#include "coordinator/coordinator.h"

#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "cluster/rendezvous.h"
#include "cluster/rpc.h"
#include "core/test_temp_dir.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "storage/link_db.h"

namespace fcrawl::coordinator {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::MatchesRegex;
using ::testing::UnorderedElementsAre;
using ::testing::UnorderedElementsAreArray;

// A worker that records the links routed to it.
class FakeWorker final : public proto::Worker::Service {
 public:
  grpc::Status AcceptLinks(grpc::ServerContext*,
                           const proto::AcceptLinksRequest* request,
                           proto::AcceptLinksResponse* response) override {
    absl::MutexLock l(&mu_);
    if (fail_) return grpc::Status(grpc::StatusCode::UNAVAILABLE, "down");
    // As the real worker (worker/member/cluster_service.cc): no more than this
    // a call.
    if (request->links_size() > cluster::kMaxLinksPerAccept ||
        request->ranks_size() > cluster::kMaxLinksPerAccept) {
      return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "too many");
    }
    for (const proto::RoutedLink& link : request->links()) {
      records_.push_back(link.record());
    }
    for (const proto::RankedPage& p : request->ranks()) {
      ranks_.emplace_back(p.url(), p.rank());
    }
    versions_.push_back(request->view_version());
    response->set_accepted(request->links_size());
    // As a worker that knows every other URL and has half of those queued.
    response->set_ranks_applied((request->ranks_size() + 1) / 2);
    response->set_ranks_requeued(request->ranks_size() / 4);
    return grpc::Status::OK;
  }
  grpc::Status Export(grpc::ServerContext*, const proto::ExportRequest* request,
                      proto::ExportResponse* response) override {
    absl::MutexLock l(&mu_);
    if (fail_) {
      return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION, "no crawl");
    }
    export_dirs_.push_back(request->out_dir());
    response->set_pages(10);
    response->set_links(25);
    return grpc::Status::OK;
  }
  std::vector<std::pair<std::string, double>> Ranks() {
    absl::MutexLock l(&mu_);
    return ranks_;
  }
  std::vector<std::string> ExportDirs() {
    absl::MutexLock l(&mu_);
    return export_dirs_;
  }
  std::vector<std::string> Urls() {
    absl::MutexLock l(&mu_);
    std::vector<std::string> out;
    for (const auto& r : records_) out.push_back(r.url());
    return out;
  }
  std::vector<proto::LinkRecord> Records() {
    absl::MutexLock l(&mu_);
    return records_;
  }
  std::vector<uint64_t> Versions() {
    absl::MutexLock l(&mu_);
    return versions_;
  }
  void Clear() {
    absl::MutexLock l(&mu_);
    records_.clear();
    ranks_.clear();
    versions_.clear();
  }
  void set_fail(bool fail) {
    absl::MutexLock l(&mu_);
    fail_ = fail;
  }

 private:
  absl::Mutex mu_;
  std::vector<proto::LinkRecord> records_ ABSL_GUARDED_BY(mu_);
  std::vector<uint64_t> versions_ ABSL_GUARDED_BY(mu_);
  std::vector<std::pair<std::string, double>> ranks_ ABSL_GUARDED_BY(mu_);
  std::vector<std::string> export_dirs_ ABSL_GUARDED_BY(mu_);
  bool fail_ ABSL_GUARDED_BY(mu_) = false;
};

struct Fake {
  FakeWorker service;
  std::unique_ptr<cluster::RpcServer> server;
  std::string address;
};

std::unique_ptr<Fake> StartFake() {
  auto f = std::make_unique<Fake>();
  absl::StatusOr<std::unique_ptr<cluster::RpcServer>> s =
      cluster::RpcServer::Start("127.0.0.1:0", {}, {&f->service});
  EXPECT_TRUE(s.ok()) << s.status();
  f->server = *std::move(s);
  f->address = f->server->address();
  return f;
}

proto::CrawlConfig BfsConfig(int64_t max_pages,
                             std::vector<std::string> seeds = {
                                 "http://a.example/"}) {
  proto::CrawlConfig c;
  for (const std::string& s : seeds) c.add_seeds(s);
  c.mutable_strategy()->set_name("bfs");
  c.mutable_budget()->set_max_pages(max_pages);
  return c;
}

proto::RoutedLink Link(const std::string& url) {
  proto::RoutedLink l;
  l.mutable_record()->set_url(url);
  l.mutable_record()->set_status(proto::LinkRecord::QUEUED);
  l.mutable_record()->set_depth(1);
  return l;
}

class CoordinatorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = tmp_dir_.path();
    Open();
  }
  // Before tmp_dir_ removes the folder under the coordinator's database.
  void TearDown() override { coord_.reset(); }

  CoordinatorOptions Options() {
    CoordinatorOptions o;
    o.data_dir = dir_;
    o.lease = absl::Seconds(5);
    o.route_timeout = absl::Seconds(5);
    o.max_links_per_route = max_links_;
    o.now = [this] { return absl::FromUnixMillis(now_ms_.load()); };
    return o;
  }
  void Open() {
    absl::StatusOr<std::unique_ptr<Coordinator>> c =
        Coordinator::Create(Options());
    ASSERT_TRUE(c.ok()) << c.status();
    coord_ = *std::move(c);
  }
  void Reopen() {
    coord_.reset();
    Open();
  }
  void Advance(absl::Duration d) { now_ms_ += absl::ToInt64Milliseconds(d); }

  grpc::Status Register(const std::string& name, const std::string& address,
                        proto::RegisterResponse* out = nullptr) {
    proto::RegisterRequest req;
    req.set_name(name);
    req.set_address(address);
    proto::RegisterResponse resp;
    grpc::ServerContext ctx;
    grpc::Status s = coord_->Register(&ctx, &req, &resp);
    if (out != nullptr) *out = resp;
    return s;
  }
  grpc::Status Beat(const proto::HeartbeatRequest& req,
                    proto::HeartbeatResponse* out = nullptr) {
    proto::HeartbeatResponse resp;
    grpc::ServerContext ctx;
    grpc::Status s = coord_->Heartbeat(&ctx, &req, &resp);
    if (out != nullptr) *out = resp;
    return s;
  }
  // A heartbeat of a member that is up to date with everything.
  proto::HeartbeatRequest Current(const std::string& name, bool idle,
                                  int64_t pages = 0) {
    proto::HeartbeatRequest h;
    h.set_name(name);
    h.set_crawl_id(crawl_id_);
    const uint64_t v = coord_->Status().view().version();
    h.set_view_version(v);
    h.set_handed_over_version(v);
    h.set_idle(idle);
    h.mutable_stats()->set_pages_fetched(pages);
    return h;
  }
  grpc::Status Start(const proto::CrawlConfig& config, bool force = false,
                     std::vector<std::string> on_topic = {}) {
    proto::StartCrawlRequest req;
    *req.mutable_config() = config;
    req.set_force(force);
    for (const std::string& u : on_topic) req.add_on_topic_urls(u);
    proto::StartCrawlResponse resp;
    grpc::ServerContext ctx;
    grpc::Status s = coord_->StartCrawl(&ctx, &req, &resp);
    if (s.ok()) crawl_id_ = resp.crawl_id();
    return s;
  }
  grpc::Status Control(proto::ControlRequest::Action action,
                       proto::CrawlState* state = nullptr) {
    proto::ControlRequest req;
    req.set_action(action);
    proto::ControlResponse resp;
    grpc::ServerContext ctx;
    grpc::Status s = coord_->Control(&ctx, &req, &resp);
    if (state != nullptr) *state = resp.state();
    return s;
  }
  grpc::Status Route(const std::vector<proto::RoutedLink>& links,
                     proto::RouteLinksResponse* out = nullptr) {
    proto::RouteLinksRequest req;
    req.set_from("w1");
    for (const auto& l : links) *req.add_links() = l;
    proto::RouteLinksResponse resp;
    grpc::ServerContext ctx;
    grpc::Status s = coord_->RouteLinks(&ctx, &req, &resp);
    if (out != nullptr) *out = resp;
    return s;
  }
  grpc::Status Leave(const std::string& name) {
    proto::LeaveRequest req;
    req.set_name(name);
    proto::LeaveResponse resp;
    grpc::ServerContext ctx;
    return coord_->Leave(&ctx, &req, &resp);
  }
  uint64_t Version() { return coord_->Status().view().version(); }
  std::vector<std::string> MemberNames() {
    std::vector<std::string> out;
    const proto::StatusResponse st = coord_->Status();
    for (const auto& m : st.view().members()) {
      out.push_back(m.name());
    }
    return out;
  }

  file::TestTempDir tmp_dir_;
  std::string dir_;
  int max_links_ = 10000;
  std::atomic<int64_t> now_ms_{1700000000000};  // 2023-11-14 22:13:20 UTC
  std::unique_ptr<Coordinator> coord_;
  std::string crawl_id_;
};

TEST_F(CoordinatorTest, RegisterValidatesNameAndAddress) {
  for (const std::string& name :
       {std::string(""), std::string(65, 'a'), std::string("a b"),
        std::string("a/b"), std::string("é")}) {
    grpc::Status s = Register(name, "127.0.0.1:9000");
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << name;
  }
  for (const std::string& address :
       {std::string("nohost"), std::string("h:0"), std::string("h:70000"),
        std::string(":80"), std::string("h:x"), std::string("h:"),
        std::string("a b:80"), std::string("[::1:80"),
        std::string(260, 'h') + ":8080"}) {
    grpc::Status s = Register("w1", address);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << address;
  }
  EXPECT_EQ(Version(), 0u);

  proto::RegisterResponse r;
  ASSERT_TRUE(Register("w-1.a_b", "127.0.0.1:9000", &r).ok());
  EXPECT_EQ(r.view().version(), 1u);
  ASSERT_EQ(r.view().members_size(), 1);
  EXPECT_EQ(r.view().members(0).name(), "w-1.a_b");
  EXPECT_EQ(r.view().members(0).address(), "127.0.0.1:9000");
  EXPECT_EQ(r.lease_ms(), 5000);
  EXPECT_FALSE(r.has_crawl());
  EXPECT_TRUE(Register(std::string(64, 'x'), "[::1]:9001").ok());
}

TEST_F(CoordinatorTest, ViewVersionsOnJoinLeaveAndExpiry) {
  ASSERT_TRUE(Register("w1", "127.0.0.1:9001").ok());
  ASSERT_TRUE(Register("w2", "127.0.0.1:9002").ok());
  EXPECT_EQ(Version(), 2u);
  // A live member registering again: lease renewed, same view.
  ASSERT_TRUE(Register("w1", "127.0.0.1:9001").ok());
  EXPECT_EQ(Version(), 2u);
  // ... with a new address: a new view.
  ASSERT_TRUE(Register("w1", "127.0.0.1:9011").ok());
  EXPECT_EQ(Version(), 3u);
  EXPECT_EQ(coord_->Status().view().members(0).address(), "127.0.0.1:9011");

  // Leave: out of the view, draining.
  ASSERT_TRUE(Leave("w2").ok());
  EXPECT_EQ(Version(), 4u);
  EXPECT_THAT(MemberNames(), ElementsAre("w1"));
  proto::StatusResponse st = coord_->Status();
  ASSERT_EQ(st.workers_size(), 2);
  EXPECT_EQ(st.workers(1).member().name(), "w2");
  EXPECT_TRUE(st.workers(1).draining());
  // A draining member registering again stays draining.
  ASSERT_TRUE(Register("w2", "127.0.0.1:9002").ok());
  EXPECT_EQ(Version(), 4u);
  EXPECT_THAT(MemberNames(), ElementsAre("w1"));
  EXPECT_EQ(Leave("nobody").error_code(), grpc::StatusCode::NOT_FOUND);

  proto::HeartbeatResponse hb;
  proto::HeartbeatRequest unknown;
  unknown.set_name("w9");
  grpc::Status s = Beat(unknown);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_THAT(s.error_message(), HasSubstr("register again"));

  // Expiry: w3 joins and falls silent; w1 and w2 keep heartbeating.
  ASSERT_TRUE(Register("w3", "127.0.0.1:9003").ok());
  EXPECT_EQ(Version(), 5u);
  proto::HeartbeatRequest h1;
  h1.set_name("w1");
  proto::HeartbeatRequest h2;
  h2.set_name("w2");
  Advance(absl::Seconds(3));
  ASSERT_TRUE(Beat(h1).ok());
  ASSERT_TRUE(Beat(h2, &hb).ok());
  EXPECT_TRUE(hb.drain());
  Advance(absl::Seconds(2));
  coord_->Tick();  // exactly at the deadline: still a member
  EXPECT_EQ(Version(), 5u);
  Advance(absl::Seconds(1));
  coord_->Tick();
  EXPECT_EQ(Version(), 6u);
  EXPECT_THAT(MemberNames(), ElementsAre("w1"));
  EXPECT_EQ(Beat(Current("w3", true)).error_code(),
            grpc::StatusCode::NOT_FOUND);
  ASSERT_TRUE(Register("w3", "127.0.0.1:9003").ok());
  EXPECT_EQ(Version(), 7u);
  EXPECT_THAT(MemberNames(), ElementsAre("w1", "w3"));

  // A draining member whose lease passes is dropped without a new view
  // (w2's lease ends at 8 s, w1's and w3's at 12.5 s).
  Advance(absl::Milliseconds(1500));
  ASSERT_TRUE(Beat(h1).ok());
  ASSERT_TRUE(Register("w3", "127.0.0.1:9003").ok());
  Advance(absl::Seconds(1));
  coord_->Tick();
  EXPECT_EQ(Version(), 7u);
  st = coord_->Status();
  EXPECT_EQ(st.workers_size(), 2);
  for (const auto& w : st.workers()) EXPECT_FALSE(w.draining());
}

TEST_F(CoordinatorTest, HeartbeatSendsTheViewOnlyWhenItChanged) {
  ASSERT_TRUE(Register("w1", "127.0.0.1:9001").ok());
  proto::HeartbeatRequest h;
  h.set_name("w1");
  h.set_view_version(0);
  proto::HeartbeatResponse r;
  ASSERT_TRUE(Beat(h, &r).ok());
  EXPECT_EQ(r.view().version(), 1u);
  EXPECT_EQ(r.state(), proto::IDLE);
  EXPECT_FALSE(r.has_crawl());
  h.set_view_version(1);
  ASSERT_TRUE(Beat(h, &r).ok());
  EXPECT_FALSE(r.has_view());
  // Hostile values.
  h.set_quota_unused(-1);
  EXPECT_EQ(Beat(h).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  h.set_quota_unused(0);
  h.mutable_stats()->set_pages_fetched(-5);
  EXPECT_EQ(Beat(h).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  h.mutable_stats()->set_pages_fetched(0);
  for (int i = 0; i < 65; ++i) {
    (*h.mutable_stats()->mutable_errors_by_kind())[absl::StrCat("k", i)] = 1;
  }
  EXPECT_EQ(Beat(h).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  h.mutable_stats()->clear_errors_by_kind();
  (*h.mutable_stats()->mutable_skipped())["robots"] = -2;
  grpc::Status bad = Beat(h);
  EXPECT_EQ(bad.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(bad.error_message(), HasSubstr("stats.skipped[robots]"));
  h.mutable_stats()->clear_skipped();
  (*h.mutable_stats()->mutable_skipped())[""] = 2;
  EXPECT_EQ(Beat(h).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  h.mutable_stats()->clear_skipped();
  h.mutable_stats()->mutable_fetch_outcomes()->set_not_found(-1);
  bad = Beat(h);
  EXPECT_EQ(bad.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(bad.error_message(), HasSubstr("stats.fetch_outcomes.not_found"));
  h.mutable_stats()->clear_fetch_outcomes();
  proto::FolderOutcome* f = h.mutable_stats()->add_dead_folders();
  f->set_folder("u.test/a/");
  f->set_fetches(2);
  f->set_pages(3);  // more pages than fetches
  bad = Beat(h);
  EXPECT_EQ(bad.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(bad.error_message(), HasSubstr("stats.dead_folders[0]"));
  h.mutable_stats()->clear_dead_folders();
  h.mutable_stats()->set_paused(std::string(1025, 'x'));
  bad = Beat(h);
  EXPECT_EQ(bad.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(bad.error_message(), HasSubstr("stats.paused"));
}

TEST_F(CoordinatorTest, LinksGoToTheirRendezvousOwner) {
  std::vector<std::unique_ptr<Fake>> fakes;
  for (int i = 0; i < 3; ++i) {
    fakes.push_back(StartFake());
    ASSERT_TRUE(Register(absl::StrCat("w", i), fakes[i]->address).ok());
  }
  const proto::ClusterView view = coord_->Status().view();
  cluster::HostPartition partition(view);
  std::vector<proto::RoutedLink> links;
  std::map<std::string, std::vector<std::string>> want;
  for (int i = 0; i < 200; ++i) {
    const std::string url =
        absl::StrCat("http://h", i, ".example:8080/page?", i);
    links.push_back(Link(url));
    want[partition.Owner(storage::HostKey(url))].push_back(url);
  }
  EXPECT_EQ(want.size(), 3u);  // 200 hosts spread over all three
  proto::RouteLinksResponse r;
  grpc::Status s = Route(links, &r);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(r.delivered(), 200);
  for (int i = 0; i < 3; ++i) {
    EXPECT_THAT(fakes[i]->service.Urls(),
                UnorderedElementsAreArray(want[absl::StrCat("w", i)]));
    for (uint64_t v : fakes[i]->service.Versions()) {
      EXPECT_EQ(v, view.version());
    }
  }
  EXPECT_EQ(coord_->Status().links_routed(), 200);

  // An owner that fails: the call fails naming it; the others got theirs.
  for (auto& f : fakes) f->service.Clear();
  fakes[1]->service.set_fail(true);
  s = Route(links);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_THAT(s.error_message(), HasSubstr("worker w1 ("));
  EXPECT_THAT(fakes[0]->service.Urls(), UnorderedElementsAreArray(want["w0"]));
  EXPECT_THAT(fakes[2]->service.Urls(), UnorderedElementsAreArray(want["w2"]));
  EXPECT_EQ(coord_->Status().links_routed(),
            200 + static_cast<int64_t>(want["w0"].size() + want["w2"].size()));
}

TEST_F(CoordinatorTest, RanksGoToTheOwnersOfTheirHosts) {
  std::vector<std::unique_ptr<Fake>> fakes;
  for (int i = 0; i < 3; ++i) {
    fakes.push_back(StartFake());
    ASSERT_TRUE(Register(absl::StrCat("w", i), fakes[i]->address).ok());
  }
  auto push = [&](const std::string& crawl,
                  const std::vector<std::pair<std::string, double>>& ranks,
                  proto::PushRanksResponse* out = nullptr) {
    proto::PushRanksRequest req;
    req.set_crawl_id(crawl);
    for (const auto& [u, r] : ranks) {
      proto::RankedPage* p = req.add_ranks();
      p->set_url(u);
      p->set_rank(r);
    }
    proto::PushRanksResponse resp;
    grpc::ServerContext ctx;
    grpc::Status st = coord_->PushRanks(&ctx, &req, &resp);
    if (out != nullptr) *out = resp;
    return st;
  };
  std::vector<std::pair<std::string, double>> ranks;
  for (int i = 0; i < 90; ++i) {
    ranks.emplace_back(absl::StrCat("http://h", i, ".example/p", i), i * 0.1);
  }
  // No crawl yet.
  grpc::Status s = push("", ranks);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  ASSERT_TRUE(Start(BfsConfig(1000)).ok());
  // Another crawl's ranking.
  s = push("crawl-of-yesterday", ranks);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_THAT(s.error_message(), HasSubstr("crawl-of-yesterday"));

  cluster::HostPartition partition(coord_->Status().view());
  std::map<std::string, std::vector<std::pair<std::string, double>>> want;
  for (const auto& r : ranks) {
    want[partition.Owner(storage::HostKey(r.first))].push_back(r);
  }
  ASSERT_EQ(want.size(), 3u);
  proto::PushRanksResponse resp;
  s = push(crawl_id_, ranks, &resp);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(resp.delivered(), 90);
  int64_t applied = 0, requeued = 0;
  for (int i = 0; i < 3; ++i) {
    const auto& mine = want[absl::StrCat("w", i)];
    EXPECT_THAT(fakes[i]->service.Ranks(), UnorderedElementsAreArray(mine));
    EXPECT_TRUE(fakes[i]->service.Urls().empty());  // ranks are not links
    applied += (static_cast<int64_t>(mine.size()) + 1) / 2;
    requeued += static_cast<int64_t>(mine.size()) / 4;
  }
  EXPECT_EQ(resp.applied(), applied);
  EXPECT_EQ(resp.requeued(), requeued);
  EXPECT_EQ(coord_->Status().links_routed(), 0);

  // Hostile ranks: refused before anything is sent.
  for (auto& f : fakes) f->service.Clear();
  auto bad = [&](const std::string& url, double rank, const std::string& why) {
    grpc::Status st = push("", {{"http://ok.example/", 1}, {url, rank}});
    EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << why;
    EXPECT_THAT(st.error_message(), HasSubstr("ranks[1]")) << why;
    EXPECT_THAT(st.error_message(), HasSubstr(why));
  };
  bad("ftp://a.example/", 1, "not an http(s) URL");
  bad("", 1, "URL empty");
  bad("http://a.example/", -2, "rank -2");
  bad("http://a.example/", std::nan(""), "is not a number");
  bad("http://a.example/", 1e300, "is not a number in");
  bad("http://a.example/" + std::string(5000, 'x'), 1, "over 4096 bytes");
  for (auto& f : fakes) EXPECT_TRUE(f->service.Ranks().empty());

  // An owner that fails is named; a finished crawl takes no ranks.
  fakes[2]->service.set_fail(true);
  s = push("", ranks);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_THAT(s.error_message(), HasSubstr("worker w2"));
  EXPECT_THAT(s.error_message(), HasSubstr("ranks"));
  ASSERT_TRUE(Control(proto::ControlRequest::STOP).ok());
  s = push("", ranks);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_THAT(s.error_message(), HasSubstr("STOPPED"));
}

TEST_F(CoordinatorTest, ExportGraphAsksEveryMember) {
  auto run = [&](const std::string& dir, proto::ExportGraphResponse* out) {
    proto::ExportGraphRequest req;
    req.set_out_dir(dir);
    grpc::ServerContext ctx;
    return coord_->ExportGraph(&ctx, &req, out);
  };
  proto::ExportGraphResponse resp;
  EXPECT_EQ(run("/tmp/x", &resp).error_code(), grpc::StatusCode::UNAVAILABLE);
  std::vector<std::unique_ptr<Fake>> fakes;
  for (int i = 0; i < 2; ++i) {
    fakes.push_back(StartFake());
    ASSERT_TRUE(Register(absl::StrCat("w", i), fakes[i]->address).ok());
  }
  EXPECT_EQ(run("relative/dir", &resp).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(run("", &resp).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  resp.Clear();
  grpc::Status s = run("/data/graph", &resp);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ASSERT_EQ(resp.workers_size(), 2);
  for (int i = 0; i < 2; ++i) {
    const std::string dir = absl::StrCat("/data/graph/w", i);
    EXPECT_THAT(fakes[i]->service.ExportDirs(), ElementsAre(dir));
    EXPECT_EQ(resp.workers(i).name(), absl::StrCat("w", i));
    EXPECT_EQ(resp.workers(i).out_dir(), dir);
    EXPECT_EQ(resp.workers(i).pages(), 10);
    EXPECT_EQ(resp.workers(i).links(), 25);
    EXPECT_EQ(resp.workers(i).error(), "");
  }
  // One member fails: reported, the call succeeds; all fail: the call fails.
  fakes[1]->service.set_fail(true);
  resp.Clear();
  ASSERT_TRUE(run("/data/graph", &resp).ok());
  EXPECT_EQ(resp.workers(0).error(), "");
  EXPECT_THAT(resp.workers(1).error(), HasSubstr("no crawl"));
  fakes[0]->service.set_fail(true);
  resp.Clear();
  s = run("/data/graph", &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_THAT(s.error_message(), HasSubstr("no worker exported"));
}

TEST_F(CoordinatorTest, RouteLinksRejectsBadInput) {
  max_links_ = 5;
  Reopen();
  // No members.
  grpc::Status s = Route({Link("http://a.example/")});
  EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_THAT(s.error_message(), HasSubstr("no workers"));

  ASSERT_TRUE(Register("w1", "127.0.0.1:9").ok());
  std::vector<proto::RoutedLink> six(6, Link("http://a.example/"));
  s = Route(six);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(s.error_message(), HasSubstr("at most 5"));

  auto bad = [&](proto::RoutedLink l, const std::string& why) {
    grpc::Status st = Route({Link("http://ok.example/"), l});
    EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << why;
    EXPECT_THAT(st.error_message(), HasSubstr("links[1]")) << why;
    EXPECT_THAT(st.error_message(), HasSubstr(why));
  };
  bad(Link("not a url"), "absolute http(s) URL");
  bad(Link("ftp://a.example/x"), "unsupported scheme");
  bad(Link("/relative/path"), "absolute http(s) URL");
  bad(Link("http://a.example/" + std::string(2100, 'x')), "2117 bytes");
  proto::RoutedLink done = Link("http://a.example/");
  done.mutable_record()->set_status(proto::LinkRecord::DONE);
  bad(done, "status DONE");
  proto::RoutedLink deep = Link("http://a.example/");
  deep.mutable_record()->set_depth(-1);
  bad(deep, "negative depth");
  EXPECT_EQ(coord_->Status().links_routed(), 0);
}

TEST_F(CoordinatorTest, QuotaNeverExceedsTheBudget) {
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(Register(absl::StrCat("w", i), "127.0.0.1:9").ok());
  }
  ASSERT_TRUE(Start(BfsConfig(1000)).ok());
  // Workers off the current crawl get nothing.
  proto::HeartbeatRequest stale = Current("w0", false);
  stale.set_crawl_id("crawl-old");
  stale.set_wants_quota(true);
  proto::HeartbeatResponse r;
  ASSERT_TRUE(Beat(stale, &r).ok());
  EXPECT_EQ(r.quota_granted(), 0);
  EXPECT_EQ(r.crawl().crawl_id(), crawl_id_);

  std::map<std::string, int64_t> got;
  int64_t total = 0;
  std::vector<int64_t> first_chunks;
  for (int round = 0; round < 200; ++round) {
    for (int i = 0; i < 3; ++i) {
      const std::string name = absl::StrCat("w", i);
      proto::HeartbeatRequest h = Current(name, false, got[name]);
      h.set_wants_quota(true);
      ASSERT_TRUE(Beat(h, &r).ok());
      EXPECT_FALSE(r.has_crawl());
      EXPECT_GE(r.quota_granted(), 0);
      EXPECT_LE(r.quota_granted(), 1024);
      if (round == 0) first_chunks.push_back(r.quota_granted());
      got[name] += r.quota_granted();  // spends every token at once
      total += r.quota_granted();
      ASSERT_LE(total, 1000);
    }
  }
  // remaining / (4 × 3): 1000/12 = 83, then 917/12 = 76, 841/12 = 70.
  EXPECT_THAT(first_chunks, ElementsAre(83, 76, 70));
  EXPECT_EQ(total, 1000);
  EXPECT_EQ(coord_->Status().quota_granted(), 1000);
  // Still 1000 after a restart: grants are stored before they are given.
  Reopen();
  EXPECT_EQ(coord_->Status().quota_granted(), 1000);
  proto::HeartbeatRequest h = Current("w0", false, got["w0"]);
  h.set_wants_quota(true);
  ASSERT_TRUE(Beat(h, &r).ok());
  EXPECT_EQ(r.quota_granted(), 0);
}

// A grant is stored on its own ("quota", synced) without rewriting the
// whole state; at load it wins over the state's older copy, and a damaged
// one is an error, not a guess.
TEST_F(CoordinatorTest, StoredQuotaWinsOverTheStatesCopy) {
  ASSERT_TRUE(Register("w0", "127.0.0.1:9").ok());
  ASSERT_TRUE(Start(BfsConfig(1000)).ok());
  coord_.reset();  // "state" now holds quota_granted 0
  for (const char* stored : {"700", "seven"}) {
    {
      absl::StatusOr<std::unique_ptr<StateStore>> store =
          StateStore::Open(dir_ + "/db");  // the coordinator's store
      ASSERT_TRUE(store.ok()) << store.status();
      StateWrite w;
      w.puts.emplace_back("quota", stored);
      ASSERT_TRUE((*store)->Apply(w).ok());
    }
    absl::StatusOr<std::unique_ptr<Coordinator>> c =
        Coordinator::Create(Options());
    if (std::string(stored) == "700") {
      ASSERT_TRUE(c.ok()) << c.status();
      EXPECT_EQ((*c)->Status().quota_granted(), 700);
    } else {
      EXPECT_EQ(c.status().code(), absl::StatusCode::kDataLoss);
      EXPECT_THAT(std::string(c.status().message()), HasSubstr("seven"));
    }
  }
}

// Under a focused strategy the page quota follows the crawl's global order:
// a worker whose best queued URL scores below half of another's waits.
TEST_F(CoordinatorTest, QuotaGoesFirstToTheWorkerWithTheBestUrls) {
  ASSERT_TRUE(Register("w1", "127.0.0.1:9").ok());
  ASSERT_TRUE(Register("w2", "127.0.0.1:9").ok());
  proto::CrawlConfig focused = BfsConfig(1000);
  focused.mutable_strategy()->set_name("ssaps");
  focused.mutable_topic()->add_keywords("physics");
  ASSERT_TRUE(Start(focused).ok());
  proto::HeartbeatResponse r;
  using Queued = std::vector<std::pair<double, int64_t>>;
  auto beat = [&](const std::string& name, const Queued& best,
                  bool wants = true) {
    proto::HeartbeatRequest h = Current(name, false);
    h.set_wants_quota(wants);
    for (const auto& [score, count] : best) {
      proto::ScoreCount* c = h.mutable_stats()->add_best_queued();
      c->set_score(score);
      c->set_count(count);
    }
    EXPECT_TRUE(Beat(h, &r).ok());
    return r.quota_granted();
  };
  // Each heartbeat carries the worker's best queued URLs; a grant counts
  // the latest report of every member.
  const Queued w1 = {{0.9, 100}, {0.5, 200}};
  const Queued w2 = {{0.7, 50}, {0.3, 500}};
  // Budget 1,000, 2 members: chunk min(1000, clamp(1000 / 8, 32, 1024)) =
  // 125. w1 alone: all of the best 125 are its own.
  EXPECT_EQ(beat("w1", w1), 125);
  // 875 left: chunk 109; the best 109 are w1's 100 and 9 of w2's 0.7.
  EXPECT_EQ(beat("w2", w2), 9);
  // 866 left: chunk 108; w1 holds 100 of them (its 0.9 bucket).
  EXPECT_EQ(beat("w1", w1), 100);
  // w2 with only 0.3s left: none among the best 100 + 200 of w1: nothing,
  // until it has had nothing for 2 s; then a trickle of 2 pages. (w1 beats
  // too, without asking, so that its lease holds.)
  auto wait = [&](absl::Duration d) {
    Advance(d);
    EXPECT_EQ(beat("w1", w1, /*wants=*/false), 0);
  };
  EXPECT_EQ(beat("w2", {{0.3, 500}}), 0);
  wait(absl::Seconds(1));
  EXPECT_EQ(beat("w2", {{0.3, 500}}), 0);
  wait(absl::Seconds(1));
  EXPECT_EQ(beat("w2", {{0.3, 500}}), 2);
  EXPECT_EQ(beat("w2", {{0.3, 500}}), 0);
  // Refused, it says idle and asks no more (no token, no fetchable host):
  // it is not done, and its share or the trickle still comes.
  EXPECT_EQ(beat("w2", {{0.3, 500}}, /*wants=*/false), 0);
  wait(absl::Seconds(2));
  EXPECT_EQ(beat("w2", {{0.3, 500}}, /*wants=*/false), 2);
  // Granted: no longer refused; a worker that does not ask gets nothing.
  wait(absl::Seconds(2));
  EXPECT_EQ(beat("w2", {{0.3, 500}}, /*wants=*/false), 0);
  // w1 has nothing queued any more: w2's URLs are the crawl's best.
  EXPECT_GT(beat("w1", {}), 0);
  EXPECT_GT(beat("w2", {{0.3, 500}}), 0);
  // bfs orders by discovery, not by score: no rule.
  ASSERT_TRUE(Start(BfsConfig(1000), /*force=*/true).ok());
  EXPECT_EQ(beat("w1", w1), 125);
  EXPECT_EQ(beat("w2", {{0.01, 5}}), 109);
}

TEST_F(CoordinatorTest, UnusedQuotaComesBackButNotBelowPagesFetched) {
  ASSERT_TRUE(Register("w1", "127.0.0.1:9").ok());
  ASSERT_TRUE(Start(BfsConfig(100)).ok());
  proto::HeartbeatRequest h = Current("w1", false);
  h.set_wants_quota(true);
  proto::HeartbeatResponse r;
  ASSERT_TRUE(Beat(h, &r).ok());
  EXPECT_EQ(r.quota_granted(), 32);  // 100 / 4 = 25, raised to the minimum 32
  // 20 fetched, 10 returned: 32 - 10 = 22.
  h = Current("w1", true, 20);
  h.set_quota_unused(10);
  ASSERT_TRUE(Beat(h, &r).ok());
  EXPECT_EQ(r.quota_granted(), 0);
  EXPECT_EQ(coord_->Status().quota_granted(), 22);
  // 3 more returned: 22 - 3 = 19 < 20 fetched → 20.
  h.set_quota_unused(3);
  ASSERT_TRUE(Beat(h).ok());
  EXPECT_EQ(coord_->Status().quota_granted(), 20);
  // Paused: no grants.
  ASSERT_TRUE(Control(proto::ControlRequest::PAUSE).ok());
  h = Current("w1", false, 20);
  h.set_wants_quota(true);
  ASSERT_TRUE(Beat(h, &r).ok());
  EXPECT_EQ(r.quota_granted(), 0);
  EXPECT_EQ(r.state(), proto::PAUSED);
  // The request is remembered: after the resume the worker, which says
  // idle and does not ask again (no token, so nothing looks fetchable),
  // gets its share and is not taken for done.
  ASSERT_TRUE(Control(proto::ControlRequest::RESUME).ok());
  h = Current("w1", true, 20);
  ASSERT_TRUE(Beat(h, &r).ok());
  EXPECT_EQ(r.quota_granted(), 32);  // 80 left / 4 = 20, raised to 32
}

TEST_F(CoordinatorTest, ViewSettlesWhenEveryoneHandedOver) {
  ASSERT_TRUE(Register("w1", "127.0.0.1:9001").ok());
  ASSERT_TRUE(Register("w2", "127.0.0.1:9002").ok());
  proto::HeartbeatRequest h1;
  h1.set_name("w1");
  h1.set_view_version(2);
  h1.set_handed_over_version(2);
  proto::HeartbeatResponse r;
  ASSERT_TRUE(Beat(h1, &r).ok());
  EXPECT_EQ(r.settled_version(), 0u);
  proto::HeartbeatRequest h2 = h1;
  h2.set_name("w2");
  h2.set_handed_over_version(1);  // not yet
  ASSERT_TRUE(Beat(h2, &r).ok());
  EXPECT_EQ(r.settled_version(), 0u);
  h2.set_handed_over_version(2);
  ASSERT_TRUE(Beat(h2, &r).ok());
  EXPECT_EQ(r.settled_version(), 2u);
  // The settled view is the current one, which w2 acts on: not sent again.
  EXPECT_FALSE(r.has_settled_view());
  EXPECT_EQ(coord_->Status().settled_version(), 2u);

  // A leave: the draining member must hand over too.
  ASSERT_TRUE(Leave("w2").ok());
  h1.set_view_version(3);
  h1.set_handed_over_version(3);
  ASSERT_TRUE(Beat(h1, &r).ok());
  EXPECT_EQ(r.settled_version(), 2u);
  // Settled (2) and current (3) differ: the settled view is sent.
  EXPECT_EQ(r.settled_view().version(), 2u);
  EXPECT_EQ(r.settled_view().members_size(), 2);
  // Settled state survives a restart (w2 gets a fresh lease, still
  // draining).
  Reopen();
  EXPECT_EQ(coord_->Status().settled_version(), 2u);
  h2.set_view_version(3);
  h2.set_handed_over_version(3);
  h2.set_idle(true);
  ASSERT_TRUE(Beat(h1).ok());  // w1's report was lost with the restart
  ASSERT_TRUE(Beat(h2, &r).ok());
  EXPECT_TRUE(r.exit());
  EXPECT_EQ(r.settled_version(), 3u);
  EXPECT_FALSE(r.has_settled_view());  // = the current view, w2 has it
}

TEST_F(CoordinatorTest, DrainThenExit) {
  for (const char* n : {"a", "b", "c"}) {
    ASSERT_TRUE(Register(n, "127.0.0.1:9").ok());
  }
  ASSERT_TRUE(Start(BfsConfig(1000)).ok());
  // Each worker's 7 pages: 2 on topic on 1 host, 3 off topic, 1 not found,
  // 1 redirected, and 3 URLs robots.txt refused.
  auto outcomes = [](proto::HeartbeatRequest* h) {
    proto::FetchOutcomeCounts* o = h->mutable_stats()->mutable_fetch_outcomes();
    o->set_on_topic(2);
    o->set_off_topic(3);
    o->set_not_found(1);
    o->set_redirected(1);
    o->set_robots(3);
    o->set_on_topic_hosts(1);
  };
  // a and b each report a folder whose fetches failed (b's the worse).
  auto dead_folder = [](proto::HeartbeatRequest* h, int64_t failed) {
    proto::FolderOutcome* f = h->mutable_stats()->add_dead_folders();
    f->set_worker("someone-else");  // the coordinator names the reporter
    f->set_folder(absl::StrCat(h->name(), ".test/courses/"));
    f->set_fetches(failed + 1);
    f->set_pages(1);
    f->set_page_probability(0.3);
  };
  for (const char* n : {"a", "b", "c"}) {
    proto::HeartbeatRequest h = Current(n, false, 7);
    (*h.mutable_stats()->mutable_errors_by_kind())["timeout"] = 2;
    (*h.mutable_stats()->mutable_skipped())["robots"] = 3;
    if (std::string(n) != "c") {  // c: an older worker
      outcomes(&h);
      dead_folder(&h, std::string(n) == "a" ? 2 : 5);
    }
    ASSERT_TRUE(Beat(h).ok());
  }
  {
    const proto::StatusResponse st = coord_->Status();
    ASSERT_EQ(st.dead_folders_size(), 2);
    EXPECT_EQ(st.dead_folders(0).folder(), "b.test/courses/");
    EXPECT_EQ(st.dead_folders(0).worker(), "b");
    EXPECT_EQ(st.dead_folders(1).folder(), "a.test/courses/");
    EXPECT_EQ(st.dead_folders(1).worker(), "a");
  }
  // A worker that reports none (restarted: its strategy has seen no
  // failure yet) keeps what it reported.
  ASSERT_TRUE(Beat(Current("a", false, 7)).ok());
  EXPECT_EQ(coord_->Status().dead_folders_size(), 2);
  EXPECT_EQ(coord_->Status().pages_fetched(), 21);
  EXPECT_EQ(coord_->Status().skipped().at("robots"), 9);
  {
    const proto::FetchOutcomeCounts o = coord_->Status().fetch_outcomes();
    EXPECT_EQ(o.on_topic(), 2 + 2);
    EXPECT_EQ(o.off_topic(), 3 + 3);
    EXPECT_EQ(o.not_found(), 1 + 1);
    EXPECT_EQ(o.http_error(), 0);
    EXPECT_EQ(o.redirected(), 1 + 1);
    EXPECT_EQ(o.robots(), 3 + 3);
    EXPECT_EQ(o.on_topic_hosts(), 1 + 1);
  }

  proto::ScaleRequest sreq;
  proto::ScaleResponse sresp;
  grpc::ServerContext ctx;
  sreq.set_workers(-1);
  EXPECT_EQ(coord_->Scale(&ctx, &sreq, &sresp).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  sreq.set_workers(1001);
  EXPECT_EQ(coord_->Scale(&ctx, &sreq, &sresp).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  sreq.set_workers(1);
  ASSERT_TRUE(coord_->Scale(&ctx, &sreq, &sresp).ok());
  EXPECT_EQ(sresp.members(), 1);
  EXPECT_THAT(sresp.draining(), UnorderedElementsAre("b", "c"));
  EXPECT_EQ(sresp.missing(), 0);
  EXPECT_THAT(MemberNames(), ElementsAre("a"));
  const uint64_t v = Version();
  EXPECT_EQ(v, 4u);  // one new view for both

  // b: not handed over yet / busy / outbox not empty → drain, no exit.
  proto::HeartbeatRequest h = Current("b", false, 9);
  (*h.mutable_stats()->mutable_errors_by_kind())["timeout"] = 2;
  outcomes(&h);
  h.mutable_stats()->mutable_fetch_outcomes()->set_not_found(3);
  h.set_handed_over_version(v - 1);
  h.set_idle(true);
  proto::HeartbeatResponse r;
  ASSERT_TRUE(Beat(h, &r).ok());
  EXPECT_TRUE(r.drain());
  EXPECT_FALSE(r.exit());
  EXPECT_EQ(r.quota_granted(), 0);
  h.set_handed_over_version(v);
  h.set_idle(false);
  h.set_wants_quota(true);
  ASSERT_TRUE(Beat(h, &r).ok());
  EXPECT_FALSE(r.exit());
  EXPECT_EQ(r.quota_granted(), 0);  // draining members get no quota
  h.set_idle(true);
  h.set_wants_quota(false);
  h.mutable_stats()->set_outbox(3);
  ASSERT_TRUE(Beat(h, &r).ok());
  EXPECT_FALSE(r.exit());
  h.mutable_stats()->set_outbox(0);
  ASSERT_TRUE(Beat(h, &r).ok());
  EXPECT_TRUE(r.drain());
  EXPECT_TRUE(r.exit());
  // Gone; its pages stay in the totals.
  EXPECT_EQ(Beat(h).error_code(), grpc::StatusCode::NOT_FOUND);
  proto::StatusResponse st = coord_->Status();
  EXPECT_EQ(st.pages_fetched(), 7 + 9 + 7);
  EXPECT_EQ(st.errors_by_kind().at("timeout"), 2 + 2 + 2);
  EXPECT_EQ(st.workers_size(), 2);  // a, and c still draining
  sreq.set_workers(5);
  sresp.Clear();
  ASSERT_TRUE(coord_->Scale(&ctx, &sreq, &sresp).ok());
  EXPECT_EQ(sresp.members(), 1);
  EXPECT_EQ(sresp.missing(), 4);
  EXPECT_THAT(sresp.draining(), ElementsAre("c"));
  EXPECT_EQ(st.fetch_outcomes().not_found(), 1 + 3);  // b's last report
  // Departed figures survive a restart.
  Reopen();
  EXPECT_EQ(coord_->Status().pages_fetched(), 7 + 9 + 7);
  EXPECT_EQ(coord_->Status().fetch_outcomes().not_found(), 1 + 3);
  EXPECT_EQ(coord_->Status().fetch_outcomes().on_topic_hosts(), 1 + 1);
  // b left; the folders it reported stay listed, under its name.
  ASSERT_EQ(coord_->Status().dead_folders_size(), 2);
  EXPECT_EQ(coord_->Status().dead_folders(0).worker(), "b");
}

TEST_F(CoordinatorTest, SeedsAreRoutedAndRoutedAgainAfterAnExpiry) {
  auto f1 = StartFake();
  auto f2 = StartFake();
  ASSERT_TRUE(Register("w1", f1->address).ok());
  ASSERT_TRUE(Register("w2", f2->address).ok());
  std::vector<std::string> seeds;
  for (int i = 0; i < 20; ++i) {
    seeds.push_back(absl::StrCat("http://s", i, ".example/"));
  }
  seeds.push_back("HTTP://S0.example/");  // the same as the first
  coord_->Tick();                         // no crawl: nothing routed
  EXPECT_THAT(f1->service.Urls(), IsEmpty());
  ASSERT_TRUE(Start(BfsConfig(100, seeds)).ok());
  coord_->Tick();
  seeds.pop_back();
  std::vector<std::string> all = f1->service.Urls();
  for (const std::string& u : f2->service.Urls()) all.push_back(u);
  EXPECT_THAT(all, UnorderedElementsAreArray(seeds));
  EXPECT_FALSE(f1->service.Urls().empty());
  EXPECT_FALSE(f2->service.Urls().empty());
  cluster::HostPartition p(coord_->Status().view());
  for (const std::string& u : f2->service.Urls()) {
    EXPECT_EQ(p.Owner(storage::HostKey(u)), "w2") << u;
  }
  for (const proto::LinkRecord& r : f1->service.Records()) {
    EXPECT_EQ(r.status(), proto::LinkRecord::QUEUED);
    EXPECT_EQ(r.depth(), 0);
    EXPECT_EQ(r.discovered_at_ms(), now_ms_.load());
  }
  EXPECT_EQ(coord_->Status().links_routed(), 0);  // seeds are not links
  // Routed once only.
  f1->service.Clear();
  f2->service.Clear();
  coord_->Tick();
  EXPECT_THAT(f1->service.Urls(), IsEmpty());

  // w2 dies: it leaves the view after its lease, and two leases later
  // (time for it to come back on its folder and hand its fetched seeds
  // over) every seed goes to w1.
  Advance(absl::Seconds(4));
  ASSERT_TRUE(Beat(Current("w1", false)).ok());
  Advance(absl::Seconds(2));
  coord_->Tick();
  EXPECT_THAT(MemberNames(), ElementsAre("w1"));
  EXPECT_THAT(f1->service.Urls(), IsEmpty());
  for (int i = 0; i < 3; ++i) {  // 9 s of the 10
    Advance(absl::Seconds(3));
    ASSERT_TRUE(Beat(Current("w1", false)).ok());
    coord_->Tick();
    EXPECT_THAT(f1->service.Urls(), IsEmpty());
  }
  Advance(absl::Seconds(1));
  ASSERT_TRUE(Beat(Current("w1", false)).ok());
  coord_->Tick();
  EXPECT_THAT(f1->service.Urls(), UnorderedElementsAreArray(seeds));
  EXPECT_THAT(f2->service.Urls(), IsEmpty());
}

// More seeds than a worker takes in one call: routed in several calls, all
// of them, at once (a single call would be refused at every tick).
TEST_F(CoordinatorTest, ManySeedsAreRoutedInCallsAWorkerAccepts) {
  auto f1 = StartFake();
  ASSERT_TRUE(Register("w1", f1->address).ok());
  std::vector<std::string> seeds;
  const int n = 2 * cluster::kMaxLinksPerAccept + 123;
  for (int i = 0; i < n; ++i) {
    seeds.push_back(absl::StrCat("http://s", i % 50, ".example/p", i));
  }
  ASSERT_TRUE(Start(BfsConfig(100, seeds)).ok());
  coord_->Tick();
  std::vector<std::string> got = f1->service.Urls();
  EXPECT_EQ(got.size(), static_cast<size_t>(n));
  EXPECT_THAT(got, UnorderedElementsAreArray(seeds));
  EXPECT_EQ(f1->service.Versions().size(), 3u);  // three calls
  f1->service.Clear();
  coord_->Tick();  // routed once
  EXPECT_THAT(f1->service.Urls(), IsEmpty());
}

TEST_F(CoordinatorTest, SeedsWaitForAnOwnerThatAnswers) {
  auto f1 = StartFake();
  ASSERT_TRUE(Start(BfsConfig(100, {"http://a.example/"})).ok());
  coord_->Tick();  // no members yet
  ASSERT_TRUE(Register("w1", f1->address).ok());
  f1->service.set_fail(true);
  coord_->Tick();
  EXPECT_THAT(f1->service.Urls(), IsEmpty());
  f1->service.set_fail(false);
  coord_->Tick();
  EXPECT_THAT(f1->service.Urls(), ElementsAre("http://a.example/"));
}

TEST_F(CoordinatorTest, ControlTransitions) {
  proto::CrawlState st;
  grpc::Status s = Control(proto::ControlRequest::PAUSE);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_THAT(s.error_message(), HasSubstr("IDLE"));
  EXPECT_EQ(Control(proto::ControlRequest::ACTION_UNSPECIFIED).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  ASSERT_TRUE(Start(BfsConfig(100)).ok());
  EXPECT_EQ(coord_->Status().state(), proto::RUNNING);
  s = Control(proto::ControlRequest::RESUME);
  EXPECT_THAT(s.error_message(), HasSubstr("RUNNING"));
  ASSERT_TRUE(Control(proto::ControlRequest::PAUSE, &st).ok());
  EXPECT_EQ(st, proto::PAUSED);
  s = Control(proto::ControlRequest::PAUSE);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_THAT(s.error_message(), HasSubstr("PAUSED"));
  ASSERT_TRUE(Control(proto::ControlRequest::RESUME, &st).ok());
  EXPECT_EQ(st, proto::RUNNING);
  ASSERT_TRUE(Control(proto::ControlRequest::PAUSE).ok());
  Advance(absl::Seconds(3));
  ASSERT_TRUE(Control(proto::ControlRequest::STOP, &st).ok());
  EXPECT_EQ(st, proto::STOPPED);
  proto::StatusResponse status = coord_->Status();
  EXPECT_EQ(status.stop_reason(), "stopped");
  EXPECT_DOUBLE_EQ(status.elapsed_seconds(), 3.0);
  Advance(absl::Seconds(3));
  EXPECT_DOUBLE_EQ(coord_->Status().elapsed_seconds(), 3.0);  // frozen
  s = Control(proto::ControlRequest::RESUME);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_THAT(s.error_message(), HasSubstr("STOPPED"));
  EXPECT_EQ(Control(proto::ControlRequest::STOP).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);
  // A stopped crawl may be replaced without force.
  EXPECT_TRUE(Start(BfsConfig(100)).ok());
}

TEST_F(CoordinatorTest, StartCrawlChecksItsInput) {
  proto::CrawlConfig no_seeds = BfsConfig(100, {});
  grpc::Status s = Start(no_seeds);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(s.error_message(), HasSubstr("seeds"));
  s = Start(BfsConfig(-5));
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(s.error_message(), HasSubstr("budget.max_pages"));
  s = Start(BfsConfig(100), false, {std::string(2049, 'x')});
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(s.error_message(), HasSubstr("on_topic_urls[0]"));
  EXPECT_EQ(coord_->Status().state(), proto::IDLE);

  ASSERT_TRUE(Start(BfsConfig(100), false, {"http://a.example/x"}).ok());
  EXPECT_THAT(crawl_id_, MatchesRegex("crawl-20231114-221320-[0-9a-f]{4}"));
  const std::string first = crawl_id_;
  s = Start(BfsConfig(200));
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_THAT(s.error_message(), HasSubstr("RUNNING"));
  EXPECT_EQ(coord_->Status().crawl_id(), first);
  ASSERT_TRUE(Control(proto::ControlRequest::PAUSE).ok());
  EXPECT_EQ(Start(BfsConfig(200)).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);
  Advance(absl::Seconds(1));
  ASSERT_TRUE(Start(BfsConfig(200), /*force=*/true).ok());
  EXPECT_NE(crawl_id_, first);
  proto::StatusResponse st = coord_->Status();
  EXPECT_EQ(st.crawl_id(), crawl_id_);
  EXPECT_EQ(st.state(), proto::RUNNING);
  EXPECT_EQ(st.budget(), 200);
  EXPECT_FALSE(st.labelled());

  // The assignment a worker gets has the defaults filled in.
  ASSERT_TRUE(Register("w1", "127.0.0.1:9").ok());
  proto::HeartbeatRequest h;
  h.set_name("w1");
  h.set_crawl_id(first);
  proto::HeartbeatResponse r;
  ASSERT_TRUE(Beat(h, &r).ok());
  EXPECT_EQ(r.crawl().crawl_id(), crawl_id_);
  EXPECT_EQ(r.crawl().config().budget().max_pages(), 200);
  EXPECT_TRUE(r.crawl().config().scope().has_max_pages_per_host());
}

class DoneTest : public CoordinatorTest {
 protected:
  void SetUp() override {
    CoordinatorTest::SetUp();
    fake_ = StartFake();
    ASSERT_TRUE(Register("w1", fake_->address).ok());
  }
  void StartAndSeed(int64_t budget) {
    ASSERT_TRUE(Start(BfsConfig(budget)).ok());
    coord_->Tick();
    ASSERT_EQ(fake_->service.Urls().size(), 1u);
  }
  proto::CrawlState State() { return coord_->Status().state(); }
  std::unique_ptr<Fake> fake_;
};

TEST_F(DoneTest, DoneAfterTwoStableChecks) {
  StartAndSeed(1000);
  ASSERT_TRUE(Beat(Current("w1", true, 5)).ok());
  coord_->Tick();  // first check
  Advance(absl::Milliseconds(1500));
  coord_->Tick();  // no fresh heartbeat: no check
  EXPECT_EQ(State(), proto::RUNNING);
  ASSERT_TRUE(Beat(Current("w1", true, 5)).ok());
  coord_->Tick();
  proto::StatusResponse st = coord_->Status();
  EXPECT_EQ(st.state(), proto::DONE);
  EXPECT_EQ(st.stop_reason(), "frontier empty");
  EXPECT_DOUBLE_EQ(st.elapsed_seconds(), 1.5);
  // Finished crawls stay finished across a restart.
  Reopen();
  EXPECT_EQ(State(), proto::DONE);
  EXPECT_EQ(coord_->Status().stop_reason(), "frontier empty");
}

TEST_F(DoneTest, NotDoneWhileBusyMovingOrTooSoon) {
  StartAndSeed(1000);
  // Busy.
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(Beat(Current("w1", false, 5)).ok());
    coord_->Tick();
    Advance(absl::Seconds(2));
  }
  EXPECT_EQ(State(), proto::RUNNING);
  // Idle, but the counters move between checks.
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(Beat(Current("w1", true, 10 + i)).ok());
    coord_->Tick();
    Advance(absl::Seconds(2));
  }
  EXPECT_EQ(State(), proto::RUNNING);
  // Idle and stable, but the second check is under lease/4 after the first.
  ASSERT_TRUE(Beat(Current("w1", true, 20)).ok());
  coord_->Tick();
  Advance(absl::Milliseconds(1000));
  ASSERT_TRUE(Beat(Current("w1", true, 20)).ok());
  coord_->Tick();
  EXPECT_EQ(State(), proto::RUNNING);
  // A routed link moves the coordinator's counter: starts over.
  ASSERT_TRUE(Route({Link("http://b.example/")}).ok());
  Advance(absl::Milliseconds(300));
  ASSERT_TRUE(Beat(Current("w1", true, 20)).ok());
  coord_->Tick();
  EXPECT_EQ(State(), proto::RUNNING);
  Advance(absl::Milliseconds(1300));
  ASSERT_TRUE(Beat(Current("w1", true, 20)).ok());
  coord_->Tick();
  EXPECT_EQ(State(), proto::DONE);
}

TEST_F(DoneTest, NotDoneOnAStaleViewOrBeforeSettling) {
  StartAndSeed(1000);
  proto::HeartbeatRequest h = Current("w1", true, 5);
  h.set_handed_over_version(0);  // never reported a handover
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(Beat(h).ok());
    coord_->Tick();
    Advance(absl::Seconds(2));
  }
  EXPECT_EQ(State(), proto::RUNNING);
  EXPECT_EQ(coord_->Status().settled_version(), 0u);
  h = Current("w1", true, 5);
  h.set_view_version(0);  // acting on an old view
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(Beat(h).ok());
    coord_->Tick();
    Advance(absl::Seconds(2));
  }
  EXPECT_EQ(State(), proto::RUNNING);
}

TEST_F(DoneTest, DoneWhenTheBudgetIsSpent) {
  StartAndSeed(10);
  proto::HeartbeatRequest h = Current("w1", false, 0);
  h.set_wants_quota(true);
  proto::HeartbeatResponse r;
  ASSERT_TRUE(Beat(h, &r).ok());
  EXPECT_EQ(r.quota_granted(), 10);  // the minimum chunk, capped by the budget
  int64_t got = r.quota_granted();
  while (got < 10) {
    h = Current("w1", false, got);
    h.set_wants_quota(true);
    ASSERT_TRUE(Beat(h, &r).ok());
    ASSERT_GT(r.quota_granted(), 0);
    got += r.quota_granted();
  }
  EXPECT_EQ(got, 10);
  // Queued URLs left, no tokens: never idle, but quiet.
  h = Current("w1", false, 10);
  h.set_wants_quota(true);
  h.mutable_stats()->set_in_flight(1);
  ASSERT_TRUE(Beat(h).ok());
  coord_->Tick();
  Advance(absl::Seconds(2));
  ASSERT_TRUE(Beat(h).ok());
  coord_->Tick();
  EXPECT_EQ(State(), proto::RUNNING);  // a fetch in flight
  h.mutable_stats()->set_in_flight(0);
  ASSERT_TRUE(Beat(h).ok());
  coord_->Tick();
  Advance(absl::Seconds(2));
  ASSERT_TRUE(Beat(h).ok());
  coord_->Tick();
  EXPECT_EQ(State(), proto::DONE);
  EXPECT_EQ(coord_->Status().stop_reason(), "budget");
}

TEST_F(DoneTest, DoneWhenTimeIsUp) {
  proto::CrawlConfig c = BfsConfig(1000);
  c.mutable_budget()->set_max_seconds(60);
  ASSERT_TRUE(Start(c).ok());
  Advance(absl::Seconds(30));
  coord_->Tick();
  EXPECT_EQ(State(), proto::RUNNING);
  ASSERT_TRUE(Control(proto::ControlRequest::PAUSE).ok());
  Advance(absl::Seconds(30));
  coord_->Tick();
  EXPECT_EQ(State(), proto::DONE);
  EXPECT_EQ(coord_->Status().stop_reason(), "time");
}

// A worker restarted mid-crawl or after DONE reports smaller counters (or
// none): the crawl's totals do not go back, also after a coordinator restart.
TEST_F(CoordinatorTest, TotalsNeverGoBackwards) {
  ASSERT_TRUE(Register("w1", "127.0.0.1:9001").ok());
  ASSERT_TRUE(Register("w2", "127.0.0.1:9002").ok());
  ASSERT_TRUE(Start(BfsConfig(5000)).ok());
  proto::HeartbeatRequest h1 = Current("w1", false, 700);
  h1.mutable_stats()->set_on_topic(70);
  h1.mutable_stats()->set_errors(7);
  (*h1.mutable_stats()->mutable_errors_by_kind())["http_4xx"] = 7;
  h1.mutable_stats()->set_queued(300);
  h1.mutable_stats()->mutable_fetch_outcomes()->set_off_topic(600);
  h1.mutable_stats()->mutable_fetch_outcomes()->set_on_topic_hosts(4);
  ASSERT_TRUE(Beat(h1).ok());
  ASSERT_TRUE(Beat(Current("w2", false, 800)).ok());
  EXPECT_EQ(coord_->Status().pages_fetched(), 1500);
  // w1 restarts: its counters begin again.
  proto::HeartbeatRequest again = Current("w1", false, 0);
  again.mutable_stats()->set_queued(250);
  ASSERT_TRUE(Beat(again).ok());
  proto::StatusResponse st = coord_->Status();
  EXPECT_EQ(st.pages_fetched(), 1500);
  EXPECT_EQ(st.on_topic(), 70);
  EXPECT_EQ(st.errors(), 7);
  EXPECT_EQ(st.errors_by_kind().at("http_4xx"), 7);
  EXPECT_EQ(st.fetch_outcomes().off_topic(), 600);
  EXPECT_EQ(st.fetch_outcomes().on_topic_hosts(), 4);
  for (const proto::WorkerStatus& w : st.workers()) {
    if (w.member().name() == "w1") {
      EXPECT_EQ(w.stats().queued(), 250);  // a gauge: the new value
    }
  }
  // ...and passes them.
  ASSERT_TRUE(Beat(Current("w1", false, 720)).ok());
  EXPECT_EQ(coord_->Status().pages_fetched(), 1520);
  Reopen();
  EXPECT_EQ(coord_->Status().pages_fetched(), 1520);
  ASSERT_TRUE(Beat(Current("w2", false, 0)).ok());
  EXPECT_EQ(coord_->Status().pages_fetched(), 1520);
}

TEST_F(CoordinatorTest, RestartReloadsTheState) {
  ASSERT_TRUE(Register("w1", "127.0.0.1:9001").ok());
  ASSERT_TRUE(Register("w2", "127.0.0.1:9002").ok());
  ASSERT_TRUE(Register("w3", "127.0.0.1:9003").ok());
  ASSERT_TRUE(
      Start(BfsConfig(500), false, {"http://a.example/1", "http://a.example/2"})
          .ok());
  proto::HeartbeatRequest h = Current("w1", false, 4);
  h.set_wants_quota(true);
  proto::HeartbeatResponse r;
  ASSERT_TRUE(Beat(h, &r).ok());
  const int64_t granted = r.quota_granted();
  EXPECT_EQ(granted, 41);  // 500 / 12
  ASSERT_TRUE(Beat(Current("w2", true, 6)).ok());
  ASSERT_TRUE(Leave("w3").ok());
  const std::string id = crawl_id_;

  Advance(absl::Seconds(4));  // leases nearly over...
  Reopen();                   // ...but a restart renews them
  Advance(absl::Seconds(4));
  coord_->Tick();
  proto::StatusResponse st = coord_->Status();
  EXPECT_EQ(st.crawl_id(), id);
  EXPECT_EQ(st.state(), proto::RUNNING);
  EXPECT_EQ(st.budget(), 500);
  EXPECT_EQ(st.quota_granted(), granted);
  EXPECT_TRUE(st.labelled());
  EXPECT_EQ(st.pages_fetched(), 10);  // the figures came back too
  EXPECT_EQ(st.view().version(), 4u);
  ASSERT_EQ(st.workers_size(), 3);
  EXPECT_EQ(st.workers(0).member().address(), "127.0.0.1:9001");
  EXPECT_TRUE(st.workers(2).draining());
  EXPECT_EQ(st.workers(2).member().name(), "w3");
  // Members carry on without registering again.
  h = Current("w1", false, 4);
  h.set_crawl_id("");
  ASSERT_TRUE(Beat(h, &r).ok());
  EXPECT_EQ(r.crawl().crawl_id(), id);
  EXPECT_EQ(r.crawl().on_topic_urls_size(), 2);
  EXPECT_EQ(r.state(), proto::RUNNING);
  // Not twice in one folder.
  absl::StatusOr<std::unique_ptr<Coordinator>> second =
      Coordinator::Create(Options());
  EXPECT_FALSE(second.ok());
}

TEST_F(CoordinatorTest, StatusAndHistory) {
  ASSERT_TRUE(Register("w1", "127.0.0.1:9001").ok());
  ASSERT_TRUE(Register("w2", "127.0.0.1:9002").ok());
  ASSERT_TRUE(Start(BfsConfig(10000), false, {"http://a.example/"}).ok());
  for (int s = 0; s <= 10; ++s) {
    proto::HeartbeatRequest h1 = Current("w1", false, 10 * s);
    h1.mutable_stats()->set_queued(100);
    h1.mutable_stats()->set_on_topic(5 * s);
    proto::HeartbeatRequest h2 = Current("w2", false, 30 * s);
    h2.mutable_stats()->set_queued(50);
    h2.mutable_stats()->set_errors(s);
    ASSERT_TRUE(Beat(h1).ok());
    ASSERT_TRUE(Beat(h2).ok());
    coord_->Tick();
    if (s < 10) Advance(absl::Seconds(1));
  }
  proto::StatusResponse st = coord_->Status();
  EXPECT_EQ(st.pages_fetched(), 400);
  EXPECT_EQ(st.on_topic(), 50);
  EXPECT_EQ(st.errors(), 10);
  EXPECT_EQ(st.queued(), 150);
  EXPECT_TRUE(st.labelled());
  EXPECT_NEAR(st.pages_per_second(), 40.0, 1e-9);
  EXPECT_DOUBLE_EQ(st.elapsed_seconds(), 10.0);
  ASSERT_EQ(st.workers_size(), 2);
  EXPECT_EQ(st.workers(1).stats().pages_fetched(), 300);
  EXPECT_EQ(st.workers(1).lease_left_ms(), 5000);
  EXPECT_GT(st.coordinator_cpu_seconds(), 0);
  std::vector<StatusSample> history = coord_->history().Snapshot();
  ASSERT_EQ(history.size(), 11u);
  EXPECT_EQ(history.back().pages, 400);
  EXPECT_EQ(history.back().workers, 2);
  EXPECT_DOUBLE_EQ(history.back().seconds, 10.0);
  // A new crawl clears the history.
  ASSERT_TRUE(Start(BfsConfig(10), /*force=*/true).ok());
  EXPECT_THAT(coord_->history().Snapshot(), IsEmpty());
  EXPECT_EQ(coord_->Status().pages_fetched(), 0);
}

TEST_F(CoordinatorTest, SecondCoordinatorOnTheSameFolderIsRefused) {
  // A held database lock has one code everywhere (storage/rocks_status.h):
  // the same as a second LinkDb on one folder.
  absl::StatusOr<std::unique_ptr<Coordinator>> second =
      Coordinator::Create(Options());
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), absl::StatusCode::kFailedPrecondition)
      << second.status();
  EXPECT_THAT(std::string(second.status().message()),
              HasSubstr("another coordinator"));
}

TEST_F(CoordinatorTest, TickerRunsOnItsOwn) {
  // Real clock: a member that never heartbeats leaves after its lease, with
  // nobody calling Tick(). When it leaves is tested with the fake clock
  // above; here only that it does, so the wait is bounded generously (a
  // loaded machine may run the ticker late) and the lease is long enough
  // that the member is still there when it is first looked at.
  coord_.reset();
  CoordinatorOptions o = Options();
  o.now = nullptr;
  o.lease = absl::Seconds(2);
  o.tick = absl::Milliseconds(20);
  absl::StatusOr<std::unique_ptr<Coordinator>> c = Coordinator::Create(o);
  ASSERT_TRUE(c.ok()) << c.status();
  coord_ = *std::move(c);
  coord_->Start();
  ASSERT_TRUE(Register("w1", "127.0.0.1:9").ok());
  EXPECT_EQ(MemberNames().size(), 1u);
  const absl::Time give_up = absl::Now() + absl::Seconds(60);
  while (!MemberNames().empty() && absl::Now() < give_up) {
    absl::SleepFor(absl::Milliseconds(50));
  }
  EXPECT_THAT(MemberNames(), IsEmpty());
  coord_->Stop();
}

TEST_F(CoordinatorTest, ServesOverGrpcWithAToken) {
  cluster::RpcSecurity security;
  security.token = "0123456789abcdef-token";
  absl::StatusOr<std::unique_ptr<cluster::RpcServer>> server =
      cluster::RpcServer::Start("127.0.0.1:0", security, {coord_.get()});
  ASSERT_TRUE(server.ok()) << server.status();
  auto stub = proto::Coordinator::NewStub(
      cluster::MakeChannel((*server)->address(), security));
  proto::RegisterRequest req;
  req.set_name("w1");
  req.set_address("127.0.0.1:9");
  proto::RegisterResponse resp;
  {
    grpc::ClientContext ctx;
    cluster::PrepareContext(security, absl::Seconds(5), &ctx);
    grpc::Status s = stub->Register(&ctx, req, &resp);
    ASSERT_TRUE(s.ok()) << s.error_message();
  }
  EXPECT_EQ(resp.view().version(), 1u);
  {
    grpc::ClientContext ctx;
    cluster::RpcSecurity no_token;
    cluster::PrepareContext(no_token, absl::Seconds(5), &ctx);
    proto::StatusResponse st;
    EXPECT_EQ(stub->GetStatus(&ctx, proto::StatusRequest(), &st).error_code(),
              grpc::StatusCode::UNAUTHENTICATED);
  }
  grpc::ClientContext ctx;
  cluster::PrepareContext(security, absl::Seconds(5), &ctx);
  proto::StatusResponse st;
  ASSERT_TRUE(stub->GetStatus(&ctx, proto::StatusRequest(), &st).ok());
  ASSERT_EQ(st.workers_size(), 1);
  EXPECT_EQ(st.workers(0).member().name(), "w1");
  (*server)->Shutdown();
}

}  // namespace
}  // namespace fcrawl::coordinator
