// The records the crawl loop's rooms hand each other (docs/design.md "One
// page, from fetch to ranker"): a request on its way (Task), a page for the
// parse pool (ParseJob), what parsing made of it (ParseOutcome) and its
// scored out-links (OutLink); and the copy between a LinkRecord and the
// strategy's FrontierState. Plain values, no behaviour beyond that copy:
// whoever holds one owns it.
#ifndef FCRAWL_WORKER_CRAWL_TASK_H_
#define FCRAWL_WORKER_CRAWL_TASK_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "core/minhash.h"
#include "core/url.h"
#include "focus/strategy.h"
#include "proto/corpus.pb.h"
#include "proto/link_state.pb.h"
#include "proto/page.pb.h"
#include "protocol/fetcher.h"
#include "worker/fetch_outcomes.h"

namespace fcrawl::worker {

// One request on its way: a robots.txt fetch, or one hop of a page fetch.
struct Task {
  enum class Kind { kRobots, kPage, kSitemap };
  Kind kind = Kind::kPage;
  std::string host;                // HostKey of `url`
  std::string url;                 // requested now
  proto::LinkRecord record;        // kPage: the URL's record (IN_FLIGHT)
  int hops = 0;                    // redirects followed so far
  int retries = 0;                 // 429/503 answers so far
  std::vector<std::string> chain;  // URLs requested so far, in order
  std::vector<int> chain_status;   // HTTP status of each (redirects)
  absl::Time started = absl::InfinitePast();  // first request of the chain
  bool from_index = false;  // kSitemap: named by a sitemap index
  // kPage: a revisit (config `revisit`) of a page fetched before; `record`
  // is its DONE record as read when it came due.
  bool revisit = false;
};

// What a revisit found (worker/revisit.h).
enum class RevisitResult {
  kNotModified,  // 304
  kUnchanged,    // 2xx, the same body
  kChanged,      // 2xx, another body (parsed again)
  kGone,         // 404 or 410: not revisited again
  kFailed,       // no answer, or one that says nothing about the page
  kDisallowed,   // robots.txt disallows it now: not revisited again
};

// A page's out-link as the strategy scored it, canonical and in scope.
struct OutLink {
  std::string url;
  std::string host;  // storage::HostKey(url)
  focus::FrontierState state;
  std::string anchor;
  proto::BlockType block = proto::BLOCK_TYPE_UNSPECIFIED;
  int physical_layer = 0;
  int64_t lastmod_ms = 0;  // from a sitemap's <lastmod>; 0 none
};

struct ParseJob {
  Task task;
  protocol::FetchResult result;
  std::vector<std::string> problems;  // found before parsing (truncation, ...)
};

struct ParseOutcome {
  Task task;
  protocol::FetchResult result;  // body cleared
  int64_t body_bytes = 0;
  std::vector<std::string> problems;
  bool parsed = false;
  // A request was made for the URL (false for URLs recorded without one:
  // robots.txt disallows them, or their host is unreachable).
  bool fetched = true;
  // The record's status when it is not decided by parsing.
  std::optional<proto::LinkRecord::Status> status;
  // What the URL counts as when that was decided without an answer
  // (robots.txt, an unreachable host; worker/fetch_outcomes.h).
  std::optional<FetchOutcome> decided;
  absl::Status parse_error;
  absl::Status warc_status;  // archiving in the parse thread
  proto::StoredPage stored;  // blocks and links, text left out
  std::string title, keywords, description;
  // What the page says for its corpus record (quark::ToCorpusRecord: main
  // text, metadata, block summary, media); the commit adds the crawl's part.
  proto::CorpusRecord corpus;
  std::optional<double> relevance;
  // The on-topic decision (focus/page_judge.h) when the page was parsed
  // and the crawl has a topic.
  std::optional<double> topic_score;
  bool on_topic = false;
  std::string topic_model;
  bool media = false;
  std::vector<OutLink> links;
  // Out-links left out because their host is outside the crawl's scope.
  int64_t links_out_of_scope = 0;
  // Robots directives (protocol/robots_directives.h): the page said noindex
  // (not written to pages.jsonl); out-links not queued because the page
  // said nofollow or the link had rel=nofollow.
  bool noindex = false;
  int64_t links_nofollow = 0;
  // The canonical URL the page declares (protocol/canonical.h), normalised,
  // in scope and other than the URLs it was fetched as; "" when none.
  std::string canonical;
  // A sitemap (Task::Kind::kSitemap): the sitemaps its index names (its
  // links are the URLs it lists).
  std::vector<std::string> sitemap_children;
  // MinHash signature of the main content (config `duplicates`); nullopt
  // when off or the content is shorter than duplicates.min_words.
  std::optional<text::MinHashSignature> signature;
  // A revisit (task.revisit): what it found.
  RevisitResult revisit_result = RevisitResult::kChanged;
};

// The URL's path depth ([MMTOPIC]'s physical layer).
inline int PhysicalLayer(const url::Url& u) {
  return static_cast<int>(u.PathSegments().size());
}

inline focus::FrontierState StateOf(const proto::LinkRecord& r) {
  focus::FrontierState s;
  s.score = r.link_score();
  s.inherited = r.inherited();
  s.depth_budget = r.depth_budget();
  s.sum = r.accumulated();
  s.count = r.contributions();
  s.content = r.link_content();
  return s;
}

inline void SetState(const focus::FrontierState& s, proto::LinkRecord* r) {
  r->set_link_score(s.score);
  r->set_inherited(s.inherited);
  r->set_depth_budget(s.depth_budget);
  r->set_accumulated(s.sum);
  r->set_contributions(s.count);
  r->set_link_content(s.content);
}

}  // namespace fcrawl::worker

#endif  // FCRAWL_WORKER_CRAWL_TASK_H_
