#include "focus/link_learner.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "core/hash.h"

namespace fcrawl::focus {
namespace {

constexpr uint32_t kFormatVersion = 1;
constexpr int kMinHashBits = 4;
constexpr int kMaxHashBits = 24;

template <typename T>
void Put(std::string* out, T v) {
  char b[sizeof(T)];
  std::memcpy(b, &v, sizeof(T));
  out->append(b, sizeof(T));
}

template <typename T>
bool Get(absl::string_view* in, T* v) {
  if (in->size() < sizeof(T)) return false;
  std::memcpy(v, in->data(), sizeof(T));
  in->remove_prefix(sizeof(T));
  return true;
}

uint32_t FoldFeatureHash(uint64_t h, int hash_bits) {
  h ^= h >> 29;  // fold the high bits in before masking
  return static_cast<uint32_t>(h & ((uint64_t{1} << hash_bits) - 1));
}

}  // namespace

double Sigmoid(double x) {
  if (x >= 0) return 1 / (1 + std::exp(-x));
  const double e = std::exp(x);
  return e / (1 + e);
}

uint32_t FeatureId(absl::string_view feature, int hash_bits) {
  // Stable across processes (core/hash.h): saved models index by these ids.
  return FoldFeatureHash(hash::Fnv1a64(feature), hash_bits);
}

uint32_t FeatureId(absl::string_view prefix, absl::string_view feature,
                   int hash_bits) {
  return FoldFeatureHash(hash::Fnv1a64Continue(hash::Fnv1a64(prefix), feature),
                         hash_bits);
}

LinkLearner::LinkLearner(LinkLearnerOptions options) : options_(options) {
  options_.hash_bits =
      std::clamp(options_.hash_bits, kMinHashBits, kMaxHashBits);
  weights_.assign(size_t{1} << options_.hash_bits, 0.0f);
  squared_gradients_.assign(weights_.size(), 0.0f);
}

double LinkLearner::Predict(const std::vector<uint32_t>& ids) const {
  double z = 0;
  for (uint32_t id : ids) z += weights_[id & (weights_.size() - 1)];
  return Sigmoid(z);
}

void LinkLearner::Update(const std::vector<uint32_t>& ids, double y) {
  if (!(y >= 0)) y = 0;  // also NaN
  if (y > 1) y = 1;
  const double g = Predict(ids) - y;
  for (uint32_t id : ids) {
    const size_t i = id & (weights_.size() - 1);
    squared_gradients_[i] += static_cast<float>(g * g);
    const double step =
        options_.learning_rate /
        std::sqrt(options_.initial_accumulator + squared_gradients_[i] + 1e-8);
    weights_[i] =
        static_cast<float>(weights_[i] * (1 - options_.l2) - step * g);
  }
  ++examples_;
}

std::string LinkLearner::Serialize() const {
  std::string out;
  Put<uint32_t>(&out, kFormatVersion);
  Put<int32_t>(&out, options_.hash_bits);
  Put<double>(&out, options_.learning_rate);
  Put<double>(&out, options_.l2);
  Put<int64_t>(&out, examples_);
  uint32_t nonzero = 0;
  for (size_t i = 0; i < weights_.size(); ++i) {
    nonzero += squared_gradients_[i] != 0;
  }
  Put<uint32_t>(&out, nonzero);
  for (size_t i = 0; i < weights_.size(); ++i) {
    if (squared_gradients_[i] == 0) continue;
    Put<uint32_t>(&out, static_cast<uint32_t>(i));
    Put<float>(&out, weights_[i]);
    Put<float>(&out, squared_gradients_[i]);
  }
  return out;
}

absl::StatusOr<LinkLearner> LinkLearner::Parse(absl::string_view bytes) {
  uint32_t version = 0;
  LinkLearnerOptions o;
  int32_t bits = 0;
  int64_t examples = 0;
  uint32_t nonzero = 0;
  if (!Get(&bytes, &version) || !Get(&bytes, &bits) ||
      !Get(&bytes, &o.learning_rate) || !Get(&bytes, &o.l2) ||
      !Get(&bytes, &examples) || !Get(&bytes, &nonzero)) {
    return absl::InvalidArgumentError("link model: truncated header");
  }
  if (version != kFormatVersion) {
    return absl::InvalidArgumentError(absl::StrCat(
        "link model: format version ", version, ", expected ", kFormatVersion));
  }
  if (bits < kMinHashBits || bits > kMaxHashBits) {
    return absl::InvalidArgumentError(
        absl::StrCat("link model: hash bits ", bits, " outside [", kMinHashBits,
                     ", ", kMaxHashBits, "]"));
  }
  if (!std::isfinite(o.learning_rate) || !(o.learning_rate > 0) ||
      !std::isfinite(o.l2) || o.l2 < 0 || o.l2 >= 1 || examples < 0) {
    return absl::InvalidArgumentError("link model: invalid parameters");
  }
  o.hash_bits = bits;
  const size_t entry = sizeof(uint32_t) + 2 * sizeof(float);
  if (nonzero > (size_t{1} << bits) || bytes.size() != nonzero * entry) {
    return absl::InvalidArgumentError(
        absl::StrCat("link model: ", nonzero, " weights do not fit ",
                     bytes.size(), " bytes for 2^", bits, " buckets"));
  }
  LinkLearner m(o);
  m.examples_ = examples;
  for (uint32_t k = 0; k < nonzero; ++k) {
    uint32_t i = 0;
    float w = 0, g = 0;
    Get(&bytes, &i);
    Get(&bytes, &w);
    Get(&bytes, &g);
    if (i >= m.weights_.size() || !std::isfinite(w) || !std::isfinite(g) ||
        g < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("link model: bad weight entry ", k));
    }
    m.weights_[i] = w;
    m.squared_gradients_[i] = g;
  }
  return m;
}

}  // namespace fcrawl::focus
