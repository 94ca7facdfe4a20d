// The worker's link state: one RocksDB database per worker holding every
// known URL (proto::LinkRecord), the frontier as a per-host priority index,
// what was learned per host (proto::HostRecord), the fetched pages' blocks
// and links (proto::StoredPage) and a few crawl-wide values.
//
// Key layout (docs/design.md "State": everything about one host is one prefix
// range, so a host can be exported, handed over or deleted as a range):
//   "H" host "\0" "U" url                   → LinkRecord
//   "H" host "\0" "Q" score(8) url          → "" (frontier index, QUEUED only)
//   "H" host "\0" "F" url                   → "" (IN_FLIGHT marker)
//   "H" host "\0" "P" url                   → StoredPage
//   "H" host "\0" "M"                       → HostRecord
//   "G" name                                → crawl-wide value (bytes)
//   "D" band(1) band_key(8) url             → "" (near-duplicate index,
//                                             LinkDb::NearDuplicate)
//   "S" url                                 → MinHash signature
//   "O" seq(8)                              → RoutedLink bytes (outbox,
//                                             LinkDb::Outbox)
//   "V" due_ms(8) url                       → "" (revisit due index,
//                                             LinkDb::Due)
//   "I" name                                → LinkDb's own bookkeeping
//                                             ("Iknown_urls": big-endian
//                                             uint64, see LinkDbStats)
// `host` is HostKey(url): the lower-case host plus ":port" when the URL
// has an explicit port. score(8) is the score encoded so that byte order is
// descending score order (ties: URL byte order).
//
// The frontier without every URL in memory: each host keeps in memory only
// a small buffer with the best `frontier_buffer` entries of its queue and a
// watermark (the last index key loaded). Every queued entry at or above the
// watermark is in the buffer; new entries below it stay in RocksDB only;
// when the buffer runs dry it is refilled by one forward seek from the
// watermark, so tombstones of popped entries are never scanned twice. In
// memory per host: the buffer, the queued count and the best score. Open()
// visits every host by seeks (its records and pages are not read) and
// counts its index entries; hosts with an empty queue take no memory.
//
// Durability: every Commit() is one atomic RocksDB WriteBatch through the
// WAL (not fsynced unless LinkDbOptions::sync): a process killed with
// SIGKILL loses nothing that was committed. Pop() commits the move to
// IN_FLIGHT at once. Open() puts every IN_FLIGHT URL back into the queue
// with its stored score (the fetches that were in flight when the process
// died are fetched again).
//
// Thread-safety: all methods may be called from many threads (one internal
// mutex), but the read-modify-write pattern of the crawl loop (Get, then
// Commit a batch built from what was read) assumes one writer.

#ifndef FCRAWL_STORAGE_LINK_DB_H_
#define FCRAWL_STORAGE_LINK_DB_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/disk_reserve.h"
#include "core/minhash.h"
#include "core/url.h"
#include "proto/link_state.pb.h"

namespace fcrawl::storage {

struct LinkDbOptions {
  // Queue entries per host kept in memory.
  size_t frontier_buffer = 32;
  // RocksDB block cache, bytes.
  size_t block_cache_bytes = 64 << 20;
  // fsync the WAL on every commit (survives power loss, not just SIGKILL).
  bool sync = false;
  // Create the database when absent (else NotFound).
  bool create_if_missing = true;
  // Open for reading only (RocksDB OpenForReadOnly): nothing is recovered
  // or written, IN_FLIGHT records stay as they are, the queues are not
  // loaded, and every write fails. For inspecting a crawl's state; RocksDB
  // takes no lock for it, so it also works next to a running crawl (and
  // sees the state as of the open).
  bool read_only = false;
  // Called when a file RocksDB writes is about to be appended to with less
  // than the append and storage::kMinFreeAfterAppend free on the folder's
  // file system (storage/space_guard_fs.h): frees space held back for it
  // (a DiskReserve's Hook), so that RocksDB never sees a full disk, which
  // it does not survive. Must be thread-safe. Empty: no check.
  NoSpaceHook no_space;
};

// The host part of the keys (url::HostKey): lower-case host plus ":port"
// when the URL has an explicit non-default port. "" when it is not an
// absolute http(s) URL.
inline std::string HostKey(absl::string_view url) { return url::HostKey(url); }

// Order-preserving encoding: EncodeScore(a) < EncodeScore(b) (bytewise)
// exactly when a > b; NaN sorts last. Exposed for tests.
std::string EncodeScore(double score);
double DecodeScore(absl::string_view bytes);

struct QueuedEntry {
  std::string url;
  double score = 0;
};

// Mutations applied atomically by LinkDb::Commit. Each record's host is
// taken from its url. The frontier index follows the records: the caller
// says what the previous record was (nullptr for a new URL), so the batch
// can drop the old index key. A URL Put twice in one batch (a page linking
// twice to a new URL) is handled: the second Put's previous is the first,
// whatever the caller passed. Keys and values are built in these methods,
// outside LinkDb's lock.
class LinkBatch {
 public:
  // Stores `record` (replacing `previous`, which is what Get returned, or
  // nullptr for a URL not yet known). When `record` is QUEUED it is indexed
  // with record.link_score; any old index entry of `previous` is removed.
  // An IN_FLIGHT marker is removed when `record` is not IN_FLIGHT (and
  // written when it is).
  void Put(const proto::LinkRecord& record, const proto::LinkRecord* previous);
  // Keyed by host.host(), which must be a HostKey().
  void PutHost(const proto::HostRecord& host);
  void PutPage(const std::string& url, const proto::StoredPage& page);
  void PutGlobal(absl::string_view name, absl::string_view value);
  // Adds `url`'s page to the near-duplicate index with the MinHash
  // signature of its content (core/minhash.h).
  void PutSignature(const text::MinHashSignature& signature,
                    const std::string& url);
  // The outbox (LinkDb::Outbox): a link routed to another worker, as the
  // cluster side serialized it, under `seq`; erased once delivered.
  void PutOutbox(uint64_t seq, std::string bytes);
  void EraseOutbox(uint64_t seq);
  // The revisit due index (LinkDb::Due): `url` is due at `due_ms` (Unix
  // ms), and no longer at that time. The caller keeps the time it put
  // (LinkRecord.next_visit_ms) to erase it.
  void PutDue(const std::string& url, int64_t due_ms);
  void EraseDue(const std::string& url, int64_t due_ms);

