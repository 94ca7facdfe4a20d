// crawl-eval: compares crawls of a labelled test web (eval/README.md).
//
//   crawl-eval compare --labels labels.tsv --topic PREFIX[,PREFIX...]
//              [--relevance_threshold 0.1] [--segment 600] [--out DIR]
//              [--skip_malformed] NAME=PATH [NAME=PATH...]
//
// PATH is a fetch_log.jsonl or a crawl's output folder; NAME= may be left
// out (the name is then the folder's name). Writes DIR/report.md,
// DIR/report.json and DIR/curves.svg and prints report.md on stdout. The
// flags' meanings are with their definitions (`crawl-eval compare --help`).
//
// Exit status: 0 on success, 1 on a runtime failure (unreadable or malformed
// input, no on-topic page in the labels, a file not written), 2 on a usage
// error.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/cli.h"
#include "eval/crawl_eval.h"

ABSL_FLAG(std::string, labels, "",
          "the test web's labels.tsv (URL, label) (required)");
ABSL_FLAG(std::string, topic, "",
          "the on-topic labels, comma-separated; a label or a label's dotted "
          "prefix (required)");
ABSL_FLAG(double, relevance_threshold,
          fcrawl::eval::EvalOptions().relevance_threshold,
          "a fetched page counts as relevant when its logged relevance R'_p "
          "is above this (the crawler's own on-topic threshold is 0.1)");
ABSL_FLAG(int, segment, fcrawl::eval::EvalOptions().segment_size,
          "pages per segment of the per-segment harvest rates (at least 1)");
ABSL_FLAG(std::string, out, "crawl-eval",
          "folder for report.md, report.json and curves.svg");
ABSL_FLAG(bool, skip_malformed, false,
          "skip malformed lines of the logs and labels (a crawl killed "
          "mid-write leaves one) instead of failing");

namespace {

namespace fs = std::filesystem;
using fcrawl::eval::CrawlResult;

const fcrawl::cli::Program& Cli() {
  static const auto* const kProgram = new fcrawl::cli::Program{
      "crawl-eval",
      "Compares crawls of a labelled test web: harvest rate, recall of the "
      "on-topic pages and their curves over the crawl (eval/README.md).",
      {},
      {
          {"compare",
           "[NAME=]PATH...",
           1,
           -1,
           "Evaluates each crawl (PATH: a fetch_log.jsonl or a crawl's output "
           "folder; NAME defaults to the folder's name) against the labels, "
           "writes OUT/report.md, OUT/report.json and OUT/curves.svg and "
           "prints report.md.",
           {"labels", "topic", "relevance_threshold", "segment", "out",
            "skip_malformed"}},
      },
      "Exit status: 0 on success, 1 on a runtime failure (unreadable or "
      "malformed input, no on-topic page in the labels, a file not "
      "written), 2 on a usage error.",
  };
  return *kProgram;
}

int Usage(const std::string& why) {
  return fcrawl::cli::UsageError(Cli(), why, &Cli().commands[0]);
}

int Fail(const absl::Status& s) {
  std::fprintf(stderr, "crawl-eval: %s\n", std::string(s.message()).c_str());
  return 1;
}

absl::Status WriteFile(const fs::path& path, const std::string& content) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) {
    return absl::PermissionDeniedError(
        absl::StrCat(path.string(), ": cannot create"));
  }
  const bool ok =
      std::fwrite(content.data(), 1, content.size(), f) == content.size();
  if (std::fclose(f) != 0 || !ok) {
    return absl::DataLossError(absl::StrCat(path.string(), ": write failed"));
  }
  return absl::OkStatus();
}

// "NAME=PATH" or "PATH"; the name of a bare path is its folder's name
// ("out/crawl-ssaps/fetch_log.jsonl" and "out/crawl-ssaps" give
// "crawl-ssaps").
std::pair<std::string, std::string> SplitCrawlArg(const std::string& a) {
  const size_t eq = a.find('=');
  if (eq != std::string::npos && eq > 0) {
    return {a.substr(0, eq), a.substr(eq + 1)};
  }
  fs::path p = fs::path(a).lexically_normal();
  if (!p.has_filename()) p = p.parent_path();  // trailing '/'
  std::error_code ec;
  if (!fs::is_directory(p, ec)) p = p.parent_path();
  std::string name = p.filename().string();
  return {name.empty() ? a : name, a};
}

}  // namespace

