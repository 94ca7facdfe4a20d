// LinkBatch (storage/link_db.h): building mutations, outside LinkDb's lock.
#include <memory>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "storage/link_batch_op.h"
#include "storage/link_db.h"
#include "storage/link_keys.h"

namespace fcrawl::storage {

using keys::HostSubKey;
using keys::kHostRecordTag;
using keys::kPageTag;

void LinkBatch::Put(const proto::LinkRecord& record,
                    const proto::LinkRecord* previous) {
  auto op = std::make_shared<Op>();
  op->kind = Op::Kind::kRecord;
  op->host = HostKey(record.url());
  op->url = record.url();
  op->value = record.SerializeAsString();
  op->status = record.status();
  op->score = record.link_score();
  if (previous != nullptr) {
    op->has_previous = true;
    op->previous_status = previous->status();
    op->previous_score = previous->link_score();
  }
  ops_.push_back(std::move(op));
}

void LinkBatch::PutHost(const proto::HostRecord& host) {
  auto op = std::make_shared<Op>();
  op->kind = Op::Kind::kHost;
  op->host = host.host();
  op->key = HostSubKey(host.host(), kHostRecordTag);
  op->value = host.SerializeAsString();
  ops_.push_back(std::move(op));
}

void LinkBatch::PutPage(const std::string& url, const proto::StoredPage& page) {
  auto op = std::make_shared<Op>();
  op->kind = Op::Kind::kPage;
  op->host = HostKey(url);
  op->url = url;
  op->key = HostSubKey(op->host, kPageTag, url);
  op->value = page.SerializeAsString();
  ops_.push_back(std::move(op));
}

void LinkBatch::PutGlobal(absl::string_view name, absl::string_view value) {
  auto op = std::make_shared<Op>();
  op->kind = Op::Kind::kGlobal;
  op->key = absl::StrCat("G", name);
  op->value = std::string(value);
  ops_.push_back(std::move(op));
}

void LinkBatch::PutSignature(const text::MinHashSignature& signature,
                             const std::string& url) {
  // Plain keys (no host, no queue): the kGlobal kind writes them as given.
  auto sig = std::make_shared<Op>();
  sig->kind = Op::Kind::kGlobal;
  sig->key = keys::SignatureKey(url);
  sig->value = text::EncodeSignature(signature);
  ops_.push_back(std::move(sig));
  for (int b = 0; b < text::kBands; ++b) {
    auto op = std::make_shared<Op>();
    op->kind = Op::Kind::kGlobal;
    op->key = keys::BandKey(b, text::BandKey(signature, b), url);
    ops_.push_back(std::move(op));
  }
}

void LinkBatch::PutOutbox(uint64_t seq, std::string bytes) {
  auto op = std::make_shared<Op>();
  op->kind = Op::Kind::kGlobal;
  op->key = keys::OutboxKey(seq);
  op->value = std::move(bytes);
  ops_.push_back(std::move(op));
}

void LinkBatch::EraseOutbox(uint64_t seq) {
  auto op = std::make_shared<Op>();
  op->kind = Op::Kind::kErase;
  op->key = keys::OutboxKey(seq);
  ops_.push_back(std::move(op));
}

void LinkBatch::PutDue(const std::string& url, int64_t due_ms) {
  auto op = std::make_shared<Op>();
  op->kind = Op::Kind::kGlobal;
  op->key = keys::DueKey(due_ms, url);
  ops_.push_back(std::move(op));
}

void LinkBatch::EraseDue(const std::string& url, int64_t due_ms) {
  auto op = std::make_shared<Op>();
  op->kind = Op::Kind::kErase;
  op->key = keys::DueKey(due_ms, url);
  ops_.push_back(std::move(op));
}

bool LinkBatch::empty() const { return ops_.empty(); }
size_t LinkBatch::size() const { return ops_.size(); }

}  // namespace fcrawl::storage
