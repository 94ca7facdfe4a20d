// The nesting pre-scan before gumbo (core/html_nesting.h).
#include "core/html_nesting.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/string_view.h"

namespace fcrawl::html {
namespace {

// gumbo's tree builder checks element scopes by walking the stack of open
// elements, so its time grows with the square of the nesting depth (100,000
// nested <div>s take over a minute). This linear pre-scan tracks an estimate
// of that stack and drops the start tags (and their end tags) that would open
// an element deeper than `max_depth`; the text inside is kept. Pages within the
// limit are passed to gumbo unchanged.
class NestingLimiter {
 public:
  explicit NestingLimiter(int max_depth) : max_depth_(max_depth) {}

  // Returns true and fills `out` when the input had to be rewritten.
  bool Limit(absl::string_view in, std::string* out) {
    size_t copied = 0;  // in[0, copied) has been handled
    bool changed = false;
    size_t i = 0;
    auto drop = [&](size_t from, size_t to) {
      if (!changed) {
        out->clear();
        out->reserve(in.size());
        changed = true;
      }
      out->append(in.data() + copied, from - copied);
      copied = to;
    };
    while (true) {
      i = in.find('<', i);
      if (i == absl::string_view::npos || i + 1 >= in.size()) break;
      char c = in[i + 1];
      if (in.substr(i, 4) == "<!--") {
        size_t end = in.find("-->", i + 4);
        if (end == absl::string_view::npos) break;
        i = end + 3;
        continue;
      }
      if (c == '!' || c == '?') {
        size_t end = in.find('>', i);
        if (end == absl::string_view::npos) break;
        i = end + 1;
        continue;
      }
      bool closing = c == '/';
      size_t name_start = i + (closing ? 2 : 1);
      size_t name_end = name_start;
      while (name_end < in.size() && IsNameChar(in[name_end])) ++name_end;
      if (name_end == name_start ||
          !absl::ascii_isalpha(static_cast<unsigned char>(in[name_start]))) {
        ++i;  // not a tag: text
        continue;
      }
      // Tag names longer than the buffer are no known tag; their prefix is
      // still a fine key for matching start and end tags.
      char buf[24];
      size_t len = std::min(name_end - name_start, sizeof(buf));
      for (size_t k = 0; k < len; ++k) {
        buf[k] =
            absl::ascii_tolower(static_cast<unsigned char>(in[name_start + k]));
      }
      absl::string_view name(buf, len);
      size_t tag_end = FindTagEnd(in, name_end);
      if (tag_end == absl::string_view::npos) break;
      if (closing) {
        auto it = skipped_.empty() ? skipped_.end() : skipped_.find(name);
        if (it != skipped_.end() && it->second > 0) {
          --it->second;
          drop(i, tag_end + 1);
        } else {
          PopTo(name);
        }
        i = tag_end + 1;
        continue;
      }
      bool self_closing = in[tag_end - 1] == '/';
      uint8_t flags = Flags(name);
      if (flags & kRawText) {
        // Skip to the matching end tag: its content is not markup.
        i = FindRawTextEnd(in, tag_end + 1, name);
        continue;
      }
      if ((flags & kVoid) || self_closing) {
        i = tag_end + 1;
        continue;
      }
      if (flags & kAutoClose) AutoClose(name);
      if (static_cast<int>(stack_.size()) >= max_depth_) {
        ++skipped_[name];
        drop(i, tag_end + 1);
      } else {
        stack_.emplace_back(name);
      }
      i = tag_end + 1;
    }
    if (changed) out->append(in.data() + copied, in.size() - copied);
    return changed;
  }

 private:
  static bool IsNameChar(char c) {
    return absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '-' ||
           c == ':' || c == '_';
  }
  static size_t FindTagEnd(absl::string_view in, size_t from) {
    char quote = 0;
    for (size_t j = from; j < in.size(); ++j) {
      char c = in[j];
      if (quote) {
        if (c == quote) quote = 0;
      } else if (c == '"' || c == '\'') {
        // Only a quote that starts an attribute value opens a quoted run.
        if (j > 0 && in[j - 1] == '=') quote = c;
      } else if (c == '>') {
        return j;
      }
    }
    return absl::string_view::npos;
  }
  static size_t FindRawTextEnd(absl::string_view in, size_t from,
                               absl::string_view name) {
    for (size_t j = in.find("</", from); j != absl::string_view::npos;
         j = in.find("</", j + 2)) {
      if (absl::EqualsIgnoreCase(in.substr(j + 2, name.size()), name)) {
        return j;
      }
    }
    return in.size();
  }
  static constexpr uint8_t kVoid = 1, kRawText = 2, kAutoClose = 4;
  static uint8_t Flags(absl::string_view name) {
    static const auto* const kFlags = [] {
      auto* m = new absl::flat_hash_map<absl::string_view, uint8_t>();
      for (const char* t :
           {"area", "base", "br", "col", "embed", "hr", "img", "input", "link",
            "meta", "param", "source", "track", "wbr", "basefont", "bgsound",
            "frame", "keygen", "isindex"}) {
        (*m)[t] |= kVoid;
      }
      for (const char* t : {"script", "style", "textarea", "title", "xmp",
                            "iframe", "noembed", "noframes", "plaintext"}) {
        (*m)[t] |= kRawText;
      }
      // End tag optional (or a new one closes the open one of its kind).
      for (const char* t :
           {"p", "li", "dt", "dd", "tr", "td", "th", "option", "a", "optgroup",
            "tbody", "thead", "tfoot", "rb", "rt", "rp"}) {
        (*m)[t] |= kAutoClose;
      }
      return m;
    }();
    auto it = kFlags->find(name);
    return it == kFlags->end() ? 0 : it->second;
  }
  // A new element of this kind closes an open one of its kind, looking down
  // the stack only through elements that close the same way: <li> closes the
  // open <li> of its own list (through an open <p>), never one of an outer
  // list, so nested lists still count as nested.
  void AutoClose(absl::string_view name) {
    size_t depth = stack_.size();
    for (size_t k = 0; k < 8 && k < depth; ++k) {
      const std::string& open = stack_[depth - 1 - k];
      if (open == name) {
        stack_.resize(depth - 1 - k);
        return;
      }
      if (!(Flags(open) & kAutoClose)) return;
    }
  }
  void PopTo(absl::string_view name) {
    for (size_t k = stack_.size(); k-- > 0;) {
      if (stack_[k] == name) {
        stack_.resize(k);
        return;
      }
    }
  }

  int max_depth_;
  std::vector<std::string> stack_;
  absl::flat_hash_map<std::string, int> skipped_;  // dropped start tags
};

}  // namespace

bool LimitNesting(absl::string_view in, int max_depth, std::string* out) {
  return NestingLimiter(max_depth).Limit(in, out);
}

}  // namespace fcrawl::html
