// LinkDb (storage/link_db.h): Open and recovery, Commit and Pop over
// RocksDB, and the in-memory queue heads with what answers from them. The
// reads, which need no in-memory state, are in link_db_read.cc; LinkDb::Impl
// and the helpers both files share are in link_db_impl.h (internal to
// storage). The key layout is link_keys.h's, the RocksDB tuning
// rocks_options.h's, building batches link_batch.cc's.
#include "storage/link_db.h"

#include <errno.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <system_error>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "core/file.h"
#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/write_batch.h"
#include "storage/link_batch_op.h"
#include "storage/link_db_impl.h"
#include "storage/link_keys.h"
#include "storage/rocks_options.h"
#include "storage/rocks_status.h"
#include "storage/score_histogram.h"
#include "storage/space_guard_fs.h"

namespace fcrawl::storage {
namespace {

using proto::LinkRecord;

using keys::DecodeFixed64;
using keys::EncodeFixed64;
using keys::HostSubKey;
using keys::kHostRecordTag;
using keys::kIndexTag;
using keys::kInFlightTag;
using keys::kKnownUrlsKey;
using keys::kRecordTag;
using keys::kScoreBytes;
using keys::kSiteStateTag;

}  // namespace

// --- Queue heads.

absl::Status LinkDb::Impl::Refill(const std::string& host, HostQueue& q) {
  const size_t prefix_size = host.size() + 3;  // "H" host "\0" "Q"
  bool exhausted = true;
  absl::Status status = ScanHostRange(
      host, kIndexTag, q.watermark,
      [&](absl::string_view key, absl::string_view) -> absl::StatusOr<bool> {
        if (q.buffer.size() >= cap) {
          exhausted = false;
          return false;
        }
        const absl::string_view suffix = key.substr(prefix_size);
        if (suffix.size() < kScoreBytes) {
          return absl::DataLossError(absl::StrCat("malformed index key \"",
                                                  absl::CHexEscape(key), "\""));
        }
        if (suffix > q.watermark) q.buffer.emplace(suffix);
        return true;
      });
  if (!q.buffer.empty()) q.watermark = *q.buffer.rbegin();
  if (status.ok() && exhausted) {
    // Everything above the watermark is loaded: the count is exact now.
    queued_total += static_cast<int64_t>(q.buffer.size()) - q.queued;
    q.queued = static_cast<int64_t>(q.buffer.size());
  }
  return status;
}

void LinkDb::Impl::AddEntry(const std::string& host, std::string suffix) {
  HostQueue& q = queues[host];
  if (suffix <= q.watermark) {
    if (q.buffer.count(suffix) != 0) return;  // was there
    scores.Add(suffix, 1);
    q.buffer.insert(std::move(suffix));
  } else if (q.below() == 0 && q.buffer.size() < cap) {
    scores.Add(suffix, 1);
    q.watermark = suffix;
    q.buffer.insert(std::move(suffix));
  } else {
    scores.Add(suffix, 1);
    ++q.queued;
    ++queued_total;
    return;
  }
  ++q.queued;
  ++queued_total;
  if (q.buffer.size() > cap) {
    // Keep the best `cap`: the worst goes back to living in RocksDB only,
    // above the lowered watermark.
    q.buffer.erase(std::prev(q.buffer.end()));
    q.watermark = *q.buffer.rbegin();
  }
}

void LinkDb::Impl::RemoveEntry(const std::string& host,
                               const std::string& suffix) {
  auto it = queues.find(host);
  if (it == queues.end()) return;
  HostQueue& q = it->second;
  if (suffix <= q.watermark) {
    if (q.buffer.erase(suffix) == 0) return;  // was not queued
  } else if (q.below() <= 0) {
    return;  // nothing above the watermark: was not queued
  }
  --q.queued;
  --queued_total;
  scores.Add(suffix, -1);
}

void LinkDb::Impl::Settle(const std::string& host,
                          const std::string& best_before) {
  std::string best_after;
  auto it = queues.find(host);
  if (it != queues.end()) {
    HostQueue& q = it->second;
    if (q.buffer.empty() && q.queued > 0) {
      // On an error the buffer stays empty; Peek, Pop and QueuedHosts
      // retry.
      Refill(host, q).IgnoreError();
    }
    if (q.queued <= 0) {
      queued_total -= q.queued;
      queues.erase(it);
    } else {
      best_after = q.BestBytes();
    }
  }
  if (best_after != best_before) changed.insert(host);
}

std::string LinkDb::Impl::BestBytes(const std::string& host) {
  auto it = queues.find(host);
  return it == queues.end() ? std::string() : it->second.BestBytes();
}

absl::StatusOr<HostQueue*> LinkDb::Impl::LoadedQueue(const std::string& host) {
  auto it = queues.find(host);
  if (it == queues.end()) return nullptr;
  if (it->second.buffer.empty()) {
    const std::string before = it->second.BestBytes();
    absl::Status status = Refill(host, it->second);
    if (!status.ok()) return status;
    Settle(host, before);
    it = queues.find(host);
    if (it == queues.end()) return nullptr;
    if (it->second.buffer.empty()) return nullptr;
  }
  return &it->second;
}

absl::Status LinkDb::Impl::Write(rocksdb::WriteBatch* batch) {
  NoPerfCounts();
  rocksdb::Status s = db->Write(write_options, batch);
  if (!s.ok()) return FromRocks(s, absl::StrCat("writing to ", dir));
  return absl::OkStatus();
}

// --- Open.

absl::Status LinkDb::Impl::RecoverHost(const std::string& host) {
  const size_t prefix_size = host.size() + 3;
  std::vector<std::string> flying;
  absl::Status status = ScanHostRange(
      host, kInFlightTag, "",
      [&](absl::string_view key, absl::string_view) -> absl::StatusOr<bool> {
        flying.emplace_back(key.substr(prefix_size));
        return true;
      });
  if (!status.ok()) return status;
  if (!flying.empty()) {
    rocksdb::WriteBatch batch;
    for (const std::string& url : flying) {
      batch.Delete(HostSubKey(host, kInFlightTag, url));
      absl::StatusOr<std::optional<LinkRecord>> record = GetRecord(host, url);
      if (!record.ok()) return record.status();
      if (!record->has_value() ||
          (*record)->status() != LinkRecord::IN_FLIGHT) {
        continue;
      }
      LinkRecord& r = **record;
      r.set_status(LinkRecord::QUEUED);
      batch.Put(HostSubKey(host, kRecordTag, url), r.SerializeAsString());
      batch.Put(HostSubKey(host, kIndexTag,
                           absl::StrCat(EncodeScore(r.link_score()), url)),
                "");
    }
    status = Write(&batch);
    if (!status.ok()) return status;
  }

  HostQueue q;
  status = ScanHostRange(
      host, kIndexTag, "",
      [&](absl::string_view key, absl::string_view) -> absl::StatusOr<bool> {
        mu.AssertHeld();  // RecoverHost's caller holds it
        const absl::string_view suffix = key.substr(prefix_size);
        if (suffix.size() < kScoreBytes) {
          return absl::DataLossError(absl::StrCat("malformed index key \"",
                                                  absl::CHexEscape(key), "\""));
        }
        if (q.buffer.size() < cap) q.buffer.emplace(suffix);
        ++q.queued;
        scores.Add(suffix, 1);
        return true;
      });
  if (!status.ok()) return status;
  if (q.queued > 0) {
    q.watermark = *q.buffer.rbegin();
    queued_total += q.queued;
    queues.emplace(host, std::move(q));
    changed.insert(host);
  }
  return absl::OkStatus();
}

absl::Status LinkDb::Impl::Recover() {
  absl::StatusOr<std::optional<std::string>> known = GetRaw(kKnownUrlsKey);
  if (!known.ok()) return known.status();
  if (known->has_value()) {
    if ((*known)->size() != 8) return CorruptValue("counter", kKnownUrlsKey);
    known_urls = static_cast<int64_t>(DecodeFixed64(**known));
  }
  return ForEachHost([&](const std::string& host) -> absl::StatusOr<bool> {
    mu.AssertHeld();
    absl::Status status = RecoverHost(host);
    if (!status.ok()) return status;
    return true;
  });
}

// --- Commit.

absl::Status LinkDb::Impl::Commit(const LinkBatch& batch) {
  absl::MutexLock lock(&mu);
  // The batch's writes, applied in key order: the memtable's skiplist
  // insert is much cheaper for neighbouring keys, and a page's links are
  // mostly on few hosts. (A stable sort keeps the order of writes to one
  // key.)
  struct PendingWrite {
    std::string key;
    absl::string_view value;
    bool erase;
  };
  std::vector<PendingWrite> writes;
  writes.reserve(batch.ops_.size() * 2 + 1);
  auto put = [&writes](std::string key, absl::string_view value) {
    writes.push_back({std::move(key), value, false});
  };
  auto erase = [&writes](std::string key) {
    writes.push_back({std::move(key), {}, true});
  };
  struct Change {
    const std::string* host;
    bool add;
    std::string suffix;
  };
  std::vector<Change> changes;
  struct State {
    LinkRecord::Status status;
    double score;
  };
  // What earlier ops of this batch made of a URL (a page linking twice to
  // the same new URL gives two Puts with previous == nullptr).
  absl::flat_hash_map<absl::string_view, State> seen;
  absl::flat_hash_map<absl::string_view, bool> flying;  // overrides
  int64_t new_urls = 0;

  for (const std::shared_ptr<LinkBatch::Op>& op_ptr : batch.ops_) {
    const LinkBatch::Op& op = *op_ptr;
    switch (op.kind) {
      case LinkBatch::Op::Kind::kRecord:
        break;
      case LinkBatch::Op::Kind::kHost:
        if (op.host.empty()) {
          return absl::InvalidArgumentError(
              "LinkBatch::PutHost: HostRecord without a host");
        }
        put(op.key, op.value);
        continue;
      case LinkBatch::Op::Kind::kPage:
        if (op.host.empty()) {
          return absl::InvalidArgumentError(absl::StrCat(
              "LinkBatch::PutPage: not an absolute http(s) URL: ", op.url));
        }
        put(op.key, op.value);
        continue;
      case LinkBatch::Op::Kind::kGlobal:
        put(op.key, op.value);
        continue;
      case LinkBatch::Op::Kind::kErase:
        erase(op.key);
        continue;
    }
    if (op.host.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "LinkBatch::Put: not an absolute http(s) URL: ", op.url));
    }
    std::optional<State> previous;
    if (auto it = seen.find(op.url); it != seen.end()) {
      previous = it->second;
    } else if (op.has_previous) {
      previous = State{op.previous_status, op.previous_score};
    } else {
      ++new_urls;
    }
    put(HostSubKey(op.host, kRecordTag, op.url), op.value);

