#include "core/html.h"

#include <gumbo.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "core/arena.h"
#include "core/charset.h"
#include "core/html_nesting.h"
#include "core/html_noscript.h"
#include "core/html_raw_text.h"
#include "core/html_streamed.h"
#include "core/text.h"
#include "core/url.h"

namespace fcrawl::html {
namespace {

// Anchor text beyond this is not useful to any scorer and would let one link
// wrapped around a whole page cost as much as the page.
constexpr size_t kMaxAnchorBytes = 1024;

std::string TagName(const GumboElement& element) {
  if (element.tag != GUMBO_TAG_UNKNOWN) {
    return gumbo_normalized_tagname(element.tag);
  }
  GumboStringPiece piece = element.original_tag;
  gumbo_tag_from_original_text(&piece);
  std::string name(piece.data, piece.length);
  absl::AsciiStrToLower(&name);
  return name;
}

// Elements whose text children are not rendered text (scripts, styles) or are
// raw markup gumbo does not parse (iframe, noframes, noembed, xmp-like).
bool SkipTextOf(GumboTag tag) {
  switch (tag) {
    case GUMBO_TAG_SCRIPT:
    case GUMBO_TAG_STYLE:
    case GUMBO_TAG_IFRAME:
    case GUMBO_TAG_NOFRAMES:
    case GUMBO_TAG_NOEMBED:
    case GUMBO_TAG_TEMPLATE:
    case GUMBO_TAG_TEXTAREA:  // form fields: their text is not page prose
    case GUMBO_TAG_SELECT:
    case GUMBO_TAG_OPTION:
    case GUMBO_TAG_OPTGROUP:
    case GUMBO_TAG_DATALIST:
      return true;
    default:
      return false;
  }
}

// An element the page hides (the `hidden` attribute or an inline style with
// display:none or visibility:hidden): its text is no part of what a reader
// sees, though its links are still links. Sites keep templates, menus for
// scripts and spam there.
bool IsHidden(const GumboElement& element) {
  const GumboVector& attrs = element.attributes;
  for (unsigned i = 0; i < attrs.length; ++i) {
    const auto* a = static_cast<const GumboAttribute*>(attrs.data[i]);
    absl::string_view name(a->name);
    if (name == "hidden") return true;
    if (name == "style") {
      std::string style;
      for (char c : absl::string_view(a->value)) {
        if (c != ' ' && c != '\t' && c != '\n') {
          style.push_back(absl::ascii_tolower(static_cast<unsigned char>(c)));
        }
      }
      if (absl::StrContains(style, "display:none") ||
          absl::StrContains(style, "visibility:hidden")) {
        return true;
      }
    }
  }
  return false;
}

// A dialog the reader opens: a <dialog> without `open` (which browsers do
// not render), or an element with role=dialog or alertdialog (a modal
// shown by a script: terms of use, a size chart, a sign-up or cookie
// form). Shops and publishers keep thousands of words there that no reader
// counts as what the page says.
bool IsDialog(const GumboElement& element) {
  const GumboVector* attrs = &element.attributes;
  if (element.tag == GUMBO_TAG_UNKNOWN) {
    GumboStringPiece piece = element.original_tag;
    gumbo_tag_from_original_text(&piece);
    if (absl::EqualsIgnoreCase(absl::string_view(piece.data, piece.length),
                               "dialog")) {
      return gumbo_get_attribute(attrs, "open") == nullptr;
    }
  }
  const GumboAttribute* role = gumbo_get_attribute(attrs, "role");
  if (role == nullptr) return false;
  const absl::string_view r = absl::StripAsciiWhitespace(role->value);
  return absl::EqualsIgnoreCase(r, "dialog") ||
         absl::EqualsIgnoreCase(r, "alertdialog");
}

bool IsWhitespaceOnly(absl::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
  });
}

struct PendingLink {
  std::string href;
  LinkKind kind;
  int32_t node;
  std::string anchor;  // alt/title for non-anchor links
};

bool IsUrlParamName(absl::string_view name) {
  return absl::EqualsIgnoreCase(name, "movie") ||
         absl::EqualsIgnoreCase(name, "src") ||
         absl::EqualsIgnoreCase(name, "url") ||
         absl::EqualsIgnoreCase(name, "filename");
}

