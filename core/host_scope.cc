#include "core/host_scope.h"

#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "core/url.h"

namespace fcrawl::url {

namespace {

// Whether url::Parse would write `s` back unchanged as the host of
// http://s/: a lower-case ASCII DNS name of letters, digits and inner
// hyphens, labels of 1 to 63 bytes, at most 253 bytes, whose last label
// starts with a letter (so it is no IPv4 address in any of the forms the
// URL standard reads) and no label of which is punycode ("xn--", which
// Parse checks). Long scope lists are made of such names; this spares
// them a URL parse each, and anything else takes the parse.
bool IsPlainDnsName(absl::string_view s) {
  if (s.empty() || s.size() > 253) return false;
  absl::string_view last;
  for (absl::string_view label : absl::StrSplit(s, '.')) {
    if (label.empty() || label.size() > 63 || label.front() == '-' ||
        label.back() == '-' || absl::StartsWith(label, "xn--")) {
      return false;
    }
    for (const char c : label) {
      if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) {
        return false;
      }
    }
    last = label;
  }
  return last.front() >= 'a';
}

}  // namespace

std::string NormalisedHost(absl::string_view s) {
  if (IsPlainDnsName(s)) return std::string(s);
  if (s.empty() || s.find_first_of(":/?#@\\ ") != absl::string_view::npos) {
    // ':' is allowed only inside an IPv6 literal.
    if (!(absl::StartsWith(s, "[") && absl::EndsWith(s, "]") &&
          s.find_first_of("/?#@\\ ") == absl::string_view::npos)) {
      return "";
    }
  }
  absl::StatusOr<Url> u = Parse(absl::StrCat("http://", s, "/"));
  if (!u.ok() || u->port() != -1 || u->path() != "/" || !u->query().empty()) {
    return "";
  }
  return std::string(u->host());
}

void HostScope::Add(absl::string_view entry, bool domain) {
  std::string host = NormalisedHost(entry);
  if (host.empty()) return;
  (domain ? domains_ : hosts_).insert(std::move(host));
}

bool HostScope::Contains(absl::string_view host) const {
  if (everything_) return true;
  if (hosts_.contains(host)) return true;
  if (domains_.empty()) return false;
  // The host itself, then each parent name: a.b.example.com, b.example.com,
  // example.com, com.
  for (absl::string_view rest = host; !rest.empty();) {
    if (domains_.contains(rest)) return true;
    const size_t dot = rest.find('.');
    if (dot == absl::string_view::npos) break;
    rest.remove_prefix(dot + 1);
  }
  return false;
}

}  // namespace fcrawl::url
