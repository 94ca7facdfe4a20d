// The lessons a crawl's workers learn from their own pages, relayed to the
// others (proto/cluster.proto HeartbeatRequest.lessons): in a cluster every
// worker's learning strategy learns from the pages of the whole crawl
// (focus::Strategy::TakeLessons / LearnLessons). The bytes are opaque here;
// each receiving strategy checks them.
//
// Kept in memory only, the newest batches up to a byte and count bound: a
// worker that falls far behind, or a restarted coordinator (a new epoch),
// misses the older lessons, which costs the workers some learning, never
// correctness.
//
// Thread-compatible: the coordinator calls it under its own lock.
#ifndef FCRAWL_COORDINATOR_LESSON_RELAY_H_
#define FCRAWL_COORDINATOR_LESSON_RELAY_H_

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>

#include "absl/strings/string_view.h"
#include "proto/cluster.pb.h"

namespace fcrawl::coordinator {

struct LessonRelayOptions {
  size_t max_bytes = 16 << 20;  // lessons kept, all batches together
  size_t max_batches = 4096;
  size_t max_reply_bytes = 2 << 20;  // lessons in one heartbeat response
};

class LessonRelay {
 public:
  // `epoch` tells this relay's sequence numbers from those of another
  // process (a random number per coordinator process).
  LessonRelay(uint64_t epoch, LessonRelayOptions options = {});

  // Forgets every batch: a new crawl begins (sequence numbers go on).
  void Reset();
  // Keeps a batch `from` sent (empty lessons are ignored), dropping the
  // oldest batches beyond the bounds.
  void Add(absl::string_view from, std::string lessons);
  // Fills the response's lessons: the batches of other workers after
  // `seen` (from the start when `epoch` is not this relay's), at most
  // max_reply_bytes of them (at least one), and lessons_epoch/lessons_seq
  // to send back next time.
  void Reply(absl::string_view to, uint64_t epoch, uint64_t seen,
             proto::HeartbeatResponse* response);

  uint64_t epoch() const { return epoch_; }
  size_t batches() const { return batches_.size(); }
  size_t bytes() const { return bytes_; }
  // Lesson bytes taken in (Add) and sent out (Reply) since the relay was
  // made: every batch goes to every other worker, so out grows with the
  // square of the workers (docs/design.md "What one coordinator carries").
  int64_t bytes_in() const { return bytes_in_; }
  int64_t bytes_out() const { return bytes_out_; }

 private:
  const uint64_t epoch_;
  const LessonRelayOptions options_;
  std::deque<proto::LessonBatch> batches_;
  size_t bytes_ = 0;
  uint64_t seq_ = 0;  // of the newest batch ever added
  int64_t bytes_in_ = 0, bytes_out_ = 0;
};

}  // namespace fcrawl::coordinator

#endif  // FCRAWL_COORDINATOR_LESSON_RELAY_H_
