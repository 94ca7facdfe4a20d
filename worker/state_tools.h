// Command-line readers of a crawl's database (`worker dump-state`,
// `worker list-patterns`, `worker list-outcomes`). They open the database
// read-only, so they work next to a running crawl and see its state as of the
// open.
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

// What the `learned` strategy learned of fetch outcomes per part of each
// site (focus/outcome_model.h), for `host` ("" for every host), from the
// database in `db_dir`, as readable text (`worker list-outcomes`): per host
// its fetches and those that gave a page to read, then per folder the same
// counts, P(page) for a link into it not fetched yet and the weight that
// multiplies such a link's score, then the file names fetched more than
// once on the host. The counts are saved with the model every few hundred
// pages, so a running crawl shows them as of its last save; folder names
// come from the URLs of the database's link records. NotFound when no
// counts are stored (another strategy, learned.learn_outcomes off, or no
// page yet) or `host` has none; DataLoss when the stored model does not
// parse.
absl::StatusOr<std::string> ListFetchOutcomes(const std::string& db_dir,
                                              const std::string& host);

}  // namespace fcrawl::worker

#endif  // FCRAWL_WORKER_STATE_TOOLS_H_
