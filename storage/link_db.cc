// LinkDb (storage/link_db.h): reads, Commit, Pop and Open over RocksDB, and
// the in-memory queue heads. Over 800 lines for a reason: LinkDb::Impl is
// the state under one mutex (the queue heads must change in the critical
// section that writes the index they mirror), and its invariants read in
// one place. The key layout is link_keys.h's, the RocksDB tuning
// rocks_options.h's, building batches link_batch.cc's.
#include "storage/link_db.h"

#include <errno.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <set>
#include <system_error>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "core/file.h"
#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/iterator.h"
#include "rocksdb/options.h"
#include "rocksdb/perf_level.h"
#include "rocksdb/slice.h"
#include "rocksdb/write_batch.h"
#include "storage/link_batch_op.h"
#include "storage/link_keys.h"
#include "storage/rocks_options.h"
#include "storage/rocks_status.h"
#include "storage/score_histogram.h"

namespace fcrawl::storage {
namespace {

// RocksDB counts every key comparison in a thread-local perf context unless
// the calling thread turns its perf level down; in a shared library each
// count is two more thread-local lookups, 1.5% of a crawl's instructions
// (callgrind). The level is per thread and nothing here reads the counts.
void NoPerfCounts() { rocksdb::SetPerfLevel(rocksdb::PerfLevel::kDisable); }

using proto::LinkRecord;

// Scans that are not of one near-duplicate band: the prefix extractor
// (rocks_options.cc) must not cut them short.
rocksdb::ReadOptions TotalOrder() {
  rocksdb::ReadOptions ro;
  ro.total_order_seek = true;
  return ro;
}

using keys::DecodeFixed64;
using keys::EncodeFixed64;
using keys::HostPrefix;
using keys::HostSubKey;
using keys::kHostRecordTag;
using keys::kIndexTag;
using keys::kInFlightTag;
using keys::kKnownUrlsKey;
using keys::kPageTag;
using keys::kRecordTag;
using keys::kScoreBytes;
using keys::kSiteStateTag;
using keys::NextHostKey;

rocksdb::Slice ToSlice(absl::string_view s) {
  return rocksdb::Slice(s.data(), s.size());
}
absl::string_view ToView(const rocksdb::Slice& s) {
  return absl::string_view(s.data(), s.size());
}

absl::Status CorruptValue(absl::string_view what, absl::string_view key) {
  return absl::DataLossError(absl::StrCat("corrupt ", what, " under key \"",
                                          absl::CHexEscape(key),
                                          "\" (cannot be parsed)"));
}

template <typename Message>
absl::StatusOr<std::optional<Message>> ParseValue(absl::string_view what,
                                                  absl::string_view key,
                                                  absl::string_view value) {
  Message message;
  if (!message.ParseFromArray(value.data(), static_cast<int>(value.size()))) {
    return CorruptValue(what, key);
  }
  return std::optional<Message>(std::move(message));
}

// Per host, in memory: the best `cap` entries of its queue (index key
// suffixes: score(8) url; std::set order is the key order, best first) and
// the watermark. Invariant: the queued entries whose suffix is <= watermark
// are exactly `buffer`; queued - buffer.size() entries lie above it (worse),
// in RocksDB only.
struct HostQueue {
  std::set<std::string> buffer;
  std::string watermark;  // "" sorts before every suffix
  int64_t queued = 0;

  int64_t below() const { return queued - static_cast<int64_t>(buffer.size()); }
  // The best score's bytes, "" when nothing is loaded.
  std::string BestBytes() const {
    return buffer.empty() ? std::string()
                          : buffer.begin()->substr(0, kScoreBytes);
  }
};

}  // namespace

struct LinkDb::Impl {
  Impl(std::string dir_in, const LinkDbOptions& options_in,
       std::unique_ptr<rocksdb::DB> db_in)
      : dir(std::move(dir_in)),
        options(options_in),
        cap(options_in.frontier_buffer == 0 ? 1 : options_in.frontier_buffer),
        db(std::move(db_in)) {
    write_options.sync = options.sync;
  }

  ~Impl() {
    if (db == nullptr) return;
    db->Flush(rocksdb::FlushOptions()).PermitUncheckedError();
    db->Close().PermitUncheckedError();
  }

  const std::string dir;
  const LinkDbOptions options;
  const size_t cap;
  std::unique_ptr<rocksdb::DB> db;
  rocksdb::WriteOptions write_options;