class Builder {
 public:
  // With `show_noscript`, the text of <noscript> elements is page text
  // (see NoscriptIsThePage).
  // `pairs`: the page's streamed boundaries (FindBoundaryPairs; may be
  // null), which must outlive the builder.
  Builder(const ParseOptions& options, Document* doc,
          const BoundaryPairs* pairs, bool show_noscript = false)
      : options_(options),
        doc_(doc),
        pairs_(pairs),
        show_noscript_(show_noscript) {}

  void Build(const GumboNode* root) {
    struct Item {
      const GumboNode* node;
      int32_t parent;
      int depth;
      bool hidden;    // inside an element a browser does not render
      bool noscript;  // hidden only by being inside a <noscript>...
      bool dialog;    // ...or a closed dialog (IsDialog)
      // Inside a <pre> (<listing>, <xmp>), where white space is the
      // text's: a code highlighter's "\n" between two <span>s is a line
      // break, which the Markdown form's code blocks keep.
      bool pre;
    };
    std::vector<Item> stack;
    stack.push_back({root, -1, 0, false, false, false, false});
    bool depth_warned = false;
    // React's streamed parts, read where a script would move them.
    StreamedSegments streamed(root, pairs_);
    const bool streamed_page = !streamed.empty();
    std::vector<bool> skip;  // children of one element that are left out
    while (!stack.empty()) {
      Item item = stack.back();
      stack.pop_back();
      const GumboNode* g = item.node;
      if (doc_->nodes.size() >= options_.max_nodes) {
        doc_->warnings.push_back(absl::StrCat("page has more than ",
                                              options_.max_nodes,
                                              " nodes; the rest was dropped"));
        break;
      }
      switch (g->type) {
        case GUMBO_NODE_ELEMENT:
        case GUMBO_NODE_TEMPLATE: {
          if (streamed.TakenElseKeep(g)) break;  // read at its placeholder
          if (const GumboNode* segment = streamed.Take(g)) {
            // The segment's children take the placeholder's place.
            const GumboVector& kids = segment->v.element.children;
            skip.assign(kids.length, false);
            streamed.MarkFallbacks(kids, &skip);
            for (unsigned i = kids.length; i-- > 0;) {
              if (skip[i]) continue;
              const auto* child = static_cast<const GumboNode*>(kids.data[i]);
              if (item.hidden && child->type != GUMBO_NODE_ELEMENT &&
                  child->type != GUMBO_NODE_TEMPLATE) {
                // A placeholder hidden itself shows no text; as elsewhere,
                // what a <noscript> or a closed dialog held is counted.
                if (item.noscript && child->type == GUMBO_NODE_TEXT) {
                  (item.dialog ? dialog_text_ : noscript_text_) +=
                      std::strlen(child->v.text.text);
                }
                continue;
              }
              stack.push_back({child, item.parent, item.depth, item.hidden,
                               item.noscript, item.dialog, item.pre});
            }
            break;
          }
          int32_t self = item.parent;
          if (item.depth <= options_.max_depth || item.parent < 0) {
            self = AddElement(g->v.element, g->parse_flags, item.parent);
          } else if (!depth_warned) {
            depth_warned = true;
            std::string warning =
                absl::StrCat("elements nested deeper than ", options_.max_depth,
                             " were flattened into their ancestor");
            if (std::find(doc_->warnings.begin(), doc_->warnings.end(),
                          warning) == doc_->warnings.end()) {
              doc_->warnings.push_back(std::move(warning));
            }
          }
          if (g->type == GUMBO_NODE_TEMPLATE) break;  // inert content
          // <noscript> is what a browser without scripts shows instead of
          // the page's players and widgets ("enable JavaScript", an
          // escaped <object> tag, a tracking pixel); a reader with scripts
          // never sees it, so its text is hidden like display:none text and
          // its links stay links; unless it holds the page's text
          // (NoscriptIsThePage), when the page is built again with it.
          const bool hidden_otherwise =
              (item.hidden && !item.noscript) || IsHidden(g->v.element);
          // A closed dialog is hidden the same way: unless its text is
          // the page's (an unclosed dialog that runs to the end of the
          // body, a thread opened over its forum's list).
          const bool dialog =
              !hidden_otherwise && !show_noscript_ &&
              (item.dialog || (!item.noscript && IsDialog(g->v.element)));
          const bool noscript = !hidden_otherwise && !show_noscript_ &&
                                (item.noscript || dialog ||
                                 g->v.element.tag == GUMBO_TAG_NOSCRIPT);
          const bool hidden = hidden_otherwise || noscript;
          const GumboTag tag = g->v.element.tag;
          const bool pre = item.pre || tag == GUMBO_TAG_PRE ||
                           tag == GUMBO_TAG_LISTING || tag == GUMBO_TAG_XMP;
          const bool skip_text = hidden || SkipTextOf(g->v.element.tag);
          if (g->v.element.tag == GUMBO_TAG_SCRIPT) KeepJsonLd(g->v.element);
          const GumboVector& kids = g->v.element.children;
          if (streamed_page) {
            skip.assign(kids.length, false);
            streamed.MarkFallbacks(kids, &skip);
          }
          for (unsigned i = kids.length; i-- > 0;) {
            // A streamed part's fallback (a spinner).
            if (streamed_page && skip[i]) continue;
            const auto* child = static_cast<const GumboNode*>(kids.data[i]);
            if (skip_text && (child->type == GUMBO_NODE_TEXT ||
                              child->type == GUMBO_NODE_WHITESPACE ||
                              child->type == GUMBO_NODE_CDATA)) {
              if (noscript && child->type == GUMBO_NODE_TEXT &&
                  !SkipTextOf(g->v.element.tag)) {
                (dialog ? dialog_text_ : noscript_text_) +=
                    std::strlen(child->v.text.text);
              }
              continue;
            }
            stack.push_back(
                {child, self, item.depth + 1, hidden, noscript, dialog, pre});
          }
          break;
        }
        case GUMBO_NODE_TEXT:
        case GUMBO_NODE_CDATA:
        case GUMBO_NODE_WHITESPACE: {
          if (item.parent < 0) break;
          absl::string_view text(g->v.text.text);
          if (g->type == GUMBO_NODE_TEXT) visible_text_ += text.size();
          AddText(IsWhitespaceOnly(text) && !item.pre ? absl::string_view(" ")
                                                      : text,
                  item.parent);
          break;
        }
        case GUMBO_NODE_DOCUMENT: {
          const GumboVector& kids = g->v.document.children;
          for (unsigned i = kids.length; i-- > 0;) {
            stack.push_back({static_cast<const GumboNode*>(kids.data[i]), -1, 0,
                             false, false, false, false});
          }
          break;
        }
        case GUMBO_NODE_COMMENT:
          break;
      }
    }
    if (doc_->nodes.empty()) {
      Node html;
      html.tag = "html";
      doc_->nodes.push_back(std::move(html));
    }
  }

