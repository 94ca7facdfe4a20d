#include "worker/revisit.h"

#include <cmath>

#include "gtest/gtest.h"

namespace fcrawl::worker {
namespace {

RevisitPolicy Policy() {
  RevisitPolicy p;
  p.initial = absl::Seconds(10);
  p.min = absl::Seconds(1);
  p.max = absl::Seconds(1000);
  return p;
}

// A record with n revisits, X changes, its visits spanning n * interval.
proto::LinkRecord History(int n, int x, absl::Duration interval) {
  proto::LinkRecord r;
  r.set_revisits(n);
  r.set_changes(x);
  r.set_first_visit_ms(1'000'000);
  r.set_last_visit_ms(1'000'000 + absl::ToInt64Milliseconds(n * interval));
  return r;
}

TEST(EstimatedChangeRate, ChoGarciaMolinaByHand) {
  // n = 4, X = 1, I = 10 s: r = -ln(3.5 / 4.5) = 0.2513144, λ = r / 10.
  EXPECT_NEAR(EstimatedChangeRate(4, 1, 10), 0.02513144, 1e-7);
  // n = 4, X = 3: r = -ln(1.5 / 4.5) = ln 3 = 1.0986123.
  EXPECT_NEAR(EstimatedChangeRate(4, 3, 10), 0.10986123, 1e-7);
  // Every visit found a change: finite, r = ln(2n + 1) (n = 2: ln 5).
  EXPECT_NEAR(EstimatedChangeRate(2, 2, 100), std::log(5.0) / 100, 1e-9);
  // No change seen, no visit, no interval: no rate.
  EXPECT_EQ(EstimatedChangeRate(5, 0, 10), 0);
  EXPECT_EQ(EstimatedChangeRate(0, 0, 10), 0);
  EXPECT_EQ(EstimatedChangeRate(3, 1, 0), 0);
  // More changes than visits is read as every visit.
  EXPECT_EQ(EstimatedChangeRate(2, 7, 10), EstimatedChangeRate(2, 2, 10));
}

TEST(NextInterval, FirstRevisitAfterTheInitialInterval) {
  EXPECT_EQ(NextInterval(proto::LinkRecord(), Policy()), absl::Seconds(10));
}

TEST(NextInterval, ExpectedTimeBetweenChangesCappedAtTwiceTheMean) {
  // X = 3 of 4 at 10 s: 1 / λ = 10 / ln 3 = 9.1024 s.
  EXPECT_NEAR(absl::ToDoubleSeconds(
                  NextInterval(History(4, 3, absl::Seconds(10)), Policy())),
              10 / std::log(3.0), 1e-3);
  // X = 1 of 4: 1 / λ = 39.79 s, more than 2 * 10 s.
  EXPECT_EQ(NextInterval(History(4, 1, absl::Seconds(10)), Policy()),
            absl::Seconds(20));
  // Unchanged: the interval doubles.
  EXPECT_EQ(NextInterval(History(1, 0, absl::Seconds(10)), Policy()),
            absl::Seconds(20));
  // X = 1 of 1 at 10 s: 1 / λ = 10 / ln 3.
  EXPECT_NEAR(absl::ToDoubleSeconds(
                  NextInterval(History(1, 1, absl::Seconds(10)), Policy())),
              10 / std::log(3.0), 1e-3);
}

TEST(NextInterval, WithinTheBounds) {
  EXPECT_EQ(NextInterval(History(3, 0, absl::Seconds(900)), Policy()),
            absl::Seconds(1000));
  EXPECT_EQ(NextInterval(History(8, 8, absl::Milliseconds(500)), Policy()),
            absl::Seconds(1));
}

TEST(RecordVisit, CountsAndSchedules) {
  proto::LinkRecord r;
  const absl::Time t0 = absl::FromUnixSeconds(1'700'000'000);
  StartVisits(t0, Policy(), &r);
  EXPECT_EQ(r.first_visit_ms(), absl::ToUnixMillis(t0));
  EXPECT_EQ(r.next_visit_ms(), absl::ToUnixMillis(t0 + absl::Seconds(10)));
  RecordVisit(/*changed=*/false, t0 + absl::Seconds(10), Policy(), &r);
  EXPECT_EQ(r.revisits(), 1);
  EXPECT_EQ(r.changes(), 0);
  EXPECT_EQ(r.next_visit_ms(), absl::ToUnixMillis(t0 + absl::Seconds(30)));
  RecordVisit(/*changed=*/true, t0 + absl::Seconds(30), Policy(), &r);
  EXPECT_EQ(r.revisits(), 2);
  EXPECT_EQ(r.changes(), 1);
  // n = 2, X = 1, I = 15 s: 1 / λ = 15 / ln(2.5 / 1.5) = 29.364 s.
  EXPECT_NEAR((r.next_visit_ms() - r.last_visit_ms()) / 1000.0,
              15 / std::log(2.5 / 1.5), 2e-3);
}

TEST(RecordVisit, APageFetchedBeforeVisitsWereCounted) {
  proto::LinkRecord r;
  r.set_fetched_at_ms(5'000);
  RecordVisit(/*changed=*/true, absl::FromUnixMillis(15'000), Policy(), &r);
  EXPECT_EQ(r.first_visit_ms(), 5'000);
  EXPECT_EQ(r.revisits(), 1);
  // X = n = 1 at 10 s: 10 / ln 3 = 9.102 s.
  EXPECT_EQ(r.next_visit_ms(), 15'000 + 9'102);
}

TEST(ContentHash, StableAndNeverZero) {
  EXPECT_EQ(ContentHash("a page"), ContentHash("a page"));
  EXPECT_NE(ContentHash("a page"), ContentHash("a page!"));
  EXPECT_NE(ContentHash(""), 0u);
}

}  // namespace
}  // namespace fcrawl::worker
