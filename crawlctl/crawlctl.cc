#include "crawlctl/crawlctl.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <utility>

#include "absl/flags/flag.h"
#include "absl/flags/reflection.h"
#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
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
          "the coordinator's gRPC address HOST:PORT");
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

// ---------------------------------------------------------------- output

// Strings from the coordinator reach a terminal: no escape sequences.
std::string Printable(absl::string_view s) {
  std::string out(s);
  for (char& c : out) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) c = '?';
  }
  return out;
}

double Ratio(int64_t num, int64_t den) {
  return den > 0 ? static_cast<double>(num) / static_cast<double>(den) : 0.0;
}

std::string Percent(double ratio) {
  return absl::StrFormat("%.1f%%", 100 * ratio);
}

// "45.0 s", "3m 05s", "2h 03m 04s".
std::string Duration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) seconds = 0;
  if (seconds < 60) return absl::StrFormat("%.1f s", seconds);
  const int64_t s = static_cast<int64_t>(seconds);
  if (s < 3600) return absl::StrFormat("%dm %02ds", s / 60, s % 60);
  return absl::StrFormat("%dh %02dm %02ds", s / 3600, (s % 3600) / 60, s % 60);
}

const std::string& WorkerName(const proto::WorkerStatus& w) {
  return w.member().name().empty() ? w.stats().name() : w.member().name();
}

// Columns two spaces apart, no trailing blanks; the first left-aligned, the
// others right-aligned when `numbers` (else left-aligned too).
std::string Table(const std::vector<std::vector<std::string>>& rows,
                  bool numbers) {
  std::vector<size_t> width;
  for (const auto& row : rows) {
    if (width.size() < row.size()) width.resize(row.size(), 0);
    for (size_t i = 0; i < row.size(); ++i) {
      width[i] = std::max(width[i], row[i].size());
    }
  }
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      const std::string pad(width[i] - row[i].size(), ' ');
      if (i == 0) {
        absl::StrAppend(&line, row[i], pad);
      } else if (!numbers) {
        absl::StrAppend(&line, "  ", row[i], pad);
      } else {
        absl::StrAppend(&line, "  ", pad, row[i]);
      }
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    absl::StrAppend(&out, line, "\n");
  }
  return out;
}

// ------------------------------------------------------------------- RPC