  // Keeps the text of a <script type="application/ld+json"> in
  // Document::structured_data, within the options' bounds.
  void KeepJsonLd(const GumboElement& script) {
    const GumboAttribute* type =
        gumbo_get_attribute(&script.attributes, "type");
    if (type == nullptr ||
        !absl::EqualsIgnoreCase(absl::StripAsciiWhitespace(type->value),
                                "application/ld+json")) {
      return;
    }
    std::string json;
    for (unsigned i = 0; i < script.children.length; ++i) {
      const auto* child =
          static_cast<const GumboNode*>(script.children.data[i]);
      if (child->type == GUMBO_NODE_TEXT || child->type == GUMBO_NODE_CDATA) {
        json.append(child->v.text.text);
      }
    }
    if (IsWhitespaceOnly(json)) return;
    if (doc_->structured_data.size() >= options_.max_structured_data_scripts ||
        json.size() > options_.max_structured_data_bytes - structured_bytes_) {
      if (!structured_warned_) {
        structured_warned_ = true;
        doc_->warnings.push_back(absl::StrCat(
            "JSON-LD beyond ", options_.max_structured_data_scripts,
            " scripts or ", options_.max_structured_data_bytes,
            " bytes was dropped"));
      }
      return;
    }
    structured_bytes_ += json.size();
    doc_->structured_data.push_back(std::move(json));
  }

