// The fetch → parse half of the page pipeline (docs/design.md "One page,
// from fetch to ranker", steps 4 to 8): a pool of threads that archive each
// fetched page as WARC, decode and parse it, segment it (quark), flag the
// blocks its site repeats on most pages (focus/site_templates.h), compute its
// relevance to the topic and let the strategy score its out-links, which
// come back canonical, in scope, within max_depth and max_links_per_page,
// repeated offers merged. The apply half (logs, one database batch) is the
// crawl thread's (worker/crawler.cc), because only it writes the database.
//
// Owns its threads and the job and outcome queues. Borrows everything
// Parse reads (ParseContext), which must outlive the pool and be safe to
// use from many threads: the topic, page options and scope are read only;
// the document frequencies, the strategy's ScoreLinks and Merge and the WARC
// writer are thread-safe by their own contracts.
//
// Thread-safety: Submit, TakeOutcomes, WaitForOutcome, outstanding and Stop
// are for one thread (the crawl thread); the queues between it and the pool
// threads are guarded by a mutex.
//
// Errors: a page that cannot be parsed is the page's problem
// (ParseOutcome::parse_error, recorded on its link record); a WARC write
// that fails for I/O is the crawl's (ParseOutcome::warc_status).
#ifndef FCRAWL_WORKER_PARSE_POOL_H_
#define FCRAWL_WORKER_PARSE_POOL_H_

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "core/text.h"
#include "focus/page_judge.h"
#include "focus/site_templates.h"
#include "focus/strategy.h"
#include "focus/topic.h"
#include "google/protobuf/repeated_ptr_field.h"
#include "protocol/fetcher.h"
#include "protocol/warc.h"
#include "quark/quark.h"
#include "worker/crawl_task.h"
#include "worker/judge_inputs.h"
#include "worker/url_scope.h"

namespace fcrawl::worker {

// Writes one exchange as WARC request and response records. Content and
// transfer codings curl removed are renamed in the stored head; a partial
// response is kept only with a complete head and marked truncated. A URL
// the WARC format cannot carry is not an error (the page's problem); I/O
// errors are. With `revisit`, the answer is written as a revisit record
// (WarcExchange::revisit_profile) that refers to the earlier capture.
struct RevisitOf {
  std::string profile;  // "server-not-modified" or "identical-payload-digest"
  std::string url;      // the earlier capture's URL
  absl::Time date = absl::InfinitePast();  // and date, if known
};
absl::Status ArchiveFetch(protocol::WarcWriter& warc,
                          const protocol::FetchResult& r,
                          const RevisitOf* revisit = nullptr);

// The response is parsed: its media type is one of
// fetch.accepted_content_types (no Content-Type at all: yes, the bytes
// decide), or text/html is, the type is one servers give a file they cannot
// name (text/plain, application/octet-stream, the "unknown" types: old
// sites' files without an extension) and `body` starts like HTML
// (html::LooksLikeHtml).
bool ContentTypeAccepted(
    const google::protobuf::RepeatedPtrField<std::string>& accepted,
    absl::string_view content_type, absl::string_view body);
// audio/*, video/* or Flash.
bool IsMediaType(absl::string_view content_type);

// The blocks' text split by `tokenizer`, block after block, at most its
// max_tokens tokens in all (each block's own split capped at that too, as
// TokenizeInto caps each call), and in (*block_ends)[i] the number of
// tokens up to the end of block i. The tokens quark's Analyze left in a
// block (quark::Block::tokens) are taken instead of splitting its text
// again when the tokenizer splits as quark's does; every block's tokens
// are cleared.
std::vector<std::string> TakeBlockTokens(const text::Tokenizer& tokenizer,
                                         std::vector<quark::Block>* blocks,
                                         std::vector<size_t>* block_ends);

// What the parse threads do with a page, from the crawl config
// (worker/crawl_setup.h's ParseOptionsOf, where each field's source is
// named; the values are the config's, so none is given here).
struct ParseOptions {
  std::string user_agent;  // its product token names this crawler's robots
                           // meta tag and X-Robots-Tag directives
  bool obey_robots_meta;
  bool obey_x_robots_tag;
  bool obey_rel_nofollow;
  bool follow_canonical;
  int32_t max_links_per_page;
  int32_t max_depth;  // 0 = no limit
  int32_t sitemap_max_urls;
  bool corpus_markdown;
  bool duplicates;  // near-duplicate signatures
  int32_t duplicate_min_words;
};

// What the parse threads read. Not owned; see the file comment.
struct ParseContext {
  const ParseOptions* options = nullptr;
  const UrlScope* scope = nullptr;
  const quark::PageOptions* page_options = nullptr;
  const std::optional<focus::Topic>* topic = nullptr;
  text::DocumentFrequencies* df = nullptr;
  focus::Strategy* strategy = nullptr;
  // The on-topic decision; null when the crawl has no topic.
  focus::PageJudge* judge = nullptr;
  // Blocks each host repeats (segmentation.site_templates); null = off.
  focus::SiteTemplates* templates = nullptr;
  // Where what the judge reads of each page is recorded (worker crawl
  // --judge_inputs); null = not recorded.
  JudgeInputLog* judge_inputs = nullptr;
  protocol::WarcWriter* warc = nullptr;
};

class ParsePool {
 public:
  // Starts `threads` threads (at least one).
  ParsePool(const ParseContext& context, int threads);
  // Stop().
  ~ParsePool();
  ParsePool(const ParsePool&) = delete;
  ParsePool& operator=(const ParsePool&) = delete;

  void Submit(ParseJob job);
  // Every outcome finished so far, in the order they finished.
  std::deque<ParseOutcome> TakeOutcomes();
  // Returns when an outcome is ready or after `timeout`.
  void WaitForOutcome(absl::Duration timeout);
  // Jobs submitted whose outcome was not taken yet.
  int64_t outstanding() const { return outstanding_; }
  size_t threads() const { return threads_.size(); }
  // The threads finish the jobs already submitted, then end; their
  // outcomes stay to be taken. Idempotent.
  void Stop();

 private:
  void Loop();
  ParseOutcome Parse(ParseJob job) const;
  // A sitemap (Task::Kind::kSitemap): archived, read (protocol/sitemap.h),
  // its URLs scored by the strategy.
  ParseOutcome ParseSitemap(ParseJob job) const;

  const ParseContext context_;
  // The crawler's robots product token, for <meta name=TOKEN> and
  // X-Robots-Tag lines that name it.
  const std::string product_token_;
  absl::Mutex mu_;
  std::deque<ParseJob> jobs_ ABSL_GUARDED_BY(mu_);
  std::deque<ParseOutcome> outcomes_ ABSL_GUARDED_BY(mu_);
  bool stop_ ABSL_GUARDED_BY(mu_) = false;
  std::vector<std::thread> threads_;
  int64_t outstanding_ = 0;  // the submitting thread's own count
};

}  // namespace fcrawl::worker

#endif  // FCRAWL_WORKER_PARSE_POOL_H_
