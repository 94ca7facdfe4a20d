// Revisits in a continuous crawl (config `revisit`, worker/README.md
// "Revisits"): when a fetched page comes due again, and what one more visit
// teaches about how often it changes.
//
// The change rate. A page is modelled as changing at random times at a
// constant rate λ (a Poisson process). The crawler cannot see every
// change: it only sees, at each visit, whether the page differs from the
// last visit. Counting X visits that found a change among n visits made at
// intervals I, the obvious estimate X / (n·I) is biased low (two changes
// between visits look like one) and the maximum-likelihood estimate
// -ln(1 - X/n) / I is infinite when every visit found a change. Cho and
// Garcia-Molina ("Estimating frequency of change", ACM TOIT 2003) give the
// estimator used here, nearly unbiased and finite:
//     r̂ = -ln((n - X + 0.5) / (n + 0.5)),   λ̂ = r̂ / I
// (r̂ is the expected number of changes per interval). Visits here are not
// evenly spaced; I is their mean interval, (last visit - first) / n.
//
// The schedule. A page's next visit comes 1/λ̂ after this one — the
// expected time between two changes — but never more than twice the mean
// interval so far (an estimate from few visits is not trusted to jump far:
// a page that did not change is looked at after 2I, 4I, ...), and within
// [min_interval, max_interval]. The first revisit comes initial_interval
// after the first fetch.
//
// Pure functions on a LinkRecord; no I/O. Thread-safe.
#ifndef FCRAWL_WORKER_REVISIT_H_
#define FCRAWL_WORKER_REVISIT_H_

#include <cstdint>

#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "proto/link_state.pb.h"

namespace fcrawl::worker {

struct RevisitPolicy {
  absl::Duration initial;
  absl::Duration min;
  absl::Duration max;
};

// Cho and Garcia-Molina's estimate of a page's changes per second from
// `visits` (n > 0) visits at `mean_interval_s` apart of which `changes`
// (0 <= X <= n) found a change. 0 when X is 0.
double EstimatedChangeRate(int visits, int changes, double mean_interval_s);

// The wait from the record's last visit to its next: initial when it has
// no revisit yet, else as in the file comment.
absl::Duration NextInterval(const proto::LinkRecord& record,
                            const RevisitPolicy& policy);

// A page's first fetch at `fetched`: its visit history starts and its
// first revisit is due initial_interval later (next_visit_ms).
void StartVisits(absl::Time fetched, const RevisitPolicy& policy,
                 proto::LinkRecord* record);

// A revisit at `now` that got an answer: one more visit, a change when
// `changed`, and the next one scheduled.
void RecordVisit(bool changed, absl::Time now, const RevisitPolicy& policy,
                 proto::LinkRecord* record);

// The hash a body is compared by (core/hash.h StableHasher).
uint64_t ContentHash(absl::string_view body);

}  // namespace fcrawl::worker

#endif  // FCRAWL_WORKER_REVISIT_H_
