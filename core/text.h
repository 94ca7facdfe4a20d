// The text model shared by every algorithm in fcrawl (see
// docs/papers.md, "Text model"): tokenization, stop words, Unicode
// helpers for the page segmenter, TF-IDF term weights ([MMTOPIC] formula
// 3.13), cosine similarity, the Boolean model ([MMTOPIC] formula 4.1), URL
// words ([MMTOPIC] §4.1.2) and HTML field weights ([INTEREST] §3.2).
//
// Thread-safety: every free function and every const method here may be
// called from many threads at once. DocumentFrequencies is internally
// synchronized, so its mutators may run concurrently with its readers too.
// UrlDictionary is immutable after Load()/Parse().
//
// All text is UTF-8. Invalid UTF-8 never crashes anything here: ill-formed
// sequences are treated as U+FFFD (a separator for the tokenizer).

#ifndef FCRAWL_CORE_TEXT_H_
#define FCRAWL_CORE_TEXT_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"

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

  std::vector<std::string> Tokenize(std::string_view utf8) const;
  // Appends the tokens of `utf8` to `*out` (which must not be null).
  void TokenizeInto(std::string_view utf8, std::vector<std::string>* out) const;

  const TokenizerOptions& options() const { return options_; }

 private:
  TokenizerOptions options_;
};

// True if `lowercase_token` (already normalized, e.g. a Tokenizer output) is
// in the shipped English or Chinese stop-word list
// (core/data/stopwords_{en,zh}.txt, embedded in the binary).
bool IsStopWord(std::string_view lowercase_token);

// The Snowball English stem (Porter2, libstemmer) of a normalized token
// ("courses" -> "cours", "lectures" -> "lectur", "homework" -> "homework"),
// so that word forms match. Only tokens of ASCII letters (and inner
// apostrophes) of at least 3 bytes are stemmed; any other token (Chinese,
// numbers, "mp3") is returned as it is. Not idempotent in general: stem a
// token once. Thread-safe (one stemmer per thread).
std::string StemEnglish(std::string_view lowercase_token);
// StemEnglish of each token, in place.
void StemTokens(std::vector<std::string>* tokens);

// ---------------------------------------------------------------------------
// Unicode helpers (used by the page segmenter). All are fast on ASCII. An
// ill-formed UTF-8 sequence counts as one code point (as if it were U+FFFD).
// ---------------------------------------------------------------------------

size_t CountCodePoints(std::string_view utf8);

// Number of code points with a Unicode punctuation general category (P*,
// u_ispunct): ASCII ! " # % & ' ( ) * , - . / : ; ? @ [ \ ] _ { } and CJK
// ，。！？、；：“”（）《》 etc. Symbols such as $ + < = > ^ ` | ~ are not
// punctuation.
size_t CountPunctuation(std::string_view utf8);

// Replaces each run of Unicode White_Space (ASCII space, tab, CR, LF, VT, FF,
// NBSP U+00A0, U+2000..U+200A, U+3000, ...) with one ASCII space and trims
// both ends. Ill-formed UTF-8 sequences become U+FFFD, so the result is
// always valid UTF-8.
std::string CollapseWhitespace(std::string_view utf8);

// ---------------------------------------------------------------------------
// Term weights ([MMTOPIC] formula 3.13) and similarity
// ---------------------------------------------------------------------------

// term -> (possibly weighted) occurrence count.
using TermCounts = absl::flat_hash_map<std::string, double>;
// term -> weight.
using TermVector = absl::flat_hash_map<std::string, double>;

// Each token counts 1.
TermCounts CountTerms(const std::vector<std::string>& tokens);

// Online document statistics of the crawl: N (documents seen) and n_i (how
// many of them contain term i). Seeded from the topic description, then
// updated with every page. Thread-safe.
//
// Memory grows with the vocabulary of the crawl (one entry per distinct
// term).
class DocumentFrequencies {
 public:
  DocumentFrequencies() = default;
  DocumentFrequencies(const DocumentFrequencies&) = delete;
  DocumentFrequencies& operator=(const DocumentFrequencies&) = delete;

