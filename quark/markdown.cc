// The main content as Markdown (quark/markdown.h).
//
// Each line of MainContentLines is classified by the elements above its
// first text node (one bounded walk up the parent links), consecutive lines
// of one <pre> or one data table are gathered into a group, and each group
// is written with the blockquote and list prefixes its first line's
// context asks for.
#include "quark/markdown.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "core/text.h"
#include "quark/hints.h"

namespace fcrawl::quark {
namespace {

using html::Document;
using html::Node;

// A table whose subtree spans more nodes than this is a page's layout,
// not data; it is not scanned further.
constexpr int32_t kMaxTableNodes = 1 << 16;
// A data table's cell says a few words; a cell of more text is a layout
// cell holding an article.
constexpr size_t kMaxDataCellBytes = 500;
// Ordered list numbers are clamped so a hostile start attribute stays a
// short marker.
constexpr int64_t kMaxListNumber = 999999999;

bool IsPreformatted(absl::string_view tag) {
  return tag == "pre" || tag == "listing" || tag == "xmp" || tag == "plaintext";
}

bool IsList(absl::string_view tag) {
  return tag == "ul" || tag == "ol" || tag == "menu" || tag == "dir";
}

// What the elements above a line's first text node say the line is.
struct Context {
  int32_t pre = -1;
  int heading = 0;     // 1..6; 0: not in a heading
  int32_t cell = -1;   // the nearest <td>/<th> below the nearest <table>
  int32_t row = -1;    // its <tr>
  int32_t table = -1;  // the nearest <table>
  int quotes = 0;      // <blockquote>s above, at most kMaxMarkdownQuoteDepth
  std::vector<int32_t> items;  // the <li>s above, outermost first
};

Context ReadContext(const Document& doc, int32_t text_node) {
  Context c;
  std::vector<int32_t> items;  // nearest first
  const auto n = static_cast<int32_t>(doc.nodes.size());
  int32_t i = doc.nodes[text_node].parent;
  for (int steps = 0; i >= 0 && i < n && steps < kMaxMarkdownAncestors;
       ++steps, i = doc.nodes[i].parent) {
    const std::string& tag = doc.nodes[i].tag;
    if (IsPreformatted(tag)) {
      if (c.pre < 0) c.pre = i;
    } else if (const int h = HeadingLevel(tag); h > 0) {
      if (c.heading == 0) c.heading = h;
    } else if (tag == "td" || tag == "th") {
      if (c.cell < 0 && c.table < 0) c.cell = i;
    } else if (tag == "tr") {
      if (c.row < 0 && c.table < 0) c.row = i;
    } else if (tag == "table") {
      if (c.table < 0) c.table = i;
    } else if (tag == "li") {
      if (items.size() < static_cast<size_t>(kMaxMarkdownListDepth)) {
        items.push_back(i);
      }
    } else if (tag == "blockquote") {
      c.quotes = std::min(c.quotes + 1, kMaxMarkdownQuoteDepth);
    }
  }
  c.items.assign(items.rbegin(), items.rend());
  return c;
}

// Whether `table` holds data rather than a page's layout: no nested table,
// list, heading, quote or preformatted text, no long cell, at least two
// rows and a row of two cells. Its subtree is the index range after it
// (nodes are in pre-order), read once.
bool IsDataTable(const Document& doc, int32_t table) {
  const std::vector<Node>& nodes = doc.nodes;
  if (const std::string* role = nodes[table].Attribute("role");
      role != nullptr && (*role == "presentation" || *role == "none")) {
    return false;
  }
  int32_t last = table;
  while (!nodes[last].children.empty()) last = nodes[last].children.back();
  if (last - table > kMaxTableNodes) return false;
  size_t rows = 0, cells = 0, max_cells = 0, cell_bytes = 0;
  for (int32_t i = table + 1; i <= last; ++i) {
    const Node& node = nodes[i];
    if (!node.is_element()) {
      cell_bytes += node.text.size();
      if (cell_bytes > kMaxDataCellBytes) return false;
      continue;
    }
    const std::string& tag = node.tag;
    if (tag == "table" || tag == "li" || tag == "dl" || tag == "blockquote" ||
        IsList(tag) || IsPreformatted(tag) || HeadingLevel(tag) > 0) {
      return false;
    }
    if (tag == "tr") {
      ++rows;
      cells = 0;
    } else if (tag == "td" || tag == "th") {
      max_cells = std::max(max_cells, ++cells);
      cell_bytes = 0;
    }
  }
  return rows >= 2 && max_cells >= 2;
}

// The line's text with the page's own line breaks, for a code block: the
// raw text of its text nodes. The line's collapsed text when the raw text
// does not collapse to it (it always should) or is mostly white space, so
// the words and the size stay the plain text's.
std::string RawText(const Document& doc, const Block::LineNodes& ln,
                    absl::string_view text) {
  std::string raw;
  const size_t limit = 2 * text.size() + 256;
  for (int32_t i = ln.first; i <= ln.last; ++i) {
    const Node& node = doc.nodes[i];
    if (node.is_element()) continue;
    for (size_t k = 0; k < node.text.size(); ++k) {
      const char c = node.text[k];
      if (c != '\r') {
        raw.push_back(c);
      } else if (k + 1 == node.text.size() || node.text[k + 1] != '\n') {
        raw.push_back('\n');  // an old Mac line end
      }
    }
    if (raw.size() > limit) return std::string(text);
  }
  // Blank lines around the code say nothing.
  const size_t begin = raw.find_first_not_of(" \t\n");
  if (begin == std::string::npos) return std::string(text);
  const size_t line_begin = raw.rfind('\n', begin);
  raw.erase(0, line_begin == std::string::npos ? 0 : line_begin + 1);
  raw.erase(raw.find_last_not_of(" \t\n") + 1);
  if (text::CollapseWhitespace(raw) != text) return std::string(text);
  return raw;
}

// Whether `s` is `c`s and spaces only.
bool AllOf(absl::string_view s, char c) {
  const char set[] = {c, ' '};
  return s.find_first_not_of(absl::string_view(set, 2)) ==
         absl::string_view::npos;
}

// `s` with a backslash where its start would read as Markdown syntax.
std::string EscapeLineStart(absl::string_view s) {
  if (s.empty()) return "";
  const char c = s[0];
  const bool then_space = s.size() == 1 || s[1] == ' ';
  bool escape = false;
  switch (c) {
    case '#': {  // an ATX heading: 1 to 6 '#' and a space or the end
      const size_t run = std::min(s.find_first_not_of('#'), s.size());
      escape = run <= 6 && (run == s.size() || s[run] == ' ');
      break;
    }
    case '-':
    case '+':
    case '*':
    case '_':
    case '=':  // a list item, a thematic break, a setext underline
      escape = (then_space && c != '_' && c != '=') || AllOf(s, c);
      break;
    case '`':
    case '~':  // a code fence
      escape = absl::StartsWith(s, std::string(3, c));
      break;
    case '>':  // a quote
    case '<':  // raw HTML
      escape = true;
      break;
    case '[':  // a link reference definition "[x]: url"
      escape = absl::StrContains(s, "]:");
      break;
    default:
      break;
  }
  if (escape) return absl::StrCat("\\", s);
  // An ordered list item: 1 to 9 digits, '.' or ')', a space or the end.
  size_t d = 0;
  while (d < s.size() && d < 10 && absl::ascii_isdigit(s[d])) ++d;
  if (d > 0 && d <= 9 && d < s.size() && (s[d] == '.' || s[d] == ')') &&
      (d + 1 == s.size() || s[d + 1] == ' ')) {
    return absl::StrCat(s.substr(0, d), "\\", s.substr(d));
  }
  return std::string(s);
}

// A heading's text: a trailing run of '#' after a space would be read as
// the heading's closing sequence and dropped.
std::string EscapeHeading(absl::string_view s) {
  if (s.empty() || s.back() != '#') return std::string(s);
  const size_t run = s.find_last_not_of('#') + 1;  // npos + 1 == 0
  if (run != 0 && s[run - 1] != ' ') return std::string(s);
  return absl::StrCat(s.substr(0, run), "\\", s.substr(run));
}

std::string EscapeCell(absl::string_view s) {
  return absl::StrReplaceAll(s, {{"|", "\\|"}});
}

enum class Kind : uint8_t { kParagraph, kHeading, kCode, kTable };

struct Line {
  Kind kind = Kind::kParagraph;
  absl::string_view text;
  std::string code;  // kCode: the text with its line breaks
  Context context;
};

class Renderer {
 public:
  Renderer(const Document& doc, const Segmentation& seg)
      : doc_(doc), seg_(seg) {}

