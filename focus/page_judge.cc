#include "focus/page_judge.h"

#include <linear.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <tuple>
#include <utility>

#include "absl/strings/str_cat.h"
#include "core/file.h"
#include "focus/interest.h"
#include "focus/link_learner.h"

namespace fcrawl::focus {
namespace {

constexpr uint32_t kFormatVersion = 1;
constexpr int kMinHashBits = 10;
constexpr int kMaxHashBits = 24;

// LIBLINEAR prints its iterations on stdout unless told otherwise; the
// function pointer is process-wide, so it is set once.
void QuietLiblinear() {
  static std::once_flag once;
  std::call_once(once, [] { set_print_string_function([](const char*) {}); });
}

double NeedFor(const proto::JudgeParams& params, size_t topic_terms) {
  return std::max(1.0, std::min<double>(params.coverage_terms(),
                                        std::ceil(topic_terms / 2.0)));
}

}  // namespace

FeatureVector PageFeatures(const PageTerms& page, int hash_bits,
                           const absl::flat_hash_set<std::string>& excluded) {
  absl::flat_hash_map<uint32_t, float> tf;
  for (const std::string& t : page.terms) {
    if (excluded.contains(t)) continue;
    tf[FeatureId("w:", t, hash_bits)] += 1;
  }
  for (auto& [id, n] : tf) n = 1 + std::log(n);
  for (const std::string& t : page.title_terms) {
    if (excluded.contains(t)) continue;
    tf[FeatureId("t:", t, hash_bits)] = 1;
  }
  FeatureVector out(tf.begin(), tf.end());
  std::sort(out.begin(), out.end());
  double norm = 0;
  for (const auto& [id, v] : out) norm += static_cast<double>(v) * v;
  norm = std::sqrt(norm);
  if (norm > 0) {
    for (auto& [id, v] : out) v = static_cast<float>(v / norm);
  }
  return out;
}

// ---------------------------------------------------------------------------
// PageClassifier

namespace {
// Held while LIBLINEAR trains: see PageClassifier::Train.
ABSL_CONST_INIT absl::Mutex train_rand_mu(absl::kConstInit);
}  // namespace

absl::StatusOr<PageClassifier> PageClassifier::Train(
    const std::vector<Example>& examples, const TrainOptions& options) {
  if (options.hash_bits < kMinHashBits || options.hash_bits > kMaxHashBits) {
    return absl::InvalidArgumentError(
        absl::StrCat("hash_bits must be in [", kMinHashBits, ", ", kMaxHashBits,
                     "], got ", options.hash_bits));
  }
  if (!(options.c >= 1e-6 && options.c <= 1e6)) {
    return absl::InvalidArgumentError(
        absl::StrCat("c must be in [1e-06, 1e+06], got ", options.c));
  }
  int positives = 0;
  for (const Example& e : examples) positives += e.positive ? 1 : 0;
  const int negatives = static_cast<int>(examples.size()) - positives;
  if (positives == 0 || negatives == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("a page classifier needs examples of both classes; got ",
                     positives, " positive and ", negatives, " negative"));
  }
  // LIBLINEAR wants feature indices 1..n: the hashed ids in use, numbered
  // in increasing order. A retraining numbers millions of feature values;
  // a table over all 2^hash_bits ids (hash_bits <= kDenseIndexBits: at most
  // 16 MiB, for the training only) numbers them with one array access
  // each, a hash map beyond.
  constexpr int kDenseIndexBits = 22;
  std::vector<uint32_t> ids;
  std::vector<int> dense;
  absl::flat_hash_map<uint32_t, int> sparse;
  size_t nodes = 0;
  if (options.hash_bits <= kDenseIndexBits) {
    dense.assign(size_t{1} << options.hash_bits, 0);
    for (const Example& e : examples) {
      for (const auto& [id, v] : e.features) {
        if (id >= dense.size()) {
          return absl::InvalidArgumentError(absl::StrCat(
              "feature id ", id, " is outside hash_bits ", options.hash_bits));
        }
        dense[id] = 1;
      }
      nodes += e.features.size() + 2;  // the bias node and the terminator
    }
    for (size_t id = 0; id < dense.size(); ++id) {
      if (dense[id] != 0) {
        ids.push_back(static_cast<uint32_t>(id));
        dense[id] = static_cast<int>(ids.size());
      }
    }
  } else {
    for (const Example& e : examples) {
      for (const auto& [id, v] : e.features) {
        if (sparse.try_emplace(id, 0).second) ids.push_back(id);
      }
      nodes += e.features.size() + 2;
    }
    std::sort(ids.begin(), ids.end());
    for (size_t i = 0; i < ids.size(); ++i)
      sparse[ids[i]] = static_cast<int>(i) + 1;
  }
  auto index = [&](uint32_t id) {
    return dense.empty() ? sparse[id] : dense[id];
  };
  const int bias_index = static_cast<int>(ids.size()) + 1;