  // A page whose text is in its <noscript>: a single-page application
  // that renders nothing without scripts serves its whole text to crawlers
  // and script-less readers there (Discourse forums put every post of a
  // thread in one <noscript>). Then the <noscript> text is the page: at
  // least kMinNoscriptText bytes of it, and more than the text outside it.
  // So is a closed dialog's text when the page shows little else: under
  // kMaxShellText bytes outside it, and a quarter of what the dialogs hold
  // (a script's shell that opens its thread or article as a modal). A
  // shop's page holds ten times its own text in a terms-of-use modal
  // (WCXB's tune pages), so the dialogs' text alone is no sign.
  bool NoscriptIsThePage() const {
    constexpr size_t kMinNoscriptText = 500;
    constexpr size_t kMaxShellText = 4096;
    if (dialog_text_ >= kMinNoscriptText && visible_text_ < kMaxShellText &&
        4 * visible_text_ < dialog_text_) {
      return true;
    }
    return noscript_text_ >= kMinNoscriptText && noscript_text_ > visible_text_;
  }

  std::vector<PendingLink>& pending_links() { return pending_links_; }
  const std::string* base_href() const {
    return base_href_ ? &*base_href_ : nullptr;
  }
  int32_t title_node() const { return title_node_; }

 private:
  int32_t AddElement(const GumboElement& element, GumboParseFlags flags,
                     int32_t parent) {
    int32_t index = static_cast<int32_t>(doc_->nodes.size());
    Node node;
    node.kind = Node::Kind::kElement;
    node.tag = TagName(element);
    node.parent = parent;
    node.reconstructed =
        (flags & GUMBO_INSERTION_RECONSTRUCTED_FORMATTING_ELEMENT) != 0;
    node.unclosed = (flags & GUMBO_INSERTION_IMPLICIT_END_TAG) != 0;
    const GumboVector& attrs = element.attributes;
    size_t n =
        std::min<size_t>(attrs.length, options_.max_attributes_per_element);
    node.attributes.reserve(n);
    for (size_t i = 0; i < n; ++i) {
      const auto* a = static_cast<const GumboAttribute*>(attrs.data[i]);
      absl::string_view value(a->value);
      if (value.size() > options_.max_attribute_bytes) {
        value = value.substr(0, options_.max_attribute_bytes);
      }
      node.attributes.emplace_back(a->name, std::string(value));
    }
    if (parent >= 0) doc_->nodes[parent].children.push_back(index);
    doc_->nodes.push_back(std::move(node));
    NoteElement(element.tag, index);
    return index;
  }

  void AddText(absl::string_view text, int32_t parent) {
    // Adjacent text (e.g. after flattening) merges into one node.
    Node& p = doc_->nodes[parent];
    if (!p.children.empty()) {
      Node& last = doc_->nodes[p.children.back()];
      if (last.kind == Node::Kind::kText) {
        if (text != " " || last.text.back() != ' ')
          last.text.append(text.data(), text.size());
        return;
      }
    }
    int32_t index = static_cast<int32_t>(doc_->nodes.size());
    Node node;
    node.kind = Node::Kind::kText;
    node.text = std::string(text);
    node.parent = parent;
    p.children.push_back(index);
    doc_->nodes.push_back(std::move(node));
  }

  void AddLink(const std::string* href, LinkKind kind, int32_t node,
               std::string anchor = "") {
    if (href == nullptr) return;
    absl::string_view h = absl::StripAsciiWhitespace(*href);
    if (h.empty()) return;
    pending_links_.push_back({std::string(h), kind, node, std::move(anchor)});
  }

  std::string AltOrTitle(const Node& node) {
    if (const std::string* alt = node.Attribute("alt"); alt && !alt->empty()) {
      return text::CollapseWhitespace(*alt);
    }
    if (const std::string* t = node.Attribute("title"); t && !t->empty()) {
      return text::CollapseWhitespace(*t);
    }
    return "";
  }

