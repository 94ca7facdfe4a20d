// The on-topic decision's inputs, recorded and judged again: `worker crawl
// --judge_inputs FILE` writes what the judge read of each page
// (focus/page_judge.h PageTerms: the stemmed terms of the page's
// non-template blocks and of its title) as one JSON object a line
// (proto::JudgeInput), and `worker judge --config CONFIG FILE...` runs the
// judge of CONFIG over them in the same order. A user tries another
// threshold, weight or keyword list on a finished crawl without fetching it
// again; bench/judge.py's figures were tuned this way. With one parse
// thread the replay with the crawl's own config gives the crawl's own
// decisions; with more, each page is recorded just before it is judged,
// so the file's order is close to, not always the same as, the order the
// judge learned in, and a few verdicts may differ.
//
// Thread-safety: JudgeInputLog::Write may be called from many threads at
// once; RejudgeInputs is a plain function.
#ifndef FCRAWL_WORKER_JUDGE_INPUTS_H_
#define FCRAWL_WORKER_JUDGE_INPUTS_H_

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "focus/page_judge.h"

namespace fcrawl::proto {
class CrawlConfig;  // proto/crawl_config.proto
}  // namespace fcrawl::proto

namespace fcrawl::worker {

class JudgeInputLog {
 public:
  // Opens `path` for appending (a resumed crawl goes on writing where it
  // stopped); errors name the path.
  static absl::StatusOr<std::unique_ptr<JudgeInputLog>> Open(
      const std::string& path);
  ~JudgeInputLog();
  JudgeInputLog(const JudgeInputLog&) = delete;
  JudgeInputLog& operator=(const JudgeInputLog&) = delete;

  // One line, flushed. DataLoss naming the file when it cannot be written;
  // the first such error is also printed on stderr, since a crawl goes on
  // without its record.
  absl::Status Write(absl::string_view url, const focus::PageTerms& terms);

 private:
  JudgeInputLog(std::string path, FILE* file)
      : path_(std::move(path)), file_(file) {}
  const std::string path_;
  absl::Mutex mu_;
  FILE* file_ ABSL_GUARDED_BY(mu_);
  bool warned_ ABSL_GUARDED_BY(mu_) = false;
};

struct RejudgeSummary {
  int64_t pages = 0;      // inputs judged
  int64_t on_topic = 0;   // of them, judged on topic
  int64_t bad_lines = 0;  // lines that were no judge input (skipped)
};

// Judges the inputs of `paths` (files `--judge_inputs` wrote), in order,
// with the topic and judge of `config`, learning as it goes as a crawl
// does, and writes one JSON object per page to `out`: url, score, on_topic,
// model. Errors: InvalidArgument when the config has no topic; NotFound for
// a file that cannot be opened; ResourceExhausted for a file of more than
// 200 million lines; those of building the judge (an unreadable model
// file); DataLoss when `out` cannot be written. A line that does not parse
// or is over 64 MiB is counted in bad_lines and skipped.
absl::StatusOr<RejudgeSummary> RejudgeInputs(
    const proto::CrawlConfig& config, const std::vector<std::string>& paths,
    FILE* out);

}  // namespace fcrawl::worker

#endif  // FCRAWL_WORKER_JUDGE_INPUTS_H_
