// Helpers shared by the quark unit tests.
#ifndef FCRAWL_QUARK_TEST_UTIL_H_
#define FCRAWL_QUARK_TEST_UTIL_H_

#include <fstream>
#include <sstream>
#include <string>

namespace fcrawl::quark::testing {

// Contents of quark/testdata/NAME ("" when missing, which the tests assert on).
inline std::string ReadFixture(const std::string& name) {
  std::ifstream f(std::string(FCRAWL_SOURCE_DIR) + "/quark/testdata/" + name);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

}  // namespace fcrawl::quark::testing

#endif  // FCRAWL_QUARK_TEST_UTIL_H_
