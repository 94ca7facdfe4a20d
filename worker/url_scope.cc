#include "worker/url_scope.h"

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace fcrawl::worker {

bool UrlScope::InScope(absl::string_view host) const {
  if (scope_.allowed_hosts().empty() && scope_.allowed_domains().empty()) {
    return true;
  }
  for (const std::string& h : scope_.allowed_hosts()) {
    if (absl::EqualsIgnoreCase(h, host)) return true;
  }
  for (const std::string& d : scope_.allowed_domains()) {
    if (absl::EqualsIgnoreCase(d, host)) return true;
    if (host.size() > d.size() &&
        absl::EndsWithIgnoreCase(host, absl::StrCat(".", d))) {
      return true;
    }
  }
  return false;
}

std::optional<url::Url> UrlScope::Canonical(absl::string_view spec) const {
  absl::StatusOr<url::Url> u = url::Parse(spec);
  if (!u.ok()) return std::nullopt;
  url::Url stripped = url::StripSessionIds(*u);
  if (stripped.spec().size() > static_cast<size_t>(scope_.max_url_bytes())) {
    return std::nullopt;
  }
  return stripped;
}

}  // namespace fcrawl::worker
