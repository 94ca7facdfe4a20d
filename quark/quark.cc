// QuarkRecognizer ([QUARK] §3.1).
//
// html::Document stores nodes in document (pre-)order with every parent before
// its children, so a sweep over the indices from last to first visits each
// node after all of its children: the paper's bottom-up traversal without
// recursion or a queue. A second, forward sweep hands every text node to the
// nearest block that contains it.
#include "quark/quark.h"

#include <memory>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "core/text.h"
#include "quark/article_footer.h"
#include "quark/article_header.h"
#include "quark/declared.h"
#include "quark/hints.h"
#include "quark/metadata.h"
#include "quark/page_content.h"
#include "quark/page_type.h"
#include "re2/re2.h"
#include "re2/set.h"

namespace fcrawl::quark {
namespace {

const absl::flat_hash_map<absl::string_view, TagClass>& TagClasses() {
  static const auto* const kClasses = [] {
    auto* m = new absl::flat_hash_map<absl::string_view, TagClass>();
    // Order matters: a tag listed in two classes keeps the first (S > B > A).
    for (const char* t : {"head", "script", "style", "object", "fieldset",
                          "frameset", "iframe"}) {
      m->emplace(t, TagClass::kSuper);
    }
    for (const char* t :
         {"div", "td", "table", "form", "center", "noframes", "noscript", "pre",
          "body", "html", "section", "article", "nav", "aside", "header",
          "footer", "main"}) {
      m->emplace(t, TagClass::kBig);
    }
    for (const char* t :
         {"p", "ul", "ol", "dl", "dir", "li", "dt", "blockquote", "address",
          "br", "hr", "col", "colgroup", "img", "menu", "select"}) {
      m->emplace(t, TagClass::kLayout);
    }
    for (const char* t :
         {"a",        "abbr",  "acronym", "area",     "b",       "base",
          "basefont", "bdo",   "big",     "button",   "caption", "cite",
          "code",     "dd",    "del",     "dfn",      "em",      "font",
          "h1",       "h2",    "h3",      "h4",       "h5",      "h6",
          "i",        "ins",   "kbd",     "label",    "small",   "strike",
          "strong",   "sub",   "sup",     "q",        "s",       "samp",
          "span",     "thead", "tfoot",   "textarea", "u",       "tt",
          "var"}) {
      m->emplace(t, TagClass::kDisplay);
    }
    for (const char* t :
         {"frame", "input", "isindex", "legend", "link", "map", "meta",
          "option", "optgroup", "param", "th", "tr", "tbody", "title"}) {
      m->emplace(t, TagClass::kAffiliated);
    }
    return m;
  }();
  return *kClasses;
}

// Elements that start a new line of text: text on either side of them is not
// one run. Used to put line breaks into block text and to find text that
// "stands alone" (topic-group titles).
bool BreaksLine(absl::string_view tag, TagClass cls) {
  if (cls == TagClass::kSuper || cls == TagClass::kBig ||
      cls == TagClass::kLayout) {
    return true;
  }
  return tag == "h1" || tag == "h2" || tag == "h3" || tag == "h4" ||
         tag == "h5" || tag == "h6" || tag == "tr" || tag == "th" ||
         tag == "dd" || tag == "caption" || tag == "title" || tag == "option";
}

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

// Patterns longer than this are not matched: the C class is meant for short
// lines such as a news article's date line.
constexpr size_t kMaxCustomPatternText = 256;

// in_anchor states of the forward sweep.
constexpr uint8_t kAnchor = 1, kUnclosedAnchor = 2;

}  // namespace

TagClass ClassifyTag(absl::string_view tag) {
  const auto& classes = TagClasses();
  auto it = classes.find(tag);
  return it == classes.end() ? TagClass::kOther : it->second;
}

absl::string_view BlockTypeName(BlockType type) {
  switch (type) {
    case BlockType::kContent:
      return "content";
    case BlockType::kRelatedLinks:
      return "related_links";
    case BlockType::kNavigation:
      return "navigation";
    case BlockType::kNoise:
      return "noise";
  }
  return "noise";
}

absl::Status RecognizerOptions::Validate() const {
  if (min_layout_ratio < 0 || min_layout_ratio > 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "min_layout_ratio must be in [0, 1], got ", min_layout_ratio));
  }
  for (const std::string& p : custom_patterns) {
    RE2 re(p, RE2::Quiet);
    if (!re.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "custom_patterns: invalid pattern '", p, "': ", re.error()));
    }
  }
  return absl::OkStatus();
}

