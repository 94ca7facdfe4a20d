// Replays the fuzz corpora (fuzz/corpus/<target>/) through the fuzz targets'
// own code (fuzz/*_fuzzer.cc compiled with -DFCRAWL_FUZZ_REPLAY), so every
// seed and every input a fuzzer once crashed on stays a regression test in the
// normal build, without clang or libFuzzer.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz/fuzz_check.h"
#include "gtest/gtest.h"

namespace fcrawl::fuzz {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> CorpusFiles(const std::string& target) {
  fs::path dir = fs::path(FCRAWL_SOURCE_DIR) / "fuzz" / "corpus" / target;
  std::vector<fs::path> files;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
    if (e.is_regular_file()) files.push_back(e.path());
  }
  EXPECT_FALSE(ec) << dir << ": " << ec.message();
  std::sort(files.begin(), files.end());
  return files;
}

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in),
                     std::istreambuf_iterator<char>());
}

void Replay(const std::string& target,
            int (*fuzz)(const uint8_t* data, size_t size)) {
  std::vector<fs::path> files = CorpusFiles(target);
  ASSERT_FALSE(files.empty())
      << "fuzz/corpus/" << target << "/ has no inputs to replay";
  for (const fs::path& file : files) {
    SCOPED_TRACE(file.string());
    std::string data = ReadFile(file);
    try {
      fuzz(reinterpret_cast<const uint8_t*>(data.data()), data.size());
    } catch (const InvariantError& e) {
      ADD_FAILURE() << file.string() << ": " << e.what();
    }
  }
}

TEST(FuzzReplayTest, UrlCorpus) { Replay("url", &FuzzUrl); }

TEST(FuzzReplayTest, PageCorpus) { Replay("page", &FuzzPage); }

TEST(FuzzReplayTest, SitemapCorpus) { Replay("sitemap", &FuzzSitemap); }

}  // namespace
}  // namespace fcrawl::fuzz
