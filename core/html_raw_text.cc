// Script and style text cut out before gumbo parses a page
// (core/html_raw_text.h). The states follow the HTML tokenizer (WHATWG HTML,
// "Tokenization"), which gumbo implements.
#include "core/html_raw_text.h"

#include <algorithm>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/string_view.h"

namespace fcrawl::html {
namespace {

constexpr size_t npos = absl::string_view::npos;

// The tokenizer's whitespace; a CR is one too, since the input stream turns
// it into a line feed before tokenizing.
bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
}
bool IsAlpha(char c) {
  return absl::ascii_isalpha(static_cast<unsigned char>(c));
}
bool EndsTagName(char c) { return IsSpace(c) || c == '/' || c == '>'; }

// A tag name collected as the tokenizer's temporary buffer does: lower case,
// and long names only need to be told from the short ones compared with.
class NameBuffer {
 public:
  void Clear() { size_ = 0; }
  void Push(char c) {
    if (size_ < sizeof(buf_)) {
      buf_[size_] = absl::ascii_tolower(static_cast<unsigned char>(c));
    }
    ++size_;
  }
  bool Is(absl::string_view name) const {
    return size_ == name.size() && size_ <= sizeof(buf_) &&
           absl::string_view(buf_, size_) == name;
  }

 private:
  char buf_[16];
  size_t size_ = 0;
};

// Where the text of a RAWTEXT or RCDATA element (<style>, <title>, ...)
// that starts at `from` ends: the '<' of "</name" followed by whitespace,
// '/' or '>'; npos when it runs to the end.
size_t RawTextEnd(absl::string_view in, size_t from, absl::string_view name) {
  for (size_t j = in.find("</", from); j != npos; j = in.find("</", j + 2)) {
    size_t k = j + 2 + name.size();
    if (k < in.size() && EndsTagName(in[k]) &&
        absl::EqualsIgnoreCase(in.substr(j + 2, name.size()), name)) {
      return j;
    }
  }
  return npos;
}

// Where a comment that starts at `from` (just after "<!--") ends: the offset
// after its closing '>'; npos when it runs to the end. "<!-->" and "<!--->"
// are whole comments; "--!>" ends one too.
size_t CommentEnd(absl::string_view in, size_t from) {
  if (from < in.size() && in[from] == '>') return from + 1;
  if (in.substr(from, 2) == "->") return from + 2;
  // One pass over the "--"s: looking for "-->" and "--!>" apart would scan
  // the rest of the page for the second on every comment.
  for (size_t j = in.find("--", from); j != npos; j = in.find("--", j + 1)) {
    if (j + 2 < in.size() && in[j + 2] == '>') return j + 3;
    if (in.substr(j + 2, 2) == "!>") return j + 4;
  }
  return npos;
}

// The rest of a start or end tag from just after its name: returns the
// offset of the '>' that ends it (npos when the input ends first) and the
// first `type` attribute's value as written.
size_t TagEnd(absl::string_view in, size_t j, absl::string_view* type,
              bool* has_type) {
  const size_t n = in.size();
  *has_type = false;
  while (true) {
    while (j < n && (IsSpace(in[j]) || in[j] == '/')) ++j;
    if (j >= n) return npos;
    if (in[j] == '>') return j;
    // An attribute name: its first character may be anything ('=', a
    // quote), then up to whitespace, '/', '>' or '='.
    const size_t name_start = j++;
    while (j < n && !EndsTagName(in[j]) && in[j] != '=') ++j;
    absl::string_view name = in.substr(name_start, j - name_start);
    while (j < n && IsSpace(in[j])) ++j;
    if (j >= n) return npos;
    if (in[j] != '=') continue;
    ++j;
    while (j < n && IsSpace(in[j])) ++j;
    if (j >= n) return npos;
    absl::string_view value;
    if (in[j] == '"' || in[j] == '\'') {
      const size_t close = in.find(in[j], j + 1);
      if (close == npos) return npos;
      value = in.substr(j + 1, close - j - 1);
      j = close + 1;
    } else if (in[j] == '>') {
      return j;  // "name=>": an empty value, and the tag ends
    } else {
      const size_t value_start = j;
      while (j < n && !IsSpace(in[j]) && in[j] != '>') ++j;
      value = in.substr(value_start, j - value_start);
    }
    if (!*has_type && absl::EqualsIgnoreCase(name, "type")) {
      *has_type = true;
      *type = value;
    }
  }
}

enum class Element { kOther, kScript, kStyle, kRawText, kPlainText };

Element Classify(absl::string_view lower_name) {
  if (lower_name == "script") return Element::kScript;
  if (lower_name == "style") return Element::kStyle;
  // RCDATA and RAWTEXT elements: their text is no markup. <noscript> is
  // RAWTEXT when scripting is on; either way nothing is cut inside it.
  for (absl::string_view raw : {"title", "textarea", "xmp", "iframe", "noembed",
                                "noframes", "noscript"}) {
    if (lower_name == raw) return Element::kRawText;
  }
  if (lower_name == "plaintext") return Element::kPlainText;
  return Element::kOther;
}

}  // namespace

