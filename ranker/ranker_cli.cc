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

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "core/parallel.h"
#include "ranker/job.h"
#include "ranker/rank.h"

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

constexpr char kUsage[] =
    "usage: ranker run|round|output|info [flags] SHARDS...\n"
    "  --algorithm A        pagerank, quarkrank (default), blpr,\n"
    "                       topic-pagerank, url-rule\n"
    "  --checkpoint_dir D   checkpoint folder (needed by round and output)\n"
    "  --checkpoint_every N run: checkpoint every N rounds and the last (1)\n"
    "  --out F              ranked pages; --format tsv|jsonl (tsv)\n"
    "  --blocks_out F       ranked blocks (blpr)\n"
    "  --top K              only the best K pages/blocks (0: all)\n"
    "  --threads N          0: all cores (default); ranker-mpi: the cores\n"
    "                       divided by the processes on the machine\n"
    "  --max_rounds N (50)  --epsilon E (1e-6, L1 change of scores "
    "summing to 1)\n"
    "  --damping D          default 0.85 (0.8 for topic-pagerank)\n"
    "  --quark_weights content=1.5,related_links=0.5,navigation=0.5,"
    "noise=0.5,unspecified=0.5\n"
    "  --template_weight W  quarkrank: weight of links in blocks the site\n"
    "                       repeats on most pages (0: dropped; default 0)\n"
    "  --omega W (0.5) --lambda L (0.85)   topic-pagerank, [MMTOPIC] 3.7/3.11\n"
    "  --combine_weight C   the ∂ of S = ∂·relevance + (1−∂)·rank (0.4)\n"
    "  --unknown keep|drop  link targets without a record (keep: dangling)\n"
    "  --max_links_per_page N (100000) --max_blocks_per_page N (100000)\n"
    "  --max_record_mb N (64)\n"
    "  --fresh              run: ignore an existing checkpoint\n"
    "  --no_graph_cache     rebuild the graph from the shards; by default it\n"
    "                       is kept in CHECKPOINT_DIR/graph.fcgc and reused\n"
    "                       while the shards and graph options are the same\n"
    "  --quiet              no progress on stderr\n";

int Usage(const std::string& why) {
  if (g_process != 0) return 2;
  std::fprintf(stderr, "ranker: %s\n%s", why.c_str(), kUsage);
  return 2;
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
      "\"blocks_over_limit\":%d,\"fingerprint\":\"%016x\","
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
      r.fingerprint, r.start_round, r.round, r.rounds_run,
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
  if (argc < 2) return Usage("missing command");
  const std::string command = argv[1];
  if (command == "--help" || command == "-h" || command == "help") {
    if (g_process == 0) std::fputs(kUsage, stdout);
    return 0;
  }
  if (command != "run" && command != "round" && command != "output" &&
      command != "info") {
    return Usage("unknown command " + command);
  }
  JobOptions o;
  o.graph.algorithm = Algorithm::kQuarkRank;
  bool quiet = false;
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--", 0) != 0) {
      o.inputs.push_back(a);
      continue;
    }
    std::string name = a.substr(2), value;
    bool has_value = false;
    if (const size_t eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      has_value = true;
    }
    if (name == "fresh" || name == "quiet") {
      if (has_value) return Usage("--" + name + " takes no value");
      (name == "fresh" ? o.fresh : quiet) = true;
      continue;
    }
    if (name == "no_graph_cache") {
      if (has_value) return Usage("--" + name + " takes no value");
      o.graph_cache = false;
      continue;
    }
    if (!has_value) {
      if (i + 1 >= argc) return Usage("--" + name + " needs a value");
      value = argv[++i];
    }
    auto int_flag = [&](int64_t* out) {
      return absl::SimpleAtoi(value, out) && *out >= 0;
    };
    auto double_flag = [&](double* out) {
      return absl::SimpleAtod(value, out) && std::isfinite(*out);
    };
    int64_t n = 0;
    bool ok = true;
    if (name == "shards") {
      o.inputs.push_back(value);
    } else if (name == "algorithm") {
      absl::StatusOr<Algorithm> alg = ParseAlgorithm(value);
      if (!alg.ok()) return Usage(std::string(alg.status().message()));
      o.graph.algorithm = *alg;
    } else if (name == "checkpoint_dir") {
      o.checkpoint_dir = value;
    } else if (name == "checkpoint_every") {
      ok = int_flag(&n) && n >= 1 && n <= 1000000;
      o.checkpoint_every = static_cast<int>(n);
    } else if (name == "out") {
      o.out = value;
    } else if (name == "blocks_out") {
      o.blocks_out = value;
    } else if (name == "format") {
      absl::StatusOr<OutputFormat> f = ParseOutputFormat(value);
      if (!f.ok()) return Usage(std::string(f.status().message()));
      o.output.format = *f;
    } else if (name == "top") {
      ok = int_flag(&o.output.top);
    } else if (name == "threads") {
      ok = int_flag(&n) && n <= 1024;
      o.rank.threads = static_cast<int>(n);
      o.graph.threads = o.rank.threads;
    } else if (name == "max_rounds") {
      ok = int_flag(&n) && n <= 1000000;
      o.rank.max_rounds = static_cast<int>(n);
    } else if (name == "epsilon") {
      ok = double_flag(&o.rank.epsilon) && o.rank.epsilon >= 0;
    } else if (name == "damping") {
      ok = double_flag(&o.rank.damping) && o.rank.damping >= 0 &&
           o.rank.damping < 1;
    } else if (name == "quark_weights") {
      ok = ParseQuarkWeights(value, &o.graph.quark_weights);
    } else if (name == "template_weight") {
      ok =
          double_flag(&o.graph.template_weight) && o.graph.template_weight >= 0;
    } else if (name == "omega") {
      ok = double_flag(&o.graph.topic_omega) && o.graph.topic_omega >= 0 &&
           o.graph.topic_omega <= 1;
    } else if (name == "lambda") {
      ok = double_flag(&o.graph.topic_lambda) && o.graph.topic_lambda >= 0 &&
           o.graph.topic_lambda <= 1;
    } else if (name == "combine_weight") {
      ok = double_flag(&o.output.combine_weight) &&
           o.output.combine_weight >= 0 && o.output.combine_weight <= 1;
    } else if (name == "unknown") {
      ok = value == "keep" || value == "drop";
      o.graph.unknown =
          value == "drop" ? UnknownTargets::kDrop : UnknownTargets::kKeep;
    } else if (name == "max_links_per_page") {
      ok = int_flag(&o.graph.max_links_per_page);
    } else if (name == "max_blocks_per_page") {
      ok = int_flag(&o.graph.max_blocks_per_page);
    } else if (name == "max_record_mb") {
      ok = int_flag(&n) && n >= 1 && n <= 1024;
      o.graph.max_record_bytes = static_cast<size_t>(n) << 20;
    } else {
      return Usage("unknown flag --" + name);
    }
    if (!ok) return Usage("bad value for --" + name + ": " + value);
  }
  if (o.inputs.empty()) return Usage("no shards given");
  if ((command == "round" || command == "output") && o.checkpoint_dir.empty()) {
    return Usage(command + " needs --checkpoint_dir");
  }
  if (!o.blocks_out.empty() && o.graph.algorithm != Algorithm::kBlpr) {
    return Usage("--blocks_out needs --algorithm=blpr");
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
  return 0;
}

}  // namespace fcrawl::ranker
