// DocumentDifference (core/html.h).
#include <string>

#include "absl/strings/str_cat.h"
#include "core/html.h"

namespace fcrawl::html {

std::string DocumentDifference(const Document& a, const Document& b) {
  auto differ = [](absl::string_view what, const auto& x, const auto& y) {
    return x == y ? std::string() : absl::StrCat(what, " differ");
  };
  for (const std::string& d :
       {differ("urls", a.url, b.url),
        differ("base urls", a.base_url, b.base_url),
        differ("charsets", a.charset, b.charset),
        differ("charset sources", a.charset_source, b.charset_source),
        differ("titles", a.title, b.title),
        differ("keywords", a.keywords, b.keywords),
        differ("descriptions", a.description, b.description),
        differ("media flags", a.has_media, b.has_media),
        differ("JSON-LD", a.structured_data, b.structured_data),
        differ("invalid sequence counts", a.invalid_sequences,
               b.invalid_sequences),
        differ("warnings", a.warnings, b.warnings)}) {
    if (!d.empty()) return d;
  }
  if (a.nodes.size() != b.nodes.size()) {
    return absl::StrCat("node counts differ: ", a.nodes.size(), " and ",
                        b.nodes.size());
  }
  for (size_t i = 0; i < a.nodes.size(); ++i) {
    const Node& x = a.nodes[i];
    const Node& y = b.nodes[i];
    if (x.kind != y.kind || x.tag != y.tag || x.text != y.text ||
        x.parent != y.parent || x.children != y.children ||
        x.attributes != y.attributes || x.reconstructed != y.reconstructed ||
        x.unclosed != y.unclosed) {
      return absl::StrCat("node ", i, " differs: <", x.tag, "> '",
                          x.text.substr(0, 40), "' and <", y.tag, "> '",
                          y.text.substr(0, 40), "'");
    }
  }
  if (a.links.size() != b.links.size()) {
    return absl::StrCat("link counts differ: ", a.links.size(), " and ",
                        b.links.size());
  }
  for (size_t i = 0; i < a.links.size(); ++i) {
    const Link& x = a.links[i];
    const Link& y = b.links[i];
    if (x.url != y.url || x.anchor_text != y.anchor_text || x.kind != y.kind ||
        x.media != y.media || x.resolved != y.resolved || x.node != y.node) {
      return absl::StrCat("link ", i, " differs: ", x.url, " and ", y.url);
    }
  }
  return "";
}

}  // namespace fcrawl::html
