// Structure hints: what an element's tag and its class, id, itemprop and
// role words say about its text (<article>, "post-body" for; "comment",
// "footer", "sidebar", "related" against). The analyzer weighs blocks by
// them (AnalyzerOptions::structure_hints) and the recognizer makes comment
// sections, sidebars and footers blocks of their own
// (RecognizerOptions::hint_blocks). Internal to the quark library.
//
// Thread-safety: pure functions of their argument.
#ifndef FCRAWL_QUARK_HINTS_H_
#define FCRAWL_QUARK_HINTS_H_

#include <cstdint>
#include <initializer_list>
#include <vector>

#include "absl/strings/string_view.h"
#include "core/html.h"
#include "quark/quark.h"

namespace fcrawl::quark {

enum Hint : int8_t { kAgainst = -1, kNoHint = 0, kFor = 1 };

// The element's own hint (not its ancestors'). Words are the runs of ASCII
// letters and digits of the class, id and itemprop attributes, lower-cased;
// one word against makes the element against.
int8_t ElementHint(const html::Node& element);

// ElementHint of the elements of one page, each computed on first use: a
// page's blocks and lines share their ancestors; but an element against
// that wraps the page's main content says nothing (WrapsMainContent). Not
// thread-safe; `doc` must outlive it.
class ElementHints {
 public:
  explicit ElementHints(const html::Document& doc) : doc_(doc) {}
  int8_t Of(int32_t element) {
    if (hint_.empty()) hint_.assign(doc_.nodes.size(), kUnknown);
    int8_t& h = hint_[element];
    if (h == kUnknown) {
      h = ElementHint(doc_.nodes[element]);
      if (h == kAgainst && WrapsMainContent(element)) h = kNoHint;
    }
    return h;
  }

 private:
  static constexpr int8_t kUnknown = 2;  // not a Hint
  // An element named against that holds the page's <main>, an <article>
  // or a role=main element is a layout's wrapper, not what its name says:
  // "sidebar-collapsed" on the page's outer <div>, a "SidebarLayout" around
  // both the sidebar and the main column. It gives no hint. A comment
  // section (which wraps each comment in an <article>) keeps its hint, and
  // so do a <footer>, <nav> or <aside> unless they hold the page's <main>
  // (an <aside> the page left open).
  bool WrapsMainContent(int32_t element);
  const html::Document& doc_;
  std::vector<int8_t> hint_;         // sized on first use
  std::vector<uint8_t> holds_main_;  // HoldsMainContent, on first use
};

// A <main> element or one with role=main.
bool IsMainElement(const html::Node& element);

// A heading's level: 1 to 6 for "h1" to "h6" (lower-case tag names, as
// html::Node has them), 0 for any other tag.
inline int HeadingLevel(absl::string_view tag) {
  return tag.size() == 2 && tag[0] == 'h' && tag[1] >= '1' && tag[1] <= '6'
             ? tag[1] - '0'
             : 0;
}

// Per node of `doc`: kHoldsMain when it is or holds a <main> or role=main
// element, else kHoldsArticle when it is or holds an <article>, else 0.
inline constexpr uint8_t kHoldsArticle = 1, kHoldsMain = 2;
std::vector<uint8_t> HoldsMainContent(const html::Document& doc);

// Whether the element's id or class (lower-cased, its first 256 bytes)
// contains one of `words` (substrings: "main-menu" holds "menu").
bool NamesAny(const html::Node& element,
              std::initializer_list<absl::string_view> words);

// Whether a word of the element's id or class (ForEachNameWord's words:
// runs of ASCII letters and digits, lower-cased, less the ones that say
// nothing, such as those after "no-") begins with one of `prefixes`:
// "reviews" and "ratings-list" begin with "review" and "rating",
// "preview" and "operating" do not.
bool NamesWordStartingWith(const html::Node& element,
                           std::initializer_list<absl::string_view> prefixes);

// An id or class naming comments or replies (comment, disqus, repl,
// respond): a comment section, whose comments may each be an <article>.
bool NamesCommentSection(const html::Node& element);

// A comment section, sidebar or footer (by tag, or by a class or id word
// with no word for beside it): against even above an element that says for.
bool IsStrongAgainst(const html::Node& element);

// Sets Block::against_lines and removes those lines from `lines` (the
// content lines, ContentLinesInPageOrder; Analyze must have run). A line is
// marked when it lies wholly inside an element below its block's root whose
// own hint is against (the nearest element with a hint, looking up from the
// line's first text node, decides; one that says for keeps the line): a
// content block often holds the article's whole frame (breadcrumbs, share
// bar, caption, tag list, "Advertisement" slot) beside its text, and only
// these elements' names tell them apart. A line of at most kMaxCaption code
// points is also marked when it is a picture's caption: the smallest element
// around it that holds a picture (<img> or <picture>, not an icon or a GIF)
// holds no other text, and the picture is not inline in the line's own
// paragraph ("<div class=pic><img><p>图为…</p></div>", a table cell under a
// photo's cell). So is a line that lies wholly inside a control (the
// nearest <button>, <label> or role=button element): "Add to cart", "Show
// more", a filter's options. Lines of more than kMaxAgainstLine code
// points stay: a paragraph that long is text, whatever its wrapper is
// called. A page of records (HoldsRecords) is left alone: its records'
// authors and dates are their own. Needs Block::line_nodes (Recognize).
// When the lines marked by the names around them would be more than
// `max_by_name_share` of the content lines' text, those names are no
// frame's and mark nothing (captions and controls are still marked):
// kMaxByNameShare when the content is Analyze's; kNoByNameLimit for a page
// widened by its type (ChooseContentByType), whose frame may well be most
// of what widening took.
inline constexpr size_t kMaxAgainstLine = 400;
inline constexpr size_t kMaxCaption = 200;
inline constexpr double kMaxByNameShare = 0.5;
inline constexpr double kNoByNameLimit = 1.0;
void MarkAgainstLines(const html::Document& doc,
                      std::vector<ContentLine>* lines, Segmentation* seg,
                      double max_by_name_share = kNoByNameLimit);

}  // namespace fcrawl::quark

#endif  // FCRAWL_QUARK_HINTS_H_
