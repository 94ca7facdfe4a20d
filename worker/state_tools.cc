#include "worker/state_tools.h"

#include <memory>
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "focus/url_rule.h"
#include "google/protobuf/util/json_util.h"
#include "proto/link_state.pb.h"
#include "proto/url_rules.pb.h"
#include "storage/link_db.h"

namespace fcrawl::worker {

using ::fcrawl::focus::FormatSiteRules;
using ::fcrawl::proto::LinkRecord;

absl::Status DumpLinkState(const std::string& db_dir, FILE* out) {
  absl::StatusOr<std::unique_ptr<storage::LinkDb>> db =
      storage::LinkDb::OpenReadOnly(db_dir);
  if (!db.ok()) return db.status();
  google::protobuf::util::JsonPrintOptions jo;
  jo.preserve_proto_field_names = true;
  jo.always_print_primitive_fields = true;
  absl::Status write_error;
  absl::Status s = (*db)->ForEachRecord("", [&](const LinkRecord& r) {
    std::string line;
    if (!google::protobuf::util::MessageToJsonString(r, &line, jo).ok()) {
      return true;
    }
    line.push_back('\n');
    if (std::fwrite(line.data(), 1, line.size(), out) != line.size()) {
      write_error = absl::DataLossError("cannot write the dump");
      return false;
    }
    return true;
  });
  if (!s.ok()) return s;
  return write_error;
}

absl::StatusOr<std::string> ListUrlPatterns(const std::string& db_dir,
                                            const std::string& host) {
  absl::StatusOr<std::unique_ptr<storage::LinkDb>> db =
      storage::LinkDb::OpenReadOnly(db_dir);
  if (!db.ok()) return db.status();
  std::string out;
  absl::Status bad;
  auto add = [&](absl::string_view site, absl::string_view bytes) {
    proto::SiteUrlRules rules;
    if (!rules.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
      bad =
          absl::DataLossError(absl::StrCat("the stored URL patterns of ", site,
                                           " in ", db_dir, " do not parse"));
      return false;
    }
    absl::StrAppend(&out, FormatSiteRules(rules));
    return true;
  };
  if (!host.empty()) {
    const std::string key =
        storage::HostKey(absl::StrCat("http://", host, "/"));
    absl::StatusOr<std::optional<std::string>> bytes =
        (*db)->GetSiteState(key.empty() ? host : key);
    if (!bytes.ok()) return bytes.status();
    if (!bytes->has_value()) {
      return absl::NotFoundError(absl::StrCat(
          "no URL patterns stored for host '", host, "' in ", db_dir));
    }
    add(host, **bytes);
  } else {
    absl::Status s = (*db)->ForEachSiteState(add);
    if (!s.ok()) return s;
    if (out.empty() && bad.ok()) {
      return absl::NotFoundError(
          absl::StrCat("no URL patterns stored in ", db_dir));
    }
  }
  if (!bad.ok()) return bad;
  return out;
}

}  // namespace fcrawl::worker