  void NoteElement(GumboTag tag, int32_t index) {
    const Node& node = doc_->nodes[index];
    switch (tag) {
      case GUMBO_TAG_A:
        // A parser's copy of an unclosed <a> repeats a link whose start tag
        // already gave one; it is not in the source.
        if (!node.reconstructed) {
          AddLink(node.Attribute("href"), LinkKind::kAnchor, index);
        }
        break;
      case GUMBO_TAG_AREA:
        AddLink(node.Attribute("href"), LinkKind::kArea, index,
                AltOrTitle(node));
        break;
      case GUMBO_TAG_FRAME:
      case GUMBO_TAG_IFRAME:
        AddLink(node.Attribute("src"), LinkKind::kFrame, index,
                AltOrTitle(node));
        break;
      case GUMBO_TAG_IMG:
        AddLink(node.Attribute("src"), LinkKind::kImage, index,
                AltOrTitle(node));
        break;
      case GUMBO_TAG_OBJECT:
        AddLink(node.Attribute("data"), LinkKind::kObject, index,
                AltOrTitle(node));
        break;
      case GUMBO_TAG_PARAM: {
        const std::string* name = node.Attribute("name");
        if (name != nullptr && IsUrlParamName(*name)) {
          AddLink(node.Attribute("value"), LinkKind::kObject, index);
        }
        break;
      }
      case GUMBO_TAG_EMBED:
        AddLink(node.Attribute("src"), LinkKind::kEmbed, index,
                AltOrTitle(node));
        doc_->has_media = true;
        break;
      case GUMBO_TAG_VIDEO:
      case GUMBO_TAG_AUDIO:
        doc_->has_media = true;
        [[fallthrough]];
      case GUMBO_TAG_SOURCE:
        AddLink(node.Attribute("src"), LinkKind::kMedia, index,
                AltOrTitle(node));
        break;
      case GUMBO_TAG_BASE:
        if (!base_href_ && node.Attribute("href") != nullptr) {
          base_href_ = *node.Attribute("href");
        }
        break;
      case GUMBO_TAG_TITLE:
        if (title_node_ < 0) title_node_ = index;
        break;
      case GUMBO_TAG_META: {
        const std::string* name = node.Attribute("name");
        const std::string* content = node.Attribute("content");
        // A page that sends its reader on (old sites' "this page has
        // moved") links to where it sends them.
        if (const std::string* equiv = node.Attribute("http-equiv");
            equiv != nullptr && content != nullptr &&
            absl::EqualsIgnoreCase(absl::StripAsciiWhitespace(*equiv),
                                   "refresh")) {
          const std::string target = RefreshUrl(*content);
          AddLink(&target, LinkKind::kRefresh, index);
        }
        if (name == nullptr || content == nullptr) break;
        if (absl::EqualsIgnoreCase(*name, "keywords") &&
            doc_->keywords.empty()) {
          doc_->keywords = text::CollapseWhitespace(*content);
        } else if (absl::EqualsIgnoreCase(*name, "description") &&
                   doc_->description.empty()) {
          doc_->description = text::CollapseWhitespace(*content);
        }
        break;
      }
      default:
        break;
    }
  }

 private:
  const ParseOptions& options_;
  Document* doc_;
  const BoundaryPairs* const pairs_;
  std::vector<PendingLink> pending_links_;
  std::optional<std::string> base_href_;
  int32_t title_node_ = -1;
  size_t structured_bytes_ = 0;  // in Document::structured_data
  bool structured_warned_ = false;
  const bool show_noscript_;
  size_t visible_text_ = 0;   // bytes of text kept
  size_t noscript_text_ = 0;  // bytes of text dropped inside <noscript>
  size_t dialog_text_ = 0;    // and inside closed dialogs
};

}  // namespace

std::string SubtreeText(const Document& doc, int32_t node, size_t limit,
                        bool space_between_texts) {
  std::string out;
  std::vector<int32_t> stack = {node};
  // Also a bound on the nodes visited: many nested elements without text
  // would otherwise make reading short texts quadratic.
  size_t visits = 0;
  while (!stack.empty() && out.size() < limit && ++visits <= 4 * limit + 16) {
    const Node& n = doc.nodes[stack.back()];
    stack.pop_back();
    if (n.kind == Node::Kind::kText) {
      out.append(n.text);
      if (space_between_texts) out.push_back(' ');
      continue;
    }
    if (n.tag == "img" && out.empty()) {
      if (const std::string* alt = n.Attribute("alt")) out.append(*alt);
    }
    for (auto it = n.children.rbegin(); it != n.children.rend(); ++it) {
      stack.push_back(*it);
    }
  }
  if (out.size() > limit) out.resize(limit);
  return text::CollapseWhitespace(out);
}

