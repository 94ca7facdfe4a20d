#include "cluster/outcomes.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/message.h"

namespace fcrawl::cluster {

std::vector<std::pair<std::string, int64_t>> OutcomeClasses(
    const proto::FetchOutcomeCounts& counts) {
  const google::protobuf::Descriptor* d = counts.GetDescriptor();
  const google::protobuf::Reflection* r = counts.GetReflection();
  std::vector<std::pair<std::string, int64_t>> out;
  out.reserve(d->field_count());
  for (int i = 0; i < d->field_count(); ++i) {
    const google::protobuf::FieldDescriptor* f = d->field(i);
    if (f->number() == proto::FetchOutcomeCounts::kOnTopicHostsFieldNumber ||
        f->cpp_type() != google::protobuf::FieldDescriptor::CPPTYPE_INT64) {
      continue;
    }
    out.emplace_back(std::string(f->name()), r->GetInt64(counts, f));
  }
  return out;
}

absl::Status ValidateDeadFolders(
    const google::protobuf::RepeatedPtrField<proto::FolderOutcome>& folders) {
  if (folders.size() > kMaxDeadFolders) {
    return absl::InvalidArgumentError(
        absl::StrCat("stats.dead_folders has ", folders.size(),
                     " entries; at most ", kMaxDeadFolders));
  }
  for (int i = 0; i < folders.size(); ++i) {
    const proto::FolderOutcome& f = folders[i];
    const std::string at = absl::StrCat("stats.dead_folders[", i, "]");
    if (f.folder().empty() || f.folder().size() > kMaxFolderBytes) {
      return absl::InvalidArgumentError(absl::StrCat(
          at, ".folder must have 1 to ", kMaxFolderBytes, " bytes"));
    }
    if (f.fetches() < 0 || f.pages() < 0 || f.pages() > f.fetches()) {
      return absl::InvalidArgumentError(
          absl::StrCat(at, ": pages (", f.pages(), ") and fetches (",
                       f.fetches(), ") must be >= 0, pages <= fetches"));
    }
    if (!(f.page_probability() >= 0 && f.page_probability() <= 1)) {
      return absl::InvalidArgumentError(
          absl::StrCat(at, ".page_probability must be in [0, 1]"));
    }
  }
  return absl::OkStatus();
}

std::vector<proto::FolderOutcome> MergeDeadFolders(
    std::vector<proto::FolderOutcome> folders) {
  auto worse = [](const proto::FolderOutcome& a,
                  const proto::FolderOutcome& b) {
    const int64_t fa = a.fetches() - a.pages(), fb = b.fetches() - b.pages();
    if (fa != fb) return fa > fb;
    if (a.page_probability() != b.page_probability()) {
      return a.page_probability() < b.page_probability();
    }
    if (a.folder() != b.folder()) return a.folder() < b.folder();
    return a.worker() < b.worker();
  };
  const size_t keep = std::min(folders.size(), size_t{kMaxDeadFolders});
  std::partial_sort(folders.begin(), folders.begin() + keep, folders.end(),
                    worse);
  folders.resize(keep);
  return folders;
}

}  // namespace fcrawl::cluster
