// The URL words of core/url_words.h.
#include "core/url_words.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "core/charset.h"
#include "core/file.h"
#include "core/text.h"
#include "core/url.h"

namespace fcrawl::text {
namespace {

const Tokenizer& DefaultTokenizer() {
  static const Tokenizer* const tokenizer = new Tokenizer();
  return *tokenizer;
}

bool IsUrlBoilerplate(absl::string_view lower) {
  static const auto* const kWords = new absl::flat_hash_set<absl::string_view>{
      "www",   "http", "https", "html", "htm", "shtml",
      "xhtml", "php",  "asp",   "aspx", "jsp", "index"};
  return kWords->contains(lower);
}

// Length of a leading "scheme:" (RFC 3986 syntax), or 0. "host:8080" is
// not a scheme, so scheme-less URLs with a port keep their host.
size_t SchemeLength(absl::string_view url) {
  if (url.empty() || !absl::ascii_isalpha(url[0])) return 0;
  size_t i = 1;
  while (i < url.size() && (absl::ascii_isalnum(url[i]) || url[i] == '+' ||
                            url[i] == '-' || url[i] == '.')) {
    ++i;
  }
  if (i >= url.size() || url[i] != ':') return 0;
  if (i + 1 < url.size() && absl::ascii_isdigit(url[i + 1])) return 0;
  return i + 1;
}

std::string PercentDecode(absl::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size()) {
      const int hi = url::HexDigitValue(s[i + 1]);
      const int lo = url::HexDigitValue(s[i + 2]);
      if (hi >= 0 && lo >= 0) {
        out.push_back(static_cast<char>(hi * 16 + lo));
        i += 2;
        continue;
      }
    }
    out.push_back(s[i]);
  }
  return out;
}

// Splits an ASCII alphanumeric run on case changes: before an upper-case
// letter that follows a lower-case letter or a digit ("camelCase",
// "mp3Player"), and before the last capital of a capital run that is
// followed by a lower-case letter ("HTMLPage" -> "HTML", "Page").
std::vector<absl::string_view> SplitCaseChanges(absl::string_view run) {
  std::vector<absl::string_view> parts;
  size_t begin = 0;
  for (size_t i = 1; i < run.size(); ++i) {
    if (!absl::ascii_isupper(run[i])) continue;
    const char prev = run[i - 1];
    const bool split = absl::ascii_islower(prev) || absl::ascii_isdigit(prev) ||
                       (absl::ascii_isupper(prev) && i + 1 < run.size() &&
                        absl::ascii_islower(run[i + 1]));
    if (split) {
      parts.push_back(run.substr(begin, i - begin));
      begin = i;
    }
  }
  parts.push_back(run.substr(begin));
  return parts;
}

// Appends the words of one ASCII alphanumeric run of a URL.
void AddUrlRun(absl::string_view run, const UrlDictionary* dictionary,
               std::vector<std::string>* out) {
  if (dictionary != nullptr) {
    absl::string_view word = dictionary->Lookup(run);
    if (!word.empty()) {
      DefaultTokenizer().TokenizeInto(word, out);
      return;
    }
  }
  for (absl::string_view part : SplitCaseChanges(run)) {
    std::string lower = absl::AsciiStrToLower(part);
    if (dictionary != nullptr) {
      absl::string_view word = dictionary->Lookup(lower);
      if (!word.empty()) {
        DefaultTokenizer().TokenizeInto(word, out);
        continue;
      }
    }
    if (IsUrlBoilerplate(lower) || IsStopWord(lower)) continue;
    out->push_back(std::move(lower));
  }
}

}  // namespace