  // Counts one document; each distinct term in `tokens` counts once.
  void AddDocument(const std::vector<std::string>& tokens)
      ABSL_LOCKS_EXCLUDED(mu_);
  // Counts `tokens` as `count` documents (N += count, and n_i += count for
  // each distinct term), so a topic description can give its terms a
  // document frequency before any page is seen. No-op if count <= 0.
  void Seed(const std::vector<std::string>& tokens, int64_t count)
      ABSL_LOCKS_EXCLUDED(mu_);

  int64_t documents() const ABSL_LOCKS_EXCLUDED(mu_);
  int64_t frequency(std::string_view term) const ABSL_LOCKS_EXCLUDED(mu_);

  // [MMTOPIC] formula 3.13:
  //   w_i = tf_i·lg(N/n_i + 0.01) / sqrt(Σ_j (tf_j·lg(N/n_j + 0.01))²)
  // with lg = log10, N = documents(), n_i = frequency(term i).
  // Reading: so that weights stay finite, a term never seen (n_i = 0) is
  // treated as n_i = 1 and N as max(N, 1); n_i is also capped at N (it can
  // only exceed N through that rounding). Terms with tf <= 0 are left out.
  // Returns an empty vector when no term has a positive weight. All
  // statistics are read under one lock, so the result is consistent.
  TermVector Weights(const TermCounts& tf) const ABSL_LOCKS_EXCLUDED(mu_);

 private:
  mutable absl::Mutex mu_;
  int64_t documents_ ABSL_GUARDED_BY(mu_) = 0;
  absl::flat_hash_map<std::string, int64_t> frequencies_ ABSL_GUARDED_BY(mu_);
};

// Cosine similarity of two term vectors; 0 when either is empty or has zero
// norm. The dot product iterates over the smaller map.
double Cosine(const TermVector& a, const TermVector& b);

// Boolean model ([MMTOPIC] formula 4.1): |D ∩ T| / |T| over distinct terms,
// where D = document_tokens and T = topic_terms. 0 if T is empty.
double BooleanSimilarity(const std::vector<std::string>& document_tokens,
                         const std::vector<std::string>& topic_terms);

// ---------------------------------------------------------------------------
// URL words ([MMTOPIC] §4.1.2)
// ---------------------------------------------------------------------------

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
  static absl::StatusOr<UrlDictionary> Parse(std::string_view contents);

  // The word for `token` (case-insensitive), or "" if there is none. The
  // view is valid as long as the dictionary is.
  std::string_view Lookup(std::string_view token) const;

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
std::vector<std::string> UrlWords(std::string_view url,
                                  const UrlDictionary* dictionary = nullptr);

// ---------------------------------------------------------------------------
// HTML field weights ([INTEREST] §3.2)
// ---------------------------------------------------------------------------

// Multipliers for terms in <title>, <meta> keywords/description and anchor
// text (CofTitle, CofMeta, CofLinkText). The paper allows 2..10.
struct FieldWeights {
  double title = 3;
  double meta = 3;
  double link_text = 3;

  // InvalidArgument naming the first field outside [2, 10] (or NaN).
  absl::Status Validate() const;
};

// Each occurrence counts 1 in `body`, w.title in `title`, w.meta in `meta`
// and w.link_text in `anchor_text`. Does not validate `w`.
TermCounts WeightedTermCounts(const std::vector<std::string>& body,
                              const std::vector<std::string>& title,
                              const std::vector<std::string>& meta,
                              const std::vector<std::string>& anchor_text,
                              const FieldWeights& w);

namespace internal {
// True if the ASCII fast path matched ICU on the self-check probe corpus
// (run once per process); if false, the Tokenizer always uses ICU.
bool AsciiFastPathVerified();
}  // namespace internal

}  // namespace fcrawl::text

#endif  // FCRAWL_CORE_TEXT_H_
