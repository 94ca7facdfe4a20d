#include "crawlctl/crawlctl.h"

#include <cstdlib>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "cluster/rpc.h"
#include "core/test_temp_dir.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "proto/cluster.grpc.pb.h"

namespace fcrawl::crawlctl {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

// ------------------------------------------------------------ formatting

TEST(ProgressLineTest, Labelled) {
  proto::StatusResponse s;
  s.set_pages_fetched(1234);
  s.set_budget(10000);
  s.set_pages_per_second(42.14);
  s.set_on_topic(385);  // 385 / 1234 = 0.31199 -> 31.2%
  s.set_labelled(true);
  s.set_labelled_on_topic(346);  // 346 / 1234 = 0.28039 -> 28.0%
  for (int i = 0; i < 3; ++i) s.mutable_view()->add_members();
  s.set_queued(5678);
  s.set_state(proto::RUNNING);
  EXPECT_EQ(ProgressLine(s),
            "pages 1234/10000  42.1 pages/s  harvest 31.2% (labelled 28.0%)  "
            "workers 3  queue 5678  state RUNNING");
}

TEST(ProgressLineTest, NothingYet) {
  proto::StatusResponse s;
  s.set_state(proto::IDLE);
  EXPECT_EQ(
      ProgressLine(s),
      "pages 0  0.0 pages/s  harvest 0.0%  workers 0  queue 0  state IDLE");
}

proto::StatusResponse Finished() {
  proto::StatusResponse s;
  s.set_crawl_id("c-7");
  s.set_state(proto::DONE);
  s.set_stop_reason("budget");
  s.set_budget(400);
  s.set_pages_fetched(400);
  s.set_on_topic(100);  // 25.0%
  s.set_labelled(true);
  s.set_labelled_on_topic(80);  // 20.0%
  s.set_errors(7);              // 4 + 2 by kind, 1 other
  (*s.mutable_errors_by_kind())["timeout"] = 2;
  (*s.mutable_errors_by_kind())["http_4xx"] = 4;
  (*s.mutable_skipped())["robots"] = 3;
  (*s.mutable_skipped())["strategy"] = 12;
  // 400 URLs by outcome (on topic as above); redirected 0 is left out.
  proto::FetchOutcomeCounts* o = s.mutable_fetch_outcomes();
  o->set_on_topic(100);       // 25.0%
  o->set_off_topic(240);      // 60.0%
  o->set_not_found(40);       // 10.0%
  o->set_http_error(4);       // 1.0%
  o->set_transport_error(2);  // 0.5%
  o->set_robots(6);           // 1.5%
  o->set_not_html(8);         // 2.0%
  o->set_on_topic_hosts(12);
  s.set_elapsed_seconds(125);  // 2m 05s; 400 / 125 = 3.2 pages/s
  s.set_coordinator_cpu_seconds(0.5);
  s.mutable_view()->add_members()->set_name("w1");
  s.mutable_view()->add_members()->set_name("w2");
  // Listed out of order: the table sorts by name.
  proto::WorkerStatus* w2 = s.add_workers();
  w2->mutable_member()->set_name("w2");
  w2->mutable_stats()->set_pages_fetched(150);
  w2->mutable_stats()->set_hosts_owned(7);
  w2->mutable_stats()->set_links_routed(30);
  w2->mutable_stats()->set_links_accepted(40);
  w2->mutable_stats()->set_hosts_taken(5);
  w2->mutable_stats()->set_cpu_seconds(10);
  proto::WorkerStatus* w1 = s.add_workers();
  w1->mutable_member()->set_name("w1");
  w1->mutable_stats()->set_pages_fetched(250);
  w1->mutable_stats()->set_hosts_owned(10);
  w1->mutable_stats()->set_links_routed(60);
  w1->mutable_stats()->set_links_accepted(20);
  w1->mutable_stats()->set_hosts_handed_over(5);
  w1->mutable_stats()->set_cpu_seconds(9.5);
  return s;
}

TEST(SummaryTest, HandChecked) {
  // CPU: workers 10 + 9.5 = 19.5, cluster 20.0, coordinator 0.5 = 2.5%.
  EXPECT_EQ(Summary(Finished()),
            "crawl     c-7\n"
            "state     DONE (budget)\n"
            "pages     400 of a budget of 400\n"
            "on topic  100 (harvest 25.0%, 12 hosts)\n"
            "labelled  80 on topic (harvest 20.0%)\n"
            "errors    7 (http_4xx 4, timeout 2, other 1)\n"
            "skipped   15 (strategy 12, robots 3)\n"
            "outcomes  400: on topic 100 (25.0%), off topic 240 (60.0%), "
            "not found 40 (10.0%), http error 4 (1.0%), transport error 2 "
            "(0.5%), robots 6 (1.5%), not html 8 (2.0%)\n"
            "elapsed   2m 05s\n"
            "pages/s   3.2 average\n"
            "workers   2 in the view, 2 reporting\n"
            "\n"
            "worker  pages  hosts  links routed  links accepted  hosts taken  "
            "hosts handed over  CPU s\n"
            "w1        250     10            60              20            0  "
            "                5    9.5\n"
            "w2        150      7            30              40            5  "
            "                0   10.0\n"
            "\n"
            "coordinator CPU 0.50 s = 2.5% of the cluster's 20.00 s "
            "(coordinator + workers listed)\n");
}

// A worker paused by its own disk: named with its reason in the summary
// and the progress line (hostile bytes made printable), the others not.
TEST(SummaryTest, PausedWorkers) {
  proto::StatusResponse s = Finished();
  s.set_state(proto::RUNNING);
  s.clear_stop_reason();
  s.mutable_workers(0)->mutable_stats()->set_paused(
      "disk full on /data\x1b[2J: 3 MiB free (budget.min_free_disk_mb 256)");
  const std::string summary = Summary(s);
  EXPECT_THAT(summary,
              HasSubstr("paused    w2: disk full on /data?[2J: 3 MiB free "
                        "(budget.min_free_disk_mb 256)\n"));
  EXPECT_THAT(summary, Not(HasSubstr("w1: disk")));
  EXPECT_TRUE(absl::EndsWith(ProgressLine(s), "state RUNNING  paused w2"))
      << ProgressLine(s);
  EXPECT_THAT(Summary(Finished()), Not(HasSubstr("paused")));
  EXPECT_THAT(ProgressLine(Finished()), Not(HasSubstr("paused")));
}

TEST(SummaryTest, StatusesAndContentTypes) {
  proto::StatusResponse s = Finished();
  (*s.mutable_http_statuses())["200"] = 350;
  (*s.mutable_http_statuses())["404"] = 40;
  (*s.mutable_http_statuses())["none"] = 10;
  (*s.mutable_content_types())["text/html"] = 380;
  (*s.mutable_content_types())["application/pdf"] = 10;
  (*s.mutable_content_types())["bad\x1b"] = 10;
  const std::string summary = Summary(s);
  EXPECT_THAT(summary, HasSubstr("statuses  200 350, 404 40, none 10\n"));
  EXPECT_THAT(
      summary,
      HasSubstr("types     text/html 380, application/pdf 10, bad? 10\n"));
  EXPECT_THAT(Summary(Finished()), Not(HasSubstr("statuses")));
}

TEST(SummaryTest, NoCrawlAndHostileStrings) {
  proto::StatusResponse s;
  std::string summary = Summary(s);
  EXPECT_THAT(summary, HasSubstr("crawl     (none started)\n"));
  EXPECT_THAT(summary, HasSubstr("state     UNSPECIFIED\n"));
  EXPECT_THAT(summary, HasSubstr("errors    0\n"));
  // A coordinator (or workers) without fetch outcomes: zeros, no shares.
  EXPECT_THAT(summary, HasSubstr("on topic  0 (harvest 0.0%, 0 hosts)\n"));
  EXPECT_THAT(summary, HasSubstr("outcomes  0\n"));
  EXPECT_THAT(summary, HasSubstr("elapsed   0.0 s\n"));
  EXPECT_THAT(summary, HasSubstr("pages/s   0.0 average\n"));  // no 0/0
  EXPECT_THAT(summary, Not(HasSubstr("labelled")));
  EXPECT_THAT(summary, Not(HasSubstr("worker ")));
  EXPECT_TRUE(absl::EndsWith(summary, "coordinator CPU 0.00 s\n")) << summary;

  s.set_crawl_id("c\x1b[2J");
  s.add_workers()->mutable_member()->set_name("evil\x1b[31m\nname");
  (*s.mutable_errors_by_kind())["bad\rkind"] = 1;
  summary = Summary(s);
  EXPECT_THAT(summary, HasSubstr("c?[2J"));
  EXPECT_THAT(summary, HasSubstr("evil?[31m?name"));
  EXPECT_THAT(summary, HasSubstr("errors    1 (bad?kind 1)"));
  EXPECT_THAT(summary, Not(HasSubstr("\x1b")));
  EXPECT_THAT(summary, Not(HasSubstr("\r")));
}

TEST(SummaryTest, Durations) {
  proto::StatusResponse s;
  s.set_elapsed_seconds(3723.9);  // 1 h 2 min 3 s
  EXPECT_THAT(Summary(s), HasSubstr("elapsed   1h 02m 03s\n"));
  s.set_elapsed_seconds(59.94);
  EXPECT_THAT(Summary(s), HasSubstr("elapsed   59.9 s\n"));
}

TEST(ScaleReportTest, MembersDrainingMissing) {
  proto::ScaleResponse r;
  r.set_members(2);
  r.add_draining("w3");
  r.add_draining("w4");
  EXPECT_EQ(ScaleReport(r), "members 2\ndraining 2 (w3, w4)\nmissing 0\n");
  proto::ScaleResponse up;
  up.set_members(2);
  up.set_missing(2);
  EXPECT_EQ(ScaleReport(up),
            "members 2\ndraining none\nmissing 2\n"
            "hint: start 2 more workers with `deploy/cluster.sh add 2`\n");
  up.set_missing(1);
  EXPECT_THAT(ScaleReport(up),
              HasSubstr("start 1 more worker with `deploy/cluster.sh add 1`"));
}

TEST(StateNameTest, Names) {
  EXPECT_EQ(StateName(proto::STOPPING), "STOPPING");
  EXPECT_EQ(StateName(static_cast<proto::CrawlState>(42)), "UNKNOWN(42)");
}

// ------------------------------------------------------------- arguments

std::string ParseError(std::vector<std::string> args) {
  absl::StatusOr<Options> o = ParseArgs(args);
  if (o.ok()) return "parsed";
  EXPECT_EQ(o.status().code(), absl::StatusCode::kInvalidArgument);
  return std::string(o.status().message());
}

TEST(ParseArgsTest, Errors) {
  EXPECT_EQ(ParseError({}),
            "no command given (one of: start, watch, status, pause, resume, "
            "stop, scale, summary, export, corpus, push-ranks)");
  EXPECT_EQ(ParseError({"corpus"}), "corpus needs DIR");
  EXPECT_EQ(ParseError({"frobnicate"}), "unknown command 'frobnicate'");
  EXPECT_EQ(ParseError({"help", "frobnicate"}), "unknown command 'frobnicate'");
  EXPECT_EQ(ParseError({"start"}), "start needs CONFIG");
  EXPECT_EQ(ParseError({"scale"}), "scale needs N");
  EXPECT_EQ(ParseError({"scale", "0"}),
            "N must be an integer from 1 to 10000, not '0'");
  EXPECT_EQ(ParseError({"scale", "two"}),
            "N must be an integer from 1 to 10000, not 'two'");
  EXPECT_EQ(ParseError({"scale", "3", "4"}),
            "unexpected argument '4' after scale");
  EXPECT_EQ(ParseError({"status", "now"}),
            "unexpected argument 'now' after status");
  EXPECT_EQ(ParseError({"watch", "--json"}),
            "--json is not a flag of 'watch' (it is one of: status)");
  EXPECT_EQ(ParseError({"status", "--force"}),
            "--force is not a flag of 'status' (it is one of: start)");
  EXPECT_EQ(ParseError({"status", "--bogus"}), "unknown flag '--bogus'");
  EXPECT_EQ(ParseError({"status", "-x"}),
            "unknown flag '-x' (flags are --name or --name=value)");
  // Old kebab-case spellings get the snake_case name suggested.
  EXPECT_EQ(ParseError({"watch", "--interval-ms", "200"}),
            "unknown flag '--interval-ms' (did you mean --interval_ms? flag "
            "names are snake_case)");
  EXPECT_EQ(ParseError({"--token-file", "f", "status"}),
            "unknown flag '--token-file' (did you mean --token_file? flag "
            "names are snake_case)");
  // abseil's own flags are not crawlctl's.
  EXPECT_EQ(ParseError({"status", "--flagfile=/dev/null"}),
            "unknown flag '--flagfile'");
  EXPECT_EQ(ParseError({"watch", "--interval_ms"}),
            "--interval_ms needs a value");
  EXPECT_THAT(ParseError({"watch", "--interval_ms="}),
              StartsWith("--interval_ms: "));
  EXPECT_THAT(ParseError({"watch", "--interval_ms", "soon"}),
              StartsWith("--interval_ms: "));
  EXPECT_EQ(ParseError({"watch", "--interval_ms=10"}),
            "--interval_ms must be an integer from 50 to 3600000, not '10'");
  EXPECT_EQ(ParseError({"watch", "--timeout_s", "-1"}),
            "--timeout_s must be an integer from 0 to 31622400, not '-1'");
  EXPECT_THAT(ParseError({"status", "--json=maybe"}), StartsWith("--json: "));
  EXPECT_EQ(ParseError({"start", "c.txt", "--labels=", "--topic", "a"}),
            "--labels needs a value");
  EXPECT_EQ(ParseError({"start", "c.txt", "--labels", "l.tsv"}),
            "--labels and --topic go together");
  EXPECT_EQ(ParseError({"--token", "x", "--token_file", "f", "status"}),
            "give --token or --token_file, not both");
  EXPECT_EQ(ParseError({"push-ranks"}), "push-ranks needs RANKING");
  EXPECT_EQ(ParseError({"export"}), "export needs DIR");
  EXPECT_EQ(ParseError({"push-ranks", "r.tsv", "--batch", "0"}),
            "--batch must be an integer from 1 to 100000, not '0'");
  EXPECT_EQ(
      ParseError({"push-ranks", "r.tsv", "--crawl", std::string(65, 'c')}),
      "--crawl is over 64 bytes");
  EXPECT_EQ(ParseError({"export", "d", "--shard_pages", "0"}),
            "--shard_pages must be an integer from 1 to 100000000, not '0'");
  EXPECT_EQ(ParseError({"export", "d", "--pages", "3"}),
            "--pages is not a flag of 'export' (it is one of: push-ranks)");
  EXPECT_EQ(ParseError({"--coordinator", "nohost", "status"}),
            "--coordinator must be HOST:PORT, not 'nohost'");
}

// FCRAWL_COORDINATOR names the coordinator when --coordinator is not
// given; the flag wins when both are.
TEST(ParseArgsTest, CoordinatorFromTheEnvironment) {
  ASSERT_EQ(setenv("FCRAWL_COORDINATOR", "10.0.0.2:7200", 1), 0);
  absl::StatusOr<Options> o = ParseArgs({"status"});
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->coordinator, "10.0.0.2:7200");
  o = ParseArgs({"--coordinator", "10.0.0.1:7100", "status"});
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->coordinator, "10.0.0.1:7100");
  ASSERT_EQ(setenv("FCRAWL_COORDINATOR", "no-port", 1), 0);
  o = ParseArgs({"status"});
  EXPECT_FALSE(o.ok());
  EXPECT_THAT(std::string(o.status().message()),
              HasSubstr("FCRAWL_COORDINATOR must be HOST:PORT"));
  ASSERT_EQ(unsetenv("FCRAWL_COORDINATOR"), 0);
  o = ParseArgs({"status"});
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->coordinator, "127.0.0.1:7000");
}

