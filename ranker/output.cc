#include "ranker/output.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <numeric>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/file.h"
#include "core/json.h"

namespace fcrawl::ranker {
namespace {

// Page or block numbers sorted by score, best first, ties by number; only
// the first `top` are sorted when top > 0.
template <typename Score>
std::vector<uint32_t> Order(const std::vector<Score>& score, int64_t top) {
  std::vector<uint32_t> ids(score.size());
  std::iota(ids.begin(), ids.end(), uint32_t{0});
  auto better = [&](uint32_t a, uint32_t b) {
    if (score[a] != score[b]) return score[a] > score[b];
    return a < b;
  };
  if (top > 0 && static_cast<uint64_t>(top) < ids.size()) {
    std::partial_sort(ids.begin(), ids.begin() + top, ids.end(), better);
    ids.resize(top);
  } else {
    std::sort(ids.begin(), ids.end(), better);
  }
  return ids;
}

void AppendTsvField(absl::string_view s, std::string* out) {
  for (char c : s) {
    switch (c) {
      case '\t':
        out->append("%09");
        break;
      case '\n':
        out->append("%0A");
        break;
      case '\r':
        out->append("%0D");
        break;
      default:
        out->push_back(c);
    }
  }
}

// Nine significant digits, as %.9g (std::to_chars is several times faster
// than snprintf, which shows with millions of lines).
void AppendNumber(double v, std::string* out) {
  char buf[40];
  const std::to_chars_result r =
      std::to_chars(buf, buf + sizeof(buf), std::isfinite(v) ? v : 0.0,
                    std::chars_format::general, 9);
  out->append(buf, r.ptr);
}

absl::string_view TypeName(uint8_t type) {
  switch (type) {
    case 1:
      return "content";
    case 2:
      return "related_links";
    case 3:
      return "navigation";
    case 4:
      return "noise";
    default:
      return "unspecified";
  }
}

// An output file written through a buffer and replaced atomically
// (core/file.h): a reader (crawlctl push-ranks, the next batch job) never
// sees half a ranking, also after a crash.
class OutFile {
 public:
  explicit OutFile(const std::string& path) : path_(path) {}
  absl::Status Open() { return file_.Open(path_); }
  // Writes `buf` out and clears it once it has grown large (or when `force`).
  absl::Status Put(std::string* buf, bool force = false) {
    if (!force && buf->size() < (1 << 20)) return absl::OkStatus();
    if (absl::Status s = file_.Write(*buf); !s.ok()) return s;
    buf->clear();
    return absl::OkStatus();
  }
  absl::Status Close() { return file_.Commit(); }

