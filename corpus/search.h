// Search over the crawl's corpus with Xapian (BM25): an index of corpus
// records (proto/corpus.proto) built from `worker corpus`'s inputs
// afterwards (`worker index`) or while crawling (config `search`), and the
// queries `worker search` and the coordinator's /status search box ask.
//
// What is indexed, per record (one Xapian document, its id term "Q"+URL,
// so a page indexed again replaces itself):
//   - title (wdf ×5, also under the prefix "S": `title:word`), the anchor
//     text the crawl found the page by (×2, prefix "XA": `anchor:word`),
//     the main text (×1, Quark's content blocks: the menus, footers and ads
//     of the page are not in it; its first IndexOptions::max_text_bytes);
//     stemmed with Snowball (the index's language, English by default; the
//     stems only, Xapian's STEM_ALL), stop words (core/text.h) left out,
//     Chinese, Japanese and Korean text as character n-grams (Xapian's CJK
//     n-gram mode);
//   - boolean terms: "XT" for pages judged on topic, "L"+language;
//   - value slot 0: the page's block-level rank as B = R/(1+R) (R = N·score
//     joined in by `worker corpus --ranks`; 0 without a rank), in [0, 1);
//   - value slot 2: the URL of the page's original: its duplicate_of (a
//     near-duplicate of a page fetched before), else its own URL; a
//     search shows one page per original (SearchOptions::
//     collapse_duplicates), so a story and its copies take one line;
//   - document data: the record without blocks, main text cut as indexed,
//     for results and snippets.
//
// Scoring: BM25 (Xapian's defaults k1 = 1, b = 0.5) of the query over the
// fields, plus rank_weight × B when the page has a rank, plus topic_weight
// × the page's on-topic score (value slot 1) (OP_AND_MAYBE with value
// posting sources: they order pages the text already matched, they match
// none by themselves). Both weights 0 is BM25 alone.
//
// Snippets come from the main text around the query's words (Xapian's
// MSet::snippet), the matched words marked.
//
// Errors: every Xapian exception becomes an absl::Status naming the index
// folder (a missing index, a locked one, a bad query). Thread-safety: a
// SearchIndex is used by one thread at a time; Xapian allows one writer per
// folder (a second gets FailedPrecondition "locked") and any number of
// readers, which see the last commit.
#ifndef FCRAWL_CORPUS_SEARCH_H_
#define FCRAWL_CORPUS_SEARCH_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "corpus/corpus.h"
#include "proto/corpus.pb.h"