// "GetStatus from 127.0.0.1:7000: UNAVAILABLE: failed to connect ...".
std::string RpcError(const grpc::Status& status, absl::string_view what,
                     const std::string& address) {
  const auto code = static_cast<absl::StatusCode>(status.error_code());
  return absl::StrCat(what, " at ", address, ": ",
                      absl::StatusCodeToString(code), ": ",
                      Printable(status.error_message()));
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
  proto::ExportGraphResponse response;
  grpc::Status s = client.ExportGraph(request, run.export_timeout, &response);
  if (!s.ok()) {
    err << "crawlctl: " << RpcError(s, "ExportGraph", client.address()) << "\n";
    return kExitRpc;
  }
  out << ExportReport(response);
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
      const std::string message = RpcError(s, "GetStatus", client.address());
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
            << absl::FormatDuration(run.unreachable_limit) << "\n";
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
  if (o.coordinator.find(':') == std::string::npos) {
    return Usage(absl::StrCat("--coordinator must be HOST:PORT, not '",
                              o.coordinator, "'"));
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
  if (o.command == Command::kExport) o.export_dir = positionals[0];
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

std::string StateName(proto::CrawlState state) {
  if (state == proto::CRAWL_STATE_UNSPECIFIED) return "UNSPECIFIED";
  if (proto::CrawlState_IsValid(state)) return proto::CrawlState_Name(state);
  return absl::StrCat("UNKNOWN(", static_cast<int>(state), ")");
}

std::string ProgressLine(const proto::StatusResponse& s) {
  std::string line = absl::StrCat("pages ", s.pages_fetched());
  if (s.budget() > 0) absl::StrAppend(&line, "/", s.budget());
  absl::StrAppend(&line, "  ", absl::StrFormat("%.1f", s.pages_per_second()),
                  " pages/s  harvest ",
                  Percent(Ratio(s.on_topic(), s.pages_fetched())));
  if (s.labelled()) {
    absl::StrAppend(&line, " (labelled ",
                    Percent(Ratio(s.labelled_on_topic(), s.pages_fetched())),
                    ")");
  }
  absl::StrAppend(&line, "  workers ", s.view().members_size(), "  queue ",
                  s.queued(), "  state ", StateName(s.state()));
  return line;
}

std::string Summary(const proto::StatusResponse& s) {
  std::vector<std::vector<std::string>> head;
  auto row = [&head](std::string key, std::string value) {
    head.push_back({std::move(key), std::move(value)});
  };
  row("crawl",
      s.crawl_id().empty() ? "(none started)" : Printable(s.crawl_id()));
  std::string state = StateName(s.state());
  if (!s.stop_reason().empty()) {
    absl::StrAppend(&state, " (", Printable(s.stop_reason()), ")");
  }
  row("state", state);
  row("pages", s.budget() > 0 ? absl::StrCat(s.pages_fetched(),
                                             " of a budget of ", s.budget())
                              : absl::StrCat(s.pages_fetched()));
  row("on topic",
      absl::StrCat(s.on_topic(), " (harvest ",
                   Percent(Ratio(s.on_topic(), s.pages_fetched())), ")"));
  if (s.labelled()) {
    row("labelled",
        absl::StrCat(s.labelled_on_topic(), " on topic (harvest ",
                     Percent(Ratio(s.labelled_on_topic(), s.pages_fetched())),
                     ")"));
  }
  // Errors by kind, most frequent first; errors counted without a kind
  // show as "other", as in /metrics.
  std::map<std::string, int64_t> kinds(s.errors_by_kind().begin(),
                                       s.errors_by_kind().end());
  int64_t by_kind = 0;
  for (const auto& [k, n] : kinds) by_kind += n;
  if (s.errors() > by_kind) kinds["other"] += s.errors() - by_kind;
  std::vector<std::pair<std::string, int64_t>> sorted(kinds.begin(),
                                                      kinds.end());
  std::stable_sort(
      sorted.begin(), sorted.end(),
      [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string errors = absl::StrCat(std::max(s.errors(), by_kind));
  if (!sorted.empty()) {
    std::vector<std::string> parts;
    for (const auto& [k, n] : sorted) {
      parts.push_back(absl::StrCat(Printable(k), " ", n));
    }
    absl::StrAppend(&errors, " (", absl::StrJoin(parts, ", "), ")");
  }
  row("errors", errors);
  row("elapsed", Duration(s.elapsed_seconds()));
  const double average =
      s.elapsed_seconds() > 0 ? s.pages_fetched() / s.elapsed_seconds() : 0;
  row("pages/s", absl::StrFormat("%.1f average", average));
  row("workers", absl::StrCat(s.view().members_size(), " in the view, ",
                              s.workers_size(), " reporting"));
  std::string out = Table(head, /*numbers=*/false);

  double workers_cpu = 0;
  if (s.workers_size() > 0) {
    std::vector<const proto::WorkerStatus*> workers;
    for (const proto::WorkerStatus& w : s.workers()) workers.push_back(&w);
    std::sort(workers.begin(), workers.end(), [](const auto* a, const auto* b) {
      return WorkerName(*a) < WorkerName(*b);
    });
    std::vector<std::vector<std::string>> rows = {
        {"worker", "pages", "hosts", "links routed", "links accepted",
         "hosts taken", "hosts handed over", "CPU s"}};
    for (const proto::WorkerStatus* w : workers) {
      const proto::WorkerStats& st = w->stats();
      workers_cpu += st.cpu_seconds();
      rows.push_back(
          {Printable(WorkerName(*w)), absl::StrCat(st.pages_fetched()),
           absl::StrCat(st.hosts_owned()), absl::StrCat(st.links_routed()),
           absl::StrCat(st.links_accepted()), absl::StrCat(st.hosts_taken()),
           absl::StrCat(st.hosts_handed_over()),
           absl::StrFormat("%.1f", st.cpu_seconds())});
    }
    absl::StrAppend(&out, "\n", Table(rows, /*numbers=*/true));
  }
  const double coordinator = s.coordinator_cpu_seconds();
  const double cluster = coordinator + workers_cpu;
  absl::StrAppend(&out, "\ncoordinator CPU ",
                  absl::StrFormat("%.2f s", coordinator));
  if (cluster > 0) {
    absl::StrAppend(
        &out, absl::StrFormat(" = %.1f%% of the cluster's %.2f s (coordinator "
                              "+ workers listed)",
                              100 * coordinator / cluster, cluster));
  }
  absl::StrAppend(&out, "\n");
  return out;
}

std::string ScaleReport(const proto::ScaleResponse& r) {
  std::string out = absl::StrCat("members ", r.members(), "\n");
  if (r.draining_size() == 0) {
    absl::StrAppend(&out, "draining none\n");
  } else {
    std::vector<std::string> names;
    for (const std::string& n : r.draining()) names.push_back(Printable(n));
    absl::StrAppend(&out, "draining ", r.draining_size(), " (",
                    absl::StrJoin(names, ", "), ")\n");
  }
  absl::StrAppend(&out, "missing ", r.missing(), "\n");
  if (r.missing() > 0) {
    absl::StrAppend(&out, "hint: start ", r.missing(), " more worker",
                    r.missing() == 1 ? "" : "s",
                    " with `deploy/cluster.sh add ", r.missing(), "`\n");
  }
  return out;
}

std::string ExportReport(const proto::ExportGraphResponse& r) {
  std::vector<const proto::WorkerExport*> workers;
  for (const proto::WorkerExport& w : r.workers()) workers.push_back(&w);
  std::sort(workers.begin(), workers.end(),
            [](const auto* a, const auto* b) { return a->name() < b->name(); });
  std::vector<std::vector<std::string>> rows = {
      {"worker", "pages", "links", "shards or error"}};
  std::vector<std::string> folders;
  int64_t pages = 0, links = 0;
  for (const proto::WorkerExport* w : workers) {
    const bool ok = w->error().empty();
    rows.push_back({Printable(w->name()), ok ? absl::StrCat(w->pages()) : "-",
                    ok ? absl::StrCat(w->links()) : "-",
                    Printable(ok ? w->out_dir() : w->error())});
    if (ok) {
      folders.push_back(Printable(w->out_dir()));
      pages += w->pages();
      links += w->links();
    }
  }
  std::string out = Table(rows, /*numbers=*/false);
  absl::StrAppend(&out, "\nexported ", pages, " pages and ", links,
                  " links from ", folders.size(), " of ", workers.size(),
                  " workers\n");
  if (!folders.empty()) {
    absl::StrAppend(&out, "rank with: ranker run --out ranking.tsv ",
                    absl::StrJoin(folders, " "), "\n");
  }
  return out;
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
      return RunExport(o, client, out, err, run);
    case Command::kHelp:
      break;
  }
  return kExitOk;
}

}  // namespace fcrawl::crawlctl
