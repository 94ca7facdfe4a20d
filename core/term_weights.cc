// The term weights of core/term_weights.h.
#include "core/term_weights.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"

namespace fcrawl::text {

TermCounts CountTerms(const std::vector<std::string>& tokens) {
  TermCounts counts;
  for (const std::string& token : tokens) counts[token] += 1;
  return counts;
}

void DocumentFrequencies::AddDocument(const std::vector<std::string>& tokens) {
  Seed(tokens, 1);
}

void DocumentFrequencies::AddCountedDocument(const TermCounts& counts) {
  absl::MutexLock lock(&mu_);
  documents_ += 1;
  for (const auto& [term, count] : counts) frequencies_[term] += 1;
}

void DocumentFrequencies::Seed(const std::vector<std::string>& tokens,
                               int64_t count) {
  if (count <= 0) return;
  // Deduplicate before taking the lock to keep the critical section short.
  const absl::flat_hash_set<absl::string_view> distinct(tokens.begin(),
                                                        tokens.end());
  absl::MutexLock lock(&mu_);
  documents_ += count;
  for (absl::string_view term : distinct) frequencies_[term] += count;
}

int64_t DocumentFrequencies::documents() const {
  absl::ReaderMutexLock lock(&mu_);
  return documents_;
}

int64_t DocumentFrequencies::frequency(absl::string_view term) const {
  absl::ReaderMutexLock lock(&mu_);
  auto it = frequencies_.find(term);
  return it == frequencies_.end() ? 0 : it->second;
}

double DocumentFrequencies::RawWeightLocked(absl::string_view term,
                                            double count,
                                            const int64_t* n_term_seen) const {
  if (!(count > 0) || !std::isfinite(count)) return 0;
  const double n_docs = static_cast<double>(std::max<int64_t>(documents_, 1));
  int64_t seen = 0;
  if (n_term_seen != nullptr) {
    seen = *n_term_seen;
  } else if (auto it = frequencies_.find(term); it != frequencies_.end()) {
    seen = it->second;
  }
  const double n_term = std::clamp(static_cast<double>(seen), 1.0, n_docs);
  const double raw = count * std::log10(n_docs / n_term + 0.01);
  return raw > 0 ? raw : 0;
}

// ‖a‖² is given (the caller summed it while it had each term in hand); b is
// the small side (a topic's terms), each looked up in a.
double DocumentFrequencies::CosineLocked(const TermCounts& a,
                                         double a_sum_of_squares,
                                         const TermCounts& b) const {
  if (!(a_sum_of_squares > 0) || !std::isfinite(a_sum_of_squares)) return 0;
  double dot = 0, b_sum_of_squares = 0;
  for (const auto& [term, count] : b) {
    const double wb = RawWeightLocked(term, count, nullptr);
    if (wb == 0) continue;
    b_sum_of_squares += wb * wb;
    auto it = a.find(term);
    if (it != a.end()) dot += RawWeightLocked(term, it->second, nullptr) * wb;
  }
  if (dot == 0 || !(b_sum_of_squares > 0) || !std::isfinite(b_sum_of_squares)) {
    return 0;
  }
  return std::clamp(
      dot / (std::sqrt(a_sum_of_squares) * std::sqrt(b_sum_of_squares)), -1.0,
      1.0);
}

double DocumentFrequencies::CosineOfCounts(const TermCounts& a,
                                           const TermCounts& b) const {
  if (a.empty() || b.empty()) return 0;
  const TermCounts& large = a.size() >= b.size() ? a : b;
  const TermCounts& small = a.size() >= b.size() ? b : a;
  absl::ReaderMutexLock lock(&mu_);
  double sum_of_squares = 0;
  for (const auto& [term, count] : large) {
    const double w = RawWeightLocked(term, count, nullptr);
    sum_of_squares += w * w;
  }
  return CosineLocked(large, sum_of_squares, small);
}

double DocumentFrequencies::AddCountedDocumentAndCosine(
    const TermCounts& counts, const TermCounts& query) {
  absl::MutexLock lock(&mu_);
  documents_ += 1;
  double sum_of_squares = 0;
  for (const auto& [term, count] : counts) {
    const int64_t seen = ++frequencies_[term];
    const double w = RawWeightLocked(term, count, &seen);
    sum_of_squares += w * w;
  }
  if (counts.empty() || query.empty()) return 0;
  return CosineLocked(counts, sum_of_squares, query);
}

TermVector DocumentFrequencies::Weights(const TermCounts& tf) const {
  TermVector weights;
  weights.reserve(tf.size());
  double sum_of_squares = 0;
  {
    absl::ReaderMutexLock lock(&mu_);
    for (const auto& [term, count] : tf) {
      const double raw = RawWeightLocked(term, count, nullptr);
      if (raw == 0) continue;
      weights.emplace(term, raw);
      sum_of_squares += raw * raw;
    }
  }
  if (!(sum_of_squares > 0) || !std::isfinite(sum_of_squares)) return {};
  const double norm = std::sqrt(sum_of_squares);
  for (auto& [term, weight] : weights) weight /= norm;
  return weights;
}

double Cosine(const TermVector& a, const TermVector& b) {
  if (a.empty() || b.empty()) return 0;
  const TermVector& small = a.size() <= b.size() ? a : b;
  const TermVector& large = a.size() <= b.size() ? b : a;
  double dot = 0;
  for (const auto& [term, weight] : small) {
    auto it = large.find(term);
    if (it != large.end()) dot += weight * it->second;
  }
  if (dot == 0) return 0;
  double norm_a = 0, norm_b = 0;
  for (const auto& [term, weight] : a) norm_a += weight * weight;
  for (const auto& [term, weight] : b) norm_b += weight * weight;
  if (!(norm_a > 0) || !(norm_b > 0)) return 0;
  // Rounding can push |cos| a hair past 1.
  return std::clamp(dot / (std::sqrt(norm_a) * std::sqrt(norm_b)), -1.0, 1.0);
}

double BooleanSimilarity(const std::vector<std::string>& document_tokens,
                         const std::vector<std::string>& topic_terms) {
  absl::flat_hash_set<absl::string_view> topic(topic_terms.begin(),
                                               topic_terms.end());
  if (topic.empty()) return 0;
  absl::flat_hash_set<absl::string_view> matched;
  for (const std::string& token : document_tokens) {
    if (topic.contains(token)) {
      matched.insert(token);
      if (matched.size() == topic.size()) break;
    }
  }
  return static_cast<double>(matched.size()) /
         static_cast<double>(topic.size());
}

absl::Status FieldWeights::Validate() const {
  const std::pair<const char*, double> fields[] = {
      {"title", title}, {"meta", meta}, {"link_text", link_text}};
  for (const auto& [name, value] : fields) {
    if (!(value >= 2 && value <= 10)) {
      return absl::InvalidArgumentError(
          absl::StrCat("FieldWeights.", name, " = ", value,
                       " is outside [2, 10] ([INTEREST] §3.2)"));
    }
  }
  return absl::OkStatus();
}

TermCounts WeightedTermCounts(const std::vector<std::string>& body,
                              const std::vector<std::string>& title,
                              const std::vector<std::string>& meta,
                              const std::vector<std::string>& anchor_text,
                              const FieldWeights& w) {
  TermCounts counts;
  for (const std::string& t : body) counts[t] += 1;
  for (const std::string& t : title) counts[t] += w.title;
  for (const std::string& t : meta) counts[t] += w.meta;
  for (const std::string& t : anchor_text) counts[t] += w.link_text;
  return counts;
}

}  // namespace fcrawl::text
