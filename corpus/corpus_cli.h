// The corpus commands of the worker's command line (`worker corpus`,
// `worker index`, `worker search`): the flags as parsed values in, output
// on stdout/stderr, an exit status out (0 ok, 1 runtime failure, 2 usage or
// input error). worker_main.cc only parses flags and calls these.
#ifndef FCRAWL_CORPUS_CORPUS_CLI_H_
#define FCRAWL_CORPUS_CORPUS_CLI_H_

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "corpus/corpus.h"
#include "corpus/search.h"

namespace fcrawl::corpus {

struct CorpusCliFlags {
  std::string out;     // corpus: the export file
  std::string format;  // corpus: jsonl, csv, bulk
  bool on_topic = false;
  std::string language;
  std::string min_score;  // "" none
  bool media_only = false;
  bool no_duplicates = false;
  bool include_gone = false;  // corpus: write the tombstones of gone pages
  std::string ranks;          // a ranker output to join in
  int64_t num_pages = 0;      // N of R = N·score; 0: the rank file's pages
  std::string bulk_index = ExportOptions().bulk_index;
  std::string index;  // index, search: the index folder
  std::string stem_language = IndexOptions().stem_language;
  int limit = SearchOptions().limit;
  double rank_weight = SearchOptions().rank_weight;
  double topic_weight = SearchOptions().topic_weight;
  bool json = false;  // search: JSON lines instead of text
  // search: near-duplicates as results of their own (not collapsed).
  bool all_duplicates = !SearchOptions().collapse_duplicates;
};

// `worker corpus IN...`: reads, merges, filters, joins, exports.
int RunCorpusExport(const std::vector<std::string>& inputs,
                    const CorpusCliFlags& flags, FILE* out, FILE* err);
// `worker index IN...`: the same records into a search index.
int RunCorpusIndex(const std::vector<std::string>& inputs,
                   const CorpusCliFlags& flags, FILE* out, FILE* err);
// `worker search QUERY`: the best pages with snippets.
int RunCorpusSearch(const std::string& query, const CorpusCliFlags& flags,
                    FILE* out, FILE* err);

}  // namespace fcrawl::corpus

#endif  // FCRAWL_CORPUS_CORPUS_CLI_H_
