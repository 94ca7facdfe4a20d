// Scope membership of host names (a crawl's scope.allowed_hosts and
// allowed_domains): exact host names, and domains that admit themselves and
// every host under them. Both lists are hash sets, so a lookup costs one
// probe per label of the host whatever the lists' sizes (a crawl of a
// million-host list checks every link).
//
// Names are compared in the form url::Parse gives a URL's host: lower case,
// internationalised names in punycode (NormalisedHost), so "Bücher.de" in
// a list matches links to xn--bcher-kva.de.
//
// Thread-safety: immutable after construction; any thread.
#ifndef FCRAWL_CORE_HOST_SCOPE_H_
#define FCRAWL_CORE_HOST_SCOPE_H_

#include <iterator>
#include <string>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/string_view.h"

namespace fcrawl::url {

// `s` as url::Parse writes the host of http://s/ — lower case, punycode,
// IPv6 in brackets; "" when `s` is not a bare host name (a scheme, port,
// path, user or space in it, or a name that does not parse).
std::string NormalisedHost(absl::string_view s);

class HostScope {
 public:
  // Everything in scope.
  HostScope() = default;
  // The lists as a config gives them (any range of strings). Entries that
  // do not normalise are left out (config validation refuses them).
  // When both lists are empty, everything is in scope.
  template <typename Hosts, typename Domains>
  HostScope(const Hosts& hosts, const Domains& domains) {
    for (const auto& h : hosts) Add(h, /*domain=*/false);
    for (const auto& d : domains) Add(d, /*domain=*/true);
    everything_ = std::empty(hosts) && std::empty(domains);
  }

  // `host` (normalised, as url::Url::host()) is a listed host, a listed
  // domain or under one.
  bool Contains(absl::string_view host) const;

 private:
  void Add(absl::string_view entry, bool domain);

  bool everything_ = true;
  absl::flat_hash_set<std::string> hosts_;
  absl::flat_hash_set<std::string> domains_;
};

}  // namespace fcrawl::url

#endif  // FCRAWL_CORE_HOST_SCOPE_H_
