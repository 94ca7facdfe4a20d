#include "focus/outcome_model.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "core/hash.h"

namespace fcrawl::focus {

OutcomeModel::OutcomeModel(OutcomeModelOptions options) : options_(options) {}

template <typename OnKey>
void OutcomeModel::WalkKeys(const url::Url& u, int max_depth, OnKey on_key) {
  // Paths are compared in lower case: a site that answers /Docs/ and
  // /docs/ alike (MDN) is one folder, and on one that does not, two
  // folders differing in case rarely differ in what they hold.
  const std::string path = absl::AsciiStrToLower(u.path());
  const uint64_t host = hash::Fnv1a64(u.host());
  on_key(host, absl::string_view(u.host()), /*name=*/false);
  // Directory prefixes "/a/", "/a/b/", ...: each '/' after the first ends
  // one. Keyed as host, '\n' (never in a host or a path), prefix.
  const uint64_t dirs = hash::Fnv1a64Continue(host, "\n");
  const absl::string_view p = path;
  int levels = 0;
  for (size_t slash = p.find('/', 1);
       slash != absl::string_view::npos && levels < max_depth;
       slash = p.find('/', slash + 1), ++levels) {
    const absl::string_view prefix = p.substr(0, slash + 1);
    on_key(hash::Fnv1a64Continue(dirs, prefix), prefix, /*name=*/false);
  }
  const absl::string_view name = p.substr(p.rfind('/') + 1);
  if (!name.empty()) {
    uint64_t k = hash::Fnv1a64Continue(hash::Fnv1a64Continue(host, "\t"), name);
    if (k == 0) k = 1;  // 0 means "no name"
    on_key(k, name, /*name=*/true);
  }
}

OutcomeKeys OutcomeModel::KeysOf(const url::Url& u, int max_depth) {
  OutcomeKeys k;
  WalkKeys(u, max_depth, [&](uint64_t key, absl::string_view, bool name) {
    if (name) {
      k.name = key;
    } else {
      k.chain.push_back(key);
    }
  });
  return k;
}

OutcomeLabels OutcomeModel::LabelsOf(const url::Url& u, int max_depth) {
  OutcomeLabels l;
  bool host = true;
  WalkKeys(u, max_depth, [&](uint64_t key, absl::string_view label, bool name) {
    if (name) {
      l.name = {key, std::string(label)};
    } else if (host) {
      l.host = std::string(label);
      l.host_key = key;
      host = false;
    } else {
      l.folders.emplace_back(key, std::string(label));
    }
  });
  return l;
}

void OutcomeModel::Add(uint64_t key, bool page) {
  auto it = counts_.find(key);
  if (it == counts_.end()) {
    if (counts_.size() >= options_.max_keys) return;
    it = counts_.emplace(key, Counts{}).first;
  }
  it->second.fetches += 1;
  if (page) it->second.pages += 1;
}

void OutcomeModel::Observe(const OutcomeKeys& keys, bool page) {
  ++observations_;
  for (uint64_t k : keys.chain) Add(k, page);
  if (keys.name != 0) Add(keys.name, page);
}

OutcomeCounts OutcomeModel::CountsOf(uint64_t key) const {
  auto it = counts_.find(key);
  return it == counts_.end() ? Counts{} : it->second;
}

double OutcomeModel::Shrink(Counts c, double parent, double strength) const {
  // A level less its child can be a hair below 0 in float arithmetic, or
  // below it for real when the table was full for the parent's key only.
  const double pages = std::max(0.0, static_cast<double>(c.pages));
  const double fetches = std::max(pages, static_cast<double>(c.fetches));
  return (pages + strength * parent) / (fetches + strength);
}

double OutcomeModel::Probability(const OutcomeKeys& keys) const {
  double p = options_.prior;
  for (size_t i = 0; i < keys.chain.size(); ++i) {
    Counts c = CountsOf(keys.chain[i]);
    if (i + 1 < keys.chain.size()) {
      // Only what was fetched outside the next level's branch.
      const Counts child = CountsOf(keys.chain[i + 1]);
      c.pages -= child.pages;
      c.fetches -= child.fetches;
    }
    p = Shrink(c, p, i == 0 ? options_.host_strength : options_.strength);
  }
  if (keys.name != 0) p = Shrink(CountsOf(keys.name), p, options_.strength);
  return p;
}

void OutcomeModel::SaveTo(proto::LearnedState* state) const {
  // In key order: the same counts save to the same bytes.
  std::vector<uint64_t> keys;
  keys.reserve(counts_.size());
  for (const auto& [key, c] : counts_) keys.push_back(key);
  std::sort(keys.begin(), keys.end());
  state->mutable_outcome_keys()->Reserve(static_cast<int>(keys.size()));
  for (uint64_t key : keys) {
    const Counts& c = counts_.at(key);
    state->add_outcome_keys(key);
    state->add_outcome_pages(c.pages);
    state->add_outcome_fetches(c.fetches);
  }
}

absl::Status OutcomeModel::LoadFrom(const proto::LearnedState& state) {
  const int n = state.outcome_keys_size();
  if (state.outcome_pages_size() != n || state.outcome_fetches_size() != n) {
    return absl::InvalidArgumentError(absl::StrCat(
        "fetch outcomes: ", n, " keys but ", state.outcome_pages_size(),
        " page counts and ", state.outcome_fetches_size(), " fetch counts"));
  }
  absl::flat_hash_map<uint64_t, Counts> counts;
  for (int i = 0; i < n && counts.size() < options_.max_keys; ++i) {
    const float pages = state.outcome_pages(i);
    const float fetches = state.outcome_fetches(i);
    if (!std::isfinite(pages) || !std::isfinite(fetches) || pages < 0 ||
        fetches < pages) {
      return absl::InvalidArgumentError(
          absl::StrCat("fetch outcomes: key ", i, " has ", pages, " pages of ",
                       fetches, " fetches"));
    }
    counts[state.outcome_keys(i)] = Counts{pages, fetches};
  }
  counts_ = std::move(counts);
  return absl::OkStatus();
}

}  // namespace fcrawl::focus
