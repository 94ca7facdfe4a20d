// The on-topic decision: whether a fetched page is about the crawl's topic
// (docs/design.md "The on-topic decision"). What the crawl reports as on
// topic (pages.jsonl, the fetch log, the summary's on_topic count, /status)
// and what the `learned` strategy learns from with its "judge" label.
//
// How a page is scored, without example pages (the usual case: a user gives
// a few keywords and seed URLs):
//  - the keyword score k = min(1, topic terms on the page / need), need =
//    min(coverage_terms, ⌈|T|/2⌉): a page about a topic uses many of the
//    words that describe it, not one of them many times (the cosine rates a
//    homework page that says "homework" twelve times above a course page);
//  - pseudo-relevance feedback: the pages the crawl has judged clearly on
//    the topic (k >= positive_score) and clearly off it (k <=
//    negative_score) train a linear classifier (LIBLINEAR's L2-regularised
//    logistic regression) on their OTHER words and their titles: what the
//    topic's pages say besides the keywords ("office hours", "credits",
//    "TA" for courses). The topic's own terms are left out of its
//    features, or it would only learn the keyword rule back. The score is
//    then (1 − w)·k + w·P(on topic), w = feedback_weight (0.3): a page
//    with all the keywords it needs but the words of the pages clearly off
//    the topic ("qualifying exam" on a graduate-school page) falls below
//    the threshold; a page without them does not rise above it, since the
//    classifier learns from the keyword rule's own labels, some of them
//    wrong, and given more weight it followed them.
// With example pages (topic.positive_examples_dir and negative_examples_dir,
// or a model saved by `worker build-page-model`), the classifier is trained
// from them on all their words and decides alone: score = P(on topic).
//
// A page is on the topic when score >= threshold (examples_threshold for an
// example classifier: its own decision boundary).
//
// Thread-safety: PageJudge is thread-safe: Judge and Learn may be called
// from many parse threads at once; a retraining runs in the thread whose
// Learn call triggered it, outside the lock that Judge takes, and swaps the
// new classifier in when done. PageClassifier is immutable after Train/Parse.
#ifndef FCRAWL_FOCUS_PAGE_JUDGE_H_
#define FCRAWL_FOCUS_PAGE_JUDGE_H_

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "focus/topic.h"
#include "proto/page_model.pb.h"
#include "proto/strategy_params.pb.h"

namespace fcrawl::focus {

// What the judge reads of a page: the stemmed terms of its whole text
// (Topic::Terms of the tokens, duplicates kept) and of its title.
struct PageTerms {
  std::vector<std::string> terms;
  std::vector<std::string> title_terms;
};

// The page's features for a classifier: hashed "w:" + term with weight
// 1 + ln(tf) and "t:" + title term with weight 1, terms in `excluded` left
// out, L2-normalised; sorted by id, each id once.
using FeatureVector = std::vector<std::pair<uint32_t, float>>;
FeatureVector PageFeatures(const PageTerms& page, int hash_bits,
                           const absl::flat_hash_set<std::string>& excluded);

// A linear page classifier: P(on topic) = σ(bias + Σ w_i·x_i).
class PageClassifier {
 public:
  struct Example {
    FeatureVector features;
    bool positive = false;
  };
  struct TrainOptions {
    double c = proto::JudgeParams::default_instance().c();
    int hash_bits = proto::JudgeParams::default_instance().hash_bits();
    std::string source;  // "examples" or "feedback"
    std::vector<std::string> excluded_terms;
  };

  // LIBLINEAR's L2-regularised logistic regression (dual, eps 0.1) with
  // the classes weighted to count equally. InvalidArgument when a class has
  // no example or the options are out of range.
  static absl::StatusOr<PageClassifier> Train(
      const std::vector<Example>& examples, const TrainOptions& options);

  double Probability(const FeatureVector& features) const;
  double Probability(const PageTerms& page) const;

