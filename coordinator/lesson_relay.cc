#include "coordinator/lesson_relay.h"

#include <utility>

namespace fcrawl::coordinator {

LessonRelay::LessonRelay(uint64_t epoch, LessonRelayOptions options)
    : epoch_(epoch), options_(options) {}

void LessonRelay::Reset() {
  batches_.clear();
  bytes_ = 0;
}

void LessonRelay::Add(absl::string_view from, std::string lessons) {
  if (lessons.empty()) return;
  proto::LessonBatch b;
  b.set_from(std::string(from));
  b.set_seq(++seq_);
  bytes_ += lessons.size();
  bytes_in_ += static_cast<int64_t>(lessons.size());
  b.set_lessons(std::move(lessons));
  batches_.push_back(std::move(b));
  while (!batches_.empty() && (bytes_ > options_.max_bytes ||
                               batches_.size() > options_.max_batches)) {
    bytes_ -= batches_.front().lessons().size();
    batches_.pop_front();
  }
}

void LessonRelay::Reply(absl::string_view to, uint64_t epoch, uint64_t seen,
                        proto::HeartbeatResponse* response) {
  if (epoch != epoch_) seen = 0;
  uint64_t upto = std::max(seen, seq_);
  size_t bytes = 0;
  for (const proto::LessonBatch& b : batches_) {
    if (b.seq() <= seen || b.from() == to) continue;
    if (bytes > 0 && bytes + b.lessons().size() > options_.max_reply_bytes) {
      upto = b.seq() - 1;  // the rest next time
      break;
    }
    bytes += b.lessons().size();
    *response->add_lessons() = b;
  }
  bytes_out_ += static_cast<int64_t>(bytes);
  response->set_lessons_epoch(epoch_);
  response->set_lessons_seq(upto);
}

}  // namespace fcrawl::coordinator
