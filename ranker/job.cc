#include "ranker/job.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "ranker/checkpoint.h"
#include "ranker/shard.h"

namespace fcrawl::ranker {
namespace {

enum class Mode { kRun, kRound, kOutput };

absl::StatusOr<JobReport> Job(const JobOptions& o, Mode mode) {
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
  const absl::Time t0 = absl::Now();
  absl::StatusOr<std::vector<std::string>> paths = ListShards(o.inputs);
  if (!paths.ok()) return paths.status();
  if (paths->empty()) {
    return absl::NotFoundError("no shard files (*.fcg) in the input");
  }
  absl::StatusOr<std::unique_ptr<Graph>> graph = BuildGraph(*paths, o.graph);
  if (!graph.ok()) return graph.status();
  const Graph& g = **graph;
  report.load_seconds = absl::ToDoubleSeconds(absl::Now() - t0);
  report.stats = g.stats;
  report.pages = g.num_pages;
  report.edges = g.num_edges();
  report.blocks = g.num_blocks();
  report.fingerprint = g.fingerprint;
  report.graph_bytes = g.MemoryBytes();

  Ranker ranker(g, o.rank);
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
    return WriteCheckpoint(o.checkpoint_dir, meta, state);
  };

  if (mode != Mode::kOutput) {
    while (!ranker.Converged(state) && state.round < o.rank.max_rounds) {
      if (mode == Mode::kRun && o.stop && o.stop()) {
        report.stopped = true;
        break;
      }
      RoundReport rr;
      rr.edge_visits = ranker.EdgeVisits(state);
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
  if (!o.out.empty()) {
    if (absl::Status s = WriteRanking(o.out, ranker, state, o.output);
        !s.ok()) {
      return s;
    }
  }
  if (!o.blocks_out.empty()) {
    if (absl::Status s =
            WriteBlockScores(o.blocks_out, ranker, state, o.output);
        !s.ok()) {
      return s;
    }
  }
  return report;
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
