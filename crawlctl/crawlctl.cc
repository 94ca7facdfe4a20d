// crawlctl's command line and commands (crawlctl.h): the flags and
// ParseArgs, the coordinator client, and one Run* per command. What the
// commands print is formatted in crawlctl_output.cc.
#include "crawlctl/crawlctl.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <utility>

#include "absl/flags/flag.h"
#include "absl/flags/reflection.h"
#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/time/clock.h"
#include "cluster/ranks.h"
#include "cluster/rpc.h"
#include "core/cli.h"
#include "eval/crawl_eval.h"
#include "formats/crawl_config.h"
#include "google/protobuf/util/json_util.h"
#include "proto/cluster.grpc.pb.h"

// The flags (`crawlctl COMMAND --help`); ParseArgs reads them into Options.
ABSL_FLAG(std::string, coordinator, "127.0.0.1:7000",
          "the coordinator's gRPC address HOST:PORT (when not given: "
          "$FCRAWL_COORDINATOR if set, else this default)");
ABSL_FLAG(std::string, token, "", "the cluster token");
ABSL_FLAG(std::string, token_file, "",
          "a file whose first line is the cluster token (instead of --token)");
ABSL_FLAG(std::string, tls_ca, "", "PEM roots: talk TLS to the coordinator");
ABSL_FLAG(std::string, labels, "",
          "labels.tsv of a test web; with --topic, its URLs on the topic "
          "give the labelled harvest rate");
ABSL_FLAG(std::string, topic, "",
          "label prefixes of the topic, comma-separated (with --labels)");
ABSL_FLAG(bool, force, false, "replace a crawl that has not finished");
ABSL_FLAG(int64_t, interval_ms, 1000,
          "ms between progress lines, 50 to 3600000");
ABSL_FLAG(int64_t, timeout_s, 0,
          "give up (exit 3) after this many seconds; 0: wait for the end");
ABSL_FLAG(bool, json, false, "print the StatusResponse as JSON");
ABSL_FLAG(int64_t, pages, 0,
          "pages ranked, 1 to 4294967295 (needed when the file was cut with "
          "--top); 0: the lines of the file");
ABSL_FLAG(std::string, crawl, "",
          "the crawl the ranking is of (at most 64 bytes); \"\": the current "
          "one");
ABSL_FLAG(int64_t, batch, 10000, "ranks per PushRanks call, 1 to 100000");
ABSL_FLAG(int64_t, shard_pages, 0,
          "pages per shard file, 1 to 100000000; 0: the workers' default");

namespace fcrawl::crawlctl {

namespace {

// ------------------------------------------------------------- arguments

constexpr char kPushRanks[] = "push-ranks";

struct CommandName {
  const char* name;
  Command command;
};
constexpr CommandName kCommands[] = {
    {"start", Command::kStart},        {"watch", Command::kWatch},
    {"status", Command::kStatus},      {"pause", Command::kPause},
    {"resume", Command::kResume},      {"stop", Command::kStop},
    {"scale", Command::kScale},        {"summary", Command::kSummary},
    {kPushRanks, Command::kPushRanks}, {"export", Command::kExport},
    {"corpus", Command::kCorpus},
};

absl::Status Usage(absl::string_view message) {
  return absl::InvalidArgumentError(message);
}

absl::Status CheckRange(absl::string_view what, int64_t v, int64_t lo,
                        int64_t hi) {
  if (v < lo || v > hi) {
    return Usage(absl::StrCat(what, " must be an integer from ", lo, " to ", hi,
                              ", not '", v, "'"));
  }
  return absl::OkStatus();
}

absl::StatusOr<int64_t> ParseInt(absl::string_view what,
                                 absl::string_view value, int64_t lo,
                                 int64_t hi) {
  int64_t v = 0;
  if (!absl::SimpleAtoi(value, &v) || v < lo || v > hi) {
    return Usage(absl::StrCat(what, " must be an integer from ", lo, " to ", hi,
                              ", not '", value, "'"));
  }
  return v;
}

// ------------------------------------------------------------------- RPC

// What to do next when no coordinator answered: the usual cause is that
// none runs there.
std::string UnreachableHint(const grpc::Status& status,
                            const std::string& address) {
  if (status.error_code() != grpc::StatusCode::UNAVAILABLE) return "";
  return absl::StrCat("\n  no coordinator answers at ", address,
                      ": start one (deploy/cluster.sh start N starts a "
                      "coordinator and N workers), or name the running one "
                      "with --coordinator HOST:PORT or FCRAWL_COORDINATOR");
}

// "GetStatus from 127.0.0.1:7000: UNAVAILABLE: failed to connect ...",
// then, unless `hint` is false (watch's retry lines), UnreachableHint.
std::string RpcError(const grpc::Status& status, absl::string_view what,
                     const std::string& address, bool hint = true) {
  const auto code = static_cast<absl::StatusCode>(status.error_code());
  return absl::StrCat(what, " at ", address, ": ",
                      absl::StatusCodeToString(code), ": ",
                      Printable(status.error_message()),
                      hint ? UnreachableHint(status, address) : "");
}

class Client {
 public:
  Client(const Options& options, const cluster::RpcSecurity& security,
         absl::Duration timeout)
      : address_(options.coordinator),
        security_(security),
        timeout_(timeout),
        stub_(proto::Coordinator::NewStub(
            cluster::MakeChannel(options.coordinator, security))) {}

