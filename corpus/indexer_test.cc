#include "corpus/indexer.h"

#include <string>
#include <thread>
#include <vector>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "core/test_temp_dir.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace fcrawl::corpus {
namespace {

proto::CorpusRecord Page(int i) {
  proto::CorpusRecord r;
  r.set_url("http://a.test/" + std::to_string(i));
  r.set_title("Page " + std::to_string(i));
  r.set_main_text(i % 2 == 0 ? "an even page about eclipses"
                             : "an odd page about gardens");
  return r;
}

TEST(BackgroundIndexerTest, EveryRecordAddedIsSearchableAfterCommit) {
  file::TestTempDir dir;
  const std::string folder = dir.path() + "/search";
  auto indexer = BackgroundIndexer::Start(folder, {}, /*max_queue=*/4);
  ASSERT_TRUE(indexer.ok()) << indexer.status();
  // Two threads adding through a queue of 4: Add waits, nothing is lost.
  std::vector<std::thread> threads;
  for (int t = 0; t < 2; ++t) {
    threads.emplace_back([&, t] {
      for (int i = t; i < 200; i += 2) (*indexer)->Add(Page(i));
    });
  }
  for (std::thread& th : threads) th.join();
  ASSERT_TRUE((*indexer)->Commit().ok());
  EXPECT_EQ((*indexer)->indexed(), 200);
  EXPECT_GE((*indexer)->cpu_seconds(), 0);
  auto reader = SearchIndex::OpenForReading(folder);
  ASSERT_TRUE(reader.ok());
  EXPECT_EQ((*reader)->documents(), 200);
  SearchOptions o;
  o.limit = 1000;
  auto r = (*reader)->Search("eclipses", o);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->hits.size(), 100u);
  // A second writer is refused while this one holds the index.
  EXPECT_EQ(BackgroundIndexer::Start(folder).status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE((*indexer)->Close().ok());
  (*indexer)->Add(Page(500));  // ignored after Close
  EXPECT_TRUE((*indexer)->Close().ok());
  EXPECT_TRUE(BackgroundIndexer::Start(folder).ok());
}

TEST(BackgroundIndexerTest, AFewRecordsAreIndexedWithoutACommit) {
  // The thread wakes for a batch of records or after a while: one record
  // alone does not wait for a commit or for more pages to come.
  file::TestTempDir dir;
  auto indexer = BackgroundIndexer::Start(dir.path() + "/search");
  ASSERT_TRUE(indexer.ok());
  (*indexer)->Add(Page(1));
  const absl::Time deadline = absl::Now() + absl::Seconds(60);
  while ((*indexer)->indexed() < 1 && absl::Now() < deadline) {
    absl::SleepFor(absl::Milliseconds(20));
  }
  EXPECT_EQ((*indexer)->indexed(), 1);
}

TEST(BackgroundIndexerTest, ErrorsAreKeptForCommit) {
  file::TestTempDir dir;
  auto indexer = BackgroundIndexer::Start(dir.path() + "/search");
  ASSERT_TRUE(indexer.ok());
  (*indexer)->Add(proto::CorpusRecord());  // no url: refused
  (*indexer)->Add(Page(1));
  absl::Status s = (*indexer)->Commit();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ((*indexer)->indexed(), 2);
  EXPECT_TRUE((*indexer)->Commit().ok());  // reported once
}

}  // namespace
}  // namespace fcrawl::corpus