  std::string Render(const std::vector<ContentLine>& lines, bool flat) {
    std::vector<Line> classified;
    classified.reserve(lines.size());
    for (const ContentLine& l : lines) classified.push_back(Classify(l, flat));
    std::string out;
    const Line* previous = nullptr;
    for (size_t begin = 0; begin < classified.size();) {
      size_t end = begin + 1;
      const Line& first = classified[begin];
      while (end < classified.size() && SameGroup(first, classified[end])) {
        ++end;
      }
      if (previous != nullptr) {
        // Lines of one list stay a tight list; anything else is a
        // paragraph of its own (a blank line, inside the quote both are
        // in).
        if (!previous->context.items.empty() && !first.context.items.empty()) {
          out.push_back('\n');
        } else {
          const int q =
              std::min(previous->context.quotes, first.context.quotes);
          absl::StrAppend(&out, "\n", QuotePrefix(q, /*blank=*/true), "\n");
        }
      }
      WriteGroup(classified.data() + begin, classified.data() + end, &out);
      previous = &classified[end - 1];
      begin = end;
    }
    return out;
  }

 private:
  Line Classify(const ContentLine& l, bool flat) {
    Line line;
    line.text = l.text;
    const Block& b = seg_.blocks[l.block];
    if (flat || l.line < 0 ||
        static_cast<size_t>(l.line) >= b.line_nodes.size()) {
      return line;
    }
    const Block::LineNodes& ln = b.line_nodes[l.line];
    const auto n = static_cast<int32_t>(doc_.nodes.size());
    if (ln.first < 0 || ln.first >= n || ln.last < ln.first || ln.last >= n ||
        doc_.nodes[ln.first].is_element()) {
      return line;
    }
    line.context = ReadContext(doc_, ln.first);
    const Context& c = line.context;
    if (c.pre >= 0) {
      line.kind = Kind::kCode;
      line.code = RawText(doc_, ln, l.text);
    } else if (c.cell >= 0 && c.row >= 0 && c.table >= 0 &&
               DataTable(c.table)) {
      line.kind = Kind::kTable;
    } else if (c.heading > 0) {
      line.kind = Kind::kHeading;
    }
    return line;
  }