    const bool was_queued =
        previous.has_value() && previous->status == LinkRecord::QUEUED;
    const bool now_queued = op.status == LinkRecord::QUEUED;
    std::string old_suffix, new_suffix;
    if (was_queued) {
      old_suffix = absl::StrCat(EncodeScore(previous->score), op.url);
    }
    if (now_queued) new_suffix = absl::StrCat(EncodeScore(op.score), op.url);
    if (was_queued && (!now_queued || old_suffix != new_suffix)) {
      erase(HostSubKey(op.host, kIndexTag, old_suffix));
      changes.push_back({&op.host, false, std::move(old_suffix)});
    }
    if (now_queued && (!was_queued || old_suffix != new_suffix)) {
      put(HostSubKey(op.host, kIndexTag, new_suffix), "");
      changes.push_back({&op.host, true, std::move(new_suffix)});
    }

    bool was_flying;
    if (auto it = flying.find(op.url); it != flying.end()) {
      was_flying = it->second;
    } else {
      was_flying = in_flight.contains(op.url);
    }
    const bool now_flying = op.status == LinkRecord::IN_FLIGHT;
    if (was_flying && !now_flying) {
      erase(HostSubKey(op.host, kInFlightTag, op.url));
    } else if (!was_flying && now_flying) {
      put(HostSubKey(op.host, kInFlightTag, op.url), "");
    }
    flying[op.url] = now_flying;
    seen[op.url] = State{op.status, op.score};
  }
  const std::string known_value =
      EncodeFixed64(static_cast<uint64_t>(known_urls + new_urls));
  if (new_urls != 0) put(kKnownUrlsKey, known_value);
  std::stable_sort(writes.begin(), writes.end(),
                   [](const PendingWrite& a, const PendingWrite& b) {
                     return a.key < b.key;
                   });
  rocksdb::WriteBatch wb;
  for (const PendingWrite& w : writes) {
    if (w.erase) {
      wb.Delete(w.key);
    } else {
      wb.Put(w.key, ToSlice(w.value));
    }
  }

  absl::Status status = Write(&wb);
  if (!status.ok()) return status;

  known_urls += new_urls;
  for (const auto& [url, now_flying] : flying) {
    if (now_flying) {
      in_flight.emplace(url);
    } else {
      in_flight.erase(url);
    }
  }
  absl::flat_hash_map<absl::string_view, std::string> best_before;
  for (const Change& change : changes) {
    best_before.try_emplace(*change.host, BestBytes(*change.host));
  }
  for (Change& change : changes) {
    if (change.add) {
      AddEntry(*change.host, std::move(change.suffix));
    } else {
      RemoveEntry(*change.host, change.suffix);
    }
  }
  for (const auto& [host, before] : best_before) {
    Settle(std::string(host), before);
  }
  return absl::OkStatus();
}