TEST(ParseArgsTest, Values) {
  absl::StatusOr<Options> o = ParseArgs(
      {"--coordinator=10.0.0.1:7100", "start", "c.textproto", "--labels",
       "l.tsv", "--topic", "a, b", "--force", "--tls_ca", "ca.pem"});
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->command, Command::kStart);
  EXPECT_EQ(o->coordinator, "10.0.0.1:7100");
  EXPECT_EQ(o->config, "c.textproto");
  EXPECT_EQ(o->labels, "l.tsv");
  EXPECT_EQ(o->topic, "a, b");
  EXPECT_TRUE(o->force);
  EXPECT_EQ(o->tls_ca, "ca.pem");

  o = ParseArgs(
      {"watch", "--interval_ms", "200", "--timeout_s=5", "--token_file", "/t"});
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->command, Command::kWatch);
  EXPECT_EQ(o->coordinator, "127.0.0.1:7000");  // the default
  EXPECT_EQ(o->interval_ms, 200);
  EXPECT_EQ(o->timeout_s, 5);
  EXPECT_EQ(o->token_file, "/t");

  o = ParseArgs({"scale", "4"});
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o->workers, 4);
  o = ParseArgs({"status", "--json"});
  ASSERT_TRUE(o.ok());
  EXPECT_TRUE(o->json);
  for (const char* c : {"pause", "resume", "stop", "summary"}) {
    EXPECT_TRUE(ParseArgs({c}).ok()) << c;
  }
  // A second parse starts from the defaults, not the first one's flags.
  o = ParseArgs({"status"});
  ASSERT_TRUE(o.ok());
  EXPECT_FALSE(o->json);
  EXPECT_EQ(o->coordinator, "127.0.0.1:7000");
  o = ParseArgs({"status", "--json=false", "--nojson"});
  ASSERT_TRUE(o.ok());
  EXPECT_FALSE(o->json);

  o = ParseArgs({"status", "--help"});
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o->command, Command::kHelp);
  EXPECT_THAT(o->usage, AllOf(StartsWith("usage: crawlctl status"),
                              HasSubstr("--json"), HasSubstr("--coordinator")));
  o = ParseArgs({"help", "push-ranks"});
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o->command, Command::kHelp);
  EXPECT_THAT(o->usage, AllOf(StartsWith("usage: crawlctl push-ranks"),
                              HasSubstr("--batch"), Not(HasSubstr("--json"))));
}

