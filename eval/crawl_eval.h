// Crawl evaluation: the measures of docs/papers.md "Evaluation
// measures" computed from a crawl's fetch log (formats/crawl_log.h) and the
// labels of a test web (tests/testweb/README.md, `labels.tsv`).
//
//  - harvest rate (precision, seeds 000 and 003): on-topic pages fetched ÷
//    pages fetched, after every page;
//  - recall ([MMTOPIC]): distinct on-topic labelled URLs fetched ÷ on-topic
//    labelled URLs of the test web, after every page;
//  - sum_of_relevantPage and sum_of_info ([SSAPS], formulas 5–7): pages whose
//    logged relevance R'_p = cos(whole page, topic) is above a threshold, and
//    the sum of R'_p, cumulative and per segment of `segment_size` pages.
//
// Harvest rate and recall use the labels (ground truth); the [SSAPS] sums
// use the crawler's own relevance scores, as the paper does.
//
// What counts as a fetched page: every fetch-log line except robots.txt
// fetches (path /robots.txt) and lines whose URL an earlier line already had
// (a crawl resumed after SIGKILL may log a page twice; the first counts).
// Redirect chains are one line (url = first URL, final_url = last); a page is
// on topic when either is labelled on topic.
//
// URLs on both sides are normalised with fcrawl::url::Parse; one that does not
// parse is compared as written.
//
// Input files are untrusted: lines longer than ReadOptions::max_line_bytes,
// files with more than max_lines lines, and malformed lines are errors naming
// source:line (see ReadFetchLog for the exceptions). Nothing here throws.
//
// Thread-safety: every function is thread-safe (no shared state).

#ifndef FCRAWL_EVAL_CRAWL_EVAL_H_
#define FCRAWL_EVAL_CRAWL_EVAL_H_

#include <cstddef>
#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace fcrawl::eval {

struct ReadOptions {
  // Longest line accepted, in bytes without the newline. A fetch-log line is
  // a few hundred bytes; anything near this is not a crawler's output.
  size_t max_line_bytes = size_t{1} << 20;  // 1 MiB
  // Most lines read from one file (bounds memory: about 200 bytes a page).
  int64_t max_lines = 20'000'000;
  // Malformed fetch-log lines (bad JSON, "url" missing or not a string,
  // "relevance" neither a number nor null): false = error naming
  // source:line; true = skip them and count them in FetchLog::malformed.
  bool skip_malformed = false;
};

// Normalised URL (url::Parse(u)->spec()), or `u` as written when it does not
// parse.
std::string NormalizeUrl(absl::string_view u);

// labels.tsv: normalised URL -> its labels (a URL listed twice gets the union).
using Labels = absl::flat_hash_map<std::string, std::vector<std::string>>;

// What ReadLabels saw besides the labels (optional out-parameter).
struct LabelsInfo {
  int64_t extra_columns = 0;  // lines with columns after the labels
  bool header = false;        // the first line was a header
};

// The `max` most frequent labels of `labels`, most frequent first, with
// their page counts: what an error about a topic that matches nothing shows.
std::vector<std::pair<std::string, int64_t>> CommonLabels(const Labels& labels,
                                                          size_t max);

// Reads `url<TAB>label[,label...]` lines. Labels are trimmed, empty ones
// dropped (a page may have none); empty lines are ignored; a trailing CR is
// removed. Columns after the second (`url<TAB>label<TAB>site`, as data sets
// often have) are not labels: they are ignored and the lines that had them
// are counted in `extra_columns`. A first line whose URL field is "url" is
// a header and skipped. Errors (InvalidArgument, naming source:line): a line
// without a tab or with an empty URL; too long lines and too many lines
// (ResourceExhausted).
absl::StatusOr<Labels> ReadLabels(std::istream& in, absl::string_view source,
                                  const ReadOptions& options = {},
                                  LabelsInfo* info = nullptr);