int main(int argc, char** argv) {
  const fcrawl::cli::Invocation inv =
      fcrawl::cli::ParseOrExit(Cli(), argc, argv);
  const std::string labels_path = absl::GetFlag(FLAGS_labels);
  const std::string topic_arg = absl::GetFlag(FLAGS_topic);
  const std::string out_dir = absl::GetFlag(FLAGS_out);
  fcrawl::eval::EvalOptions eval_options;
  eval_options.relevance_threshold = absl::GetFlag(FLAGS_relevance_threshold);
  if (!std::isfinite(eval_options.relevance_threshold)) {
    return Usage("--relevance_threshold must be a number");
  }
  eval_options.segment_size = absl::GetFlag(FLAGS_segment);
  if (eval_options.segment_size < 1) {
    return Usage("--segment must be a positive number of pages");
  }
  if (out_dir.empty()) return Usage("--out needs a folder");
  fcrawl::eval::ReadOptions read_options;
  read_options.skip_malformed = absl::GetFlag(FLAGS_skip_malformed);
  std::vector<std::pair<std::string, std::string>> crawls;
  for (const std::string& a : inv.args) crawls.push_back(SplitCrawlArg(a));
  if (labels_path.empty()) return Usage("--labels is required");
  if (topic_arg.empty()) return Usage("--topic is required");
  if (crawls.empty()) return Usage("name at least one crawl (NAME=PATH)");
  absl::flat_hash_set<std::string> names;
  for (const auto& [name, path] : crawls) {
    if (!names.insert(name).second) {
      return Usage(absl::StrCat("crawl name '", name, "' given twice"));
    }
  }
  auto topic = fcrawl::eval::ParseTopic(topic_arg);
  if (!topic.ok()) return Usage(std::string(topic.status().message()));

  fcrawl::eval::LabelsInfo labels_info;
  auto labels =
      fcrawl::eval::ReadLabelsFile(labels_path, read_options, &labels_info);
  if (!labels.ok()) return Fail(labels.status());
  if (labels_info.extra_columns > 0) {
    std::fprintf(stderr,
                 "crawl-eval: %s: %lld lines have columns after the labels; "
                 "only the second column is read as labels\n",
                 labels_path.c_str(),
                 static_cast<long long>(labels_info.extra_columns));
  }
  const auto on_topic = fcrawl::eval::OnTopicUrls(*labels, *topic);
  if (on_topic.empty()) {
    // Almost always a mistyped topic: every recall would be 0/0. Show what
    // the file's labels look like.
    std::string common;
    for (const auto& [label, n] : fcrawl::eval::CommonLabels(*labels, 8)) {
      absl::StrAppend(&common, common.empty() ? "" : ", ", label, " (", n, ")");
    }
    return Fail(absl::NotFoundError(absl::StrCat(
        labels_path, ": no labelled page is on topic '", topic_arg, "' (",
        labels->size(), " labelled pages; most frequent labels: ",
        common.empty() ? "none" : common,
        "; a topic matches a label or a label's dotted prefix)")));
  }

  std::vector<CrawlResult> results;
  for (const auto& [name, path] : crawls) {
    auto log = fcrawl::eval::ReadFetchLogFile(path, read_options);
    if (!log.ok()) return Fail(log.status());
    auto r = fcrawl::eval::Evaluate(name, *log, on_topic, eval_options);
    if (!r.ok()) return Fail(r.status());
    r->source = path;
    results.push_back(*std::move(r));
  }

  fcrawl::eval::ReportContext context;
  context.labels_source = labels_path;
  context.topic = *topic;
  context.on_topic_total = static_cast<int64_t>(on_topic.size());
  context.options = eval_options;

  std::error_code ec;
  fs::create_directories(out_dir, ec);
  if (ec) {
    return Fail(absl::PermissionDeniedError(
        absl::StrCat(out_dir, ": cannot create: ", ec.message())));
  }
  const std::string md = fcrawl::eval::ReportMarkdown(results, context);
  const std::pair<const char*, std::string> files[] = {
      {"report.md", md},
      {"report.json", fcrawl::eval::ReportJson(results, context)},
      {"curves.svg", fcrawl::eval::CurvesSvg(results, context)},
  };
  for (const auto& [file, content] : files) {
    if (absl::Status s = WriteFile(fs::path(out_dir) / file, content);
        !s.ok()) {
      return Fail(s);
    }
  }
  std::fwrite(md.data(), 1, md.size(), stdout);
  std::fprintf(stderr,
               "crawl-eval: wrote %s/report.md, report.json, curves.svg\n",
               out_dir.c_str());
  return 0;
}