  std::vector<feature_node> space;
  space.reserve(nodes);
  std::vector<size_t> starts;
  std::vector<double> y;
  for (const Example& e : examples) {
    starts.push_back(space.size());
    for (const auto& [id, v] : e.features) {
      space.push_back({index(id), static_cast<double>(v)});
    }
    space.push_back({bias_index, 1.0});
    space.push_back({-1, 0.0});
    y.push_back(e.positive ? 1 : -1);
  }
  std::vector<feature_node*> x;
  x.reserve(starts.size());
  for (size_t s : starts) x.push_back(&space[s]);

  struct problem prob {};
  prob.l = static_cast<int>(examples.size());
  prob.n = bias_index;
  prob.y = y.data();
  prob.x = x.data();
  prob.bias = 1;
  // Both classes count equally, however many pages each has.
  int weight_label[2] = {1, -1};
  double weight[2] = {static_cast<double>(examples.size()) / (2.0 * positives),
                      static_cast<double>(examples.size()) / (2.0 * negatives)};
  struct parameter param {};
  // The dual problem by coordinate descent (LIBLINEAR's solver 7, its
  // default tolerance): the same L2-regularised logistic regression as the
  // primal trust-region Newton solver (solver 0, eps 0.01) used before, in
  // a third of the instructions on a crawl's pools, where features far
  // outnumber pages. Replayed on the judge inputs of 14 topics'
  // crawls (bench/judge.py --replay) it moved no decision.
  param.solver_type = L2R_LR_DUAL;
  param.eps = 0.1;
  param.C = options.c;
  param.nr_weight = 2;
  param.weight_label = weight_label;
  param.weight = weight;
  if (const char* bad = check_parameter(&prob, &param); bad != nullptr) {
    return absl::InternalError(absl::StrCat("LIBLINEAR: ", bad));
  }
  QuietLiblinear();
  struct model* m = nullptr;
  {
    // The dual solver visits the examples in orders drawn with rand(),
    // whose state is the process's: seeded alike for every training, one
    // training at a time, a model depends on its examples alone (a replay
    // of a crawl's judge gives the crawl's decisions).
    absl::MutexLock lock(&train_rand_mu);
    srand(1);
    m = train(&prob, &param);
  }
  if (m == nullptr) return absl::InternalError("LIBLINEAR: training failed");
  // The decision value is for the model's first label; turn it towards +1.
  const double sign = m->label[0] == 1 ? 1.0 : -1.0;
  proto::PageModel p;
  p.set_format_version(kFormatVersion);
  p.set_hash_bits(options.hash_bits);
  for (size_t i = 0; i < ids.size(); ++i) {
    const double w = sign * get_decfun_coef(m, static_cast<int>(i) + 1, 0);
    if (w == 0) continue;
    p.add_ids(ids[i]);
    p.add_weights(static_cast<float>(w));
  }
  p.set_bias(sign * get_decfun_coef(m, bias_index, 0));
  free_and_destroy_model(&m);
  p.set_positives(positives);
  p.set_negatives(negatives);
  p.set_source(options.source);
  for (const std::string& t : options.excluded_terms) p.add_excluded_terms(t);
  return FromProto(std::move(p));
}

double PageClassifier::Probability(const FeatureVector& features) const {
  double z = model_.bias();
  for (const auto& [id, v] : features) {
    auto it = weights_.find(id);
    if (it != weights_.end()) z += static_cast<double>(it->second) * v;
  }
  return Sigmoid(z);
}

double PageClassifier::Probability(const PageTerms& page) const {
  return Probability(PageFeatures(page, hash_bits_, excluded_));
}

