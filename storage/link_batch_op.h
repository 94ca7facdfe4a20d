// LinkBatch's mutation record, shared by the batch that builds it
// (link_batch.cc) and LinkDb::Commit that applies it (link_db.cc). Internal
// to storage.
#ifndef FCRAWL_STORAGE_LINK_BATCH_OP_H_
#define FCRAWL_STORAGE_LINK_BATCH_OP_H_

#include <string>

#include "proto/link_state.pb.h"
#include "storage/link_db.h"

namespace fcrawl::storage {

// One mutation. Keys and values are built in LinkBatch's methods, outside
// LinkDb's lock; `host` is "" when the URL has none (Commit then fails).
struct LinkBatch::Op {
  enum class Kind { kRecord, kHost, kPage, kGlobal, kErase };
  Kind kind = Kind::kRecord;
  std::string host;
  std::string url;  // kRecord, kPage
  // kHost, kPage, kGlobal (crawl-wide values, the near-duplicate and due
  // indexes' keys), kErase (a plain key to delete): the full key.
  std::string key;
  std::string value;
  // kRecord only.
  proto::LinkRecord::Status status = proto::LinkRecord::STATUS_UNSPECIFIED;
  double score = 0;
  bool has_previous = false;
  proto::LinkRecord::Status previous_status =
      proto::LinkRecord::STATUS_UNSPECIFIED;
  double previous_score = 0;
};

}  // namespace fcrawl::storage

#endif  // FCRAWL_STORAGE_LINK_BATCH_OP_H_