 private:
  std::string path_;
  file::AtomicFile file_;
};

}  // namespace

absl::StatusOr<OutputFormat> ParseOutputFormat(absl::string_view name) {
  if (name == "tsv") return OutputFormat::kTsv;
  if (name == "jsonl") return OutputFormat::kJsonl;
  return absl::InvalidArgumentError(
      absl::StrCat("unknown format \"", name, "\" (tsv, jsonl)"));
}

double CombinedScore(double relevance, double score, uint64_t num_pages,
                     double combine_weight) {
  const double r = static_cast<double>(num_pages) * score;
  const double link = r > 0 ? r / (1 + r) : 0;
  return combine_weight * relevance + (1 - combine_weight) * link;
}

absl::Status WriteRanking(const std::string& path, const Ranker& ranker,
                          const RankState& state,
                          const OutputOptions& options) {
  const Graph& g = ranker.graph();
  const std::vector<double>& score = ranker.Scores(state);
  const std::vector<double>& plain = ranker.PlainPageRank(state);
  const std::vector<uint32_t> order = Order(score, options.top);
  OutFile f(path);
  if (absl::Status s = f.Open(); !s.ok()) return s;
  std::string buf;
  if (options.format == OutputFormat::kTsv) {
    buf = "rank\turl\tscore\tpagerank\trelevance\tcombined\tfetched\n";
  }
  for (size_t i = 0; i < order.size(); ++i) {
    const uint32_t p = static_cast<uint32_t>(order[i]);
    const double rel = g.relevance[p];
    const double comb =
        CombinedScore(rel, score[p], g.num_pages, options.combine_weight);
    const bool fetched = p < g.num_records;
    if (options.format == OutputFormat::kTsv) {
      absl::StrAppend(&buf, i + 1, "\t");
      AppendTsvField(g.url(p), &buf);
      for (double v : {score[p], plain[p], rel, comb}) {
        buf.push_back('\t');
        AppendNumber(v, &buf);
      }
      absl::StrAppend(&buf, "\t", fetched ? 1 : 0, "\n");
    } else {
      absl::StrAppend(&buf, "{\"rank\":", i + 1, ",\"url\":");
      json::AppendQuoted(&buf, g.url(p));
      buf.append(",\"score\":");
      AppendNumber(score[p], &buf);
      buf.append(",\"pagerank\":");
      AppendNumber(plain[p], &buf);
      buf.append(",\"relevance\":");
      AppendNumber(rel, &buf);
      buf.append(",\"combined\":");
      AppendNumber(comb, &buf);
      absl::StrAppend(&buf, ",\"fetched\":", fetched ? "true" : "false", "}\n");
    }
    if (absl::Status s = f.Put(&buf); !s.ok()) return s;
  }
  if (absl::Status s = f.Put(&buf, true); !s.ok()) return s;
  return f.Close();
}

absl::Status WriteBlockScores(const std::string& path, const Ranker& ranker,
                              const RankState& state,
                              const OutputOptions& options) {
  const Graph& g = ranker.graph();
  if (g.algorithm != Algorithm::kBlpr) {
    return absl::FailedPreconditionError("block scores need --algorithm=blpr");
  }
  Ranker::BlockScorer score;
  std::vector<uint32_t> order;  // empty when the graph has no blocks
  if (ranker.Blocks(state, &score)) {
    if (g.num_blocks() >= UINT32_MAX) {
      return absl::ResourceExhaustedError("too many blocks to sort");
    }
    // Sorted by single-precision score (4 bytes a block instead of 8); the
    // lines carry the exact score.
    std::vector<float> key(g.num_blocks());
    for (uint32_t p = 0; p < g.num_records; ++p) {
      for (uint64_t k = g.block_offsets[p]; k < g.block_offsets[p + 1]; ++k) {
        key[k] = static_cast<float>(score(p, k));
      }
    }
    order = Order(key, options.top);
  }
  // The page of every block (the edges are freed by now, so this fits in
  // what the rounds used).
  std::vector<uint32_t> page_of(order.empty() ? 0 : g.num_blocks());
  for (uint32_t p = 0; p < g.num_records && !order.empty(); ++p) {
    for (uint64_t k = g.block_offsets[p]; k < g.block_offsets[p + 1]; ++k) {
      page_of[k] = p;
    }
  }
  OutFile f(path);
  if (absl::Status s = f.Open(); !s.ok()) return s;
  std::string buf;
  if (options.format == OutputFormat::kTsv) {
    buf = "rank\turl\tblock\ttype\timportance\tscore\n";
  }
  for (size_t i = 0; i < order.size(); ++i) {
    const uint64_t k = order[i];
    const uint32_t p = page_of[k];
    const uint64_t index = k - g.block_offsets[p];
    const double block_score = score(p, k);
    if (options.format == OutputFormat::kTsv) {
      absl::StrAppend(&buf, i + 1, "\t");
      AppendTsvField(g.url(p), &buf);
      absl::StrAppend(&buf, "\t", index, "\t", TypeName(g.block_type[k]), "\t");
      AppendNumber(g.block_x[k], &buf);
      buf.push_back('\t');
      AppendNumber(block_score, &buf);
      buf.push_back('\n');
    } else {
      absl::StrAppend(&buf, "{\"rank\":", i + 1, ",\"url\":");
      json::AppendQuoted(&buf, g.url(p));
      absl::StrAppend(&buf, ",\"block\":", index, ",\"type\":\"",
                      TypeName(g.block_type[k]), "\",\"importance\":");
      AppendNumber(g.block_x[k], &buf);
      buf.append(",\"score\":");
      AppendNumber(block_score, &buf);
      buf.append("}\n");
    }
    if (absl::Status s = f.Put(&buf); !s.ok()) return s;
  }
  if (absl::Status s = f.Put(&buf, true); !s.ok()) return s;
  return f.Close();
}

}  // namespace fcrawl::ranker
