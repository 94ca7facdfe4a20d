#include "quark/hints.h"

#include <algorithm>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "core/text.h"
#include "quark/records.h"

namespace fcrawl::quark {
namespace {

// A word is against when it contains one of the long stems or equals one of
// the short words, else for when it does the same with the positive lists.
// The lists are string_views: this runs for every class and id word of every
// block's ancestors, and measuring C strings here was 3% of a page's analysis.
int8_t MatchWordHint(absl::string_view w) {
  static constexpr absl::string_view kAgainstStems[] = {
      "comment", "disqus", "footer", "sidebar", "related", "breadcrumb",
      "newsletter", "subscri", "disclaim", "byline", "share", "sharing",
      "social", "promo", "sponsor", "advert", "navigation", "navbar", "menu",
      "widget", "signup", "masthead", "outbrain", "taboola", "popular",
      "trending", "recommend", "caption", "copyright", "pagination", "pager",
      "replies", "respond", "toolbar", "recent", "authorbio", "moreon",
      "morestories", "readmore", "login", "register",
      // Chinese sites name their blocks in pinyin: comments, related,
      // recommended, popular, ranking, share; and forum signatures.
      "pinglun", "xiangguan", "tuijian", "remen", "paihang", "fenxiang",
      "signature"};
  static constexpr absl::string_view kAgainstWords[] = {
      "nav", "ad", "ads", "bio", "tags", "foot", "aside", "rail", "banner",
      "reply", "author", "about", "footnote", "credit", "credits", "dateline",
      "date", "timestamp", "meta", "postmeta", "email", "tools", "links",
      "feedback", "comments", "form",
      // Short forms common on Chinese and YUI-style templates: footer,
      // popular, ranking, forum signature ("bottom" is too often a CSS
      // border or margin class).
      "ft", "hot", "rank", "sign"};
  static constexpr absl::string_view kForStems[] = {
      "article", "content", "entry", "story", "hentry", "blogpost", "postbody",
      "posttext", "bodytext",
      // Chinese templates: body text, content, article (pinyin), the
      // article bodies of large portals and forum post bodies.
      "zhengwen", "neirong", "wenzhang", "artibody", "endtext", "maintext",
      "postmessage", "detail",
      // The article text's font-size switch ("A+ A-") wraps the body on
      // many Chinese news and government sites: id="fontzoom", "ozoom".
      "fontzoom", "ozoom"};
  static constexpr absl::string_view kForWords[] = {
      "post", "body", "main", "text", "blog", "news", "single", "con", "cont",
      "txt", "tpc",
      // 正文 (body text) abbreviated, "left_zw", "rwb_zw"; the TRS CMS's
      // body ("TRS_Editor").
      "zw", "trs"};
  for (absl::string_view x : kAgainstWords) {
    if (w == x) return kAgainst;
  }
  for (absl::string_view x : kAgainstStems) {
    if (absl::StrContains(w, x)) return kAgainst;
  }
  for (absl::string_view x : kForWords) {
    if (w == x) return kFor;
  }
  for (absl::string_view x : kForStems) {
    if (absl::StrContains(w, x)) return kFor;
  }
  return kNoHint;
}

// The bytes of an id or class that are read: a hostile page's megabyte of
// class names costs no more than this each.
constexpr size_t kMaxAttributeBytes = 256;

// MatchWordHint, remembered: a page repeats its few class and id words on
// thousands of elements, and matching each against the 70 stems and words
// was 5% of a page's analysis. The cache is per thread and bounded (words
// are at most 256 bytes, see AttributeHint and IsStrongAgainst).
int8_t WordHint(absl::string_view w) {
  constexpr size_t kMaxCachedWords = 4096;
  thread_local absl::flat_hash_map<std::string, int8_t> cache;
  if (auto it = cache.find(w); it != cache.end()) return it->second;
  const int8_t h = MatchWordHint(w);
  if (cache.size() >= kMaxCachedWords) cache.clear();
  cache.emplace(w, h);
  return h;
}

// A class or id (lower-cased) that names a layout with a sidebar, not a
// sidebar: "with-sidebar-layout", "has-sidebar", "SidebarLayout",
// "sidebar-collapsed" (the page's state). Such an element wraps the main
// column beside the sidebar.
bool NamesSidebarLayout(absl::string_view lower) {
  if (!absl::StrContains(lower, "sidebar")) return false;
  if (absl::StrContains(lower, "layout")) return true;
  for (absl::string_view w :
       absl::StrSplit(lower, absl::ByAnyChar(" \t\n-_:."), absl::SkipEmpty())) {
    if (w == "with" || w == "has" || w == "collapsed" || w == "expanded") {
      return true;
    }
  }
  return false;
}

// Calls on_word(word) for each word of a lower-cased class or id (runs of
// ASCII letters and digits) that says something, and on_name_end() after
// each name (a run between blanks). Words that say nothing:
// - "widget" after "elementor": the page builder Elementor (a large share
//   of WordPress sites) names every element "elementor-widget-…", the
//   post's body ("elementor-widget-theme-post-content") as much as its
//   menu ("elementor-widget-nav-menu"); the words after it decide;
// - a word after "not", "no" or "without": Weebly holds a page's sections
//   in "wsite-not-footer", and "no-sidebar" is a layout;
// - "sidebar" in a BEM modifier (after "--" in a name): "l-grid--sidebar"
//   is the grid's variant with a sidebar, where "sidebar--left" is a
//   sidebar and "c-related--sidebar" related links placed in one.
template <typename OnWord, typename OnNameEnd>
void ForEachNameWord(absl::string_view lower, OnWord on_word,
                     OnNameEnd on_name_end) {
  std::string word;
  bool after_elementor = false, after_negation = false, modifier = false;
  size_t name_length = 0;
  char previous = ' ';
  auto flush = [&] {
    if (word.empty()) return;
    const bool silent = (after_elementor && word == "widget") ||
                        after_negation ||
                        (modifier && absl::StrContains(word, "sidebar"));
    after_elementor = word == "elementor";
    after_negation = word == "not" || word == "no" || word == "without";
    if (!silent) on_word(absl::string_view(word));
    word.clear();
  };
  for (char c : lower) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (absl::ascii_isspace(u)) {
      flush();
      on_name_end();
      after_elementor = after_negation = modifier = false;
      name_length = 0;
    } else {
      if (absl::ascii_isalnum(u)) {
        word.push_back(c);
      } else {
        flush();
        if (c == '-' && previous == '-' && name_length > 1) modifier = true;
      }
      ++name_length;
    }
    previous = c;
  }
  flush();
  on_name_end();
}

// What an id's or class's words say: against when one word is (one word
// against makes the attribute against: "post-meta" is the post's meta
// line), else for when one is.
int8_t AttributeHint(absl::string_view value) {
  // An id or class that is a URL (CleanEval's <text id="http://...">,
  // permalinks as ids) names a page, not a part of one: "/share/" in its
  // path says nothing.
  if (absl::StrContains(value, "://")) return kNoHint;
  const std::string lower =
      absl::AsciiStrToLower(value.substr(0, kMaxAttributeBytes));
  if (NamesSidebarLayout(lower)) return kNoHint;
  int8_t h = kNoHint;
  ForEachNameWord(
      lower,
      [&](absl::string_view w) {
        const int8_t x = WordHint(w);
        if (x == kAgainst || h == kNoHint) h = x == kNoHint ? h : x;
      },
      [] {});
  return h;
}

}  // namespace

