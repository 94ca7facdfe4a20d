#include "storage/space_guard_fs.h"

#include <cstddef>
#include <memory>
#include <string>
#include <utility>

#include "absl/status/statusor.h"
#include "core/file.h"
#include "rocksdb/file_system.h"

namespace fcrawl::storage {
namespace {

class SpaceGuardFs;

// One file RocksDB writes: each append is checked first.
class GuardedFile final : public rocksdb::FSWritableFileOwnerWrapper {
 public:
  GuardedFile(std::unique_ptr<rocksdb::FSWritableFile> file,
              const SpaceGuardFs* fs)
      : FSWritableFileOwnerWrapper(std::move(file)), fs_(fs) {}

  rocksdb::IOStatus Append(const rocksdb::Slice& data,
                           const rocksdb::IOOptions& options,
                           rocksdb::IODebugContext* dbg) override;
  rocksdb::IOStatus Append(const rocksdb::Slice& data,
                           const rocksdb::IOOptions& options,
                           const rocksdb::DataVerificationInfo& info,
                           rocksdb::IODebugContext* dbg) override;
  rocksdb::IOStatus PositionedAppend(const rocksdb::Slice& data,
                                     uint64_t offset,
                                     const rocksdb::IOOptions& options,
                                     rocksdb::IODebugContext* dbg) override;
  rocksdb::IOStatus PositionedAppend(const rocksdb::Slice& data,
                                     uint64_t offset,
                                     const rocksdb::IOOptions& options,
                                     const rocksdb::DataVerificationInfo& info,
                                     rocksdb::IODebugContext* dbg) override;

 private:
  const SpaceGuardFs* const fs_;
};

class SpaceGuardFs final : public rocksdb::FileSystemWrapper {
 public:
  SpaceGuardFs(std::string dir, NoSpaceHook hook, FreeBytesFn free_bytes)
      : FileSystemWrapper(rocksdb::FileSystem::Default()),
        dir_(std::move(dir)),
        hook_(std::move(hook)),
        free_bytes_(std::move(free_bytes)) {}

  const char* Name() const override { return "SpaceGuardFs"; }

  // Calls the hook when `bytes` and the margin would not fit. A folder
  // whose free space cannot be read is left to RocksDB.
  void Check(size_t bytes) const {
    absl::StatusOr<int64_t> free = free_bytes_(dir_);
    if (free.ok() &&
        *free < static_cast<int64_t>(bytes) + kMinFreeAfterAppend) {
      hook_();
    }
  }

  rocksdb::IOStatus NewWritableFile(
      const std::string& name, const rocksdb::FileOptions& options,
      std::unique_ptr<rocksdb::FSWritableFile>* result,
      rocksdb::IODebugContext* dbg) override {
    return Guard(target()->NewWritableFile(name, options, result, dbg), result);
  }
  rocksdb::IOStatus ReopenWritableFile(
      const std::string& name, const rocksdb::FileOptions& options,
      std::unique_ptr<rocksdb::FSWritableFile>* result,
      rocksdb::IODebugContext* dbg) override {
    return Guard(target()->ReopenWritableFile(name, options, result, dbg),
                 result);
  }
  rocksdb::IOStatus ReuseWritableFile(
      const std::string& name, const std::string& old_name,
      const rocksdb::FileOptions& options,
      std::unique_ptr<rocksdb::FSWritableFile>* result,
      rocksdb::IODebugContext* dbg) override {
    return Guard(
        target()->ReuseWritableFile(name, old_name, options, result, dbg),
        result);
  }

 private:
  rocksdb::IOStatus Guard(rocksdb::IOStatus s,
                          std::unique_ptr<rocksdb::FSWritableFile>* result) {
    if (s.ok() && *result != nullptr) {
      *result = std::make_unique<GuardedFile>(std::move(*result), this);
    }
    return s;
  }

  const std::string dir_;
  const NoSpaceHook hook_;
  const FreeBytesFn free_bytes_;
};

rocksdb::IOStatus GuardedFile::Append(const rocksdb::Slice& data,
                                      const rocksdb::IOOptions& options,
                                      rocksdb::IODebugContext* dbg) {
  fs_->Check(data.size());
  return target()->Append(data, options, dbg);
}

rocksdb::IOStatus GuardedFile::Append(const rocksdb::Slice& data,
                                      const rocksdb::IOOptions& options,
                                      const rocksdb::DataVerificationInfo& info,
                                      rocksdb::IODebugContext* dbg) {
  fs_->Check(data.size());
  return target()->Append(data, options, info, dbg);
}

rocksdb::IOStatus GuardedFile::PositionedAppend(
    const rocksdb::Slice& data, uint64_t offset,
    const rocksdb::IOOptions& options, rocksdb::IODebugContext* dbg) {
  fs_->Check(data.size());
  return target()->PositionedAppend(data, offset, options, dbg);
}

rocksdb::IOStatus GuardedFile::PositionedAppend(
    const rocksdb::Slice& data, uint64_t offset,
    const rocksdb::IOOptions& options,
    const rocksdb::DataVerificationInfo& info, rocksdb::IODebugContext* dbg) {
  fs_->Check(data.size());
  return target()->PositionedAppend(data, offset, options, info, dbg);
}

}  // namespace

std::unique_ptr<rocksdb::Env> NewSpaceGuardEnv(std::string dir,
                                               NoSpaceHook hook,
                                               FreeBytesFn free_bytes) {
  return rocksdb::NewCompositeEnv(std::make_shared<SpaceGuardFs>(
      std::move(dir), std::move(hook), std::move(free_bytes)));
}

}  // namespace fcrawl::storage
