#include "worker/host_scheduler.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/time/time.h"
#include "core/test_temp_dir.h"
#include "focus/strategy.h"
#include "formats/crawl_config.h"
#include "gtest/gtest.h"
#include "storage/link_db.h"
#include "worker/crawl_setup.h"
#include "worker/frontier.h"
#include "worker/url_scope.h"

namespace fcrawl::worker {
namespace {

using proto::LinkRecord;

// Best-first by the queued score, with a share threshold like Hopfield's
// relative θ: a host whose best URL scores below `share` times the best
// queued anywhere waits.
class ShareStrategy : public focus::Strategy {
 public:
  explicit ShareStrategy(double share) : share_(share) {}
  absl::string_view name() const override { return "share"; }
  focus::FrontierState SeedState() const override {
    focus::FrontierState s;
    s.score = 1;
    return s;
  }
  std::vector<focus::ScoredLink> ScoreLinks(
      const focus::FetchedPage&) override {
    return {};
  }
  focus::FrontierState Merge(
      const focus::FrontierState& queued,
      const focus::FrontierState& offered) const override {
    return offered.score > queued.score ? offered : queued;
  }
  double min_fetch_share() const override { return share_; }

 private:
  const double share_;
};

// Records the transfers the scheduler starts.
class Sink : public TransferSink {
 public:
  size_t transfers() const override { return started.size() - ended; }
  int64_t parsing() const override { return 0; }
  void Start(Task task) override { started.push_back(std::move(task)); }
  absl::Status RecordWithoutRequest(Task, LinkRecord::Status, std::string, bool,
                                    std::optional<FetchOutcome>,
                                    absl::Time) override {
    return absl::OkStatus();
  }
  std::vector<Task> started;
  size_t ended = 0;
};

class HostSchedulerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    proto::CrawlConfig c;
    c.mutable_politeness()->set_obey_robots(false);
    c.mutable_politeness()->set_per_host_delay_ms(1000);
    c.mutable_strategy()->set_order_window(0);
    config_ = formats::WithDefaults(std::move(c));
    absl::StatusOr<std::unique_ptr<storage::LinkDb>> db =
        storage::LinkDb::Open(dir_.File("db"), {});
    ASSERT_TRUE(db.ok()) << db.status();
    db_ = *std::move(db);
    Build();
  }

  // The scope, frontier and scheduler of config_ (again, after a test
  // changed it).
  void Build() {
    scope_ = std::make_unique<UrlScope>(UrlScopeOf(config_.scope()));
    frontier_ = std::make_unique<Frontier>(
        FrontierOptionsOf(config_), scope_.get(), db_.get(), &strategy_,
        nullptr, [](const std::string&, absl::string_view) {});
    scheduler_ = std::make_unique<HostScheduler>(SchedulerOptionsOf(config_),
                                                 db_.get(), frontier_.get(),
                                                 &strategy_, nullptr, &sink_);
  }

  void Queue(const std::string& url, double score) {
    LinkRecord r;
    r.set_url(url);
    r.set_status(LinkRecord::QUEUED);
    r.set_link_score(score);
    storage::LinkBatch batch;
    batch.Put(r, nullptr);
    ASSERT_TRUE(db_->Commit(std::move(batch)).ok());
  }

  // The transfer started last ends at `now` (the crawl loop then ranks its
  // host again).
  void EndLast(absl::Time now) {
    const Task& t = sink_.started.back();
    ++sink_.ended;
    scheduler_->TransferEnded(t, "", now);
    scheduler_->Refresh(t.host, now);
  }

  file::TestTempDir dir_;
  proto::CrawlConfig config_;
  ShareStrategy strategy_{0.1};
  Sink sink_;
  std::unique_ptr<storage::LinkDb> db_;
  std::unique_ptr<UrlScope> scope_;
  std::unique_ptr<Frontier> frontier_;
  std::unique_ptr<HostScheduler> scheduler_;
};

