#include "worker/revisit_queue.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "core/url.h"
#include "worker/crawl_task.h"
#include "worker/revisit.h"

namespace fcrawl::worker {

using ::fcrawl::proto::LinkRecord;

namespace {

// Set once the pages fetched before revisits were on have due times.
constexpr absl::string_view kGlobalRevisitsIndexed = "revisits_indexed";
// Records per batch while indexing earlier pages.
constexpr size_t kIndexBatch = 1000;

}  // namespace

bool Revisitable(const LinkRecord& r) {
  return r.status() == LinkRecord::DONE && r.http_status() >= 200 &&
         r.http_status() < 300 && r.canonical_url().empty() &&
         r.duplicate_of().empty() && r.content_hash() != 0;
}

RevisitQueue::RevisitQueue(const RevisitQueueOptions& options,
                           storage::LinkDb* db, HostScheduler* scheduler)
    : options_(options),
      db_(*db),
      scheduler_(*scheduler),
      enabled_(options.continuous) {}

absl::Status RevisitQueue::IndexEarlierPages(absl::Time now) {
  if (!enabled_) return absl::OkStatus();
  absl::StatusOr<std::optional<std::string>> done =
      db_.GetGlobal(kGlobalRevisitsIndexed);
  if (!done.ok()) return done.status();
  if (done->has_value()) return absl::OkStatus();
  const RevisitPolicy& policy = options_.policy;
  std::vector<std::pair<LinkRecord, LinkRecord>> changed;  // (new, old)
  absl::Status failed;
  auto flush = [&]() -> absl::Status {
    storage::LinkBatch batch;
    for (const auto& [record, previous] : changed) {
      batch.Put(record, &previous);
      Schedule(record.url(), record.next_visit_ms(), &batch);
    }
    changed.clear();
    return db_.Commit(std::move(batch));
  };
  absl::Status s = db_.ForEachRecord("", [&](const LinkRecord& r) {
    if (!Revisitable(r) || r.next_visit_ms() != 0) return true;
    LinkRecord next = r;
    StartVisits(absl::FromUnixMillis(r.fetched_at_ms()), policy, &next);
    next.set_next_visit_ms(
        std::max(next.next_visit_ms(), absl::ToUnixMillis(now)));
    changed.emplace_back(std::move(next), r);
    if (changed.size() >= kIndexBatch) failed = flush();
    return failed.ok();
  });
  if (!s.ok()) return s;
  if (!failed.ok()) return failed;
  if (absl::Status f = flush(); !f.ok()) return f;
  storage::LinkBatch mark;
  mark.PutGlobal(kGlobalRevisitsIndexed, "1");
  return db_.Commit(std::move(mark));
}

bool RevisitQueue::BudgetSpent() const {
  const int64_t max = options_.max_revisits;
  return max > 0 && taken_ >= max;
}

bool RevisitQueue::KeepsCrawlAlive() const {
  if (!enabled_ || (BudgetSpent() && under_way_.empty())) return false;
  return !under_way_.empty() || next_due_ != absl::InfiniteFuture();
}

void RevisitQueue::Schedule(const std::string& url, int64_t due_ms,
                            storage::LinkBatch* batch) {
  batch->PutDue(url, due_ms);
  next_due_ = std::min(next_due_, absl::FromUnixMillis(due_ms));
}

absl::Status RevisitQueue::TakeDue(absl::Time now, size_t room) {
  if (!enabled_) return absl::OkStatus();
  // Called every turn of the crawl loop: the index is read only when a
  // page may be due or a revisit ended since the last read.
  if (!look_ && now < next_due_) return absl::OkStatus();
  look_ = false;
  // The entries under way come first among those due: read past them.
  absl::StatusOr<std::vector<storage::DueEntry>> due = db_.Due(
      std::numeric_limits<int64_t>::max(), under_way_.size() + room + 1);
  if (!due.ok()) return due.status();
  const int64_t now_ms = absl::ToUnixMillis(now);
  const int64_t max = options_.max_revisits;
  const int64_t budget_left =
      max > 0 ? max - taken_ : std::numeric_limits<int64_t>::max();
  next_due_ = absl::InfiniteFuture();
  std::vector<storage::DueEntry> take;
  for (storage::DueEntry& e : *due) {
    if (under_way_.contains(e.url)) continue;
    if (e.due_ms > now_ms) {
      next_due_ = absl::FromUnixMillis(e.due_ms);
      break;
    }
    // Due, but no room (read again when a revisit ends) or no budget
    // (never again).
    if (under_way_.size() + take.size() >= room ||
        static_cast<int64_t>(take.size()) >= budget_left) {
      break;
    }
    take.push_back(std::move(e));
  }
  if (take.empty()) return absl::OkStatus();
  std::vector<std::string> urls;
  urls.reserve(take.size());
  for (const storage::DueEntry& e : take) urls.push_back(e.url);
  absl::StatusOr<std::vector<std::optional<LinkRecord>>> records =
      db_.GetMany(urls);
  if (!records.ok()) return records.status();
  storage::LinkBatch stale;
  for (size_t i = 0; i < take.size(); ++i) {
    const std::optional<LinkRecord>& r = (*records)[i];
    if (!r.has_value() || r->next_visit_ms() != take[i].due_ms ||
        !Revisitable(*r)) {
      stale.EraseDue(take[i].url, take[i].due_ms);
      continue;
    }
    absl::StatusOr<url::Url> u = url::Parse(r->url());
    if (!u.ok()) {
      stale.EraseDue(take[i].url, take[i].due_ms);
      continue;
    }
    Task t;
    t.kind = Task::Kind::kPage;
    t.revisit = true;
    t.host = storage::HostKey(r->url());
    t.url = r->url();
    t.record = *r;
    t.started = now;
    t.chain.push_back(t.url);
    under_way_.insert(t.url);
    ++taken_;
    scheduler_.QueueRevisit(std::move(t), u->scheme(), now);
  }
  return db_.Commit(std::move(stale));
}

}  // namespace fcrawl::worker
