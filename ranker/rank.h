// Power iteration over a Graph, one round at a time.
//
// A ranking is a set of chains iterated side by side, each a probability
// vector over the pages:
//   "score"    the chosen algorithm (pagerank, quarkrank, blpr,
//              topic-pagerank, url-rule);
//   "pagerank" plain PageRank for comparison, with the same damping so that
//              only the transition weights differ (absent when the
//              algorithm is pagerank: the score is the plain PageRank then);
//   "block"    BLPR's block chain (blpr only), kept in page form (rank.cc).
// Each round steps every chain that has not converged yet:
//   x'(t) = (1−d)/N + d·(Σ_{s→t} x(s)·w(s,t) + D/N)
// with D the score of the dangling pages (spread uniformly) and w the
// row-normalised transition weights. A chain has converged once the L1
// change of a round is below `epsilon`.
//
// Reading: ALGORITHMS.md's epsilon of 1e-6·N is a bound on the L1 change of
// scores whose mean is 1 (sum N); the chains here sum to 1, so the same
// bound is an L1 change below 1e-6.
//
// A round is a map and a reduce, kept apart so that processes each owning
// a slice of the pages could run it: map (per source page s in the slice)
// y(s) = x(s)·scale(s) plus the slice's dangling mass; exchange y and sum the
// dangling mass over processes; reduce (per target page t in the slice)
// x'(t) from the y of t's in-link sources. url-rule adds one more map,
// S(T) = Σ_{T→q} y(q), exchanged like y.
#ifndef FCRAWL_RANKER_RANK_H_
#define FCRAWL_RANKER_RANK_H_

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "ranker/graph.h"

namespace fcrawl::ranker {

struct RankOptions {
  // < 0: the algorithm's default (DefaultDamping).
  double damping = -1;
  double epsilon = 1e-6;
  int max_rounds = 50;
  int threads = 0;  // 0: all cores
};

// 0.85 (teleport 0.15) for all but topic-pagerank, whose paper sets d = 0.8
// (seed 000 §3.4.1).
double DefaultDamping(Algorithm a);

struct ChainState {
  std::string name;
  std::vector<double> x;
  double last_l1 = std::numeric_limits<double>::infinity();
};

struct RankState {
  int64_t round = 0;
  std::vector<ChainState> chains;

  const ChainState* Find(absl::string_view name) const;
};

class Ranker {
 public:
  Ranker(const Graph& graph, const RankOptions& options);

  double damping() const { return damping_; }
  const RankOptions& options() const { return options_; }
  const Graph& graph() const { return graph_; }

  // Round 0: every chain uniform.
  RankState Initial() const;
  // Whether `state` has the chains and sizes this graph needs.
  absl::Status Check(const RankState& state) const;
  // Steps every chain not yet converged once and counts the round. Not
  // thread-safe (it reuses scratch buffers; it uses all threads itself).
  void Round(RankState* state) const;
  bool Converged(const RankState& state) const;
  bool ChainConverged(const ChainState& chain) const {
    return chain.last_l1 < options_.epsilon;
  }
  // Edge visits the next Round() will make (for speed reports).
  uint64_t EdgeVisits(const RankState& state) const;

  // The algorithm's page scores and plain PageRank (sum 1 each).
  const std::vector<double>& Scores(const RankState& state) const;
  const std::vector<double>& PlainPageRank(const RankState& state) const;
  // BLPR: the score of every block (in Graph::block_x order), a
  // distribution over all blocks. Empty for other algorithms.
  std::vector<double> BlockScores(const RankState& state) const;
  // The same one block at a time (block k of page p), for outputs that
  // cannot hold every score at double precision.
  class BlockScorer {
   public:
    double operator()(uint32_t page, uint64_t k) const {
      return base_ + factor_ * graph_->block_x[k] * (*y_)[page];
    }

   private:
    friend class Ranker;
    const Graph* graph_ = nullptr;
    const std::vector<double>* y_ = nullptr;
    double base_ = 0;
    double factor_ = 0;
  };
  // Valid while `state` is; fails (returns false) unless blpr.
  bool Blocks(const RankState& state, BlockScorer* scorer) const;

 private:
  enum class Kind { kPlain, kWeighted, kUrlRule, kBlock };
  Kind KindOf(absl::string_view chain) const;
  double Step(Kind kind, const std::vector<double>& x,
              std::vector<double>* next) const;

  const Graph& graph_;
  RankOptions options_;
  double damping_;
  int threads_;
  // Round's scratch, kept so that rounds do not fault in fresh pages.
  mutable std::vector<double> next_;
  mutable std::vector<float> y_;
  mutable std::vector<float> sib_;
};

}  // namespace fcrawl::ranker

#endif  // FCRAWL_RANKER_RANK_H_
