// The "url-rule" strategy ([MMTOPIC] ch. 4, docs/papers.md "URL-rule
// strategy"): per site, a blind breadth-first exploration with per-layer
// quotas (§4.3.7, formula 4.2) until the site's relevant pages teach URL
// patterns (url_rule.h), then a guided crawl that fetches only URLs a
// pattern matches, ordered by S = ∂·Content + (1−∂)·PR (4.6–4.8).
//
// FrontierState use:
//   score         exploring site: −c (BFS counter, earlier = served first);
//                 guided site: S of 4.8 (always >= 0, so above every BFS
//                 score left over from the exploration).
//   inherited     PR(p) of 4.6, the link part.
//   sum / count   the PR parts contributed by parents and siblings, after
//                 the 1/max(1, |D_url|) factor, and how many pages
//                 contributed: Merge adds them up (Σ over all parents).
//   content       Content(u) of 4.7 (Merge keeps the larger).
//   depth_budget  2 for a seed, 1 for a link of a seed page to the seed's own
//                 site, else 0 (the exploration quota spares both).
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "core/text.h"
#include "core/url.h"
#include "focus/mmtopic_scores.h"
#include "focus/strategy_internal.h"
#include "focus/url_rule.h"
#include "proto/url_rules.pb.h"

namespace fcrawl::focus::internal {
namespace {

constexpr int kSeedFlag = 2;
constexpr int kSeedChildFlag = 1;
// A site's state is saved every this many fetched (and analysed) pages.
constexpr int64_t kSaveEvery = 50;
// Fetched pages whose PR and out-degree are remembered per site for the
// sibling term of 4.6.
constexpr size_t kMaxKnownPages = 1024;

// Deferred URLs (UrlRuleOptions::defer_refused) are queued again below every
// score the strategy gives otherwise: BFS positions −c (c counts queued URLs
// and stays far below 10^14) and guided scores S in [0, 1].
constexpr double kDeferredBase = -1e15;
constexpr double kDeferredCeiling = kDeferredBase / 2;

bool IsSeed(const FrontierState& s) {
  return s.score == kSeedScore || s.depth_budget == kSeedFlag;
}

double Finite(double x) { return std::isfinite(x) ? x : 0.0; }

int64_t NowMs() { return absl::ToUnixMillis(absl::Now()); }

// What one site has taught the strategy. All of it under `mu`.
struct Site {
  absl::Mutex mu;
  bool loaded ABSL_GUARDED_BY(mu) = false;
  SiteRules rules ABSL_GUARDED_BY(mu);
  PatternSet patterns ABSL_GUARDED_BY(mu);
  // Fetched page → (its PR, its out-degree C) for the sibling term of 4.6.
  absl::flat_hash_map<std::string, std::pair<double, int32_t>> known
      ABSL_GUARDED_BY(mu);
};

// PR(T)/C(T) of a fetched page of the site, 0 for a page not fetched.
double SiblingShare(const Site& site, const std::string& url)
    ABSL_EXCLUSIVE_LOCKS_REQUIRED(site.mu) {
  auto it = site.known.find(url);
  if (it == site.known.end()) return 0.0;
  return it->second.first / std::max<int32_t>(1, it->second.second);
}

class UrlRuleStrategy final : public SequencedStrategy {
 public:
  UrlRuleStrategy(const StrategyOptions& options, StrategyContext context)
      : options_(options.url_rule),
        learn_from_(LearnFrom(options.url_rule)),
        topic_sites_(options.sites),
        beta_(options.improved_shark.beta()),
        dictionary_(options.url_dictionary),
        context_(std::move(context)) {}

  absl::string_view name() const override { return "url-rule"; }

  // Reading: a seed's PR is 1 (§4.5 gives seeds "a large initial value Q";
  // 1 is the largest PR a page passes on).
  FrontierState SeedState() const override {
    FrontierState s;
    s.score = kSeedScore;
    s.inherited = 1;
    s.depth_budget = kSeedFlag;
    return s;
  }

  std::vector<ScoredLink> ScoreLinks(const FetchedPage& page) override;
  FrontierState Merge(const FrontierState& queued,
                      const FrontierState& offered) const override;
  Admission Admit(absl::string_view url, int physical_layer,
                  const FrontierState& state) override;
  std::optional<FrontierState> WithRank(absl::string_view url,
                                        const FrontierState& queued,
                                        double rank) override;

  absl::Status AttachSiteStore(SiteStore* store) override {
    store_.store(store, std::memory_order_release);
    return absl::OkStatus();
  }

 private:
  struct Link {
    int32_t first = 0;  // index into document.links
    std::string site;
    double content = 0;
    ScoredLink scored;
  };

