#include "worker/hand_over.h"

#include "absl/time/clock.h"

namespace fcrawl::worker {

absl::Status HandOver::AddLinks(const std::vector<proto::LinkRecord>& records,
                                const std::vector<std::string>& link_contexts) {
  return frontier_.AddRouted(records, link_contexts);
}

absl::Status HandOver::AddHost(const std::string& host,
                               const std::vector<proto::LinkRecord>& records,
                               const proto::HostRecord* host_record,
                               const std::string& site_state) {
  if (absl::Status s =
          frontier_.AddHandedOver(host, records, host_record, site_state);
      !s.ok()) {
    return s;
  }
  // The host's in-memory state (robots.txt, pages fetched) is read from the
  // database again when it is next used.
  scheduler_.Forget(host);
  scheduler_.Touch(host);
  return absl::OkStatus();
}

absl::Status HandOver::ApplyRanks(
    const std::vector<std::pair<std::string, double>>& ranks, int64_t* applied,
    int64_t* requeued) {
  return frontier_.ApplyRanks(ranks, applied, requeued);
}

absl::StatusOr<std::vector<std::string>> HandOver::Hosts() {
  return db_.ListHosts();
}

bool HandOver::HostBusy(const std::string& host) {
  return scheduler_.Busy(host);
}

absl::Status HandOver::ReadHost(const std::string& host,
                                std::vector<proto::LinkRecord>* records,
                                std::optional<proto::HostRecord>* host_record,
                                std::string* site_state) {
  return frontier_.ReadHost(host, records, host_record, site_state);
}

absl::Status HandOver::DropHost(const std::string& host) {
  if (absl::Status s = frontier_.DropHost(host); !s.ok()) return s;
  scheduler_.Forget(host);
  return absl::OkStatus();
}

void HandOver::RescheduleAll() { scheduler_.RescheduleAll(absl::Now()); }

void HandOver::Figures(int64_t* queued, int64_t* in_flight,
                       int64_t* pages_total) {
  *queued = db_.stats().queued;
  *in_flight = transfers_();
  *pages_total = scheduler_.pages_total();
}

std::optional<double> HandOver::BestQueuedScore() {
  return db_.BestQueuedScore();
}

}  // namespace fcrawl::worker