bool IsStrongAgainst(const html::Node& e) {
  if (e.tag == "aside" || e.tag == "footer") return true;
  // A wrapper of both ("content-sidebar-wrap", "main-sidebar-container")
  // has a word for as well: not strong.
  static constexpr absl::string_view kStrongStems[] = {"comment", "disqus",
                                                       "sidebar", "footer"};
  for (const char* name : {"id", "class"}) {
    const std::string* v = e.Attribute(name);
    if (v == nullptr) continue;
    const std::string lower = absl::AsciiStrToLower(
        absl::string_view(*v).substr(0, kMaxAttributeBytes));
    // No stem contains a separator, so a value without one anywhere has no
    // word with one: most values end here, before they are split.
    bool any = false;
    for (absl::string_view stem : kStrongStems) {
      any = any || absl::StrContains(lower, stem);
    }
    if (!any || NamesSidebarLayout(lower)) continue;
    bool strong = false, positive = false;
    ForEachNameWord(
        lower,
        [&](absl::string_view w) {
          for (absl::string_view stem : kStrongStems) {
            strong = strong || absl::StrContains(w, stem);
          }
          if (WordHint(w) == kFor) positive = true;
        },
        [] {});
    if (strong && !positive) return true;
  }
  return false;
}

bool NamesAny(const html::Node& e,
              std::initializer_list<absl::string_view> words) {
  for (const char* name : {"id", "class"}) {
    const std::string* v = e.Attribute(name);
    if (v == nullptr || v->empty()) continue;
    const std::string lower = absl::AsciiStrToLower(
        absl::string_view(*v).substr(0, kMaxAttributeBytes));
    for (absl::string_view w : words) {
      if (absl::StrContains(lower, w)) return true;
    }
  }
  return false;
}