  grpc::Status GetStatus(proto::StatusResponse* response) {
    grpc::ClientContext context;
    cluster::PrepareContext(security_, timeout_, &context);
    return stub_->GetStatus(&context, proto::StatusRequest(), response);
  }
  grpc::Status StartCrawl(const proto::StartCrawlRequest& request,
                          proto::StartCrawlResponse* response) {
    grpc::ClientContext context;
    cluster::PrepareContext(security_, timeout_, &context);
    return stub_->StartCrawl(&context, request, response);
  }
  grpc::Status Control(const proto::ControlRequest& request,
                       proto::ControlResponse* response) {
    grpc::ClientContext context;
    cluster::PrepareContext(security_, timeout_, &context);
    return stub_->Control(&context, request, response);
  }
  grpc::Status Scale(const proto::ScaleRequest& request,
                     proto::ScaleResponse* response) {
    grpc::ClientContext context;
    cluster::PrepareContext(security_, timeout_, &context);
    return stub_->Scale(&context, request, response);
  }
  grpc::Status PushRanks(const proto::PushRanksRequest& request,
                         proto::PushRanksResponse* response) {
    grpc::ClientContext context;
    cluster::PrepareContext(security_, timeout_, &context);
    return stub_->PushRanks(&context, request, response);
  }
  grpc::Status ExportGraph(const proto::ExportGraphRequest& request,
                           absl::Duration timeout,
                           proto::ExportGraphResponse* response) {
    grpc::ClientContext context;
    cluster::PrepareContext(security_, timeout, &context);
    return stub_->ExportGraph(&context, request, response);
  }
  const std::string& address() const { return address_; }

