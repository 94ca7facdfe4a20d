#include "worker/url_scope.h"

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace fcrawl::worker {

std::optional<url::Url> UrlScope::Canonical(absl::string_view spec) const {
  absl::StatusOr<url::Url> u = url::Parse(spec);
  if (!u.ok()) return std::nullopt;
  return Canonical(*u);
}

std::optional<url::Url> UrlScope::Canonical(const url::Url& u) const {
  url::Url stripped = url::StripSessionIds(u);
  if (stripped.spec().size() > static_cast<size_t>(max_url_bytes_)) {
    return std::nullopt;
  }
  return stripped;
}

}  // namespace fcrawl::worker
