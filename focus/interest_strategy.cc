// The "interest" strategy ([INTEREST] §4): relevance-first crawling inside
// crawl scopes, ordered by the relevance of unfetched pages predicted from
// the fetched pages that link to them and the types of those links.
//
// V(h) = (α'Σ_down + β'Σ_up + δ'Σ_horiz + γ'Σ_cross + λ'Σ_out) / |P|
// (formula 6), each Σ over the fetched pages p linking to h with that link
// type, of Rev(p, P). A page offers each distinct out-link once with
// sum = weight(type)·Rev(p) and count 1; Merge adds sums and counts, so the
// frontier score sum/count is V(h) over every page that has linked to h.
//
// Reading: links of irrelevant pages (Rev ≤ ε) are followed. §4.2 step 3
// weights and accumulates "all links of this page" by the page's relevance,
// and formula 5 averages over every page pointing to h, so an irrelevant
// page lowers its targets' prediction (its Rev is usually negative) instead
// of hiding them; the crawl is best-first until the scope budgets are spent
// (step 4). ε is the filter's test of whether a page belongs to the field
// (§3.2), which does not change the order.
//
// Reading: the page text judged by Rev is the text of all its blocks (as the
// crawler computes relevance), with the title and <meta> keywords and
// description weighted by the model's field weights (§3.2).
//
// Crawl scopes (§4.2 step 1): each has a start page and a resource limit in
// pages or time. Reading: a scope is the start page's directory (the URL up
// to the last '/' of its path, on the same site as ClassifyLink defines it:
// "http://s.com/sports/index.html" and "http://s.com/sports/" give
// /sports/, "http://s.com/sports" gives /); a URL belongs to the scope whose
// directory is its longest prefix. The time budget runs from the scope's
// first admitted fetch. The counts live in memory: a restarted worker gives
// every scope its full budget again.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "core/url.h"
#include "focus/interest.h"
#include "focus/strategy_internal.h"

namespace fcrawl::focus {
namespace {

using internal::Candidate;
using internal::Candidates;

struct Scope {
  std::string start_url;
  std::string host;
  int port = -1;
  std::string directory;  // ends in '/'
  int64_t max_pages = 0;
  int64_t max_seconds = 0;
};

struct ScopeUsage {
  int64_t admitted = 0;
  absl::Time first = absl::InfinitePast();
};

class InterestStrategy final : public Strategy {
 public:
  InterestStrategy(const InterestOptions& options,
                   std::shared_ptr<const InterestModel> model,
                   std::vector<Scope> scopes, std::function<absl::Time()> now)
      : options_(options),
        model_(std::move(model)),
        scopes_(std::move(scopes)),
        now_(std::move(now)),
        usage_(scopes_.size()) {}

  absl::string_view name() const override { return "interest"; }

  FrontierState SeedState() const override {
    FrontierState s;
    s.score = kSeedScore;
    return s;
  }

  std::vector<ScoredLink> ScoreLinks(const FetchedPage& page) override {
    std::vector<ScoredLink> out;
    if (page.page == nullptr) return out;
    const html::Document& doc = page.page->document;
    const std::vector<Candidate> candidates = Candidates(doc);
    if (candidates.empty()) return out;
    std::string body;
    for (const quark::Block& b : page.page->segmentation.blocks) {
      absl::StrAppend(&body, b.text, "\n");
    }
    const double rev = model_->RevOfCounts(model_->CountTerms(
        body, doc.title, absl::StrCat(doc.keywords, " ", doc.description)));
    // Link types are about where the page really is: after redirects.
    const absl::string_view page_url = !page.final_url.empty() ? page.final_url
                                       : !page.url.empty()     ? page.url
                                                               : doc.url;
    const absl::StatusOr<url::Url> from = url::Parse(page_url);
    out.reserve(candidates.size());
    for (const Candidate& c : candidates) {
      // The page's URL is parsed once; the link's came parsed.
      std::optional<url::Url> reparsed;
      const url::Url* to = html::ParsedUrl(doc.links[c.first], &reparsed);
      const double contribution =
          Weight(from.ok() && to != nullptr ? ClassifyLinkUrls(*from, *to)
                                            : LinkType::kOutward) *
          rev;
      FrontierState s;
      s.sum = contribution;
      s.count = 1;
      s.score = contribution;
      out.push_back(ScoredLink{c.first, s});
    }
    return out;
  }

  FrontierState Merge(const FrontierState& queued,
                      const FrontierState& offered) const override {
    FrontierState out;
    out.sum = Finite(queued.sum) + Finite(offered.sum);
    const int64_t count = static_cast<int64_t>(std::max(queued.count, 0)) +
                          std::max(offered.count, 0);
    out.count = static_cast<int32_t>(
        std::min<int64_t>(count, std::numeric_limits<int32_t>::max()));
    out.depth_budget = std::max(queued.depth_budget, offered.depth_budget);
    if (queued.score == kSeedScore || offered.score == kSeedScore) {
      out.score = kSeedScore;  // a seed keeps its place before every link
    } else {
      out.score = out.count > 0 ? out.sum / out.count : 0;
    }
    return out;
  }

