// For tests only (needs GoogleTest): a folder of the test's own for the
// files it writes.
//
// The folder is made with mkdtemp under ::testing::TempDir() ($TEST_TMPDIR
// when set, else the system's temp folder), named after the running test,
// and removed with all it holds when the TestTempDir goes. Every object gets
// a new folder, so tests of several builds running side by side on one
// machine, and repeated runs of one test, never write the same file, and
// nothing is left behind.
#ifndef FCRAWL_CORE_TEST_TEMP_DIR_H_
#define FCRAWL_CORE_TEST_TEMP_DIR_H_

#include <stdlib.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "gtest/gtest.h"

namespace fcrawl::file {

class TestTempDir {
 public:
  // Fails the running test (ADD_FAILURE) when the folder cannot be made.
  TestTempDir() {
    std::string name = "fcrawl_test";
    if (const ::testing::TestInfo* info =
            ::testing::UnitTest::GetInstance()->current_test_info()) {
      name = absl::StrCat(info->test_suite_name(), ".", info->name());
    }
    // Parameterised test names hold '/'.
    for (char& c : name) {
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' &&
          c != '_' && c != '-') {
        c = '_';
      }
    }
    std::string base = ::testing::TempDir();
    if (base.empty()) base = "/tmp/";
    if (base.back() != '/') base.push_back('/');
    std::string tmpl = absl::StrCat(base, name, "_XXXXXX");
    if (::mkdtemp(tmpl.data()) == nullptr) {
      ADD_FAILURE() << "cannot create a temporary folder " << tmpl;
      return;
    }
    path_ = tmpl;
  }
  ~TestTempDir() {
    if (path_.empty()) return;
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TestTempDir(const TestTempDir&) = delete;
  TestTempDir& operator=(const TestTempDir&) = delete;

  // The folder ("" when it could not be made).
  const std::string& path() const { return path_; }
  // A path inside it (not created).
  std::string File(absl::string_view name) const {
    return absl::StrCat(path_, "/", name);
  }
  // Writes `contents` to File(name) and returns that path.
  std::string Write(absl::string_view name, absl::string_view contents) const {
    const std::string path = File(name);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
    out.close();
    EXPECT_TRUE(out) << "cannot write " << path;
    return path;
  }

 private:
  std::string path_;
};

}  // namespace fcrawl::file

#endif  // FCRAWL_CORE_TEST_TEMP_DIR_H_