namespace {

// Whether every cut of CutRawText lies between the start tag and the end
// tag of an HTML <script> (not JSON-LD) or <style> element of the tree gumbo
// built from `page`, the cut page: the scan and the tree builder agree on
// where each of them is.
bool CutsAreRawText(const GumboNode* root, absl::string_view page,
                    const std::vector<RawTextCut>& cuts) {
  std::vector<RawTextCut> found;
  std::vector<const GumboNode*> stack = {root};
  while (!stack.empty()) {
    const GumboNode* node = stack.back();
    stack.pop_back();
    if (node->type != GUMBO_NODE_ELEMENT && node->type != GUMBO_NODE_TEMPLATE &&
        node->type != GUMBO_NODE_DOCUMENT) {
      continue;
    }
    const GumboVector& kids = node->type == GUMBO_NODE_DOCUMENT
                                  ? node->v.document.children
                                  : node->v.element.children;
    for (unsigned i = 0; i < kids.length; ++i) {
      stack.push_back(static_cast<const GumboNode*>(kids.data[i]));
    }
    if (node->type == GUMBO_NODE_DOCUMENT) continue;
    const GumboElement& e = node->v.element;
    if (e.tag_namespace != GUMBO_NAMESPACE_HTML ||
        (e.tag != GUMBO_TAG_SCRIPT && e.tag != GUMBO_TAG_STYLE) ||
        e.original_tag.length == 0 || e.original_end_tag.length == 0) {
      continue;
    }
    const char* content = e.original_tag.data + e.original_tag.length;
    if (e.original_end_tag.data != content || content < page.data() ||
        content > page.data() + page.size()) {
      continue;
    }
    if (e.tag == GUMBO_TAG_SCRIPT) {
      const GumboAttribute* type = gumbo_get_attribute(&e.attributes, "type");
      if (type != nullptr &&
          absl::EqualsIgnoreCase(absl::StripAsciiWhitespace(type->value),
                                 "application/ld+json")) {
        continue;
      }
    }
    found.push_back({static_cast<size_t>(content - page.data()),
                     e.tag == GUMBO_TAG_SCRIPT});
  }
  auto by_offset = [](const RawTextCut& a, const RawTextCut& b) {
    return a.offset < b.offset;
  };
  std::sort(found.begin(), found.end(), by_offset);
  for (const RawTextCut& c : cuts) {
    auto it = std::lower_bound(found.begin(), found.end(), c, by_offset);
    if (it == found.end() || it->offset != c.offset || it->script != c.script) {
      return false;
    }
  }
  return true;
}

absl::StatusOr<Document> ParseDecoded(std::string utf8, absl::string_view url,
                                      const ParseOptions& options,
                                      Document doc) {
  std::optional<url::Url> page_url;
  if (!url.empty()) {
    absl::StatusOr<url::Url> parsed = url::Parse(url);
    if (!parsed.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("invalid page URL: ", parsed.status().message()));
    }
    page_url = *parsed;
    doc.url = parsed->spec();
  }

  std::string limited;
  if (LimitNesting(utf8, options.max_depth, &limited)) {
    utf8.swap(limited);
    doc.warnings.push_back(absl::StrCat("elements nested deeper than ",
                                        options.max_depth,
                                        " were flattened into their ancestor"));
  }

  // A raw-text element a <noscript> leaves open ends with the <noscript>, as
  // in a browser that runs scripts (core/html_noscript.h says why).
  std::string closed;
  if (CloseRawTextInNoscript(utf8, &closed)) utf8.swap(closed);
  // Which streamed React part completes which boundary, from the page's
  // scripts, read before their text is cut (core/html_streamed.h).
  const BoundaryPairs pairs = FindBoundaryPairs(utf8);

