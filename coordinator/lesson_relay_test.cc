#include "coordinator/lesson_relay.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace fcrawl::coordinator {
namespace {

using ::testing::ElementsAre;

std::vector<std::string> Got(const proto::HeartbeatResponse& r) {
  std::vector<std::string> out;
  for (const proto::LessonBatch& b : r.lessons()) {
    out.push_back(b.from() + ":" + b.lessons());
  }
  return out;
}

TEST(LessonRelayTest, EachWorkerGetsTheOthersBatchesOnce) {
  LessonRelay relay(7);
  relay.Add("a", "a1");
  relay.Add("b", "b1");
  relay.Add("a", "");  // nothing learned: no batch
  relay.Add("c", "c1");
  proto::HeartbeatResponse r;
  relay.Reply("a", 7, 0, &r);
  EXPECT_THAT(Got(r), ElementsAre("b:b1", "c:c1"));
  EXPECT_EQ(r.lessons_epoch(), 7u);
  EXPECT_EQ(r.lessons_seq(), 3u);
  // Next time from where it stands: only what came since.
  relay.Add("b", "b2");
  proto::HeartbeatResponse r2;
  relay.Reply("a", 7, r.lessons_seq(), &r2);
  EXPECT_THAT(Got(r2), ElementsAre("b:b2"));
  EXPECT_EQ(r2.lessons_seq(), 4u);
  // Its own batches only: nothing, but it moves on.
  relay.Add("a", "a2");
  proto::HeartbeatResponse r3;
  relay.Reply("a", 7, r2.lessons_seq(), &r3);
  EXPECT_TRUE(Got(r3).empty());
  EXPECT_EQ(r3.lessons_seq(), 5u);
  // Bytes in: a1 b1 c1 b2 a2; out: b1 c1 (to a), then b2.
  EXPECT_EQ(relay.bytes_in(), 10);
  EXPECT_EQ(relay.bytes_out(), 6);
}

TEST(LessonRelayTest, AnotherEpochStartsFromTheBeginning) {
  LessonRelay relay(9);
  relay.Add("b", "b1");
  proto::HeartbeatResponse r;
  relay.Reply("a", /*epoch=*/3, /*seen=*/500, &r);  // a restarted coordinator
  EXPECT_THAT(Got(r), ElementsAre("b:b1"));
  EXPECT_EQ(r.lessons_epoch(), 9u);
}

TEST(LessonRelayTest, BoundsKeepTheNewestAndRepliesResumeWhereTheyStopped) {
  LessonRelayOptions o;
  o.max_bytes = 10;
  o.max_batches = 3;
  o.max_reply_bytes = 4;
  LessonRelay relay(1, o);
  relay.Add("b", "1111");
  relay.Add("b", "2222");
  relay.Add("b", "3333");  // 12 bytes > 10: "1111" goes
  EXPECT_EQ(relay.batches(), 2u);
  EXPECT_EQ(relay.bytes(), 8u);
  proto::HeartbeatResponse r;
  relay.Reply("a", 1, 0, &r);
  EXPECT_THAT(Got(r), ElementsAre("b:2222"));  // 4 bytes per reply
  EXPECT_EQ(r.lessons_seq(), 2u);
  proto::HeartbeatResponse r2;
  relay.Reply("a", 1, r.lessons_seq(), &r2);
  EXPECT_THAT(Got(r2), ElementsAre("b:3333"));
  EXPECT_EQ(r2.lessons_seq(), 3u);
  // One batch over the reply bound still goes out alone.
  relay.Add("b", "555555");
  proto::HeartbeatResponse r3;
  relay.Reply("a", 1, r2.lessons_seq(), &r3);
  EXPECT_THAT(Got(r3), ElementsAre("b:555555"));
  relay.Reset();
  EXPECT_EQ(relay.batches(), 0u);
  proto::HeartbeatResponse r4;
  relay.Reply("a", 1, 0, &r4);
  EXPECT_TRUE(Got(r4).empty());
  EXPECT_EQ(r4.lessons_seq(), 4u);
}

}  // namespace
}  // namespace fcrawl::coordinator
