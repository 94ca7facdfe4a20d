#include "ranker/job.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "graphio/shard.h"
#include "ranker/checkpoint.h"
#include "ranker/graph_cache.h"

namespace fcrawl::ranker {

using ::fcrawl::graphio::ListShards;

namespace {

enum class Mode { kRun, kRound, kOutput };

// With an exchange, loading (options, shards, graph, checkpoint) may fail on
// some processes only. The processes agree on its outcome once, at Pass(),
// before any round, so that none waits in a round's collectives for one
// that has given up; a job that fails before reaching Pass() passes its
// error there on the way out (Job).
class LoadGate {
 public:
  explicit LoadGate(Exchange* exchange) : exchange_(exchange) {}
  bool passed() const { return passed_; }
  absl::Status Pass(const absl::Status& local) {
    passed_ = true;
    return exchange_ != nullptr ? exchange_->AgreeStatus(local) : local;
  }

 private:
  Exchange* const exchange_;
  bool passed_ = false;
};

absl::StatusOr<JobReport> JobSteps(const JobOptions& o, Mode mode,
                                   LoadGate* gate) {
  if (mode != Mode::kRun && o.checkpoint_dir.empty()) {
    return absl::InvalidArgumentError("this command needs a checkpoint folder");
  }
  if (o.rank.max_rounds < 0 || !(o.rank.epsilon >= 0)) {
    return absl::InvalidArgumentError("max_rounds and epsilon must be >= 0");
  }
  if (!(o.rank.damping < 1)) {
    return absl::InvalidArgumentError("damping must be below 1");
  }
  JobReport report;
  report.processes = o.exchange != nullptr ? o.exchange->size() : 1;
  const absl::Time t0 = absl::Now();
  absl::StatusOr<std::vector<std::string>> paths = ListShards(o.inputs);
  if (!paths.ok()) return paths.status();
  if (paths->empty()) {
    return absl::NotFoundError("no shard files (*.fcg) in the input");
  }
  absl::StatusOr<std::unique_ptr<Graph>> graph =
      o.checkpoint_dir.empty() || !o.graph_cache
          ? BuildGraph(*paths, o.graph)
          : LoadOrBuildGraph(*paths, o.graph, GraphCachePath(o.checkpoint_dir),
                             &report.graph_from_cache,
                             &report.graph_cache_problem,
                             // One writer for the processes of an MPI job.
                             o.exchange == nullptr || o.exchange->rank() == 0);
  if (!graph.ok()) return graph.status();
  const Graph& g = **graph;
  report.load_seconds = absl::ToDoubleSeconds(absl::Now() - t0);
  report.stats = g.stats;
  report.pages = g.num_pages;
  report.edges = g.num_edges();
  // The blocks read with the pages (at most --max_blocks_per_page each):
  // only BLPR keeps them in the graph, but every algorithm read them, and
  // quarkrank weighs links by their blocks' types.
  report.blocks = static_cast<uint64_t>(g.stats.blocks);
  report.fingerprint = g.fingerprint;
  report.graph_bytes = g.MemoryBytes();

  if (o.exchange != nullptr && o.exchange->size() > 1) {
    // Each process visits only its slice's edges: the rest is memory it
    // need not hold (in_src, in_weight, out_dst: 4–8 bytes a link).
    const PageSlice slice =
        SliceOf(g.num_pages, o.exchange->rank(), o.exchange->size());
    (*graph)->KeepEdgesOf(slice.begin, slice.end);
    report.graph_bytes = g.MemoryBytes();  // what this process holds
  }
  Ranker ranker(g, o.rank, o.exchange);
  RankState state;
  std::optional<Checkpoint> ckpt;
  if (!o.checkpoint_dir.empty() && !(o.fresh && mode == Mode::kRun)) {
    absl::StatusOr<std::optional<Checkpoint>> read =
        ReadCheckpoint(o.checkpoint_dir);
    if (!read.ok()) return read.status();
    ckpt = std::move(*read);
  }
  if (ckpt.has_value()) {
    if (absl::Status s = CheckCheckpoint(*ckpt, g, ranker); !s.ok()) {
      return absl::FailedPreconditionError(absl::StrCat(
          CheckpointPath(o.checkpoint_dir), ": ", s.message(),
          mode == Mode::kRun ? " (use --fresh to start over)" : ""));
    }
    state = std::move(ckpt->state);
    report.resumed = true;
  } else if (mode == Mode::kOutput) {
    return absl::NotFoundError(
        absl::StrCat(CheckpointPath(o.checkpoint_dir), ": no checkpoint"));
  } else {
    state = ranker.Initial();
  }
  report.start_round = state.round;
  if (absl::Status s = gate->Pass(absl::OkStatus()); !s.ok()) return s;

  Checkpoint meta;
  meta.algorithm = std::string(AlgorithmName(g.algorithm));
  meta.params = CheckpointParams(g, ranker);
  meta.graph_fingerprint = g.fingerprint;
  meta.num_pages = g.num_pages;
  int64_t saved_round = state.round;
  auto save = [&]() -> absl::Status {
    if (o.checkpoint_dir.empty() || saved_round == state.round) {
      return absl::OkStatus();
    }
    saved_round = state.round;
    if (o.exchange == nullptr) {
      return WriteCheckpoint(o.checkpoint_dir, meta, state);
    }
    // Every process holds the same state: process 0 writes it, and the
    // others learn whether it could.
    return o.exchange->AgreeStatus(
        o.exchange->rank() == 0 ? WriteCheckpoint(o.checkpoint_dir, meta, state)
                                : absl::OkStatus());
  };

  if (mode != Mode::kOutput) {
    while (!ranker.Converged(state) && state.round < o.rank.max_rounds) {
      bool stop = mode == Mode::kRun && o.stop && o.stop();
      // Any process's stop stops every one after the same round.
      if (o.exchange != nullptr && mode == Mode::kRun) {
        stop = o.exchange->Any(stop);
      }
      if (stop) {
        report.stopped = true;
        break;
      }
      RoundReport rr;
      rr.edge_visits = ranker.EdgeVisits(state);
      report.exchange_bytes += ranker.ExchangeBytes(state);
      std::vector<bool> stepped;
      for (const ChainState& c : state.chains) {
        stepped.push_back(!ranker.ChainConverged(c));
      }
      const absl::Time r0 = absl::Now();
      ranker.Round(&state);
      rr.seconds = absl::ToDoubleSeconds(absl::Now() - r0);
      rr.round = state.round;
      for (size_t i = 0; i < state.chains.size(); ++i) {
        if (stepped[i]) {
          rr.l1.emplace_back(state.chains[i].name, state.chains[i].last_l1);
        }
      }
      report.round_seconds += rr.seconds;
      report.edge_visits += rr.edge_visits;
      ++report.rounds_run;
      if (mode == Mode::kRound ||
          report.rounds_run % std::max(1, o.checkpoint_every) == 0) {
        if (absl::Status s = save(); !s.ok()) return s;
      }
      if (o.on_round) o.on_round(rr);
      if (mode == Mode::kRound) break;
    }
    if (absl::Status s = save(); !s.ok()) return s;  // the last round
  }
  report.round = state.round;
  report.converged = ranker.Converged(state);
  for (const ChainState& c : state.chains) {
    report.l1.emplace_back(c.name, c.last_l1);
  }
  if (report.stopped) return report;  // the next run resumes; no outputs yet
  (*graph)->DropEdges();
  // Process 0 writes the outputs; the others learn whether it could.
  const bool writer = o.exchange == nullptr || o.exchange->rank() == 0;
  absl::Status written;
  if (writer && !o.out.empty()) {
    written = WriteRanking(o.out, ranker, state, o.output);
  }
  if (writer && written.ok() && !o.blocks_out.empty()) {
    written = WriteBlockScores(o.blocks_out, ranker, state, o.output);
  }
  if (o.exchange != nullptr) written = o.exchange->AgreeStatus(written);
  if (!written.ok()) return written;
  return report;
}

absl::StatusOr<JobReport> Job(const JobOptions& o, Mode mode) {
  LoadGate gate(o.exchange);
  absl::StatusOr<JobReport> r = JobSteps(o, mode, &gate);
  // Failed while loading: the other processes wait at the gate to learn it.
  if (!gate.passed()) gate.Pass(r.status()).IgnoreError();
  return r;
}

}  // namespace

absl::StatusOr<JobReport> RunJob(const JobOptions& options) {
  return Job(options, Mode::kRun);
}

absl::StatusOr<JobReport> RoundJob(const JobOptions& options) {
  return Job(options, Mode::kRound);
}

absl::StatusOr<JobReport> OutputJob(const JobOptions& options) {
  return Job(options, Mode::kOutput);
}

}  // namespace fcrawl::ranker