  // A URL the quota or the patterns refuse: skipped (the paper), or
  // deferred below every admitted URL, keeping its order: guided URLs by S
  // (resolution 10^-3, what a double keeps at this magnitude), explored
  // ones after them in their breadth-first order.
  Admission Refuse(const FrontierState& state, std::string reason) const {
    Admission a = Admission::Skip(std::move(reason));
    if (options_.defer_refused()) {
      const double score = Finite(state.score);
      a.defer_score = score >= 0
                          ? kDeferredBase - 1000 * (1 - std::min(score, 1.0))
                          : kDeferredBase - 1000 + std::max(score, -1e14);
    }
    return a;
  }

  bool IsRelevant(const FetchedPage& page) const {
    const bool topical = page.relevance > options_.relevance_threshold();
    switch (learn_from_) {
      case UrlRuleRelevance::kTopical:
        return topical;
      case UrlRuleRelevance::kMedia:
        return page.has_media;
      case UrlRuleRelevance::kBoth:
        return topical && page.has_media;
    }
    return false;
  }

  // Quota of formula 4.2 for the crawler's physical layer n (path segments,
  // file name included). Reading: the formula is based at layer 2 and gives
  // 0 at layer 1, which would shut the blind search out of every site; the
  // home page (layer 0) and the top-level pages (layer 1), through which
  // every deeper page is reached, get the layer-2 quota NUM_P2.
  int64_t Quota(int layer) const {
    return static_cast<int64_t>(options_.layer2_quota()) *
           std::max<int64_t>(1, layer - 1);
  }

  std::shared_ptr<Site> GetSite(const std::string& host) {
    absl::MutexLock lock(&sites_mu_);
    std::shared_ptr<Site>& s = sites_[host];
    if (s == nullptr) s = std::make_shared<Site>();
    return s;
  }

  // Lazily loads the site's stored state. Reading: a value that does not
  // parse or is inconsistent is ignored (the site explores again) and is
  // overwritten by the next save; a store that fails to read is treated
  // the same way.
  void EnsureLoaded(Site& site, const std::string& host)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(site.mu) {
    if (site.loaded) return;
    site.loaded = true;
    site.rules.host = host;
    SiteStore* store = store_.load(std::memory_order_acquire);
    if (store == nullptr) return;
    absl::StatusOr<std::optional<std::string>> bytes = store->Load(host);
    if (!bytes.ok() || !bytes->has_value()) return;
    proto::SiteUrlRules p;
    if (!p.ParseFromString(**bytes)) return;
    absl::StatusOr<SiteRules> rules = SiteRulesFromProto(p);
    if (!rules.ok() || rules->host != host) return;
    absl::StatusOr<PatternSet> set = PatternSet::Compile(rules->patterns);
    if (!set.ok()) return;
    site.rules = *std::move(rules);
    site.patterns = *std::move(set);
  }

  // Errors are dropped: the next save writes the whole state again.
  void Save(Site& site) ABSL_EXCLUSIVE_LOCKS_REQUIRED(site.mu) {
    SiteStore* store = store_.load(std::memory_order_acquire);
    if (store == nullptr) return;
    site.rules.updated_at_ms = NowMs();
    const std::string bytes = SiteRulesToProto(site.rules).SerializeAsString();
    (void)store->Save(site.rules.host, bytes);
  }

  // Adds a relevant URL to the learning sample; true if the sample changed.
  // Reading: a full sample makes room only for a URL no pattern matches (a
  // region not learned yet), by dropping its oldest URL that a pattern
  // already covers.
  bool AddRelevant(Site& site, const std::string& url)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(site.mu) {
    std::vector<std::string>& sample = site.rules.relevant_urls;
    if (std::find(sample.begin(), sample.end(), url) != sample.end()) {
      return false;
    }
    if (sample.size() < kUrlRuleMaxRelevantUrls) {
      sample.push_back(url);
      return true;
    }
    if (!site.patterns.Match(url).empty()) return false;
    for (auto it = sample.begin(); it != sample.end(); ++it) {
      if (!site.patterns.Match(*it).empty()) {
        sample.erase(it);
        sample.push_back(url);
        return true;
      }
    }
    return false;
  }

