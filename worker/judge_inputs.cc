#include "worker/judge_inputs.h"

#include <cerrno>
#include <fstream>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "core/file.h"
#include "core/json.h"
#include "formats/corpus.h"
#include "proto/crawl_config.pb.h"
#include "proto/page_model.pb.h"
#include "worker/crawl_setup.h"

namespace fcrawl::worker {
namespace {

// A line holds one page's terms: bounded like a corpus line.
constexpr size_t kMaxLineBytes = formats::kMaxCorpusLineBytes;
constexpr int64_t kMaxLines = 200'000'000;

}  // namespace

absl::StatusOr<std::unique_ptr<JudgeInputLog>> JudgeInputLog::Open(
    const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "ae");
  if (f == nullptr) {
    return file::ErrnoStatus(errno, "cannot open the judge inputs file", path);
  }
  return std::unique_ptr<JudgeInputLog>(new JudgeInputLog(path, f));
}

JudgeInputLog::~JudgeInputLog() {
  absl::MutexLock lock(&mu_);
  std::fclose(file_);
}

absl::Status JudgeInputLog::Write(absl::string_view url,
                                  const focus::PageTerms& terms) {
  proto::JudgeInput in;
  in.set_url(std::string(url));
  for (const std::string& t : terms.terms) in.add_terms(t);
  for (const std::string& t : terms.title_terms) in.add_title_terms(t);
  const std::string line = formats::ProtoJson(in) + "\n";
  absl::MutexLock lock(&mu_);
  if (std::fwrite(line.data(), 1, line.size(), file_) != line.size() ||
      std::fflush(file_) != 0) {
    absl::Status s = absl::DataLossError(
        absl::StrCat("cannot write ", path_, ": the judge inputs end here"));
    if (!warned_) {
      warned_ = true;
      std::fprintf(stderr, "worker: %s\n", std::string(s.message()).c_str());
    }
    return s;
  }
  return absl::OkStatus();
}

absl::StatusOr<RejudgeSummary> RejudgeInputs(
    const proto::CrawlConfig& config, const std::vector<std::string>& paths,
    FILE* out) {
  absl::StatusOr<CrawlModels> models = BuildCrawlModels(config);
  if (!models.ok()) return models.status();
  if (!models->topic.has_value() || models->judge == nullptr) {
    return absl::InvalidArgumentError(
        "the config has no topic (topic.keywords or topic.description): "
        "there is nothing to judge the pages against");
  }
  focus::PageJudge& judge = *models->judge;
  RejudgeSummary summary;
  for (const std::string& path : paths) {
    std::ifstream in(path, std::ios::binary);
    if (!in.is_open()) {
      return absl::NotFoundError(absl::StrCat(path, ": cannot open"));
    }
    const std::function<void(int64_t)> too_long = [&](int64_t) {
      ++summary.bad_lines;
    };
    absl::Status s = file::ForEachLine(
        in, path, kMaxLineBytes, kMaxLines,
        [&](absl::string_view line, int64_t, bool) -> absl::Status {
          if (line.empty()) return absl::OkStatus();
          proto::JudgeInput input;
          if (!formats::ParseProtoJson(line, kMaxLineBytes, "judge input",
                                       &input)
                   .ok()) {
            ++summary.bad_lines;
            return absl::OkStatus();
          }
          focus::PageTerms terms;
          terms.terms.assign(input.terms().begin(), input.terms().end());
          terms.title_terms.assign(input.title_terms().begin(),
                                   input.title_terms().end());
          const focus::Verdict v = judge.JudgeAndLearn(terms);
          ++summary.pages;
          summary.on_topic += v.on_topic;
          const std::string row = absl::StrFormat(
              "{\"url\":%s,\"score\":%.6g,\"on_topic\":%s,\"model\":%s}\n",
              json::Quote(input.url()), v.score, v.on_topic ? "true" : "false",
              json::Quote(v.model));
          if (std::fwrite(row.data(), 1, row.size(), out) != row.size()) {
            return absl::DataLossError("cannot write the verdicts");
          }
          return absl::OkStatus();
        },
        &too_long);
    if (!s.ok()) return s;
  }
  return summary;
}

}  // namespace fcrawl::worker