 private:
  const std::string address_;
  const cluster::RpcSecurity security_;
  const absl::Duration timeout_;
  std::unique_ptr<proto::Coordinator::Stub> stub_;
};

bool Finished(proto::CrawlState state) {
  return state == proto::DONE || state == proto::STOPPED;
}

// ------------------------------------------------------------- commands

int RunStart(const Options& o, Client& client, std::ostream& out,
             std::ostream& err) {
  absl::StatusOr<proto::CrawlConfig> config =
      formats::LoadCrawlConfig(o.config);
  if (!config.ok()) {
    err << "crawlctl: " << config.status().message() << "\n";
    return kExitUsage;
  }
  proto::StartCrawlRequest request;
  *request.mutable_config() = *std::move(config);
  request.set_force(o.force);
  if (!o.labels.empty()) {
    absl::StatusOr<std::vector<std::string>> prefixes =
        eval::ParseTopic(o.topic);
    if (!prefixes.ok()) {
      err << "crawlctl: --topic: " << prefixes.status().message() << "\n";
      return kExitUsage;
    }
    absl::StatusOr<eval::Labels> labels = eval::ReadLabelsFile(o.labels);
    if (!labels.ok()) {
      err << "crawlctl: " << labels.status().message() << "\n";
      return kExitUsage;
    }
    absl::flat_hash_set<std::string> on_topic =
        eval::OnTopicUrls(*labels, *prefixes);
    if (on_topic.empty()) {
      // A labelled harvest rate over no URL would read 0% and mislead.
      err << "crawlctl: no URL of " << o.labels << " has a label under '"
          << o.topic << "'\n";
      return kExitUsage;
    }
    std::vector<std::string> urls(on_topic.begin(), on_topic.end());
    std::sort(urls.begin(), urls.end());
    for (std::string& u : urls) request.add_on_topic_urls(std::move(u));
  }
  proto::StartCrawlResponse response;
  grpc::Status s = client.StartCrawl(request, &response);
  if (!s.ok()) {
    err << "crawlctl: " << RpcError(s, "StartCrawl", client.address());
    if (s.error_code() == grpc::StatusCode::FAILED_PRECONDITION && !o.force) {
      err << " (--force replaces an unfinished crawl)";
    }
    err << "\n";
    return kExitRpc;
  }
  out << Printable(response.crawl_id()) << "\n";
  return kExitOk;
}

int RunStatus(const Options& o, Client& client, std::ostream& out,
              std::ostream& err) {
  proto::StatusResponse status;
  grpc::Status s = client.GetStatus(&status);
  if (!s.ok()) {
    err << "crawlctl: " << RpcError(s, "GetStatus", client.address()) << "\n";
    return kExitRpc;
  }
  if (o.json) {
    google::protobuf::util::JsonPrintOptions json;
    json.add_whitespace = true;
    json.always_print_primitive_fields = true;
    std::string text;
    if (!google::protobuf::util::MessageToJsonString(status, &text, json)
             .ok()) {
      err << "crawlctl: the status cannot be written as JSON\n";
      return kExitRpc;
    }
    out << text;
    if (!absl::EndsWith(text, "\n")) out << "\n";
  } else {
    out << Summary(status);
  }
  return kExitOk;
}

int RunControl(const Options& o, Client& client, std::ostream& out,
               std::ostream& err) {
  proto::ControlRequest request;
  request.set_action(o.command == Command::kPause ? proto::ControlRequest::PAUSE
                     : o.command == Command::kResume
                         ? proto::ControlRequest::RESUME
                         : proto::ControlRequest::STOP);
  proto::ControlResponse response;
  grpc::Status s = client.Control(request, &response);
  if (!s.ok()) {
    err << "crawlctl: " << RpcError(s, "Control", client.address()) << "\n";
    return kExitRpc;
  }
  out << "state " << StateName(response.state()) << "\n";
  return kExitOk;
}

int RunScale(const Options& o, Client& client, std::ostream& out,
             std::ostream& err) {
  proto::ScaleRequest request;
  request.set_workers(o.workers);
  proto::ScaleResponse response;
  grpc::Status s = client.Scale(request, &response);
  if (!s.ok()) {
    err << "crawlctl: " << RpcError(s, "Scale", client.address()) << "\n";
    return kExitRpc;
  }
  out << ScaleReport(response);
  return kExitOk;
}

int RunPushRanks(const Options& o, Client& client, std::ostream& out,
                 std::ostream& err) {
  absl::StatusOr<cluster::RankFile> file =
      cluster::ReadRankFile(o.ranking, o.pages);
  if (!file.ok()) {
    err << "crawlctl: " << file.status().message() << "\n";
    return kExitUsage;
  }
  for (size_t i = 0; i < file->pages.size(); ++i) {
    if (absl::Status s =
            cluster::CheckRankedPage(file->pages[i], static_cast<int>(i));
        !s.ok()) {
      err << "crawlctl: " << o.ranking << ": " << s.message() << "\n";
      return kExitUsage;
    }
  }
  proto::PushRanksResponse total;
  for (size_t b = 0; b < file->pages.size();
       b += static_cast<size_t>(o.batch)) {
    proto::PushRanksRequest request;
    request.set_crawl_id(o.crawl);
    const size_t e =
        std::min(file->pages.size(), b + static_cast<size_t>(o.batch));
    for (size_t i = b; i < e; ++i) *request.add_ranks() = file->pages[i];
    proto::PushRanksResponse response;
    grpc::Status s = client.PushRanks(request, &response);
    if (!s.ok()) {
      err << "crawlctl: " << RpcError(s, "PushRanks", client.address())
          << " (after " << total.delivered() << " of " << file->pages.size()
          << " ranks)\n";
      return kExitRpc;
    }
    total.set_delivered(total.delivered() + response.delivered());
    total.set_applied(total.applied() + response.applied());
    total.set_requeued(total.requeued() + response.requeued());
  }
  out << "ranks " << file->pages.size()
      << " (N = " << (o.pages > 0 ? o.pages : file->lines) << ")  delivered "
      << total.delivered() << "  applied " << total.applied() << "  requeued "
      << total.requeued() << "\n";
  return kExitOk;
}

int RunExport(const Options& o, Client& client, std::ostream& out,
              std::ostream& err, const RunOptions& run) {
  std::string dir = o.export_dir;
  if (dir.empty() || dir[0] != '/') {
    char cwd[4096];
    if (getcwd(cwd, sizeof(cwd)) == nullptr) {
      err << "crawlctl: cannot read the working folder to make " << dir
          << " absolute\n";
      return kExitUsage;
    }
    dir = absl::StrCat(cwd, "/", dir);
  }
  proto::ExportGraphRequest request;
  request.set_out_dir(dir);
  request.set_shard_pages(o.shard_pages);
  request.set_corpus(o.command == Command::kCorpus);
  proto::ExportGraphResponse response;
  grpc::Status s = client.ExportGraph(request, run.export_timeout, &response);
  if (!s.ok()) {
    err << "crawlctl: "
        << RpcError(s,
                    request.corpus() ? "corpus (ExportGraph)"
                                     : "export (ExportGraph)",
                    client.address())
        << "\n";
    return kExitRpc;
  }
  out << ExportReport(response, request.corpus());
  for (const proto::WorkerExport& w : response.workers()) {
    if (!w.error().empty()) return kExitRpc;
  }
  return kExitOk;
}

int RunWatch(const Options& o, Client& client, std::ostream& out,
             std::ostream& err, const RunOptions& run) {
  const absl::Time start = absl::Now();
  const absl::Time deadline = o.timeout_s > 0
                                  ? start + absl::Seconds(o.timeout_s)
                                  : absl::InfiniteFuture();
  absl::Time last_ok = start;  // the unreachable limit counts from here
  bool line_open = false;      // a progress line without its newline (TTY)
  std::string state = "none";
  auto close_line = [&] {
    if (line_open) {
      out << "\n";
      out.flush();
      line_open = false;
    }
  };
  for (;;) {
    const absl::Time round = absl::Now();
    proto::StatusResponse status;
    grpc::Status s = client.GetStatus(&status);
    if (s.ok()) {
      last_ok = absl::Now();
      state = StateName(status.state());
      if (run.tty) {
        out << "\r\033[K" << ProgressLine(status);
        line_open = true;
      } else {
        out << ProgressLine(status) << "\n";
      }
      out.flush();
      if (Finished(status.state())) {
        close_line();
        out << "\n" << Summary(status);
        return kExitOk;
      }
    } else {
      close_line();
      const std::string message =
          RpcError(s, "GetStatus", client.address(), /*hint=*/false);
      const bool transient =
          s.error_code() == grpc::StatusCode::UNAVAILABLE ||
          s.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED;
      if (!transient) {
        err << "crawlctl: " << message << "\n";
        return kExitRpc;
      }
      const absl::Duration down = absl::Now() - last_ok;
      if (down >= run.unreachable_limit) {
        err << "crawlctl: " << message << "; gave up after "
            << absl::FormatDuration(run.unreachable_limit)
            << UnreachableHint(s, client.address()) << "\n";
        return kExitRpc;
      }
      err << "crawlctl: " << message << " (retrying for "
          << absl::FormatDuration(
                 absl::Trunc(run.unreachable_limit - down, absl::Seconds(1)))
          << ")\n";
    }
    // One last look at the deadline itself, then give up.
    if (absl::Now() >= deadline) {
      close_line();
      err << "crawlctl: watch timed out after " << o.timeout_s
          << " s; the crawl is " << state << "\n";
      return kExitTimeout;
    }
    absl::SleepFor(
        std::min(round + absl::Milliseconds(o.interval_ms), deadline) -
        absl::Now());
  }
}

}  // namespace

const cli::Program& Cli() {
  static const auto* const kProgram = new cli::Program{
      "crawlctl",
      "The operator's command for a crawl cluster: starts a crawl from a "
      "config, watches its progress, pauses, resumes, stops, scales it and "
      "prints its summary, exports the crawled graph for the ranker and "
      "pushes the ranker's page ranks back, through the coordinator's gRPC "
      "service.",
      {"coordinator", "token", "token_file", "tls_ca"},
      {
          {"start",
           "CONFIG",
           1,
           1,
           "Checks the crawl config and starts the crawl; prints its id. "
           "--labels/--topic: URLs of the labels file on the topic give the "
           "labelled harvest rate. --force replaces a crawl that has not "
           "finished.",
           {"labels", "topic", "force"}},
          {"watch",
           "",
           0,
           0,
           "Shows progress until the crawl is DONE or STOPPED, then the "
           "summary.",
           {"interval_ms", "timeout_s"}},
          {"status",
           "",
           0,
           0,
           "The summary now (--json: the StatusResponse as JSON).",
           {"json"}},
          {"pause", "", 0, 0, "Pauses the crawl.", {}},
          {"resume", "", 0, 0, "Resumes a paused crawl.", {}},
          {"stop", "", 0, 0, "Stops the crawl.", {}},
          {"scale",
           "N",
           1,
           1,
           "Keeps N workers, 1 to 10000 (surplus ones hand their hosts "
           "over).",
           {}},
          {"summary", "", 0, 0, "The final summary.", {}},
          {"export",
           "DIR",
           1,
           1,
           "Every worker writes its part of the graph (running or finished "
           "crawl) as shards under DIR/<worker>; rank them with `ranker`.",
           {"shard_pages"}},
          {"corpus",
           "DIR",
           1,
           1,
           "Every worker writes its corpus records (pages.jsonl: main text, "
           "metadata, media, the on-topic decision; the latest per URL) as "
           "DIR/<worker>/pages.jsonl; merge, filter and export them with "
           "`worker corpus DIR/*/`, search them after `worker index`.",
           {}},
          {kPushRanks,
           "RANKING",
           1,
           1,
           "Sends the page scores of a `ranker run --out` file (TSV or JSON "
           "lines) to the workers owning the pages, as ranks R = N*score; "
           "topic-pagerank and url-rule re-score their queued URLs with "
           "them.",
           {"pages", "crawl", "batch"}},
      },
      "Exit status: 0 ok, 1 the coordinator failed or refused, 2 bad command "
      "line or input file, 3 watch timed out.",
  };
  return *kProgram;
}

absl::StatusOr<Options> ParseArgs(const std::vector<std::string>& args) {
  absl::StatusOr<cli::Invocation> inv = cli::Parse(Cli(), args);
  if (!inv.ok()) return inv.status();
  Options o;
  if (inv->help) {
    o.command = Command::kHelp;
    o.usage = cli::Usage(Cli(), inv->command);
    return o;
  }
  for (const CommandName& c : kCommands) {
    if (inv->command->name == c.name) o.command = c.command;
  }
  // A string flag given as --name= is a mistake, not a way to say "none".
  for (const char* name : {"coordinator", "token", "token_file", "tls_ca",
                           "labels", "topic", "crawl"}) {
    if (inv->Given(name) &&
        absl::FindCommandLineFlag(name)->CurrentValue().empty()) {
      return Usage(absl::StrCat("--", name, " needs a value"));
    }
  }
  o.coordinator = absl::GetFlag(FLAGS_coordinator);
  const char* from_env = std::getenv("FCRAWL_COORDINATOR");
  const bool use_env =
      !inv->Given("coordinator") && from_env != nullptr && *from_env != '\0';
  if (use_env) o.coordinator = from_env;
  if (o.coordinator.find(':') == std::string::npos) {
    return Usage(absl::StrCat(use_env ? "FCRAWL_COORDINATOR" : "--coordinator",
                              " must be HOST:PORT, not '", o.coordinator, "'"));
  }
  o.token = absl::GetFlag(FLAGS_token);
  o.token_file = absl::GetFlag(FLAGS_token_file);
  o.tls_ca = absl::GetFlag(FLAGS_tls_ca);
  o.labels = absl::GetFlag(FLAGS_labels);
  o.topic = absl::GetFlag(FLAGS_topic);
  o.force = absl::GetFlag(FLAGS_force);
  o.interval_ms = absl::GetFlag(FLAGS_interval_ms);
  o.timeout_s = absl::GetFlag(FLAGS_timeout_s);
  o.json = absl::GetFlag(FLAGS_json);
  o.pages = absl::GetFlag(FLAGS_pages);
  o.crawl = absl::GetFlag(FLAGS_crawl);
  o.batch = absl::GetFlag(FLAGS_batch);
  o.shard_pages = absl::GetFlag(FLAGS_shard_pages);
  // Bounds of the flags given (a default is in bounds or means "none").
  struct Bound {
    const char* name;
    int64_t value, lo, hi;
  };
  for (const Bound& b : {Bound{"interval_ms", o.interval_ms, 50, 3'600'000},
                         Bound{"timeout_s", o.timeout_s, 0, 366LL * 24 * 3600},
                         Bound{"pages", o.pages, 1, 4294967295LL},
                         Bound{"batch", o.batch, 1, 100000},
                         Bound{"shard_pages", o.shard_pages, 1, 100'000'000}}) {
    if (!inv->Given(b.name)) continue;
    if (absl::Status s =
            CheckRange(absl::StrCat("--", b.name), b.value, b.lo, b.hi);
        !s.ok()) {
      return s;
    }
  }
  if (o.crawl.size() > 64) return Usage("--crawl is over 64 bytes");

  const std::vector<std::string>& positionals = inv->args;
  if (o.command == Command::kStart) o.config = positionals[0];
  if (o.command == Command::kPushRanks) o.ranking = positionals[0];
  if (o.command == Command::kExport || o.command == Command::kCorpus) {
    o.export_dir = positionals[0];
    // Not "this folder": an export is written where it is asked to be.
    if (o.export_dir.empty()) {
      return Usage(
          absl::StrCat(o.command == Command::kExport ? "export" : "corpus",
                       " needs a folder, not \"\""));
    }
  }
  if (o.command == Command::kScale) {
    absl::StatusOr<int64_t> n = ParseInt("N", positionals[0], 1, 10000);
    if (!n.ok()) return n.status();
    o.workers = static_cast<int32_t>(*n);
  }
  if (!o.token.empty() && !o.token_file.empty()) {
    return Usage("give --token or --token_file, not both");
  }
  if (o.labels.empty() != o.topic.empty()) {
    return Usage("--labels and --topic go together");
  }
  return o;
}

int Run(const Options& o, std::ostream& out, std::ostream& err,
        const RunOptions& run) {
  if (o.command == Command::kHelp) {
    out << (o.usage.empty() ? cli::Usage(Cli()) : o.usage);
    return kExitOk;
  }
  absl::StatusOr<cluster::RpcSecurity> security =
      cluster::MakeSecurity(o.token, o.token_file, "", "", o.tls_ca);
  if (!security.ok()) {
    err << "crawlctl: " << security.status().message() << "\n";
    return kExitUsage;
  }
  if (!security->token.empty() && security->tls_ca_file.empty() &&
      !cluster::IsLoopbackAddress(o.coordinator)) {
    // The coordinator refuses a token without TLS off loopback anyway;
    // sending it would only leak it.
    err << "crawlctl: a token to the non-loopback coordinator " << o.coordinator
        << " needs --tls_ca (it would travel in clear)\n";
    return kExitUsage;
  }
  Client client(o, *security, run.rpc_timeout);
  switch (o.command) {
    case Command::kStart:
      return RunStart(o, client, out, err);
    case Command::kWatch:
      return RunWatch(o, client, out, err, run);
    case Command::kStatus:
    case Command::kSummary:
      return RunStatus(o, client, out, err);
    case Command::kPause:
    case Command::kResume:
    case Command::kStop:
      return RunControl(o, client, out, err);
    case Command::kScale:
      return RunScale(o, client, out, err);
    case Command::kPushRanks:
      return RunPushRanks(o, client, out, err);
    case Command::kExport:
    case Command::kCorpus:
      return RunExport(o, client, out, err, run);
    case Command::kHelp:
      break;
  }
  return kExitOk;
}

}  // namespace fcrawl::crawlctl