// -------------------------------------------- commands, fake coordinator

constexpr char kToken[] = "0123456789abcdef-token";

class FakeCoordinator final : public proto::Coordinator::Service {
 public:
  // GetStatus answers script[i] on its i-th call, the last one after that.
  void SetScript(std::vector<proto::StatusResponse> script) {
    absl::MutexLock l(&mu_);
    script_ = std::move(script);
  }
  int status_calls() {
    absl::MutexLock l(&mu_);
    return status_calls_;
  }
  int start_calls() {
    absl::MutexLock l(&mu_);
    return start_calls_;
  }
  proto::StartCrawlRequest last_start() {
    absl::MutexLock l(&mu_);
    return last_start_;
  }
  proto::ControlRequest::Action last_action() {
    absl::MutexLock l(&mu_);
    return last_action_;
  }

  grpc::Status GetStatus(grpc::ServerContext*, const proto::StatusRequest*,
                         proto::StatusResponse* out) override {
    absl::MutexLock l(&mu_);
    if (!script_.empty()) {
      *out = script_[std::min<size_t>(status_calls_, script_.size() - 1)];
    }
    ++status_calls_;
    return grpc::Status::OK;
  }
  grpc::Status StartCrawl(grpc::ServerContext*,
                          const proto::StartCrawlRequest* in,
                          proto::StartCrawlResponse* out) override {
    absl::MutexLock l(&mu_);
    ++start_calls_;
    last_start_ = *in;
    if (!in->force()) {
      return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION,
                          "crawl c-1 is RUNNING");
    }
    out->set_crawl_id("c-42");
    return grpc::Status::OK;
  }
  grpc::Status Control(grpc::ServerContext*, const proto::ControlRequest* in,
                       proto::ControlResponse* out) override {
    absl::MutexLock l(&mu_);
    last_action_ = in->action();
    out->set_state(in->action() == proto::ControlRequest::PAUSE ? proto::PAUSED
                   : in->action() == proto::ControlRequest::STOP
                       ? proto::STOPPING
                       : proto::RUNNING);
    return grpc::Status::OK;
  }
  grpc::Status Scale(grpc::ServerContext*, const proto::ScaleRequest* in,
                     proto::ScaleResponse* out) override {
    out->set_members(2);
    out->set_missing(in->workers() - 2);
    return grpc::Status::OK;
  }
  grpc::Status PushRanks(grpc::ServerContext*,
                         const proto::PushRanksRequest* in,
                         proto::PushRanksResponse* out) override {
    absl::MutexLock l(&mu_);
    pushes_.push_back(*in);
    out->set_delivered(in->ranks_size());
    out->set_applied(in->ranks_size() - 1);
    out->set_requeued(1);
    return grpc::Status::OK;
  }
  grpc::Status ExportGraph(grpc::ServerContext*,
                           const proto::ExportGraphRequest* in,
                           proto::ExportGraphResponse* out) override {
    absl::MutexLock l(&mu_);
    last_export_ = *in;
    proto::WorkerExport* a = out->add_workers();
    a->set_name("w2");
    a->set_out_dir(in->out_dir() + "/w2");
    a->set_pages(7);
    a->set_links(30);
    proto::WorkerExport* b = out->add_workers();
    b->set_name("w1");
    b->set_out_dir(in->out_dir() + "/w1");
    if (export_fails_) {
      b->set_error("disk full");
    } else {
      b->set_pages(5);
      b->set_links(12);
    }
    return grpc::Status::OK;
  }
  std::vector<proto::PushRanksRequest> pushes() {
    absl::MutexLock l(&mu_);
    return pushes_;
  }
  proto::ExportGraphRequest last_export() {
    absl::MutexLock l(&mu_);
    return last_export_;
  }
  void set_export_fails(bool f) {
    absl::MutexLock l(&mu_);
    export_fails_ = f;
  }

 private:
  absl::Mutex mu_;
  std::vector<proto::StatusResponse> script_ ABSL_GUARDED_BY(mu_);
  int status_calls_ ABSL_GUARDED_BY(mu_) = 0;
  int start_calls_ ABSL_GUARDED_BY(mu_) = 0;
  proto::StartCrawlRequest last_start_ ABSL_GUARDED_BY(mu_);
  std::vector<proto::PushRanksRequest> pushes_ ABSL_GUARDED_BY(mu_);
  proto::ExportGraphRequest last_export_ ABSL_GUARDED_BY(mu_);
  bool export_fails_ ABSL_GUARDED_BY(mu_) = false;
  proto::ControlRequest::Action last_action_ ABSL_GUARDED_BY(mu_) =
      proto::ControlRequest::ACTION_UNSPECIFIED;
};