// The same from a file; NotFound / PermissionDenied name the path.
absl::StatusOr<Labels> ReadLabelsFile(const std::string& path,
                                      const ReadOptions& options = {},
                                      LabelsInfo* info = nullptr);

// Splits "a, b.c" into {"a", "b.c"}. InvalidArgument when no prefix is left
// or one is empty.
absl::StatusOr<std::vector<std::string>> ParseTopic(absl::string_view topic);

// True when a label equals a prefix or starts with prefix + "." (so
// "subject.Science" matches "subject.Science.Physics" but not
// "subject.ScienceFiction").
bool OnTopic(const std::vector<std::string>& labels,
             const std::vector<std::string>& prefixes);

// The URLs of `labels` that are on topic.
absl::flat_hash_set<std::string> OnTopicUrls(
    const Labels& labels, const std::vector<std::string>& prefixes);

struct FetchedPage {
  std::string url;        // normalised
  std::string final_url;  // normalised; the url when the line had none
  std::optional<double> relevance;  // R'_p; absent when not scored (bfs)
  // The crawler's on-topic decision ("on_topic"); absent when it made none.
  std::optional<bool> judged_on_topic;
  int status = 0;                 // "status": the final HTTP status, 0 for none
  std::string content_type = "";  // "content_type", as the server sent it
  bool error = false;             // "error" is a non-empty string
};

struct FetchLog {
  std::vector<FetchedPage> pages;  // in fetch order, one per counted line
  int64_t lines = 0;               // non-empty lines read
  int64_t robots = 0;              // robots.txt lines skipped
  int64_t duplicates = 0;          // lines whose url was already counted
  int64_t malformed = 0;           // skipped (ReadOptions::skip_malformed)
  int64_t truncated_tail = 0;      // 1 when a malformed last line was skipped
};

// Reads fetch_log.jsonl with protobuf's JSON parser. Fields other than
// "url", "final_url", "relevance", "on_topic", "status", "content_type" and
// "error" are not looked at. A malformed
// last line without a newline is skipped and counted in truncated_tail whatever
// skip_malformed says: it is what a crawl killed mid-write leaves behind.
absl::StatusOr<FetchLog> ReadFetchLog(std::istream& in,
                                      absl::string_view source,
                                      const ReadOptions& options = {});
// The same from a file, or from `path`/fetch_log.jsonl when `path` is a
// folder.
absl::StatusOr<FetchLog> ReadFetchLogFile(const std::string& path,
                                          const ReadOptions& options = {});

struct EvalOptions {
  // A page is relevant for sum_of_relevantPage when R'_p > this ([SSAPS]:
  // "大于给定的阈值", greater than a given threshold; the paper gives no
  // value). 0.1 is the strategies' relevance threshold (Fish-Search's and
  // URL-rule's relevance_threshold).
  double relevance_threshold = 0.1;
  // Pages per segment ([SSAPS] splits 6,000 pages into segments of 600).
  int segment_size = 600;
};

struct Segment {
  int64_t first_page = 0;   // 1-based, inclusive
  int64_t last_page = 0;    // inclusive; the last segment may be partial
  int64_t on_topic = 0;     // pages labelled on topic
  double harvest_rate = 0;  // on_topic ÷ pages of the segment
  int64_t sum_of_relevant_page = 0;  // pages with R'_p > threshold
  double sum_of_info = 0;            // Σ R'_p
};

// What each fetch came to, one class per counted page (the first that
// applies): on topic by the labels (url or final_url), 404 or 410, another
// HTTP error or no response (status 0, >= 300 after redirects, or a 2xx
// with an error such as a truncated body), a 2xx that is not HTML (by
// content type), or an HTML page off topic. `redirected` counts, across the
// classes, the fetches whose final_url differs from the url.
struct FetchOutcomes {
  int64_t on_topic = 0;
  int64_t not_found = 0;
  int64_t other_error = 0;
  int64_t non_html = 0;
  int64_t off_topic = 0;
  int64_t redirected = 0;
};