bool NamesWordStartingWith(const html::Node& e,
                           std::initializer_list<absl::string_view> prefixes) {
  for (const char* name : {"id", "class"}) {
    const std::string* v = e.Attribute(name);
    if (v == nullptr || v->empty()) continue;
    const std::string lower = absl::AsciiStrToLower(
        absl::string_view(*v).substr(0, kMaxAttributeBytes));
    bool found = false;
    ForEachNameWord(
        lower,
        [&](absl::string_view w) {
          for (absl::string_view p : prefixes) {
            if (absl::StartsWith(w, p)) found = true;
          }
        },
        [] {});
    if (found) return true;
  }
  return false;
}

bool NamesCommentSection(const html::Node& e) {
  return NamesAny(e, {"comment", "disqus", "repl", "respond"});
}

bool IsMainElement(const html::Node& e) {
  if (e.tag == "main") return true;
  const std::string* role = e.Attribute("role");
  return role != nullptr && *role == "main";
}

std::vector<uint8_t> HoldsMainContent(const html::Document& doc) {
  const std::vector<html::Node>& nodes = doc.nodes;
  std::vector<uint8_t> holds(nodes.size(), 0);
  // Children come after their parents: one reverse pass.
  for (size_t n = nodes.size(); n-- > 0;) {
    const html::Node& x = nodes[n];
    if (x.is_element()) {
      if (IsMainElement(x)) {
        holds[n] = kHoldsMain;
      } else if (x.tag == "article") {
        holds[n] = std::max(holds[n], kHoldsArticle);
      }
    }
    if (x.parent >= 0) holds[x.parent] = std::max(holds[x.parent], holds[n]);
  }
  return holds;
}

bool ElementHints::WrapsMainContent(int32_t element) {
  const html::Node& e = doc_.nodes[element];
  if (e.tag == "main" || e.tag == "article" || NamesCommentSection(e)) {
    return false;
  }
  if (holds_main_.empty()) holds_main_ = HoldsMainContent(doc_);
  // A <footer>, <nav> or <aside> is what its tag says, and a sidebar may
  // list teasers as <article>s; one that holds the page's <main> was left
  // open by the page (gumbo puts what follows an unclosed <aside> inside
  // it).
  if (e.tag == "footer" || e.tag == "nav" || e.tag == "aside") {
    return holds_main_[element] == kHoldsMain;
  }
  return holds_main_[element] != 0;
}

int8_t ElementHint(const html::Node& e) {
  const std::string& tag = e.tag;
  if (tag == "body" || tag == "html") return kNoHint;  // site-wide classes
  if (tag == "article" || tag == "main") return kFor;
  // A figure's text is its caption and credit, which article gold and
  // readers leave out.
  if (tag == "footer" || tag == "nav" || tag == "aside" ||
      tag == "figcaption" || tag == "figure") {
    return kAgainst;
  }
  bool for_ = false, against = false;
  for (const auto& [name, value] : e.attributes) {
    int8_t x = kNoHint;
    if (name == "class" || name == "id" || name == "itemprop") {
      x = AttributeHint(value);
    } else if (name == "role") {
      if (value == "main" || value == "article") x = kFor;
      // A dialog (a cookie consent box, a newsletter pop-up) is laid over
      // the page, never the page's text.
      if (value == "navigation" || value == "complementary" ||
          value == "contentinfo" || value == "banner" || value == "menu" ||
          value == "dialog" || value == "alertdialog") {
        x = kAgainst;
      }
    }
    if (x == kAgainst) against = true;
    if (x == kFor) for_ = true;
  }
  // One attribute for and another against (Sina's blog body, id
  // "sina_keyword_ad_area2" with class "articalContent"): the element says
  // nothing, unless it is a comment section, sidebar or footer.
  if (for_ && against) return IsStrongAgainst(e) ? kAgainst : kNoHint;
  return against ? kAgainst : for_ ? kFor : kNoHint;
}