class RunTest : public ::testing::Test {
 protected:
  void SetUp() override {
    cluster::RpcSecurity security;
    security.token = kToken;
    auto server = cluster::RpcServer::Start("127.0.0.1:0", security, {&fake_});
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = *std::move(server);
  }

  // Runs `args` (the token added) and keeps stdout and stderr.
  int RunArgs(std::vector<std::string> args, RunOptions run = {}) {
    args.insert(args.begin(),
                {"--coordinator", server_->address(), "--token", kToken});
    absl::StatusOr<Options> o = ParseArgs(args);
    EXPECT_TRUE(o.ok()) << o.status();
    if (!o.ok()) return -1;
    out_.str("");
    err_.str("");
    run.rpc_timeout = absl::Seconds(5);
    return crawlctl::Run(*o, out_, err_, run);
  }

  std::string Write(const std::string& name, const std::string& text) {
    return tmp_dir_.Write(name, text);
  }

  file::TestTempDir tmp_dir_;
  FakeCoordinator fake_;
  std::unique_ptr<cluster::RpcServer> server_;
  std::ostringstream out_, err_;
};

proto::StatusResponse WithState(proto::CrawlState state, int64_t pages) {
  proto::StatusResponse s;
  s.set_crawl_id("c-42");
  s.set_state(state);
  s.set_budget(100);
  s.set_pages_fetched(pages);
  return s;
}

