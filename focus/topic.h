// The crawl topic T that the strategies score pages, blocks and anchors
// against (docs/papers.md "Text model"): the topic's tokens, their TF-IDF
// vector ([MMTOPIC] formula 3.13), cosine similarity of a text to it, and the
// Boolean model ([MMTOPIC] formula 4.1).
//
// Document frequencies. The weights of formula 3.13 need N and n_i. A Topic
// either shares the crawl's text::DocumentFrequencies (updated online by the
// worker; the Topic only reads it) or owns one seeded from the topic itself
// (keywords + description counted as one document, as docs/papers.md's
// Reading says). With only that seed, N = 1 and every n_i = 1 (unknown terms
// count as n_i = 1 too), so every term gets the same idf lg(1.01) and the
// vectors reduce to normalised term frequencies.
//
// The topic's own vector is recomputed from the current statistics on every
// call (a topic has a few dozen terms), so a Topic follows the online
// statistics without being rebuilt.
//
// Word forms: the topic's tokens and every text or token list compared with
// it are stemmed (text::StemEnglish, Snowball English on ASCII words), so
// "courses" matches "course" and "lectures" matches "lecture"; tokens are
// given unstemmed to every method except SimilarityOfTerms. Document
// frequencies are of stemmed terms too (Terms() gives them for a page).
//
// Thread-safety: a Topic is immutable after construction; its const methods
// may be called from many threads at once, also while another thread updates
// a shared DocumentFrequencies (which is internally synchronised). Copies are
// cheap and share the statistics.
#ifndef FCRAWL_FOCUS_TOPIC_H_
#define FCRAWL_FOCUS_TOPIC_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "core/text.h"

namespace fcrawl::focus {

class Topic {
 public:
  // Tokens of `keywords` then `description` (text::Tokenizer with default
  // options: case-folded, stop words removed). The Topic owns its statistics,
  // seeded with those tokens as one document.
  static Topic FromText(absl::string_view keywords,
                        absl::string_view description);

  // Same tokens, weighted with the crawl's shared statistics, which the Topic
  // never modifies (call SeedInto() to give the topic terms a document
  // frequency before any page is seen). `frequencies` must not be null.
  static Topic FromText(
      absl::string_view keywords, absl::string_view description,
      std::shared_ptr<const text::DocumentFrequencies> frequencies,
      const text::Tokenizer& tokenizer = text::Tokenizer());

  // True when the topic has no tokens; every similarity is then 0.
  bool empty() const { return terms_.empty(); }
  // Distinct topic terms (stemmed) in first-occurrence order.
  const std::vector<std::string>& terms() const { return terms_; }
  // Term frequencies of the topic (each token counts 1).
  const text::TermCounts& counts() const { return counts_; }
  const text::DocumentFrequencies& frequencies() const { return *frequencies_; }
  const text::Tokenizer& tokenizer() const { return tokenizer_; }

  // Counts the topic's tokens as `count` documents of `df` (a no-op for
  // count <= 0): the seeding docs/papers.md's Reading asks for.
  void SeedInto(text::DocumentFrequencies* df, int64_t count = 1) const;

  // The topic's TF-IDF vector under the current statistics (formula 3.13).
  text::TermVector Vector() const;
  // TF-IDF vector of a text / of tokens (formula 3.13, same statistics).
  text::TermVector VectorOf(absl::string_view text) const;
  text::TermVector VectorOfTokens(const std::vector<std::string>& tokens) const;

  // The terms of unstemmed tokens (each stemmed): what the statistics and
  // the topic vector count.
  std::vector<std::string> Terms(std::vector<std::string> tokens) const;
  // cos of already stemmed terms (from Terms()) with the topic.
  double SimilarityOfTerms(const std::vector<std::string>& terms) const;
  // The same from the terms' counts (text::CountTerms of them), for a
  // caller that counts a page's terms once for several uses.
  double SimilarityOfCounts(const text::TermCounts& counts) const;

  // cos(v_text, v_T) in [0, 1]; 0 for an empty text or topic.
  double Similarity(absl::string_view text) const;
  double SimilarityOfTokens(const std::vector<std::string>& tokens) const;
  double SimilarityOfVector(const text::TermVector& vector) const;

  // Formula 4.1: |D ∩ T| / |T| over distinct terms (D = `tokens`, T = the
  // topic terms); 0 for an empty topic.
  double BooleanSimilarity(const std::vector<std::string>& tokens) const;
  double BooleanSimilarityOfText(absl::string_view text) const;

  // Coverage: the distinct topic terms a page *uses*, of already stemmed
  // terms (from Terms(), the page's words less stop words). A term counts
  // when it occurs at least once per tokens_per_use() terms of the page
  // (and at least once): a long article that mentions "president" once in
  // passing is not about presidents, while a short course page that says
  // "syllabus" once is about its course. With tokens_per_use() = 0 every
  // occurrence counts (formula 4.1's |D ∩ T|).
  size_t TermsInUse(const std::vector<std::string>& terms) const;
  // TermsInUse / |T| in [0, 1]; 0 for an empty topic.
  double Coverage(const std::vector<std::string>& terms) const;
  // The same from the terms' counts (text::CountTerms of them) and their
  // number (terms.size()).
  size_t TermsInUse(const text::TermCounts& counts, size_t terms) const;
  double Coverage(const text::TermCounts& counts, size_t terms) const;

  // The script most of the topic's terms are written in when it is not
  // Latin (Han for "xul, 元素, 属性, 窗口"; text::ScriptOfWord's codes),
  // else text::kNoScript. A topic given in such a script asks for pages
  // written in it: a page whose terms are not at least kMinScriptShare in
  // it (and one term) uses none of the topic's terms (TermsInUse is 0), so
  // that English XUL pages, which say "xul", teach neither the crawl nor
  // the on-topic decision that they are what a user who wrote Chinese
  // keywords wants. Latin is shared by too many languages, and technical
  // words are written in it everywhere, to ask the same of it.
  int script() const { return script_; }
  static constexpr double kMinScriptShare = 0.002;
  double tokens_per_use() const { return tokens_per_use_; }
  // A copy whose coverage counts a term once per `n` page terms (n >= 0;
  // the crawl config's topic.coverage_tokens_per_use).
  Topic WithTokensPerUse(double n) const;

 private:
  Topic(std::vector<std::string> tokens,
        std::shared_ptr<const text::DocumentFrequencies> frequencies,
        text::Tokenizer tokenizer);
  // Whether a page of these terms writes script() (always true without
  // one).
  bool WritesScript(const std::vector<std::string>& terms) const;
  bool WritesScript(const text::TermCounts& counts, size_t terms) const;
  // Whether a topic term occurring `count` times in a page of `terms`
  // terms is in use (TermsInUse).
  bool UsedEnough(double count, size_t terms) const;

  text::Tokenizer tokenizer_;
  std::vector<std::string> tokens_;  // all topic tokens, duplicates kept
  std::vector<std::string> terms_;   // distinct, first-occurrence order
  text::TermCounts counts_;
  std::shared_ptr<const text::DocumentFrequencies> frequencies_;
  double tokens_per_use_ = 0;  // 0: every occurrence counts
  int script_ = text::kNoScript;
};

}  // namespace fcrawl::focus

#endif  // FCRAWL_FOCUS_TOPIC_H_