absl::StatusOr<PageClassifier> PageClassifier::FromProto(
    proto::PageModel model) {
  if (model.format_version() != kFormatVersion) {
    return absl::InvalidArgumentError(
        absl::StrCat("page model format version ", model.format_version(),
                     "; this build reads ", kFormatVersion));
  }
  if (model.hash_bits() < kMinHashBits || model.hash_bits() > kMaxHashBits) {
    return absl::InvalidArgumentError(
        absl::StrCat("page model hash_bits ", model.hash_bits(), " outside [",
                     kMinHashBits, ", ", kMaxHashBits, "]"));
  }
  if (model.ids_size() != model.weights_size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("page model has ", model.ids_size(), " ids but ",
                     model.weights_size(), " weights"));
  }
  if (!std::isfinite(model.bias())) {
    return absl::InvalidArgumentError("page model bias is not finite");
  }
  PageClassifier c;
  c.hash_bits_ = model.hash_bits();
  const uint64_t limit = uint64_t{1} << c.hash_bits_;
  c.weights_.reserve(model.ids_size());
  for (int i = 0; i < model.ids_size(); ++i) {
    if (model.ids(i) >= limit || (i > 0 && model.ids(i) <= model.ids(i - 1))) {
      return absl::InvalidArgumentError(absl::StrCat(
          "page model id ", i, " (", model.ids(i),
          ") is not increasing or is outside ", c.hash_bits_, " bits"));
    }
    if (!std::isfinite(model.weights(i))) {
      return absl::InvalidArgumentError(
          absl::StrCat("page model weight ", i, " is not finite"));
    }
    c.weights_[model.ids(i)] = model.weights(i);
  }
  for (const std::string& t : model.excluded_terms()) c.excluded_.insert(t);
  c.model_ = std::move(model);
  return c;
}

absl::Status PageClassifier::Save(const std::string& path) const {
  std::string bytes;
  if (!model_.SerializeToString(&bytes)) {
    return absl::InternalError(
        absl::StrCat(path, ": cannot serialise the page model"));
  }
  if (absl::Status s = file::WriteFileAtomically(path, bytes); !s.ok()) {
    return absl::Status(s.code(),
                        absl::StrCat("cannot write page model: ", s.message()));
  }
  return absl::OkStatus();
}

absl::StatusOr<PageClassifier> PageClassifier::Load(const std::string& path) {
  absl::StatusOr<std::string> bytes =
      file::ReadFileBounded(path, kMaxBytes, "page model");
  if (!bytes.ok()) return bytes.status();
  proto::PageModel model;
  if (!model.ParseFromString(*bytes)) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": not a page model (proto parse failed)"));
  }
  absl::StatusOr<PageClassifier> c = FromProto(std::move(model));
  if (!c.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": ", c.status().message()));
  }
  return c;
}

absl::StatusOr<PageClassifier> TrainFromExampleFolders(
    const std::string& positive_dir, const std::string& negative_dir,
    const Topic& topic, const proto::JudgeParams& params) {
  std::vector<PageClassifier::Example> examples;
  for (const auto& [dir, role, positive] :
       {std::tuple<const std::string&, absl::string_view, bool>{
            positive_dir, "positive", true},
        {negative_dir, "negative", false}}) {
    if (dir.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("a page classifier needs both example folders; the ",
                       role, " one is not given"));
    }
    absl::StatusOr<std::vector<ExamplePage>> pages =
        ReadExampleFolder(dir, role);
    if (!pages.ok()) return pages.status();
    for (const ExamplePage& e : *pages) {
      PageTerms t;
      const text::Tokenizer& tok = topic.tokenizer();
      t.terms = topic.Terms(tok.Tokenize(absl::StrCat(e.title, "\n", e.body)));
      t.title_terms = topic.Terms(tok.Tokenize(e.title));
      examples.push_back({PageFeatures(t, params.hash_bits(), {}), positive});
    }
  }
  PageClassifier::TrainOptions o;
  o.c = params.c();
  o.hash_bits = params.hash_bits();
  o.source = "examples";
  return PageClassifier::Train(examples, o);
}

// ---------------------------------------------------------------------------
// PageJudge

PageJudge::PageJudge(proto::JudgeParams params, Topic topic,
                     std::shared_ptr<const PageClassifier> classifier)
    : params_(std::move(params)),
      topic_(std::move(topic)),
      topic_terms_(topic_.terms().begin(), topic_.terms().end()),
      examples_(std::move(classifier)) {}

double PageJudge::KeywordScore(const std::vector<std::string>& terms) const {
  if (topic_terms_.empty()) return 0;
  return std::min(1.0, static_cast<double>(topic_.TermsInUse(terms)) /
                           NeedFor(params_, topic_terms_.size()));
}