// --- Pop.

absl::StatusOr<std::optional<LinkRecord>> LinkDb::Impl::Pop(
    const std::string& host) {
  absl::MutexLock lock(&mu);
  for (;;) {
    absl::StatusOr<HostQueue*> q = LoadedQueue(host);
    if (!q.ok()) return q.status();
    if (*q == nullptr) return std::optional<LinkRecord>();
    const std::string before = (*q)->BestBytes();
    const std::string suffix = *(*q)->buffer.begin();
    const absl::string_view url = absl::string_view(suffix).substr(kScoreBytes);
    absl::StatusOr<std::optional<LinkRecord>> record = GetRecord(host, url);
    if (!record.ok()) return record.status();

    rocksdb::WriteBatch wb;
    wb.Delete(HostSubKey(host, kIndexTag, suffix));
    const bool stale = !record->has_value() ||
                       (*record)->status() != LinkRecord::QUEUED ||
                       EncodeScore((*record)->link_score()) !=
                           absl::string_view(suffix).substr(0, kScoreBytes);
    if (!stale) {
      LinkRecord& r = **record;
      r.set_status(LinkRecord::IN_FLIGHT);
      r.set_attempts(r.attempts() + 1);
      wb.Put(HostSubKey(host, kRecordTag, url), r.SerializeAsString());
      wb.Put(HostSubKey(host, kInFlightTag, url), "");
    }
    absl::Status status = Write(&wb);
    if (!status.ok()) return status;
    RemoveEntry(host, suffix);
    Settle(host, before);
    if (stale) continue;  // an index entry its record disowns: dropped
    in_flight.emplace(url);
    return record;
  }
}

