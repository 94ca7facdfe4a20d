// Command-line readers of a crawl's database (`worker dump-state`,
// `worker list-patterns`). They open the database read-only, so they work
// next to a running crawl and see its state as of the open.
//
// Thread-safety: plain functions; each opens its own LinkDb.
#ifndef FCRAWL_WORKER_STATE_TOOLS_H_
#define FCRAWL_WORKER_STATE_TOOLS_H_

#include <cstdio>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace fcrawl::worker {

// One JSON object per link record of the database in `db_dir` (as the
// crawler writes it: output_dir/db), in key order, written to `out`.
// Errors: those of LinkDb::OpenReadOnly; DataLoss when `out` cannot be
// written.
absl::Status DumpLinkState(const std::string& db_dir, FILE* out);

// The URL-rule strategy's learned patterns and counts for `host` ("" for
// every site that has any) from the database in `db_dir`, as readable text
// (`worker list-patterns`). NotFound when `host` has none; DataLoss when
// stored patterns do not parse.
absl::StatusOr<std::string> ListUrlPatterns(const std::string& db_dir,
                                            const std::string& host);

}  // namespace fcrawl::worker

#endif  // FCRAWL_WORKER_STATE_TOOLS_H_
