// Term weights for the vector space and Boolean models ([MMTOPIC] formula
// 3.13 and 4.1): term counts of a document, the crawl's document frequencies
// (the one piece of shared, locked state), TF-IDF weights, cosine and
// Boolean similarity, and HTML field weights ([INTEREST] §3.2). Works on
// tokens; making them is core/text.h's Tokenizer.
//
// Thread-safety: every free function may be called from many threads at
// once; DocumentFrequencies is internally synchronized.
#ifndef FCRAWL_CORE_TERM_WEIGHTS_H_
#define FCRAWL_CORE_TERM_WEIGHTS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"

namespace fcrawl::text {

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
  // The same from the document's term counts (CountTerms of its tokens):
  // each term counts once, whatever its count.
  void AddCountedDocument(const TermCounts& counts) ABSL_LOCKS_EXCLUDED(mu_);
  // Counts `tokens` as `count` documents (N += count, and n_i += count for
  // each distinct term), so a topic description can give its terms a
  // document frequency before any page is seen. No-op if count <= 0.
  void Seed(const std::vector<std::string>& tokens, int64_t count)
      ABSL_LOCKS_EXCLUDED(mu_);

  int64_t documents() const ABSL_LOCKS_EXCLUDED(mu_);
  int64_t frequency(absl::string_view term) const ABSL_LOCKS_EXCLUDED(mu_);

  // [MMTOPIC] formula 3.13:
  //   w_i = tf_i·lg(N/n_i + 0.01) / sqrt(Σ_j (tf_j·lg(N/n_j + 0.01))²)
  // with lg = log10, N = documents(), n_i = frequency(term i).
  // Reading: so that weights stay finite, a term never seen (n_i = 0) is
  // treated as n_i = 1 and N as max(N, 1); n_i is also capped at N (it can
  // only exceed N through that rounding). Terms with tf <= 0 are left out.
  // Returns an empty vector when no term has a positive weight. All
  // statistics are read under one lock, so the result is consistent.
  TermVector Weights(const TermCounts& tf) const ABSL_LOCKS_EXCLUDED(mu_);

  // Cosine(Weights(a), Weights(b)) without building either vector (a
  // page's thousand terms would each be copied into one, to meet a topic's
  // few): equal to it up to rounding in the last bits.
  double CosineOfCounts(const TermCounts& a, const TermCounts& b) const
      ABSL_LOCKS_EXCLUDED(mu_);
  // AddCountedDocument(counts), then CosineOfCounts(counts, query) under the
  // same lock: a page's terms are looked up once for both.
  double AddCountedDocumentAndCosine(const TermCounts& counts,
                                     const TermCounts& query)
      ABSL_LOCKS_EXCLUDED(mu_);

 private:
  // The raw weight of formula 3.13 (before normalising) of a term that
  // occurs `count` times, or 0 when it has none; *n_term_seen is the
  // term's document frequency when the caller has it (else looked up).
  double RawWeightLocked(absl::string_view term, double count,
                         const int64_t* n_term_seen) const
      ABSL_SHARED_LOCKS_REQUIRED(mu_);
  double CosineLocked(const TermCounts& a, double a_sum_of_squares,
                      const TermCounts& b) const
      ABSL_SHARED_LOCKS_REQUIRED(mu_);

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

}  // namespace fcrawl::text

#endif  // FCRAWL_CORE_TERM_WEIGHTS_H_
