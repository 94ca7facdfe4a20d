// QuarkHtmlBuilder ([QUARK] §3.3): the page with each block outlined and
// coloured by type. The DOM is re-serialised rather than the source patched,
// so the view is well-formed whatever the input was; scripts, event handlers
// and javascript: URLs are dropped so the view is safe to open.
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "quark/quark.h"

namespace fcrawl::quark {
namespace {

struct TypeStyle {
  const char* colour;
  const char* fill;
  const char* label;
};

TypeStyle StyleOf(BlockType type) {
  switch (type) {
    case BlockType::kContent:
      return {"#d62728", "rgba(214,39,40,0.10)", "content"};
    case BlockType::kRelatedLinks:
      return {"#2ca02c", "rgba(44,160,44,0.12)", "related links"};
    case BlockType::kNavigation:
      return {"#1f77b4", "rgba(31,119,180,0.12)", "navigation"};
    case BlockType::kNoise:
      return {"#8c6d9f", "rgba(140,109,159,0.10)", "noise"};
  }
  return {"#8c6d9f", "rgba(140,109,159,0.10)", "noise"};
}

bool IsVoid(absl::string_view tag) {
  static const char* const kVoid[] = {
      "area",  "base", "br",   "col",   "embed",  "hr",    "img",
      "input", "link", "meta", "param", "source", "track", "wbr"};
  for (const char* v : kVoid) {
    if (tag == v) return true;
  }
  return false;
}

bool Dropped(absl::string_view tag) {
  return tag == "script" || tag == "noscript" || tag == "link" ||
         tag == "meta" || tag == "base" || tag == "title" || tag == "style" ||
         tag == "iframe" || tag == "frame" || tag == "object" ||
         tag == "embed" || tag == "template";
}

bool ValidTagName(absl::string_view tag) {
  if (tag.empty()) return false;
  for (char c : tag) {
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '-' &&
        c != ':' && c != '_') {
      return false;
    }
  }
  return true;
}

bool SafeAttribute(absl::string_view name, absl::string_view value) {
  if (!ValidTagName(name)) return false;
  if (absl::StartsWithIgnoreCase(name, "on")) return false;  // handlers
  if (name == "style") return true;
  std::string v = absl::AsciiStrToLower(absl::StripAsciiWhitespace(value));
  return !absl::StartsWith(v, "javascript:") && !absl::StartsWith(v, "data:");
}

constexpr char kCss[] = R"css(
body { margin-top: 4em; }
[data-quark] { outline: 3px solid var(--quark-colour); outline-offset: -2px;
  background-color: var(--quark-fill) !important; position: relative;
  padding-top: 1.4em !important; }
[data-quark]::before { content: attr(data-quark-label); position: absolute;
  top: 0; left: 0; z-index: 10; font: bold 11px/1.3 sans-serif; color: #fff;
  background: var(--quark-colour); padding: 0 4px; pointer-events: none; }
#quark-legend { position: fixed; top: 0; left: 0; right: 0; z-index: 1000;
  background: #fff; border-bottom: 1px solid #999; padding: 6px 10px;
  font: 14px sans-serif; }
#quark-legend span { display: inline-block; margin-right: 14px; padding: 1px 6px;
  border: 3px solid; }
)css";

}  // namespace

