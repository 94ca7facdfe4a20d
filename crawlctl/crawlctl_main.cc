// crawlctl: start, watch, pause, resume, stop and scale a crawl cluster and
// print its summary. See crawlctl.h for the commands and exit statuses;
// usage errors are reported by cli::UsageError (exit 2).
#include <unistd.h>

#include <iostream>
#include <string>
#include <vector>

#include "core/cli.h"
#include "crawlctl/crawlctl.h"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  absl::StatusOr<fcrawl::crawlctl::Options> options =
      fcrawl::crawlctl::ParseArgs(args);
  if (!options.ok()) {
    return fcrawl::cli::UsageError(fcrawl::crawlctl::Cli(),
                                   options.status().message());
  }
  fcrawl::crawlctl::RunOptions run;
  // Rewrite the progress line in place only for a person at a terminal;
  // logs and pipes get one line per interval.
  run.tty = isatty(STDOUT_FILENO) == 1;
  return fcrawl::crawlctl::Run(*options, std::cout, std::cerr, run);
}
