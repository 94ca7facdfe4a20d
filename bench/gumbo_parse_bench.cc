// gumbo_parse_bench: how much of quark's time is gumbo's HTML parse.
//
// For a list of HTML files it reads them all into memory first, then times,
// single-threaded, best (minimum) of --repeat runs each:
//   (a) gumbo alone: gumbo_parse_with_options + gumbo_destroy_output on each
//       page's UTF-8 text. The charset decoding (fcrawl::charset::DecodeToUtf8,
//       as the pipeline does it) happens once, before and outside the timed
//       region. The gumbo options are the pipeline's (core/html.cc:
//       kGumboDefaultOptions with max_errors = 0).
//   (b) the whole pipeline: fcrawl::quark::AnalyzePage(bytes, "", "", ""),
//       which decodes, parses with gumbo, converts the tree, segments and
//       classifies.
// and prints one JSON object with both totals, pages/s and the ratio (b)/(a).
//
// With --threads N (bench/crawl.sh) each timed run spreads the pages over N
// threads (each takes the next page from a shared counter) and the times are
// wall-clock times of the whole run, so pages/s is what N cores give; the
// JSON then also has "threads". --gumbo-only skips (b). Without --threads
// everything runs in the calling thread as before.
//
// With --charsets FILE it also writes "<file>\t<charset>\t<source>" per page:
// the charset quark decoded the page with (bench/extraction.sh gives it to the
// Readability runner so that both extractors see the same text).
//
// usage: gumbo_parse_bench [--repeat N] [--threads N] [--gumbo-only]
//                          [--charsets OUT.tsv] [--list FILE] [FILE...]
#include <gumbo.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <limits>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "core/charset.h"
#include "quark/quark.h"

namespace {

using Clock = std::chrono::steady_clock;

struct Page {
  std::string path;
  std::string bytes;
  std::string utf8;
  std::string charset;
  std::string source;
};

bool ReadFile(const std::string& path, std::string* out) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  out->assign(std::istreambuf_iterator<char>(f),
              std::istreambuf_iterator<char>());
  return !f.bad();
}