  // Re-learns the site's patterns; true if its rules or phase changed.
  // Reading: when the sample yields no cluster any more (e.g. a URL turned
  // out to be template-wide) the patterns learned before are kept, so a
  // guided site does not fall back to blind search.
  bool Learn(Site& site) ABSL_EXCLUSIVE_LOCKS_REQUIRED(site.mu) {
    std::vector<UrlPattern> learned =
        LearnUrlPatterns(site.rules.relevant_urls, site.rules.inlinks,
                         site.rules.pages_analysed, options_, NowMs());
    if (learned.empty()) return false;
    bool same = learned.size() == site.rules.patterns.size();
    for (size_t i = 0; i < learned.size(); ++i) {
      for (const UrlPattern& old : site.rules.patterns) {
        if (old.SameRule(learned[i])) {
          learned[i].learned_at_ms = old.learned_at_ms;  // first learned
          break;
        }
      }
      if (same) {
        const UrlPattern& old = site.rules.patterns[i];
        same = old.SameRule(learned[i]) && old.covered == learned[i].covered &&
               old.relevant == learned[i].relevant;
      }
    }
    const bool was_guided = site.rules.phase == SitePhase::kGuided;
    if (same && was_guided) return false;
    absl::StatusOr<PatternSet> set = PatternSet::Compile(learned);
    if (!set.ok()) return false;
    site.rules.patterns = std::move(learned);
    site.patterns = *std::move(set);
    site.rules.phase = SitePhase::kGuided;
    return true;
  }

