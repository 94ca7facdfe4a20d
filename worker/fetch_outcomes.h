// What became of each URL a crawl set out to fetch (issue 50, item 7): the
// live share of fetches by outcome that `worker crawl`'s summary, the
// worker's WorkerStats and the coordinator's /status show, as crawl-eval
// shows it after the crawl from the fetch log (eval/crawl_eval.h).
//
// One class per URL, counted once, when its outcome is committed
// (worker/page_commit.h): a URL retried after 429/503 or followed through
// redirects counts once, with what its last request got. robots.txt and
// sitemap fetches are no pages and revisits re-fetch a page counted before,
// so none of them counts. URLs the strategy refused were never meant to be
// fetched and do not count either; URLs robots.txt refused or whose host
// was found unreachable were, and count (robots, transport_error) though
// no request was made for them.
//
// Thread-safety: none; the crawl thread owns the counter.
#ifndef FCRAWL_WORKER_FETCH_OUTCOMES_H_
#define FCRAWL_WORKER_FETCH_OUTCOMES_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/string_view.h"

namespace fcrawl::worker {

enum class FetchOutcome {
  kOnTopic,         // parsed; the page judge said on topic
  kOffTopic,        // parsed; off topic (or the crawl has no topic)
  kNotFound,        // HTTP 404 or 410
  kHttpError,       // another HTTP status >= 400 (or < 200)
  kTransportError,  // no HTTP answer: timeout, DNS, connection, TLS
  kRobots,          // robots.txt disallowed the URL or its redirect's target
  kNotHtml,         // a 2xx answer not parsed (another content type, empty)
  kRedirected,      // a 3xx not followed to a page under this URL
};

// What the commit knows of a URL's end, to classify it from.
struct FetchFacts {
  // A request was made for the URL (or an earlier hop of its chain).
  bool fetched = false;
  // Decided without an answer to classify: robots.txt refused the URL
  // (kRobots) or its host is unreachable (kTransportError).
  std::optional<FetchOutcome> decided;
  // The last request got no HTTP answer (FetchResult::error).
  bool transport_error = false;
  int http_status = 0;  // of the last answer; 0 when none
  bool parsed = false;
  bool on_topic = false;  // the page judge's decision (parsed pages)
};

// The class of a URL's end; nullopt for a URL that does not count (not
// fetched and not decided: the strategy refused it). A parsed page on topic
// is kOnTopic even when it had a problem (a truncated body), as crawl-eval
// counts a labelled page; a parsed page is never kNotHtml.
std::optional<FetchOutcome> ClassifyFetch(const FetchFacts& facts);

// The counts of one run, by class, and the hosts with an on-topic page.
struct FetchOutcomeCounts {
  int64_t on_topic = 0;
  int64_t off_topic = 0;
  int64_t not_found = 0;
  int64_t http_error = 0;
  int64_t transport_error = 0;
  int64_t robots = 0;
  int64_t not_html = 0;
  int64_t redirected = 0;
  // Distinct hosts (url::HostKey: host plus an explicit port, so that in a
  // cluster each host has one owner and the workers' counts add up) of
  // the final URLs of on-topic pages.
  int64_t on_topic_hosts = 0;
};

class FetchOutcomeCounter {
 public:
  // Counts one URL's end; `final_url` is where its page came from (for
  // on_topic_hosts; only read for kOnTopic).
  void Add(FetchOutcome outcome, absl::string_view final_url);
  const FetchOutcomeCounts& counts() const { return counts_; }

 private:
  FetchOutcomeCounts counts_;
  absl::flat_hash_set<std::string> on_topic_hosts_;
};

}  // namespace fcrawl::worker

#endif  // FCRAWL_WORKER_FETCH_OUTCOMES_H_
