// The chains' steps. Notation: N pages, d damping, ε = 1 − d teleport,
// x the chain's vector, y(s) = x(s)·scale(s) what page s hands on per unit
// of transition weight.
//
// url-rule ([MMTOPIC] formula 4.6):
//   PR(p) = (1−d)/N + d·(Σ_parents PR(T)/C(T) + Σ_siblings
//   PR(T)/C(T))/|D_url(p)|.
// Reading: taken as a random surfer who, from page q, follows one of q's
// links or moves to one of q's siblings (another link target of a page that
// links to q), every candidate p weighted by 1/max(1, |D_url(p)|) (0 when the
// site has no pattern, so the factor is 1) and the weights of q's row
// normalised. Literal 4.6 hands on more than a page's rank when the page has
// siblings (PR/C to each child and to each sibling), so its iteration grows
// without bound on real graphs; normalising the row keeps 4.6's proportions
// between p's parents and siblings and makes it a Markov chain like the
// others. Reading: a page without out-links is dangling (C(T) = 0 leaves
// PR/C undefined), it hands nothing to its siblings either. In multigraph
// terms, with m_T(p) the number of T's links to p:
//   W(q, p) = (m_q(p) + Σ_T m_T(q)·m_T(p)·[q ≠ p]) / max(1, |D_url(p)|)
// and the pull for p is
//   (1/D(p))·(Σ_{in-edges T→p} (y(T) + S(T)) − Q(p)·y(p)),
// S(T) = Σ_{T→q} y(q), Q(p) = Σ_T m_T(p)², y(q) = x(q)/Z(q), Z(q) its row sum
// (graph.cc).
//
// topic-quarkrank: QuarkRank's surfer made topic-sensitive the way
// Richardson and Domingos's "intelligent surfer" (NIPS 2002) makes PageRank
// query-dependent: from page s it follows link s→t with probability
// ∝ QW(block of the link)·rel(t) (graph.cc), and it jumps (teleport, and the
// mass of pages with no such link) to page t with probability rel(t)/Σ rel:
//   x'(t) = ((1−d) + d·m)·rel(t)/Σ rel + d·Σ_{s→t} y(s)·W(s, t),
// m the score of zero rows. Without any relevance it is QuarkRank.
//
// BLPR's block chain (W_B = Z·X; docs/papers.md): block scores b over all n
// blocks, b' = ε/n + (1−ε)·(W_Bᵀ·b + G/n), G the score of blocks whose row of
// W_B sums to less than 1 (blocks without links, links to pages without
// blocks) spread uniformly like dangling pages. W_Bᵀ·b at block k of page p
// is X(p, k)·Y(p) with Y(p) = Σ_a b(a)·Z(a, p), so the chain is carried by
// the page vector Y:
//   Y'(p) = (ε + (1−ε)·G)/n · c(p) + (1−ε)·Σ_s Y(s)·W_P(s, p),
//   c(p) = Σ_a Z(a, p),  G = 1 − Σ_{p with blocks} Y(p),
// W_P = X·Z unnormalised (= row sum × M), and b(k) = ε/n + (1−ε)·(X(p, k)·Y(p)
// + G/n). Its L1 change is measured on Y, which bounds the change of b.
#include "ranker/rank.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/parallel.h"

