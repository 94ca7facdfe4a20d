// The crawl's URL rules: the canonical form of a URL (url::Parse, then
// session-id query parameters removed, url::StripSessionIds, so session
// traps collapse into one URL; URLs longer than scope.max_url_bytes refused)
// and whether a host is in scope (scope.allowed_hosts and allowed_domains;
// both empty: every host; hash lookups, core/host_scope.h).
//
// Owns its rules (worker/crawl_setup.h's UrlScopeOf makes them from the
// config's scope section). Thread-safety: immutable after construction; the
// parse threads and the crawl thread share one.
#ifndef FCRAWL_WORKER_URL_SCOPE_H_
#define FCRAWL_WORKER_URL_SCOPE_H_

#include <optional>
#include <utility>

#include "absl/strings/string_view.h"
#include "core/host_scope.h"
#include "core/url.h"

namespace fcrawl::worker {

class UrlScope {
 public:
  // URLs longer than `max_url_bytes` are refused; `hosts` says which hosts
  // are in scope.
  UrlScope(int max_url_bytes, url::HostScope hosts)
      : max_url_bytes_(max_url_bytes), hosts_(std::move(hosts)) {}

  // nullopt when `spec` does not parse or its canonical form is too long.
  std::optional<url::Url> Canonical(absl::string_view spec) const;
  // The same for a URL parsed already (html::Link::parsed): no second parse.
  std::optional<url::Url> Canonical(const url::Url& u) const;
  // `host` as url::Url::host() gives it.
  bool InScope(absl::string_view host) const { return hosts_.Contains(host); }

 private:
  const int max_url_bytes_;
  const url::HostScope hosts_;
};

}  // namespace fcrawl::worker

#endif  // FCRAWL_WORKER_URL_SCOPE_H_
