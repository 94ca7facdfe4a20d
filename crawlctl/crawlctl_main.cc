// crawlctl: start, watch, pause, resume, stop and scale a crawl cluster and
// print its summary. See crawlctl.h for the commands and exit statuses.
#include <unistd.h>

#include <iostream>
#include <string>
#include <vector>

#include "crawlctl/crawlctl.h"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  absl::StatusOr<fcrawl::crawlctl::Options> options =
      fcrawl::crawlctl::ParseArgs(args);
  if (!options.ok()) {
    std::cerr << "crawlctl: " << options.status().message()
              << "\n(crawlctl --help lists the commands)\n";
    return fcrawl::crawlctl::kExitUsage;
  }
  fcrawl::crawlctl::RunOptions run;
  // Rewrite the progress line in place only for a person at a terminal;
  // logs and pipes get one line per interval.
  run.tty = isatty(STDOUT_FILENO) == 1;
  return fcrawl::crawlctl::Run(*options, std::cout, std::cerr, run);
}
