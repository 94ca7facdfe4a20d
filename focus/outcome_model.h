// What fetching a URL is likely to give: the share of the fetches under each
// part of a site that gave a page to read (an HTML page that was parsed)
// rather than a 404, another error or a file that is no page. Real webs
// lose pages by the folder: a course's errata, handouts and solutions that
// its home page still links, a documentation section that was moved, a
// host that is gone. A link into a folder whose fetches keep answering 404
// is worth less than its words promise, whatever they are.
//
// A URL's keys are its host, each directory prefix of its path ("/a/",
// "/a/b/", ..., at most max_depth) and its file name on its host
// ("errata.html" under any folder of the host). Every fetch is counted at
// each of its keys. The estimate walks from the host down; each level's
// prior is the level above, and the level above speaks only for the
// fetches outside the branch (its counts less the next level's), so each
// fetch counts once however deep the path:
//
//   p_host = (pages_host − pages_1 + host_strength · prior)
//            / (fetches_host − fetches_1 + host_strength)
//   p_k    = (pages_k − pages_{k+1} + strength · p_{k−1})
//            / (fetches_k − fetches_{k+1} + strength)    (k = directories)
//
// the deepest directory with its whole counts, and last the file name's
// counts (the same name in the host's other folders) shrunk towards the
// deepest directory's estimate. One 404 in a folder moves its other links
// only part of the way (prior 0.8, strength 2: (0 + 2·0.8)/(1 + 2) =
// 0.53) and the host's other folders a little (host_strength 8:
// (0 + 8·0.8)/(1 + 8) = 0.71); a folder of many dead fetches goes towards
// 0 and stays there.
//
// Thread-safety: none; the owner (the `learned` strategy) locks.
#ifndef FCRAWL_FOCUS_OUTCOME_MODEL_H_
#define FCRAWL_FOCUS_OUTCOME_MODEL_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "core/url.h"
#include "proto/link_state.pb.h"

namespace fcrawl::focus {

struct OutcomeModelOptions {
  // P(page) before anything was fetched from a host.
  double prior = 0.8;
  // Pseudo-fetches of each level's prior (the weight of the level above).
  double strength = 2;
  // The same for the host's level, whose prior is `prior`: a host is
  // judged on more fetches than a folder (one dead folder is no dead host).
  double host_strength = 8;
  // Directory levels below the host that get keys of their own.
  int max_depth = 8;
  // Keys counted at most (about 24 bytes each); once full, keys not seen
  // before are not counted (their URLs fall back on the levels above).
  size_t max_keys = size_t{1} << 18;
};

// The keys of one URL (see above); chain[0] is the host's.
struct OutcomeKeys {
  std::vector<uint64_t> chain;  // host, then directory prefixes, deepest last
  uint64_t name = 0;            // host and file name; 0 when it has none
};

// What the keys of a URL stand for, to show the counts to a person
// (`worker list-outcomes`): the host, the directory prefixes ("/a/",
// "/a/b/", lower case) and the file name, each with its key.
struct OutcomeLabels {
  std::string host;
  uint64_t host_key = 0;
  std::vector<std::pair<uint64_t, std::string>> folders;  // deepest last
  std::pair<uint64_t, std::string> name;  // {0, ""} when it has none
};

// A key's counts: fetches under it and how many of them gave a page.
struct OutcomeCounts {
  float pages = 0;
  float fetches = 0;
};

class OutcomeModel {
 public:
  explicit OutcomeModel(OutcomeModelOptions options = {});

  static OutcomeKeys KeysOf(const url::Url& u, int max_depth);
  OutcomeKeys KeysOf(const url::Url& u) const {
    return KeysOf(u, options_.max_depth);
  }
  // The same keys (chain[1..] as `folders`) with what they stand for.
  static OutcomeLabels LabelsOf(const url::Url& u, int max_depth);
  OutcomeLabels LabelsOf(const url::Url& u) const {
    return LabelsOf(u, options_.max_depth);
  }

  // One fetch of a URL with these keys: `page` when it gave a page to read.
  void Observe(const OutcomeKeys& keys, bool page);
  // The estimate above, in (0, 1).
  double Probability(const OutcomeKeys& keys) const;
  // min(1, Probability / prior): what a link's score is multiplied by. A
  // link where nothing was fetched keeps its score (1); one into a folder
  // that gave pages is not raised above what its context earns.
  double Weight(const OutcomeKeys& keys) const {
    return std::min(1.0, Probability(keys) / options_.prior);
  }

  // Zero for a key never counted.
  OutcomeCounts CountsOf(uint64_t key) const;

  size_t keys() const { return counts_.size(); }
  int64_t observations() const { return observations_; }

  // The counts as proto fields (for the saved model), and back. Load
  // refuses negative or non-finite counts (InvalidArgument) and keeps at
  // most max_keys of them.
  void SaveTo(proto::LearnedState* state) const;
  absl::Status LoadFrom(const proto::LearnedState& state);

 private:
  using Counts = OutcomeCounts;
  // Calls on_key(key, label, is_name) for the host (label: the host),
  // each directory prefix and the file name (is_name true), in KeysOf's
  // order, with the hashes KeysOf gives.
  template <typename OnKey>
  static void WalkKeys(const url::Url& u, int max_depth, OnKey on_key);
  void Add(uint64_t key, bool page);
  double Shrink(Counts c, double parent, double strength) const;

  OutcomeModelOptions options_;
  absl::flat_hash_map<uint64_t, Counts> counts_;
  int64_t observations_ = 0;
};

}  // namespace fcrawl::focus

#endif  // FCRAWL_FOCUS_OUTCOME_MODEL_H_