size_t CountCjk(absl::string_view utf8) {
  size_t n = 0;
  const auto* p = reinterpret_cast<const unsigned char*>(utf8.data());
  const auto* end = p + utf8.size();
  while (p < end) {
    // Every code point counted is a three-byte sequence (lead E3..EF).
    if (*p < 0xE3 || *p > 0xEF || end - p < 3 || (p[1] & 0xC0) != 0x80 ||
        (p[2] & 0xC0) != 0x80) {
      ++p;
      continue;
    }
    uint32_t cp =
        ((p[0] & 0x0Fu) << 12) | ((p[1] & 0x3Fu) << 6) | (p[2] & 0x3Fu);
    if ((cp >= 0x3040 && cp <= 0x30FF) || (cp >= 0x3400 && cp <= 0x4DBF) ||
        (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0xAC00 && cp <= 0xD7AF) ||
        (cp >= 0xF900 && cp <= 0xFAFF)) {
      ++n;
    }
    p += 3;
  }
  return n;
}

absl::StatusOr<Segmentation> Recognize(const html::Document& doc,
                                       const RecognizerOptions& options) {
  if (absl::Status s = options.Validate(); !s.ok()) return s;
  const std::vector<html::Node>& nodes = doc.nodes;
  const size_t n = nodes.size();

  std::unique_ptr<RE2::Set> patterns;
  if (!options.custom_patterns.empty()) {
    patterns = std::make_unique<RE2::Set>(RE2::DefaultOptions, RE2::UNANCHORED);
    for (const std::string& p : options.custom_patterns) {
      if (patterns->Add(p, nullptr) < 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("custom_patterns: invalid pattern '", p, "'"));
      }
    }
    if (!patterns->Compile()) {
      return absl::ResourceExhaustedError(
          "custom_patterns: too large to compile");
    }
  }
  absl::flat_hash_set<absl::string_view> custom_tags(
      options.custom_tags.begin(), options.custom_tags.end());

  // Per-node state of the bottom-up sweep: what is still pending (not yet in
  // a block) in the node's subtree.
  std::vector<TagClass> cls(n, TagClass::kOther);
  std::vector<std::string> collapsed(n);  // text nodes only
  std::vector<uint32_t> pending_text(n, 0);
  // The same, a CJK character counting kCjkWeight: what min_block_text is
  // compared with, as the analyzer weighs a block's size (a Chinese
  // sentence of 20 characters says what 40 Latin letters do).
  std::vector<uint32_t> pending_weight(n, 0);
  std::vector<uint32_t> pending_links(n, 0);
  std::vector<uint32_t> pending_elements(n, 0);
  std::vector<uint32_t> pending_layout(n, 0);
  std::vector<uint8_t> pending_custom(n, 0);
  std::vector<uint8_t> is_block(n, 0);
  std::vector<uint8_t> holds_block(n, 0);  // a block somewhere below
  // Own text of short nodes, for custom patterns; cleared when too long.
  std::vector<std::string> short_text(patterns ? n : 0);
  std::vector<uint8_t> short_overflow(patterns ? n : 0, 0);

  for (const html::Link& link : doc.links) {
    if (link.node >= 0 && static_cast<size_t>(link.node) < n) {
      ++pending_links[link.node];
    }
  }

  for (size_t i = n; i-- > 0;) {
    const html::Node& node = nodes[i];
    if (node.kind == html::Node::Kind::kText) {
      collapsed[i] = text::CollapseWhitespace(node.text);
      pending_text[i] =
          static_cast<uint32_t>(text::CountCodePoints(collapsed[i]));
      pending_weight[i] = static_cast<uint32_t>(
          pending_text[i] +
          (kCjkWeight - 1) * static_cast<double>(CountCjk(collapsed[i])));
      if (patterns) short_text[i] = collapsed[i];
    } else {
      TagClass c = ClassifyTag(node.tag);
      cls[i] = c;
      bool custom = !custom_tags.empty() && custom_tags.contains(node.tag);
      bool structural = c == TagClass::kSuper || c == TagClass::kBig ||
                        c == TagClass::kLayout;
      if (patterns && structural && !custom && !short_overflow[i] &&
          !short_text[i].empty()) {
        std::vector<int> hits;
        custom = patterns->Match(short_text[i], &hits);
      }
      bool has_content = pending_text[i] > 0 || pending_links[i] > 0;
      bool block = false;
      if (i == 0) {
        block = has_content;  // the root collects the rest: no text lost
      } else if (c == TagClass::kSuper || (custom && structural) ||
                 (options.hint_blocks && structural && has_content &&
                  IsStrongAgainst(node))) {
        block = has_content;
      } else if (c == TagClass::kBig && has_content) {
        block =
            pending_weight[i] >= options.min_block_text ||
            (options.mixed_blocks && holds_block[i] && pending_text[i] > 0) ||
            (pending_elements[i] > 0 &&
             pending_layout[i] >=
                 options.min_layout_ratio * pending_elements[i]);
      }
      pending_custom[i] |= custom ? 1 : 0;
      if (block) {
        is_block[i] = 1;
        if (node.parent >= 0) holds_block[node.parent] = 1;
        continue;  // nothing of a block passes up
      }
    }
    // Pass the pending state up.
    int32_t p = node.parent;
    if (p < 0) continue;
    pending_text[p] += pending_text[i];
    pending_weight[p] += pending_weight[i];
    pending_links[p] += pending_links[i];
    pending_custom[p] |= pending_custom[i];
    holds_block[p] |= holds_block[i];
    if (node.kind == html::Node::Kind::kElement) {
      pending_elements[p] += 1 + pending_elements[i];
      pending_layout[p] +=
          (cls[i] == TagClass::kLayout ? 1 : 0) + pending_layout[i];
    }
    if (patterns) {
      if (short_overflow[i] ||
          short_text[p].size() + short_text[i].size() > kMaxCustomPatternText) {
        short_overflow[p] = 1;
        short_text[p].clear();
      } else if (!short_text[i].empty()) {
        // Children are visited last to first: prepend.
        short_text[p] = short_text[p].empty()
                            ? short_text[i]
                            : absl::StrCat(short_text[i], " ", short_text[p]);
      }
    }
  }

  // Forward sweep: owner block, line-breaking ancestor and anchor flag of
  // every node; block text in document order.
  Segmentation seg;
  std::vector<int32_t> owner(n, -1);     // index into seg.blocks
  std::vector<int32_t> line_anc(n, -1);  // nearest line-breaking ancestor
  std::vector<uint8_t> in_anchor(n, 0);
  // The line-breaking ancestor of each block's last text, or kLineBroken
  // when a line-breaking element came after it.
  constexpr int32_t kLineBroken = -2;
  std::vector<int32_t> last_line(0);
  std::vector<uint8_t> last_space(0);
  std::vector<size_t> text_end(0);     // page offset after the last text
  std::vector<int32_t> last_index(0);  // index of the block's last line
  size_t offset = 0;                   // code points of page text so far
  for (size_t i = 0; i < n; ++i) {
    const html::Node& node = nodes[i];
    int32_t p = node.parent;
    if (p >= 0) {
      owner[i] = owner[p];
      line_anc[i] = line_anc[p];
      in_anchor[i] = in_anchor[p];
    }
    if (node.kind == html::Node::Kind::kElement) {
      // Anchor text is the text of <a href> only (html::IsHyperlinkAnchor).
      // An <a href> the source never closes swallows, in the parsed tree,
      // whatever follows it; its link text is taken to end at the first
      // line-breaking element inside it.
      bool breaks = BreaksLine(node.tag, cls[i]);
      if (html::IsHyperlinkAnchor(node)) {
        in_anchor[i] = node.unclosed ? kUnclosedAnchor : kAnchor;
      } else if (breaks && in_anchor[i] == kUnclosedAnchor) {
        in_anchor[i] = 0;
      }
      if (breaks) {
        line_anc[i] = static_cast<int32_t>(i);
        // Text after a line-breaking element starts a new line even when
        // the element holds no text (<br>, <hr>, an empty <div>): the
        // nearest line-breaking ancestor of the text on both sides is the
        // same, and without this "line one<br>line two" would read
        // "line oneline two". An inline <img> breaks no line.
        if (owner[i] >= 0 && node.tag != "img") {
          last_line[owner[i]] = kLineBroken;
        }
      }
      if (is_block[i]) {
        Block b;
        b.index = static_cast<int32_t>(seg.blocks.size());
        b.node = static_cast<int32_t>(i);
        b.tag = node.tag;
        b.has_custom_tag = pending_custom[i] != 0;
        b.start = offset;
        owner[i] = b.index;
        seg.blocks.push_back(std::move(b));
        last_line.push_back(-1);
        last_space.push_back(0);
        text_end.push_back(0);
        last_index.push_back(0);
      }
      continue;
    }
    if (owner[i] < 0) continue;  // cannot happen: the root owns the rest
    const std::string& t = collapsed[i];
    Block& b = seg.blocks[owner[i]];
    if (t.empty()) {
      last_space[owner[i]] = 1;
      continue;
    }
    const int32_t o = owner[i];
    // The text of a nested block came between this text and the block's
    // previous text: a new piece, on a new line.
    const bool resumed = !b.text.empty() && text_end[o] != offset;
    const int32_t text_node = static_cast<int32_t>(i);
    if (b.text.empty()) {
      b.start = offset;
      b.line_nodes.push_back({text_node, text_node});
    } else if (resumed || line_anc[i] != last_line[o]) {
      b.text.push_back('\n');
      ++last_index[o];
      if (resumed) b.pieces.push_back({last_index[o], offset});
      b.line_nodes.push_back({text_node, text_node});
    } else {
      if (last_space[o] || IsSpace(node.text.front())) b.text.push_back(' ');
      b.line_nodes.back().last = text_node;
    }
    b.text.append(t);
    size_t len = pending_text[i];
    if (in_anchor[i]) b.anchor_text_length += len;
    offset += len;
    text_end[o] = offset;
    last_line[owner[i]] = line_anc[i];
    last_space[owner[i]] = IsSpace(node.text.back()) ? 1 : 0;
  }
  for (size_t li = 0; li < doc.links.size(); ++li) {
    int32_t node = doc.links[li].node;
    if (node < 0 || static_cast<size_t>(node) >= n || owner[node] < 0) {
      continue;
    }
    seg.blocks[owner[node]].links.push_back(static_cast<int32_t>(li));
  }

  // Drop blocks that ended up empty (e.g. a block whose only link was
  // dropped); renumber.
  std::vector<Block> kept;
  kept.reserve(seg.blocks.size());
  for (Block& b : seg.blocks) {
    b.text_length = text::CountCodePoints(b.text);
    if (b.text_length == 0 && b.links.empty()) continue;
    b.cjk_length = CountCjk(b.text);
    b.index = static_cast<int32_t>(kept.size());
    seg.text_length += b.text_length;
    kept.push_back(std::move(b));
  }
  seg.blocks = std::move(kept);
  return seg;
}