std::string RenderView(const AnalyzedPage& page) {
  const html::Document& doc = page.document;
  const std::vector<html::Node>& nodes = doc.nodes;
  std::vector<const Block*> block_of(nodes.size(), nullptr);
  for (const Block& b : page.segmentation.blocks) block_of[b.node] = &b;

  // The root's and head's blocks (leftover text) are drawn on <body>.
  int32_t body = -1;
  for (int32_t c : nodes[0].children) {
    if (nodes[c].kind == html::Node::Kind::kElement && nodes[c].tag == "body") {
      body = c;
    }
  }
  if (body >= 0 && block_of[body] == nullptr) block_of[body] = block_of[0];

  std::string out;
  out.reserve(doc.nodes.size() * 48 + 4096);
  out.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n<title>");
  html::AppendEscaped(
      absl::StrCat("Quark view: ", doc.title.empty() ? doc.url : doc.title),
      &out);
  out.append("</title>\n");
  if (!doc.base_url.empty()) {
    out.append("<base href=\"");
    html::AppendEscaped(doc.base_url, &out);
    out.append("\">\n");
  }
  out.append("<style>").append(kCss).append("</style></head>\n");

  size_t counts[4] = {0, 0, 0, 0};
  for (const Block& b : page.segmentation.blocks) {
    ++counts[static_cast<int>(b.type)];
  }
  std::string legend = "<div id=\"quark-legend\"><b>Quark blocks:</b> ";
  for (BlockType t : {BlockType::kContent, BlockType::kRelatedLinks,
                      BlockType::kNavigation, BlockType::kNoise}) {
    TypeStyle s = StyleOf(t);
    absl::StrAppendFormat(&legend,
                          "<span style=\"border-color:%s;background:%s\">%s "
                          "(%d)</span>",
                          s.colour, s.fill, s.label,
                          counts[static_cast<int>(t)]);
  }
  legend.append("</div>\n");
  // Blocks inside <head> (the title) are not part of the body: show them as
  // a box under the legend so every block is drawn.
  for (const Block& b : page.segmentation.blocks) {
    if (nodes[b.node].tag != "head") continue;
    TypeStyle s = StyleOf(b.type);
    absl::StrAppendFormat(
        &legend,
        "<div data-quark=\"%s\" data-quark-label=\"#%d %s (head)\" "
        "style=\"--quark-colour:%s;--quark-fill:%s;padding:1.2em 4px 4px\">",
        BlockTypeName(b.type), b.index, s.label, s.colour, s.fill);
    html::AppendEscaped(b.text, &legend);
    legend.append("</div>\n");
  }

  int32_t start = body >= 0 ? body : 0;
  // Iterative serialisation: a negative entry closes element ~entry.
  std::vector<int32_t> stack = {start};
  while (!stack.empty()) {
    int32_t entry = stack.back();
    stack.pop_back();
    if (entry < 0) {
      out.append("</").append(nodes[~entry].tag).append(">");
      continue;
    }
    const html::Node& node = nodes[entry];
    if (node.kind == html::Node::Kind::kText) {
      html::AppendEscaped(node.text, &out);
      continue;
    }
    if (Dropped(node.tag) || !ValidTagName(node.tag) ||
        (entry != start && node.tag == "head")) {
      continue;
    }
    absl::string_view tag =
        entry == start ? absl::string_view("body") : node.tag;
    out.append("<").append(tag.data(), tag.size());
    for (const auto& [name, value] : node.attributes) {
      if (!SafeAttribute(name, value)) continue;
      if (block_of[entry] != nullptr && name == "style") continue;
      out.append(" ").append(name).append("=\"");
      html::AppendEscaped(value, &out);
      out.append("\"");
    }
    if (const Block* b = block_of[entry]) {
      TypeStyle s = StyleOf(b->type);
      std::string label = absl::StrCat("#", b->index, " ", s.label);
      if (!b->group_title.empty())
        absl::StrAppend(&label, ": ", b->group_title);
      absl::StrAppend(&out, " data-quark=\"", BlockTypeName(b->type),
                      "\" data-quark-label=\"");
      html::AppendEscaped(label, &out);
      absl::StrAppendFormat(&out,
                            "\" style=\"--quark-colour:%s;--quark-fill:%s\"",
                            s.colour, s.fill);
    }
    out.append(">");
    if (entry == start) out.append(legend);
    if (IsVoid(tag)) continue;
    stack.push_back(~entry);
    for (auto it = node.children.rbegin(); it != node.children.rend(); ++it) {
      stack.push_back(*it);
    }
  }
  out.append("</html>\n");
  return out;
}

}  // namespace fcrawl::quark