// The class of one fetch (what FetchOutcomes counts), given whether the
// labels put it on topic.
enum class FetchOutcome {
  kOnTopic,
  kNotFound,
  kOtherError,
  kNonHtml,
  kOffTopic
};
FetchOutcome ClassifyFetch(const FetchedPage& page, bool labelled_on_topic);

struct CrawlResult {
  std::string name;
  std::string source;   // where the fetch log came from
  FetchLog log_counts;  // counters only: `pages` is left empty
  int64_t pages = 0;
  int64_t on_topic = 0;        // pages labelled on topic (harvest numerator)
  int64_t on_topic_found = 0;  // distinct on-topic URLs (recall numerator)
  int64_t on_topic_total = 0;  // on-topic labelled URLs (recall denominator)
  double harvest_rate = 0;     // 0 when no page was fetched
  double recall = 0;           // 0 when on_topic_total is 0
  int64_t pages_with_relevance = 0;  // 0 means the [SSAPS] sums mean nothing
  int64_t sum_of_relevant_page = 0;
  double sum_of_info = 0;
  // The crawler's on-topic decision as a classifier against the labels,
  // over the pages it decided on (fetch-log "on_topic" true or false):
  // true positives (judged on topic, labelled on topic), false positives,
  // false negatives, and the precision, recall and F1 they give (0 when
  // undefined). judged = 0 means the log carries no decision.
  int64_t judged = 0;
  int64_t judged_true_positives = 0;
  int64_t judged_false_positives = 0;
  int64_t judged_false_negatives = 0;
  double judge_precision = 0;
  double judge_recall = 0;
  double judge_f1 = 0;
  FetchOutcomes outcomes;
  // Distinct hosts with at least one on-topic page (the final URL's host
  // when the final URL is labelled on topic, else the URL's).
  int64_t on_topic_hosts = 0;
  // Value after page i+1, one entry per page.
  std::vector<double> harvest_curve;
  std::vector<double> recall_curve;
  std::vector<int64_t> relevant_page_curve;
  std::vector<double> info_curve;
  std::vector<Segment> segments;
};

// Computes every measure for one crawl. `on_topic` holds normalised URLs.
// InvalidArgument when options.segment_size < 1 or the threshold is not
// finite.
absl::StatusOr<CrawlResult> Evaluate(
    absl::string_view name, const FetchLog& log,
    const absl::flat_hash_set<std::string>& on_topic,
    const EvalOptions& options = {});

// What the reports say about how they were made.
struct ReportContext {
  std::string labels_source;
  std::vector<std::string> topic;
  int64_t on_topic_total = 0;
  EvalOptions options;
};

// report.md: a summary table (one row per crawl) and per-segment tables
// (one column per crawl). Crawl names are escaped for markdown tables.
std::string ReportMarkdown(const std::vector<CrawlResult>& results,
                           const ReportContext& context);
// report.json: everything, curves included (numbers to 6 significant
// digits).
std::string ReportJson(const std::vector<CrawlResult>& results,
                       const ReportContext& context);

struct SvgOptions {
  // Points per polyline at most; longer curves are sampled evenly (first and
  // last page always kept). Browsers draw 500 points without trouble and a
  // 1000-pixel plot cannot show more.
  int max_points = 500;
  int width = 1000;
  int height = 800;
};
// curves.svg: two panels, harvest rate and recall against pages fetched, one
// polyline per crawl and a legend. Self-contained SVG 1.1, names escaped.
std::string CurvesSvg(const std::vector<CrawlResult>& results,
                      const ReportContext& context,
                      const SvgOptions& options = {});

// Indices of at most `max_points` (>= 2) elements of a sequence of `n`,
// evenly spread, first and last included, increasing.
std::vector<size_t> SampleIndices(size_t n, int max_points);

}  // namespace fcrawl::eval

#endif  // FCRAWL_EVAL_CRAWL_EVAL_H_
