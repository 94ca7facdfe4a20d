// The text model shared by every algorithm in fcrawl (see
// docs/papers.md, "Text model"): tokenization, stop words, stemming and
// Unicode helpers for the page segmenter. Term weights and similarity are in
// core/term_weights.h and URL words in core/url_words.h; both are included
// here, so text.h stays the one include for the whole text model.
//
// Thread-safety: every free function and every const method here may be
// called from many threads at once.
//
// All text is UTF-8. Invalid UTF-8 never crashes anything here: ill-formed
// sequences are treated as U+FFFD (a separator for the tokenizer).

#ifndef FCRAWL_CORE_TEXT_H_
#define FCRAWL_CORE_TEXT_H_

#include <cstddef>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "core/term_weights.h"
#include "core/url_words.h"

namespace fcrawl::text {

// ---------------------------------------------------------------------------
// Tokenizer
// ---------------------------------------------------------------------------

struct TokenizerOptions {
  // Normalize tokens with ICU's NFKC_Casefold (full case folding plus
  // compatibility mapping, so "Straße" -> "strasse", fullwidth "ＰＨＰ" ->
  // "php"), and map U+2019 to an ASCII apostrophe ("don’t" -> "don't").
  // On ASCII this is plain lower-casing. When false, tokens are returned as
  // they appear in the input.
  bool lowercase = true;
  // Drop tokens whose normalized form IsStopWord(). Matching is on the
  // normalized form even when `lowercase` is false, so "The" is a stop word.
  bool remove_stop_words = true;
  // Keep tokens that contain no alphabetic character ("2024", "3.14",
  // "1,000"). Mixed tokens such as "mp3" are always kept.
  bool keep_numbers = true;
  // At most this many tokens are appended per call; the rest of the input is
  // ignored. Bounds memory on hostile pages.
  size_t max_tokens = 1 << 20;
  // Split pure-ASCII runs without ICU. The result is identical to ICU's (it
  // is verified against ICU once per process, and disabled if ICU disagrees);
  // this switch exists for tests and benchmarks only.
  bool ascii_fast_path = true;
};

// Splits text into words with ICU's word BreakIterator (root locale), which
// segments Chinese, Japanese and Thai with its dictionaries and everything
// else by the UAX #29 rules. Only segments with a word rule status that
// contain at least one letter or digit become tokens, so punctuation, spaces,
// emoji and lone "_" or "@" are dropped. Inner apostrophes, periods and
// underscores stay inside tokens as in ICU ("don't", "e.g", "3.14",
// "__init__"); a leading or trailing one does not.
//
// Thread-safe: one Tokenizer may be used from many threads at once (each
// thread uses its own clone of a shared prototype BreakIterator). Cheap to
// construct and copy.
class Tokenizer {
 public:
  explicit Tokenizer(TokenizerOptions options = {});

  std::vector<std::string> Tokenize(absl::string_view utf8) const;
  // Appends the tokens of `utf8` to `*out` (which must not be null).
  void TokenizeInto(absl::string_view utf8,
                    std::vector<std::string>* out) const;

  const TokenizerOptions& options() const { return options_; }

 private:
  TokenizerOptions options_;
};

// True if `lowercase_token` (already normalized, e.g. a Tokenizer output) is
// in the shipped English or Chinese stop-word list
// (core/data/stopwords_{en,zh}.txt, embedded in the binary).
bool IsStopWord(absl::string_view lowercase_token);

// The Snowball English stem (Porter2, libstemmer) of a normalized token
// ("courses" -> "cours", "lectures" -> "lectur", "homework" -> "homework"),
// so that word forms match. Only tokens of ASCII letters (and inner
// apostrophes) of at least 3 bytes are stemmed; any other token (Chinese,
// numbers, "mp3") is returned as it is. Not idempotent in general: stem a
// token once. Thread-safe (one stemmer per thread).
std::string StemEnglish(absl::string_view lowercase_token);
// StemEnglish of each token, in place.
void StemTokens(std::vector<std::string>* tokens);

// ---------------------------------------------------------------------------
// Unicode helpers (used by the page segmenter). All are fast on ASCII. An
// ill-formed UTF-8 sequence counts as one code point (as if it were U+FFFD).
// ---------------------------------------------------------------------------

size_t CountCodePoints(absl::string_view utf8);

// The first `n` code points of `utf8` (all of it when shorter); never cuts
// a sequence in two.
absl::string_view PrefixCodePoints(absl::string_view utf8, size_t n);

// The longest prefix of `utf8` of at most `max_bytes` bytes that does not
// end inside a sequence.
absl::string_view PrefixBytes(absl::string_view utf8, size_t max_bytes);

// Number of code points with a Unicode punctuation general category (P*,
// u_ispunct): ASCII ! " # % & ' ( ) * , - . / : ; ? @ [ \ ] _ { } and CJK
// ，。！？、；：“”（）《》 etc. Symbols such as $ + < = > ^ ` | ~ are not
// punctuation.
size_t CountPunctuation(absl::string_view utf8);

// The writing system of a word: the ICU script code (UScriptCode, as an
// int so that callers need no ICU header) of its first letter that is not
// in the Common or Inherited script, with Hiragana and Katakana counted as
// Han (Japanese writes all three in one sentence); kNoScript for a word
// without such a letter ("2024", "—"). ASCII letters are Latin without a
// lookup.
inline constexpr int kNoScript = -1;
int ScriptOfWord(absl::string_view utf8);
// ICU's codes of the two scripts callers compare against.
int LatinScript();
int HanScript();

// Replaces each run of Unicode White_Space (ASCII space, tab, CR, LF, VT, FF,
// NBSP U+00A0, U+2000..U+200A, U+3000, ...) with one ASCII space and trims
// both ends. Ill-formed UTF-8 sequences become U+FFFD, so the result is
// always valid UTF-8.
std::string CollapseWhitespace(absl::string_view utf8);

namespace internal {
// True if the ASCII fast path matched ICU on the self-check probe corpus
// (run once per process); if false, the Tokenizer always uses ICU.
bool AsciiFastPathVerified();
}  // namespace internal

}  // namespace fcrawl::text

#endif  // FCRAWL_CORE_TEXT_H_
