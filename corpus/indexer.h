// Indexing while crawling: a SearchIndex (corpus/search.h) fed from a
// bounded queue by a thread of its own, so that the crawl loop hands each
// page's corpus record over and goes on (config `search { index: true }`,
// the index in OUTPUT_DIR/search).
//
// Nothing is lost by a slow index: Add() waits while `max_queue` records are
// queued (the crawl slows down rather than dropping pages). The thread takes
// the queued records in batches (at least 32, or what is there half a second
// after it last looked), so up to twice `max_queue` records are held. A failed
// addition (a full disk) is reported once on stderr and by Commit()/Close();
// the records after it are still offered to the index, and the corpus lines
// (pages.jsonl) are untouched, so `worker index` can rebuild the index.
//
// Thread-safety: Add, Commit and Close may be called from any thread.
#ifndef FCRAWL_CORPUS_INDEXER_H_
#define FCRAWL_CORPUS_INDEXER_H_

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <thread>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "corpus/search.h"
#include "proto/corpus.pb.h"

namespace fcrawl::corpus {

class BackgroundIndexer {
 public:
  // Opens (creating) the index in `folder` for writing and starts the
  // thread. Errors: those of SearchIndex::OpenForWriting (a locked index:
  // another crawl writes it).
  static absl::StatusOr<std::unique_ptr<BackgroundIndexer>> Start(
      const std::string& folder, const IndexOptions& options = {},
      size_t max_queue = 256);
  ~BackgroundIndexer();  // Close()
  BackgroundIndexer(const BackgroundIndexer&) = delete;
  BackgroundIndexer& operator=(const BackgroundIndexer&) = delete;

  void Add(proto::CorpusRecord record) ABSL_LOCKS_EXCLUDED(mu_);
  // Waits until every record added so far is indexed, then commits.
  // Returns the first error since the last Commit (or OK).
  absl::Status Commit() ABSL_LOCKS_EXCLUDED(mu_);
  // Commit, then stops the thread and closes the index (another writer
  // may open it); later Adds are ignored.
  absl::Status Close() ABSL_LOCKS_EXCLUDED(mu_);

  int64_t indexed() const ABSL_LOCKS_EXCLUDED(mu_);
  // CPU time the indexing thread has used (CLOCK_THREAD_CPUTIME_ID), for
  // the crawl's report of what the index costs.
  double cpu_seconds() const ABSL_LOCKS_EXCLUDED(mu_);

 private:
  BackgroundIndexer(std::unique_ptr<SearchIndex> index, size_t max_queue);
  void Loop();

  const size_t max_queue_;
  std::unique_ptr<SearchIndex> index_;  // used by the thread only
  mutable absl::Mutex mu_;
  std::deque<proto::CorpusRecord> queue_ ABSL_GUARDED_BY(mu_);
  bool commit_ ABSL_GUARDED_BY(mu_) = false;  // a commit is asked for
  bool stop_ ABSL_GUARDED_BY(mu_) = false;
  int64_t commits_done_ ABSL_GUARDED_BY(mu_) = 0;
  int64_t indexed_ ABSL_GUARDED_BY(mu_) = 0;
  double cpu_seconds_ ABSL_GUARDED_BY(mu_) = 0;
  absl::Status error_ ABSL_GUARDED_BY(mu_);
  bool reported_ ABSL_GUARDED_BY(mu_) = false;
  std::thread thread_;
};

}  // namespace fcrawl::corpus

#endif  // FCRAWL_CORPUS_INDEXER_H_