std::string JsonString(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\u%04x", c);
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

int Usage() {
  std::cerr << "usage: gumbo_parse_bench [--repeat N] [--threads N] "
               "[--gumbo-only] [--charsets OUT.tsv] [--list FILE] [FILE...]\n";
  return 2;
}

// Calls work(i) for every page index i: in the calling thread when threads
// is 0 (no --threads), else in `threads` threads that each take the next
// index from a shared counter. Returns the wall-clock seconds of the whole.
template <typename Work>
double TimeRun(size_t n, int threads, const Work& work) {
  auto start = Clock::now();
  if (threads == 0) {
    for (size_t i = 0; i < n; ++i) work(i);
  } else {
    std::atomic<size_t> next{0};
    std::vector<std::thread> pool;
    pool.reserve(threads);
    for (int t = 0; t < threads; ++t) {
      pool.emplace_back([&] {
        while (true) {
          size_t i = next.fetch_add(1, std::memory_order_relaxed);
          if (i >= n) break;
          work(i);
        }
      });
    }
    for (std::thread& th : pool) th.join();
  }
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  int repeat = 3;
  int threads = 0;  // 0: no --threads, everything in this thread
  bool gumbo_only = false;
  std::string charsets_path;
  std::vector<std::string> paths;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if ((a == "--repeat" || a == "--threads" || a == "--charsets" ||
         a == "--list") &&
        i + 1 >= argc) {
      return Usage();
    }
    if (a == "--repeat") {
      repeat = std::atoi(argv[++i]);
      if (repeat < 1) return Usage();
    } else if (a == "--threads") {
      threads = std::atoi(argv[++i]);
      if (threads < 1 || threads > 1024) return Usage();
    } else if (a == "--gumbo-only") {
      gumbo_only = true;
    } else if (a == "--charsets") {
      charsets_path = argv[++i];
    } else if (a == "--list") {
      std::ifstream list(argv[++i]);
      if (!list) {
        std::cerr << "gumbo_parse_bench: cannot read " << argv[i] << "\n";
        return 1;
      }
      for (std::string line; std::getline(list, line);) {
        if (!line.empty()) paths.push_back(line);
      }
    } else if (a == "-h" || a == "--help") {
      return Usage();
    } else {
      paths.push_back(a);
    }
  }
  if (paths.empty()) return Usage();

  // Read and decode everything first; none of this is timed.
  std::vector<Page> pages;
  pages.reserve(paths.size());
  size_t total_bytes = 0;
  for (const std::string& path : paths) {
    Page page;
    page.path = path;
    if (!ReadFile(path, &page.bytes)) {
      std::cerr << "gumbo_parse_bench: cannot read " << path << "\n";
      return 1;
    }
    absl::StatusOr<fcrawl::charset::DecodeResult> decoded =
        fcrawl::charset::DecodeToUtf8(page.bytes);
    if (decoded.ok()) {
      page.utf8 = std::move(decoded->utf8);
      page.charset = decoded->charset;
      page.source =
          std::string(fcrawl::charset::CharsetSourceName(decoded->source));
    } else {  // cannot happen without an override; parse the bytes as they are
      page.utf8 = page.bytes;
    }
    total_bytes += page.bytes.size();
    pages.push_back(std::move(page));
  }

  if (!charsets_path.empty()) {
    std::ofstream out(charsets_path, std::ios::binary);
    for (const Page& page : pages) {
      out << page.path << "\t" << page.charset << "\t" << page.source << "\n";
    }
    if (!out) {
      std::cerr << "gumbo_parse_bench: cannot write " << charsets_path << "\n";
      return 1;
    }
  }

  GumboOptions options = kGumboDefaultOptions;
  options.max_errors = 0;  // as core/html.cc parses

  double best_gumbo = std::numeric_limits<double>::infinity();
  double best_pipeline = std::numeric_limits<double>::infinity();
  size_t pipeline_failures = 0;
  std::atomic<size_t> blocks{0};
  std::atomic<size_t> gumbo_nodes{0};
  // Alternate (a) and (b) so both see the same machine load over the runs.
  for (int run = 0; run < repeat; ++run) {
    best_gumbo = std::min(
        best_gumbo, TimeRun(pages.size(), threads, [&](size_t i) {
          const Page& page = pages[i];
          GumboOutput* output = gumbo_parse_with_options(
              &options, page.utf8.data(), page.utf8.size());
          if (output != nullptr && output->root != nullptr) {
            gumbo_nodes.fetch_add(output->root->v.element.children.length,
                                  std::memory_order_relaxed);
          }
          gumbo_destroy_output(&options, output);
        }));
    if (gumbo_only) continue;

    std::atomic<size_t> failures{0};
    best_pipeline =
        std::min(best_pipeline, TimeRun(pages.size(), threads, [&](size_t i) {
                   absl::StatusOr<fcrawl::quark::AnalyzedPage> analyzed =
                       fcrawl::quark::AnalyzePage(pages[i].bytes, "", "", "");
                   if (analyzed.ok()) {
                     blocks.fetch_add(analyzed->segmentation.blocks.size(),
                                      std::memory_order_relaxed);
                   } else {
                     failures.fetch_add(1, std::memory_order_relaxed);
                   }
                 }));
    pipeline_failures = failures.load();
  }

  std::ostringstream json;
  json.precision(6);
  size_t n = pages.size();
  json << "{\"pages\": " << n << ", \"bytes\": " << total_bytes
       << ", \"repeat\": " << repeat;
  if (threads > 0) json << ", \"threads\": " << threads;
  json << ", \"gumbo_s\": " << best_gumbo
       << ", \"gumbo_pages_per_s\": " << (n / best_gumbo);
  if (!gumbo_only) {
    json << ", \"pipeline_s\": " << best_pipeline
         << ", \"pipeline_pages_per_s\": " << (n / best_pipeline)
         << ", \"ratio\": " << (best_pipeline / best_gumbo)
         << ", \"pipeline_failures\": " << pipeline_failures;
  }
  json << ", \"checksum\": " << (blocks.load() + gumbo_nodes.load())
       << ", \"gumbo_options\": "
       << JsonString("kGumboDefaultOptions, max_errors=0") << "}\n";
  std::cout << json.str();
  return 0;
}
