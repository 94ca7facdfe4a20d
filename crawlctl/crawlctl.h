// crawlctl: the operator's command for a crawl cluster (docs/design.md "Local
// cluster and scale"): start a crawl from a config, watch its progress,
// pause, resume, stop, scale the number of workers and print the summary,
// export the crawled graph for the ranker and push the ranker's page ranks
// back, all through the coordinator's gRPC service (proto/cluster.proto).
//
//   crawlctl COMMAND [--coordinator 127.0.0.1:7000]
//            [--token T | --token_file F] [--tls_ca F] [flags] [ARGS]
//
// The command line is core/cli.h's (`crawlctl --help`, `crawlctl help
// COMMAND`); the commands and flags are written once, in Cli().
//
// The pieces are here, apart from main(), so tests check the argument
// parsing, the text a person reads and whole commands against a fake
// coordinator.
//
// Without --coordinator, $FCRAWL_COORDINATOR names the coordinator (else
// 127.0.0.1:7000).
//
// Exit statuses: 0 success; 1 the coordinator refused or could not be
// reached (the message names the gRPC status, e.g. UNAUTHENTICATED, and,
// when nothing answered, how to start one or name the running one);
// 2 the command line or a file it names is wrong (nothing was sent);
// 3 `watch --timeout_s` ran out before the crawl finished. `export` exits 1
// when any worker failed to export (the others' shards are written).
//
// Thread-safety: the functions are thread-safe; Run blocks.
#ifndef FCRAWL_CRAWLCTL_CRAWLCTL_H_
#define FCRAWL_CRAWLCTL_CRAWLCTL_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "core/cli.h"
#include "proto/cluster.pb.h"

namespace fcrawl::crawlctl {

inline constexpr int kExitOk = 0;
inline constexpr int kExitRpc = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitTimeout = 3;

// ---------------------------------------------------------------------------
// The command line (crawlctl.cc).
// ---------------------------------------------------------------------------

enum class Command {
  kHelp,  // --help / -h / help [COMMAND]: print the usage
  kStart,
  kWatch,
  kStatus,
  kPause,
  kResume,
  kStop,
  kScale,
  kSummary,
  kPushRanks,
  kExport,
  kCorpus,
};

// The parsed command line (defaults as listed).
struct Options {
  // Global flags.
  std::string coordinator = "127.0.0.1:7000";  // host:port of its gRPC port
  std::string token;                           // cluster token
  std::string token_file;                      // or its first line
  std::string tls_ca;                          // PEM roots: connect with TLS

  Command command = Command::kHelp;
  std::string usage;  // kHelp: the usage to print (of a command or all)

  // start CONFIG [--labels FILE --topic PREFIXES] [--force]
  std::string config;
  std::string labels;  // labels.tsv of a test web
  std::string topic;   // "subject.Science, subject.Arts"
  bool force = false;  // replace an unfinished crawl

  // watch [--interval_ms 1000] [--timeout_s 0]
  int64_t interval_ms = 1000;  // 50 .. 3,600,000
  int64_t timeout_s = 0;       // 0 = wait for the end

  // status [--json]
  bool json = false;

  // scale N
  int32_t workers = 0;  // 1 .. 10,000

  // push-ranks RANKING [--pages N] [--crawl ID] [--batch 10000]
  std::string ranking;    // a `ranker run --out` file (TSV or JSON lines)
  int64_t pages = 0;      // pages ranked (0: the lines of the file)
  std::string crawl;      // the crawl the ranking is of ("" = current)
  int64_t batch = 10000;  // ranks per PushRanks call, 1 .. 100,000

  // export DIR [--shard_pages N]
  std::string export_dir;   // made absolute against the working folder
  int64_t shard_pages = 0;  // 0: the workers' default
};

// The commands and their flags (abseil flags defined in crawlctl.cc).
const cli::Program& Cli();

// Parses the arguments after argv[0] with cli::Parse (which sets the
// process-wide flags: call from one thread). Flags are `--name value` or
// `--name=value` and may come before or after the command; a flag that does
// not belong to the command is an error. InvalidArgument names the problem
// (unknown command or flag, missing or extra argument, value out of range,
// --labels without --topic, both --token and --token_file).
absl::StatusOr<Options> ParseArgs(const std::vector<std::string>& args);

// ---------------------------------------------------------------------------
// What the commands print (crawlctl_output.cc).
// ---------------------------------------------------------------------------

// `s` with control characters (below 0x20, and 0x7f) replaced by '?':
// strings from the coordinator reach a terminal, so no escape sequences.
std::string Printable(absl::string_view s);

// "RUNNING"; "UNKNOWN(9)" for a value this build does not know.
std::string StateName(proto::CrawlState state);

// The one-line progress report of `watch`:
// "pages 1234/10000  42.1 pages/s  harvest 31.2% (labelled 28.0%)  workers 3
// queue 5678  state RUNNING" (without "/budget" when there is no budget and
// without the labelled part when no labels were given). Workers are the
// members of the current view.
std::string ProgressLine(const proto::StatusResponse& status);

// The summary of `status`, `summary` and the end of `watch`: crawl id,
// state and stop reason, pages, on-topic pages, harvest rates and on-topic
// hosts, errors by kind, URLs not fetched by reason, the fetch outcomes
// (each class with its count and share, cluster/outcomes.h), elapsed time,
// average pages/s, a table of the workers (pages, hosts, links routed/accepted,
// hosts taken/handed over, CPU seconds) and the coordinator's CPU time and
// share of the cluster's. Strings from the coordinator have control characters
// replaced by '?' (they reach a terminal). Ends with a newline.
std::string Summary(const proto::StatusResponse& status);

// What `scale` prints: members, draining workers, missing workers and, when
// some are missing, how to start them with deploy/cluster.sh.
std::string ScaleReport(const proto::ScaleResponse& response);

// What `export` prints: a line per worker (pages, links, folder or error)
// and the shard folders to give the ranker.
// `corpus`: the report of `crawlctl corpus` (pages and files, no links).
std::string ExportReport(const proto::ExportGraphResponse& response,
                         bool corpus = false);

// ---------------------------------------------------------------------------
// Running a command (crawlctl.cc).
// ---------------------------------------------------------------------------

// Knobs of Run that tests shorten.
struct RunOptions {
  absl::Duration rpc_timeout = absl::Seconds(10);     // per call
  absl::Duration export_timeout = absl::Minutes(10);  // ExportGraph
  // `watch` keeps retrying an unreachable coordinator this long.
  absl::Duration unreachable_limit = absl::Seconds(30);
  // `watch` rewrites one line in place ("\r" + clear to end of line) when
  // true, else prints one line per interval.
  bool tty = false;
};

// Runs the command: results on `out`, errors as "crawlctl: <message>" on
// `err`. Returns the exit status (kExit*).
int Run(const Options& options, std::ostream& out, std::ostream& err,
        const RunOptions& run = {});

}  // namespace fcrawl::crawlctl

#endif  // FCRAWL_CRAWLCTL_CRAWLCTL_H_
