// Export of a crawl's block-level link graph for the ranker (docs/design.md
// "Ranker"; the format is proto/graph.proto, written with graphio/shard.h).
//
// Every fetched and parsed page of the crawl's database becomes one
// GraphPage: its URL (the URL it was queued under, which is what other
// pages' links name), relevance sim(T, page), its blocks (type, text length,
// document position, offset, anchor-text length) and its out-links with the
// block each sits in, in document order. Links are the hyperlinks the page
// was analysed with (anchors and areas; embedded resources are not links
// between pages). url_rule_distance is |D_url| to the nearest URL pattern
// its site learned (0 when a pattern matches or the site learned none).
// URLs recorded as aliases of a page (protocol/canonical.h) are listed in its
// GraphPage.aliases instead of having a node of their own.
//
// Thread-safety: a read-only open of the database, so it can run while the
// crawl does (it sees the pages committed when each host's scan starts).
#ifndef FCRAWL_WORKER_GRAPH_EXPORT_H_
#define FCRAWL_WORKER_GRAPH_EXPORT_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"

namespace fcrawl::worker {

struct GraphExportOptions {
  // Name recorded in the shard headers and file names
  // (graph-<worker>-<n>.fcg). Letters, digits, '-', '_' and '.'. Default
  // "w0".
  std::string worker = "w0";
  // Pages per shard file. Default 100000.
  int64_t pages_per_shard = 100000;
};

struct GraphExportSummary {
  int64_t pages = 0;
  int64_t links = 0;
  int64_t shards = 0;
  int64_t pages_without_record = 0;  // DONE records whose page is missing
  // Pages that said noindex (protocol/robots_directives.h): no node of their
  // own; links to them still reach them as pages without out-links.
  int64_t noindex_pages = 0;
  // URLs recorded as aliases of a canonical URL (protocol/canonical.h): no
  // node of their own, listed in their canonical page's GraphPage.aliases.
  int64_t aliases = 0;
  // Pages marked as repeating another's main content (GraphPage.
  // duplicate_of; config `duplicates`).
  int64_t duplicate_pages = 0;
};

// Reads the database in `db_dir` (read-only) and writes shards into
// `out_dir` (created; existing shards of the same worker name are
// replaced). Errors: the database cannot be opened, a stored page does not
// parse (DataLoss), a shard cannot be written, bad options.
absl::StatusOr<GraphExportSummary> ExportGraph(
    const std::string& db_dir, const std::string& out_dir,
    const GraphExportOptions& options = {});

}  // namespace fcrawl::worker

#endif  // FCRAWL_WORKER_GRAPH_EXPORT_H_