LinkDb::LinkDb(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
LinkDb::~LinkDb() = default;

absl::StatusOr<std::unique_ptr<LinkDb>> LinkDb::Open(
    const std::string& dir, const LinkDbOptions& options) {
  if (dir.empty()) return absl::InvalidArgumentError("LinkDb: empty folder");
  struct stat st;
  if (::stat(dir.c_str(), &st) == 0) {
    if (!S_ISDIR(st.st_mode)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "LinkDb folder ", dir, " exists and is not a directory"));
    }
  } else if (errno == ENOENT) {
    if (!options.create_if_missing) {
      return absl::NotFoundError(
          absl::StrCat("LinkDb folder ", dir, " does not exist"));
    }
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) {
      return absl::UnavailableError(absl::StrCat(
          "LinkDb: cannot create folder ", dir, ": ", ec.message()));
    }
  } else if (errno == ENOTDIR) {
    return absl::InvalidArgumentError(absl::StrCat(
        "LinkDb folder ", dir, ": a parent of it is not a directory"));
  } else {
    return file::ErrnoStatus("cannot stat LinkDb folder", dir);
  }

  rocksdb::Options rocks = MakeRocksOptions(options);
  std::unique_ptr<rocksdb::Env> env;
  if (!options.read_only && options.no_space) {
    env = NewSpaceGuardEnv(dir, options.no_space);
    rocks.env = env.get();
  }
  rocksdb::DB* raw = nullptr;
  const rocksdb::Status s = options.read_only
                                ? rocksdb::DB::OpenForReadOnly(rocks, dir, &raw)
                                : rocksdb::DB::Open(rocks, dir, &raw);
  if (!s.ok()) {
    const std::string text = s.ToString();
    if (IsHeldLock(s)) {
      return absl::FailedPreconditionError(absl::StrCat(
          "LinkDb folder ", dir,
          " is locked (open in another LinkDb or process): ", text));
    }
    if (s.IsInvalidArgument() && absl::StrContains(text, "does not exist")) {
      return absl::NotFoundError(
          absl::StrCat("no LinkDb in folder ", dir, ": ", text));
    }
    return FromRocks(s, absl::StrCat("opening LinkDb in ", dir));
  }
  auto impl = std::make_unique<Impl>(dir, options, std::move(env),
                                     std::unique_ptr<rocksdb::DB>(raw));
  if (!options.read_only) {
    absl::MutexLock lock(&impl->mu);
    absl::Status status = impl->Recover();
    if (!status.ok()) return status;
  }
  return std::unique_ptr<LinkDb>(new LinkDb(std::move(impl)));
}

