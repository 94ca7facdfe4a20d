// Ranking feedback as it travels: the checks every receiver of a
// proto::RankedPage (the coordinator's PushRanks, a worker's AcceptLinks)
// applies, and the reader of a ranker output file that crawlctl pushes.
#ifndef FCRAWL_CLUSTER_RANKS_H_
#define FCRAWL_CLUSTER_RANKS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "proto/cluster.pb.h"

namespace fcrawl::cluster {

inline constexpr size_t kMaxRankedUrlBytes = 4096;
// R = N·score is at most N (a page holding all the score), and N < 2^32.
inline constexpr double kMaxRank = 4294967296.0;

// OK when the URL is an http(s) URL of at most kMaxRankedUrlBytes and the
// rank a finite number in [0, kMaxRank]; else InvalidArgument naming entry
// `index` and the problem.
absl::Status CheckRankedPage(const proto::RankedPage& page, int index);

struct RankFile {
  std::vector<proto::RankedPage> pages;  // in file order, ranks = N·score
  int64_t lines = 0;                     // data lines read
  double score_sum = 0;                  // of the file's score column
};

// Reads a ranker output (`ranker run --out`, TSV with its header line or
// JSON lines, told apart by the first character) and turns each page's
// score into the mean-1 rank R = N·score. N is `num_pages` when > 0, else
// the number of pages in the file, which is right only when the file holds
// every page (no --top). Bounded: a file over `max_bytes` or a line that
// does not parse is refused with the line number named.
absl::StatusOr<RankFile> ReadRankFile(const std::string& path,
                                      int64_t num_pages,
                                      size_t max_bytes = size_t{4} << 30);

}  // namespace fcrawl::cluster

#endif  // FCRAWL_CLUSTER_RANKS_H_
