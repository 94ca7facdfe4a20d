// The strategies' parameters: their one validation (the ranges documented in
// proto/strategy_params.proto) and the enums behind their string fields.
#include <cmath>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "core/url.h"
#include "focus/strategy.h"

namespace fcrawl::focus {
namespace {

// Collects ParamErrors with the message style of the crawl config's
// validation ("shark.delta must be in [0, 1], got 1.5").
class Checker {
 public:
  explicit Checker(std::vector<ParamError>* out) : out_(out) {}

  void Add(std::string field, std::string problem) {
    out_->push_back({std::move(field), std::move(problem)});
  }
  // [lo, hi]; NaN fails.
  template <typename T>
  void InRange(std::string field, T value, T lo, T hi) {
    if (!(value >= lo && value <= hi)) {
      Add(std::move(field),
          absl::StrCat(" must be in [", lo, ", ", hi, "], got ", value));
    }
  }
  // (lo, hi).
  void Open(std::string field, double value, double lo, double hi) {
    if (!(value > lo && value < hi)) {
      Add(std::move(field),
          absl::StrCat(" must be in (", lo, ", ", hi, "), got ", value));
    }
  }
  // (lo, hi].
  void LeftOpen(std::string field, double value, double lo, double hi) {
    if (!(value > lo && value <= hi)) {
      Add(std::move(field),
          absl::StrCat(" must be in (", lo, ", ", hi, "], got ", value));
    }
  }
  void OneOf(std::string field, const std::string& value,
             std::initializer_list<absl::string_view> known,
             absl::string_view known_text) {
    for (absl::string_view k : known) {
      if (value == k) return;
    }
    Add(std::move(field),
        absl::StrCat(": '", absl::CHexEscape(value.substr(0, 80)),
                     "' is not one of ", known_text));
  }

