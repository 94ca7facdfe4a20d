// ranker: block-level link analysis over graph shards, as batch jobs, in one
// process. The commands and flags are in ranker_cli.h.
#include "ranker/ranker_cli.h"

int main(int argc, char** argv) {
  return fcrawl::ranker::RankerMain(argc, argv, /*exchange=*/nullptr);
}