  bool empty() const;
  size_t size() const;  // mutations added

 private:
  friend class LinkDb;
  struct Op;
  std::vector<std::shared_ptr<Op>> ops_;
};

// An entry of the revisit due index.
struct DueEntry {
  std::string url;
  int64_t due_ms = 0;
};

struct LinkDbStats {
  // LinkRecords: a Put with previous == nullptr counts one (a persistent
  // counter, committed with the batch; exact as long as callers pass the
  // previous record they read).
  int64_t known_urls = 0;
  int64_t queued = 0;  // entries in the frontier index
  int64_t in_flight = 0;
  int64_t hosts_with_queue = 0;
};

class LinkDb {
 public:
  // Opens or creates the database in folder `dir` (created when missing).
  // Recovers IN_FLIGHT URLs (see above) and loads each host's queue head.
  // Errors: `dir` is a file or under one → InvalidArgument; missing with
  // !create_if_missing → NotFound; a lock held by another process or by
  // another LinkDb of this process → FailedPrecondition naming the folder;
  // corruption (also an unparsable record of an IN_FLIGHT URL) → DataLoss;
  // other RocksDB errors mapped to the nearest absl code.
  static absl::StatusOr<std::unique_ptr<LinkDb>> Open(
      const std::string& dir, const LinkDbOptions& options = {});
  // An existing database, read-only (read_only, !create_if_missing): for
  // readers beside a running crawl (dumps, listings, exports).
  static absl::StatusOr<std::unique_ptr<LinkDb>> OpenReadOnly(
      const std::string& dir);

  LinkDb(const LinkDb&) = delete;
  LinkDb& operator=(const LinkDb&) = delete;
  ~LinkDb();  // flushes and closes

  // The record of `url`, nullopt when unknown (or not an http(s) URL).
  // A stored value that does not parse → DataLoss naming the key.
  absl::StatusOr<std::optional<proto::LinkRecord>> Get(absl::string_view url);
  // Several at once (RocksDB MultiGet), in order.
  absl::StatusOr<std::vector<std::optional<proto::LinkRecord>>> GetMany(
      const std::vector<std::string>& urls);
  // The same for URLs whose host keys the caller already holds (a page's
  // out-links carry theirs): hosts[i] must be HostKey(urls[i]), "" for a URL
  // that is not http(s) (nullopt, as above). Saves parsing each URL again.
  // Sizes differ → InvalidArgument.
  absl::StatusOr<std::vector<std::optional<proto::LinkRecord>>> GetMany(
      const std::vector<std::string>& urls,
      const std::vector<std::string>& hosts);
  absl::StatusOr<std::optional<proto::HostRecord>> GetHost(
      absl::string_view host);
  absl::StatusOr<std::optional<proto::StoredPage>> GetPage(
      absl::string_view url);
  absl::StatusOr<std::optional<std::string>> GetGlobal(absl::string_view name);

