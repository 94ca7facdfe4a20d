// Over 800 lines for a reason: every test here drives one LinkDb through
// RocksDB with the same fixtures; the key layout's tests are in
// link_keys_test.cc.
#include "storage/link_db.h"

#include <signal.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/test_temp_dir.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "rocksdb/db.h"
#include "rocksdb/iterator.h"
#include "rocksdb/options.h"
#include "rocksdb/perf_level.h"

namespace fcrawl::storage {
namespace {

using proto::LinkRecord;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Pair;
using ::testing::UnorderedElementsAre;

// The test's own folder (removed afterwards) and the database folder in it.
class TempDir : public file::TestTempDir {
 public:
  std::string db() const { return File("db"); }
};

std::unique_ptr<LinkDb> OpenOrDie(const std::string& dir,
                                  const LinkDbOptions& options = {}) {
  absl::StatusOr<std::unique_ptr<LinkDb>> db = LinkDb::Open(dir, options);
  EXPECT_TRUE(db.ok()) << db.status();
  return db.ok() ? std::move(*db) : nullptr;
}

LinkRecord Rec(const std::string& url, double score,
               LinkRecord::Status status = LinkRecord::QUEUED) {
  LinkRecord r;
  r.set_url(url);
  r.set_status(status);
  r.set_link_score(score);
  return r;
}

// Commits one new QUEUED record per (url, score).
void AddQueued(LinkDb& db,
               const std::vector<std::pair<std::string, double>>& links) {
  LinkBatch batch;
  for (const auto& [url, score] : links) batch.Put(Rec(url, score), nullptr);
  ASSERT_TRUE(db.Commit(std::move(batch)).ok());
}

LinkRecord GetOrDie(LinkDb& db, const std::string& url) {
  absl::StatusOr<std::optional<LinkRecord>> r = db.Get(url);
  EXPECT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(r.ok() && r->has_value()) << url;
  return r.ok() && r->has_value() ? **r : LinkRecord();
}

std::string PopUrl(LinkDb& db, const std::string& host) {
  absl::StatusOr<std::optional<LinkRecord>> r = db.Pop(host);
  EXPECT_TRUE(r.ok()) << r.status();
  if (!r.ok() || !r->has_value()) return "";
  return (*r)->url();
}

std::string Key(const std::string& host, char tag, const std::string& rest) {
  std::string key = "H" + host;
  key.push_back('\0');
  key.push_back(tag);
  return key + rest;
}

// Every key in the database at `dir` (the LinkDb must be closed).
std::vector<std::string> RawKeys(const std::string& dir) {
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s =
      rocksdb::DB::OpenForReadOnly(rocksdb::Options(), dir, &raw);
  EXPECT_TRUE(s.ok()) << s.ToString();
  std::vector<std::string> keys;
  if (!s.ok()) return keys;
  std::unique_ptr<rocksdb::DB> db(raw);
  std::unique_ptr<rocksdb::Iterator> it(
      db->NewIterator(rocksdb::ReadOptions()));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    keys.push_back(it->key().ToString());
  }
  return keys;
}

// The keys of `host` with sub-range `tag`, without the prefix.
std::vector<std::string> TaggedKeys(const std::vector<std::string>& keys,
                                    const std::string& host, char tag) {
  const std::string prefix = Key(host, tag, "");
  std::vector<std::string> out;
  for (const std::string& k : keys) {
    if (k.compare(0, prefix.size(), prefix) == 0) {
      out.push_back(k.substr(prefix.size()));
    }
  }
  return out;
}

// ---------------------------------------------------------------------------

// The outbox of routed links: entries by number, erased ones gone, kept
// across a reopen.
TEST(LinkDbTest, Outbox) {
  TempDir tmp;
  {
    std::unique_ptr<LinkDb> db = OpenOrDie(tmp.db());
    LinkBatch batch;
    batch.PutOutbox(300, "c");
    batch.PutOutbox(2, "a");
    batch.PutOutbox(7, "b");
    ASSERT_TRUE(db->Commit(std::move(batch)).ok());
    LinkBatch erase;
    erase.EraseOutbox(7);
    ASSERT_TRUE(db->Commit(std::move(erase)).ok());
  }
  std::unique_ptr<LinkDb> db = OpenOrDie(tmp.db());
  absl::StatusOr<std::vector<std::pair<uint64_t, std::string>>> out =
      db->Outbox(10);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(*out, (std::vector<std::pair<uint64_t, std::string>>{{2, "a"},
                                                                 {300, "c"}}));
  out = db->Outbox(1);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out->size(), 1u);
}

// The revisit due index: entries come back earliest first, up to a time
// and a count; an erased entry is gone; the index survives a reopen and
// no host range sees it.
TEST(LinkDbTest, DueIndex) {
  TempDir tmp;
  {
    std::unique_ptr<LinkDb> db = OpenOrDie(tmp.db());
    LinkBatch batch;
    batch.PutDue("http://b.test/2", 2000);
    batch.PutDue("http://a.test/1", 1000);
    batch.PutDue("http://a.test/3", 300000);
    batch.PutDue("http://c.test/x", 2000);
    ASSERT_TRUE(db->Commit(std::move(batch)).ok());
    LinkBatch erase;
    erase.EraseDue("http://c.test/x", 2000);
    erase.EraseDue("http://c.test/never", 5);  // absent: no harm
    ASSERT_TRUE(db->Commit(std::move(erase)).ok());
  }
  std::unique_ptr<LinkDb> db = OpenOrDie(tmp.db());
  auto urls = [](const std::vector<DueEntry>& v) {
    std::vector<std::string> out;
    for (const DueEntry& e : v)
      out.push_back(absl::StrCat(e.due_ms, " ", e.url));
    return out;
  };
  absl::StatusOr<std::vector<DueEntry>> due = db->Due(2000, 10);
  ASSERT_TRUE(due.ok()) << due.status();
  EXPECT_EQ(urls(*due), (std::vector<std::string>{"1000 http://a.test/1",
                                                  "2000 http://b.test/2"}));
  due = db->Due(std::numeric_limits<int64_t>::max(), 10);
  ASSERT_TRUE(due.ok());
  EXPECT_EQ(urls(*due).back(), "300000 http://a.test/3");
  due = db->Due(std::numeric_limits<int64_t>::max(), 1);
  ASSERT_TRUE(due.ok());
  EXPECT_EQ(urls(*due), std::vector<std::string>{"1000 http://a.test/1"});
  due = db->Due(999, 10);
  ASSERT_TRUE(due.ok());
  EXPECT_TRUE(due->empty());
  absl::StatusOr<std::vector<std::string>> hosts = db->ListHosts();
  ASSERT_TRUE(hosts.ok());
  EXPECT_TRUE(hosts->empty());
}

// The near-duplicate index: a page agreeing on one band is a candidate,
// checked with its whole signature; the most alike above the threshold
// wins; a band shared by many pages is read only up to the candidate
// limit; a damaged signature is DataLoss.
TEST(LinkDbTest, NearDuplicateIndex) {
  TempDir tmp;
  std::unique_ptr<LinkDb> db = OpenOrDie(tmp.db());
  text::MinHashSignature a;
  for (int k = 0; k < text::kMinHashes; ++k) a[k] = 1000 + k;
  // b agrees with a on band 0 only (4 of 32 values: 0.125); c on all but
  // the last value (31 of 32).
  text::MinHashSignature b = a, c = a;
  for (int k = text::kRows; k < text::kMinHashes; ++k) b[k] = 5000 + k;
  c[text::kMinHashes - 1] = 7;
  LinkBatch batch;
  batch.PutSignature(b, "http://a.test/b");
  batch.PutSignature(c, "http://a.test/c");
  ASSERT_TRUE(db->Commit(std::move(batch)).ok());

  auto find = [&](const text::MinHashSignature& s,
                  double min) -> std::optional<std::pair<std::string, double>> {
    absl::StatusOr<std::optional<LinkDb::NearDuplicateMatch>> m =
        db->NearDuplicate(s, min);
    EXPECT_TRUE(m.ok()) << m.status();
    if (!m.ok() || !m->has_value()) return std::nullopt;
    return std::make_pair((*m)->url, (*m)->resemblance);
  };
  EXPECT_EQ(find(a, 0.8),
            std::make_pair(std::string("http://a.test/c"), 31.0 / 32));
  EXPECT_EQ(find(a, 0.99), std::nullopt);
  EXPECT_EQ(find(b, 0.1), std::make_pair(std::string("http://a.test/b"), 1.0));
  // Sharing no band: not even a candidate, whatever the threshold.
  text::MinHashSignature d = a;
  for (int band = 0; band < text::kBands; ++band) d[band * text::kRows] = 1;
  EXPECT_EQ(find(d, 0.0), std::nullopt);

  // 20 pages share band 0 with e and nothing else (4 of 32 values); h
  // shares band 0 and one value of each other band (11 of 32), so only
  // band 0 makes it a candidate, and it sorts after the 20 there: with 10
  // entries read per band it is missed, with the default limit found.
  text::MinHashSignature e;
  for (int k = 0; k < text::kMinHashes; ++k) e[k] = 90000 + k;
  LinkBatch many;
  for (int i = 0; i < 20; ++i) {
    text::MinHashSignature f = e;
    for (int k = text::kRows; k < text::kMinHashes; ++k) f[k] = i * 100 + k;
    many.PutSignature(f, "http://b.test/" + std::to_string(i));
  }
  text::MinHashSignature h = e;
  for (int k = text::kRows; k < text::kMinHashes; ++k) {
    if (k % text::kRows != 0) h[k] = 7;
  }
  many.PutSignature(h, "http://b.test/z");
  ASSERT_TRUE(db->Commit(std::move(many)).ok());
  absl::StatusOr<std::optional<LinkDb::NearDuplicateMatch>> near =
      db->NearDuplicate(e, 0.3, /*max_candidates=*/10);
  ASSERT_TRUE(near.ok()) << near.status();
  EXPECT_FALSE(near->has_value());
  near = db->NearDuplicate(e, 0.3);
  ASSERT_TRUE(near.ok() && near->has_value()) << near.status();
  EXPECT_EQ((*near)->url, "http://b.test/z");
  EXPECT_EQ((*near)->resemblance, 11.0 / 32);
}

