// The ranker's command line, shared by `ranker` and `ranker-mpi`; see
// ranker_cli.h.
#include "ranker/ranker_cli.h"

#include <malloc.h>
#include <signal.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "core/cli.h"
#include "core/parallel.h"
#include "ranker/job.h"
#include "ranker/rank.h"

// The defaults are the option structs' (job.h, rank.h, graph.h,
// output.h), written there once; quarkrank is the CLI's own default.
ABSL_FLAG(std::vector<std::string>, shards, {},
          "shard files or folders, comma-separated, besides SHARDS");
ABSL_FLAG(std::string, algorithm, "quarkrank",
          "pagerank, quarkrank, blpr, topic-pagerank, url-rule or "
          "topic-quarkrank (QuarkRank with links and jumps weighted by "
          "the pages' relevance to the crawl's topic)");
ABSL_FLAG(std::string, checkpoint_dir, "",
          "checkpoint folder (needed by round and output)");
ABSL_FLAG(int, checkpoint_every, fcrawl::ranker::JobOptions().checkpoint_every,
          "run: checkpoint every N rounds and the last");
ABSL_FLAG(std::string, out, "", "file of the ranked pages");
ABSL_FLAG(std::string, format, "tsv", "format of --out: tsv or jsonl");
ABSL_FLAG(std::string, blocks_out, "", "file of the ranked blocks (blpr)");
ABSL_FLAG(int64_t, top, fcrawl::ranker::OutputOptions().top,
          "only the best K pages/blocks (0: all)");
ABSL_FLAG(int, threads, fcrawl::ranker::RankOptions().threads,
          "0 to 1024; 0: all cores; ranker-mpi: the cores divided by the "
          "processes on the machine");
ABSL_FLAG(int, max_rounds, fcrawl::ranker::RankOptions().max_rounds,
          "at most this many rounds");
ABSL_FLAG(double, epsilon, fcrawl::ranker::RankOptions().epsilon,
          "converged when the L1 change of the scores (summing to 1) is "
          "below this");
ABSL_FLAG(double, damping, fcrawl::ranker::RankOptions().damping,
          "in [0, 1); -1: 0.85, or 0.8 for topic-pagerank");
ABSL_FLAG(std::string, quark_weights, "",
          "(topic-)quarkrank link weights by block type, e.g. "
          "content=1.5,related_links=0.5,"
          "navigation=0.5,noise=0.5,unspecified=0.5 (the defaults); types "
          "left out keep theirs");
ABSL_FLAG(double, template_weight,
          fcrawl::ranker::GraphOptions().template_weight,
          "quarkrank, topic-quarkrank: weight of links in blocks the site "
          "repeats on most pages (0: dropped)");
ABSL_FLAG(double, omega, fcrawl::ranker::GraphOptions().topic_omega,
          "topic-pagerank: omega of [MMTOPIC] 3.7, in [0, 1]");
ABSL_FLAG(double, lambda, fcrawl::ranker::GraphOptions().topic_lambda,
          "topic-pagerank: lambda of [MMTOPIC] 3.11, in [0, 1]");
ABSL_FLAG(double, combine_weight,
          fcrawl::ranker::OutputOptions().combine_weight,
          "the weight d of S = d*relevance + (1-d)*rank, in [0, 1]");
ABSL_FLAG(std::string, unknown, "keep",
          "link targets without a record: keep (dangling pages) or drop");
ABSL_FLAG(int64_t, max_links_per_page,
          fcrawl::ranker::GraphOptions().max_links_per_page,
          "links of a page past this are dropped");
ABSL_FLAG(int64_t, max_blocks_per_page,
          fcrawl::ranker::GraphOptions().max_blocks_per_page,
          "blocks of a page past this are dropped");
ABSL_FLAG(int64_t, max_record_mb,
          static_cast<int64_t>(fcrawl::graphio::kDefaultMaxRecordBytes >> 20),
          "a larger shard record fails the build, 1 to 1024");