  Admission Admit(absl::string_view url, int physical_layer,
                  const FrontierState& state) override {
    if (scopes_.empty()) return {};
    const int index = ScopeOf(url);
    if (index < 0) return Admission::Skip("outside every interest scope");
    const Scope& scope = scopes_[index];
    absl::MutexLock lock(&mu_);
    ScopeUsage& usage = usage_[index];
    if (scope.max_pages > 0 && usage.admitted >= scope.max_pages) {
      return Admission::Skip(absl::StrCat("interest scope ", scope.start_url,
                                          " spent its budget of ",
                                          scope.max_pages, " pages"));
    }
    const absl::Time now = now_();
    if (scope.max_seconds > 0 && usage.admitted > 0 &&
        now - usage.first >= absl::Seconds(scope.max_seconds)) {
      return Admission::Skip(absl::StrCat("interest scope ", scope.start_url,
                                          " spent its budget of ",
                                          scope.max_seconds, " seconds"));
    }
    if (usage.admitted == 0) usage.first = now;
    ++usage.admitted;
    return {};
  }

 private:
  static double Finite(double x) { return std::isfinite(x) ? x : 0; }

  double Weight(LinkType type) const {
    switch (type) {
      case LinkType::kDownward:
        return options_.downward_weight();
      case LinkType::kUpward:
        return options_.upward_weight();
      case LinkType::kHorizontal:
        return options_.horizontal_weight();
      case LinkType::kCrosswise:
        return options_.crosswise_weight();
      case LinkType::kOutward:
        return options_.outward_weight();
    }
    return 0;
  }

  // The scope with the longest directory that is a prefix of `url`, or -1.
  int ScopeOf(absl::string_view spec) const {
    absl::StatusOr<url::Url> u = url::Parse(spec);
    if (!u.ok()) return -1;
    int best = -1;
    for (size_t i = 0; i < scopes_.size(); ++i) {
      const Scope& s = scopes_[i];
      if (u->host() != s.host || u->port() != s.port) continue;
      if (!absl::StartsWith(u->path(), s.directory)) continue;
      if (best < 0 || s.directory.size() > scopes_[best].directory.size()) {
        best = static_cast<int>(i);
      }
    }
    return best;
  }

  const InterestOptions options_;
  const std::shared_ptr<const InterestModel> model_;
  const std::vector<Scope> scopes_;
  const std::function<absl::Time()> now_;
  absl::Mutex mu_;
  std::vector<ScopeUsage> usage_ ABSL_GUARDED_BY(mu_);
};

absl::StatusOr<std::unique_ptr<Strategy>> Create(
    const StrategyOptions& options, std::function<absl::Time()> now) {
  const InterestOptions& o = options.interest;
  if (options.interest_model == nullptr) {
    return absl::InvalidArgumentError(
        "crawl strategy 'interest' needs an interest model "
        "(StrategyOptions.interest_model is null)");
  }
  std::vector<Scope> scopes;
  for (const proto::InterestScope& in : o.scopes()) {
    absl::StatusOr<url::Url> u = url::Parse(in.start_url());
    if (!u.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("StrategyOptions.interest.scopes: start URL '",
                       in.start_url(), "': ", u.status().message()));
    }
    Scope s;
    s.start_url = u->spec();
    s.host = std::string(u->host());
    s.port = u->port();
    s.directory = std::string(u->Directory());
    s.max_pages = in.max_pages();
    s.max_seconds = in.max_seconds();
    for (const Scope& other : scopes) {
      if (other.host == s.host && other.port == s.port &&
          other.directory == s.directory) {
        return absl::InvalidArgumentError(
            absl::StrCat("StrategyOptions.interest.scopes: '", in.start_url(),
                         "' and '", other.start_url,
                         "' are the same scope (directory ", s.directory, ")"));
      }
    }
    scopes.push_back(std::move(s));
  }
  return std::make_unique<InterestStrategy>(o, options.interest_model,
                                            std::move(scopes), std::move(now));
}

}  // namespace

namespace internal {

absl::StatusOr<std::unique_ptr<Strategy>> MakeInterest(
    const StrategyOptions& options, StrategyContext context) {
  return Create(options, [] { return absl::Now(); });
}

absl::StatusOr<std::unique_ptr<Strategy>> MakeInterestStrategy(
    const StrategyOptions& options, std::function<absl::Time()> now) {
  if (absl::Status s = options.Validate(); !s.ok()) return s;
  if (!now) return absl::InvalidArgumentError("no clock");
  return Create(options, std::move(now));
}

}  // namespace internal
}  // namespace fcrawl::focus