// The index read from table files: after a flush, and after a reopen (the
// bands' prefixes are in the tables' bloom filters, rocks_options.cc), a
// page sharing a band is still found and one sharing none is not.
TEST(LinkDbTest, NearDuplicateIndexFromTableFiles) {
  TempDir tmp;
  text::MinHashSignature a, far;
  for (int k = 0; k < text::kMinHashes; ++k) {
    a[k] = 1000 + k;
    far[k] = 50000 + k;
  }
  text::MinHashSignature c = a;  // a's values but the last: 31 of 32
  c[text::kMinHashes - 1] = 7;
  {
    std::unique_ptr<LinkDb> db = OpenOrDie(tmp.db());
    LinkBatch batch;
    batch.PutSignature(c, "http://a.test/c");
    batch.PutSignature(far, "http://a.test/far");
    ASSERT_TRUE(db->Commit(std::move(batch)).ok());
    ASSERT_TRUE(db->Flush().ok());
    absl::StatusOr<std::optional<LinkDb::NearDuplicateMatch>> m =
        db->NearDuplicate(a, 0.8);
    ASSERT_TRUE(m.ok() && m->has_value()) << m.status();
    EXPECT_EQ((*m)->url, "http://a.test/c");
  }
  std::unique_ptr<LinkDb> db = OpenOrDie(tmp.db());
  absl::StatusOr<std::optional<LinkDb::NearDuplicateMatch>> m =
      db->NearDuplicate(a, 0.8);
  ASSERT_TRUE(m.ok() && m->has_value()) << m.status();
  EXPECT_EQ((*m)->url, "http://a.test/c");
  EXPECT_EQ((*m)->resemblance, 31.0 / 32);
  text::MinHashSignature d = a;
  for (int band = 0; band < text::kBands; ++band) d[band * text::kRows] = 1;
  m = db->NearDuplicate(d, 0.0);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_FALSE(m->has_value());
  m = db->NearDuplicate(far, 0.9);
  ASSERT_TRUE(m.ok() && m->has_value()) << m.status();
  EXPECT_EQ((*m)->url, "http://a.test/far");
}

TEST(LinkDbTest, PutNewQueuedRecordIndexesIt) {
  TempDir tmp;
  auto db = OpenOrDie(tmp.db());
  ASSERT_NE(db, nullptr);
  LinkRecord r = Rec("http://a.test/1", 0.75);
  r.set_depth(2);
  r.set_anchor_text("one");
  LinkBatch batch;
  batch.Put(r, nullptr);
  EXPECT_EQ(batch.size(), 1u);
  EXPECT_FALSE(batch.empty());
  ASSERT_TRUE(db->Commit(std::move(batch)).ok());

  LinkRecord got = GetOrDie(*db, "http://a.test/1");
  EXPECT_EQ(got.anchor_text(), "one");
  EXPECT_EQ(got.depth(), 2);
  std::optional<QueuedEntry> head = db->Peek("a.test");
  ASSERT_TRUE(head.has_value());
  EXPECT_EQ(head->url, "http://a.test/1");
  EXPECT_EQ(head->score, 0.75);
  EXPECT_THAT(db->QueuedHosts(), ElementsAre(Pair("a.test", 0.75)));

  absl::StatusOr<std::optional<LinkRecord>> unknown =
      db->Get("http://a.test/2");
  ASSERT_TRUE(unknown.ok());
  EXPECT_FALSE(unknown->has_value());
  absl::StatusOr<std::optional<LinkRecord>> bad = db->Get("not a url");
  ASSERT_TRUE(bad.ok());
  EXPECT_FALSE(bad->has_value());
  EXPECT_FALSE(db->Peek("b.test").has_value());
}

TEST(LinkDbTest, RescoreMovesTheIndexEntry) {
  TempDir tmp;
  {
    auto db = OpenOrDie(tmp.db());
    AddQueued(*db, {{"http://a.test/a", 1.0}, {"http://a.test/b", 2.0}});
    ASSERT_EQ(db->Peek("a.test")->url, "http://a.test/b");

    LinkRecord prev = GetOrDie(*db, "http://a.test/a");
    LinkRecord next = prev;
    next.set_link_score(3.0);
    LinkBatch batch;
    batch.Put(next, &prev);
    ASSERT_TRUE(db->Commit(std::move(batch)).ok());
    EXPECT_EQ(db->Peek("a.test")->url, "http://a.test/a");
    EXPECT_EQ(db->Peek("a.test")->score, 3.0);
    EXPECT_EQ(db->stats().queued, 2);
    EXPECT_EQ(db->stats().known_urls, 2);
  }
  // The old entry is gone from RocksDB, not just from memory.
  const std::vector<std::string> keys = RawKeys(tmp.db());
  EXPECT_THAT(TaggedKeys(keys, "a.test", 'Q'),
              ElementsAre(EncodeScore(3.0) + "http://a.test/a",
                          EncodeScore(2.0) + "http://a.test/b"));
  auto db = OpenOrDie(tmp.db());
  EXPECT_EQ(PopUrl(*db, "a.test"), "http://a.test/a");
  EXPECT_EQ(PopUrl(*db, "a.test"), "http://a.test/b");
  EXPECT_EQ(PopUrl(*db, "a.test"), "");
}

TEST(LinkDbTest, DoneRemovesIndexEntryAndInFlightMarker) {
  TempDir tmp;
  {
    auto db = OpenOrDie(tmp.db());
    AddQueued(*db, {{"http://a.test/1", 1.0},
                    {"http://a.test/2", 2.0},
                    {"http://a.test/3", 3.0}});
    // Fetched: popped, then DONE.
    absl::StatusOr<std::optional<LinkRecord>> popped = db->Pop("a.test");
    ASSERT_TRUE(popped.ok() && popped->has_value());
    EXPECT_EQ(db->stats().in_flight, 1);
    LinkRecord done = **popped;
    done.set_status(LinkRecord::DONE);
    done.set_http_status(200);
    // Skipped while still queued.
    LinkRecord queued = GetOrDie(*db, "http://a.test/2");
    LinkRecord skipped = queued;
    skipped.set_status(LinkRecord::SKIPPED);
    LinkBatch batch;
    batch.Put(done, &**popped);
    batch.Put(skipped, &queued);
    ASSERT_TRUE(db->Commit(std::move(batch)).ok());

    LinkDbStats stats = db->stats();
    EXPECT_EQ(stats.in_flight, 0);
    EXPECT_EQ(stats.queued, 1);
    EXPECT_EQ(stats.known_urls, 3);
    EXPECT_EQ(db->Peek("a.test")->url, "http://a.test/1");
    EXPECT_EQ(GetOrDie(*db, "http://a.test/3").status(), LinkRecord::DONE);
    EXPECT_EQ(GetOrDie(*db, "http://a.test/3").http_status(), 200);
  }
  const std::vector<std::string> keys = RawKeys(tmp.db());
  EXPECT_THAT(TaggedKeys(keys, "a.test", 'Q'),
              ElementsAre(EncodeScore(1.0) + "http://a.test/1"));
  EXPECT_THAT(TaggedKeys(keys, "a.test", 'F'), ElementsAre());
}