  GumboOptions gopts = kGumboDefaultOptions;
  // Parse errors are not used; recording them costs memory on broken pages.
  gopts.max_errors = 0;
  // Gumbo's tree lives in an arena that goes as a whole once the tree has
  // been copied into `doc` (core/arena.h says why): no gumbo_destroy_output.
  Arena arena;
  gopts.allocator = &Arena::AllocateCallback;
  gopts.deallocator = &Arena::DeallocateCallback;
  gopts.userdata = &arena;
  // Script and style text is cut before gumbo reads it (core/html_raw_text.h
  // says why); when a cut does not sit inside an HTML <script> or <style> of
  // the tree gumbo builds, the page is parsed again as it is.
  std::string cut;
  std::vector<RawTextCut> cuts;
  GumboOutput* output = nullptr;
  if (options.cut_raw_text && CutRawText(utf8, &cut, &cuts)) {
    output = gumbo_parse_with_options(&gopts, cut.data(), cut.size());
    if (output != nullptr && !CutsAreRawText(output->document, cut, cuts)) {
      output = nullptr;
    }
  }
  if (output == nullptr) {
    output = gumbo_parse_with_options(&gopts, utf8.data(), utf8.size());
  }
  if (output == nullptr) {
    return absl::InternalError("gumbo failed to parse the page");
  }

  Document fresh = doc;  // what the builder starts from
  std::optional<Builder> builder;
  builder.emplace(options, &doc, &pairs);
  builder->Build(output->document);
  if (builder->NoscriptIsThePage()) {
    doc = std::move(fresh);
    builder.emplace(options, &doc, &pairs, /*show_noscript=*/true);
    builder->Build(output->document);
  }

  if (builder->title_node() >= 0) {
    doc.title = SubtreeText(doc, builder->title_node(), kMaxAnchorBytes);
  }

  // Base URL: <base href> resolved against the page URL, else the page URL.
  std::optional<url::Url> base = page_url;
  if (const std::string* href = builder->base_href()) {
    absl::StatusOr<url::Url> b =
        page_url ? url::Resolve(*page_url, *href) : url::Parse(*href);
    if (b.ok()) base = *b;
  }
  if (base) doc.base_url = base->spec();

  for (PendingLink& p : builder->pending_links()) {
    if (doc.links.size() >= options.max_links) {
      doc.warnings.push_back(absl::StrCat("page has more than ",
                                          options.max_links,
                                          " links; the rest were dropped"));
      break;
    }
    Link link;
    link.kind = p.kind;
    link.node = p.node;
    absl::StatusOr<url::Url> resolved =
        base ? url::Resolve(*base, p.href) : url::Parse(p.href);
    if (resolved.ok()) {
      link.url = resolved->spec();
      link.parsed = *std::move(resolved);
    } else if (!base && !absl::StrContains(p.href, ":")) {
      // No base to resolve against: keep the relative reference so its
      // anchor text still counts for segmentation.
      link.url = p.href;
      link.resolved = false;
    } else {
      // javascript:, mailto:, malformed: not a link a crawler can follow.
      continue;
    }
    link.media = MediaTypeOfUrl(link.url);
    if (link.media != MediaType::kNone) doc.has_media = true;
    link.anchor_text = p.kind == LinkKind::kAnchor
                           ? SubtreeText(doc, p.node, kMaxAnchorBytes)
                           : std::move(p.anchor);
    if (link.anchor_text.empty() && p.kind == LinkKind::kAnchor) {
      const std::string* title = doc.nodes[p.node].Attribute("title");
      if (title != nullptr) link.anchor_text = text::CollapseWhitespace(*title);
    }
    doc.links.push_back(std::move(link));
  }
  return doc;
}

absl::Status CheckSize(absl::string_view input, const ParseOptions& options) {
  if (input.size() <= options.max_input_bytes) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("page is ", input.size(), " bytes, larger than the ",
                   options.max_input_bytes, "-byte limit"));
}