 private:
  std::vector<ParamError>* out_;
};

}  // namespace

UrlRuleRelevance LearnFrom(const UrlRuleOptions& options) {
  if (options.learn_from() == "media") return UrlRuleRelevance::kMedia;
  if (options.learn_from() == "both") return UrlRuleRelevance::kBoth;
  return UrlRuleRelevance::kTopical;
}

LearnedLabel Label(const LearnedOptions& options) {
  if (options.label() == "relevance") return LearnedLabel::kRelevance;
  if (options.label() == "coverage") return LearnedLabel::kCoverage;
  return LearnedLabel::kJudge;
}

std::vector<ParamError> ValidateStrategyParams(const StrategyOptions& o) {
  std::vector<ParamError> errors;
  Checker e(&errors);
  {
    const LearnedOptions& m = o.learned;
    e.OneOf("learned.label", m.label(), {"judge", "coverage", "relevance"},
            "judge, coverage, relevance");
    e.InRange("learned.coverage_terms", m.coverage_terms(), 1, 1000);
    e.InRange("learned.relevance_scale", m.relevance_scale(), 1e-6, 1e6);
    e.InRange("learned.prior_examples", m.prior_examples(), 0.0, 1e9);
    e.InRange("learned.exploration", m.exploration(), 0.0, 1.0);
    e.InRange("learned.seed_exploration", m.seed_exploration(), 0.0, 1.0);
    e.InRange("learned.max_tracked_urls", m.max_tracked_urls(), 0, 100000000);
    e.InRange("learned.learning_rate", m.learning_rate(), 1e-9, 1e3);
    e.InRange("learned.max_model_weight", m.max_model_weight(), 0.0, 1.0);
    e.InRange("learned.hash_bits", m.hash_bits(), 4, 24);
    e.InRange("learned.parent_credit", m.parent_credit(), 0.0, 1.0);
  }
  {
    const FishOptions& m = o.fish;
    e.InRange("fish.depth", m.depth(), 1, 100);
    e.InRange("fish.width", m.width(), 1, 10000);
    e.InRange("fish.relevance_threshold", m.relevance_threshold(), 0.0, 1.0);
  }
  {
    const SharkOptions& m = o.shark;
    e.InRange("shark.delta", m.delta(), 0.0, 1.0);
    e.InRange("shark.beta", m.beta(), 0.0, 1.0);
    e.InRange("shark.gamma", m.gamma(), 0.0, 1.0);
    e.InRange("shark.depth", m.depth(), 1, 100);
    e.InRange("shark.relevance_threshold", m.relevance_threshold(), 0.0, 1.0);
  }
  {
    const SsapsOptions& m = o.ssaps;
    e.InRange("ssaps.gamma", m.gamma(), 0.0, 1.0);
    e.InRange("ssaps.w1", m.w1(), 0.0, 100.0);
    e.InRange("ssaps.w2", m.w2(), 0.0, 100.0);
    e.InRange("ssaps.w3", m.w3(), 0.0, 100.0);
    e.InRange("ssaps.delta", m.delta(), 0.0, 1.0);
    e.InRange("ssaps.depth", m.depth(), 1, 100);
    e.InRange("ssaps.first_level_max_depth", m.first_level_max_depth(), 0, 100);
  }
  {
    const HopfieldOptions& m = o.hopfield;
    e.InRange("hopfield.theta", m.theta(), 0.0, 1.0);
    e.InRange("hopfield.min_mean_activation", m.min_mean_activation(), 0.0,
              1.0);
    e.InRange("hopfield.omega_content", m.omega_content(), 0.0, 1.0);
    e.InRange("hopfield.omega_link", m.omega_link(), 0.0, 1.0);
    e.InRange("hopfield.spread_floor", m.spread_floor(), 0.0, 1.0);
  }
  {
    const InterestOptions& m = o.interest;
    e.InRange("interest.alpha", m.alpha(), -10.0, 10.0);
    e.InRange("interest.beta", m.beta(), -10.0, 10.0);
    e.InRange("interest.gamma", m.gamma(), -10.0, 10.0);
    e.InRange("interest.vocabulary_size", m.vocabulary_size(), 1, 100000);
    e.InRange("interest.epsilon", m.epsilon(), -1.0, 1.0);
    e.InRange("interest.horizontal_weight", m.horizontal_weight(), 0.0, 10.0);
    e.InRange("interest.downward_weight", m.downward_weight(), 0.0, 10.0);
    e.InRange("interest.upward_weight", m.upward_weight(), 0.0, 10.0);
    e.InRange("interest.crosswise_weight", m.crosswise_weight(), 0.0, 10.0);
    e.InRange("interest.outward_weight", m.outward_weight(), 0.0, 10.0);
    if (m.model_file().find('\0') != std::string::npos) {
      e.Add("interest.model_file", ": contains a NUL byte");
    }
    for (int i = 0; i < m.scopes_size(); ++i) {
      const proto::InterestScope& sc = m.scopes(i);
      const std::string f = absl::StrCat("interest.scopes[", i, "]");
      absl::StatusOr<url::Url> u = url::Parse(sc.start_url());
      if (!u.ok() || (u->scheme() != "http" && u->scheme() != "https")) {
        e.Add(
            f + ".start_url",
            absl::StrCat(": not an absolute http(s) URL: '",
                         absl::CHexEscape(sc.start_url().substr(0, 80)), "'"));
      }
      if (sc.max_pages() < 0) e.Add(f + ".max_pages", " must be >= 0");
      if (sc.max_seconds() < 0) e.Add(f + ".max_seconds", " must be >= 0");
    }
  }
  {
    const TopicPageRankOptions& m = o.topic_pagerank;
    e.Open("topic_pagerank.damping", m.damping(), 0.0, 1.0);
    e.InRange("topic_pagerank.omega", m.omega(), 0.0, 1.0);
    e.InRange("topic_pagerank.anchor_weight", m.anchor_weight(), 0.0, 1.0);
    e.InRange("topic_pagerank.url_weight", m.url_weight(), 0.0, 1.0);
    e.InRange("topic_pagerank.lambda", m.lambda(), 0.0, 1.0);
    e.InRange("topic_pagerank.content_weight", m.content_weight(), 0.0, 1.0);
  }
  {
    const ImprovedSharkOptions& m = o.improved_shark;
    e.InRange("improved_shark.beta", m.beta(), 0.0, 1.0);
    e.LeftOpen("improved_shark.theta", m.theta(), 0.0, 100.0);
    e.InRange("improved_shark.sigma", m.sigma(), 0.0, 1.0);
    e.InRange("improved_shark.content_weight", m.content_weight(), 0.0, 1.0);
  }
  {
    const UrlRuleOptions& m = o.url_rule;
    e.InRange("url_rule.min_relevant_pages", m.min_relevant_pages(), 1, 10000);
    e.InRange("url_rule.max_distance", m.max_distance(), 0, 1000);
    e.InRange("url_rule.layer2_quota", m.layer2_quota(), 1, 100000);
    e.InRange("url_rule.max_layer", m.max_layer(), 1, 10);
    e.Open("url_rule.damping", m.damping(), 0.0, 1.0);
    e.InRange("url_rule.content_weight", m.content_weight(), 0.0, 1.0);
    e.OneOf("url_rule.learn_from", m.learn_from(), {"topical", "media", "both"},
            "topical, media, both");
    e.InRange("url_rule.relevance_threshold", m.relevance_threshold(), 0.0,
              1.0);
    e.LeftOpen("url_rule.template_share", m.template_share(), 0.0, 1.0);
  }
  return errors;
}

std::vector<ParamError> ValidateJudgeParams(const proto::JudgeParams& m) {
  std::vector<ParamError> errors;
  Checker e(&errors);
  e.InRange("threshold", m.threshold(), 0.0, 1.0);
  e.InRange("examples_threshold", m.examples_threshold(), 0.0, 1.0);
  e.InRange("coverage_terms", m.coverage_terms(), 1, 1000);
  e.InRange("feedback_weight", m.feedback_weight(), 0.0, 1.0);
  e.InRange("feedback_min_pages", m.feedback_min_pages(), 2, 100000);
  e.InRange("retrain_every", m.retrain_every(), 1, 1000000);
  e.InRange("retrain_share", m.retrain_share(), 0.0, 1.0);
  e.InRange("max_feedback_pages", m.max_feedback_pages(), 2, 1000000);
  e.InRange("positive_score", m.positive_score(), 0.0, 1.0);
  e.InRange("negative_score", m.negative_score(), 0.0, 1.0);
  if (!(m.negative_score() < m.positive_score())) {
    e.Add("negative_score",
          absl::StrCat(" must be below positive_score (", m.positive_score(),
                       "), got ", m.negative_score()));
  }
  e.InRange("c", m.c(), 1e-6, 1e6);
  e.InRange("hash_bits", m.hash_bits(), 10, 24);
  if (m.model_file().find('\0') != std::string::npos) {
    e.Add("model_file", ": contains a NUL byte");
  }
  return errors;
}

absl::Status StrategyOptions::Validate() const {
  const std::vector<ParamError> errors = ValidateStrategyParams(*this);
  if (errors.empty()) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      "StrategyOptions.", errors.front().field, errors.front().problem));
}

}  // namespace fcrawl::focus
