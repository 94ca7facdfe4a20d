// Invariant checks shared by the fuzz targets (fuzz/*_fuzzer.cc).
//
// The same target code runs in two builds:
//  - the libFuzzer executables (fuzz/CMakeLists.txt), where a failed check
//    prints what failed and traps, so libFuzzer saves the input as a crash;
//  - the replay test (tests/fuzz_replay_test.cc, compiled with
//    -DFCRAWL_FUZZ_REPLAY), where a failed check throws InvariantError so the
//    test can name the corpus file and go on with the next one.
#ifndef FCRAWL_FUZZ_FUZZ_CHECK_H_
#define FCRAWL_FUZZ_FUZZ_CHECK_H_

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace fcrawl::fuzz {

// Entry points, one per target: run one input, return 0 (libFuzzer's
// convention). A broken invariant traps (fuzzer) or throws (replay).
int FuzzUrl(const uint8_t* data, size_t size);
int FuzzPage(const uint8_t* data, size_t size);
int FuzzSitemap(const uint8_t* data, size_t size);

class InvariantError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

[[noreturn]] inline void InvariantFailed(const char* file, int line,
                                         const char* condition,
                                         const std::string& detail) {
  std::string message = std::string(file) + ":" + std::to_string(line) +
                        ": invariant failed: " + condition;
  if (!detail.empty()) message += " (" + detail + ")";
#ifdef FCRAWL_FUZZ_REPLAY
  throw InvariantError(message);
#else
  std::fprintf(stderr, "%s\n", message.c_str());
  std::fflush(stderr);
  __builtin_trap();
#endif
}

}  // namespace fcrawl::fuzz

// FUZZ_CHECK(cond, detail): `detail` is any expression convertible to
// std::string, evaluated only when the check fails.
#define FUZZ_CHECK(cond, detail)                                          \
  do {                                                                    \
    if (!(cond)) {                                                        \
      ::fcrawl::fuzz::InvariantFailed(__FILE__, __LINE__, #cond, detail); \
    }                                                                     \
  } while (0)

#endif  // FCRAWL_FUZZ_FUZZ_CHECK_H_