ABSL_FLAG(bool, fresh, false, "run: ignore an existing checkpoint");
ABSL_FLAG(bool, no_graph_cache, false,
          "rebuild the graph from the shards; by default it is kept in "
          "CHECKPOINT_DIR/graph.fcgc and reused while the shards and graph "
          "options are the same");
ABSL_FLAG(bool, quiet, false, "no progress on stderr");

namespace fcrawl::ranker {

using ::fcrawl::parallel::EffectiveThreads;

namespace {

std::atomic<bool> g_stop{false};
// This process's rank under ranker-mpi (0 otherwise): only process 0 prints
// the usage, the progress and the summary.
int g_process = 0;

void OnSignal(int) {
  if (g_stop.exchange(true)) _exit(130);  // a second signal: leave now
}

const cli::Program& Cli() {
  static const auto* const kProgram = new cli::Program{
      "ranker",
      "Block-level link analysis over graph shards, as batch jobs. SHARDS "
      "are shard files or folders of *.fcg files. A JSON summary goes to "
      "stdout, progress to stderr. SIGINT or SIGTERM stops `run` after the "
      "current round (its checkpoint is kept; exit status 130). ranker-mpi "
      "takes the same commands and flags.",
      {"shards",
       "algorithm",
       "checkpoint_dir",
       "checkpoint_every",
       "out",
       "format",
       "blocks_out",
       "top",
       "threads",
       "max_rounds",
       "epsilon",
       "damping",
       "quark_weights",
       "template_weight",
       "omega",
       "lambda",
       "combine_weight",
       "unknown",
       "max_links_per_page",
       "max_blocks_per_page",
       "max_record_mb",
       "fresh",
       "no_graph_cache",
       "quiet"},
      {
          {"run",
           "SHARDS...",
           0,
           -1,
           "Rounds until converged or --max_rounds, then the outputs; with "
           "--checkpoint_dir every round is checkpointed and a run that was "
           "interrupted resumes.",
           {}},
          {"round",
           "SHARDS...",
           0,
           -1,
           "Exactly one round from the last checkpoint (needs "
           "--checkpoint_dir).",
           {}},
          {"output",
           "SHARDS...",
           0,
           -1,
           "The outputs of the last checkpoint (needs --checkpoint_dir).",
           {}},
          {"info",
           "SHARDS...",
           0,
           -1,
           "Builds the graph and prints its counts.",
           {}},
      },
      "Exit status: 0 done, 1 runtime error, 2 usage error, 130 stopped.",
  };
  return *kProgram;
}

int Usage(const std::string& why, const cli::Command* command = nullptr) {
  if (g_process != 0) return cli::kExitUsage;
  return cli::UsageError(Cli(), why, command);
}

bool ParseQuarkWeights(absl::string_view spec, QuarkWeights* w) {
  static constexpr absl::string_view kNames[] = {
      "unspecified", "content", "related_links", "navigation", "noise"};
  for (absl::string_view item : absl::StrSplit(spec, ',', absl::SkipEmpty())) {
    std::pair<absl::string_view, absl::string_view> kv =
        absl::StrSplit(item, absl::MaxSplits('=', 1));
    size_t i = 0;
    while (i < 5 && kNames[i] != kv.first) ++i;
    double v;
    if (i == 5 || !absl::SimpleAtod(kv.second, &v) || !(v >= 0) ||
        !std::isfinite(v)) {
      return false;
    }
    (*w)[i] = v;
  }
  return true;
}

std::string Json(const std::string& command, const JobOptions& o,
                 const JobReport& r) {
  const GraphStats& s = r.stats;
  std::string l1;
  for (const auto& [name, v] : r.l1) {
    absl::StrAppend(&l1, l1.empty() ? "" : ",", "\"", name, "\":",
                    std::isfinite(v) ? absl::StrFormat("%.3g", v) : "null");
  }
  const double eps = r.round_seconds > 0
                         ? static_cast<double>(r.edge_visits) / r.round_seconds
                         : 0;
  return absl::StrFormat(
      "{\"command\":\"%s\",\"algorithm\":\"%s\",\"processes\":%d,"
      "\"exchange_bytes\":%d,\"shards\":%d,"
      "\"records\":%d,\"pages\":%d,\"fetched_pages\":%d,"
      "\"unknown_pages\":%d,\"links\":%d,\"blocks\":%d,"
      "\"duplicate_pages\":%d,\"invalid_pages\":%d,\"links_read\":%d,"
      "\"links_over_limit\":%d,\"links_empty_url\":%d,"
      "\"links_dropped_unknown\":%d,\"self_links\":%d,"
      "\"duplicate_links\":%d,\"bad_block_links\":%d,"
      "\"blocks_over_limit\":%d,\"aliases\":%d,\"fingerprint\":\"%016x\","
      "\"start_round\":%d,\"round\":%d,\"rounds_run\":%d,\"resumed\":%s,"
      "\"converged\":%s,\"l1\":{%s},\"load_seconds\":%.3f,"
      "\"graph_from_cache\":%s,"
      "\"round_seconds\":%.3f,\"edge_visits_per_second\":%.0f,"
      "\"graph_bytes\":%d,\"graph_bytes_per_link\":%.2f}",
      command, AlgorithmName(o.graph.algorithm), r.processes, r.exchange_bytes,
      s.shards, s.records, r.pages, r.pages - s.unknown_pages, s.unknown_pages,
      r.edges, r.blocks, s.duplicate_pages, s.invalid_pages, s.links_read,
      s.links_over_limit, s.links_empty_url, s.links_dropped_unknown,
      s.self_links, s.duplicate_links, s.bad_block_links, s.blocks_over_limit,
      s.aliases, r.fingerprint, r.start_round, r.round, r.rounds_run,
      r.resumed ? "true" : "false", r.converged ? "true" : "false", l1,
      r.load_seconds, r.graph_from_cache ? "true" : "false", r.round_seconds,
      eps, r.graph_bytes,
      r.edges > 0 ? static_cast<double>(r.graph_bytes) / r.edges : 0.0);
}

}  // namespace

int RankerMain(int argc, char** argv, Exchange* exchange) {
  // Large buffers (graph arrays, chunks freed while the graph is built) are
  // mapped and unmapped on their own. By default glibc raises this threshold
  // after the first large free and then serves such buffers from the heap,
  // where freed ones keep counting in the resident set.
  mallopt(M_MMAP_THRESHOLD, 1 << 20);
  g_process = exchange != nullptr ? exchange->rank() : 0;
  absl::StatusOr<cli::Invocation> inv =
      cli::Parse(Cli(), std::vector<std::string>(argv + 1, argv + argc));
  if (!inv.ok()) return Usage(std::string(inv.status().message()));
  if (inv->help) {
    if (g_process == 0)
      std::fputs(cli::Usage(Cli(), inv->command).c_str(), stdout);
    return 0;
  }
  const std::string command = inv->command->name;
  auto usage = [&](const std::string& why) { return Usage(why, inv->command); };
  JobOptions o;
  o.inputs = inv->args;
  for (const std::string& s : absl::GetFlag(FLAGS_shards)) {
    o.inputs.push_back(s);
  }
  absl::StatusOr<Algorithm> algorithm =
      ParseAlgorithm(absl::GetFlag(FLAGS_algorithm));
  if (!algorithm.ok()) return usage(std::string(algorithm.status().message()));
  o.graph.algorithm = *algorithm;
  o.checkpoint_dir = absl::GetFlag(FLAGS_checkpoint_dir);
  o.checkpoint_every = absl::GetFlag(FLAGS_checkpoint_every);
  if (o.checkpoint_every < 1 || o.checkpoint_every > 1000000) {
    return usage("--checkpoint_every must be a number in [1, 1000000]");
  }
  o.out = absl::GetFlag(FLAGS_out);
  o.blocks_out = absl::GetFlag(FLAGS_blocks_out);
  absl::StatusOr<OutputFormat> format =
      ParseOutputFormat(absl::GetFlag(FLAGS_format));
  if (!format.ok()) return usage(std::string(format.status().message()));
  o.output.format = *format;
  o.output.top = absl::GetFlag(FLAGS_top);
  if (o.output.top < 0) return usage("--top must not be negative");
  o.rank.threads = absl::GetFlag(FLAGS_threads);
  if (o.rank.threads < 0 || o.rank.threads > 1024) {
    return usage("--threads must be a number in [0, 1024]");
  }
  o.graph.threads = o.rank.threads;
  o.rank.max_rounds = absl::GetFlag(FLAGS_max_rounds);
  if (o.rank.max_rounds < 0 || o.rank.max_rounds > 1000000) {
    return usage("--max_rounds must be a number in [0, 1000000]");
  }
  o.rank.epsilon = absl::GetFlag(FLAGS_epsilon);
  if (!(o.rank.epsilon >= 0) || !std::isfinite(o.rank.epsilon)) {
    return usage("--epsilon must be a number of at least 0");
  }
  o.rank.damping = absl::GetFlag(FLAGS_damping);
  if (inv->Given("damping") && !(o.rank.damping >= 0 && o.rank.damping < 1)) {
    return usage("--damping must be a number in [0, 1)");
  }
  if (!ParseQuarkWeights(absl::GetFlag(FLAGS_quark_weights),
                         &o.graph.quark_weights)) {
    return usage(
        "--quark_weights must be TYPE=WEIGHT,... with TYPE one of "
        "content, related_links, navigation, noise, unspecified and "
        "WEIGHT a number of at least 0");
  }
  auto fraction = [](double v, double* out) {
    *out = v;
    return v >= 0 && v <= 1;
  };
  o.graph.template_weight = absl::GetFlag(FLAGS_template_weight);
  if (!(o.graph.template_weight >= 0) ||
      !std::isfinite(o.graph.template_weight)) {
    return usage("--template_weight must be a number of at least 0");
  }
  if (!fraction(absl::GetFlag(FLAGS_omega), &o.graph.topic_omega)) {
    return usage("--omega must be a number in [0, 1]");
  }
  if (!fraction(absl::GetFlag(FLAGS_lambda), &o.graph.topic_lambda)) {
    return usage("--lambda must be a number in [0, 1]");
  }
  if (!fraction(absl::GetFlag(FLAGS_combine_weight),
                &o.output.combine_weight)) {
    return usage("--combine_weight must be a number in [0, 1]");
  }
  const std::string unknown = absl::GetFlag(FLAGS_unknown);
  if (unknown != "keep" && unknown != "drop") {
    return usage("--unknown must be keep or drop, not '" + unknown + "'");
  }
  o.graph.unknown =
      unknown == "drop" ? UnknownTargets::kDrop : UnknownTargets::kKeep;
  o.graph.max_links_per_page = absl::GetFlag(FLAGS_max_links_per_page);
  o.graph.max_blocks_per_page = absl::GetFlag(FLAGS_max_blocks_per_page);
  if (o.graph.max_links_per_page < 0 || o.graph.max_blocks_per_page < 0) {
    return usage(
        "--max_links_per_page and --max_blocks_per_page must not be "
        "negative");
  }
  const int64_t max_record_mb = absl::GetFlag(FLAGS_max_record_mb);
  if (max_record_mb < 1 || max_record_mb > 1024) {
    return usage("--max_record_mb must be a number in [1, 1024]");
  }
  o.graph.max_record_bytes = static_cast<size_t>(max_record_mb) << 20;
  o.fresh = absl::GetFlag(FLAGS_fresh);
  o.graph_cache = !absl::GetFlag(FLAGS_no_graph_cache);
  const bool quiet = absl::GetFlag(FLAGS_quiet);
  if (o.inputs.empty()) return usage("no shards given");
  if ((command == "round" || command == "output") && o.checkpoint_dir.empty()) {
    return usage(command + " needs --checkpoint_dir");
  }
  if (!o.blocks_out.empty() && o.graph.algorithm != Algorithm::kBlpr) {
    return usage("--blocks_out needs --algorithm=blpr");
  }
  if (command == "info") {
    o.rank.max_rounds = 0;
    o.checkpoint_dir.clear();
    o.out.clear();
    o.blocks_out.clear();
  }
  if (exchange != nullptr) {
    o.exchange = exchange;
    if (o.rank.threads == 0) {
      // The processes on a machine share its cores.
      o.rank.threads = std::max(
          1, EffectiveThreads(0) / std::max(1, exchange->local_size()));
      o.graph.threads = o.rank.threads;
    }
  }
  if (!quiet && g_process == 0) {
    o.on_round = [](const RoundReport& r) {
      std::string l1;
      for (const auto& [name, v] : r.l1) {
        absl::StrAppend(&l1, " ", name, " ", absl::StrFormat("%.3g", v));
      }
      std::fprintf(stderr, "ranker: round %d: L1%s (%.3f s, %.0f M edges/s)\n",
                   static_cast<int>(r.round), l1.c_str(), r.seconds,
                   r.seconds > 0 ? r.edge_visits / r.seconds / 1e6 : 0.0);
    };
  }
  o.stop = [] { return g_stop.load(); };
  struct sigaction sa = {};
  sa.sa_handler = OnSignal;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  // mpirun kills the job soon after it forwards SIGINT/SIGTERM, but passes
  // SIGUSR1 on alone: `kill -USR1 <mpirun>` stops the job cleanly.
  if (exchange != nullptr) sigaction(SIGUSR1, &sa, nullptr);

  absl::StatusOr<JobReport> r = command == "round"    ? RoundJob(o)
                                : command == "output" ? OutputJob(o)
                                                      : RunJob(o);
  if (!r.ok()) {
    // Every process reports: the errors are agreed (job.h), so all fail.
    const std::string who =
        exchange == nullptr
            ? "ranker"
            : absl::StrFormat("ranker (process %d of %d)", exchange->rank(),
                              exchange->size());
    std::fprintf(stderr, "%s: %s\n", who.c_str(),
                 std::string(r.status().message()).c_str());
    return 1;
  }
  if (!r->graph_cache_problem.empty()) {
    // Not progress: without it every round would rebuild, unexplained.
    std::fprintf(stderr, "ranker: graph cache: %s\n",
                 r->graph_cache_problem.c_str());
  }
  if (g_process == 0) std::printf("%s\n", Json(command, o, *r).c_str());
  if (r->stopped && g_process == 0) {
    std::fprintf(stderr,
                 "ranker: stopped after round %d; run again to resume\n",
                 static_cast<int>(r->round));
  }
  if (r->stopped) return 130;
  if (g_process == 0 && command != "round" && !r->converged &&
      !(o.out.empty() && o.blocks_out.empty())) {
    // The scores are written either way (a ranking of round N is still a
    // ranking), but one that has not settled should not pass for final.
    std::string l1;
    for (const auto& [name, v] : r->l1) {
      absl::StrAppend(&l1, l1.empty() ? "" : ", ", name, " ",
                      absl::StrFormat("%.3g", v));
    }
    std::fprintf(stderr,
                 "ranker: warning: the ranking written is of round %d, which "
                 "has not converged (L1 change of the last round: %s; "
                 "converged below %g): run more rounds (deploy/rank.sh round "
                 "or run, or a higher --max_rounds) and write it again\n",
                 static_cast<int>(r->round), l1.c_str(), o.rank.epsilon);
  }
  return 0;
}

}  // namespace fcrawl::ranker
