#include "coordinator/state_store.h"

#include <filesystem>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/write_batch.h"
#include "storage/rocks_status.h"

namespace fcrawl::coordinator {

using ::fcrawl::storage::FromRocks;
using ::fcrawl::storage::IsHeldLock;

struct StateStore::Impl {
  std::unique_ptr<rocksdb::DB> db;
};

StateStore::StateStore(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

StateStore::~StateStore() {
  if (impl_ != nullptr && impl_->db != nullptr) {
    impl_->db->Close().PermitUncheckedError();
  }
}

absl::StatusOr<std::unique_ptr<StateStore>> StateStore::Open(
    const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    return absl::InternalError(
        absl::StrCat("cannot create the folder '", dir, "': ", ec.message()));
  }
  rocksdb::Options options;
  options.create_if_missing = true;
  // A handful of small keys: keep the footprint small.
  options.write_buffer_size = 4 << 20;
  options.max_write_buffer_number = 2;
  options.keep_log_file_num = 4;
  options.max_log_file_size = 1 << 20;
  options.max_open_files = 64;
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(options, dir, &raw);
  if (!s.ok()) {
    std::string context =
        absl::StrCat("cannot open the coordinator database '", dir, "'");
    if (IsHeldLock(s)) {
      absl::StrAppend(&context, " (is another coordinator using this folder?)");
    }
    return FromRocks(s, context);
  }
  auto impl = std::make_unique<Impl>();
  impl->db.reset(raw);
  return std::unique_ptr<StateStore>(new StateStore(std::move(impl)));
}

absl::StatusOr<std::optional<std::string>> StateStore::Get(
    absl::string_view key) {
  std::string value;
  rocksdb::Status s = impl_->db->Get(
      rocksdb::ReadOptions(), rocksdb::Slice(key.data(), key.size()), &value);
  if (s.IsNotFound()) return std::optional<std::string>();
  if (!s.ok()) return FromRocks(s, absl::StrCat("reading '", key, "'"));
  return std::optional<std::string>(std::move(value));
}

absl::Status StateStore::Apply(const StateWrite& write) {
  rocksdb::WriteBatch batch;
  if (!write.delete_prefix.empty()) {
    absl::StatusOr<std::vector<std::pair<std::string, std::string>>> old =
        Scan(write.delete_prefix);
    if (!old.ok()) return old.status();
    for (const auto& kv : *old) {
      rocksdb::Status s = batch.Delete(kv.first);
      if (!s.ok()) return FromRocks(s, "batch delete");
    }
  }
  for (const std::string& key : write.deletes) {
    rocksdb::Status s = batch.Delete(key);
    if (!s.ok()) return FromRocks(s, "batch delete");
  }
  for (const auto& [key, value] : write.puts) {
    rocksdb::Status s = batch.Put(key, value);
    if (!s.ok()) return FromRocks(s, "batch put");
  }
  rocksdb::WriteOptions options;
  options.sync = write.sync;
  return FromRocks(impl_->db->Write(options, &batch),
                   "writing the coordinator database");
}

absl::StatusOr<std::vector<std::pair<std::string, std::string>>>
StateStore::Scan(absl::string_view prefix) {
  std::vector<std::pair<std::string, std::string>> out;
  std::unique_ptr<rocksdb::Iterator> it(
      impl_->db->NewIterator(rocksdb::ReadOptions()));
  for (it->Seek(rocksdb::Slice(prefix.data(), prefix.size()));
       it->Valid() &&
       it->key().starts_with(rocksdb::Slice(prefix.data(), prefix.size()));
       it->Next()) {
    out.emplace_back(it->key().ToString(), it->value().ToString());
  }
  if (!it->status().ok()) {
    return FromRocks(it->status(), absl::StrCat("scanning '", prefix, "'"));
  }
  return out;
}

}  // namespace fcrawl::coordinator
