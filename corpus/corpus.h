// The crawl's corpus after the crawl: the corpus records the workers wrote
// (pages.jsonl, proto/corpus.proto), read back, merged, filtered, joined
// with a ranking and exported for the people who use the corpus (JSON
// lines, CSV, an OpenSearch/Elasticsearch bulk file). `worker corpus` is
// its command line; corpus/search.h indexes the same records.
//
// Inputs are output folders (their pages.jsonl) or corpus files, one per
// worker or crawl; they are untrusted: a line over kMaxCorpusLineBytes or
// one that does not parse is skipped and counted (the first problems are
// named in CorpusStats), the rest is read.
//
// Merging: one record per URL. A URL recorded twice (a revisit that found
// the page changed; two workers that both fetched it around a host
// hand-over) keeps its latest record (greatest fetched_at; the later line
// on a tie). The merge holds the URLs and where their latest line is, not
// the records: memory grows with the number of pages, not their text.
//
// Thread-safety: the functions are reentrant.
#ifndef FCRAWL_CORPUS_CORPUS_H_
#define FCRAWL_CORPUS_CORPUS_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "proto/corpus.pb.h"

namespace fcrawl::corpus {

struct CorpusFilter {
  bool on_topic = false;            // only pages judged on topic
  std::string language;             // "en" keeps "en", "en-us", ...; "" any
  std::optional<double> min_score;  // topic_score at least this
  bool media_only = false;          // only pages with media resources
  bool keep_duplicates = true;  // false: leave out pages marked duplicate_of
  // A URL whose latest record is a tombstone (`gone`: a revisit found the
  // page gone) is left out, unless this is set: then the tombstone is
  // written, so a downstream copy can delete the page.
  bool include_gone = false;

  // True when `r` passes.
  bool Keep(const proto::CorpusRecord& r) const;
};

struct CorpusStats {
  int64_t lines = 0;       // non-empty lines read (both passes count once)
  int64_t bad_lines = 0;   // skipped: too long or not a corpus record
  int64_t superseded = 0;  // records replaced by a later one of their URL
  int64_t filtered = 0;    // merged records the filter left out
  int64_t written = 0;     // records handed on
  int64_t ranked = 0;      // of those, with a rank joined in
  std::vector<std::string> problems;  // the first few, "FILE:LINE: why"
};

// A ranking to join in: the ranker's output (`ranker run --out`, TSV or
// JSON lines; cluster/ranks.h reads it). A record whose URL it holds gets
// rank (1-based position in the file) and rank_score (R = N·score); N is
// the number of pages in the file unless `num_pages` is given.
struct RankJoin {
  std::string path;
  int64_t num_pages = 0;
};

// Calls `emit` once per merged record that passes `filter`, in the order of
// the records' latest lines (input order, then line order). A path that is
// a folder stands for its pages.jsonl. Errors: a missing or unreadable
// input, an unreadable rank file, or an error `emit` returns.
absl::Status ReadCorpus(
    const std::vector<std::string>& inputs, const CorpusFilter& filter,
    const std::optional<RankJoin>& ranks, CorpusStats* stats,
    const std::function<absl::Status(proto::CorpusRecord&)>& emit);

enum class ExportFormat { kJsonl, kCsv, kBulk };
absl::StatusOr<ExportFormat> ParseExportFormat(absl::string_view name);

struct ExportOptions {
  ExportFormat format = ExportFormat::kJsonl;
  // kBulk: the index the documents go to.
  std::string bulk_index = "fcrawl";
};

// The header line of a CSV export: url, title, language, byline, date,
// on_topic, topic_score, relevance, topic_model, rank, rank_score,
// duplicate_of, media (count), media_kinds (e.g. "video;audio"),
// canonical_url, fetched_at, main_text, main_markdown (empty unless the
// crawl wrote it; last, so readers of the older columns find them where
// they were). RFC 4180 quoting.
std::string CsvHeader();
std::string CsvRow(const proto::CorpusRecord& r);

// Two lines (action, then document) of an OpenSearch/Elasticsearch bulk
// request: {"index":{"_index":INDEX,"_id":SHA-1 of the URL, hex}} and the
// record as formats/corpus.h writes it; for a tombstone (`gone`) the one
// line {"delete":{...}} with the same id. Each line ends with '\n'.
std::string BulkLines(const proto::CorpusRecord& r, absl::string_view index);

// Reads `inputs` and writes the export to `out_path` (through a temporary
// file renamed into place).
absl::Status ExportCorpus(const std::vector<std::string>& inputs,
                          const CorpusFilter& filter,
                          const std::optional<RankJoin>& ranks,
                          const ExportOptions& options,
                          const std::string& out_path, CorpusStats* stats);

}  // namespace fcrawl::corpus

#endif  // FCRAWL_CORPUS_CORPUS_H_