TEST(LinkDbTest, PopTakesTheBestAndMarksInFlight) {
  TempDir tmp;
  auto db = OpenOrDie(tmp.db());
  AddQueued(*db, {{"http://a.test/b", 1.0},
                  {"http://a.test/a", 1.0},
                  {"http://a.test/c", 1.0},
                  {"http://a.test/d", 2.0},
                  {"http://a.test/neg", -5.0},
                  {"http://a.test/seed", std::numeric_limits<double>::max()}});

  // Peek does not remove.
  EXPECT_EQ(db->Peek("a.test")->url, "http://a.test/seed");
  EXPECT_EQ(db->Peek("a.test")->url, "http://a.test/seed");
  EXPECT_EQ(db->stats().queued, 6);

  absl::StatusOr<std::optional<LinkRecord>> first = db->Pop("a.test");
  ASSERT_TRUE(first.ok() && first->has_value());
  EXPECT_EQ((*first)->url(), "http://a.test/seed");
  EXPECT_EQ((*first)->status(), LinkRecord::IN_FLIGHT);
  EXPECT_EQ((*first)->attempts(), 1);
  EXPECT_EQ((*first)->link_score(), std::numeric_limits<double>::max());
  LinkRecord stored = GetOrDie(*db, "http://a.test/seed");
  EXPECT_EQ(stored.status(), LinkRecord::IN_FLIGHT);
  EXPECT_EQ(stored.attempts(), 1);

  // Ties by URL byte order.
  EXPECT_EQ(PopUrl(*db, "a.test"), "http://a.test/d");
  EXPECT_EQ(PopUrl(*db, "a.test"), "http://a.test/a");
  EXPECT_EQ(PopUrl(*db, "a.test"), "http://a.test/b");
  EXPECT_EQ(PopUrl(*db, "a.test"), "http://a.test/c");
  EXPECT_EQ(PopUrl(*db, "a.test"), "http://a.test/neg");
  EXPECT_EQ(PopUrl(*db, "a.test"), "");
  EXPECT_FALSE(db->Peek("a.test").has_value());
  EXPECT_EQ(db->stats().in_flight, 6);
  EXPECT_EQ(db->stats().queued, 0);
  EXPECT_EQ(db->stats().hosts_with_queue, 0);
  EXPECT_THAT(db->QueuedHosts(), ElementsAre());

  // Requeued after a 503: attempts keep counting.
  LinkRecord prev = GetOrDie(*db, "http://a.test/d");
  LinkRecord again = prev;
  again.set_status(LinkRecord::QUEUED);
  LinkBatch batch;
  batch.Put(again, &prev);
  ASSERT_TRUE(db->Commit(std::move(batch)).ok());
  EXPECT_EQ(db->stats().in_flight, 5);
  absl::StatusOr<std::optional<LinkRecord>> retry = db->Pop("a.test");
  ASSERT_TRUE(retry.ok() && retry->has_value());
  EXPECT_EQ((*retry)->attempts(), 2);
}

TEST(LinkDbTest, HostsAreSeparatePrefixRanges) {
  TempDir tmp;
  auto db = OpenOrDie(tmp.db());
  AddQueued(*db, {{"http://a.test/x", 1.0},
                  {"http://a.test.evil/x", 9.0},
                  {"http://a.test:8080/x", 5.0},
                  {"http://a.test/y", 0.5}});
  LinkBatch hosts;
  for (const char* h : {"a.test", "a.test.evil", "a.test:8080"}) {
    proto::HostRecord host;
    host.set_host(h);
    host.set_robots_body(absl::StrCat("robots of ", h));
    hosts.PutHost(host);
  }
  ASSERT_TRUE(db->Commit(std::move(hosts)).ok());

  EXPECT_THAT(
      db->QueuedHosts(),
      UnorderedElementsAre(Pair("a.test", 1.0), Pair("a.test.evil", 9.0),
                           Pair("a.test:8080", 5.0)));
  EXPECT_EQ(PopUrl(*db, "a.test"), "http://a.test/x");
  EXPECT_EQ(PopUrl(*db, "a.test"), "http://a.test/y");
  EXPECT_EQ(PopUrl(*db, "a.test"), "");
  EXPECT_EQ(db->Peek("a.test.evil")->url, "http://a.test.evil/x");
  EXPECT_EQ(db->Peek("a.test:8080")->url, "http://a.test:8080/x");

  for (const char* h : {"a.test", "a.test.evil", "a.test:8080"}) {
    absl::StatusOr<std::optional<proto::HostRecord>> host = db->GetHost(h);
    ASSERT_TRUE(host.ok() && host->has_value()) << h;
    EXPECT_EQ((*host)->robots_body(), absl::StrCat("robots of ", h));
  }
  std::vector<std::string> urls;
  ASSERT_TRUE(db->ForEachRecord("a.test", [&](const LinkRecord& r) {
                  urls.push_back(r.url());
                  return true;
                }).ok());
  EXPECT_THAT(urls, ElementsAre("http://a.test/x", "http://a.test/y"));
  urls.clear();
  ASSERT_TRUE(db->ForEachRecord("", [&](const LinkRecord& r) {
                  urls.push_back(r.url());
                  return true;
                }).ok());
  EXPECT_THAT(urls,
              ElementsAre("http://a.test/x", "http://a.test/y",
                          "http://a.test.evil/x", "http://a.test:8080/x"));
  urls.clear();
  ASSERT_TRUE(db->ForEachRecord("", [&](const LinkRecord& r) {
                  urls.push_back(r.url());
                  return urls.size() < 3;
                }).ok());
  EXPECT_EQ(urls.size(), 3u);
}

TEST(LinkDbTest, StatsAndDuplicatesInOneBatch) {
  TempDir tmp;
  auto db = OpenOrDie(tmp.db());
  LinkDbStats s = db->stats();
  EXPECT_EQ(s.known_urls, 0);
  EXPECT_EQ(s.queued, 0);

  // A page that links twice to the same new URL, with two scores.
  LinkBatch batch;
  batch.Put(Rec("http://a.test/1", 1.0), nullptr);
  batch.Put(Rec("http://a.test/1", 4.0), nullptr);
  batch.Put(Rec("http://b.test/1", 2.0), nullptr);
  batch.Put(Rec("http://b.test/2", 0.0, LinkRecord::SKIPPED), nullptr);
  batch.PutGlobal("pages", "1");
  ASSERT_TRUE(db->Commit(std::move(batch)).ok());
  s = db->stats();
  EXPECT_EQ(s.known_urls, 3);
  EXPECT_EQ(s.queued, 2);
  EXPECT_EQ(s.in_flight, 0);
  EXPECT_EQ(s.hosts_with_queue, 2);
  EXPECT_EQ(db->Peek("a.test")->score, 4.0);
  EXPECT_EQ(PopUrl(*db, "a.test"), "http://a.test/1");
  EXPECT_EQ(PopUrl(*db, "a.test"), "");  // no stale entry at 1.0
  s = db->stats();
  EXPECT_EQ(s.queued, 1);
  EXPECT_EQ(s.in_flight, 1);
  EXPECT_EQ(s.hosts_with_queue, 1);
  absl::StatusOr<std::optional<std::string>> g = db->GetGlobal("pages");
  ASSERT_TRUE(g.ok() && g->has_value());
  EXPECT_EQ(**g, "1");
  g = db->GetGlobal("absent");
  ASSERT_TRUE(g.ok());
  EXPECT_FALSE(g->has_value());
}

TEST(LinkDbTest, InvalidUrlFailsTheWholeBatch) {
  TempDir tmp;
  auto db = OpenOrDie(tmp.db());
  LinkBatch batch;
  batch.Put(Rec("http://a.test/ok", 1.0), nullptr);
  batch.Put(Rec("mailto:x@a.test", 1.0), nullptr);
  absl::Status status = db->Commit(std::move(batch));
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("mailto:x@a.test"));
  absl::StatusOr<std::optional<LinkRecord>> r = db->Get("http://a.test/ok");
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->has_value());
  EXPECT_EQ(db->stats().known_urls, 0);
  EXPECT_TRUE(db->Commit(LinkBatch()).ok());
}

// Writes and batched reads turn RocksDB's per-comparison perf counts off on
// the calling thread (each count costs thread-local lookups; nothing reads
// them), on a thread that had them on as every new thread does.
TEST(LinkDbTest, WritesAndReadsTurnPerfCountsOff) {
  TempDir tmp;
  auto db = OpenOrDie(tmp.db());
  std::thread([&] {
    ASSERT_EQ(rocksdb::GetPerfLevel(), rocksdb::PerfLevel::kEnableCount);
    AddQueued(*db, {{"http://a.test/1", 1.0}});
    EXPECT_EQ(rocksdb::GetPerfLevel(), rocksdb::PerfLevel::kDisable);
  }).join();
  std::thread([&] {
    ASSERT_TRUE(db->GetMany({"http://a.test/1"}).ok());
    EXPECT_EQ(rocksdb::GetPerfLevel(), rocksdb::PerfLevel::kDisable);
  }).join();
}

