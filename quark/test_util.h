// Helpers shared by the quark unit tests.
#ifndef FCRAWL_QUARK_TEST_UTIL_H_
#define FCRAWL_QUARK_TEST_UTIL_H_

#include <fstream>
#include <sstream>
#include <string>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "quark/quark.h"

namespace fcrawl::quark::testing {

// Contents of quark/testdata/NAME ("" when missing, which the tests assert on).
inline std::string ReadFixture(const std::string& name) {
  std::ifstream f(std::string(FCRAWL_SOURCE_DIR) + "/quark/testdata/" + name);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// `html` analysed as a news page (http://news.example/a) with `options`;
// a failure is a test failure.
inline AnalyzedPage AnalyzeNewsPage(const std::string& html,
                                    const PageOptions& options) {
  absl::StatusOr<AnalyzedPage> p =
      AnalyzePage(html, "http://news.example/a", "text/html", "", options);
  EXPECT_TRUE(p.ok()) << p.status();
  return p.ok() ? *std::move(p) : AnalyzedPage{};
}

}  // namespace fcrawl::quark::testing

#endif  // FCRAWL_QUARK_TEST_UTIL_H_