namespace {

// A content picture: <img> or <picture> that is not an icon (an emoji, a
// smiley, a bullet drawn small) or an old layout's GIF.
bool IsPicture(const html::Node& e) {
  if (e.tag != "img" && e.tag != "picture") return false;
  for (const char* size : {"width", "height"}) {
    const std::string* v = e.Attribute(size);
    int px = 0;
    if (v != nullptr && absl::SimpleAtoi(*v, &px) && px > 0 && px < 48) {
      return false;
    }
  }
  // Old layouts draw corners, bars and spacers with GIFs; photos are JPEG
  // or PNG.
  if (const std::string* src = e.Attribute("src")) {
    absl::string_view path = *src;
    path = path.substr(0, path.find_first_of("?#"));
    if (absl::EndsWithIgnoreCase(path, ".gif")) return false;
  }
  if (const std::string* c = e.Attribute("class")) {
    const std::string lower = absl::AsciiStrToLower(*c);
    for (const char* icon : {"emoji", "icon", "smil", "avatar", "wp-smiley"}) {
      if (absl::StrContains(lower, icon)) return false;
    }
  }
  return true;
}

// Text-level elements: they do not make a paragraph of their own.
bool IsInline(const html::Node& e) {
  return ClassifyTag(e.tag) == TagClass::kDisplay &&
         !(e.tag.size() == 2 && e.tag[0] == 'h');
}

}  // namespace

