// libFuzzer target for URL parsing, normalisation and resolution (core/url.h).
//
// The input is split at its first '\n' into a base URL and a reference (an
// href as found in a page); without a '\n' the whole input is both. Checked:
//  - whatever Parse or Resolve accepts is a well-formed normalised URL: at
//    most kMaxUrlLength bytes, http/https, non-empty host, path starting with
//    '/', port -1 or a non-default port in 1..65535, the spec assembled from
//    its parts, no fragment, no byte that must be escaped, escapes with
//    upper-case hex and none of an unreserved character;
//  - normalisation is idempotent: Parse(u.spec()) == u (url.h promises it for
//    every Url that Parse or Resolve produced);
//  - resolving a URL's own spec or a fragment-only reference gives the URL;
//  - a reference that Parse accepts resolves to the same URL against any base;
//  - Structure, Distance, ClassifyLink, RegistrableDomain agree on self-links.
//
// Built as a fuzzer by fuzz/CMakeLists.txt (deploy/fuzz.sh runs it) and, with
// -DFCRAWL_FUZZ_REPLAY, into tests/fuzz_replay_test, which runs FuzzUrl over
// every file of fuzz/corpus/url/.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "core/url.h"
#include "fuzz/fuzz_check.h"

namespace fcrawl::fuzz {
namespace {

using url::Url;

bool IsHex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F') ||
         (c >= 'a' && c <= 'f');
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return c - 'a' + 10;
}

bool IsUnreserved(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
         (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' || c == '~';
}

// Bytes url.h says are always percent-encoded in the path and query.
bool MustBeEscaped(unsigned char c) {
  if (c <= 0x20 || c >= 0x7f) return true;
  return absl::StrContains("<>\"^`{|}[]", static_cast<char>(c));
}

void CheckEscapes(absl::string_view part, const std::string& spec) {
  for (size_t i = 0; i < part.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(part[i]);
    FUZZ_CHECK(
        !MustBeEscaped(c),
        absl::StrCat("unescaped byte ", static_cast<int>(c), " in ", spec));
    if (c != '%') continue;
    FUZZ_CHECK(i + 2 < part.size(), absl::StrCat("truncated escape in ", spec));
    FUZZ_CHECK(IsHex(part[i + 1]) && IsHex(part[i + 2]),
               absl::StrCat("bad escape in ", spec));
    FUZZ_CHECK(!(part[i + 1] >= 'a' && part[i + 1] <= 'f') &&
                   !(part[i + 2] >= 'a' && part[i + 2] <= 'f'),
               absl::StrCat("lower-case escape in ", spec));
    int value = HexValue(part[i + 1]) * 16 + HexValue(part[i + 2]);
    FUZZ_CHECK(!IsUnreserved(static_cast<unsigned char>(value)),
               absl::StrCat("escaped unreserved character in ", spec));
    i += 2;
  }
}

// Everything url.h promises about a Url that Parse or Resolve returned.
void CheckUrl(const Url& u) {
  const std::string& spec = u.spec();
  FUZZ_CHECK(spec.size() <= url::kMaxUrlLength,
             absl::StrCat("spec of ", spec.size(), " bytes"));
  FUZZ_CHECK(u.scheme() == "http" || u.scheme() == "https", spec);
  FUZZ_CHECK(!u.host().empty(), spec);
  FUZZ_CHECK(!u.path().empty() && u.path()[0] == '/', spec);
  FUZZ_CHECK(u.port() == -1 || (u.port() >= 1 && u.port() <= 65535), spec);
  FUZZ_CHECK(!(u.port() == 80 && u.scheme() == "http") &&
                 !(u.port() == 443 && u.scheme() == "https"),
             absl::StrCat("default port kept: ", spec));
  std::string assembled = absl::StrCat(u.scheme(), "://", u.host());
  if (u.port() != -1) absl::StrAppend(&assembled, ":", u.port());
  absl::StrAppend(&assembled, u.path());
  if (!u.query().empty()) absl::StrAppend(&assembled, "?", u.query());
  FUZZ_CHECK(assembled == spec,
             absl::StrCat("parts give ", assembled, ", spec is ", spec));
  FUZZ_CHECK(spec.find('#') == std::string::npos,
             absl::StrCat("fragment kept: ", spec));
  for (char ch : u.host()) {
    unsigned char c = static_cast<unsigned char>(ch);
    FUZZ_CHECK(c > 0x20 && c < 0x7f && !(c >= 'A' && c <= 'Z'),
               absl::StrCat("host byte ", static_cast<int>(c), " in ", spec));
  }
  CheckEscapes(u.path(), spec);
  CheckEscapes(u.query(), spec);

  // Idempotent normalisation.
  absl::StatusOr<Url> again = url::Parse(spec);
  FUZZ_CHECK(again.ok(), absl::StrCat("spec does not re-parse: ", spec, ": ",
                                      again.status().ToString()));
  FUZZ_CHECK(*again == u,
             absl::StrCat("re-parse changes ", spec, " to ", again->spec()));
  FUZZ_CHECK(again->host() == u.host() && again->port() == u.port() &&
                 again->path() == u.path() && again->query() == u.query(),
             absl::StrCat("re-parse changes the parts of ", spec));

  // Path helpers.
  absl::string_view dir = u.Directory();
  FUZZ_CHECK(!dir.empty() && dir.back() == '/' &&
                 u.path().substr(0, dir.size()) == dir,
             absl::StrCat("Directory() of ", spec));
  for (const std::string& segment : u.PathSegments()) {
    FUZZ_CHECK(!segment.empty() && segment.find('/') == std::string::npos,
               absl::StrCat("PathSegments() of ", spec));
  }

  // The crawl measures on a self-link.
  url::UrlStructure s = url::Structure(u);
  FUZZ_CHECK(s.host == u.host(), spec);
  FUZZ_CHECK(s.dirs == u.PathSegments(), spec);
  std::optional<int> d = url::Distance(s, s);
  FUZZ_CHECK(d.has_value() && *d == 0, absl::StrCat("self-distance of ", spec));
  FUZZ_CHECK(url::ClassifyLink(u, u) == url::LinkType::kHorizontal,
             absl::StrCat("self-link type of ", spec));
  std::string domain = url::RegistrableDomain(u.host());
  FUZZ_CHECK(!domain.empty() && domain.size() <= u.host().size() &&
                 u.host().substr(u.host().size() - domain.size()) == domain,
             absl::StrCat("registrable domain '", domain, "' of ", spec));

  // Resolving the URL's own spec, or a fragment, against it gives the URL.
  absl::StatusOr<Url> self = url::Resolve(u, spec);
  FUZZ_CHECK(self.ok() && *self == u,
             absl::StrCat("Resolve(u, u.spec()) for ", spec));
  absl::StatusOr<Url> fragment = url::Resolve(u, "#top");
  FUZZ_CHECK(fragment.ok() && *fragment == u,
             absl::StrCat("Resolve(u, \"#top\") for ", spec));
}

}  // namespace

int FuzzUrl(const uint8_t* data, size_t size) {
  absl::string_view input(reinterpret_cast<const char*>(data), size);
  size_t newline = input.find('\n');
  absl::string_view base_text = input.substr(0, newline);
  absl::string_view reference =
      newline == absl::string_view::npos ? input : input.substr(newline + 1);

  absl::StatusOr<Url> base = url::Parse(base_text);
  if (base.ok()) CheckUrl(*base);
  absl::StatusOr<Url> absolute = url::Parse(reference);
  if (absolute.ok()) CheckUrl(*absolute);
  if (!base.ok()) return 0;

  absl::StatusOr<Url> resolved = url::Resolve(*base, reference);
  if (resolved.ok()) {
    CheckUrl(*resolved);
    url::LinkType type = url::ClassifyLink(*base, *resolved);
    FUZZ_CHECK(!url::LinkTypeName(type).empty(), "");
    if (base->host() == resolved->host()) {
      FUZZ_CHECK(type != url::LinkType::kOutward,
                 absl::StrCat(base->spec(), " -> ", resolved->spec()));
      FUZZ_CHECK(url::Distance(url::Structure(*base), url::Structure(*resolved))
                     .has_value(),
                 "");
    } else {
      FUZZ_CHECK(type == url::LinkType::kOutward,
                 absl::StrCat(base->spec(), " -> ", resolved->spec()));
    }
  }
  if (absolute.ok()) {
    // An absolute URL means the same against any base.
    FUZZ_CHECK(resolved.ok(),
               absl::StrCat("Parse accepts the reference but Resolve says ",
                            resolved.status().ToString()));
    FUZZ_CHECK(*resolved == *absolute,
               absl::StrCat("Parse gives ", absolute->spec(),
                            ", Resolve gives ", resolved->spec()));
  }
  return 0;
}

}  // namespace fcrawl::fuzz

#ifndef FCRAWL_FUZZ_REPLAY
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return fcrawl::fuzz::FuzzUrl(data, size);
}
#endif
