// The functions of graph.h's types that are not the build: the algorithms'
// names, GraphParams, and the Graph's own memory (MemoryBytes, and
// KeepEdgesOf and DropEdges, which free its edges). Apart from graph.cc, which
// builds a Graph from its sources, because none of this reads pages or
// touches the Builder's state.
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "ranker/graph.h"

namespace fcrawl::ranker {

namespace {

template <typename T>
size_t Bytes(const std::vector<T>& v) {
  return v.capacity() * sizeof(T);
}

}  // namespace

// ---------------------------------------------------------------- names

absl::string_view AlgorithmName(Algorithm a) {
  switch (a) {
    case Algorithm::kPageRank:
      return "pagerank";
    case Algorithm::kQuarkRank:
      return "quarkrank";
    case Algorithm::kBlpr:
      return "blpr";
    case Algorithm::kTopicPageRank:
      return "topic-pagerank";
    case Algorithm::kUrlRule:
      return "url-rule";
    case Algorithm::kTopicQuarkRank:
      return "topic-quarkrank";
  }
  return "?";
}

absl::StatusOr<Algorithm> ParseAlgorithm(absl::string_view name) {
  for (Algorithm a : {Algorithm::kPageRank, Algorithm::kQuarkRank,
                      Algorithm::kBlpr, Algorithm::kTopicPageRank,
                      Algorithm::kUrlRule, Algorithm::kTopicQuarkRank}) {
    if (name == AlgorithmName(a)) return a;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown algorithm \"", name,
                   "\" (pagerank, quarkrank, blpr, topic-pagerank, url-rule, "
                   "topic-quarkrank)"));
}

std::string GraphParams(const GraphOptions& o) {
  std::string s = absl::StrCat("algorithm=", AlgorithmName(o.algorithm));
  if (o.algorithm == Algorithm::kQuarkRank ||
      o.algorithm == Algorithm::kTopicQuarkRank) {
    absl::StrAppend(&s, " quark_weights=", absl::StrJoin(o.quark_weights, ","),
                    " template_weight=", o.template_weight);
  }
  if (o.algorithm == Algorithm::kTopicPageRank) {
    absl::StrAppend(&s, " omega=", o.topic_omega, " lambda=", o.topic_lambda);
  }
  absl::StrAppend(
      &s, " unknown=", o.unknown == UnknownTargets::kKeep ? "keep" : "drop",
      " max_links_per_page=", o.max_links_per_page,
      " max_blocks_per_page=", o.max_blocks_per_page);
  return s;
}

size_t Graph::MemoryBytes() const {
  // Trimmed edge arrays keep their capacity but not its pages (KeepRange).
  auto edges = [this](const auto& v) {
    return edges_trimmed ? v.size() * sizeof(v[0]) : Bytes(v);
  };
  return urls.MemoryBytes() + Bytes(url_of) + Bytes(relevance) +
         Bytes(out_degree) + Bytes(in_offsets) + edges(in_src) +
         edges(in_weight) + zero_row.capacity() / 8 + Bytes(url_rule_scale) +
         Bytes(out_offsets) + edges(out_dst) + Bytes(inv_distance) +
         Bytes(sibling_q) + Bytes(block_offsets) + Bytes(block_x) +
         Bytes(block_type) + Bytes(blpr_row_sum) + Bytes(blpr_in_z);
}

namespace {

// Keeps v[b, e) at the front of v's own buffer and gives the pages of the
// rest back to the kernel (MADV_DONTNEED: they read as zeros if touched
// again, which nothing does). A copy into a vector of its own size would
// hold the kept range twice for a moment: the process's peak is the whole
// graph, and it should not grow by a slice when edges are dropped.
template <typename T>
void KeepRange(std::vector<T>& v, uint64_t b, uint64_t e) {
  if (v.empty()) return;
  if (b > 0) std::copy(v.begin() + b, v.begin() + e, v.begin());  // forward
  v.resize(e - b);
  const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const uintptr_t from =
      (reinterpret_cast<uintptr_t>(v.data() + v.size()) + page - 1) &
      ~(page - 1);
  const uintptr_t to =
      reinterpret_cast<uintptr_t>(v.data() + v.capacity()) & ~(page - 1);
  if (to > from)
    madvise(reinterpret_cast<void*>(from), to - from, MADV_DONTNEED);
}

}  // namespace

void Graph::KeepEdgesOf(uint32_t begin, uint32_t end) {
  if (begin > end || end > num_pages || edges_trimmed) return;
  const uint64_t ib = in_offsets[begin], ie = in_offsets[end];
  KeepRange(in_src, ib, ie);
  KeepRange(in_weight, ib, ie);
  in_edge_base = ib;
  if (!out_offsets.empty()) {
    const uint64_t ob = out_offsets[begin], oe = out_offsets[end];
    KeepRange(out_dst, ob, oe);
    out_edge_base = ob;
  }
  edges_trimmed = true;
}

void Graph::DropEdges() {
  std::vector<uint32_t>().swap(in_src);
  std::vector<float>().swap(in_weight);
  std::vector<uint32_t>().swap(out_dst);
}

}  // namespace fcrawl::ranker