  const UrlRuleOptions options_;
  const UrlRuleRelevance learn_from_;
  // StrategyOptions::sites.
  const std::vector<std::string> topic_sites_;
  double beta_;
  std::shared_ptr<const text::UrlDictionary> dictionary_;
  StrategyContext context_;
  std::atomic<SiteStore*> store_{nullptr};
  absl::Mutex sites_mu_;
  absl::flat_hash_map<std::string, std::shared_ptr<Site>> sites_
      ABSL_GUARDED_BY(sites_mu_);
};

std::vector<ScoredLink> UrlRuleStrategy::ScoreLinks(const FetchedPage& page) {
  if (page.page == nullptr) return {};
  const quark::AnalyzedPage& p = *page.page;
  const html::Document& doc = p.document;
  // Reading: the site and the learning sample use the URL the page was
  // queued (and admitted) under, the one the patterns decide about.
  const absl::string_view raw_url = page.url.empty() ? doc.url : page.url;
  std::string page_url;
  std::string page_site;
  if (raw_url.size() <= url::kMaxUrlLength) {
    absl::StatusOr<url::Url> u = url::Parse(raw_url);
    if (u.ok()) {
      page_url = u->spec();
      page_site = UrlSite(page_url);
    }
  }
  const std::vector<Candidate> candidates = Candidates(doc);
  const int32_t out_degree =
      static_cast<int32_t>(std::max<size_t>(1, candidates.size()));
  // PR of the parent: its own estimate when it was queued (seeds 1).
  const double parent_pr =
      IsSeed(page.state) ? 1.0 : Clamp01(page.state.inherited);
  const bool from_seed = IsSeed(page.state);

  // Content (4.7) of each distinct link, the best of its occurrences.
  const std::vector<int32_t> block_of = BlockOfLinks(p);
  const auto& blocks = p.segmentation.blocks;
  std::vector<std::optional<double>> title_score(blocks.size());
  // Formula 4.7 is improved Shark-Search's 3.12 (mmtopic_scores.h).
  auto title = [&](int32_t b) -> double {
    if (b < 0 || static_cast<size_t>(b) >= blocks.size()) {
      return mmtopic::GroupTitleScore(nullptr, context_.similarity);
    }
    if (!title_score[b].has_value()) {
      title_score[b] =
          mmtopic::GroupTitleScore(&blocks[b], context_.similarity);
    }
    return *title_score[b];
  };
  const Topic& topic = context_.topic;
  std::vector<Link> links;
  links.reserve(candidates.size());
  for (const Candidate& c : candidates) {
    const html::Link& first = doc.links[c.first];
    Link l;
    l.first = c.first;
    l.site = UrlSite(first.url);
    // Reading: a link the URL parser rejects can never be fetched; it is not
    // offered.
    if (l.site.empty()) continue;
    const double url_score =
        mmtopic::UrlScore(topic, dictionary_.get(), first.url);
    for (int32_t o : c.occurrences) {
      const double anchor =
          mmtopic::AnchorScore(topic, doc.links[o].anchor_text);
      l.content = std::max(
          l.content,
          mmtopic::SharkContent(title(block_of[o]), anchor, url_score, beta_));
    }
    links.push_back(std::move(l));
  }

  // Record the page in its site: counts, in-links, the learning sample.
  if (!page_site.empty()) {
    std::shared_ptr<Site> site = GetSite(page_site);
    absl::MutexLock lock(&site->mu);
    EnsureLoaded(*site, page_site);
    SiteRules& rules = site->rules;
    ++rules.pages_analysed;
    if (site->known.size() < kMaxKnownPages || site->known.contains(page_url)) {
      site->known[page_url] = {parent_pr, out_degree};
    }
    // Template-wide URLs are linked from the first pages on, so counting
    // only the first kUrlRuleMaxInLinkUrls distinct URLs still finds them.
    for (const Link& l : links) {
      if (l.site != page_site) continue;
      const std::string& target = doc.links[l.first].url;
      auto it = rules.inlinks.find(target);
      if (it != rules.inlinks.end()) {
        if (it->second < std::numeric_limits<int32_t>::max()) ++it->second;
      } else if (rules.inlinks.size() < kUrlRuleMaxInLinkUrls) {
        rules.inlinks.emplace(target, 1);
      }
    }
    bool save = rules.pages_analysed % kSaveEvery == 0;
    if (IsRelevant(page) && AddRelevant(*site, page_url) &&
        rules.relevant_urls.size() >
            static_cast<size_t>(options_.min_relevant_pages())) {
      save = Learn(*site) || save;
    }
    if (save) Save(*site);
  }

  // Score the links, one site at a time (the frontier orders per host).
  absl::flat_hash_map<std::string, std::vector<size_t>> by_site;
  std::vector<std::string> site_order;
  for (size_t i = 0; i < links.size(); ++i) {
    auto [it, inserted] = by_site.try_emplace(links[i].site);
    if (inserted) site_order.push_back(links[i].site);
    it->second.push_back(i);
  }
  const double d = options_.damping();
  const double w = options_.content_weight();
  for (const std::string& host : site_order) {
    const std::vector<size_t>& members = by_site[host];
    std::shared_ptr<Site> site = GetSite(host);
    absl::MutexLock lock(&site->mu);
    EnsureLoaded(*site, host);
    const bool guided = site->rules.phase == SitePhase::kGuided;
    // Reading: N of 4.6 is the number of the site's pages analysed so far.
    const double n =
        static_cast<double>(std::max<int64_t>(1, site->rules.pages_analysed));
    // Reading: the siblings of a link are the page's other links to the same
    // site that have been fetched already; each passes on PR(T_j)/C(T_j)
    // with its own PR and out-degree as they were when it was fetched.
    auto share = [&](const std::string& u) ABSL_EXCLUSIVE_LOCKS_REQUIRED(
                     site->mu) { return SiblingShare(*site, u); };
    double siblings_total = 0;
    for (size_t i : members) {
      siblings_total += share(doc.links[links[i].first].url);
    }
    for (size_t i : members) {
      Link& l = links[i];
      const std::string& target = doc.links[l.first].url;
      const double siblings = std::max(0.0, siblings_total - share(target));
      // |D_url|: distance to the nearest pattern of the link's site (none
      // while the site explores: factor 1).
      int distance = 1;
      if (guided) {
        if (std::optional<int> du = site->patterns.Distance(target);
            du.has_value()) {
          distance = std::max(1, *du);
        }
      }
      const double part = Finite(d * (parent_pr / out_degree + siblings) /
                                 static_cast<double>(distance));
      FrontierState s;
      s.inherited = (1 - d) / n + part;  // formula 4.6
      s.sum = part;
      s.count = 1;
      s.content = l.content;
      s.depth_budget = from_seed && host == page_site ? kSeedChildFlag : 0;
      // Formula 4.8 once the site is guided; breadth-first before.
      s.score =
          guided ? mmtopic::FinalScore(w, l.content, s.inherited) : -Next();
      l.scored = ScoredLink{l.first, s};
    }
  }
  std::vector<ScoredLink> out;
  out.reserve(links.size());
  for (const Link& l : links) out.push_back(l.scored);
  return out;
}

FrontierState UrlRuleStrategy::Merge(const FrontierState& queued,
                                     const FrontierState& offered) const {
  if (queued.score == kSeedScore || offered.score == kSeedScore) {
    return MaxMerge(queued, offered);
  }
  FrontierState out;
  out.depth_budget = std::max(queued.depth_budget, offered.depth_budget);
  // Σ over every parent (and its siblings) of 4.6.
  out.sum = Finite(queued.sum + offered.sum);
  out.count = static_cast<int32_t>(
      std::min<int64_t>(static_cast<int64_t>(queued.count) + offered.count,
                        std::numeric_limits<int32_t>::max()));
  // Reading: the best anchor's Content wins, as Merge keeps the better
  // neighbourhood in Shark-Search.
  out.content = std::max(Finite(queued.content), Finite(offered.content));
  // (1−d)/N from the newer offer (N only grows).
  const double teleport =
      std::max(0.0, Finite(offered.inherited - offered.sum));
  out.inherited = teleport + out.sum;
  if (offered.score >= 0) {
    out.score = mmtopic::FinalScore(options_.content_weight(), out.content,
                                    out.inherited);
  } else {
    // Breadth-first: the entry queued first keeps its place.
    out.score = std::max(queued.score, offered.score);
  }
  return out;
}

// Reading: 4.6's PR is on the scale of the site (the teleport part is
// (1−d)/N, N the site's pages analysed, so its mean is about 1/N); the
// ranker's R has mean 1 over the graph, so PR = R/N. sum is set to the
// value that gives that PR, so later offers keep adding their parts to it.
// A site still exploring keeps its breadth-first order (its score is a
// queue position); the rank still replaces the link part for later.
std::optional<FrontierState> UrlRuleStrategy::WithRank(
    absl::string_view url, const FrontierState& queued, double rank) {
  if (IsSeed(queued) || !std::isfinite(rank) || rank < 0) return std::nullopt;
  const std::string host = UrlSite(url);
  if (host.empty()) return std::nullopt;
  std::shared_ptr<Site> site = GetSite(host);
  absl::MutexLock lock(&site->mu);
  EnsureLoaded(*site, host);
  const double n =
      static_cast<double>(std::max<int64_t>(1, site->rules.pages_analysed));
  const double teleport = (1 - options_.damping()) / n;
  FrontierState out = queued;
  out.inherited = std::max(teleport, rank / n);
  out.sum = out.inherited - teleport;
  if (queued.score >= 0) {
    out.score = mmtopic::FinalScore(options_.content_weight(), out.content,
                                    out.inherited);
  }
  if (out == queued) return std::nullopt;
  return out;
}

Admission UrlRuleStrategy::Admit(absl::string_view url, int physical_layer,
                                 const FrontierState& state) {
  const std::string host = UrlSite(url);
  if (host.empty()) {
    return Admission::Skip("url-rule: not an absolute http(s) URL");
  }
  // §4.3.7 (1): the crawl stays on the topic sites, the sites of its seeds.
  if (!topic_sites_.empty() && !IsSeed(state) &&
      std::find(topic_sites_.begin(), topic_sites_.end(), host) ==
          topic_sites_.end()) {
    return Admission::Skip(absl::StrCat(
        "url-rule: ", host, " is not one of the seed sites it crawls"));
  }
  std::shared_ptr<Site> site = GetSite(host);
  absl::MutexLock lock(&site->mu);
  EnsureLoaded(*site, host);
  SiteRules& rules = site->rules;
  const int layer =
      std::clamp(physical_layer, 0, static_cast<int>(kUrlRuleMaxLayers) - 1);
  // A deferred URL that came back to the head of its queue: nothing
  // admitted is left on its host, so it is fetched.
  const bool deferred = state.score <= kDeferredCeiling;
  if (!IsSeed(state) && !deferred) {
    if (rules.phase == SitePhase::kGuided) {
      if (site->patterns.Match(url).empty()) {
        return Refuse(state,
                      absl::StrCat("url-rule: no learned URL pattern of ", host,
                                   " matches"));
      }
    } else {
      // §4.5: "if the physical layer n > 10, skip" (the blind search stops).
      if (physical_layer > options_.max_layer()) {
        return Admission::Skip(
            absl::StrCat("url-rule: physical layer ", physical_layer, " of ",
                         host, " is beyond max_layer ", options_.max_layer(),
                         " while the site is explored"));
      }
      const int64_t quota = Quota(layer);
      const int64_t used =
          static_cast<size_t>(layer) < rules.fetched_per_layer.size()
              ? rules.fetched_per_layer[layer]
              : 0;
      // §4.3.2: every internal link of a seed page is fetched.
      if (state.depth_budget != kSeedChildFlag && used >= quota) {
        return Refuse(
            state,
            absl::StrCat("url-rule: exploration quota of physical layer ",
                         layer, " of ", host, " is spent (NUM_P", layer, " = ",
                         quota, ")"));
      }
    }
  }
  if (rules.fetched_per_layer.size() <= static_cast<size_t>(layer)) {
    rules.fetched_per_layer.resize(layer + 1, 0);
  }
  ++rules.fetched_per_layer[layer];
  ++rules.pages_fetched;
  if (rules.pages_fetched % kSaveEvery == 0) Save(*site);
  return {};
}

}  // namespace

std::unique_ptr<Strategy> MakeUrlRule(const StrategyOptions& options,
                                      StrategyContext context) {
  return std::make_unique<UrlRuleStrategy>(options, std::move(context));
}

}  // namespace fcrawl::focus::internal
