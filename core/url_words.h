// URL words ([MMTOPIC] §4.1.2): the words a URL's text holds, for the
// Boolean model, with an optional dictionary of URL tokens (pinyin,
// abbreviations) to words. Tokenizes with core/text.h's default Tokenizer.
//
// Thread-safety: UrlWords may be called from many threads at once;
// UrlDictionary is immutable after Load()/Parse().
#ifndef FCRAWL_CORE_URL_WORDS_H_
#define FCRAWL_CORE_URL_WORDS_H_

#include <cstddef>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace fcrawl::text {

// Maps URL tokens (e.g. pinyin) to words: "wuli 物理". Immutable after
// construction, so thread-safe.
//
// File format: one entry per line, `token<spaces or tabs>word`. The token
// must be ASCII letters and digits (URL words are split on everything else,
// so any other token could never match) and is matched case-insensitively.
// The word is the rest of the line, trimmed; it may contain spaces
// ("cs computer science") and must be valid UTF-8. Blank lines and lines
// whose first non-blank character is '#' are ignored (there are no trailing
// comments). A UTF-8 BOM and CRLF line ends are accepted. A token listed
// twice keeps its last word. Limits: 16 MiB of text, 1M entries.
class UrlDictionary {
 public:
  static constexpr size_t kMaxBytes = 16 << 20;
  static constexpr size_t kMaxEntries = 1'000'000;

  // An empty dictionary.
  UrlDictionary() = default;

  // Errors: NotFound / PermissionDenied / ... when the file cannot be read,
  // InvalidArgument for a malformed line (naming the line number) or a file
  // beyond the limits. Messages start with `path`.
  static absl::StatusOr<UrlDictionary> Load(const std::string& path);
  static absl::StatusOr<UrlDictionary> Parse(absl::string_view contents);

  // The word for `token` (case-insensitive), or "" if there is none. The
  // view is valid as long as the dictionary is.
  absl::string_view Lookup(absl::string_view token) const;

  size_t size() const { return entries_.size(); }

 private:
  absl::flat_hash_map<std::string, std::string> entries_;  // lower-case keys
};

// Words of a URL for the Boolean model, in URL order (duplicates kept):
//  1. the scheme ("http:") is dropped and %XX escapes are decoded;
//  2. the rest is split on every ASCII byte that is not a letter or digit;
//  3. an ASCII run is looked up whole in `dictionary` ("WuLi" -> "wuli");
//     otherwise it is split on case changes ("QuantumMechanics" -> quantum,
//     mechanics; "HTMLPage" -> html, page; "MP3Player" -> mp3, player; no
//     split between a letter and the digits after it) and lower-cased;
//  4. each piece found in `dictionary` is replaced by its word, tokenized
//     with the default Tokenizer ("物理学" may become several tokens);
//  5. other pieces that are URL boilerplate (www http https html htm shtml
//     xhtml php asp aspx jsp index) or English stop words are dropped; pure
//     numbers are kept ("2008" can be on topic, and extra URL words never
//     lower the Boolean similarity);
//  6. runs containing non-ASCII bytes (IRIs, decoded %E7%89%A9...) are
//     tokenized with the default Tokenizer.
std::vector<std::string> UrlWords(absl::string_view url,
                                  const UrlDictionary* dictionary = nullptr);

}  // namespace fcrawl::text

#endif  // FCRAWL_CORE_URL_WORDS_H_
