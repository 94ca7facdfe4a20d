#include "focus/topic.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"

namespace fcrawl::focus {
namespace {

std::vector<std::string> TopicTokens(const text::Tokenizer& tokenizer,
                                     absl::string_view keywords,
                                     absl::string_view description) {
  std::vector<std::string> tokens = tokenizer.Tokenize(keywords);
  tokenizer.TokenizeInto(description, &tokens);
  text::StemTokens(&tokens);
  return tokens;
}

}  // namespace

Topic::Topic(std::vector<std::string> tokens,
             std::shared_ptr<const text::DocumentFrequencies> frequencies,
             text::Tokenizer tokenizer)
    : tokenizer_(std::move(tokenizer)),
      tokens_(std::move(tokens)),
      counts_(text::CountTerms(tokens_)),
      frequencies_(std::move(frequencies)) {
  absl::flat_hash_set<std::string> seen;
  for (const std::string& t : tokens_) {
    if (seen.insert(t).second) terms_.push_back(t);
  }
  // script(): a script other than Latin that more than half of the terms
  // are written in.
  absl::flat_hash_map<int, size_t> by_script;
  for (const std::string& t : terms_) ++by_script[text::ScriptOfWord(t)];
  for (const auto& [script, n] : by_script) {
    if (script != text::kNoScript && script != text::LatinScript() &&
        2 * n > terms_.size()) {
      script_ = script;
    }
  }
}

namespace {

// Enough of a page's terms are in the topic's script (Topic::script).
bool EnoughInScript(double in_script, size_t terms) {
  return in_script > 0 &&
         in_script >= Topic::kMinScriptShare * static_cast<double>(terms);
}

}  // namespace

bool Topic::WritesScript(const std::vector<std::string>& terms) const {
  if (script_ == text::kNoScript) return true;
  double in_script = 0;
  for (const std::string& t : terms) {
    if (text::ScriptOfWord(t) == script_) ++in_script;
  }
  return EnoughInScript(in_script, terms.size());
}

bool Topic::WritesScript(const text::TermCounts& counts, size_t terms) const {
  if (script_ == text::kNoScript) return true;
  double in_script = 0;
  for (const auto& [term, count] : counts) {
    if (text::ScriptOfWord(term) == script_) in_script += count;
  }
  return EnoughInScript(in_script, terms);
}

Topic Topic::FromText(absl::string_view keywords,
                      absl::string_view description) {
  text::Tokenizer tokenizer;
  std::vector<std::string> tokens =
      TopicTokens(tokenizer, keywords, description);
  auto df = std::make_shared<text::DocumentFrequencies>();
  df->Seed(tokens, 1);
  return Topic(std::move(tokens), std::move(df), tokenizer);
}

Topic Topic::FromText(
    absl::string_view keywords, absl::string_view description,
    std::shared_ptr<const text::DocumentFrequencies> frequencies,
    const text::Tokenizer& tokenizer) {
  if (frequencies == nullptr) {
    // Documented as a precondition; fall back to own statistics rather than
    // crash.
    auto df = std::make_shared<text::DocumentFrequencies>();
    std::vector<std::string> tokens =
        TopicTokens(tokenizer, keywords, description);
    df->Seed(tokens, 1);
    return Topic(std::move(tokens), std::move(df), tokenizer);
  }
  return Topic(TopicTokens(tokenizer, keywords, description),
               std::move(frequencies), tokenizer);
}

void Topic::SeedInto(text::DocumentFrequencies* df, int64_t count) const {
  if (df != nullptr && !tokens_.empty()) df->Seed(tokens_, count);
}

text::TermVector Topic::Vector() const {
  return frequencies_->Weights(counts_);
}

text::TermVector Topic::VectorOf(absl::string_view text) const {
  return VectorOfTokens(tokenizer_.Tokenize(text));
}

text::TermVector Topic::VectorOfTokens(
    const std::vector<std::string>& tokens) const {
  return frequencies_->Weights(text::CountTerms(Terms(tokens)));
}

std::vector<std::string> Topic::Terms(std::vector<std::string> tokens) const {
  text::StemTokens(&tokens);
  return tokens;
}

double Topic::SimilarityOfTerms(const std::vector<std::string>& terms) const {
  if (empty() || terms.empty()) return 0;
  return SimilarityOfCounts(text::CountTerms(terms));
}

double Topic::SimilarityOfCounts(const text::TermCounts& counts) const {
  if (empty() || counts.empty()) return 0;
  return frequencies_->CosineOfCounts(counts, counts_);
}

double Topic::Similarity(absl::string_view text) const {
  if (empty() || text.empty()) return 0;
  return SimilarityOfTokens(tokenizer_.Tokenize(text));
}

double Topic::SimilarityOfTokens(const std::vector<std::string>& tokens) const {
  if (empty() || tokens.empty()) return 0;
  return SimilarityOfVector(VectorOfTokens(tokens));
}

double Topic::SimilarityOfVector(const text::TermVector& vector) const {
  if (empty() || vector.empty()) return 0;
  return text::Cosine(vector, Vector());
}

double Topic::BooleanSimilarity(const std::vector<std::string>& tokens) const {
  return text::BooleanSimilarity(Terms(tokens), terms_);
}

double Topic::BooleanSimilarityOfText(absl::string_view text) const {
  return BooleanSimilarity(tokenizer_.Tokenize(text));
}

size_t Topic::TermsInUse(const std::vector<std::string>& terms) const {
  if (empty() || terms.empty() || !WritesScript(terms)) return 0;
  absl::flat_hash_map<absl::string_view, size_t> uses;
  uses.reserve(terms_.size());
  for (const std::string& t : terms_) uses.emplace(t, 0);
  for (const std::string& t : terms) {
    auto it = uses.find(t);
    if (it != uses.end()) ++it->second;
  }
  size_t n = 0;
  for (const auto& [term, count] : uses) {
    if (UsedEnough(static_cast<double>(count), terms.size())) ++n;
  }
  return n;
}

size_t Topic::TermsInUse(const text::TermCounts& counts, size_t terms) const {
  if (empty() || terms == 0 || !WritesScript(counts, terms)) return 0;
  size_t n = 0;
  for (const std::string& t : terms_) {  // distinct
    auto it = counts.find(t);
    if (it != counts.end() && UsedEnough(it->second, terms)) ++n;
  }
  return n;
}

bool Topic::UsedEnough(double count, size_t terms) const {
  const double need =
      tokens_per_use_ > 0
          ? std::max(1.0,
                     std::floor(static_cast<double>(terms) / tokens_per_use_))
          : 1.0;
  return count >= need;
}

double Topic::Coverage(const std::vector<std::string>& terms) const {
  if (empty()) return 0;
  return static_cast<double>(TermsInUse(terms)) /
         static_cast<double>(terms_.size());
}

double Topic::Coverage(const text::TermCounts& counts, size_t terms) const {
  if (empty()) return 0;
  return static_cast<double>(TermsInUse(counts, terms)) /
         static_cast<double>(terms_.size());
}

Topic Topic::WithTokensPerUse(double n) const {
  Topic t = *this;
  t.tokens_per_use_ = std::isfinite(n) && n > 0 ? n : 0;
  return t;
}

}  // namespace fcrawl::focus
