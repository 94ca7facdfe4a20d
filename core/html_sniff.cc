// What a body is and where it sends its reader, read as the standards
// define them and without a parse: MIME sniffing of bodies a server could
// not name, the URL of a declarative refresh, and what a URL's extension
// says its file is (core/html.h). Apart from html.cc because none of them
// needs gumbo or the document tree.
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
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

namespace {

// The lower-cased extension of a URL's file name ("" when it has none or
// one longer than five characters).
std::string ExtensionOfUrl(absl::string_view u) {
  size_t end = u.find_first_of("?#");
  if (end != absl::string_view::npos) u = u.substr(0, end);
  size_t slash = u.rfind('/');
  if (slash != absl::string_view::npos) u = u.substr(slash + 1);
  size_t dot = u.rfind('.');
  if (dot == absl::string_view::npos || u.size() - dot > 6) return "";
  return absl::AsciiStrToLower(u.substr(dot + 1));
}

// The media type an extension names (MediaTypeOfUrl). A map, not a list
// of C strings compared in turn: every out-link of every page asks.
MediaType MediaTypeOfExtension(absl::string_view ext) {
  static const auto* const kTypes =
      new absl::flat_hash_map<absl::string_view, MediaType>({
          {"mp3", MediaType::kAudio},  {"flac", MediaType::kAudio},
          {"wav", MediaType::kAudio},  {"wma", MediaType::kAudio},
          {"mid", MediaType::kAudio},  {"midi", MediaType::kAudio},
          {"rm", MediaType::kAudio},   {"au", MediaType::kAudio},
          {"avi", MediaType::kVideo},  {"mpeg", MediaType::kVideo},
          {"mpg", MediaType::kVideo},  {"mpe", MediaType::kVideo},
          {"rmvb", MediaType::kVideo}, {"wmv", MediaType::kVideo},
          {"mov", MediaType::kVideo},  {"asf", MediaType::kVideo},
          {"vob", MediaType::kVideo},  {"dat", MediaType::kVideo},
          {"m1v", MediaType::kVideo},  {"m2v", MediaType::kVideo},
          {"divx", MediaType::kVideo}, {"mp4", MediaType::kVideo},
          {"webm", MediaType::kVideo}, {"swf", MediaType::kAnimation},
      });
  const auto it = kTypes->find(ext);
  return it == kTypes->end() ? MediaType::kNone : it->second;
}

}  // namespace

bool NamesUnreadableFile(absl::string_view url) {
  const std::string ext = ExtensionOfUrl(url);
  if (ext.empty()) return false;
  static const auto* const kFiles = new absl::flat_hash_set<std::string>(
      {"gif", "jpg",  "jpeg", "png",  "bmp", "tif",  "tiff", "ico",
       "xbm", "zip",  "gz",   "tgz",  "tar", "z",    "bz2",  "xz",
       "rar", "7z",   "hqx",  "sit",  "pdf", "ps",   "eps",  "dvi",
       "doc", "docx", "ppt",  "pptx", "xls", "xlsx", "rtf",  "exe",
       "msi", "dmg",  "iso",  "bin",  "jar", "class"});
  return kFiles->contains(ext) || MediaTypeOfExtension(ext) != MediaType::kNone;
}

MediaType MediaTypeOfUrl(absl::string_view url) {
  const std::string ext = ExtensionOfUrl(url);
  return ext.empty() ? MediaType::kNone : MediaTypeOfExtension(ext);
}

}  // namespace fcrawl::html