absl::StatusOr<UrlDictionary> UrlDictionary::Parse(absl::string_view contents) {
  if (contents.size() > kMaxBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("url dictionary has ", contents.size(),
                     " bytes; the limit is ", kMaxBytes));
  }
  if (contents.substr(0, 3) == "\xEF\xBB\xBF") contents.remove_prefix(3);
  UrlDictionary dictionary;
  size_t line_number = 0;
  for (absl::string_view line : absl::StrSplit(contents, '\n')) {
    ++line_number;
    line = absl::StripAsciiWhitespace(line);  // also drops a CR
    if (line.empty() || line[0] == '#') continue;
    const size_t separator = line.find_first_of(" \t");
    if (separator == absl::string_view::npos) {
      return absl::InvalidArgumentError(
          absl::StrCat("url dictionary line ", line_number,
                       ": expected 'token word' (two fields), got '",
                       line.substr(0, 80), "'"));
    }
    const absl::string_view token = line.substr(0, separator);
    const absl::string_view word =
        absl::StripAsciiWhitespace(line.substr(separator));
    if (!std::all_of(token.begin(), token.end(), [](char c) {
          return absl::ascii_isalnum(static_cast<unsigned char>(c));
        })) {
      return absl::InvalidArgumentError(absl::StrCat(
          "url dictionary line ", line_number, ": token '", token.substr(0, 80),
          "' must be ASCII letters and digits (URLs are split on "
          "everything else)"));
    }
    if (!charset::IsValidUtf8(word)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "url dictionary line ", line_number, ": word is not valid UTF-8"));
    }
    std::string key = absl::AsciiStrToLower(token);
    if (dictionary.entries_.size() >= kMaxEntries &&
        !dictionary.entries_.contains(key)) {
      return absl::InvalidArgumentError(
          absl::StrCat("url dictionary line ", line_number, ": more than ",
                       kMaxEntries, " entries"));
    }
    dictionary.entries_[std::move(key)] = std::string(word);
  }
  return dictionary;
}

absl::StatusOr<UrlDictionary> UrlDictionary::Load(const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) {
    return file::ErrnoStatus("cannot open", path);
  }
  std::string contents;
  char buffer[1 << 16];
  size_t got;
  // Read at most one byte past the limit: enough to know it is too big.
  while ((got = std::fread(buffer, 1, sizeof(buffer), file)) > 0) {
    contents.append(buffer, got);
    if (contents.size() > kMaxBytes) {
      std::fclose(file);
      return absl::InvalidArgumentError(absl::StrCat(
          path, ": url dictionary is larger than ", kMaxBytes, " bytes"));
    }
  }
  const bool failed = std::ferror(file) != 0;
  const int error = errno;
  std::fclose(file);
  if (failed) return file::ErrnoStatus(error, "cannot read", path);
  absl::StatusOr<UrlDictionary> dictionary = Parse(contents);
  if (!dictionary.ok()) {
    return absl::Status(
        dictionary.status().code(),
        absl::StrCat(path, ": ", dictionary.status().message()));
  }
  return dictionary;
}

absl::string_view UrlDictionary::Lookup(absl::string_view token) const {
  auto it = entries_.find(token);
  if (it == entries_.end()) {
    bool has_upper = std::any_of(token.begin(), token.end(),
                                 [](char c) { return absl::ascii_isupper(c); });
    if (!has_upper) return {};
    it = entries_.find(absl::AsciiStrToLower(token));
    if (it == entries_.end()) return {};
  }
  return it->second;
}

std::vector<std::string> UrlWords(absl::string_view url,
                                  const UrlDictionary* dictionary) {
  url.remove_prefix(SchemeLength(url));
  const std::string decoded = PercentDecode(url);
  const auto* p = reinterpret_cast<const unsigned char*>(decoded.data());
  const size_t n = decoded.size();
  std::vector<std::string> words;
  for (size_t i = 0; i < n;) {
    if (p[i] < 0x80 && !absl::ascii_isalnum(p[i])) {
      ++i;
      continue;
    }
    const size_t begin = i;
    bool non_ascii = false;
    for (; i < n && (p[i] >= 0x80 || absl::ascii_isalnum(p[i])); ++i) {
      non_ascii |= p[i] >= 0x80;
    }
    const absl::string_view run(decoded.data() + begin, i - begin);
    if (non_ascii) {
      DefaultTokenizer().TokenizeInto(run, &words);
    } else {
      AddUrlRun(run, dictionary, &words);
    }
  }
  return words;
}

}  // namespace fcrawl::text
