#include "core/html_noscript.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace fcrawl::html {
namespace {

// The raw-text and escapable raw-text elements of HTML: their content runs
// to their own end tag, whatever it holds.
constexpr absl::string_view kRawText[] = {"iframe", "noembed",  "noframes",
                                          "xmp",    "textarea", "title",
                                          "style",  "script"};

bool EndsTagName(absl::string_view in, size_t i) {
  if (i >= in.size()) return true;
  const char c = in[i];
  return c == '>' || c == '/' ||
         absl::ascii_isspace(static_cast<unsigned char>(c));
}

// The first "<name" (or "</name" with `end`) at or after `from` and before
// `to` whose name ends there, case-insensitively; npos when none. Each
// '<' is looked at once, so a search is linear in to − from.
size_t FindTag(absl::string_view in, size_t from, size_t to,
               absl::string_view name, bool end) {
  const size_t open = end ? 2 : 1;
  for (size_t i = in.find('<', from); i != absl::string_view::npos && i < to;
       i = in.find('<', i + 1)) {
    if (end && (i + 1 >= in.size() || in[i + 1] != '/')) continue;
    if (i + open + name.size() > to) return absl::string_view::npos;
    if (absl::EqualsIgnoreCase(in.substr(i + open, name.size()), name) &&
        EndsTagName(in, i + open + name.size())) {
      return i;
    }
  }
  return absl::string_view::npos;
}

}  // namespace

bool CloseRawTextInNoscript(absl::string_view in, std::string* out) {
  std::vector<std::pair<size_t, absl::string_view>> inserts;  // offset, name
  size_t pos = 0;
  while (true) {
    const size_t start = FindTag(in, pos, in.size(), "noscript", false);
    if (start == absl::string_view::npos) break;
    const size_t gt = in.find('>', start);
    if (gt == absl::string_view::npos) break;
    const size_t end = FindTag(in, gt + 1, in.size(), "noscript", true);
    if (end == absl::string_view::npos) break;
    // The first raw-text element opened inside: what follows its start tag
    // is its text to the parser, so it is the one that must end here.
    size_t first = absl::string_view::npos;
    absl::string_view first_name;
    for (absl::string_view name : kRawText) {
      const size_t at = FindTag(in, gt + 1, end, name, false);
      if (at < first) {
        first = at;
        first_name = name;
      }
    }
    if (first != absl::string_view::npos &&
        FindTag(in, first + 1, end, first_name, true) ==
            absl::string_view::npos) {
      inserts.emplace_back(end, first_name);
    }
    pos = end + 1;
  }
  if (inserts.empty()) return false;
  std::string result;
  result.reserve(in.size() + inserts.size() * 12);
  size_t copied = 0;
  for (const auto& [at, name] : inserts) {
    absl::StrAppend(&result, in.substr(copied, at - copied), "</", name, ">");
    copied = at;
  }
  absl::StrAppend(&result, in.substr(copied));
  *out = std::move(result);
  return true;
}

}  // namespace fcrawl::html
