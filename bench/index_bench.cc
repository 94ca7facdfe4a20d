// The search index's cost per page, alone: reads corpus records (the
// crawl's pages.jsonl; not timed), then adds them to a new index as the
// crawl's background indexer does and prints the CPU time of that thread
// per page, as JSON. bench/search.py measures the same inside a crawl;
// this isolates it so each change to SearchIndex::Add can be measured
// apart from the crawl's noise.
//
//   index_bench OUT_FOLDER PAGES.jsonl... [--positions] [--repeat N]
//
// --positions: word positions of the main text too (as `worker index`);
// without, as the index built while crawling. --repeat N: the records N
// times, each copy under its own URL (?r=i), for a longer measurement.

#include <time.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "corpus/corpus.h"
#include "corpus/search.h"
#include "proto/corpus.pb.h"

namespace {

double ThreadCpuSeconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> inputs;
  std::string out;
  bool positions = false;
  int repeat = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--positions") {
      positions = true;
    } else if (a == "--repeat" && i + 1 < argc) {
      if (!absl::SimpleAtoi(argv[++i], &repeat) || repeat < 1) {
        std::fprintf(stderr, "--repeat: a positive number\n");
        return 2;
      }
    } else if (out.empty()) {
      out = a;
    } else {
      inputs.push_back(a);
    }
  }
  if (out.empty() || inputs.empty()) {
    std::fprintf(stderr,
                 "usage: index_bench OUT_FOLDER PAGES.jsonl... [--positions] "
                 "[--repeat N]\n");
    return 2;
  }
  std::vector<fcrawl::proto::CorpusRecord> records;
  fcrawl::corpus::CorpusStats stats;
  absl::Status read = fcrawl::corpus::ReadCorpus(
      inputs, {}, std::nullopt, &stats, [&](fcrawl::proto::CorpusRecord& r) {
        records.push_back(std::move(r));
        return absl::OkStatus();
      });
  if (!read.ok()) {
    std::fprintf(stderr, "%s\n", read.ToString().c_str());
    return 1;
  }
  std::error_code ec;
  std::filesystem::remove_all(out, ec);
  fcrawl::corpus::IndexOptions options;
  options.main_text_positions = positions;
  absl::StatusOr<std::unique_ptr<fcrawl::corpus::SearchIndex>> index =
      fcrawl::corpus::SearchIndex::OpenForWriting(out, options);
  if (!index.ok()) {
    std::fprintf(stderr, "%s\n", index.status().ToString().c_str());
    return 1;
  }
  std::vector<std::string> urls;
  for (const fcrawl::proto::CorpusRecord& rec : records) {
    urls.push_back(rec.url());
  }
  const double start = ThreadCpuSeconds();
  int64_t pages = 0;
  for (int r = 0; r < repeat; ++r) {
    for (size_t i = 0; i < records.size(); ++i) {
      fcrawl::proto::CorpusRecord& rec = records[i];
      if (r > 0) rec.set_url(absl::StrCat(urls[i], "?r=", r));
      if (absl::Status s = (*index)->Add(rec); !s.ok()) {
        std::fprintf(stderr, "%s\n", s.ToString().c_str());
        return 1;
      }
      ++pages;
    }
  }
  if (absl::Status s = (*index)->Commit(); !s.ok()) {
    std::fprintf(stderr, "%s\n", s.ToString().c_str());
    return 1;
  }
  const double cpu = ThreadCpuSeconds() - start;
  std::printf(
      "{\"pages\":%lld,\"cpu_seconds\":%.4f,\"cpu_ms_per_page\":%.4f,"
      "\"positions\":%s}\n",
      static_cast<long long>(pages), cpu, pages > 0 ? 1000 * cpu / pages : 0,
      positions ? "true" : "false");
  return 0;
}
