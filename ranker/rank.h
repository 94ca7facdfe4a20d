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
// Reading: docs/papers.md's epsilon of 1e-6·N is a bound on the L1 change of
// scores whose mean is 1 (sum N); the chains here sum to 1, so the same
// bound is an L1 change below 1e-6.
//
// A round is a map and a reduce, kept apart so that processes each owning
// a slice of the pages could run it: map (per source page s in the slice)
// y(s) = x(s)·scale(s) plus the slice's dangling mass; exchange y and sum the
// dangling mass over processes; reduce (per target page t in the slice)
// x'(t) from the y of t's in-link sources. url-rule adds one more map,
// S(T) = Σ_{T→q} y(q), exchanged like y.
//
// Many processes (ranker-mpi): with an Exchange, process r of P owns the
// whole chunks [r·C/P, (r+1)·C/P) of the C = PageChunks(N) chunks (SliceOf).
// Per round and chain it maps its own sources, all-gathers y (float; and
// S for url-rule) and the per-chunk dangling-mass partials, reduces its own
// targets and all-gathers the new x (double) and the per-chunk L1 partials.
// Every process sums the partials of ALL chunks in chunk order, as one
// process does, so each holds the whole state after every round,
// bit-identical to the single-process run. Every process holds the whole
// graph too.
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

// The processes of a ranking job and what they exchange (ranker-mpi's is
// mpi_exchange.h; tests simulate processes with threads, local_exchange.h).
// Every method is a collective: every process calls the same sequence of
// them with the same sizes (counts), or the job hangs. Calls come from one
// thread of each process.
class Exchange {
 public:
  virtual ~Exchange() = default;

  virtual int rank() const = 0;  // this process, [0, size())
  virtual int size() const = 0;  // processes, >= 1
  // Processes on this machine (sharing its cores), for the default thread
  // count; 1 when unknown.
  virtual int local_size() const { return 1; }

  // `data` holds the slices of all processes back to back, counts[r]
  // elements for process r (counts.size() == size(), the same on every
  // process). On entry this process's slice is filled in; on return every
  // slice is, copied from its owner.
  virtual void AllGather(absl::Span<float> data,
                         absl::Span<const uint64_t> counts) = 0;
  virtual void AllGather(absl::Span<double> data,
                         absl::Span<const uint64_t> counts) = 0;
  // Logical AND / OR of every process's `value`.
  virtual bool All(bool value) = 0;
  virtual bool Any(bool value) = 0;
  // OK when every process passed OK; otherwise the error of the lowest
  // failing process (its own error to that process, the same code and
  // message prefixed "process R: " to the others).
  virtual absl::Status AgreeStatus(const absl::Status& local) = 0;
  virtual void Barrier() = 0;
};

// The pages (and chunks of kChunkPages) process `rank` of `processes` owns:
// chunks [rank·C/P, (rank+1)·C/P) of the C = PageChunks(num_pages), i.e.
// pages [begin, end). Processes own nothing when there are fewer chunks.
struct PageSlice {
  size_t chunk_begin = 0;
  size_t chunk_end = 0;
  uint32_t begin = 0;
  uint32_t end = 0;
};
PageSlice SliceOf(uint32_t num_pages, int rank, int processes);

struct RankOptions {
  // < 0: the algorithm's default (DefaultDamping).
  double damping = -1;
  double epsilon = 1e-6;
  int max_rounds = 50;
  int threads = 0;  // 0: all cores
};

// 0.85 (teleport 0.15) for all but topic-pagerank, whose paper sets d = 0.8
// ([MMTOPIC] §3.4.1).
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
  // With an exchange, Round() is a collective (see Exchange) and this
  // process computes only its slice of every round; `exchange` must
  // outlive the Ranker. nullptr: one process.
  Ranker(const Graph& graph, const RankOptions& options,
         Exchange* exchange = nullptr);

  double damping() const { return damping_; }
  const RankOptions& options() const { return options_; }
  const Graph& graph() const { return graph_; }
  Exchange* exchange() const { return exchange_; }
  // This process's pages (all of them without an exchange).
  const PageSlice& slice() const { return slice_; }
  // Bytes this process receives from the others in the next Round()
  // (0 for one process).
  uint64_t ExchangeBytes(const RankState& state) const;

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
  // kTopical: kWeighted with the teleport (and dangling mass) going to
  // pages in proportion to their relevance (topic-quarkrank's score).
  enum class Kind { kPlain, kWeighted, kTopical, kUrlRule, kBlock };
  Kind KindOf(absl::string_view chain) const;
  double Step(Kind kind, const std::vector<double>& x,
              std::vector<double>* next) const;

  const Graph& graph_;
  RankOptions options_;
  double damping_;
  int threads_;
  Exchange* exchange_;
  PageSlice slice_;
  // With an exchange: every process's pages and chunks (AllGather counts).
  std::vector<uint64_t> page_counts_;
  std::vector<uint64_t> chunk_counts_;
  // Round's scratch, kept so that rounds do not fault in fresh pages.
  // topic-quarkrank: relevance(p) / Σ relevance; empty when no page has
  // any (the jump is then uniform, as in QuarkRank).
  std::vector<double> teleport_;
  mutable std::vector<double> next_;
  mutable std::vector<float> y_;
  mutable std::vector<float> sib_;
};

}  // namespace fcrawl::ranker

#endif  // FCRAWL_RANKER_RANK_H_