TEST(LinkDbTest, GetManyInOrder) {
  TempDir tmp;
  auto db = OpenOrDie(tmp.db());
  AddQueued(*db, {{"http://a.test/1", 1.0}, {"http://b.test/2", 2.0}});
  absl::StatusOr<std::vector<std::optional<LinkRecord>>> got =
      db->GetMany({"http://b.test/2", "http://a.test/unknown", "garbage",
                   "http://a.test/1", "http://b.test/2"});
  ASSERT_TRUE(got.ok()) << got.status();
  ASSERT_EQ(got->size(), 5u);
  EXPECT_EQ((*got)[0]->url(), "http://b.test/2");
  EXPECT_FALSE((*got)[1].has_value());
  EXPECT_FALSE((*got)[2].has_value());
  EXPECT_EQ((*got)[3]->link_score(), 1.0);
  EXPECT_EQ((*got)[4]->url(), "http://b.test/2");
  absl::StatusOr<std::vector<std::optional<LinkRecord>>> none = db->GetMany({});
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
}

TEST(LinkDbTest, GetManyWithHostKeysTheCallerHolds) {
  TempDir tmp;
  auto db = OpenOrDie(tmp.db());
  AddQueued(*db, {{"http://a.test/1", 1.0}, {"http://b.test/2", 2.0}});
  const std::vector<std::string> urls = {"http://b.test/2", "garbage",
                                         "http://a.test/1", "http://a.test/9"};
  std::vector<std::string> hosts;
  for (const std::string& u : urls) hosts.push_back(HostKey(u));
  EXPECT_EQ(hosts[1], "");
  absl::StatusOr<std::vector<std::optional<LinkRecord>>> got =
      db->GetMany(urls, hosts);
  ASSERT_TRUE(got.ok()) << got.status();
  ASSERT_EQ(got->size(), 4u);
  EXPECT_EQ((*got)[0]->link_score(), 2.0);
  EXPECT_FALSE((*got)[1].has_value());
  EXPECT_EQ((*got)[2]->link_score(), 1.0);
  EXPECT_FALSE((*got)[3].has_value());
  // An empty host key reads nothing, whatever the URL.
  hosts[2] = "";
  got = db->GetMany(urls, hosts);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_FALSE((*got)[2].has_value());
  hosts.pop_back();
  got = db->GetMany(urls, hosts);
  EXPECT_EQ(got.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(got.status().message(), HasSubstr("4 URLs but 3 host keys"));
}

TEST(LinkDbTest, PagesRoundTrip) {
  TempDir tmp;
  auto db = OpenOrDie(tmp.db());
  proto::StoredPage page;
  page.set_relevance(0.25);
  LinkBatch batch;
  batch.PutPage("http://a.test/p", page);
  ASSERT_TRUE(db->Commit(std::move(batch)).ok());
  absl::StatusOr<std::optional<proto::StoredPage>> got =
      db->GetPage("http://a.test/p");
  ASSERT_TRUE(got.ok() && got->has_value());
  EXPECT_EQ((*got)->relevance(), 0.25);
  got = db->GetPage("http://a.test/q");
  ASSERT_TRUE(got.ok());
  EXPECT_FALSE(got->has_value());
  // A page is not a LinkRecord.
  absl::StatusOr<std::optional<LinkRecord>> r = db->Get("http://a.test/p");
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->has_value());
}

TEST(LinkDbTest, TakeChangedHostsReportsBestScoreChanges) {
  TempDir tmp;
  auto db = OpenOrDie(tmp.db());
  EXPECT_THAT(db->TakeChangedHosts(), ElementsAre());
  AddQueued(*db, {{"http://a.test/1", 1.0},
                  {"http://a.test/2", 2.0},
                  {"http://a.test/3", 3.0},
                  {"http://b.test/1", 1.0},
                  {"http://b.test/2", 1.0}});
  EXPECT_THAT(db->TakeChangedHosts(), UnorderedElementsAre("a.test", "b.test"));
  EXPECT_THAT(db->TakeChangedHosts(), ElementsAre());

  AddQueued(*db, {{"http://a.test/0", 0.5}});  // worse: best unchanged
  EXPECT_THAT(db->TakeChangedHosts(), ElementsAre());
  AddQueued(*db, {{"http://a.test/9", 9.0}});
  EXPECT_THAT(db->TakeChangedHosts(), ElementsAre("a.test"));

  EXPECT_EQ(PopUrl(*db, "b.test"), "http://b.test/1");  // next has 1.0 too
  EXPECT_THAT(db->TakeChangedHosts(), ElementsAre());
  EXPECT_EQ(PopUrl(*db, "b.test"), "http://b.test/2");  // now empty
  EXPECT_THAT(db->TakeChangedHosts(), ElementsAre("b.test"));
  EXPECT_EQ(PopUrl(*db, "a.test"), "http://a.test/9");
  EXPECT_THAT(db->TakeChangedHosts(), ElementsAre("a.test"));
  EXPECT_THAT(db->QueuedHosts(), ElementsAre(Pair("a.test", 3.0)));
}

// ---------------------------------------------------------------------------
// The frontier buffers against a reference model.

struct ModelOrder {
  bool operator()(const std::pair<double, std::string>& a,
                  const std::pair<double, std::string>& b) const {
    if (a.first != b.first) return a.first > b.first;
    return a.second < b.second;
  }
};
using Model = std::multiset<std::pair<double, std::string>, ModelOrder>;