absl::StatusOr<std::unique_ptr<LinkDb>> LinkDb::OpenReadOnly(
    const std::string& dir) {
  LinkDbOptions o;
  o.create_if_missing = false;
  o.read_only = true;
  return Open(dir, o);
}

absl::Status LinkDb::Commit(LinkBatch batch) {
  if (batch.empty()) return absl::OkStatus();
  return impl_->Commit(batch);
}

std::optional<QueuedEntry> LinkDb::Peek(absl::string_view host) {
  absl::MutexLock lock(&impl_->mu);
  absl::StatusOr<HostQueue*> q = impl_->LoadedQueue(std::string(host));
  if (!q.ok() || *q == nullptr) return std::nullopt;
  const std::string& best = *(*q)->buffer.begin();
  QueuedEntry entry;
  entry.url = best.substr(kScoreBytes);
  entry.score = DecodeScore(best);
  return entry;
}

absl::StatusOr<std::optional<proto::LinkRecord>> LinkDb::Pop(
    absl::string_view host) {
  return impl_->Pop(std::string(host));
}

std::vector<std::pair<std::string, double>> LinkDb::QueuedHosts() {
  absl::MutexLock lock(&impl_->mu);
  std::vector<std::pair<std::string, double>> out;
  out.reserve(impl_->queues.size());
  std::vector<std::string> unloaded;
  for (const auto& [host, q] : impl_->queues) {
    if (q.buffer.empty()) {
      unloaded.push_back(host);  // a refill failed earlier
    } else {
      out.emplace_back(host, DecodeScore(*q.buffer.begin()));
    }
  }
  for (const std::string& host : unloaded) {
    absl::StatusOr<HostQueue*> q = impl_->LoadedQueue(host);
    if (q.ok() && *q != nullptr) {
      out.emplace_back(host, DecodeScore(*(*q)->buffer.begin()));
    }
  }
  return out;
}

std::vector<std::string> LinkDb::TakeChangedHosts() {
  absl::MutexLock lock(&impl_->mu);
  std::vector<std::string> out(impl_->changed.begin(), impl_->changed.end());
  impl_->changed.clear();
  return out;
}

int64_t LinkDb::QueuedAbove(double score) {
  absl::MutexLock lock(&impl_->mu);
  return impl_->scores.CountAbove(EncodeScore(score));
}