size_t ScriptDataEnd(absl::string_view in, size_t from) {
  // The standard's escaped and double-escaped states read dashes and '<'
  // alike; one set of states with `twice` (inside a double-escaped run)
  // stands for both, and its end tag open states are folded into the
  // less-than states that lead to them.
  enum class S {
    kData,
    kLessThan,
    kEndTagName,
    kEscapeStart,
    kEscapeStartDash,
    kEscaped,
    kEscapedDash,
    kEscapedDashDash,
    kEscapedLessThan,
    kDoubleEscapeStart,
    kDoubleEscapeEnd,
  };
  S s = S::kData;
  bool twice = false;        // in a double-escaped run
  bool escaped_end = false;  // the end tag being read is in an escaped run
  NameBuffer buffer;
  size_t tag_start = 0;  // the '<' of the end tag being read
  const size_t n = in.size();
  size_t i = from;
  // Each case either consumes in[i] (++i) or changes state and lets the next
  // state read the same character again (the standard's "reconsume").
  while (i < n) {
    const char c = in[i];
    switch (s) {
      case S::kData: {
        const size_t lt = in.find('<', i);
        if (lt == npos) return npos;
        i = lt + 1;
        s = S::kLessThan;
        break;
      }
      case S::kLessThan:
        if (c == '/') {
          buffer.Clear();
          tag_start = i++ - 1;
          escaped_end = false;
          s = i < n && IsAlpha(in[i]) ? S::kEndTagName : S::kData;
        } else if (c == '!') {
          s = S::kEscapeStart;
          ++i;
        } else {
          s = S::kData;
        }
        break;
      case S::kEndTagName:
        if (IsAlpha(c)) {
          buffer.Push(c);
          ++i;
        } else if (EndsTagName(c) && buffer.Is("script")) {
          return tag_start;
        } else {
          s = escaped_end ? S::kEscaped : S::kData;
        }
        break;
      case S::kEscapeStart:
        s = c == '-' ? S::kEscapeStartDash : S::kData;
        if (c == '-') ++i;
        break;
      case S::kEscapeStartDash:
        s = c == '-' ? S::kEscapedDashDash : S::kData;
        if (c == '-') ++i;
        break;
      case S::kEscaped: {
        const size_t next = in.find_first_of("-<", i);
        if (next == npos) return npos;
        s = in[next] == '-' ? S::kEscapedDash : S::kEscapedLessThan;
        i = next + 1;
        break;
      }
      case S::kEscapedDash:
        s = c == '-'   ? S::kEscapedDashDash
            : c == '<' ? S::kEscapedLessThan
                       : S::kEscaped;
        ++i;
        break;
      case S::kEscapedDashDash:
        if (c == '<') {
          s = S::kEscapedLessThan;
        } else if (c == '>') {
          s = S::kData;  // "-->" ends a double-escaped run too
          twice = false;
        } else if (c != '-') {
          s = S::kEscaped;
        }
        ++i;
        break;
      case S::kEscapedLessThan:
        if (c == '/') {
          buffer.Clear();
          if (twice) {
            s = S::kDoubleEscapeEnd;
            ++i;
          } else {
            tag_start = i++ - 1;
            escaped_end = true;
            s = i < n && IsAlpha(in[i]) ? S::kEndTagName : S::kEscaped;
          }
        } else if (!twice && IsAlpha(c)) {
          buffer.Clear();
          s = S::kDoubleEscapeStart;
        } else {
          s = S::kEscaped;
        }
        break;
      case S::kDoubleEscapeStart:
      case S::kDoubleEscapeEnd:
        if (EndsTagName(c)) {
          // "<script" opens a double-escaped run, "</script" closes it.
          if (buffer.Is("script")) twice = s == S::kDoubleEscapeStart;
          s = S::kEscaped;
          ++i;
        } else if (IsAlpha(c)) {
          buffer.Push(c);
          ++i;
        } else {
          s = S::kEscaped;
        }
        break;
    }
  }
  return npos;
}

