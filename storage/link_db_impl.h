// Internal to storage/ (the storage library): LinkDb::Impl, the state
// behind a LinkDb (storage/link_db.h), and the RocksDB helpers its files
// share. Not a public header: only storage/link_db.cc and
// storage/link_db_read.cc include it, and RocksDB types appear here and in
// storage's .cc files only, never in link_db.h.
//
// The state is one database and, under one mutex, the in-memory queue heads
// (the queue heads must change in the critical section that writes the
// index they mirror). Its code is in two files:
//
// - link_db.cc: Open and recovery, Commit, Pop, the queue heads and what
//   answers from them (Peek, QueuedHosts, QueuedAbove...), DropHost;
// - link_db_read.cc: the reads, which need RocksDB and no in-memory state
//   (records, pages, crawl-wide values, site states, the near-duplicate,
//   outbox and due indexes, listings of records and hosts).
//
// The key layout is link_keys.h's, building batches link_batch.cc's.
#ifndef FCRAWL_STORAGE_LINK_DB_IMPL_H_
#define FCRAWL_STORAGE_LINK_DB_IMPL_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "proto/link_state.pb.h"
#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/perf_level.h"
#include "rocksdb/slice.h"
#include "rocksdb/write_batch.h"
#include "storage/link_db.h"
#include "storage/link_keys.h"
#include "storage/score_histogram.h"

namespace fcrawl::storage {

// RocksDB counts every key comparison in a thread-local perf context unless
// the calling thread turns its perf level down; in a shared library each
// count is two more thread-local lookups: 2.3% of a 1,500-page crawl's
// instructions (callgrind). The level is per thread and nothing here reads the
// counts.
inline void NoPerfCounts() {
  rocksdb::SetPerfLevel(rocksdb::PerfLevel::kDisable);
}

inline rocksdb::Slice ToSlice(absl::string_view s) {
  return rocksdb::Slice(s.data(), s.size());
}
inline absl::string_view ToView(const rocksdb::Slice& s) {
  return absl::string_view(s.data(), s.size());
}

inline absl::Status CorruptValue(absl::string_view what,
                                 absl::string_view key) {
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
                          : buffer.begin()->substr(0, keys::kScoreBytes);
  }
};

struct LinkDb::Impl {
  Impl(std::string dir_in, const LinkDbOptions& options_in,
       std::unique_ptr<rocksdb::Env> env_in, std::unique_ptr<rocksdb::DB> db_in)
      : dir(std::move(dir_in)),
        options(options_in),
        cap(options_in.frontier_buffer == 0 ? 1 : options_in.frontier_buffer),
        env(std::move(env_in)),
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
  // The space-guarding Env the database was opened with (null: RocksDB's
  // default); destroyed after the database, which uses it to the end.
  std::unique_ptr<rocksdb::Env> env;
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

  // --- Reads (RocksDB is thread-safe; no in-memory state involved). These
  // are in link_db_read.cc, the rest in link_db.cc.

  absl::StatusOr<std::optional<std::string>> GetRaw(absl::string_view key);

  absl::StatusOr<std::optional<proto::LinkRecord>> GetRecord(
      absl::string_view host, absl::string_view url);

  // Calls fn(host) for every host with keys, in key order, until fn returns
  // false or an error.
  absl::Status ForEachHost(
      const std::function<absl::StatusOr<bool>(const std::string&)>& fn);

  // Calls fn(key, value) for the keys "H" host "\0" tag ..., in key order,
  // until fn returns false.
  absl::Status ScanHostRange(absl::string_view host, char tag,
                             absl::string_view start_suffix,
                             const std::function<absl::StatusOr<bool>(
                                 absl::string_view, absl::string_view)>& fn);

  // --- Queue heads.

  // Loads the next entries above the watermark into an empty buffer.
  absl::Status Refill(const std::string& host, HostQueue& q)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu);

  void AddEntry(const std::string& host, std::string suffix)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu);

  void RemoveEntry(const std::string& host, const std::string& suffix)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu);

  // After the host's entries changed: drops an empty queue, refills an
  // empty buffer, notes a changed best score.
  void Settle(const std::string& host, const std::string& best_before)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu);

  std::string BestBytes(const std::string& host)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu);

  // The host's queue with a loaded buffer, nullptr when empty.
  absl::StatusOr<HostQueue*> LoadedQueue(const std::string& host)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu);

  absl::Status Write(rocksdb::WriteBatch* batch);

  // --- Open.

  // Queues the host's IN_FLIGHT URLs again and loads its queue head.
  absl::Status RecoverHost(const std::string& host)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu);

  absl::Status Recover() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu);

  // --- Commit.

  absl::Status Commit(const LinkBatch& batch) ABSL_LOCKS_EXCLUDED(mu);

  // --- Pop.

  absl::StatusOr<std::optional<proto::LinkRecord>> Pop(const std::string& host)
      ABSL_LOCKS_EXCLUDED(mu);
};

}  // namespace fcrawl::storage

#endif  // FCRAWL_STORAGE_LINK_DB_IMPL_H_