// Random operations on `hosts` (the first one starts with `initial` entries
// inserted in random order); every Pop and Peek must agree with the model.
void RunFrontierModel(size_t frontier_buffer,
                      const std::vector<std::string>& hosts, int initial,
                      int ops, uint32_t seed) {
  TempDir tmp;
  LinkDbOptions options;
  options.frontier_buffer = frontier_buffer;
  std::unique_ptr<LinkDb> db = OpenOrDie(tmp.db(), options);
  ASSERT_NE(db, nullptr);
  std::mt19937 rng(seed);
  std::map<std::string, Model> model;         // host -> queued entries
  std::map<std::string, LinkRecord> records;  // url -> stored record
  std::map<std::string, std::string> flying;  // url -> host
  int next_id = 0;

  std::uniform_real_distribution<double> uniform(-100, 100);
  std::uniform_int_distribution<int> tie(0, 4);
  auto random_score = [&]() -> double {
    // Plenty of ties.
    if (rng() % 3 == 0) return static_cast<double>(tie(rng)) * 0.5;
    return uniform(rng);
  };
  auto new_url = [&](const std::string& host) {
    // Random order of URL bytes, not insertion order.
    return absl::StrCat("http://", host, "/", rng() % 100000, "-", next_id++);
  };
  auto commit_put = [&](const std::string& host, LinkRecord next) {
    auto it = records.find(next.url());
    const LinkRecord* prev = it == records.end() ? nullptr : &it->second;
    if (prev != nullptr && prev->status() == LinkRecord::QUEUED) {
      model[host].erase(model[host].find({prev->link_score(), prev->url()}));
    }
    if (next.status() == LinkRecord::QUEUED) {
      model[host].insert({next.link_score(), next.url()});
    }
    if (next.status() == LinkRecord::IN_FLIGHT) {
      flying[next.url()] = host;
    } else {
      flying.erase(next.url());
    }
    LinkBatch batch;
    batch.Put(next, prev);
    ASSERT_TRUE(db->Commit(std::move(batch)).ok());
    records[next.url()] = next;
  };
  auto check_head = [&](const std::string& host) {
    std::optional<QueuedEntry> head = db->Peek(host);
    const Model& m = model[host];
    if (m.empty()) {
      ASSERT_FALSE(head.has_value()) << host << " " << head->url;
      return;
    }
    ASSERT_TRUE(head.has_value()) << host;
    ASSERT_EQ(head->url, m.begin()->second) << host;
    ASSERT_EQ(head->score, m.begin()->first) << host;
  };
  auto random_queued = [&](const std::string& host) -> const std::string* {
    const Model& m = model[host];
    if (m.empty()) return nullptr;
    auto it = m.begin();
    std::advance(it, rng() % m.size());
    return &it->second;
  };

  {
    std::vector<std::pair<std::string, double>> first;
    for (int i = 0; i < initial; ++i) {
      first.emplace_back(new_url(hosts[0]), random_score());
    }
    std::shuffle(first.begin(), first.end(), rng);
    size_t i = 0;
    while (i < first.size()) {
      // Batches of 1..20.
      const size_t n = std::min<size_t>(1 + rng() % 20, first.size() - i);
      LinkBatch batch;
      for (size_t j = i; j < i + n; ++j) {
        LinkRecord r = Rec(first[j].first, first[j].second);
        batch.Put(r, nullptr);
        records[r.url()] = r;
        model[hosts[0]].insert({r.link_score(), r.url()});
      }
      ASSERT_TRUE(db->Commit(std::move(batch)).ok());
      i += n;
    }
  }

  int pops = 0;
  for (int op = 0; op < ops; ++op) {
    const std::string& host = hosts[rng() % hosts.size()];
    Model& m = model[host];
    const int dice = static_cast<int>(rng() % 100);
    if (dice < 40) {
      // Pop.
      absl::StatusOr<std::optional<LinkRecord>> got = db->Pop(host);
      ASSERT_TRUE(got.ok()) << got.status();
      if (m.empty()) {
        ASSERT_FALSE(got->has_value()) << "op " << op;
        continue;
      }
      ASSERT_TRUE(got->has_value()) << "op " << op;
      ASSERT_EQ((*got)->url(), m.begin()->second) << "op " << op;
      ASSERT_EQ((*got)->link_score(), m.begin()->first);
      ASSERT_EQ((*got)->status(), LinkRecord::IN_FLIGHT);
      ASSERT_EQ((*got)->attempts(), records[(*got)->url()].attempts() + 1);
      m.erase(m.begin());
      records[(*got)->url()] = **got;
      flying[(*got)->url()] = host;
      ++pops;
    } else if (dice < 65) {
      // A new link: above the best, below the worst (under the watermark)
      // or anywhere.
      double score = random_score();
      if (!m.empty()) {
        const int where = static_cast<int>(rng() % 3);
        if (where == 0) score = m.begin()->first + 1 + rng() % 10;
        if (where == 1) score = m.rbegin()->first - 1 - rng() % 10;
      }
      commit_put(host, Rec(new_url(host), score));
    } else if (dice < 77) {
      // Rescore a queued link (sometimes to the same score).
      const std::string* url = random_queued(host);
      if (url == nullptr) continue;
      LinkRecord next = records[*url];
      if (rng() % 5 != 0) next.set_link_score(random_score());
      commit_put(host, next);
    } else if (dice < 85) {
      // Finish a queued (SKIPPED) or an in-flight (DONE) link.
      if (rng() % 2 == 0) {
        const std::string* url = random_queued(host);
        if (url == nullptr) continue;
        LinkRecord next = records[*url];
        next.set_status(LinkRecord::SKIPPED);
        commit_put(host, next);
      } else {
        if (flying.empty()) continue;
        auto it = flying.begin();
        std::advance(it, rng() % flying.size());
        LinkRecord next = records[it->first];
        const std::string h = it->second;
        next.set_status(rng() % 2 ? LinkRecord::DONE : LinkRecord::ERROR);
        commit_put(h, next);
      }
    } else if (dice < 90) {
      // Requeue an in-flight link (a 503).
      if (flying.empty()) continue;
      auto it = flying.begin();
      std::advance(it, rng() % flying.size());
      LinkRecord next = records[it->first];
      const std::string h = it->second;
      next.set_status(LinkRecord::QUEUED);
      next.set_link_score(random_score());
      commit_put(h, next);
    } else if (dice < 99) {
      check_head(host);
    } else if (op % 7 == 0) {
      // Restart: in-flight links are queued again with their score.
      db.reset();
      db = OpenOrDie(tmp.db(), options);
      ASSERT_NE(db, nullptr);
      for (const auto& [url, h] : flying) {
        LinkRecord& r = records[url];
        r.set_status(LinkRecord::QUEUED);
        model[h].insert({r.link_score(), url});
      }
      flying.clear();
    }
    if (::testing::Test::HasFatalFailure()) return;
    LinkDbStats stats = db->stats();
    int64_t queued = 0, with_queue = 0;
    for (const auto& [h, hm] : model) {
      queued += hm.size();
      with_queue += hm.empty() ? 0 : 1;
    }
    ASSERT_EQ(stats.queued, queued) << "op " << op;
    ASSERT_EQ(stats.hosts_with_queue, with_queue) << "op " << op;
    ASSERT_EQ(stats.in_flight, static_cast<int64_t>(flying.size()));
    ASSERT_EQ(stats.known_urls, static_cast<int64_t>(records.size()));
  }
  EXPECT_GT(pops, ops / 5);

  // QueuedHosts agrees, then everything drains in model order.
  std::vector<std::pair<std::string, double>> expected;
  for (const auto& [h, hm] : model) {
    if (!hm.empty()) expected.emplace_back(h, hm.begin()->first);
  }
  std::vector<std::pair<std::string, double>> queued_hosts = db->QueuedHosts();
  std::sort(queued_hosts.begin(), queued_hosts.end());
  EXPECT_EQ(queued_hosts, expected);
  for (const std::string& host : hosts) {
    Model& m = model[host];
    while (!m.empty()) {
      ASSERT_EQ(PopUrl(*db, host), m.begin()->second);
      m.erase(m.begin());
    }
    EXPECT_EQ(PopUrl(*db, host), "");
  }
  EXPECT_EQ(db->stats().queued, 0);
}

// The key test: one host, a buffer of 2, 1000 entries in random order.
TEST(LinkDbFrontierTest, BufferOfTwoMatchesModel) {
  RunFrontierModel(/*frontier_buffer=*/2, {"p.test"}, /*initial=*/1000,
                   /*ops=*/6000, /*seed=*/1234);
}

TEST(LinkDbFrontierTest, BufferOfOneThreeLookalikeHosts) {
  RunFrontierModel(1, {"p.test", "p.test.evil", "p.test:8080"}, 300, 5000, 77);
}

TEST(LinkDbFrontierTest, DefaultBuffer) {
  RunFrontierModel(32, {"p.test", "q.test"}, 1000, 4000, 99);
}

// ---------------------------------------------------------------------------
// Reopening, crashes, errors.

TEST(LinkDbReopenTest, EverythingIsBackAndInFlightIsQueuedAgain) {
  TempDir tmp;
  {
    auto db = OpenOrDie(tmp.db());
    LinkRecord seed = Rec("http://a.test/", std::numeric_limits<double>::max());
    seed.set_title("seed");
    LinkBatch batch;
    batch.Put(seed, nullptr);
    batch.Put(Rec("http://a.test/2", 2.0), nullptr);
    batch.Put(Rec("http://b.test/1", 1.5), nullptr);
    batch.Put(Rec("http://c.test/1", 0, LinkRecord::DONE), nullptr);
    proto::HostRecord host;
    host.set_host("a.test");
    host.set_pages_fetched(7);
    batch.PutHost(host);
    proto::StoredPage page;
    page.set_relevance(0.5);
    batch.PutPage("http://c.test/1", page);
    batch.PutGlobal("crawl_id", "c-1");
    ASSERT_TRUE(db->Commit(std::move(batch)).ok());
    EXPECT_EQ(PopUrl(*db, "a.test"), "http://a.test/");
    EXPECT_EQ(db->stats().in_flight, 1);
  }
  EXPECT_THAT(TaggedKeys(RawKeys(tmp.db()), "a.test", 'F'),
              ElementsAre("http://a.test/"));
  {
    // A read-only open sees the state as it is and changes nothing.
    LinkDbOptions ro;
    ro.read_only = true;
    ro.create_if_missing = false;
    absl::StatusOr<std::unique_ptr<LinkDb>> db = LinkDb::Open(tmp.db(), ro);
    ASSERT_TRUE(db.ok()) << db.status();
    absl::StatusOr<std::optional<LinkRecord>> seed =
        (*db)->Get("http://a.test/");
    ASSERT_TRUE(seed.ok() && seed->has_value());
    EXPECT_EQ((*seed)->status(), LinkRecord::IN_FLIGHT);
    LinkBatch batch;
    batch.PutGlobal("x", "y");
    EXPECT_FALSE((*db)->Commit(std::move(batch)).ok());
  }
  EXPECT_THAT(TaggedKeys(RawKeys(tmp.db()), "a.test", 'F'),
              ElementsAre("http://a.test/"));
  {
    auto db = OpenOrDie(tmp.db());
    LinkDbStats s = db->stats();
    EXPECT_EQ(s.known_urls, 4);
    EXPECT_EQ(s.queued, 3);
    EXPECT_EQ(s.in_flight, 0);
    EXPECT_EQ(s.hosts_with_queue, 2);
    EXPECT_THAT(db->TakeChangedHosts(),
                UnorderedElementsAre("a.test", "b.test"));
    EXPECT_THAT(
        db->QueuedHosts(),
        UnorderedElementsAre(Pair("a.test", std::numeric_limits<double>::max()),
                             Pair("b.test", 1.5)));
    LinkRecord seed = GetOrDie(*db, "http://a.test/");
    EXPECT_EQ(seed.status(), LinkRecord::QUEUED);
    EXPECT_EQ(seed.attempts(), 1);
    EXPECT_EQ(seed.title(), "seed");
    EXPECT_EQ(GetOrDie(*db, "http://c.test/1").status(), LinkRecord::DONE);
    absl::StatusOr<std::optional<proto::HostRecord>> host =
        db->GetHost("a.test");
    ASSERT_TRUE(host.ok() && host->has_value());
    EXPECT_EQ((*host)->pages_fetched(), 7);
    absl::StatusOr<std::optional<proto::StoredPage>> page =
        db->GetPage("http://c.test/1");
    ASSERT_TRUE(page.ok() && page->has_value());
    EXPECT_EQ((*page)->relevance(), 0.5);
    absl::StatusOr<std::optional<std::string>> g = db->GetGlobal("crawl_id");
    ASSERT_TRUE(g.ok() && g->has_value());
    EXPECT_EQ(**g, "c-1");

    absl::StatusOr<std::optional<LinkRecord>> again = db->Pop("a.test");
    ASSERT_TRUE(again.ok() && again->has_value());
    EXPECT_EQ((*again)->url(), "http://a.test/");
    EXPECT_EQ((*again)->attempts(), 2);
    EXPECT_EQ(PopUrl(*db, "a.test"), "http://a.test/2");
    EXPECT_EQ(PopUrl(*db, "a.test"), "");
    EXPECT_EQ(PopUrl(*db, "b.test"), "http://b.test/1");
  }
  {
    // Both popped again, so two markers; a clean reopen clears them all.
    auto db = OpenOrDie(tmp.db());
    EXPECT_EQ(db->stats().queued, 3);
  }
  const std::vector<std::string> keys = RawKeys(tmp.db());
  for (const char* h : {"a.test", "b.test", "c.test"}) {
    EXPECT_THAT(TaggedKeys(keys, h, 'F'), ElementsAre()) << h;
  }
}

