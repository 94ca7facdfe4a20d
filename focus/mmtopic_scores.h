// What Topic-PageRank (topic_pagerank.cc), improved Shark-Search
// (improved_shark.cc) and the URL-rule strategy (url_rule_strategy.cc) share
// ([MMTOPIC] §3.4, §4.6): the Boolean scores of a link's anchor text and URL
// (formulas 3.9, 3.10 / 4.1), the content score of improved Shark-Search
// (3.12, which is URL-rule's 4.7), the final frontier score (4.8), the Merge of
// per-URL accumulated link contributions, and a bounded per-URL statistics
// map. Not part of the focus library's public API; the code is in
// improved_shark.cc.
#ifndef FCRAWL_FOCUS_MMTOPIC_SCORES_H_
#define FCRAWL_FOCUS_MMTOPIC_SCORES_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "core/html.h"
#include "core/text.h"
#include "focus/strategy.h"
#include "focus/strategy_internal.h"
#include "focus/topic.h"
#include "quark/quark.h"

namespace fcrawl::focus::internal::mmtopic {

// Default bound of the per-URL statistics maps: about 30 MB each.
inline constexpr size_t kMaxTrackedUrls = size_t{1} << 20;

// Formula 3.9 (4.1): |anchor tokens ∩ T| / |T|.
double AnchorScore(const Topic& topic, absl::string_view anchor_text);
// Formula 3.10 (4.1): |URL words ∩ T| / |T|, URL words by text::UrlWords
// through `dictionary` (may be null).
double UrlScore(const Topic& topic, const text::UrlDictionary* dictionary,
                absl::string_view url);

// Score(group title) of formula 3.12 for a link listed in `block` (null when
// the link is in no block): cos(group title, T) through `similarity`.
// Reading: a block without a group title (or no block) scores 1, so Content
// falls back to β·anchor + (1−β)·URL instead of zeroing every link outside a
// titled topic group.
double GroupTitleScore(const quark::Block* block,
                       const SimilarityFn& similarity);

// Formula 3.12: Score(title)·[β·Score(anchor) + (1−β)·Score(url)], inputs
// clamped to [0, 1] (NaN → 0).
double SharkContent(double title, double anchor, double url, double beta);

// Formula 4.8: S = ∂·Content + (1−∂)·Link, both parts clamped to [0, 1]
// (NaN → 0).
double FinalScore(double content_weight, double content, double link);

// A seed's state (score kSeedScore); Merge keeps it as it is.
bool IsSeed(const FrontierState& s);

// The per-URL accumulation both strategies merge with: sums of the link
// contributions and their counts add up (NaN or negative parts count as 0,
// the count saturates), Content is the best one offered.
struct Accumulated {
  double sum = 0;
  int32_t count = 0;
  double content = 0;
};
Accumulated Accumulate(const FrontierState& a, const FrontierState& b);

// Key of a URL in the statistics maps (64-bit hash; a collision merges two
// URLs' statistics, which is harmless at 2^-64 odds per pair).
uint64_t UrlKey(absl::string_view url);

// A map key → V holding at most `capacity` entries; when a new key would
// exceed it, the entry inserted longest ago is forgotten (FIFO), so the
// memory of a long crawl stays bounded. Thread-safe.
template <typename V>
class BoundedMap {
 public:
  explicit BoundedMap(size_t capacity)
      : capacity_(std::max<size_t>(capacity, 1)) {}
  BoundedMap(const BoundedMap&) = delete;
  BoundedMap& operator=(const BoundedMap&) = delete;

  // Calls update(V&) on key's entry (a value-initialised V if there is
  // none) under the lock; returns the entry as update left it.
  template <typename F>
  V Update(uint64_t key, F&& update) ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    auto [it, inserted] = map_.try_emplace(key);
    if (inserted) order_.push_back(key);
    std::forward<F>(update)(it->second);
    V out = it->second;
    // The new key is at the back of order_, so it is never the one evicted.
    while (map_.size() > capacity_) {
      map_.erase(order_.front());
      order_.pop_front();
    }
    return out;
  }

  std::optional<V> Find(uint64_t key) const ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    auto it = map_.find(key);
    if (it == map_.end()) return std::nullopt;
    return it->second;
  }

  size_t size() const ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    return map_.size();
  }
  size_t capacity() const { return capacity_; }

 private:
  const size_t capacity_;
  mutable absl::Mutex mu_;
  absl::flat_hash_map<uint64_t, V> map_ ABSL_GUARDED_BY(mu_);
  std::deque<uint64_t> order_ ABSL_GUARDED_BY(mu_);  // insertion order
};

// Statistics of the crawled children of one page d_j (formulas 3.16, 3.17):
// n, n' (children with relevance > kRelevantChild) and Σ P(d_k).
struct ChildStats {
  int64_t crawled = 0;
  int64_t relevant = 0;
  double p_sum = 0;
};

// A crawled page counts as relevant for n' of formula 3.16 when its
// relevance sim(T, page) is above this. Reading: the paper says "relevant"
// without a threshold; 0.1 is the cosine the Fish-Search baseline uses.
inline constexpr double kRelevantChild = 0.1;

// The strategies with a chosen map bound (tests; the factories in
// strategy_internal.h use kMaxTrackedUrls).
std::unique_ptr<Strategy> MakeTopicPageRank(const StrategyOptions& options,
                                            StrategyContext context,
                                            size_t max_tracked_urls);
std::unique_ptr<Strategy> MakeImprovedShark(const StrategyOptions& options,
                                            StrategyContext context,
                                            size_t max_tracked_urls);

}  // namespace fcrawl::focus::internal::mmtopic

#endif  // FCRAWL_FOCUS_MMTOPIC_SCORES_H_
