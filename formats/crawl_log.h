// The crawl's JSON-lines outputs in the output folder:
//
//   fetch_log.jsonl  one object per fetch, in fetch (append) order:
//     {"url", "final_url", "status" (int, 0 if no response),
//      "fetched_at" (RFC 3339 UTC, milliseconds), "fetch_ms", "depth",
//      "content_type", "bytes", "relevance" (number or null),
//      "score" (number or null), "topic_score" (number or null),
//      "on_topic" (true, false or null), "error" (string or null)}
//   pages.jsonl      one object per parsed page: its corpus record
//     (proto/corpus.proto, written by formats/corpus.h): url, fetched_url,
//     canonical_url, fetched_at, language, title, byline, date, main_text,
//     relevance, topic_score, on_topic, topic_model, duplicate_of, blocks,
//     media, anchor, rank, rank_score.
//
// relevance is sim(T, page), the TF-IDF cosine the papers' strategies read;
// topic_score and on_topic are the crawl's on-topic decision
// (focus/page_judge.h) and topic_model what made it ("keywords",
// "keywords+feedback", "examples"); null ("" for topic_model) when the crawl
// has no topic. rank and rank_score are null until `worker corpus --ranks`
// joins a ranking in.
//
// Strings may hold any bytes and numbers any value: they are written with
// core/json.h (invalid UTF-8 replaced, control characters escaped, NaN and
// infinities as null).
//
// Durability: every line is written with a single write(2) on a file opened
// with O_APPEND, so a SIGKILL loses at most the line being written; Sync()
// also survives power loss. Open() appends to existing files (a resumed
// crawl) after cutting off a partial last line left by a killed run.
//
// The worker writes these files and crawl-eval reads them, so the format
// lives here (formats/), apart from the worker's libcurl and RocksDB.
//
// Thread-safety: CrawlLog is thread-safe; lines from concurrent Append calls
// never interleave.

#ifndef FCRAWL_FORMATS_CRAWL_LOG_H_
#define FCRAWL_FORMATS_CRAWL_LOG_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "core/disk_reserve.h"
#include "proto/corpus.pb.h"

namespace fcrawl::formats {

struct FetchLogEntry {
  std::string url;
  std::string final_url;      // after redirects; the url when there were none
  int status = 0;             // HTTP status; 0 if no response
  absl::Time fetched_at;      // when the fetch started
  absl::Duration fetch_time;  // written as "fetch_ms" (microsecond precision)
  int depth = 0;
  std::string content_type;
  uint64_t bytes = 0;  // body bytes received
  std::optional<double> relevance;
  std::optional<double> score;        // the strategy's score for the URL
  std::optional<double> topic_score;  // the on-topic decision's score
  std::optional<bool> on_topic;
  std::optional<std::string> error;
  // What the request was for when not a page's first fetch: "robots"
  // (robots.txt), "sitemap", "revisit" (config `revisit`); "" (not
  // written) for pages.
  std::string kind;
  // A revisit's finding: "not modified" (304), "unchanged" (the same
  // body), "changed", "gone" (404, 410); "" (not written) otherwise.
  std::string change;
};

class CrawlLog {
 public:
  static constexpr absl::string_view kFetchLogName = "fetch_log.jsonl";
  static constexpr absl::string_view kPagesName = "pages.jsonl";

  // Opens (creating when absent) both files in `folder`, which must exist.
  // A write that finds the disk full calls `no_space` (thread-safe; see
  // core/disk_reserve.h) and, when it freed space, is tried once more.
  static absl::StatusOr<std::unique_ptr<CrawlLog>> Open(
      const std::string& folder, NoSpaceHook no_space = {});

  CrawlLog(const CrawlLog&) = delete;
  CrawlLog& operator=(const CrawlLog&) = delete;
  ~CrawlLog();

  // Each appends one line. Errors name the file; a failed write is cut off
  // again so the file holds whole lines only. FailedPrecondition after
  // Close().
  absl::Status AppendFetch(const FetchLogEntry& entry);
  absl::Status AppendPage(const proto::CorpusRecord& page);

  // fsync(2) of both files.
  absl::Status Sync();
  // Closes both files; later Appends fail. A second Close() returns OK.
  absl::Status Close();

  const std::string& fetch_log_path() const { return fetch_path_; }
  const std::string& pages_path() const { return pages_path_; }

 private:
  struct File {
    std::string path;
    int fd = -1;
    uint64_t size = 0;  // bytes of whole lines
  };
  CrawlLog(std::string folder, NoSpaceHook no_space);
  static absl::Status OpenFile(File& f);
  absl::Status AppendLine(File& f, absl::string_view line);
  static absl::Status WriteLine(File& f, absl::string_view line);

  const std::string fetch_path_;
  const std::string pages_path_;
  const NoSpaceHook no_space_;
  absl::Mutex fetch_mu_;
  File fetch_ ABSL_GUARDED_BY(fetch_mu_);
  absl::Mutex pages_mu_;
  File pages_ ABSL_GUARDED_BY(pages_mu_);
};

}  // namespace fcrawl::formats

#endif  // FCRAWL_FORMATS_CRAWL_LOG_H_