void MarkAgainstLines(const html::Document& doc,
                      std::vector<ContentLine>* lines, Segmentation* seg,
                      double max_by_name_share) {
  const std::vector<html::Node>& nodes = doc.nodes;
  const int32_t n = static_cast<int32_t>(nodes.size());
  ElementHints hints(doc);
  auto valid = [&](int32_t x) { return x >= 0 && x < n; };
  // Node x lies under element e, looking no higher than `root`.
  auto inside = [&](int32_t x, int32_t e, int32_t root) {
    while (valid(x) && x != e && x != root) x = nodes[x].parent;
    return x == e;
  };
  // Pre-order sweeps for the caption test, made on first use: where each
  // element's subtree ends, whether it holds a picture, and how many text
  // nodes come before each node.
  std::vector<int32_t> end;
  std::vector<uint8_t> picture;
  std::vector<int32_t> texts_before;
  auto prepare = [&] {
    end.resize(nodes.size());
    picture.assign(nodes.size(), 0);
    texts_before.assign(nodes.size() + 1, 0);
    for (int32_t i = 0; i < n; ++i) {
      texts_before[i + 1] = texts_before[i] + (nodes[i].is_element() ? 0 : 1);
    }
    for (int32_t i = n; i-- > 0;) {
      if (end[i] < i + 1) end[i] = i + 1;
      if (nodes[i].is_element() && IsPicture(nodes[i])) picture[i] = 1;
      const int32_t p = nodes[i].parent;
      if (valid(p)) {
        end[p] = std::max(end[p], end[i]);
        picture[p] |= picture[i];
      }
    }
  };
  // The line is the caption of a picture beside it: the smallest element
  // around the line (below or at the block's root) that holds a picture
  // holds no other text, and the picture is not inline in the line's own
  // paragraph (a bullet image).
  auto is_caption = [&](const Block::LineNodes& ln, int32_t root) {
    if (end.empty()) prepare();
    int32_t para = nodes[ln.first].parent;
    while (valid(para) && para != root && IsInline(nodes[para])) {
      para = nodes[para].parent;
    }
    if (!valid(para) || para == root || picture[para]) return false;
    const int32_t line_texts =
        texts_before[ln.last + 1] - texts_before[ln.first];
    for (int32_t e = nodes[para].parent; valid(e); e = nodes[e].parent) {
      if (texts_before[end[e]] - texts_before[e] != line_texts) return false;
      // A picture in a cell of the line's own table row is decoration
      // beside it (a heading's rounded corners), not above or below it.
      if (picture[e]) return nodes[e].tag != "tr";
      if (e == root) break;
    }
    return false;
  };
  // The line is a control's label: it lies wholly inside the nearest
  // <button>, <label> or role=button element between its first text node
  // and the block's root ("Add to cart", "Show more", a filter's "In
  // stock"). What a page lets the reader do is not what it says.
  auto in_control = [&](const Block::LineNodes& ln, int32_t root) {
    for (int32_t e = nodes[ln.first].parent; valid(e) && e != root;
         e = nodes[e].parent) {
      const html::Node& n = nodes[e];
      const std::string* role = n.Attribute("role");
      if (n.tag == "button" || n.tag == "label" ||
          (role != nullptr && *role == "button")) {
        return inside(ln.last, e, root);
      }
    }
    return false;
  };
  for (Block& b : seg->blocks) b.against_lines.clear();
  // A page of records (a forum thread, a blog's front page) shows each
  // record's author and date in elements named so, and they are the
  // records' own.
  if (HoldsRecords(*seg)) return;
  // Why a line is marked: by the name of an element around it, or as a
  // caption or a control's label.
  enum Mark : uint8_t { kKept = 0, kByName, kCaptionOrControl };
  auto mark = [&](const ContentLine& l) -> Mark {
    const Block& b = seg->blocks[l.block];
    if (l.line < 0 || static_cast<size_t>(l.line) >= b.line_nodes.size()) {
      return kKept;
    }
    const Block::LineNodes& ln = b.line_nodes[l.line];
    if (!valid(b.node) || !valid(ln.first) || !valid(ln.last)) return kKept;
    const size_t length = text::CountCodePoints(l.text);
    if (length > kMaxAgainstLine) return kKept;
    // The nearest element with a hint between the first text node and the
    // block's root.
    int32_t against = -1;
    for (int32_t e = nodes[ln.first].parent; valid(e) && e != b.node;
         e = nodes[e].parent) {
      const int8_t h = hints.Of(e);
      if (h == kNoHint) continue;
      if (h == kAgainst) against = e;
      break;
    }
    // The whole line must lie inside it: "<span class=date>May 3</span>
    // The council voted ..." is a paragraph, not a date line.
    if (against >= 0 && inside(ln.last, against, b.node)) return kByName;
    return (length <= kMaxCaption && is_caption(ln, b.node)) ||
                   in_control(ln, b.node)
               ? kCaptionOrControl
               : kKept;
  };
  std::vector<Mark> marks(lines->size());
  size_t total = 0, by_name = 0;  // code points
  for (size_t i = 0; i < lines->size(); ++i) {
    const size_t length = text::CountCodePoints((*lines)[i].text);
    marks[i] = mark((*lines)[i]);
    total += length;
    if (marks[i] == kByName) by_name += length;
  }
  // Names that would take most of the content away are no frame's: every
  // paragraph classed "contextmenu Body" (a script's hook that holds the
  // word "menu"). The frame beside a text is the lesser part of it.
  const bool names_count = static_cast<double>(by_name) <=
                           max_by_name_share * static_cast<double>(total);
  size_t next = 0;
  for (size_t i = 0; i < lines->size(); ++i) {
    const ContentLine& l = (*lines)[i];
    if (marks[i] == kCaptionOrControl || (marks[i] == kByName && names_count)) {
      seg->blocks[l.block].against_lines.push_back(l.line);
    } else {
      (*lines)[next++] = l;
    }
  }
  lines->resize(next);
  // A block's pieces may come in page order among other blocks' lines.
  for (Block& b : seg->blocks) {
    std::sort(b.against_lines.begin(), b.against_lines.end());
  }
}

}  // namespace fcrawl::quark
