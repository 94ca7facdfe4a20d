#include "cluster/outcomes.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace fcrawl::cluster {
namespace {

TEST(OutcomeClassesTest, EveryClassInOrderWithoutTheHosts) {
  proto::FetchOutcomeCounts c;
  c.set_on_topic(5);
  c.set_off_topic(7);
  c.set_not_found(2);
  c.set_robots(1);
  c.set_on_topic_hosts(3);
  const std::vector<std::pair<std::string, int64_t>> want = {
      {"on_topic", 5},   {"off_topic", 7},       {"not_found", 2},
      {"http_error", 0}, {"transport_error", 0}, {"robots", 1},
      {"not_html", 0},   {"redirected", 0}};
  EXPECT_EQ(OutcomeClasses(c), want);
}

proto::FolderOutcome Folder(std::string folder, int64_t fetches, int64_t pages,
                            double p, std::string worker = "") {
  proto::FolderOutcome f;
  f.set_folder(std::move(folder));
  f.set_fetches(fetches);
  f.set_pages(pages);
  f.set_page_probability(p);
  f.set_worker(std::move(worker));
  return f;
}

TEST(DeadFoldersTest, RefusesWhatCannotBeShown) {
  proto::WorkerStats s;
  *s.add_dead_folders() = Folder("u.test/a/", 3, 1, 0.4);
  EXPECT_TRUE(ValidateDeadFolders(s.dead_folders()).ok());
  auto refused = [](proto::FolderOutcome f) {
    proto::WorkerStats one;
    *one.add_dead_folders() = std::move(f);
    return ValidateDeadFolders(one.dead_folders());
  };
  EXPECT_THAT(refused(Folder("", 3, 1, 0.4)).message(),
              testing::HasSubstr("dead_folders[0].folder"));
  EXPECT_FALSE(
      refused(Folder(std::string(kMaxFolderBytes + 1, 'a'), 3, 1, 0.4)).ok());
  EXPECT_THAT(refused(Folder("u.test/a/", 3, 4, 0.4)).message(),
              testing::HasSubstr("pages <= fetches"));
  EXPECT_FALSE(refused(Folder("u.test/a/", -1, 0, 0.4)).ok());
  EXPECT_FALSE(refused(Folder("u.test/a/", 3, 1, 1.5)).ok());
  EXPECT_FALSE(refused(Folder("u.test/a/", 3, 1, std::nan(""))).ok());
  for (int i = 0; i < kMaxDeadFolders; ++i) {
    *s.add_dead_folders() = Folder("u.test/a/", 3, 1, 0.4);
  }
  EXPECT_THAT(ValidateDeadFolders(s.dead_folders()).message(),
              testing::HasSubstr("at most 20"));
}

TEST(DeadFoldersTest, MostFailedFetchesFirstThenLowerProbability) {
  std::vector<proto::FolderOutcome> in = {
      Folder("a.test/x/", 10, 9, 0.7, "w1"),  // 1 failed
      Folder("b.test/y/", 5, 0, 0.2, "w2"),   // 5 failed
      Folder("c.test/z/", 6, 1, 0.1, "w1"),   // 5 failed, lower P(page)
      Folder("b.test/y/", 5, 0, 0.2, "w1"),   // a tie but for the worker
  };
  std::vector<proto::FolderOutcome> out = MergeDeadFolders(in);
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[0].folder(), "c.test/z/");
  EXPECT_EQ(out[1].worker(), "w1");
  EXPECT_EQ(out[2].worker(), "w2");
  EXPECT_EQ(out[3].folder(), "a.test/x/");
  for (int i = 0; i < 30; ++i) {
    in.push_back(Folder(absl::StrCat("d.test/", i, "/"), 2, 1, 0.5));
  }
  out = MergeDeadFolders(in);
  ASSERT_EQ(out.size(), static_cast<size_t>(kMaxDeadFolders));
  EXPECT_EQ(out[0].folder(), "c.test/z/");
}

}  // namespace
}  // namespace fcrawl::cluster