absl::StatusOr<AnalyzedPage> AnalyzePage(absl::string_view bytes,
                                         absl::string_view url,
                                         absl::string_view content_type,
                                         absl::string_view charset_override,
                                         const PageOptions& options,
                                         const AnalyzerContext& context) {
  absl::StatusOr<html::Document> doc =
      html::Parse(bytes, url, content_type, charset_override, options.parse);
  if (!doc.ok()) return doc.status();
  absl::StatusOr<Segmentation> seg = Recognize(*doc, options.recognizer);
  if (!seg.ok()) return seg.status();
  AnalyzedPage page;
  page.document = std::move(*doc);
  page.segmentation = std::move(*seg);
  if (!page.document.structured_data.empty()) {
    page.declared = ReadDeclaredArticle(page.document);
  }
  AnalyzerContext with_body = context;
  if (!page.declared.body.empty()) with_body.declared_body = page.declared.body;
  Analyze(page.document, &page.segmentation, options.analyzer, with_body);
  page.metadata = ExtractMetadata(page);
  const PageTypeGuess type = GuessPageType(page, page.document.url);
  page.page_type = type.type;
  page.page_type_probability = type.probability;
  const AnalyzerOptions& a = options.analyzer;
  bool widened = false;
  if (a.structure_hints && a.by_type) {
    // A forum thread's replies and a documentation page's sections are
    // content that the balanced analysis leaves out as comments or asides:
    // a page sure to be one is analysed again favoring recall.
    if (a.favor == Favor::kBalanced &&
        FavorsRecall(page.page_type, page.page_type_probability)) {
      AnalyzerOptions recall = a;
      recall.favor = Favor::kRecall;
      Analyze(page.document, &page.segmentation, recall, with_body);
    }
    widened =
        ChooseContentByType(page.document, page.page_type,
                            page.page_type_probability, &page.segmentation);
  }
  if (a.structure_hints &&
      (a.against_lines || a.article_header || a.article_footer)) {
    // Marking lines changes no block's text: one reading serves all three.
    // The lines marked against are not the article's, so neither its first
    // nor its last lines.
    std::vector<ContentLine> lines = ContentLinesInPageOrder(page.segmentation);
    if (a.against_lines) {
      MarkAgainstLines(page.document, &lines, &page.segmentation,
                       widened ? kNoByNameLimit : kMaxByNameShare);
    }
    if (a.article_header) {
      MarkArticleHeader(page.metadata, lines, &page.segmentation);
    }
    if (a.article_footer) {
      MarkArticleFooter(lines, &page.segmentation);
    }
  }
  return page;
}

}  // namespace fcrawl::quark