TEST(LinkDbCrashTest, SigkillLosesNothingCommitted) {
  TempDir tmp;
  const std::string dir = tmp.db();
  constexpr int kBatches = 200;
  constexpr int kLinksPerBatch = 10;
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  fflush(nullptr);
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    // Child: commit, report, wait to be killed. No Flush, no destructor.
    close(fds[0]);
    absl::StatusOr<std::unique_ptr<LinkDb>> db = LinkDb::Open(dir);
    if (!db.ok()) _exit(2);
    for (int b = 0; b < kBatches; ++b) {
      LinkBatch batch;
      for (int i = 0; i < kLinksPerBatch; ++i) {
        batch.Put(Rec(absl::StrCat("http://h", b % 7, ".test/", b, "/", i),
                      b + i * 0.01),
                  nullptr);
      }
      batch.PutGlobal("last_batch", absl::StrCat(b));
      if (!(*db)->Commit(std::move(batch)).ok()) _exit(3);
    }
    absl::StatusOr<std::optional<LinkRecord>> popped = (*db)->Pop("h0.test");
    if (!popped.ok() || !popped->has_value()) _exit(4);
    const char line[] = "committed\n";
    if (write(fds[1], line, sizeof(line) - 1) < 0) _exit(5);
    for (;;) pause();
  }
  close(fds[1]);
  std::string line;
  char c;
  while (read(fds[0], &c, 1) == 1 && c != '\n') line.push_back(c);
  close(fds[0]);
  kill(pid, SIGKILL);
  int wstatus = 0;
  ASSERT_EQ(waitpid(pid, &wstatus, 0), pid);
  ASSERT_EQ(line, "committed")
      << "child exit " << (WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1);
  ASSERT_TRUE(WIFSIGNALED(wstatus));
  EXPECT_EQ(WTERMSIG(wstatus), SIGKILL);

  auto db = OpenOrDie(dir);
  ASSERT_NE(db, nullptr);
  LinkDbStats s = db->stats();
  EXPECT_EQ(s.known_urls, kBatches * kLinksPerBatch);
  EXPECT_EQ(s.queued, kBatches * kLinksPerBatch);  // the popped one is back
  EXPECT_EQ(s.in_flight, 0);
  EXPECT_EQ(s.hosts_with_queue, 7);
  std::vector<std::string> urls;
  for (int b = 0; b < kBatches; ++b) {
    for (int i = 0; i < kLinksPerBatch; ++i) {
      urls.push_back(absl::StrCat("http://h", b % 7, ".test/", b, "/", i));
    }
  }
  absl::StatusOr<std::vector<std::optional<LinkRecord>>> got =
      db->GetMany(urls);
  ASSERT_TRUE(got.ok()) << got.status();
  for (size_t i = 0; i < urls.size(); ++i) {
    ASSERT_TRUE((*got)[i].has_value()) << urls[i];
    EXPECT_EQ((*got)[i]->status(), LinkRecord::QUEUED) << urls[i];
  }
  absl::StatusOr<std::optional<std::string>> last = db->GetGlobal("last_batch");
  ASSERT_TRUE(last.ok() && last->has_value());
  EXPECT_EQ(**last, absl::StrCat(kBatches - 1));
  // The best of h0.test (batch 196, popped in the child) is queued again.
  absl::StatusOr<std::optional<LinkRecord>> top = db->Pop("h0.test");
  ASSERT_TRUE(top.ok() && top->has_value());
  EXPECT_EQ((*top)->url(), "http://h0.test/196/9");
  EXPECT_EQ((*top)->attempts(), 2);
}

TEST(LinkDbOpenTest, SecondOpenOfTheSameFolderFails) {
  TempDir tmp;
  auto db = OpenOrDie(tmp.db());
  absl::StatusOr<std::unique_ptr<LinkDb>> second = LinkDb::Open(tmp.db());
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), absl::StatusCode::kFailedPrecondition)
      << second.status();
  EXPECT_THAT(second.status().message(), HasSubstr(tmp.db()));
  // The first one is unaffected.
  AddQueued(*db, {{"http://a.test/", 1.0}});
  EXPECT_EQ(db->stats().queued, 1);
}