  absl::Mutex mu;
  // Only hosts with a non-empty queue.
  absl::flat_hash_map<std::string, HostQueue> queues ABSL_GUARDED_BY(mu);
  // URLs with an "F" marker (none after Open: they are queued again).
  absl::flat_hash_set<std::string> in_flight ABSL_GUARDED_BY(mu);
  absl::flat_hash_set<std::string> changed ABSL_GUARDED_BY(mu);
  int64_t known_urls ABSL_GUARDED_BY(mu) = 0;
  int64_t queued_total ABSL_GUARDED_BY(mu) = 0;
  // Every queued entry's score, for QueuedAbove (follows queued_total).
  ScoreHistogram scores ABSL_GUARDED_BY(mu);

  // --- Reads (RocksDB is thread-safe; no in-memory state involved).

  absl::StatusOr<std::optional<std::string>> GetRaw(absl::string_view key) {
    std::string value;
    rocksdb::Status s = db->Get(rocksdb::ReadOptions(), ToSlice(key), &value);
    if (s.IsNotFound()) return std::optional<std::string>();
    if (!s.ok()) {
      return FromRocks(
          s, absl::StrCat("reading \"", absl::CHexEscape(key), "\" in ", dir));
    }
    return std::optional<std::string>(std::move(value));
  }

  absl::StatusOr<std::optional<LinkRecord>> GetRecord(absl::string_view host,
                                                      absl::string_view url) {
    const std::string key = HostSubKey(host, kRecordTag, url);
    absl::StatusOr<std::optional<std::string>> raw = GetRaw(key);
    if (!raw.ok()) return raw.status();
    if (!raw->has_value()) return std::optional<LinkRecord>();
    return ParseValue<LinkRecord>("LinkRecord", key, **raw);
  }

  // Calls fn(host) for every host with keys, in key order, until fn returns
  // false or an error.
  absl::Status ForEachHost(
      const std::function<absl::StatusOr<bool>(const std::string&)>& fn) {
    rocksdb::ReadOptions ro = TotalOrder();
    const std::string upper = "I";
    rocksdb::Slice upper_slice(upper);
    ro.iterate_upper_bound = &upper_slice;
    std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(ro));
    for (it->Seek("H"); it->Valid();) {
      const absl::string_view key = ToView(it->key());
      const size_t end = key.find('\0', 1);
      if (end == absl::string_view::npos) {
        return absl::DataLossError(absl::StrCat(
            "malformed key \"", absl::CHexEscape(key), "\" in ", dir));
      }
      const std::string host(key.substr(1, end - 1));
      absl::StatusOr<bool> more = fn(host);
      if (!more.ok()) return more.status();
      if (!*more) return absl::OkStatus();
      it->Seek(NextHostKey(host));
    }
    if (!it->status().ok()) {
      return FromRocks(it->status(), absl::StrCat("listing hosts in ", dir));
    }
    return absl::OkStatus();
  }