TEST_F(RunTest, StartSendsConfigAndOnTopicUrls) {
  const std::string config =
      Write("crawlctl_ok.textproto",
            "seeds: \"http://a.test/\"\nstrategy { name: \"bfs\" }\n");
  const std::string labels =
      Write("crawlctl_labels.tsv",
            "http://a.test/x.html\tsubject.Science.Physics\n"
            "http://A.test/b.html\tsubject.Science\n"
            "http://a.test/c.html\tsubject.Arts\n");
  EXPECT_EQ(RunArgs({"start", config, "--labels", labels, "--topic",
                     "subject.Science", "--force"}),
            kExitOk)
      << err_.str();
  EXPECT_EQ(out_.str(), "c-42\n");
  const proto::StartCrawlRequest sent = fake_.last_start();
  ASSERT_EQ(sent.config().seeds_size(), 1);
  EXPECT_EQ(sent.config().seeds(0), "http://a.test/");
  EXPECT_TRUE(sent.force());
  // Normalised (host lower-cased) and sorted.
  EXPECT_THAT(sent.on_topic_urls(),
              ElementsAre("http://a.test/b.html", "http://a.test/x.html"));
}

TEST_F(RunTest, StartSendsTheScopeFilesNames) {
  // The coordinator and the workers get the names, not a path that means
  // a file on this machine.
  const std::string hosts = Write("crawlctl_hosts.txt", "# sites\nb.test\n");
  const std::string config =
      Write("crawlctl_hosts.textproto",
            absl::StrCat("seeds: \"http://a.test/\"\n"
                         "strategy { name: \"bfs\" }\n"
                         "scope { allowed_hosts: \"a.test\" "
                         "allowed_hosts_file: \"",
                         hosts, "\" }\n"));
  EXPECT_EQ(RunArgs({"start", config, "--force"}), kExitOk) << err_.str();
  const proto::Scope sent = fake_.last_start().config().scope();
  EXPECT_THAT(sent.allowed_hosts(), ElementsAre("a.test", "b.test"));
  EXPECT_EQ(sent.allowed_hosts_file(), "");
}