TEST(LinkDbOpenTest, PathThatIsNotAFolder) {
  TempDir tmp;
  const std::string file = tmp.path() + "/plain_file";
  std::ofstream(file) << "not a database";
  absl::StatusOr<std::unique_ptr<LinkDb>> db = LinkDb::Open(file);
  ASSERT_FALSE(db.ok());
  EXPECT_EQ(db.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(db.status().message(), HasSubstr(file));
  EXPECT_THAT(db.status().message(), HasSubstr("not a directory"));

  db = LinkDb::Open(file + "/sub");
  ASSERT_FALSE(db.ok());
  EXPECT_EQ(db.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(db.status().message(), HasSubstr("not a directory"));

  LinkDbOptions no_create;
  no_create.create_if_missing = false;
  db = LinkDb::Open(tmp.path() + "/missing", no_create);
  ASSERT_FALSE(db.ok());
  EXPECT_EQ(db.status().code(), absl::StatusCode::kNotFound);
  // An existing empty folder without a database.
  std::filesystem::create_directory(tmp.path() + "/empty");
  db = LinkDb::Open(tmp.path() + "/empty", no_create);
  ASSERT_FALSE(db.ok());
  EXPECT_EQ(db.status().code(), absl::StatusCode::kNotFound) << db.status();

  // Nested folders are created.
  db = LinkDb::Open(tmp.path() + "/x/y/z");
  EXPECT_TRUE(db.ok()) << db.status();
}

TEST(LinkDbOpenTest, CorruptRecordIsDataLoss) {
  TempDir tmp;
  {
    auto db = OpenOrDie(tmp.db());
    AddQueued(*db, {{"http://a.test/good", 1.0}, {"http://a.test/bad", 2.0}});
  }
  {
    rocksdb::DB* raw = nullptr;
    ASSERT_TRUE(rocksdb::DB::Open(rocksdb::Options(), tmp.db(), &raw).ok());
    std::unique_ptr<rocksdb::DB> db(raw);
    ASSERT_TRUE(db->Put(rocksdb::WriteOptions(),
                        Key("a.test", 'U', "http://a.test/bad"),
                        std::string("\xff\xff\xff\xff", 4))
                    .ok());
  }
  auto db = OpenOrDie(tmp.db());
  ASSERT_NE(db, nullptr);
  absl::StatusOr<std::optional<LinkRecord>> bad = db->Get("http://a.test/bad");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(bad.status().message(), HasSubstr("http://a.test/bad"));
  EXPECT_THAT(bad.status().message(), HasSubstr("Ha.test"));
  EXPECT_EQ(GetOrDie(*db, "http://a.test/good").link_score(), 1.0);

  absl::StatusOr<std::vector<std::optional<LinkRecord>>> many =
      db->GetMany({"http://a.test/good", "http://a.test/bad"});
  EXPECT_EQ(many.status().code(), absl::StatusCode::kDataLoss);
  absl::Status each =
      db->ForEachRecord("", [](const LinkRecord&) { return true; });
  EXPECT_EQ(each.code(), absl::StatusCode::kDataLoss);
  // The corrupt record is the queue head: Pop reports it, no crash.
  absl::StatusOr<std::optional<LinkRecord>> popped = db->Pop("a.test");
  EXPECT_EQ(popped.status().code(), absl::StatusCode::kDataLoss);
}

TEST(LinkDbTest, ConcurrentWritersAndPoppers) {
  TempDir tmp;
  auto db = OpenOrDie(tmp.db(), [] {
    LinkDbOptions o;
    o.frontier_buffer = 4;
    return o;
  }());
  constexpr int kPerWriter = 400;
  std::atomic<bool> done{false};
  std::atomic<int> popped{0};
  std::vector<std::thread> threads;
  for (int w = 0; w < 2; ++w) {
    threads.emplace_back([&, w] {
      for (int i = 0; i < kPerWriter; i += 4) {
        LinkBatch batch;
        for (int j = i; j < i + 4; ++j) {
          batch.Put(Rec(absl::StrCat("http://w", w, "-", j % 3, ".test/", j),
                        (j * 37) % 101),
                    nullptr);
        }
        EXPECT_TRUE(db->Commit(std::move(batch)).ok());
      }
    });
  }
  for (int p = 0; p < 2; ++p) {
    threads.emplace_back([&, p] {
      while (!done.load()) {
        for (const auto& [host, score] : db->QueuedHosts()) {
          if ((host[1] - '0') % 2 != p) continue;
          absl::StatusOr<std::optional<LinkRecord>> r = db->Pop(host);
          EXPECT_TRUE(r.ok());
          if (r.ok() && r->has_value()) ++popped;
        }
        db->stats();
        db->TakeChangedHosts();
      }
    });
  }
  threads[0].join();
  threads[1].join();
  done = true;
  threads[2].join();
  threads[3].join();
  LinkDbStats s = db->stats();
  EXPECT_EQ(s.known_urls, 2 * kPerWriter);
  EXPECT_EQ(s.in_flight, popped.load());
  EXPECT_EQ(s.queued + s.in_flight, 2 * kPerWriter);
}

// ---------------------------------------------------------------------------
// Micro-figures (printed, not asserted).

// Thread CPU time, so that other processes on a loaded machine do not
// count; background flushes and compactions do not either.
struct CpuClock {
  using duration = std::chrono::nanoseconds;
  using time_point = std::chrono::time_point<CpuClock, duration>;
  static time_point now() {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return time_point(duration(int64_t{ts.tv_sec} * 1000000000 + ts.tv_nsec));
  }
};

TEST(LinkDbBench, MicroFigures) {
  TempDir tmp;
  auto db = OpenOrDie(tmp.db());
  ASSERT_NE(db, nullptr);
  using Clock = CpuClock;
  auto micros = [](Clock::duration d) {
    return std::chrono::duration<double, std::micro>(d).count();
  };
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> score(0, 1);
  constexpr int kHosts = 50;
  auto url = [](int host, int i) {
    return absl::StrCat("http://www.host", host, ".test/section/", i % 97,
                        "/page-", i, ".html?ref=", i % 13);
  };

  // Commit: one page's worth (50 new links, the page's record, the page).
  constexpr int kCommits = 400;
  Clock::duration commit_time{};
  int n = 0;
  for (int c = 0; c < kCommits; ++c) {
    LinkBatch batch;
    for (int i = 0; i < 50; ++i, ++n) {
      LinkRecord r = Rec(url(n % kHosts, n), score(rng));
      r.set_anchor_text("an anchor text of a few words");
      r.set_parent_url(url(c % kHosts, c));
      r.set_depth(3);
      batch.Put(r, nullptr);
    }
    proto::StoredPage page;
    page.set_relevance(0.5);
    batch.PutPage(url(c % kHosts, c), page);
    const Clock::time_point t0 = Clock::now();
    ASSERT_TRUE(db->Commit(std::move(batch)).ok());
    commit_time += Clock::now() - t0;
  }
  std::vector<std::string> unknown, known;
  for (int i = 0; i < 1000; ++i) {
    unknown.push_back(url(i % kHosts, 10000000 + i));
    const int k = (i * 19) % n;
    known.push_back(url(k % kHosts, k));
  }
  auto time_get_many = [&](const std::vector<std::string>& urls) {
    constexpr int kRounds = 20;
    const Clock::time_point t0 = Clock::now();
    for (int r = 0; r < kRounds; ++r) {
      absl::StatusOr<std::vector<std::optional<LinkRecord>>> got =
          db->GetMany(urls);
      EXPECT_TRUE(got.ok());
    }
    return micros(Clock::now() - t0) / kRounds;
  };
  const double mem_unknown = time_get_many(unknown);
  const double mem_known = time_get_many(known);
  ASSERT_TRUE(db->Flush().ok());
  const double sst_unknown = time_get_many(unknown);
  const double sst_known = time_get_many(known);

  Clock::time_point t0 = Clock::now();
  for (const std::string& u : unknown) HostKey(u);
  const double host_key = micros(Clock::now() - t0) / unknown.size();

  constexpr int kPops = 2000;
  t0 = Clock::now();
  int pops = 0;
  for (int i = 0; i < kPops; ++i) {
    absl::StatusOr<std::optional<LinkRecord>> r =
        db->Pop(absl::StrCat("www.host", i % kHosts, ".test"));
    ASSERT_TRUE(r.ok());
    pops += r->has_value();
  }
  const double pop = micros(Clock::now() - t0) / kPops;
  t0 = Clock::now();
  for (int i = 0; i < 1000; ++i) db->QueuedHosts();
  const double queued_hosts = micros(Clock::now() - t0) / 1000;

  std::printf(
      "[bench] thread CPU time; %d URLs, %d hosts, frontier_buffer 32\n"
      "[bench] Commit (50 new links + page): %.1f us\n"
      "[bench] GetMany 1000 unknown: %.0f us (memtable), %.0f us (SST)\n"
      "[bench] GetMany 1000 known:   %.0f us (memtable), %.0f us (SST)\n"
      "[bench] HostKey: %.2f us\n"
      "[bench] Pop: %.1f us (%d popped)\n"
      "[bench] QueuedHosts (%d hosts): %.1f us\n",
      n, kHosts, micros(commit_time) / kCommits, mem_unknown, sst_unknown,
      mem_known, sst_known, host_key, pop, pops, kHosts, queued_hosts);
  EXPECT_EQ(pops, kPops);
}

// Site states live in each host's own range, next to its records, and are
// listed per host, survive a reopen, and are refused by a read-only open.
TEST(LinkDbTest, SiteStatesArePerHostListedAndPersistent) {
  TempDir tmp;
  {
    auto db = OpenOrDie(tmp.db());
    ASSERT_NE(db, nullptr);
    LinkBatch batch;
    batch.Put(Rec("http://a.test/1", 0.5), nullptr);
    batch.Put(Rec("http://c.test/1", 0.5), nullptr);
    ASSERT_TRUE(db->Commit(std::move(batch)).ok());
    ASSERT_TRUE(db->PutSiteState("c.test", "gamma").ok());
    ASSERT_TRUE(db->PutSiteState("a.test", std::string("al\0pha", 6)).ok());
    ASSERT_TRUE(db->PutSiteState("b.test:8080", "beta").ok());
    ASSERT_TRUE(db->PutSiteState("a.test", "alpha2").ok());  // replaces
    EXPECT_EQ(db->PutSiteState("", "x").code(),
              absl::StatusCode::kInvalidArgument);
    absl::StatusOr<std::optional<std::string>> none =
        db->GetSiteState("d.test");
    ASSERT_TRUE(none.ok());
    EXPECT_FALSE(none->has_value());
    // The site state is not a LinkRecord: record scans do not see it.
    int records = 0;
    ASSERT_TRUE(db->ForEachRecord("a.test", [&](const LinkRecord&) {
                    ++records;
                    return true;
                  }).ok());
    EXPECT_EQ(records, 1);
  }
  absl::StatusOr<std::unique_ptr<LinkDb>> opened =
      LinkDb::OpenReadOnly(tmp.db());
  ASSERT_TRUE(opened.ok()) << opened.status();
  std::unique_ptr<LinkDb> db = *std::move(opened);
  std::vector<std::pair<std::string, std::string>> all;
  ASSERT_TRUE(db->ForEachSiteState([&](absl::string_view host,
                                       absl::string_view bytes) {
                  all.emplace_back(std::string(host), std::string(bytes));
                  return true;
                }).ok());
  EXPECT_THAT(all,
              ElementsAre(Pair("a.test", "alpha2"), Pair("b.test:8080", "beta"),
                          Pair("c.test", "gamma")));
  absl::StatusOr<std::optional<std::string>> b =
      db->GetSiteState("b.test:8080");
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->value_or(""), "beta");
  EXPECT_EQ(db->PutSiteState("a.test", "x").code(),
            absl::StatusCode::kFailedPrecondition);
  // Early stop.
  int seen = 0;
  ASSERT_TRUE(db->ForEachSiteState([&](absl::string_view, absl::string_view) {
                  ++seen;
                  return false;
                }).ok());
  EXPECT_EQ(seen, 1);
}

}  // namespace
}  // namespace fcrawl::storage

