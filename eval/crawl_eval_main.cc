// crawl-eval: compares crawls of a labelled test web (eval/README.md).
//
//   crawl-eval --labels labels.tsv --topic PREFIX[,PREFIX...]
//              [--relevance-threshold 0.1] [--segment 600] [--out DIR]
//              [--skip-malformed] NAME=PATH [NAME=PATH...]
//
// PATH is a fetch_log.jsonl or a crawl's output folder; NAME= may be left
// out (the name is then the folder's name). Writes DIR/report.md,
// DIR/report.json and DIR/curves.svg (DIR defaults to "crawl-eval") and
// prints report.md on stdout.
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
#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "eval/crawl_eval.h"

namespace {

namespace fs = std::filesystem;
using fcrawl::eval::CrawlResult;

int Usage(const std::string& why) {
  std::fprintf(stderr,
               "crawl-eval: %s\n"
               "usage: crawl-eval --labels FILE --topic PREFIX[,PREFIX...] "
               "[--relevance-threshold T]\n"
               "                  [--segment N] [--out DIR] "
               "[--skip-malformed] [NAME=]PATH...\n",
               why.c_str());
  return 2;
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
  std::string labels_path, topic_arg, out_dir = "crawl-eval";
  fcrawl::eval::EvalOptions eval_options;
  fcrawl::eval::ReadOptions read_options;
  std::vector<std::pair<std::string, std::string>> crawls;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> const char* {
      return i + 1 < argc ? argv[++i] : nullptr;
    };
    if (a == "--labels") {
      const char* v = value();
      if (v == nullptr) return Usage("--labels needs a file");
      labels_path = v;
    } else if (a == "--topic") {
      const char* v = value();
      if (v == nullptr) return Usage("--topic needs PREFIX[,PREFIX...]");
      topic_arg = v;
    } else if (a == "--relevance-threshold") {
      const char* v = value();
      double t;
      if (v == nullptr || !absl::SimpleAtod(v, &t) || !std::isfinite(t)) {
        return Usage("--relevance-threshold needs a number");
      }
      eval_options.relevance_threshold = t;
    } else if (a == "--segment") {
      const char* v = value();
      int n;
      if (v == nullptr || !absl::SimpleAtoi(v, &n) || n < 1) {
        return Usage("--segment needs a positive number of pages");
      }
      eval_options.segment_size = n;
    } else if (a == "--out") {
      const char* v = value();
      if (v == nullptr || *v == '\0') return Usage("--out needs a folder");
      out_dir = v;
    } else if (a == "--skip-malformed") {
      read_options.skip_malformed = true;
    } else if (a == "-h" || a == "--help") {
      Usage("compares crawls of a labelled test web");
      return 0;
    } else if (a.size() > 1 && a[0] == '-') {
      return Usage(absl::StrCat("unknown option ", a));
    } else {
      crawls.push_back(SplitCrawlArg(a));
    }
  }
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