TEST_F(HostSchedulerTest, ShareThresholdFollowsTheBestQueuedScore) {
  Queue("http://a.test/1", 0.9);
  Queue("http://a.test/2", 0.05);
  const absl::Time t0 = absl::FromUnixSeconds(1000000);
  ASSERT_TRUE(scheduler_->Init(t0).ok());
  ASSERT_TRUE(scheduler_->StartTransfers(t0, 100).ok());
  ASSERT_EQ(sink_.started.size(), 1u);
  EXPECT_EQ(sink_.started[0].url, "http://a.test/1");

  // A better URL on another host holds the threshold at 0.1 while a.test's
  // transfer ends: a.test's head (0.05) is below it, so a.test neither is
  // ready nor waits.
  Queue("http://b.test/1", 1.0);
  scheduler_->RefreshChanged(t0);
  const absl::Time t1 = t0 + absl::Milliseconds(10);
  EndLast(t1);
  ASSERT_TRUE(scheduler_->StartTransfers(t1, 100).ok());
  ASSERT_EQ(sink_.started.size(), 2u);
  EXPECT_EQ(sink_.started[1].url, "http://b.test/1");
  const absl::Time t2 = t1 + absl::Milliseconds(10);
  EndLast(t2);

  // b.test/1 left the queue: the threshold falls to a tenth of 0.05 and
  // a.test may go on once its delay (1 s from t1) has run out. Until then
  // it waits, and the crawl must not end: the recheck says so.
  EXPECT_FALSE(scheduler_->AnyReady());
  EXPECT_TRUE(scheduler_->RecheckThreshold(t2));
  EXPECT_FALSE(scheduler_->AnyReady());
  EXPECT_TRUE(scheduler_->AnyWaiting());
  EXPECT_EQ(scheduler_->NextWake(), t1 + absl::Seconds(1));

  scheduler_->WakeWaiting(t1 + absl::Seconds(1));
  ASSERT_TRUE(scheduler_->StartTransfers(t1 + absl::Seconds(1), 100).ok());
  ASSERT_EQ(sink_.started.size(), 3u);
  EXPECT_EQ(sink_.started[2].url, "http://a.test/2");
}

TEST_F(HostSchedulerTest, BelowTheShareWaitsForTheBetterHost) {
  Queue("http://a.test/1", 0.05);
  Queue("http://b.test/1", 1.0);
  const absl::Time t0 = absl::FromUnixSeconds(1000000);
  ASSERT_TRUE(scheduler_->Init(t0).ok());
  // Only b.test passes 0.1 · 1.0; a.test does not start beside it.
  ASSERT_TRUE(scheduler_->StartTransfers(t0, 100).ok());
  ASSERT_EQ(sink_.started.size(), 1u);
  EXPECT_EQ(sink_.started[0].host, "b.test");
  EXPECT_FALSE(scheduler_->AnyReady());
}

// Among equal queue heads the host served least goes first (then host
// order), so the one-transfer crawl settles ties as a parallel one does.
TEST_F(HostSchedulerTest, TiesGoToTheHostServedLeast) {
  config_.mutable_politeness()->set_per_host_delay_ms(0);
  config_.mutable_fetch()->set_max_in_flight(1);
  Build();
  Queue("http://a.test/1", 0.5);
  Queue("http://a.test/2", 0.5);
  Queue("http://a.test/3", 0.5);
  Queue("http://b.test/1", 0.5);
  Queue("http://c.test/1", 0.9);
  absl::Time now = absl::FromUnixSeconds(1000000);
  ASSERT_TRUE(scheduler_->Init(now).ok());
  std::vector<std::string> order;
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(scheduler_->StartTransfers(now, 100).ok());
    ASSERT_EQ(sink_.started.size(), static_cast<size_t>(i + 1));
    order.push_back(sink_.started.back().url);
    now += absl::Milliseconds(1);
    EndLast(now);
  }
  // The better score first; then a.test (host order), b.test (served less
  // than a.test), and a.test's other two.
  EXPECT_EQ(order, (std::vector<std::string>{
                       "http://c.test/1", "http://a.test/1", "http://b.test/1",
                       "http://a.test/2", "http://a.test/3"}));
}

}  // namespace
}  // namespace fcrawl::worker