TEST_F(RunTest, StartRefusals) {
  // A config that does not validate: nothing is sent, the file is named.
  const std::string bad =
      Write("crawlctl_bad.textproto", "budget { max_pages: 5 }\n");
  EXPECT_EQ(RunArgs({"start", bad}), kExitUsage);
  EXPECT_THAT(err_.str(), AllOf(HasSubstr("crawlctl: "), HasSubstr(bad),
                                HasSubstr("seed")));
  EXPECT_EQ(RunArgs({"start", "/nonexistent/c.textproto"}), kExitUsage);
  EXPECT_THAT(err_.str(), HasSubstr("/nonexistent/c.textproto"));

  const std::string config =
      Write("crawlctl_ok2.textproto",
            "seeds: \"http://a.test/\"\nstrategy { name: \"bfs\" }\n");
  const std::string labels =
      Write("crawlctl_labels2.tsv", "http://a.test/c.html\tsubject.Arts\n");
  EXPECT_EQ(RunArgs({"start", config, "--labels", labels, "--topic",
                     "subject.Science"}),
            kExitUsage);
  EXPECT_THAT(err_.str(), HasSubstr("has a label under 'subject.Science'"));
  EXPECT_EQ(RunArgs({"start", config, "--labels", labels, "--topic", " , "}),
            kExitUsage);
  EXPECT_THAT(err_.str(), HasSubstr("--topic"));
  EXPECT_EQ(fake_.start_calls(), 0);

  // The coordinator refuses: exit 1, the gRPC status named, a hint.
  EXPECT_EQ(RunArgs({"start", config}), kExitRpc);
  EXPECT_THAT(err_.str(),
              AllOf(HasSubstr("StartCrawl at 127.0.0.1:"),
                    HasSubstr("FAILED_PRECONDITION: crawl c-1 is RUNNING"),
                    HasSubstr("--force")));
  EXPECT_EQ(out_.str(), "");
}

TEST_F(RunTest, WrongTokenIsUnauthenticated) {
  absl::StatusOr<Options> o =
      ParseArgs({"--coordinator", server_->address(), "--token",
                 "0123456789abcdef-wrong", "status"});
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(crawlctl::Run(*o, out_, err_), kExitRpc);
  EXPECT_THAT(err_.str(), AllOf(HasSubstr("crawlctl: GetStatus at "),
                                HasSubstr("UNAUTHENTICATED")));
}

TEST_F(RunTest, StatusControlScale) {
  fake_.SetScript({Finished()});
  EXPECT_EQ(RunArgs({"status"}), kExitOk);
  EXPECT_EQ(out_.str(), Summary(Finished()));
  EXPECT_EQ(RunArgs({"summary"}), kExitOk);
  EXPECT_EQ(out_.str(), Summary(Finished()));
  EXPECT_EQ(RunArgs({"status", "--json"}), kExitOk);
  EXPECT_THAT(out_.str(), AllOf(HasSubstr("\"crawlId\": \"c-7\""),
                                HasSubstr("\"state\": \"DONE\""),
                                HasSubstr("\"pagesFetched\": \"400\"")));

  EXPECT_EQ(RunArgs({"pause"}), kExitOk);
  EXPECT_EQ(out_.str(), "state PAUSED\n");
  EXPECT_EQ(fake_.last_action(), proto::ControlRequest::PAUSE);
  EXPECT_EQ(RunArgs({"resume"}), kExitOk);
  EXPECT_EQ(out_.str(), "state RUNNING\n");
  EXPECT_EQ(RunArgs({"stop"}), kExitOk);
  EXPECT_EQ(out_.str(), "state STOPPING\n");
  EXPECT_EQ(fake_.last_action(), proto::ControlRequest::STOP);

  EXPECT_EQ(RunArgs({"scale", "5"}), kExitOk);
  EXPECT_THAT(out_.str(), HasSubstr("missing 3\nhint: start 3 more workers"));
}