  // Per-site state of a strategy (the URL-rule strategy's learned patterns),
  // opaque bytes keyed by HostKey. Put writes at once (through the WAL, not
  // in a LinkBatch); callable from any thread. A read-only database refuses
  // Put with FailedPrecondition.
  absl::Status PutSiteState(absl::string_view host, absl::string_view bytes);
  absl::StatusOr<std::optional<std::string>> GetSiteState(
      absl::string_view host);
  // Every stored site state, in host order; stops when `fn` returns false.
  absl::Status ForEachSiteState(
      const std::function<bool(absl::string_view host,
                               absl::string_view bytes)>& fn);

  // The page of the near-duplicate index most like `signature`: among the
  // pages that agree with it on a whole band (core/minhash.h), the one
  // with the highest estimated resemblance if it is at least
  // `min_resemblance` (the first in key order among equals), as (url,
  // resemblance); nullopt when none. At most `max_candidates` entries are
  // read per band, so a band shared by very many pages (a hostile site's)
  // costs bounded time. A stored signature that does not decode →
  // DataLoss naming its key.
  struct NearDuplicateMatch {
    std::string url;
    double resemblance = 0;
  };
  absl::StatusOr<std::optional<NearDuplicateMatch>> NearDuplicate(
      const text::MinHashSignature& signature, double min_resemblance,
      int max_candidates = 1000);

  // The outbox's entries, lowest number first, at most `limit`.
  absl::StatusOr<std::vector<std::pair<uint64_t, std::string>>> Outbox(
      size_t limit);

  // The first `limit` entries of the revisit due index due at or before
  // `until_ms`, earliest first (pass INT64_MAX to see the next one due).
  // One forward scan from the index's start.
  absl::StatusOr<std::vector<DueEntry>> Due(int64_t until_ms, size_t limit);

  // Applies the batch atomically and updates the in-memory queue heads.
  // A record or page whose URL has no HostKey, or a HostRecord without a
  // host → InvalidArgument and nothing is written.
  absl::Status Commit(LinkBatch batch);

  // The best queued entry of `host`, nullopt when its queue is empty.
  std::optional<QueuedEntry> Peek(absl::string_view host);
  // Removes the best queued entry of `host` from the queue and commits its
  // record as IN_FLIGHT (attempts + 1). nullopt when the queue is empty.
  // An index entry its record disowns (record missing, not QUEUED or with
  // another link_score: a caller passed a wrong `previous`) is deleted and
  // skipped. The head's record unparsable → DataLoss (queue unchanged).
  absl::StatusOr<std::optional<proto::LinkRecord>> Pop(absl::string_view host);

  // Hosts whose queue is not empty, with their best score (order
  // unspecified). O(hosts with a queue).
  std::vector<std::pair<std::string, double>> QueuedHosts();
  // Hosts whose best score changed (or whose queue became empty or
  // non-empty) since the last call; lets a scheduler keep its own order
  // without calling QueuedHosts() every time. After Open every host with a
  // queue counts as changed.
  std::vector<std::string> TakeChangedHosts();

  // Queued entries over all hosts whose score is above `score`, to about
  // 1/256 of its value (closer scores count as ties, not above; see
  // storage/score_histogram.h). O(20) under the lock.
  int64_t QueuedAbove(double score);
  // The best score queued on any host, to within its histogram bucket
  // (rounded down, about 1/256 of its value); nullopt when nothing is
  // queued. O(20) under the lock.
  std::optional<double> BestQueuedScore();
  // The best queued scores, each rounded down to its histogram bucket,
  // with how many URLs the bucket holds, best first, until at least
  // `entries` URLs or `max_buckets` buckets are listed (ScoreHistogram::
  // Top). What a cluster worker tells the others of the URLs it holds.
  std::vector<std::pair<double, int64_t>> TopQueued(int64_t entries,
                                                    size_t max_buckets);

  LinkDbStats stats();

  // Visits every LinkRecord of `host` (empty: every host) in key order;
  // stops early when `fn` returns false. No lock is held while `fn` runs
  // (it may call this LinkDb); each host is read from an implicit snapshot
  // taken when its scan starts. An unparsable record → DataLoss.
  absl::Status ForEachRecord(
      absl::string_view host,
      const std::function<bool(const proto::LinkRecord&)>& fn);

  // Every host with any key (records, pages, host record, site state), in
  // key order.
  absl::StatusOr<std::vector<std::string>> ListHosts();

  // Deletes what `host` owns in the frontier — its link records, queue,
  // in-flight markers, host record and site state — atomically, for a host
  // handed over to another worker. Its stored pages stay: they were fetched
  // here and belong to this worker's graph export. The record count and
  // the queue statistics drop accordingly.
  absl::Status DropHost(absl::string_view host);

  // Flushes memtables (tests; a clean shutdown).
  absl::Status Flush();

 private:
  struct Impl;
  explicit LinkDb(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace fcrawl::storage

#endif  // FCRAWL_STORAGE_LINK_DB_H_
