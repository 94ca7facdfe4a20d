#include "worker/revisit.h"

#include <algorithm>
#include <cmath>

#include "core/hash.h"

namespace fcrawl::worker {

double EstimatedChangeRate(int visits, int changes, double mean_interval_s) {
  if (visits <= 0 || changes <= 0 || !(mean_interval_s > 0)) return 0;
  const double n = visits;
  const double x = std::min(changes, visits);
  const double r = -std::log((n - x + 0.5) / (n + 0.5));
  return r / mean_interval_s;
}

absl::Duration NextInterval(const proto::LinkRecord& record,
                            const RevisitPolicy& policy) {
  const int n = record.revisits();
  if (n <= 0) return std::clamp(policy.initial, policy.min, policy.max);
  const absl::Duration span = absl::Milliseconds(
      std::max<int64_t>(0, record.last_visit_ms() - record.first_visit_ms()));
  const absl::Duration mean = span / n;
  const double rate =
      EstimatedChangeRate(n, record.changes(), absl::ToDoubleSeconds(mean));
  absl::Duration next = 2 * mean;
  if (rate > 0) next = std::min(next, absl::Seconds(1.0 / rate));
  return std::clamp(next, policy.min, policy.max);
}

void StartVisits(absl::Time fetched, const RevisitPolicy& policy,
                 proto::LinkRecord* record) {
  const int64_t ms = absl::ToUnixMillis(fetched);
  record->set_revisits(0);
  record->set_changes(0);
  record->set_first_visit_ms(ms);
  record->set_last_visit_ms(ms);
  record->set_next_visit_ms(
      absl::ToUnixMillis(fetched + NextInterval(*record, policy)));
}

void RecordVisit(bool changed, absl::Time now, const RevisitPolicy& policy,
                 proto::LinkRecord* record) {
  if (record->first_visit_ms() == 0) {
    // A page fetched before its visits were counted: its fetch is the first.
    record->set_first_visit_ms(record->fetched_at_ms() > 0
                                   ? record->fetched_at_ms()
                                   : absl::ToUnixMillis(now));
  }
  record->set_revisits(record->revisits() + 1);
  if (changed) record->set_changes(record->changes() + 1);
  record->set_last_visit_ms(absl::ToUnixMillis(now));
  record->set_next_visit_ms(
      absl::ToUnixMillis(now + NextInterval(*record, policy)));
}

uint64_t ContentHash(absl::string_view body) {
  hash::StableHasher h;
  h.Add(body);
  const uint64_t v = h.value();
  return v == 0 ? 1 : v;  // 0 means "no hash"
}

}  // namespace fcrawl::worker
