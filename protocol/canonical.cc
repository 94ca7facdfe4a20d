#include "protocol/canonical.h"

#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "core/url.h"

namespace fcrawl::protocol {
namespace {

// Whether the space-separated relation list `rel` holds "canonical".
bool RelIsCanonical(absl::string_view rel) {
  for (absl::string_view t :
       absl::StrSplit(rel, absl::ByAnyChar(" \t\r\n\f"), absl::SkipEmpty())) {
    if (absl::EqualsIgnoreCase(t, "canonical")) return true;
  }
  return false;
}

// The rel parameter of one link-value's parameters ("; rel=canonical;
// title=..."), quotes removed.
std::string RelParameter(absl::string_view params) {
  for (absl::string_view p : absl::StrSplit(params, ';')) {
    const size_t eq = p.find('=');
    if (eq == absl::string_view::npos) continue;
    if (!absl::EqualsIgnoreCase(absl::StripAsciiWhitespace(p.substr(0, eq)),
                                "rel")) {
      continue;
    }
    absl::string_view v = absl::StripAsciiWhitespace(p.substr(eq + 1));
    if (v.size() >= 2 && v.front() == '"' && v.back() == '"') {
      v = v.substr(1, v.size() - 2);
    }
    return std::string(v);
  }
  return "";
}

// Appends the canonical targets of one Link header value (RFC 8288:
// `<uri>; param, <uri>; param`). A quoted parameter may hold commas.
void AddHeaderValue(absl::string_view value, std::vector<std::string>* out) {
  size_t i = 0;
  while (i < value.size()) {
    const size_t open = value.find('<', i);
    if (open == absl::string_view::npos) return;
    const size_t close = value.find('>', open + 1);
    if (close == absl::string_view::npos) return;
    const absl::string_view target = value.substr(open + 1, close - open - 1);
    // The parameters run to the next comma outside quotes.
    size_t end = close + 1;
    bool quoted = false;
    for (; end < value.size(); ++end) {
      if (value[end] == '"') quoted = !quoted;
      if (value[end] == ',' && !quoted) break;
    }
    if (RelIsCanonical(
            RelParameter(value.substr(close + 1, end - close - 1)))) {
      out->emplace_back(absl::StripAsciiWhitespace(target));
    }
    i = end + 1;
  }
}

bool InHead(const html::Document& doc, const html::Node& n) {
  for (int32_t p = n.parent, steps = 0;
       p >= 0 && static_cast<size_t>(p) < doc.nodes.size() && steps < 512;
       p = doc.nodes[p].parent, ++steps) {
    if (doc.nodes[p].tag == "head") return true;
    if (doc.nodes[p].tag == "body") return false;
  }
  return false;
}

}  // namespace

std::vector<std::string> HeaderCanonicals(absl::string_view response_head) {
  std::vector<std::string> out;
  for (absl::string_view line : absl::StrSplit(response_head, '\n')) {
    const size_t colon = line.find(':');
    if (colon == absl::string_view::npos ||
        !absl::EqualsIgnoreCase(
            absl::StripAsciiWhitespace(line.substr(0, colon)), "link")) {
      continue;
    }
    AddHeaderValue(line.substr(colon + 1), &out);
  }
  return out;
}

std::vector<std::string> DocumentCanonicals(const html::Document& doc) {
  std::vector<std::string> out;
  for (const html::Node& n : doc.nodes) {
    if (!n.is_element() || n.tag != "link") continue;
    const std::string* rel = n.Attribute("rel");
    const std::string* href = n.Attribute("href");
    if (rel == nullptr || href == nullptr || !RelIsCanonical(*rel)) continue;
    // A canonical in the body is not the page's own: user content (a
    // comment, a forum post) could put it there.
    if (!InHead(doc, n)) continue;
    out.push_back(*href);
  }
  return out;
}

std::optional<std::string> DeclaredCanonical(const html::Document& doc,
                                             absl::string_view response_head,
                                             absl::string_view page_url) {
  absl::StatusOr<url::Url> page = url::Parse(page_url);
  if (!page.ok()) return std::nullopt;
  // The header resolves against the page's URL, the element against the
  // document's base.
  absl::StatusOr<url::Url> base =
      doc.base_url.empty() ? page : url::Parse(doc.base_url);
  if (!base.ok()) base = page;
  std::optional<std::string> chosen;
  auto consider = [&](const url::Url& against, absl::string_view ref) {
    absl::StatusOr<url::Url> u = url::Resolve(against, ref);
    if (!u.ok()) return false;  // an unusable declaration: none is trusted
    if (chosen.has_value() && *chosen != u->spec()) return false;
    chosen = u->spec();
    return true;
  };
  for (const std::string& ref : HeaderCanonicals(response_head)) {
    if (!consider(*page, ref)) return std::nullopt;
  }
  for (const std::string& ref : DocumentCanonicals(doc)) {
    if (!consider(*base, ref)) return std::nullopt;
  }
  if (!chosen.has_value()) return std::nullopt;
  absl::StatusOr<url::Url> c = url::Parse(*chosen);
  if (!c.ok() || url::RegistrableDomain(c->host()) !=
                     url::RegistrableDomain(page->host())) {
    return std::nullopt;
  }
  return chosen;
}

}  // namespace fcrawl::protocol