  static bool SameGroup(const Line& a, const Line& b) {
    if (a.kind != b.kind) return false;
    if (a.kind == Kind::kCode) return a.context.pre == b.context.pre;
    if (a.kind == Kind::kTable) return a.context.table == b.context.table;
    return false;
  }

  bool DataTable(int32_t table) {
    auto [it, inserted] = data_table_.try_emplace(table, false);
    if (inserted) it->second = IsDataTable(doc_, table);
    return it->second;
  }

  static std::string QuotePrefix(int quotes, bool blank) {
    std::string p;
    for (int i = 0; i < quotes; ++i) p.append("> ");
    if (blank && !p.empty()) p.pop_back();
    return p;
  }

  // "- " or "N. " for a new item `li`.
  std::string Marker(int32_t li) {
    int32_t list = doc_.nodes[li].parent;
    for (int up = 0; list >= 0 && up < 3 && !IsList(doc_.nodes[list].tag);
         ++up) {
      list = doc_.nodes[list].parent;
    }
    if (list < 0 || doc_.nodes[list].tag != "ol") return "- ";
    auto [it, inserted] = next_number_.try_emplace(list, 1);
    if (inserted) {
      int64_t start = 1;
      if (const std::string* s = doc_.nodes[list].Attribute("start");
          s != nullptr && absl::SimpleAtoi(*s, &start)) {
        it->second = std::clamp<int64_t>(start, 0, kMaxListNumber);
      }
    }
    const int64_t number = it->second;
    it->second = std::min(number + 1, kMaxListNumber);
    return absl::StrCat(number, ". ");
  }

  // The list prefixes of a group whose lines sit in the items `items`
  // (outermost first): `first` for its first line (the innermost item's
  // marker when that item begins here), `rest` for the others (the item's
  // content column). Items between an open one and a new innermost one
  // that have no line of their own add no indent: an indent of more than
  // three spaces with no item above it would read as indented code.
  void ListPrefixes(const std::vector<int32_t>& items, std::string* first,
                    std::string* rest) {
    first->clear();
    rest->clear();
    if (items.empty()) {
      open_.clear();
      return;
    }
    size_t common = 0;
    size_t indent = 0;
    while (common < open_.size() && common < items.size() &&
           open_[common].li == items[common]) {
      indent += open_[common].width;
      ++common;
    }
    open_.resize(common);
    if (common == items.size()) {  // more of an item already begun
      first->assign(indent, ' ');
      *rest = *first;
      return;
    }
    const std::string marker = Marker(items.back());
    open_.push_back({items.back(), marker.size()});
    *first = absl::StrCat(std::string(indent, ' '), marker);
    rest->assign(indent + marker.size(), ' ');
  }

