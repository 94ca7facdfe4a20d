// The ranker's outputs: pages ranked by score (TSV or JSON lines) and, for
// blpr, blocks ranked by block score.
//
// Page columns: rank, url, score (the algorithm's, summing to 1 over all
// pages), pagerank (plain PageRank, same scale), relevance (the crawl's
// sim(T, page), 0 for pages never fetched), combined, fetched (1 when the
// page had a record, 0 for a link target only).
//
// combined is [MMTOPIC] formula 4.8, S = ∂·relevance + (1−∂)·rank, ∂ = 0.4.
// Reading: relevance is in [0, 1] but a rank is not, so the rank enters as
// R/(1+R) with R = N·score, the score in the mean-1 scale of Brin and Page:
// order-preserving, in [0, 1), the average page giving 0.5 — the same
// normalisation the crawler's topic-pagerank strategy uses for 4.8, so the
// two combined scores are comparable.
#ifndef FCRAWL_RANKER_OUTPUT_H_
#define FCRAWL_RANKER_OUTPUT_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "ranker/rank.h"

namespace fcrawl::ranker {

enum class OutputFormat { kTsv, kJsonl };
absl::StatusOr<OutputFormat> ParseOutputFormat(absl::string_view name);

struct OutputOptions {
  OutputFormat format = OutputFormat::kTsv;
  int64_t top = 0;              // 0: every page (block)
  double combine_weight = 0.4;  // ∂ of formula 4.8
};

// ∂·relevance + (1−∂)·R/(1+R), R = num_pages·score.
double CombinedScore(double relevance, double score, uint64_t num_pages,
                     double combine_weight);

// Written to `path`.tmp and renamed into place.
absl::Status WriteRanking(const std::string& path, const Ranker& ranker,
                          const RankState& state, const OutputOptions& options);

// Block columns: rank, url, block (index in the page's record), type,
// importance (X, the block's share of its page), score. Fails unless the
// ranking is blpr.
absl::Status WriteBlockScores(const std::string& path, const Ranker& ranker,
                              const RankState& state,
                              const OutputOptions& options);

}  // namespace fcrawl::ranker

#endif  // FCRAWL_RANKER_OUTPUT_H_
