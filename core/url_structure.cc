// The URL-structure measures of core/url.h: Structure and Distance
// ([MMTOPIC] §4.3.3–4.3.5) and the link types ([INTEREST]). They only read
// the parts of a Url that Parse or Resolve built (url.cc), so they live
// apart from parsing and normalisation.
#include <algorithm>
#include <optional>
#include <string>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "core/url.h"

namespace fcrawl::url {

UrlStructure Structure(const Url& url) {
  UrlStructure s;
  s.host = std::string(url.host());
  s.dirs = url.PathSegments();
  for (const absl::string_view piece :
       absl::StrSplit(url.query(), '&', absl::SkipEmpty())) {
    // "k" without '=' gives ("k", ""): the missing half stays empty.
    std::pair<std::string, std::string> pair =
        absl::StrSplit(piece, absl::MaxSplits('=', 1));
    s.query.push_back(std::move(pair));
  }
  return s;
}

std::optional<int> Distance(const UrlStructure& a, const UrlStructure& b) {
  if (a.host != b.host) return std::nullopt;
  const size_t m = std::min(a.dirs.size(), b.dirs.size());
  const size_t n = std::max(a.dirs.size(), b.dirs.size());
  int k = 0;
  for (size_t i = 0; i < m; ++i) {
    if (a.dirs[i] != b.dirs[i]) ++k;
  }
  constexpr int kHostDistance = 1;  // Same host.
  const int path_distance = 4 * k + 2 * static_cast<int>(n - m);
  const int query_distance = a.query == b.query ? 0 : 1;
  return kHostDistance * (path_distance + 1) * (query_distance + 1) - 1;
}

LinkType ClassifyLink(const Url& from, const Url& to) {
  if (from.host() != to.host()) return LinkType::kOutward;
  const absl::string_view from_dir = from.Directory();
  const absl::string_view to_dir = to.Directory();
  // Directories end in '/', so a string prefix is a whole-segment prefix.
  if (from_dir == to_dir) return LinkType::kHorizontal;
  if (absl::StartsWith(to_dir, from_dir)) return LinkType::kDownward;
  if (absl::StartsWith(from_dir, to_dir)) return LinkType::kUpward;
  return LinkType::kCrosswise;
}

absl::string_view LinkTypeName(LinkType type) {
  switch (type) {
    case LinkType::kDownward:
      return "downward";
    case LinkType::kUpward:
      return "upward";
    case LinkType::kHorizontal:
      return "horizontal";
    case LinkType::kCrosswise:
      return "crosswise";
    case LinkType::kOutward:
      return "outward";
  }
  return "unknown";
}

}  // namespace fcrawl::url