  void WriteGroup(const Line* begin, const Line* end, std::string* out) {
    const Context& c = begin->context;
    std::vector<std::string> lines;
    switch (begin->kind) {
      case Kind::kParagraph:
        lines.push_back(EscapeLineStart(begin->text));
        break;
      case Kind::kHeading:
        lines.push_back(absl::StrCat(std::string(c.heading, '#'), " ",
                                     EscapeHeading(begin->text)));
        break;
      case Kind::kCode:
        CodeLines(begin, end, &lines);
        break;
      case Kind::kTable:
        TableLines(begin, end, &lines);
        break;
    }
    std::string first, rest;
    ListPrefixes(c.items, &first, &rest);
    const std::string quote = QuotePrefix(c.quotes, /*blank=*/false);
    for (size_t i = 0; i < lines.size(); ++i) {
      if (i > 0) out->push_back('\n');
      absl::StrAppend(out, quote, i == 0 ? first : rest, lines[i]);
    }
  }

  static void CodeLines(const Line* begin, const Line* end,
                        std::vector<std::string>* lines) {
    // The fence is longer than any run of backticks inside, so no line of
    // the code closes it.
    size_t longest = 0;
    for (const Line* l = begin; l != end; ++l) {
      size_t run = 0;
      for (char ch : l->code) {
        run = ch == '`' ? run + 1 : 0;
        longest = std::max(longest, run);
      }
    }
    const std::string fence(std::max<size_t>(3, longest + 1), '`');
    lines->push_back(fence);
    for (const Line* l = begin; l != end; ++l) {
      for (absl::string_view s : absl::StrSplit(l->code, '\n')) {
        lines->emplace_back(s);
      }
    }
    lines->push_back(fence);
  }

  // A pipe table of the group's rows; the first row is the header, since
  // GitHub's tables must have one (a <th> row, when the table has one, is
  // usually first).
  static void TableLines(const Line* begin, const Line* end,
                         std::vector<std::string>* lines) {
    std::vector<std::vector<std::string>> rows;
    int32_t row = -1, cell = -1;
    for (const Line* l = begin; l != end; ++l) {
      if (rows.empty() || l->context.row != row) {
        rows.emplace_back();
        row = l->context.row;
        cell = -1;
      }
      std::vector<std::string>& r = rows.back();
      if (l->context.cell != cell) {
        r.emplace_back();
        cell = l->context.cell;
      }
      if (!r.back().empty()) r.back().push_back(' ');
      absl::StrAppend(&r.back(), EscapeCell(l->text));
    }
    size_t columns = 0;
    for (const std::vector<std::string>& r : rows) {
      columns = std::max(columns, r.size());
    }
    columns = std::min(columns, kMaxMarkdownColumns);
    for (size_t i = 0; i < rows.size(); ++i) {
      std::vector<std::string>& r = rows[i];
      if (r.size() > columns) {  // the rest of the row joins its last cell
        r[columns - 1] = absl::StrJoin(r.begin() + (columns - 1), r.end(), " ");
        r.resize(columns);
      }
      r.resize(columns);
      lines->push_back(absl::StrCat("| ", absl::StrJoin(r, " | "), " |"));
      if (i == 0) {
        std::vector<absl::string_view> rule(columns, "---");
        lines->push_back(absl::StrCat("| ", absl::StrJoin(rule, " | "), " |"));
      }
    }
  }

  struct OpenItem {
    int32_t li;
    size_t width;  // of its marker: its content column past the indent
  };

  const Document& doc_;
  const Segmentation& seg_;
  std::vector<OpenItem> open_;  // the items the last list line sat in
  absl::flat_hash_map<int32_t, int64_t> next_number_;  // per <ol>
  absl::flat_hash_map<int32_t, bool> data_table_;
};

}  // namespace

std::string MainContentMarkdown(const html::Document& doc,
                                const Segmentation& seg) {
  const std::vector<ContentLine> lines = MainContentLines(seg);
  size_t plain = 0;
  for (const ContentLine& l : lines) plain += l.text.size() + 1;
  std::string out = Renderer(doc, seg).Render(lines, /*flat=*/false);
  // Padding, indents and markers can outgrow one-letter lines many times
  // over; paragraphs alone cannot.
  if (out.size() > 4 * plain + 4096) {
    out = Renderer(doc, seg).Render(lines, /*flat=*/true);
  }
  return out;
}

}  // namespace fcrawl::quark
