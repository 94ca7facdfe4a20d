#include "corpus/indexer.h"

#include <time.h>

#include <algorithm>
#include <cstdio>
#include <utility>

#include "absl/time/time.h"

namespace fcrawl::corpus {
namespace {

// The thread wakes when this many records are queued (or max_queue, if
// fewer), or kMaxWait after it last looked.
constexpr size_t kWakeBatch = 32;
constexpr absl::Duration kMaxWait = absl::Milliseconds(500);

double ThreadCpuSeconds() {
  struct timespec ts;
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return 0;
  return static_cast<double>(ts.tv_sec) + ts.tv_nsec * 1e-9;
}

}  // namespace

absl::StatusOr<std::unique_ptr<BackgroundIndexer>> BackgroundIndexer::Start(
    const std::string& folder, const IndexOptions& options, size_t max_queue) {
  absl::StatusOr<std::unique_ptr<SearchIndex>> index =
      SearchIndex::OpenForWriting(folder, options);
  if (!index.ok()) return index.status();
  return std::unique_ptr<BackgroundIndexer>(
      new BackgroundIndexer(*std::move(index), max_queue < 1 ? 1 : max_queue));
}

BackgroundIndexer::BackgroundIndexer(std::unique_ptr<SearchIndex> index,
                                     size_t max_queue)
    : max_queue_(max_queue), index_(std::move(index)) {
  thread_ = std::thread([this] { Loop(); });
}

BackgroundIndexer::~BackgroundIndexer() { Close().IgnoreError(); }

void BackgroundIndexer::Add(proto::CorpusRecord record) {
  absl::MutexLock lock(&mu_);
  auto room = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    return stop_ || queue_.size() < max_queue_;
  };
  mu_.Await(absl::Condition(&room));
  if (stop_) return;
  queue_.push_back(std::move(record));
}

absl::Status BackgroundIndexer::Commit() {
  absl::MutexLock lock(&mu_);
  if (stop_) return std::exchange(error_, absl::OkStatus());
  const int64_t wanted = commits_done_ + 1;
  commit_ = true;
  auto done = [this, wanted]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    return commits_done_ >= wanted;
  };
  mu_.Await(absl::Condition(&done));
  return std::exchange(error_, absl::OkStatus());
}

absl::Status BackgroundIndexer::Close() {
  absl::Status s = absl::OkStatus();
  {
    absl::MutexLock lock(&mu_);
    if (stop_) return absl::OkStatus();
  }
  s = Commit();
  {
    absl::MutexLock lock(&mu_);
    stop_ = true;
  }
  if (thread_.joinable()) thread_.join();
  index_.reset();  // closes the database: its write lock is released
  return s;
}

int64_t BackgroundIndexer::indexed() const {
  absl::MutexLock lock(&mu_);
  return indexed_;
}

double BackgroundIndexer::cpu_seconds() const {
  absl::MutexLock lock(&mu_);
  return cpu_seconds_;
}

void BackgroundIndexer::Loop() {
  const double cpu_start = ThreadCpuSeconds();
  std::deque<proto::CorpusRecord> batch;
  while (true) {
    bool commit = false;
    {
      absl::MutexLock lock(&mu_);
      // Woken for a batch, not for each page: a page at a time, the
      // thread's wake-ups and lock hand-overs cost about as much as
      // indexing a small page. A record waits at most kMaxWait.
      const size_t wake_at = std::min(kWakeBatch, max_queue_);
      auto work = [this, wake_at]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
        return stop_ || commit_ || queue_.size() >= wake_at;
      };
      mu_.AwaitWithTimeout(absl::Condition(&work), kMaxWait);
      if (!queue_.empty()) {
        batch.swap(queue_);
      } else if (commit_) {
        commit = true;
      } else if (stop_) {
        return;  // nothing left
      } else {
        continue;
      }
    }
    absl::Status s = absl::OkStatus();
    int64_t indexed = 0;
    if (commit) {
      s = index_->Commit();
    } else {
      for (const proto::CorpusRecord& record : batch) {
        absl::Status added = index_->Add(record);
        if (!added.ok() && s.ok()) s = std::move(added);
        ++indexed;
      }
      batch.clear();
    }
    absl::MutexLock lock(&mu_);
    cpu_seconds_ = ThreadCpuSeconds() - cpu_start;
    if (!s.ok()) {
      if (error_.ok()) error_ = s;
      if (!reported_) {
        reported_ = true;
        std::fprintf(stderr,
                     "worker: search index: %s (the corpus lines are "
                     "kept; `worker index` rebuilds the index)\n",
                     std::string(s.message()).c_str());
      }
    }
    if (commit) {
      commit_ = false;
      ++commits_done_;
    }
    indexed_ += indexed;
  }
}

}  // namespace fcrawl::corpus
