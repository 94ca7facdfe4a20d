#include "protocol/robots_directives.h"

#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_split.h"

namespace fcrawl::protocol {
namespace {

// Directives that carry a value after a colon: "max-snippet: 20" is a
// directive, "fcrawl: noindex" names a crawler.
bool IsValuedDirective(absl::string_view name) {
  for (absl::string_view d : {"unavailable_after", "max-snippet",
                              "max-image-preview", "max-video-preview"}) {
    if (absl::EqualsIgnoreCase(name, d)) return true;
  }
  return false;
}

bool HasToken(absl::string_view list, absl::string_view token) {
  for (absl::string_view t :
       absl::StrSplit(list, absl::ByAnyChar(" \t\r\n\f"), absl::SkipEmpty())) {
    if (absl::EqualsIgnoreCase(t, token)) return true;
  }
  return false;
}

}  // namespace

void AddDirectiveList(absl::string_view list, RobotsDirectives* d) {
  for (absl::string_view item : absl::StrSplit(list, ',')) {
    item = absl::StripAsciiWhitespace(item);
    if (absl::EqualsIgnoreCase(item, "noindex")) {
      d->noindex = true;
    } else if (absl::EqualsIgnoreCase(item, "nofollow")) {
      d->nofollow = true;
    } else if (absl::EqualsIgnoreCase(item, "none")) {
      d->noindex = d->nofollow = true;
    }
  }
}

RobotsDirectives MetaDirectives(const html::Document& doc,
                                absl::string_view product_token) {
  RobotsDirectives d;
  for (const html::Node& n : doc.nodes) {
    if (!n.is_element() || n.tag != "meta") continue;
    const std::string* name = n.Attribute("name");
    const std::string* content = n.Attribute("content");
    if (name == nullptr || content == nullptr) continue;
    const absl::string_view who = absl::StripAsciiWhitespace(*name);
    if (absl::EqualsIgnoreCase(who, "robots") ||
        (!product_token.empty() &&
         absl::EqualsIgnoreCase(who, product_token))) {
      AddDirectiveList(*content, &d);
    }
  }
  return d;
}

RobotsDirectives HeaderDirectives(absl::string_view response_head,
                                  absl::string_view product_token) {
  RobotsDirectives d;
  for (absl::string_view line : absl::StrSplit(response_head, '\n')) {
    const size_t colon = line.find(':');
    if (colon == absl::string_view::npos ||
        !absl::EqualsIgnoreCase(
            absl::StripAsciiWhitespace(line.substr(0, colon)),
            "x-robots-tag")) {
      continue;
    }
    absl::string_view value =
        absl::StripAsciiWhitespace(line.substr(colon + 1));
    // "crawler: directives" applies to that crawler only.
    if (const size_t c = value.find(':'); c != absl::string_view::npos) {
      const absl::string_view first =
          absl::StripAsciiWhitespace(value.substr(0, c));
      if (!first.empty() && first.find(',') == absl::string_view::npos &&
          !IsValuedDirective(first)) {
        if (product_token.empty() ||
            !absl::EqualsIgnoreCase(first, product_token)) {
          continue;
        }
        value = value.substr(c + 1);
      }
    }
    AddDirectiveList(value, &d);
  }
  return d;
}

bool RelNofollow(const html::Document& doc, const html::Link& link) {
  if (link.kind != html::LinkKind::kAnchor &&
      link.kind != html::LinkKind::kArea) {
    return false;
  }
  if (link.node < 0 || static_cast<size_t>(link.node) >= doc.nodes.size()) {
    return false;
  }
  const std::string* rel = doc.nodes[link.node].Attribute("rel");
  return rel != nullptr && HasToken(*rel, "nofollow");
}

}  // namespace fcrawl::protocol
