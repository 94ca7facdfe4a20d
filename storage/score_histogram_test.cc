#include "storage/score_histogram.h"

#include <limits>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "storage/link_db.h"

namespace fcrawl::storage {
namespace {

using ::testing::ElementsAre;

int64_t Above(const ScoreHistogram& h, double score) {
  return h.CountAbove(EncodeScore(score));
}

TEST(ScoreHistogramTest, EmptyCountsNothing) {
  ScoreHistogram h;
  EXPECT_EQ(Above(h, 0.5), 0);
  EXPECT_EQ(h.total(), 0);
}

TEST(ScoreHistogramTest, CountsStrictlyHigherScores) {
  ScoreHistogram h;
  for (double s : {0.9, 0.9, 0.5, 0.1, -3.0}) h.Add(EncodeScore(s), 1);
  EXPECT_EQ(h.total(), 5);
  EXPECT_EQ(Above(h, 1.0), 0);
  EXPECT_EQ(Above(h, 0.9), 0);  // ties are not above
  EXPECT_EQ(Above(h, 0.6), 2);
  EXPECT_EQ(Above(h, 0.5), 2);
  EXPECT_EQ(Above(h, 0.2), 3);
  EXPECT_EQ(Above(h, 0.0), 4);
  EXPECT_EQ(Above(h, -1.0), 4);
  EXPECT_EQ(Above(h, -100.0), 5);
  EXPECT_EQ(Above(h, -std::numeric_limits<double>::infinity()), 5);
  h.Add(EncodeScore(0.9), -1);
  EXPECT_EQ(Above(h, 0.6), 1);
  EXPECT_EQ(h.total(), 4);
}

TEST(ScoreHistogramTest, SeedScoreIsAboveEverything) {
  ScoreHistogram h;
  h.Add(EncodeScore(std::numeric_limits<double>::max()), 1);
  EXPECT_EQ(Above(h, 1e300), 1);
  EXPECT_EQ(Above(h, std::numeric_limits<double>::max()), 0);
}

TEST(ScoreHistogramTest, ResolutionIsAbout1In256) {
  // 1.0 and 1.0 + 1/128 differ in the top 8 mantissa bits; 1.0 and
  // 1.0 + 1/1024 do not (same bucket: a tie).
  ScoreHistogram h;
  h.Add(EncodeScore(1.0 + 1.0 / 128), 1);
  h.Add(EncodeScore(1.0 + 1.0 / 1024), 1);
  EXPECT_EQ(Above(h, 1.0), 1);
  EXPECT_EQ(ScoreHistogram::Bucket(EncodeScore(1.0)),
            ScoreHistogram::Bucket(EncodeScore(1.0 + 1.0 / 1024)));
}

TEST(ScoreHistogramTest, OverRemovalNeverGoesNegative) {
  ScoreHistogram h;
  h.Add(EncodeScore(0.7), -1);
  EXPECT_EQ(Above(h, 0.1), 0);
}

TEST(ScoreHistogramTest, BucketOfOneByHand) {
  // 1.0 = 0x3FF0000000000000; ascending = 0xBFF0...; descending encoding
  // = 0x400FFFFFFFFFFFFF; first 20 bits 0x400FF.
  EXPECT_EQ(ScoreHistogram::Bucket(EncodeScore(1.0)), 0x400FFu);
  EXPECT_EQ(ScoreHistogram::Bucket(""), 0u);
}

TEST(ScoreHistogramTest, FirstBucketIsTheBestScoreRoundedDown) {
  ScoreHistogram h;
  EXPECT_EQ(h.FirstBucket(), -1);
  h.Add(EncodeScore(0.25), 1);
  h.Add(EncodeScore(0.75), 2);
  h.Add(EncodeScore(-3), 1);
  ASSERT_GE(h.FirstBucket(), 0);
  EXPECT_EQ(h.FirstBucket(), ScoreHistogram::Bucket(EncodeScore(0.75)));
  // The bucket's lowest score: .75 has a short mantissa, so it is exact.
  EXPECT_DOUBLE_EQ(DecodeScore(ScoreHistogram::LowestOf(h.FirstBucket())),
                   0.75);
  // A score inside a bucket decodes to at most itself, within 1/256.
  ScoreHistogram g;
  const double x = 0.123456789;
  g.Add(EncodeScore(x), 1);
  const double low = DecodeScore(ScoreHistogram::LowestOf(g.FirstBucket()));
  EXPECT_LE(low, x);
  EXPECT_GT(low, x * (1 - 1.0 / 256));
  // Removing the best moves to the next; removing all empties it.
  h.Add(EncodeScore(0.75), -2);
  EXPECT_EQ(h.FirstBucket(), ScoreHistogram::Bucket(EncodeScore(0.25)));
  h.Add(EncodeScore(0.25), -1);
  EXPECT_EQ(h.FirstBucket(), ScoreHistogram::Bucket(EncodeScore(-3)));
  h.Add(EncodeScore(-3), -1);
  EXPECT_EQ(h.FirstBucket(), -1);
  // Negative scores decode to a lower bound too.
  g.Add(EncodeScore(x), -1);
  g.Add(EncodeScore(-5.5), 1);
  EXPECT_LE(DecodeScore(ScoreHistogram::LowestOf(g.FirstBucket())), -5.5);
}

TEST(ScoreHistogramTest, TopListsTheBestBucketsUntilEnoughEntries) {
  ScoreHistogram h;
  EXPECT_TRUE(h.Top(10, 10).empty());
  h.Add(EncodeScore(0.25), 1);
  h.Add(EncodeScore(0.75), 2);
  h.Add(EncodeScore(0.5), 3);
  h.Add(EncodeScore(-3), 1);
  using P = std::pair<uint32_t, int64_t>;
  const uint32_t b75 = ScoreHistogram::Bucket(EncodeScore(0.75));
  const uint32_t b50 = ScoreHistogram::Bucket(EncodeScore(0.5));
  const uint32_t b25 = ScoreHistogram::Bucket(EncodeScore(0.25));
  const uint32_t bneg = ScoreHistogram::Bucket(EncodeScore(-3));
  // 2 entries are enough: the best bucket alone.
  EXPECT_THAT(h.Top(2, 10), ElementsAre(P{b75, 2}));
  // 3 need the next bucket too (which brings 3 more).
  EXPECT_THAT(h.Top(3, 10), ElementsAre(P{b75, 2}, P{b50, 3}));
  EXPECT_THAT(h.Top(100, 10),
              ElementsAre(P{b75, 2}, P{b50, 3}, P{b25, 1}, P{bneg, 1}));
  EXPECT_THAT(h.Top(100, 2), ElementsAre(P{b75, 2}, P{b50, 3}));
  h.Add(EncodeScore(0.75), -2);
  EXPECT_THAT(h.Top(1, 10), ElementsAre(P{b50, 3}));
}

}  // namespace
}  // namespace fcrawl::storage
