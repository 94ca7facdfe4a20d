// The coordinator's state log: reopen, atomic records, torn and damaged
// logs, the folder lock, compaction.
#include "coordinator/state_store.h"

#include <fstream>
#include <string>

#include "core/test_temp_dir.h"
#include "gtest/gtest.h"

namespace fcrawl::coordinator {
namespace {

std::string ValueOf(StateStore& s, const std::string& key) {
  absl::StatusOr<std::optional<std::string>> v = s.Get(key);
  EXPECT_TRUE(v.ok()) << v.status();
  return v.ok() && v->has_value() ? **v : "<none>";
}

TEST(StateStoreTest, SurvivesReopenWithEveryKindOfWrite) {
  file::TestTempDir tmp;
  {
    absl::StatusOr<std::unique_ptr<StateStore>> s =
        StateStore::Open(tmp.path());
    ASSERT_TRUE(s.ok()) << s.status();
    ASSERT_TRUE(
        (*s)->Apply({{{"state", "1"}, {"stats/a", "x"}, {"stats/b", "y"}},
                     {},
                     "",
                     false})
            .ok());
    ASSERT_TRUE(
        (*s)->Apply({{{"crawl", "c"}}, {"state"}, "stats/", true}).ok());
    // The same folder is locked while open.
    absl::StatusOr<std::unique_ptr<StateStore>> twice =
        StateStore::Open(tmp.path());
    EXPECT_EQ(twice.status().code(), absl::StatusCode::kFailedPrecondition);
  }
  absl::StatusOr<std::unique_ptr<StateStore>> s = StateStore::Open(tmp.path());
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(ValueOf(**s, "state"), "<none>");
  EXPECT_EQ(ValueOf(**s, "crawl"), "c");
  absl::StatusOr<std::vector<std::pair<std::string, std::string>>> stats =
      (*s)->Scan("stats/");
  ASSERT_TRUE(stats.ok());
  EXPECT_TRUE(stats->empty());
}

TEST(StateStoreTest, TornTailIsDroppedDamageIsDataLoss) {
  file::TestTempDir tmp;
  {
    absl::StatusOr<std::unique_ptr<StateStore>> s =
        StateStore::Open(tmp.path());
    ASSERT_TRUE(s.ok());
    ASSERT_TRUE((*s)->Apply({{{"state", "1"}}, {}, "", true}).ok());
    ASSERT_TRUE((*s)->Apply({{{"state", "2"}}, {}, "", true}).ok());
  }
  const std::string log = tmp.File("state.log");
  std::string bytes;
  {
    std::ifstream in(log, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  // A crash in the middle of the last record: the record before stands.
  {
    std::ofstream out(log, std::ios::binary | std::ios::trunc);
    out << bytes.substr(0, bytes.size() - 3);
  }
  {
    absl::StatusOr<std::unique_ptr<StateStore>> s =
        StateStore::Open(tmp.path());
    ASSERT_TRUE(s.ok()) << s.status();
    EXPECT_EQ(ValueOf(**s, "state"), "1");
    ASSERT_TRUE((*s)->Apply({{{"state", "3"}}, {}, "", true}).ok());
  }
  // A flipped byte inside a record followed by another record: DataLoss.
  {
    std::ifstream in(log, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  bytes[14] ^= 0x55;
  {
    std::ofstream out(log, std::ios::binary | std::ios::trunc);
    out << bytes;
  }
  absl::StatusOr<std::unique_ptr<StateStore>> s = StateStore::Open(tmp.path());
  EXPECT_EQ(s.status().code(), absl::StatusCode::kDataLoss);
}

TEST(StateStoreTest, LogIsCompacted) {
  file::TestTempDir tmp;
  absl::StatusOr<std::unique_ptr<StateStore>> s = StateStore::Open(tmp.path());
  ASSERT_TRUE(s.ok());
  const std::string value(10000, 'v');
  for (int i = 0; i < 500; ++i) {  // 5 MB written to one key
    ASSERT_TRUE(
        (*s)->Apply({{{"state", value + std::to_string(i)}}, {}, "", false})
            .ok());
  }
  std::error_code ec;
  EXPECT_LT(std::filesystem::file_size(tmp.File("state.log"), ec),
            uintmax_t{2} << 20);
  EXPECT_EQ(ValueOf(**s, "state"), value + "499");
}

}  // namespace
}  // namespace fcrawl::coordinator