namespace fcrawl::corpus {

struct IndexOptions {
  // Snowball language of the stemmer (Xapian's names: "english", "en",
  // "german", ..., "none"). Queries are stemmed the same way.
  std::string stem_language = "english";
  // Documents added between two commits (while crawling: how much a kill
  // may lose from the index; the corpus lines themselves are never lost,
  // and the index can be rebuilt from them). Small batches keep Xapian's
  // in-memory inversion small: measured while crawling the Wikispeedia
  // web, 1.92 s of indexing CPU per 1,000 pages with 1,000, 1.37 with 100,
  // 1.36 with 50, 1.44 with 20.
  int64_t commit_every = 100;
  // Word positions of the main text, for phrase queries over it ("quantum
  // mechanics" as a phrase; titles and anchors always have theirs). They
  // cost about a third of the indexing CPU (1.37 → 1.0 s per 1,000
  // Wikispeedia pages while crawling): the index built while crawling
  // leaves them out, `worker index` keeps them.
  bool main_text_positions = true;
  // Main text indexed (and kept for snippets) per page: Xapian's indexing
  // costs about linearly in the text (corpus/README.md has the figures),
  // and an article's first paragraphs say what it is about. Longer pages
  // count as this long for BM25's length norm.
  size_t max_text_bytes = 4096;
};

struct SearchOptions {
  int limit = 10;  // results, 1 to 1000
  int offset = 0;  // results skipped (paging)
  // × B = R/(1+R); 0: not used.
  double rank_weight = 4.0;
  // × the crawl's on-topic score (topic_score, in [0, 1]): a topical search
  // engine prefers the pages its crawl judged on topic. 0: not used. The
  // two defaults are the best of {0, 2, 4, 8}² on the dev webs
  // (docs/benchmarks.md "Search over the crawl").
  double topic_weight = 8.0;
  bool on_topic_only = false;  // only pages judged on topic
  // One result per original (value slot 2): of a page and its near-
  // duplicates the best-scoring is shown. An index built before the slot
  // existed is not collapsed.
  bool collapse_duplicates = true;
  size_t snippet_length = 240;  // bytes of main text around the matches
  // How matches are marked in a snippet: kBrackets, plain text with the
  // matches in [brackets]; kHtml, HTML (the page's text escaped, matches in
  // <b>); kControl, plain text with each match between U+0002 and U+0003
  // (for a page script that builds the marks as elements, never parsing
  // the page's text as HTML).
  enum class Marks { kBrackets, kHtml, kControl };
  Marks marks = Marks::kBrackets;
};

struct SearchHit {
  int position = 0;            // 1-based, in this result list
  double weight = 0;           // BM25 + rank_weight × B
  proto::CorpusRecord record;  // url, title, on_topic, rank, ... (no blocks)
  std::string snippet;
};

struct SearchResult {
  int64_t matches_estimated = 0;
  std::vector<SearchHit> hits;
};

class SearchIndex {
 public:
  // Opens (creating when absent) the index folder for writing.
  static absl::StatusOr<std::unique_ptr<SearchIndex>> OpenForWriting(
      const std::string& folder, const IndexOptions& options = {});
  // Opens an existing index for reading (NotFound when there is none).
  static absl::StatusOr<std::unique_ptr<SearchIndex>> OpenForReading(
      const std::string& folder);

  ~SearchIndex();
  SearchIndex(const SearchIndex&) = delete;
  SearchIndex& operator=(const SearchIndex&) = delete;

  // Adds or replaces the record's document, or drops it for a tombstone
  // (`gone`); commits every IndexOptions::commit_every records. Writers
  // only.
  absl::Status Add(const proto::CorpusRecord& record);
  // Makes what was added visible to readers (and durable).
  absl::Status Commit();
  int64_t documents() const;

  // `query` in Xapian's query syntax (words, "phrases", AND/OR/NOT,
  // title:word, anchor:word); at most 4 KiB.
  absl::StatusOr<SearchResult> Search(absl::string_view query,
                                      const SearchOptions& options = {});

 private:
  struct Impl;
  explicit SearchIndex(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// The result as one JSON object: {"query", "matches" (estimated), "hits":
// [{"position", "weight", "url", "title", "on_topic" (or null), "topic_score"
// (or null), "rank" (or null), "media" (count), "snippet"}]}.
std::string SearchResultJson(absl::string_view query,
                             const SearchResult& result);

// A search over HTTP (the coordinator's /search.json?q=QUERY&limit=N):
// the status and the JSON body. 200 with SearchResultJson (snippets marked
// with kControl, the rank at the default weight); 400 {"error"} for an
// empty or bad query or limit; 404 when the index is not built yet; 503
// when `folder` is "" (the server has no index). Opens the index for each
// request, so an index built or updated later is seen.
struct HttpAnswer {
  int status = 200;
  std::string body;
};
HttpAnswer SearchForHttp(const std::string& folder, absl::string_view query,
                         absl::string_view limit);

// Builds (or updates) the index in `folder` from corpus inputs (as
// corpus.h reads them, with its filter and rank join) and commits it;
// returns the number of records indexed.
absl::StatusOr<int64_t> IndexCorpus(const std::vector<std::string>& inputs,
                                    const CorpusFilter& filter,
                                    const std::optional<RankJoin>& ranks,
                                    const std::string& folder,
                                    const IndexOptions& options,
                                    CorpusStats* stats);

}  // namespace fcrawl::corpus

#endif  // FCRAWL_CORPUS_SEARCH_H_