std::optional<double> LinkDb::BestQueuedScore() {
  absl::MutexLock lock(&impl_->mu);
  const int64_t bucket = impl_->scores.FirstBucket();
  if (bucket < 0) return std::nullopt;
  return DecodeScore(ScoreHistogram::LowestOf(static_cast<uint32_t>(bucket)));
}

std::vector<std::pair<double, int64_t>> LinkDb::TopQueued(int64_t entries,
                                                          size_t max_buckets) {
  absl::MutexLock lock(&impl_->mu);
  std::vector<std::pair<double, int64_t>> out;
  for (const auto& [bucket, n] : impl_->scores.Top(entries, max_buckets)) {
    out.emplace_back(DecodeScore(ScoreHistogram::LowestOf(bucket)), n);
  }
  return out;
}

LinkDbStats LinkDb::stats() {
  absl::MutexLock lock(&impl_->mu);
  LinkDbStats s;
  s.known_urls = impl_->known_urls;
  s.queued = impl_->queued_total;
  s.in_flight = static_cast<int64_t>(impl_->in_flight.size());
  s.hosts_with_queue = static_cast<int64_t>(impl_->queues.size());
  return s;
}

absl::Status LinkDb::DropHost(absl::string_view host_view) {
  if (impl_->options.read_only) {
    return absl::FailedPreconditionError(
        absl::StrCat("the database in ", impl_->dir, " is read-only"));
  }
  const std::string host(host_view);
  absl::MutexLock lock(&impl_->mu);
  int64_t records = 0;
  absl::Status counted = impl_->ScanHostRange(
      host, kRecordTag, "",
      [&](absl::string_view, absl::string_view) -> absl::StatusOr<bool> {
        ++records;
        return true;
      });
  if (!counted.ok()) return counted;
  // The host's queued scores leave the histogram with it.
  std::vector<std::string> dropped_scores;
  const size_t index_prefix = host.size() + 3;  // "H" host "\0" "Q"
  counted = impl_->ScanHostRange(
      host, kIndexTag, "",
      [&](absl::string_view key, absl::string_view) -> absl::StatusOr<bool> {
        dropped_scores.emplace_back(key.substr(index_prefix, kScoreBytes));
        return true;
      });
  if (!counted.ok()) return counted;
  rocksdb::WriteBatch wb;
  for (char tag :
       {kRecordTag, kIndexTag, kInFlightTag, kHostRecordTag, kSiteStateTag}) {
    // Nothing after the tag: range deletions must start outside the
    // memtable's insert hints (rocks_options.cc).
    const std::string lower = HostSubKey(host, tag);
    const std::string upper = HostSubKey(host, static_cast<char>(tag + 1));
    wb.DeleteRange(ToSlice(lower), ToSlice(upper));
  }
  const int64_t known = std::max<int64_t>(0, impl_->known_urls - records);
  wb.Put(kKnownUrlsKey, EncodeFixed64(static_cast<uint64_t>(known)));
  rocksdb::Status ws = impl_->db->Write(impl_->write_options, &wb);
  if (!ws.ok()) {
    return FromRocks(ws,
                     absl::StrCat("dropping host ", host, " in ", impl_->dir));
  }
  impl_->known_urls = known;
  if (auto it = impl_->queues.find(host); it != impl_->queues.end()) {
    impl_->queued_total -= it->second.queued;
    impl_->queues.erase(it);
  }
  for (const std::string& score : dropped_scores) {
    impl_->scores.Add(score, -1);
  }
  impl_->changed.insert(host);
  for (auto it = impl_->in_flight.begin(); it != impl_->in_flight.end();) {
    auto next = std::next(it);
    if (HostKey(*it) == host) impl_->in_flight.erase(it);
    it = next;
  }
  return absl::OkStatus();
}

absl::Status LinkDb::Flush() {
  rocksdb::Status s = impl_->db->Flush(rocksdb::FlushOptions());
  if (!s.ok()) return FromRocks(s, absl::StrCat("flushing ", impl_->dir));
  return absl::OkStatus();
}

}  // namespace fcrawl::storage