  // Calls fn(key, value) for the keys "H" host "\0" tag ..., in key order,
  // until fn returns false.
  absl::Status ScanHostRange(absl::string_view host, char tag,
                             absl::string_view start_suffix,
                             const std::function<absl::StatusOr<bool>(
                                 absl::string_view, absl::string_view)>& fn) {
    const std::string lower = HostSubKey(host, tag, start_suffix);
    const std::string upper = HostSubKey(host, static_cast<char>(tag + 1));
    rocksdb::ReadOptions ro = TotalOrder();
    rocksdb::Slice upper_slice(upper);
    ro.iterate_upper_bound = &upper_slice;
    std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(ro));
    for (it->Seek(ToSlice(lower)); it->Valid(); it->Next()) {
      absl::StatusOr<bool> more = fn(ToView(it->key()), ToView(it->value()));
      if (!more.ok()) return more.status();
      if (!*more) return absl::OkStatus();
    }
    if (!it->status().ok()) {
      return FromRocks(it->status(),
                       absl::StrCat("scanning host ", host, " in ", dir));
    }
    return absl::OkStatus();
  }

  // --- Queue heads.

  // Loads the next entries above the watermark into an empty buffer.
  absl::Status Refill(const std::string& host, HostQueue& q)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu) {
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
            return absl::DataLossError(absl::StrCat(
                "malformed index key \"", absl::CHexEscape(key), "\""));
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

  void AddEntry(const std::string& host, std::string suffix)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu) {
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

  void RemoveEntry(const std::string& host, const std::string& suffix)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu) {
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

  // After the host's entries changed: drops an empty queue, refills an
  // empty buffer, notes a changed best score.
  void Settle(const std::string& host, const std::string& best_before)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu) {
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

  std::string BestBytes(const std::string& host)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu) {
    auto it = queues.find(host);
    return it == queues.end() ? std::string() : it->second.BestBytes();
  }

  // The host's queue with a loaded buffer, nullptr when empty.
  absl::StatusOr<HostQueue*> LoadedQueue(const std::string& host)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu) {
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

  absl::Status Write(rocksdb::WriteBatch* batch) {
    NoPerfCounts();
    rocksdb::Status s = db->Write(write_options, batch);
    if (!s.ok()) return FromRocks(s, absl::StrCat("writing to ", dir));
    return absl::OkStatus();
  }

  // --- Open.

  // Queues the host's IN_FLIGHT URLs again and loads its queue head.
  absl::Status RecoverHost(const std::string& host)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu) {
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
          const absl::string_view suffix = key.substr(prefix_size);
          if (suffix.size() < kScoreBytes) {
            return absl::DataLossError(absl::StrCat(
                "malformed index key \"", absl::CHexEscape(key), "\""));
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

  absl::Status Recover() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu) {
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

  absl::Status Commit(const LinkBatch& batch) ABSL_LOCKS_EXCLUDED(mu) {
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

  absl::StatusOr<std::optional<LinkRecord>> Pop(const std::string& host)
      ABSL_LOCKS_EXCLUDED(mu) {
    absl::MutexLock lock(&mu);
    for (;;) {
      absl::StatusOr<HostQueue*> q = LoadedQueue(host);
      if (!q.ok()) return q.status();
      if (*q == nullptr) return std::optional<LinkRecord>();
      const std::string before = (*q)->BestBytes();
      const std::string suffix = *(*q)->buffer.begin();
      const absl::string_view url =
          absl::string_view(suffix).substr(kScoreBytes);
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
};

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

  rocksdb::DB* raw = nullptr;
  const rocksdb::Status s =
      options.read_only
          ? rocksdb::DB::OpenForReadOnly(MakeRocksOptions(options), dir, &raw)
          : rocksdb::DB::Open(MakeRocksOptions(options), dir, &raw);
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
  auto impl =
      std::make_unique<Impl>(dir, options, std::unique_ptr<rocksdb::DB>(raw));
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

absl::StatusOr<std::optional<proto::LinkRecord>> LinkDb::Get(
    absl::string_view url) {
  const std::string host = HostKey(url);
  if (host.empty()) return std::optional<proto::LinkRecord>();
  return impl_->GetRecord(host, url);
}

absl::StatusOr<std::vector<std::optional<proto::LinkRecord>>> LinkDb::GetMany(
    const std::vector<std::string>& urls) {
  std::vector<std::string> hosts;
  hosts.reserve(urls.size());
  for (const std::string& url : urls) hosts.push_back(HostKey(url));
  return GetMany(urls, hosts);
}

absl::StatusOr<std::vector<std::optional<proto::LinkRecord>>> LinkDb::GetMany(
    const std::vector<std::string>& urls,
    const std::vector<std::string>& hosts) {
  if (hosts.size() != urls.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("LinkDb::GetMany: ", urls.size(), " URLs but ",
                     hosts.size(), " host keys"));
  }
  std::vector<std::optional<proto::LinkRecord>> out(urls.size());
  std::vector<std::string> keys;
  std::vector<size_t> index;  // keys[i] is the key of urls[index[i]]
  keys.reserve(urls.size());
  index.reserve(urls.size());
  for (size_t i = 0; i < urls.size(); ++i) {
    if (hosts[i].empty()) continue;
    keys.push_back(HostSubKey(hosts[i], kRecordTag, urls[i]));
    index.push_back(i);
  }
  if (keys.empty()) return out;
  NoPerfCounts();
  std::vector<rocksdb::Slice> slices(keys.begin(), keys.end());
  std::vector<rocksdb::PinnableSlice> values(keys.size());
  std::vector<rocksdb::Status> statuses(keys.size());
  impl_->db->MultiGet(rocksdb::ReadOptions(), impl_->db->DefaultColumnFamily(),
                      keys.size(), slices.data(), values.data(),
                      statuses.data());
  for (size_t i = 0; i < keys.size(); ++i) {
    if (statuses[i].IsNotFound()) continue;
    if (!statuses[i].ok()) {
      return FromRocks(statuses[i],
                       absl::StrCat("reading \"", absl::CHexEscape(keys[i]),
                                    "\" in ", impl_->dir));
    }
    absl::StatusOr<std::optional<proto::LinkRecord>> record =
        ParseValue<proto::LinkRecord>("LinkRecord", keys[i], ToView(values[i]));
    if (!record.ok()) return record.status();
    out[index[i]] = std::move(*record);
  }
  return out;
}

absl::StatusOr<std::optional<proto::HostRecord>> LinkDb::GetHost(
    absl::string_view host) {
  const std::string key = HostSubKey(host, kHostRecordTag);
  absl::StatusOr<std::optional<std::string>> raw = impl_->GetRaw(key);
  if (!raw.ok()) return raw.status();
  if (!raw->has_value()) return std::optional<proto::HostRecord>();
  return ParseValue<proto::HostRecord>("HostRecord", key, **raw);
}

absl::StatusOr<std::optional<proto::StoredPage>> LinkDb::GetPage(
    absl::string_view url) {
  const std::string host = HostKey(url);
  if (host.empty()) return std::optional<proto::StoredPage>();
  const std::string key = HostSubKey(host, kPageTag, url);
  absl::StatusOr<std::optional<std::string>> raw = impl_->GetRaw(key);
  if (!raw.ok()) return raw.status();
  if (!raw->has_value()) return std::optional<proto::StoredPage>();
  return ParseValue<proto::StoredPage>("StoredPage", key, **raw);
}

absl::StatusOr<std::optional<std::string>> LinkDb::GetGlobal(
    absl::string_view name) {
  return impl_->GetRaw(absl::StrCat("G", name));
}

absl::Status LinkDb::PutSiteState(absl::string_view host,
                                  absl::string_view bytes) {
  if (host.empty()) {
    return absl::InvalidArgumentError("PutSiteState: empty host");
  }
  if (impl_->options.read_only) {
    return absl::FailedPreconditionError(
        absl::StrCat("PutSiteState: ", impl_->dir, " is open read-only"));
  }
  const std::string key = HostSubKey(host, kSiteStateTag);
  rocksdb::Status s =
      impl_->db->Put(impl_->write_options, ToSlice(key), ToSlice(bytes));
  if (!s.ok()) {
    return FromRocks(s, absl::StrCat("writing the site state of ", host, " in ",
                                     impl_->dir));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::optional<std::string>> LinkDb::GetSiteState(
    absl::string_view host) {
  return impl_->GetRaw(HostSubKey(host, kSiteStateTag));
}

absl::Status LinkDb::ForEachSiteState(
    const std::function<bool(absl::string_view, absl::string_view)>& fn) {
  // Host prefixes are "H" host "\0": walk hosts by seeking past each one.
  std::unique_ptr<rocksdb::Iterator> it(impl_->db->NewIterator(TotalOrder()));
  std::string seek = "H";
  for (it->Seek(seek); it->Valid(); it->Seek(seek)) {
    absl::string_view key = ToView(it->key());
    if (key.empty() || key[0] != 'H') break;
    const size_t nul = key.find('\0');
    if (nul == absl::string_view::npos) break;
    const std::string host(key.substr(1, nul - 1));
    const std::string state_key = HostSubKey(host, kSiteStateTag);
    it->Seek(ToSlice(state_key));
    if (it->Valid() && ToView(it->key()) == state_key) {
      if (!fn(host, ToView(it->value()))) return absl::OkStatus();
    }
    // Next host: the prefix with its terminating NUL raised to 0x01.
    seek = absl::StrCat("H", host, std::string(1, '\x01'));
  }
  if (!it->status().ok()) {
    return FromRocks(it->status(),
                     absl::StrCat("listing site states in ", impl_->dir));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::optional<LinkDb::NearDuplicateMatch>> LinkDb::NearDuplicate(
    const text::MinHashSignature& signature, double min_resemblance,
    int max_candidates) {
  std::optional<NearDuplicateMatch> best;
  absl::flat_hash_set<std::string> checked;
  // Each seek stays within one band prefix, which the bloom filters know
  // (rocks_options.cc): a band no other page has is answered there.
  rocksdb::ReadOptions ro;
  ro.prefix_same_as_start = true;
  std::unique_ptr<rocksdb::Iterator> it(impl_->db->NewIterator(ro));
  for (int b = 0; b < text::kBands; ++b) {
    const std::string prefix = keys::BandPrefix(b, text::BandKey(signature, b));
    std::vector<std::string> candidates;
    int read = 0;
    for (it->Seek(ToSlice(prefix)); it->Valid() && read < max_candidates;
         it->Next(), ++read) {
      const absl::string_view key = ToView(it->key());
      if (!absl::StartsWith(key, prefix)) break;
      std::string url(key.substr(prefix.size()));
      if (checked.insert(url).second) candidates.push_back(std::move(url));
    }
    if (!it->status().ok()) {
      return FromRocks(
          it->status(),
          absl::StrCat("reading the near-duplicate index in ", impl_->dir));
    }
    for (const std::string& url : candidates) {
      const std::string key = keys::SignatureKey(url);
      absl::StatusOr<std::optional<std::string>> raw = impl_->GetRaw(key);
      if (!raw.ok()) return raw.status();
      if (!raw->has_value()) continue;
      std::optional<text::MinHashSignature> other =
          text::DecodeSignature(**raw);
      if (!other.has_value()) {
        return absl::DataLossError(
            absl::StrCat("unreadable MinHash signature under \"",
                         absl::CHexEscape(key), "\" in ", impl_->dir));
      }
      const double r = text::EstimatedResemblance(signature, *other);
      if (r >= min_resemblance &&
          (!best.has_value() || r > best->resemblance)) {
        best = NearDuplicateMatch{url, r};
      }
    }
  }
  return best;
}

absl::StatusOr<std::vector<std::pair<uint64_t, std::string>>> LinkDb::Outbox(
    size_t limit) {
  std::vector<std::pair<uint64_t, std::string>> out;
  std::unique_ptr<rocksdb::Iterator> it(impl_->db->NewIterator(TotalOrder()));
  const std::string prefix(1, keys::kOutboxPrefix);
  for (it->Seek(ToSlice(prefix)); it->Valid() && out.size() < limit;
       it->Next()) {
    const absl::string_view key = ToView(it->key());
    if (key.size() != 1 + 8 || key[0] != keys::kOutboxPrefix) break;
    out.emplace_back(keys::DecodeFixed64(key.substr(1)),
                     std::string(ToView(it->value())));
  }
  if (!it->status().ok()) {
    return FromRocks(it->status(),
                     absl::StrCat("reading the outbox in ", impl_->dir));
  }
  return out;
}

absl::StatusOr<std::vector<DueEntry>> LinkDb::Due(int64_t until_ms,
                                                  size_t limit) {
  std::vector<DueEntry> out;
  std::unique_ptr<rocksdb::Iterator> it(impl_->db->NewIterator(TotalOrder()));
  const std::string prefix(1, keys::kDuePrefix);
  for (it->Seek(ToSlice(prefix)); it->Valid() && out.size() < limit;
       it->Next()) {
    const absl::string_view key = ToView(it->key());
    if (key.size() < 1 + 8 || key[0] != keys::kDuePrefix) break;
    const int64_t due =
        static_cast<int64_t>(keys::DecodeFixed64(key.substr(1)));
    if (due > until_ms) break;
    out.push_back({std::string(key.substr(1 + 8)), due});
  }
  if (!it->status().ok()) {
    return FromRocks(it->status(),
                     absl::StrCat("reading the due index in ", impl_->dir));
  }
  return out;
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

absl::Status LinkDb::ForEachRecord(
    absl::string_view host,
    const std::function<bool(const proto::LinkRecord&)>& fn) {
  bool stopped = false;
  auto visit = [&](absl::string_view h) -> absl::StatusOr<bool> {
    absl::Status status = impl_->ScanHostRange(
        h, kRecordTag, "",
        [&](absl::string_view key,
            absl::string_view value) -> absl::StatusOr<bool> {
          absl::StatusOr<std::optional<proto::LinkRecord>> record =
              ParseValue<proto::LinkRecord>("LinkRecord", key, value);
          if (!record.ok()) return record.status();
          if (!fn(**record)) stopped = true;
          return !stopped;
        });
    if (!status.ok()) return status;
    return !stopped;
  };
  if (!host.empty()) return visit(host).status();
  return impl_->ForEachHost(visit);
}

absl::StatusOr<std::vector<std::string>> LinkDb::ListHosts() {
  std::vector<std::string> hosts;
  absl::Status s =
      impl_->ForEachHost([&](const std::string& host) -> absl::StatusOr<bool> {
        hosts.push_back(host);
        return true;
      });
  if (!s.ok()) return s;
  return hosts;
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