TEST_F(RunTest, PushRanksInBatchesAsMeanOneRanks) {
  // Five pages; scores sum to 1, so R = 5·score.
  const std::string ranking =
      Write("crawlctl_ranking.tsv",
            "rank\turl\tscore\tpagerank\trelevance\tcombined\tfetched\n"
            "1\thttp://a.test/\t0.4\t0.3\t1\t0.9\t1\n"
            "2\thttp://a.test/b\t0.2\t0.2\t0\t0.3\t1\n"
            "3\thttp://b.test/\t0.2\t0.2\t0\t0.3\t1\n"
            "4\thttp://b.test/c\t0.1\t0.2\t0\t0.2\t0\n"
            "5\thttp://c.test/\t0.1\t0.1\t0\t0.2\t0\n");
  EXPECT_EQ(RunArgs({"push-ranks", ranking, "--batch", "2", "--crawl", "c-42"}),
            kExitOk)
      << err_.str();
  const std::vector<proto::PushRanksRequest> pushes = fake_.pushes();
  ASSERT_EQ(pushes.size(), 3u);  // 2 + 2 + 1
  EXPECT_EQ(pushes[0].crawl_id(), "c-42");
  EXPECT_EQ(pushes[0].ranks(0).url(), "http://a.test/");
  EXPECT_DOUBLE_EQ(pushes[0].ranks(0).rank(), 2.0);
  EXPECT_DOUBLE_EQ(pushes[1].ranks(1).rank(), 0.5);
  EXPECT_EQ(pushes[2].ranks(0).url(), "http://c.test/");
  EXPECT_EQ(out_.str(),
            "ranks 5 (N = 5)  delivered 5  applied 2  requeued 3\n");
  // A top-K file with the graph's size: R = 100·score.
  EXPECT_EQ(RunArgs({"push-ranks", ranking, "--pages", "100"}), kExitOk);
  EXPECT_DOUBLE_EQ(fake_.pushes().back().ranks(0).rank(), 40.0);
  // A file that is not a ranking: nothing is sent.
  const size_t before = fake_.pushes().size();
  EXPECT_EQ(RunArgs({"push-ranks", Write("crawlctl_bad.tsv", "x\ty\n")}),
            kExitUsage);
  EXPECT_THAT(err_.str(), HasSubstr("line 1"));
  EXPECT_EQ(RunArgs({"push-ranks", "/nonexistent/r.tsv"}), kExitUsage);
  EXPECT_EQ(fake_.pushes().size(), before);
}

TEST_F(RunTest, ExportReportsEveryWorker) {
  EXPECT_EQ(RunArgs({"export", "/data/g", "--shard_pages", "500"}), kExitOk)
      << err_.str();
  EXPECT_EQ(fake_.last_export().out_dir(), "/data/g");
  EXPECT_EQ(fake_.last_export().shard_pages(), 500);
  EXPECT_THAT(out_.str(),
              AllOf(HasSubstr("exported 12 pages and 42 links from 2 of 2"),
                    HasSubstr("ranker run --out ranking.tsv /data/g/w1 "
                              "/data/g/w2")));
  // A relative folder is made absolute here (the workers' working folders
  // are their own).
  EXPECT_EQ(RunArgs({"export", "rel/g"}), kExitOk);
  EXPECT_EQ(fake_.last_export().out_dir()[0], '/');
  EXPECT_THAT(fake_.last_export().out_dir(), HasSubstr("/rel/g"));
  // A worker that failed: reported, exit status 1.
  fake_.set_export_fails(true);
  EXPECT_EQ(RunArgs({"export", "/data/g"}), kExitRpc);
  EXPECT_THAT(out_.str(),
              AllOf(HasSubstr("disk full"), HasSubstr("from 1 of 2 workers")));
}

TEST_F(RunTest, CorpusAsksEveryWorkerForItsRecords) {
  EXPECT_EQ(RunArgs({"corpus", "/data/c"}), kExitOk) << err_.str();
  EXPECT_TRUE(fake_.last_export().corpus());
  EXPECT_EQ(fake_.last_export().out_dir(), "/data/c");
  EXPECT_THAT(out_.str(),
              AllOf(HasSubstr("exported the corpus records of 12 pages from 2 "
                              "of 2 workers"),
                    HasSubstr("worker corpus /data/c/w1 /data/c/w2 --out "
                              "corpus.jsonl")));
  EXPECT_EQ(RunArgs({"export", "/data/g"}), kExitOk);
  EXPECT_FALSE(fake_.last_export().corpus());
}

TEST_F(RunTest, WatchUntilDone) {
  fake_.SetScript({WithState(proto::RUNNING, 10), WithState(proto::RUNNING, 50),
                   WithState(proto::DONE, 100)});
  EXPECT_EQ(RunArgs({"watch", "--interval_ms", "50"}), kExitOk) << err_.str();
  const std::string out = out_.str();
  EXPECT_TRUE(absl::StartsWith(
      out,
      "pages 10/100  0.0 pages/s  harvest 0.0%  workers 0  queue 0  state "
      "RUNNING\n"
      "pages 50/100  0.0 pages/s  harvest 0.0%  workers 0  queue 0  state "
      "RUNNING\n"
      "pages 100/100  0.0 pages/s  harvest 0.0%  workers 0  queue 0  state "
      "DONE\n\n"))
      << out;
  EXPECT_THAT(out, HasSubstr("crawl     c-42\n"));
  EXPECT_EQ(err_.str(), "");
}