namespace fcrawl::ranker {

using ::fcrawl::parallel::EffectiveThreads;
using ::fcrawl::parallel::ParallelFor;
using ::fcrawl::parallel::SumInOrder;

namespace {

constexpr absl::string_view kScore = "score";
constexpr absl::string_view kPageRank = "pagerank";
constexpr absl::string_view kBlock = "block";

// Σ y[src[e]] (and, with w, Σ w[e]·y[src[e]]) over [b, e) in a fixed order:
// four running sums that do not depend on thread count.
inline double Gather(const uint32_t* src, const float* y, uint64_t b,
                     uint64_t e) {
  double a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  uint64_t i = b;
  for (; i + 4 <= e; i += 4) {
    a0 += y[src[i]];
    a1 += y[src[i + 1]];
    a2 += y[src[i + 2]];
    a3 += y[src[i + 3]];
  }
  for (; i < e; ++i) a0 += y[src[i]];
  return (a0 + a1) + (a2 + a3);
}

inline double GatherWeighted(const uint32_t* src, const float* w,
                             const float* y, uint64_t b, uint64_t e) {
  double a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  uint64_t i = b;
  for (; i + 4 <= e; i += 4) {
    a0 += static_cast<double>(w[i]) * y[src[i]];
    a1 += static_cast<double>(w[i + 1]) * y[src[i + 1]];
    a2 += static_cast<double>(w[i + 2]) * y[src[i + 2]];
    a3 += static_cast<double>(w[i + 3]) * y[src[i + 3]];
  }
  for (; i < e; ++i) a0 += static_cast<double>(w[i]) * y[src[i]];
  return (a0 + a1) + (a2 + a3);
}

}  // namespace

double DefaultDamping(Algorithm a) {
  return a == Algorithm::kTopicPageRank ? 0.8 : 0.85;
}

const ChainState* RankState::Find(absl::string_view name) const {
  for (const ChainState& c : chains) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

PageSlice SliceOf(uint32_t num_pages, int rank, int processes) {
  const uint64_t chunks = PageChunks(num_pages);
  const int procs = std::max(processes, 1);
  const uint64_t p = static_cast<uint64_t>(procs);
  const uint64_t r = static_cast<uint64_t>(std::clamp(rank, 0, procs - 1));
  PageSlice s;
  s.chunk_begin = static_cast<size_t>(r * chunks / p);
  s.chunk_end = static_cast<size_t>((r + 1) * chunks / p);
  s.begin = static_cast<uint32_t>(
      std::min<uint64_t>(num_pages, s.chunk_begin * uint64_t{kChunkPages}));
  s.end = static_cast<uint32_t>(
      std::min<uint64_t>(num_pages, s.chunk_end * uint64_t{kChunkPages}));
  return s;
}

Ranker::Ranker(const Graph& graph, const RankOptions& options,
               Exchange* exchange)
    : graph_(graph),
      options_(options),
      damping_(options.damping >= 0 ? options.damping
                                    : DefaultDamping(graph.algorithm)),
      threads_(EffectiveThreads(options.threads)),
      exchange_(exchange) {
  const int procs = exchange_ != nullptr ? exchange_->size() : 1;
  const int rank = exchange_ != nullptr ? exchange_->rank() : 0;
  slice_ = SliceOf(graph_.num_pages, rank, procs);
  if (exchange_ != nullptr) {
    for (int r = 0; r < procs; ++r) {
      const PageSlice s = SliceOf(graph_.num_pages, r, procs);
      page_counts_.push_back(s.end - s.begin);
      chunk_counts_.push_back(s.chunk_end - s.chunk_begin);
    }
  }
  if (graph_.algorithm == Algorithm::kTopicQuarkRank) {
    // Every process holds every page's relevance, so each builds the
    // whole vector and sums it in the same order.
    double sum = 0;
    for (float r : graph_.relevance) sum += r;
    if (sum > 0) {
      teleport_.resize(graph_.num_pages);
      for (uint32_t p = 0; p < graph_.num_pages; ++p) {
        teleport_[p] = graph_.relevance[p] / sum;
      }
    }
  }
}

Ranker::Kind Ranker::KindOf(absl::string_view chain) const {
  if (chain == kPageRank) return Kind::kPlain;
  if (chain == kBlock) return Kind::kBlock;
  switch (graph_.algorithm) {
    case Algorithm::kPageRank:
      return Kind::kPlain;
    case Algorithm::kUrlRule:
      return Kind::kUrlRule;
    case Algorithm::kTopicQuarkRank:
      return Kind::kTopical;
    default:
      return Kind::kWeighted;
  }
}

RankState Ranker::Initial() const {
  RankState s;
  const uint32_t n = graph_.num_pages;
  const double uniform = n > 0 ? 1.0 / n : 0;
  s.chains.push_back({std::string(kScore), std::vector<double>(n, uniform)});
  if (graph_.algorithm != Algorithm::kPageRank) {
    s.chains.push_back(
        {std::string(kPageRank), std::vector<double>(n, uniform)});
  }
  if (graph_.algorithm == Algorithm::kBlpr && graph_.num_blocks() > 0) {
    // Uniform block scores 1/n give Y(p) = c(p)/n.
    const double nb = static_cast<double>(graph_.num_blocks());
    std::vector<double> y(n);
    for (uint32_t p = 0; p < n; ++p) y[p] = graph_.blpr_in_z[p] / nb;
    s.chains.push_back({std::string(kBlock), std::move(y)});
  }
  return s;
}

absl::Status Ranker::Check(const RankState& state) const {
  const RankState want = Initial();
  if (state.chains.size() != want.chains.size()) {
    return absl::FailedPreconditionError("state has the wrong chains");
  }
  for (size_t i = 0; i < want.chains.size(); ++i) {
    if (state.chains[i].name != want.chains[i].name ||
        state.chains[i].x.size() != want.chains[i].x.size()) {
      return absl::FailedPreconditionError(
          "state chain " + state.chains[i].name + " does not fit the graph");
    }
  }
  return absl::OkStatus();
}

bool Ranker::Converged(const RankState& state) const {
  for (const ChainState& c : state.chains) {
    if (!ChainConverged(c)) return false;
  }
  return true;
}

uint64_t Ranker::ExchangeBytes(const RankState& state) const {
  if (exchange_ == nullptr) return 0;
  const uint64_t pages = graph_.num_pages - (slice_.end - slice_.begin);
  const uint64_t chunks =
      PageChunks(graph_.num_pages) - (slice_.chunk_end - slice_.chunk_begin);
  uint64_t bytes = 0;
  for (const ChainState& c : state.chains) {
    if (ChainConverged(c) || graph_.num_pages == 0) continue;
    // y and x', the mass and L1 partials; url-rule's S too.
    bytes +=
        pages * (sizeof(float) + sizeof(double)) + chunks * 2 * sizeof(double);
    if (KindOf(c.name) == Kind::kUrlRule) bytes += pages * sizeof(float);
  }
  return bytes;
}

uint64_t Ranker::EdgeVisits(const RankState& state) const {
  uint64_t v = 0;
  for (const ChainState& c : state.chains) {
    if (ChainConverged(c)) continue;
    v += graph_.num_edges() * (KindOf(c.name) == Kind::kUrlRule ? 2 : 1);
  }
  return v;
}

void Ranker::Round(RankState* state) const {
  for (ChainState& c : state->chains) {
    if (ChainConverged(c)) continue;
    c.last_l1 = Step(KindOf(c.name), c.x, &next_);
    c.x.swap(next_);
  }
  ++state->round;
}

double Ranker::Step(Kind kind, const std::vector<double>& x,
                    std::vector<double>* next) const {
  const Graph& g = graph_;
  const uint32_t n = g.num_pages;
  next->resize(n);
  if (n == 0) return 0;
  const size_t chunks = PageChunks(n);
  // This process's chunks (all of them for one process). With an exchange
  // the others' entries of y, sib, partial and next come from their owners
  // after each step, so every process sums every chunk in chunk order.
  const size_t c0 = slice_.chunk_begin;
  const size_t own = slice_.chunk_end - c0;
  auto chunk_end = [n](size_t c) {
    return static_cast<uint32_t>(
        std::min<uint64_t>(n, (c + 1) * uint64_t{kChunkPages}));
  };

  // Map: y and the mass the reduce needs as a scalar (dangling pages' score;
  // for the block chain, the score of pages with blocks).
  std::vector<float>& y = y_;
  y.resize(n);
  std::vector<double> partial(chunks, 0.0);
  ParallelFor(threads_, own, [&](size_t i) {
    const size_t c = c0 + i;
    double mass = 0;
    for (uint32_t s = c * kChunkPages, end = chunk_end(c); s < end; ++s) {
      float sc = 0;
      switch (kind) {
        case Kind::kPlain: {
          const uint32_t deg = g.out_degree[s];
          sc = deg > 0 ? 1.0f / static_cast<float>(deg) : 0.0f;
          break;
        }
        case Kind::kWeighted:
        case Kind::kTopical:
          sc = g.zero_row[s] ? 0.0f : 1.0f;
          break;
        case Kind::kUrlRule:
          sc = g.url_rule_scale[s];
          break;
        case Kind::kBlock:
          sc = g.blpr_row_sum[s];
          break;
      }
      y[s] = static_cast<float>(x[s] * sc);
      if (kind == Kind::kBlock) {
        if (g.has_blocks(s)) mass += x[s];
      } else if (sc == 0) {
        mass += x[s];
      }
    }
    partial[c] = mass;
  });
  if (exchange_ != nullptr) {
    exchange_->AllGather(absl::MakeSpan(y), page_counts_);
    exchange_->AllGather(absl::MakeSpan(partial), chunk_counts_);
  }
  const double mass = SumInOrder(partial);

  std::vector<float>& sib = sib_;
  if (kind == Kind::kUrlRule) {
    sib.resize(n);
    ParallelFor(threads_, own, [&](size_t i) {
      const size_t c = c0 + i;
      for (uint32_t s = c * kChunkPages, end = chunk_end(c); s < end; ++s) {
        sib[s] = static_cast<float>(Gather(
            g.out_dst.data(), y.data(), g.out_offsets[s] - g.out_edge_base,
            g.out_offsets[s + 1] - g.out_edge_base));
      }
    });
    if (exchange_ != nullptr) {
      exchange_->AllGather(absl::MakeSpan(sib), page_counts_);
    }
  }

  // Reduce.
  const double d = damping_;
  const double base = (1 - d) / n + d * mass / n;
  const double jump = (1 - d) + d * mass;  // spread by teleport_ (kTopical)
  const double eps = 1 - d;
  const double nb = static_cast<double>(g.num_blocks());
  const double block_base =
      kind == Kind::kBlock ? (eps + (1 - eps) * (1 - mass)) / nb : 0;
  ParallelFor(threads_, own, [&](size_t i) {
    const size_t c = c0 + i;
    double l1 = 0;
    const uint32_t* src = g.in_src.data();
    for (uint32_t t = c * kChunkPages, end = chunk_end(c); t < end; ++t) {
      const uint64_t b = g.in_offsets[t] - g.in_edge_base,
                     e = g.in_offsets[t + 1] - g.in_edge_base;
      double v = 0;
      switch (kind) {
        case Kind::kPlain:
          v = base + d * Gather(src, y.data(), b, e);
          break;
        case Kind::kWeighted:
          v = base +
              d * GatherWeighted(src, g.in_weight.data(), y.data(), b, e);
          break;
        case Kind::kTopical:
          v = (teleport_.empty() ? base : jump * teleport_[t]) +
              d * GatherWeighted(src, g.in_weight.data(), y.data(), b, e);
          break;
        case Kind::kUrlRule: {
          double a =
              Gather(src, y.data(), b, e) + Gather(src, sib.data(), b, e);
          a -= g.sibling_q[t] * y[t];
          v = base + d * g.inv_distance[t] * std::max(0.0, a);
          break;
        }
        case Kind::kBlock:
          v = block_base * g.blpr_in_z[t] +
              (1 - eps) *
                  GatherWeighted(src, g.in_weight.data(), y.data(), b, e);
          break;
      }
      (*next)[t] = v;
      l1 += std::fabs(v - x[t]);
    }
    partial[c] = l1;
  });
  if (exchange_ != nullptr) {
    exchange_->AllGather(absl::MakeSpan(*next), page_counts_);
    exchange_->AllGather(absl::MakeSpan(partial), chunk_counts_);
  }
  return SumInOrder(partial);
}

const std::vector<double>& Ranker::Scores(const RankState& state) const {
  return state.Find(kScore)->x;
}

const std::vector<double>& Ranker::PlainPageRank(const RankState& state) const {
  const ChainState* c = state.Find(kPageRank);
  return c != nullptr ? c->x : Scores(state);
}

bool Ranker::Blocks(const RankState& state, BlockScorer* scorer) const {
  const ChainState* c = state.Find(kBlock);
  if (c == nullptr) return false;
  const Graph& g = graph_;
  const double eps = 1 - damping_;
  const double nb = static_cast<double>(g.num_blocks());
  double with_blocks = 0;
  for (uint32_t p = 0; p < g.num_pages; ++p) {
    if (g.has_blocks(p)) with_blocks += c->x[p];
  }
  scorer->graph_ = &g;
  scorer->y_ = &c->x;
  scorer->base_ = (eps + (1 - eps) * (1 - with_blocks)) / nb;
  scorer->factor_ = 1 - eps;
  return true;
}

std::vector<double> Ranker::BlockScores(const RankState& state) const {
  BlockScorer score;
  if (!Blocks(state, &score)) return {};
  const Graph& g = graph_;
  std::vector<double> b(g.num_blocks());
  for (uint32_t p = 0; p < g.num_records; ++p) {
    for (uint64_t k = g.block_offsets[p]; k < g.block_offsets[p + 1]; ++k) {
      b[k] = score(p, k);
    }
  }
  return b;
}

}  // namespace fcrawl::ranker
