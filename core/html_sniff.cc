// What a body is and where it sends its reader, read as the standards
// define them and without a parse: MIME sniffing of bodies a server could
// not name, and the URL of a declarative refresh (core/html.h). Apart from
// html.cc because neither needs gumbo or the document tree.
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/string_view.h"
#include "core/html.h"

namespace fcrawl::html {

namespace {

// A header line of a saved HTTP response: "HTTP/1.0 200 OK" or a field
// name (RFC 9110 token characters) followed by ':'.
bool IsHeaderLine(absl::string_view line) {
  if (absl::StartsWith(line, "HTTP/")) return true;
  size_t i = 0;
  while (i < line.size() &&
         (absl::ascii_isalnum(static_cast<unsigned char>(line[i])) ||
          line[i] == '-' || line[i] == '_')) {
    ++i;
  }
  return i > 0 && i < line.size() && line[i] == ':';
}

// What follows a block of saved response headers at the start of `bytes`
// (two or more header lines, then an empty line, within the first 4 KiB),
// or `bytes` itself. Old crawl archives keep each page as the server sent
// it, headers first, and a web served from such files sends them as the
// body.
absl::string_view AfterSavedHeaders(absl::string_view bytes) {
  constexpr size_t kMaxHeaderBlock = 4096;
  size_t pos = 0;
  int lines = 0;
  while (pos < bytes.size() && pos < kMaxHeaderBlock) {
    size_t end = bytes.find('\n', pos);
    if (end == absl::string_view::npos) return bytes;
    absl::string_view line = bytes.substr(pos, end - pos);
    if (absl::EndsWith(line, "\r")) line.remove_suffix(1);
    pos = end + 1;
    if (line.empty()) return lines >= 2 ? bytes.substr(pos) : bytes;
    if (!IsHeaderLine(line)) return bytes;
    ++lines;
  }
  return bytes;
}

}  // namespace

bool LooksLikeHtml(absl::string_view bytes) {
  if (absl::StartsWith(bytes, "\xEF\xBB\xBF")) bytes.remove_prefix(3);
  bytes = AfterSavedHeaders(bytes);
  // Blanks as the standard counts them: tab, LF, FF, CR, space.
  while (!bytes.empty() &&
         (bytes[0] == '\t' || bytes[0] == '\n' || bytes[0] == '\f' ||
          bytes[0] == '\r' || bytes[0] == ' ')) {
    bytes.remove_prefix(1);
  }
  static constexpr absl::string_view kTags[] = {"<!DOCTYPE HTML",
                                                "<HTML",
                                                "<HEAD",
                                                "<SCRIPT",
                                                "<IFRAME",
                                                "<H1",
                                                "<DIV",
                                                "<FONT",
                                                "<TABLE",
                                                "<A",
                                                "<STYLE",
                                                "<TITLE",
                                                "<B",
                                                "<BODY",
                                                "<BR",
                                                "<P",
                                                "<!--"};
  for (absl::string_view tag : kTags) {
    if (bytes.size() > tag.size() &&
        absl::EqualsIgnoreCase(bytes.substr(0, tag.size()), tag) &&
        (bytes[tag.size()] == ' ' || bytes[tag.size()] == '>')) {
      return true;
    }
  }
  return false;
}

std::string RefreshUrl(absl::string_view content) {
  // HTML "shared declarative refresh steps": the delay (digits and dots),
  // then ';', ',' or blanks, then optionally "url" '=', then the URL,
  // quoted or running to the end.
  absl::string_view s = absl::StripLeadingAsciiWhitespace(content);
  size_t i = 0;
  while (i < s.size() && (absl::ascii_isdigit(s[i]) || s[i] == '.')) ++i;
  if (i == 0) return "";  // no delay: not a refresh
  s.remove_prefix(i);
  if (s.empty()) return "";  // reloads itself
  if (s[0] != ';' && s[0] != ',' && !absl::ascii_isspace(s[0])) return "";
  s = absl::StripLeadingAsciiWhitespace(s);
  if (!s.empty() && (s[0] == ';' || s[0] == ',')) {
    s = absl::StripLeadingAsciiWhitespace(s.substr(1));
  }
  if (s.size() >= 3 && absl::EqualsIgnoreCase(s.substr(0, 3), "url")) {
    absl::string_view rest = absl::StripLeadingAsciiWhitespace(s.substr(3));
    if (!rest.empty() && rest[0] == '=') {
      s = absl::StripLeadingAsciiWhitespace(rest.substr(1));
    }
  }
  if (!s.empty() && (s[0] == '\'' || s[0] == '"')) {
    const char quote = s[0];
    s.remove_prefix(1);
    const size_t end = s.find(quote);
    if (end != absl::string_view::npos) s = s.substr(0, end);
  }
  return std::string(absl::StripTrailingAsciiWhitespace(s));
}

}  // namespace fcrawl::html