TEST_F(RunTest, WatchOnATerminalRewritesTheLine) {
  fake_.SetScript(
      {WithState(proto::RUNNING, 10), WithState(proto::STOPPED, 20)});
  RunOptions run;
  run.tty = true;
  EXPECT_EQ(RunArgs({"watch", "--interval_ms", "50"}, run), kExitOk);
  EXPECT_TRUE(absl::StartsWith(
      out_.str(),
      "\r\033[Kpages 10/100  0.0 pages/s  harvest 0.0%  workers 0  queue 0  "
      "state RUNNING"
      "\r\033[Kpages 20/100  0.0 pages/s  harvest 0.0%  workers 0  queue 0  "
      "state STOPPED\n\n"))
      << out_.str();
}

TEST_F(RunTest, WatchTimesOut) {
  fake_.SetScript({WithState(proto::RUNNING, 10)});
  const absl::Time start = absl::Now();
  EXPECT_EQ(RunArgs({"watch", "--interval_ms", "200", "--timeout_s", "1"}),
            kExitTimeout);
  // Time is the feature: watch gives up at its --timeout_s of 1 s, not
  // when the crawl ends (never, here). Load only lengthens the wait, so the
  // lower bound is tight and the upper one generous.
  const absl::Duration took = absl::Now() - start;
  EXPECT_GE(took, absl::Seconds(1));
  EXPECT_LT(took, absl::Seconds(30));
  EXPECT_EQ(err_.str(),
            "crawlctl: watch timed out after 1 s; the crawl is RUNNING\n");
  // At most 1000 / 200 + 1 polls, the last at the deadline: the interval is
  // kept. A loaded machine answers more slowly and polls fewer times, so
  // only one poll is certain.
  EXPECT_GE(fake_.status_calls(), 1);
  EXPECT_LE(fake_.status_calls(), 7);
}

TEST(RunUnreachableTest, WatchGivesUpAfterTheLimit) {
  // A port that was just free: nothing listens there.
  std::string address;
  {
    FakeCoordinator fake;
    auto server = cluster::RpcServer::Start("127.0.0.1:0", {}, {&fake});
    ASSERT_TRUE(server.ok());
    address = (*server)->address();
  }
  absl::StatusOr<Options> o =
      ParseArgs({"--coordinator", address, "watch", "--interval_ms", "100"});
  ASSERT_TRUE(o.ok());
  std::ostringstream out, err;
  RunOptions run;
  run.unreachable_limit = absl::Milliseconds(500);
  run.rpc_timeout = absl::Seconds(2);
  const absl::Time start = absl::Now();
  EXPECT_EQ(crawlctl::Run(*o, out, err, run), kExitRpc);
  // Time is the feature: watch gives up after its 500 ms of unreachable
  // coordinator instead of retrying forever. Generous for a loaded machine.
  EXPECT_LT(absl::Now() - start, absl::Seconds(30));
  EXPECT_EQ(out.str(), "");
  EXPECT_THAT(err.str(), AllOf(HasSubstr("UNAVAILABLE"), HasSubstr("retrying"),
                               HasSubstr("gave up after 500ms")));

  // status does not retry.
  o = ParseArgs({"--coordinator", address, "status"});
  ASSERT_TRUE(o.ok());
  std::ostringstream out2, err2;
  EXPECT_EQ(crawlctl::Run(*o, out2, err2, run), kExitRpc);
  EXPECT_THAT(err2.str(),
              HasSubstr("crawlctl: GetStatus at " + address + ": UNAVAILABLE"));
  // ...and says what to do next.
  EXPECT_THAT(err2.str(), HasSubstr("no coordinator answers at " + address +
                                    ": start one (deploy/cluster.sh start"));
  EXPECT_THAT(err.str(), HasSubstr("FCRAWL_COORDINATOR"));
}

TEST(RunSecurityTest, RefusesBadTokensBeforeSending) {
  std::ostringstream out, err;
  absl::StatusOr<Options> o = ParseArgs({"--token", "short", "status"});
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(crawlctl::Run(*o, out, err), kExitUsage);
  EXPECT_THAT(err.str(), HasSubstr("16 to 256 characters"));

  o = ParseArgs(
      {"--coordinator", "10.1.2.3:7000", "--token", kToken, "status"});
  ASSERT_TRUE(o.ok());
  std::ostringstream err2;
  EXPECT_EQ(crawlctl::Run(*o, out, err2), kExitUsage);
  EXPECT_THAT(err2.str(), HasSubstr("needs --tls_ca"));
}

TEST(RunHelpTest, PrintsUsage) {
  absl::StatusOr<Options> o = ParseArgs({"--help"});
  ASSERT_TRUE(o.ok());
  std::ostringstream out, err;
  EXPECT_EQ(crawlctl::Run(*o, out, err), kExitOk);
  EXPECT_THAT(out.str(), AllOf(StartsWith("usage: crawlctl COMMAND"),
                               HasSubstr("\n  push-ranks RANKING"),
                               HasSubstr("--token_file")));
  EXPECT_EQ(err.str(), "");
}

}  // namespace
}  // namespace fcrawl::crawlctl