  int hash_bits() const { return hash_bits_; }
  const absl::flat_hash_set<std::string>& excluded_terms() const {
    return excluded_;
  }
  const proto::PageModel& model() const { return model_; }

  // The model as a proto, and back: Parse checks the version, the hash
  // size, the lists' lengths and order and that every number is finite
  // (InvalidArgument naming the problem).
  static absl::StatusOr<PageClassifier> FromProto(proto::PageModel model);
  // Binary proto, replaced atomically; Load refuses files over kMaxBytes.
  absl::Status Save(const std::string& path) const;
  static absl::StatusOr<PageClassifier> Load(const std::string& path);
  static constexpr int64_t kMaxBytes = 64 << 20;

 private:
  PageClassifier() = default;

  proto::PageModel model_;
  int hash_bits_ = 0;
  absl::flat_hash_map<uint32_t, float> weights_;
  absl::flat_hash_set<std::string> excluded_;
};

// Trains a classifier on two folders of example pages (focus/interest.h
// ReadExampleFolder reads them): all their words and titles, nothing left
// out. Errors name the folder or file.
absl::StatusOr<PageClassifier> TrainFromExampleFolders(
    const std::string& positive_dir, const std::string& negative_dir,
    const Topic& topic, const proto::JudgeParams& params);

struct Verdict {
  double score = 0;  // in [0, 1]
  bool on_topic = false;
  // "keywords", "keywords+feedback" or "examples".
  absl::string_view model;
};

class PageJudge {
 public:
  // `params` are assumed valid (focus/strategy.h ValidateJudgeParams).
  // `classifier` (may be
  // null) is a classifier trained from examples: it then decides alone.
  PageJudge(proto::JudgeParams params, Topic topic,
            std::shared_ptr<const PageClassifier> classifier = nullptr);

  Verdict Judge(const PageTerms& page) const;
  // Keeps the page as a feedback example when its keyword score makes it
  // one, and trains the classifier again every retrain_every pages. A
  // no-op with an example classifier or feedback off.
  void Learn(const PageTerms& page);
  // Judge, then Learn, on one page (what a crawl does with each page it
  // parses): the page's features are computed once for both, the
  // feedback classifier's and the pool's being the same (the topic's terms
  // left out, params.hash_bits). The verdict is Judge's.
  Verdict JudgeAndLearn(const PageTerms& page);

  // min(1, distinct topic terms in `terms` / need).
  double KeywordScore(const std::vector<std::string>& terms) const;
  // Pages the current feedback classifier was trained on (0: none yet).
  int64_t feedback_pages() const;
  const proto::JudgeParams& params() const { return params_; }

 private:
  // The verdict from the keyword score k and, when there is one, the
  // feedback classifier's probability for the page, whose features
  // `features` gives (computed only when needed).
  template <typename Features>
  Verdict FeedbackVerdict(double k, const Features& features) const;
  // Learn with the page's keyword score k and features.
  template <typename Features>
  void LearnFrom(double k, const Features& features);
  void Retrain();

  const proto::JudgeParams params_;
  const Topic topic_;
  const absl::flat_hash_set<std::string> topic_terms_;
  const std::shared_ptr<const PageClassifier> examples_;

  mutable absl::Mutex mu_;
  std::shared_ptr<const PageClassifier> feedback_ ABSL_GUARDED_BY(mu_);
  int64_t trained_on_ ABSL_GUARDED_BY(mu_) = 0;
  std::deque<FeatureVector> positives_ ABSL_GUARDED_BY(mu_);
  std::deque<FeatureVector> negatives_ ABSL_GUARDED_BY(mu_);
  int64_t since_training_ ABSL_GUARDED_BY(mu_) = 0;
  // Held while a retraining runs, so that two threads do not train at once
  // (the second one's pages wait for the next round).
  absl::Mutex train_mu_;
};

}  // namespace fcrawl::focus

#endif  // FCRAWL_FOCUS_PAGE_JUDGE_H_
