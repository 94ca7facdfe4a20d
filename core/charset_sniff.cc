// Finding a charset label where a page states one: the Content-Type
// header's charset parameter and the HTML <meta> prescan. Implements
// CharsetFromContentType and CharsetFromMeta of core/charset.h; what the
// labels mean is charset_labels.h's business.
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/string_view.h"
#include "core/charset.h"
#include "core/charset_labels.h"

namespace fcrawl::charset {
namespace {

using internal::IsHtmlSpace;
using internal::LookupLabel;
using internal::TrimHtmlSpace;

// The <meta> prescan looks this far, by the project's rule (the HTML standard
// now says 1024, but real pages put long <head>s before their <meta>).
constexpr size_t kMetaScanLimit = 4096;

// ---------------------------------------------------------------------------
// <meta> prescan (HTML Standard 13.2.3.2, "prescan a byte stream").

enum class AttrResult { kAttribute, kNone, kEndOfInput };

// "Get an attribute": parses one attribute at s[*pos]. kNone means the tag
// ended ('>' at *pos); kEndOfInput means the tag is cut off.
AttrResult GetAttribute(absl::string_view s, size_t* pos, std::string* name,
                        std::string* value) {
  const size_t n = s.size();
  size_t i = *pos;
  while (i < n && (IsHtmlSpace(s[i]) || s[i] == '/')) ++i;
  if (i >= n) return AttrResult::kEndOfInput;
  if (s[i] == '>') {
    *pos = i;
    return AttrResult::kNone;
  }
  name->clear();
  value->clear();
  // Name.
  for (;; ++i) {
    if (i >= n) return AttrResult::kEndOfInput;
    const char c = s[i];
    if (c == '=' && !name->empty()) {
      ++i;
      break;
    }
    if (IsHtmlSpace(c)) {
      while (i < n && IsHtmlSpace(s[i])) ++i;
      if (i >= n) return AttrResult::kEndOfInput;
      if (s[i] != '=') {  // a name without value; s[i] starts the next one
        *pos = i;
        return AttrResult::kAttribute;
      }
      ++i;
      break;
    }
    if (c == '/' || c == '>') {
      *pos = i;
      return AttrResult::kAttribute;
    }
    name->push_back(absl::ascii_tolower(static_cast<unsigned char>(c)));
  }
  // Value.
  while (i < n && IsHtmlSpace(s[i])) ++i;
  if (i >= n) return AttrResult::kEndOfInput;
  if (s[i] == '"' || s[i] == '\'') {
    const char quote = s[i];
    const size_t end = s.find(quote, i + 1);
    if (end == absl::string_view::npos) return AttrResult::kEndOfInput;
    *value = std::string(s.substr(i + 1, end - i - 1));
    *pos = end + 1;
    return AttrResult::kAttribute;
  }
  if (s[i] == '>') {
    *pos = i;
    return AttrResult::kAttribute;
  }
  const size_t start = i;
  while (i < n && !IsHtmlSpace(s[i]) && s[i] != '>') ++i;
  if (i >= n) return AttrResult::kEndOfInput;
  *value = std::string(s.substr(start, i - start));
  *pos = i;
  return AttrResult::kAttribute;
}

// "Extract a character encoding from a meta element" for a content attribute
// such as "text/html; charset=gbk". Returns "" if there is none.
absl::string_view CharsetFromContentAttribute(absl::string_view content) {
  const size_t n = content.size();
  size_t pos = 0;
  for (;;) {
    // Find "charset", ASCII case-insensitively.
    size_t found = absl::string_view::npos;
    for (size_t i = pos; i + 7 <= n; ++i) {
      if (absl::EqualsIgnoreCase(content.substr(i, 7), "charset")) {
        found = i;
        break;
      }
    }
    if (found == absl::string_view::npos) return "";
    pos = found + 7;
    while (pos < n && IsHtmlSpace(content[pos])) ++pos;
    if (pos >= n || content[pos] != '=') continue;  // e.g. "charsets"
    ++pos;
    while (pos < n && IsHtmlSpace(content[pos])) ++pos;
    if (pos >= n) return "";
    if (content[pos] == '"' || content[pos] == '\'') {
      const size_t end = content.find(content[pos], pos + 1);
      if (end == absl::string_view::npos) return "";
      return content.substr(pos + 1, end - pos - 1);
    }
    const size_t start = pos;
    while (pos < n && !IsHtmlSpace(content[pos]) && content[pos] != ';') {
      ++pos;
    }
    return content.substr(start, pos - start);
  }
}

}  // namespace

std::string CharsetFromContentType(absl::string_view content_type) {
  const size_t n = content_type.size();
  size_t pos = 0;
  // Each round parses one ';'-separated segment "name=value"; the first
  // segment (the MIME type) has no '=' and is skipped the same way, which
  // also accepts a bare "charset=utf-8".
  while (pos < n) {
    size_t i = pos;
    while (i < n && content_type[i] != ';' && content_type[i] != '=') ++i;
    const absl::string_view name =
        TrimHtmlSpace(content_type.substr(pos, i - pos));
    if (i >= n) break;
    if (content_type[i] == ';') {
      pos = i + 1;
      continue;
    }
    // content_type[i] == '='.
    ++i;
    while (i < n && IsHtmlSpace(content_type[i])) ++i;
    std::string value;
    if (i < n && content_type[i] == '"') {
      // RFC 9110 quoted-string; an unterminated one runs to the end.
      for (++i; i < n && content_type[i] != '"'; ++i) {
        if (content_type[i] == '\\' && i + 1 < n) ++i;
        value.push_back(content_type[i]);
      }
      ++i;
    } else if (i < n && content_type[i] == '\'') {
      // Not HTTP, but seen in the wild.
      const size_t end = content_type.find('\'', i + 1);
      const size_t stop = end == absl::string_view::npos ? n : end;
      value = std::string(content_type.substr(i + 1, stop - i - 1));
      i = stop + 1;
    } else {
      const size_t start = i;
      while (i < n && content_type[i] != ';' && content_type[i] != ',' &&
             !IsHtmlSpace(content_type[i])) {
        ++i;
      }
      value = std::string(content_type.substr(start, i - start));
    }
    if (absl::EqualsIgnoreCase(name, "charset")) {
      return std::string(TrimHtmlSpace(value));
    }
    // Skip to the next parameter.
    while (i < n && content_type[i] != ';') ++i;
    pos = i + 1;
  }
  return "";
}

std::string CharsetFromMeta(absl::string_view html_prefix) {
  const absl::string_view s = html_prefix.substr(0, kMetaScanLimit);
  const size_t n = s.size();
  std::string name, value;
  size_t pos = 0;
  while (pos < n) {
    if (s[pos] != '<') {
      ++pos;
      continue;
    }
    const absl::string_view rest = s.substr(pos);
    if (absl::StartsWith(rest, "<!--")) {
      // "<!-->" closes too: the "--" of the opener counts.
      const size_t end = s.find("-->", pos + 2);
      if (end == absl::string_view::npos) return "";
      pos = end + 3;
      continue;
    }
    if (rest.size() > 5 && absl::StartsWithIgnoreCase(rest, "<meta") &&
        (IsHtmlSpace(rest[5]) || rest[5] == '/')) {
      pos += 6;
      bool seen_http_equiv = false, seen_content = false, seen_charset = false;
      bool got_pragma = false;
      int need_pragma = -1;  // -1 null, 0 false, 1 true
      std::string charset;
      bool have_charset = false;
      for (;;) {
        const AttrResult r = GetAttribute(s, &pos, &name, &value);
        if (r == AttrResult::kEndOfInput) return "";
        if (r == AttrResult::kNone) break;
        // Only the first of duplicate attributes counts.
        if (name == "http-equiv" && !seen_http_equiv) {
          seen_http_equiv = true;
          if (absl::EqualsIgnoreCase(TrimHtmlSpace(value), "content-type")) {
            got_pragma = true;
          }
        } else if (name == "content" && !seen_content) {
          seen_content = true;
          if (!have_charset) {
            const absl::string_view label = CharsetFromContentAttribute(value);
            if (!label.empty()) {
              charset = std::string(TrimHtmlSpace(label));
              have_charset = true;
              need_pragma = 1;
            }
          }
        } else if (name == "charset" && !seen_charset) {
          seen_charset = true;
          charset = std::string(TrimHtmlSpace(value));
          have_charset = true;
          need_pragma = 0;
        }
      }
      ++pos;  // past '>'
      if (need_pragma == -1 || (need_pragma == 1 && !got_pragma)) continue;
      if (!have_charset || LookupLabel(charset) < 0) continue;
      return charset;
    }
    if (rest.size() > 1 &&
        (absl::ascii_isalpha(rest[1]) ||
         (rest[1] == '/' && rest.size() > 2 && absl::ascii_isalpha(rest[2])))) {
      // Another tag: skip its name and attributes, so a '>' or "<meta"
      // inside a quoted attribute value cannot fool the scan.
      while (pos < n && !IsHtmlSpace(s[pos]) && s[pos] != '>') ++pos;
      for (;;) {
        const AttrResult r = GetAttribute(s, &pos, &name, &value);
        if (r == AttrResult::kEndOfInput) return "";
        if (r == AttrResult::kNone) break;
      }
      ++pos;
      continue;
    }
    if (rest.size() > 1 &&
        (rest[1] == '!' || rest[1] == '/' || rest[1] == '?')) {
      const size_t end = s.find('>', pos + 1);
      if (end == absl::string_view::npos) return "";
      pos = end + 1;
      continue;
    }
    ++pos;
  }
  return "";
}

}  // namespace fcrawl::charset