// A body that is mostly control bytes is not a page in any charset; saying so
// beats segmenting noise. UTF-16 (with a BOM) legitimately has NUL bytes.
absl::Status CheckNotBinary(absl::string_view bytes) {
  if (bytes.size() >= 2 && ((bytes[0] == '\xff' && bytes[1] == '\xfe') ||
                            (bytes[0] == '\xfe' && bytes[1] == '\xff'))) {
    return absl::OkStatus();
  }
  absl::string_view head = bytes.substr(0, 8192);
  size_t control = 0;
  for (char ch : head) {
    unsigned char c = static_cast<unsigned char>(ch);
    if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' &&
         c != 0x1b) ||
        c == 0x7f) {
      ++control;
    }
  }
  // Text in any charset has next to no control bytes; random or compressed
  // data has about 11%. 2% separates the two with a wide margin.
  if (!head.empty() && control * 50 > head.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "input looks binary, not HTML: ", control, " of the first ",
        head.size(), " bytes are control characters"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::string_view LinkKindName(LinkKind kind) {
  switch (kind) {
    case LinkKind::kAnchor:
      return "anchor";
    case LinkKind::kArea:
      return "area";
    case LinkKind::kFrame:
      return "frame";
    case LinkKind::kImage:
      return "image";
    case LinkKind::kObject:
      return "object";
    case LinkKind::kEmbed:
      return "embed";
    case LinkKind::kMedia:
      return "media";
    case LinkKind::kRefresh:
      return "refresh";
  }
  return "anchor";
}

absl::string_view MediaTypeName(MediaType type) {
  switch (type) {
    case MediaType::kNone:
      return "none";
    case MediaType::kAudio:
      return "audio";
    case MediaType::kVideo:
      return "video";
    case MediaType::kAnimation:
      return "animation";
  }
  return "none";
}

bool IsHyperlinkAnchor(const Node& node) {
  if (node.kind != Node::Kind::kElement || node.tag != "a" ||
      node.reconstructed) {
    return false;
  }
  const std::string* href = node.Attribute("href");
  return href != nullptr && !IsWhitespaceOnly(*href);
}

const std::string* Node::Attribute(absl::string_view name) const {
  for (const auto& [key, value] : attributes) {
    if (key == name) return &value;
  }
  return nullptr;
}

absl::StatusOr<Document> Parse(absl::string_view bytes, absl::string_view url,
                               absl::string_view content_type,
                               absl::string_view charset_override,
                               const ParseOptions& options) {
  if (absl::Status s = CheckSize(bytes, options); !s.ok()) return s;
  if (absl::Status s = CheckNotBinary(bytes); !s.ok()) return s;
  absl::StatusOr<charset::DecodeResult> decoded =
      charset::DecodeToUtf8(bytes, content_type, charset_override);
  if (!decoded.ok()) return decoded.status();
  Document doc;
  doc.charset = decoded->charset;
  doc.charset_source = std::string(charset::CharsetSourceName(decoded->source));
  doc.invalid_sequences = decoded->invalid_sequences;
  return ParseDecoded(std::move(decoded->utf8), url, options, std::move(doc));
}

absl::StatusOr<Document> ParseUtf8(absl::string_view utf8,
                                   absl::string_view url,
                                   const ParseOptions& options) {
  if (absl::Status s = CheckSize(utf8, options); !s.ok()) return s;
  Document doc;
  doc.charset = "UTF-8";
  doc.charset_source = "override";
  size_t replaced = 0;
  std::string clean = charset::SanitizeUtf8(utf8, &replaced);
  doc.invalid_sequences = replaced;
  return ParseDecoded(std::move(clean), url, options, std::move(doc));
}

void AppendEscaped(absl::string_view s, std::string* out) {
  for (char c : s) {
    switch (c) {
      case '&':
        out->append("&amp;");
        break;
      case '<':
        out->append("&lt;");
        break;
      case '>':
        out->append("&gt;");
        break;
      case '"':
        out->append("&quot;");
        break;
      default:
        out->push_back(c);
    }
  }
}

const url::Url* ParsedUrl(const Link& link, std::optional<url::Url>* storage) {
  if (link.parsed.has_value()) return &*link.parsed;
  absl::StatusOr<url::Url> u = url::Parse(link.url);
  if (!u.ok()) return nullptr;
  *storage = *std::move(u);
  return &**storage;
}

}  // namespace fcrawl::html
