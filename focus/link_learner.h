// An online link classifier: predicts, from a link's context, how relevant
// the page it leads to will be, and learns from every page the crawl fetches
// (the "apprentice" of Chakrabarti, Punera and Subramanyam, "Accelerated
// focused crawling through online relevance feedback", WWW 2002; ACHE's
// online link classifier works the same way). docs/papers.md "[APPRENTICE]".
//
// Features are strings ("a:cours" for an anchor word, "u:syllabus" for a URL
// word, "bt:navigation" for the block type...) hashed into 2^hash_bits
// buckets with a fixed hash (FNV-1a, so a saved model means the same in
// another process). The model is logistic regression trained by stochastic
// gradient descent with AdaGrad step sizes and L2 shrinkage, on soft labels
// y in [0, 1] (how relevant the fetched child turned out to be), so its
// prediction is a relevance-like score in (0, 1).
//
// Thread-safety: none; the owner (the `learned` strategy) locks.
#ifndef FCRAWL_FOCUS_LINK_LEARNER_H_
#define FCRAWL_FOCUS_LINK_LEARNER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "proto/strategy_params.pb.h"

namespace fcrawl::focus {

// The defaults of hash_bits and learning_rate are LearnedParams's
// (proto/strategy_params.proto).
struct LinkLearnerOptions {
  int hash_bits = proto::LearnedParams::default_instance().hash_bits();
  double learning_rate =  // AdaGrad η
      proto::LearnedParams::default_instance().learning_rate();
  double l2 = 1e-6;  // shrinkage per update (not a setting)
  // AdaGrad's accumulator starts here (not a setting): step η / √(G0 + Σg²).
  // With G0 = 0 a feature's first step is ±η whatever the error, so one
  // page sets a word's weight to ±0.5: a "Courses" menu link that led to a
  // list page of low label made the anchor word "course" count against
  // every later link that carries it. With G0 = 1 the first step is about
  // η·g, in proportion to how wrong the prediction was.
  double initial_accumulator = 1.0;
};

// 1 / (1 + e^-x), without overflow for large |x|.
double Sigmoid(double x);

// The bucket of a feature string (FNV-1a 64, folded to `hash_bits`).
uint32_t FeatureId(absl::string_view feature, int hash_bits);
// FeatureId(prefix + feature, hash_bits), without making that string.
uint32_t FeatureId(absl::string_view prefix, absl::string_view feature,
                   int hash_bits);

class LinkLearner {
 public:
  explicit LinkLearner(LinkLearnerOptions options = {});

  // P(relevant | features) = σ(Σ w_i) over the features' buckets (a bucket
  // listed twice counts twice).
  double Predict(const std::vector<uint32_t>& ids) const;
  // One AdaGrad step on the log loss of soft label `y` (clamped to [0, 1]):
  // g = σ(w·x) − y; for each feature w_i −= η·g/√(G0 + G_i) where G_i sums
  // g² (this step's included).
  void Update(const std::vector<uint32_t>& ids, double y);

  int64_t examples() const { return examples_; }
  const LinkLearnerOptions& options() const { return options_; }

  // A compact binary form (version, options, examples, the non-zero
  // weights); Parse checks every length against the input and refuses
  // other hash sizes or versions (InvalidArgument naming the problem).
  std::string Serialize() const;
  static absl::StatusOr<LinkLearner> Parse(absl::string_view bytes);

 private:
  LinkLearnerOptions options_;
  std::vector<float> weights_;
  std::vector<float> squared_gradients_;
  int64_t examples_ = 0;
};

}  // namespace fcrawl::focus

#endif  // FCRAWL_FOCUS_LINK_LEARNER_H_