template <typename Features>
Verdict PageJudge::FeedbackVerdict(double k, const Features& features) const {
  Verdict v;
  v.score = k;
  v.model = "keywords";
  std::shared_ptr<const PageClassifier> feedback;
  {
    absl::MutexLock lock(&mu_);
    feedback = feedback_;
  }
  if (feedback != nullptr) {
    const double w = params_.feedback_weight();
    v.score = (1 - w) * v.score + w * feedback->Probability(features());
    v.model = "keywords+feedback";
  }
  v.on_topic = v.score >= params_.threshold();
  return v;
}

Verdict PageJudge::Judge(const PageTerms& page) const {
  if (examples_ != nullptr) {
    Verdict v;
    v.score = examples_->Probability(page);
    v.model = "examples";
    v.on_topic = v.score >= params_.examples_threshold();
    return v;
  }
  // The feedback classifier leaves out the topic's terms (Retrain), as the
  // pools do.
  return FeedbackVerdict(KeywordScore(page.terms), [&] {
    return PageFeatures(page, params_.hash_bits(), topic_terms_);
  });
}

void PageJudge::Learn(const PageTerms& page) {
  if (examples_ != nullptr || !params_.feedback()) return;
  LearnFrom(KeywordScore(page.terms), [&] {
    return PageFeatures(page, params_.hash_bits(), topic_terms_);
  });
}

Verdict PageJudge::JudgeAndLearn(const PageTerms& page) {
  if (examples_ != nullptr || !params_.feedback()) return Judge(page);
  std::optional<FeatureVector> features;
  auto once = [&]() -> const FeatureVector& {
    if (!features.has_value()) {
      features = PageFeatures(page, params_.hash_bits(), topic_terms_);
    }
    return *features;
  };
  const double k = KeywordScore(page.terms);
  const Verdict v = FeedbackVerdict(k, once);
  LearnFrom(k, [&] {
    once();
    return std::move(*features);  // the pool keeps them; the verdict is made
  });
  return v;
}

template <typename Features>
void PageJudge::LearnFrom(double k, const Features& features) {
  const bool positive = k >= params_.positive_score();
  const bool negative = k <= params_.negative_score();
  bool retrain = false;
  if (positive || negative) {
    FeatureVector f = features();
    absl::MutexLock lock(&mu_);
    std::deque<FeatureVector>& pool = positive ? positives_ : negatives_;
    pool.push_back(std::move(f));
    while (pool.size() > static_cast<size_t>(params_.max_feedback_pages())) {
      pool.pop_front();
    }
    const size_t min = static_cast<size_t>(params_.feedback_min_pages());
    ++since_training_;
    // Every retrain_every pages, and once retrain_share of the pools is
    // new: the cost of a training grows with the pools, this keeps the
    // cost per page bounded whatever max_feedback_pages is.
    const double pooled =
        static_cast<double>(positives_.size() + negatives_.size());
    retrain = positives_.size() >= min && negatives_.size() >= min &&
              (feedback_ == nullptr ||
               (since_training_ >= params_.retrain_every() &&
                since_training_ >= params_.retrain_share() * pooled));
  }
  if (retrain) Retrain();
}

void PageJudge::Retrain() {
  if (!train_mu_.TryLock()) return;  // another thread is at it
  std::vector<PageClassifier::Example> examples;
  {
    absl::MutexLock lock(&mu_);
    since_training_ = 0;
    examples.reserve(positives_.size() + negatives_.size());
    for (const FeatureVector& f : positives_) examples.push_back({f, true});
    for (const FeatureVector& f : negatives_) examples.push_back({f, false});
  }
  PageClassifier::TrainOptions o;
  o.c = params_.c();
  o.hash_bits = params_.hash_bits();
  o.source = "feedback";
  o.excluded_terms = topic_.terms();
  absl::StatusOr<PageClassifier> c = PageClassifier::Train(examples, o);
  if (c.ok()) {
    auto shared = std::make_shared<const PageClassifier>(*std::move(c));
    absl::MutexLock lock(&mu_);
    feedback_ = std::move(shared);
    trained_on_ = static_cast<int64_t>(examples.size());
  }
  train_mu_.Unlock();
}

int64_t PageJudge::feedback_pages() const {
  absl::MutexLock lock(&mu_);
  return trained_on_;
}

}  // namespace fcrawl::focus