bool CutRawText(absl::string_view in, std::string* out,
                std::vector<RawTextCut>* cuts) {
  const size_t n = in.size();
  size_t copied = 0;  // in[0, copied) is in *out (once anything was cut)
  bool changed = false;
  size_t i = 0;
  while (true) {
    i = in.find('<', i);
    if (i == npos || i + 1 >= n) break;
    const char c = in[i + 1];
    if (c == '!') {
      if (in.substr(i + 2, 2) == "--") {
        i = CommentEnd(in, i + 4);
      } else {
        // A DOCTYPE or a bogus comment (<![CDATA[ outside SVG and MathML
        // included): up to the first '>'.
        i = in.find('>', i + 2);
        if (i != npos) ++i;
      }
      if (i == npos) break;
      continue;
    }
    if (c == '?' || (c == '/' && i + 2 < n && !IsAlpha(in[i + 2]))) {
      // A bogus comment, or "</>" (ignored): up to the first '>'.
      i = in.find('>', i + 2);
      if (i == npos) break;
      ++i;
      continue;
    }
    const bool end_tag = c == '/';
    const size_t name_start = i + (end_tag ? 2 : 1);
    if (name_start >= n || !IsAlpha(in[name_start])) {
      ++i;  // a '<' in text
      continue;
    }
    size_t name_end = name_start;
    while (name_end < n && !EndsTagName(in[name_end])) ++name_end;
    absl::string_view type;
    bool has_type = false;
    const size_t tag_end = TagEnd(in, name_end, &type, &has_type);
    if (tag_end == npos) break;
    i = tag_end + 1;
    if (end_tag) continue;
    char lower[10];
    const size_t len = std::min(name_end - name_start, sizeof(lower));
    for (size_t k = 0; k < len; ++k) {
      lower[k] =
          absl::ascii_tolower(static_cast<unsigned char>(in[name_start + k]));
    }
    const Element kind = name_end - name_start > sizeof(lower)
                             ? Element::kOther
                             : Classify(absl::string_view(lower, len));
    if (kind == Element::kOther) continue;
    if (kind == Element::kPlainText) break;  // the rest is text
    const size_t content = tag_end + 1;
    size_t end;
    bool cut = false;
    if (kind == Element::kScript) {
      end = ScriptDataEnd(in, content);
      // JSON-LD is read from the tree; a type the scan cannot read as
      // written (a character reference) is left alone.
      cut = !(has_type &&
              (absl::StrContains(type, "&") ||
               absl::EqualsIgnoreCase(absl::StripAsciiWhitespace(type),
                                      "application/ld+json")));
    } else {
      end = RawTextEnd(in, content, absl::string_view(lower, len));
      cut = kind == Element::kStyle;
    }
    if (end == npos) break;  // runs to the end of the page: left as it is
    if (cut && end > content) {
      if (!changed) {
        out->clear();
        out->reserve(n);
        cuts->clear();
        changed = true;
      }
      out->append(in.data() + copied, content - copied);
      cuts->push_back({out->size(), kind == Element::kScript});
      copied = end;
    }
    i = end;
  }
  if (changed) out->append(in.data() + copied, n - copied);
  return changed;
}

}  // namespace fcrawl::html