namespace fcrawl::storage {
namespace {

TEST(LinkDbHandoffTest, ListHostsAndDropHostKeepsPagesAndOtherHosts) {
  TempDir tmp;
  {
    auto db = OpenOrDie(tmp.db());
    ASSERT_NE(db, nullptr);
    AddQueued(*db, {{"http://a.test/1", 0.5},
                    {"http://a.test/2", 0.25},
                    {"http://b.test/1", 0.75}});
    EXPECT_EQ(PopUrl(*db, "a.test"), "http://a.test/1");  // in flight
    LinkBatch batch;
    proto::HostRecord h;
    h.set_host("a.test");
    h.set_pages_fetched(3);
    batch.PutHost(h);
    batch.PutPage("http://a.test/0", proto::StoredPage());
    ASSERT_TRUE(db->Commit(std::move(batch)).ok());
    ASSERT_TRUE(db->PutSiteState("a.test", "patterns").ok());
    db->TakeChangedHosts();

    absl::StatusOr<std::vector<std::string>> hosts = db->ListHosts();
    ASSERT_TRUE(hosts.ok()) << hosts.status();
    EXPECT_THAT(*hosts, ElementsAre("a.test", "b.test"));
    EXPECT_EQ(db->stats().known_urls, 3);
    EXPECT_EQ(db->stats().queued, 2);
    EXPECT_EQ(db->stats().in_flight, 1);

    ASSERT_TRUE(db->DropHost("a.test").ok());
    EXPECT_EQ(db->stats().known_urls, 1);
    EXPECT_EQ(db->stats().queued, 1);
    EXPECT_EQ(db->stats().in_flight, 0);
    EXPECT_FALSE(db->Peek("a.test").has_value());
    EXPECT_THAT(db->TakeChangedHosts(), ElementsAre("a.test"));
    absl::StatusOr<std::optional<LinkRecord>> gone = db->Get("http://a.test/2");
    ASSERT_TRUE(gone.ok());
    EXPECT_FALSE(gone->has_value());
    absl::StatusOr<std::optional<std::string>> state =
        db->GetSiteState("a.test");
    ASSERT_TRUE(state.ok());
    EXPECT_FALSE(state->has_value());
    // b.test is untouched; a.test keeps only its stored page.
    EXPECT_EQ(PopUrl(*db, "b.test"), "http://b.test/1");
    absl::StatusOr<std::optional<proto::StoredPage>> page =
        db->GetPage("http://a.test/0");
    ASSERT_TRUE(page.ok());
    EXPECT_TRUE(page->has_value());
    // The host handed back: its URLs written again into the memtable that
    // holds the range deletions (the insert hints of rocks_options.cc
    // must not mix the two), queued and popped in order, then dropped again.
    AddQueued(*db, {{"http://a.test/3", 0.5}, {"http://a.test/4", 0.25}});
    EXPECT_EQ(PopUrl(*db, "a.test"), "http://a.test/3");
    EXPECT_EQ(PopUrl(*db, "a.test"), "http://a.test/4");
    ASSERT_TRUE(db->DropHost("a.test").ok());
    EXPECT_FALSE(db->Peek("a.test").has_value());
  }
  // Nothing of the dropped host comes back on reopen (no in-flight URL is
  // queued again), and the record count persisted.
  auto db = OpenOrDie(tmp.db());
  ASSERT_NE(db, nullptr);
  EXPECT_EQ(db->stats().known_urls, 1);
  EXPECT_FALSE(db->Peek("a.test").has_value());
  const std::vector<std::string> keys = RawKeys(tmp.db());
  EXPECT_TRUE(TaggedKeys(keys, "a.test", 'U').empty());
  EXPECT_TRUE(TaggedKeys(keys, "a.test", 'M').empty());
  EXPECT_THAT(TaggedKeys(keys, "a.test", 'P'), ElementsAre("http://a.test/0"));
}

}  // namespace
}  // namespace fcrawl::storage

namespace fcrawl::storage {
namespace {

// QueuedAbove follows the frontier index through commits, pops, re-scores,
// a hand-over (DropHost) and a reopen (entries reloaded, IN_FLIGHT URLs
// queued again), with a buffer smaller than a host's queue.
TEST(LinkDbQueuedAboveTest, FollowsTheIndex) {
  TempDir dir;
  LinkDbOptions options;
  options.frontier_buffer = 2;
  {
    std::unique_ptr<LinkDb> db = OpenOrDie(dir.db(), options);
    ASSERT_NE(db, nullptr);
    LinkBatch batch;
    for (int i = 0; i < 5; ++i) {
      batch.Put(Rec(absl::StrCat("http://a.test/", i), 0.9 - 0.1 * i), nullptr);
    }
    batch.Put(Rec("http://b.test/x", 0.85), nullptr);
    batch.Put(Rec("http://b.test/y", 0.1), nullptr);
    ASSERT_TRUE(db->Commit(std::move(batch)).ok());
    // Scores: a 0.9 0.8 0.7 0.6 0.5, b 0.85 0.1.
    EXPECT_EQ(db->QueuedAbove(1.0), 0);
    EXPECT_EQ(db->QueuedAbove(0.75), 3);
    EXPECT_EQ(db->QueuedAbove(0.1), 6);
    EXPECT_EQ(db->QueuedAbove(0.0), 7);
    // The best queued score, rounded down to its bucket (about 1/256).
    ASSERT_TRUE(db->BestQueuedScore().has_value());
    EXPECT_LE(*db->BestQueuedScore(), 0.9);
    EXPECT_GT(*db->BestQueuedScore(), 0.9 * (1 - 1.0 / 256));
    // The best buckets with their counts, until 3 URLs: 0.9, 0.85, 0.8.
    const std::vector<std::pair<double, int64_t>> top = db->TopQueued(3, 10);
    ASSERT_EQ(top.size(), 3u);
    EXPECT_GT(top[0].first, 0.9 * (1 - 1.0 / 256));
    EXPECT_LE(top[0].first, 0.9);
    EXPECT_LE(top[1].first, 0.85);
    EXPECT_GT(top[2].first, 0.8 * (1 - 1.0 / 256));
    for (const auto& [score, n] : top) EXPECT_EQ(n, 1);
    EXPECT_EQ(db->TopQueued(100, 10).size(), 7u);
    EXPECT_EQ(db->TopQueued(100, 4).size(), 4u);

    // Pop a.test's best (0.9): it is in flight, not queued.
    absl::StatusOr<std::optional<LinkRecord>> popped = db->Pop("a.test");
    ASSERT_TRUE(popped.ok() && popped->has_value());
    EXPECT_EQ(db->QueuedAbove(0.75), 2);

    // Re-score b.test/y from 0.1 to 0.95.
    LinkBatch rescore;
    const LinkRecord old_y = Rec("http://b.test/y", 0.1);
    rescore.Put(Rec("http://b.test/y", 0.95), &old_y);
    ASSERT_TRUE(db->Commit(std::move(rescore)).ok());
    EXPECT_EQ(db->QueuedAbove(0.9), 1);
    EXPECT_EQ(db->QueuedAbove(0.0), 6);
    EXPECT_GT(*db->BestQueuedScore(), 0.9);  // b.test/y, 0.95

    // Hand b.test over: its two entries go.
    ASSERT_TRUE(db->DropHost("b.test").ok());
    EXPECT_EQ(db->QueuedAbove(0.0), 4);
    EXPECT_EQ(db->QueuedAbove(0.65), 2);
  }
  // Reopened: the in-flight 0.9 is queued again beside 0.8 0.7 0.6 0.5.
  std::unique_ptr<LinkDb> db = OpenOrDie(dir.db(), options);
  ASSERT_NE(db, nullptr);
  EXPECT_EQ(db->QueuedAbove(0.0), 5);
  EXPECT_EQ(db->QueuedAbove(0.75), 2);
  // Drain a.test by pops (refills from RocksDB below the buffer of 2).
  for (int i = 0; i < 5; ++i) {
    absl::StatusOr<std::optional<LinkRecord>> popped = db->Pop("a.test");
    ASSERT_TRUE(popped.ok() && popped->has_value());
  }
  EXPECT_EQ(db->QueuedAbove(0.0), 0);
  EXPECT_FALSE(db->BestQueuedScore().has_value());
  EXPECT_TRUE(db->TopQueued(10, 10).empty());
}

}  // namespace
}  // namespace fcrawl::storage
