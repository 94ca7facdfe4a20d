// Tests of the "url-rule" strategy (focus/url_rule_strategy.cc, [MMTOPIC]
// ch. 4) through the Strategy interface: exploration quotas and scores,
// learning a site's patterns and then guiding, formulas 4.6–4.8, Merge and
// WithRank, the site state it saves and reloads through a SiteStore, and
// hostile pages. The learner underneath is tested in url_rule_test.cc.
#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "focus/strategy.h"
#include "focus/url_rule.h"
#include "focus/url_rule_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "proto/url_rules.pb.h"
#include "quark/quark.h"

namespace fcrawl::focus {
namespace {

using quark::BlockType;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using url_rule_testing::SampleRules;

constexpr double kEps = 1e-9;

// ---------------------------------------------------------------------------
// The strategy
// ---------------------------------------------------------------------------

class FakeSiteStore : public SiteStore {
 public:
  absl::StatusOr<std::optional<std::string>> Load(
      absl::string_view host) override {
    absl::MutexLock lock(&mu_);
    ++loads_;
    if (fail_loads_) return absl::UnavailableError("disk on fire");
    auto it = values_.find(std::string(host));
    if (it == values_.end()) return std::nullopt;
    return it->second;
  }
  absl::Status Save(absl::string_view host, absl::string_view bytes) override {
    absl::MutexLock lock(&mu_);
    ++saves_;
    values_[std::string(host)] = std::string(bytes);
    return absl::OkStatus();
  }

  void Put(const std::string& host, const std::string& bytes) {
    absl::MutexLock lock(&mu_);
    values_[host] = bytes;
  }
  std::optional<proto::SiteUrlRules> Get(const std::string& host) {
    absl::MutexLock lock(&mu_);
    auto it = values_.find(host);
    if (it == values_.end()) return std::nullopt;
    proto::SiteUrlRules p;
    if (!p.ParseFromString(it->second)) return std::nullopt;
    return p;
  }
  int saves() {
    absl::MutexLock lock(&mu_);
    return saves_;
  }
  int loads() {
    absl::MutexLock lock(&mu_);
    return loads_;
  }
  void set_fail_loads(bool f) {
    absl::MutexLock lock(&mu_);
    fail_loads_ = f;
  }

 private:
  absl::Mutex mu_;
  std::map<std::string, std::string> values_ ABSL_GUARDED_BY(mu_);
  int saves_ ABSL_GUARDED_BY(mu_) = 0;
  int loads_ ABSL_GUARDED_BY(mu_) = 0;
  bool fail_loads_ ABSL_GUARDED_BY(mu_) = false;
};

struct LinkSpec {
  std::string url;
  std::string anchor;
};

// A page with its links in one block (with an optional group title).
quark::AnalyzedPage MakePage(const std::string& url,
                             const std::vector<LinkSpec>& links,
                             const std::string& group_title = "") {
  quark::AnalyzedPage p;
  p.document.url = url;
  quark::Block b;
  b.type = BlockType::kRelatedLinks;
  b.group_title = group_title;
  for (size_t i = 0; i < links.size(); ++i) {
    html::Link l;
    l.url = links[i].url;
    l.anchor_text = links[i].anchor;
    p.document.links.push_back(l);
    b.links.push_back(static_cast<int32_t>(i));
  }
  p.segmentation.blocks.push_back(b);
  return p;
}

FetchedPage Fetched(const quark::AnalyzedPage& page, double relevance,
                    FrontierState state = {}, bool media = false) {
  FetchedPage f;
  f.page = &page;
  f.url = page.document.url;
  f.final_url = page.document.url;
  f.relevance = relevance;
  f.state = state;
  f.has_media = media;
  return f;
}

FrontierState Inherited(double pr) {
  FrontierState s;
  s.inherited = pr;
  return s;
}

std::unique_ptr<Strategy> MakeUrlRule(const StrategyOptions& o,
                                      const Topic& topic) {
  absl::StatusOr<std::unique_ptr<Strategy>> s =
      MakeStrategy("url-rule", o, topic);
  EXPECT_TRUE(s.ok()) << s.status();
  return s.ok() ? std::move(*s) : nullptr;
}

StrategyOptions SmallOptions() {
  StrategyOptions o;
  o.url_rule.set_min_relevant_pages(3);
  o.url_rule.set_layer2_quota(2);
  return o;
}

const Topic& PhysicsTopic() {
  static const Topic* t = new Topic(Topic::FromText("physics video", ""));
  return *t;
}

// Four relevant pages of /physics/video/2008/ (PR 0.8 each, no links): with
// m = 3 the site learns /physics/video/2008/*.html.
void TeachVideoPattern(Strategy& s) {
  for (int i = 1; i <= 4; ++i) {
    quark::AnalyzedPage p = MakePage(
        absl::StrCat("http://s.com/physics/video/2008/", i, ".html"), {});
    EXPECT_THAT(s.ScoreLinks(Fetched(p, 0.9, Inherited(0.8))), IsEmpty());
  }
}

TEST(UrlRuleStrategyTest, BasicsAndSeed) {
  std::unique_ptr<Strategy> s = MakeUrlRule(SmallOptions(), PhysicsTopic());
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->name(), "url-rule");
  const FrontierState seed = s->SeedState();
  EXPECT_EQ(seed.score, kSeedScore);
  EXPECT_EQ(seed.inherited, 1);
  quark::AnalyzedPage none;
  FetchedPage null_page;
  EXPECT_THAT(s->ScoreLinks(null_page), IsEmpty());
  EXPECT_THAT(s->ScoreLinks(Fetched(none, 1)), IsEmpty());
}

// §4.3.7 (1): with seed sites given, other sites' URLs are refused; seeds
// themselves always pass.
TEST(UrlRuleStrategyTest, KeepsToTheSeedSites) {
  StrategyOptions o = SmallOptions();
  o.sites = {"phys.test", "media.test:8080"};
  std::unique_ptr<Strategy> s = MakeUrlRule(o, PhysicsTopic());
  ASSERT_NE(s, nullptr);
  FrontierState link;
  link.score = 0.5;
  EXPECT_TRUE(s->Admit("http://phys.test/a.html", 1, link).fetch);
  EXPECT_TRUE(s->Admit("http://media.test:8080/", 0, link).fetch);
  const Admission other = s->Admit("http://news.test/a.html", 1, link);
  EXPECT_FALSE(other.fetch);
  EXPECT_THAT(other.reason,
              HasSubstr("news.test is not one of the seed sites"));
  EXPECT_FALSE(s->Admit("http://media.test/", 0, link).fetch);  // other port
  EXPECT_TRUE(s->Admit("http://news.test/", 0, s->SeedState()).fetch);
}

TEST(UrlRuleStrategyTest, ExplorationScoresAreBreadthFirstWithPageRank) {
  std::unique_ptr<Strategy> s = MakeUrlRule(SmallOptions(), PhysicsTopic());
  quark::AnalyzedPage home =
      MakePage("http://s.com/", {{"http://s.com/a.html", "a"},
                                 {"http://s.com/b/c.html", "c"},
                                 {"http://other.org/x.html", "x"},
                                 {"http://s.com/a.html", "physics again"}});
  std::vector<ScoredLink> out = s->ScoreLinks(Fetched(home, 0, s->SeedState()));
  ASSERT_EQ(out.size(), 3u);
  // C = 3 distinct links, seed PR 1, N = 1 (the home page), no sibling
  // fetched yet: PR = 0.15/1 + 0.85·(1/3) = 0.15 + 0.283333 = 0.433333.
  const double part = 0.85 / 3;
  for (const ScoredLink& l : out) {
    EXPECT_NEAR(l.state.inherited, 0.15 + part, kEps);
    EXPECT_NEAR(l.state.sum, part, kEps);
    EXPECT_EQ(l.state.count, 1);
  }
  // BFS: −1, −2 for s.com, −3 for other.org.
  EXPECT_EQ(out[0].link, 0);
  EXPECT_EQ(out[0].state.score, -1);
  EXPECT_EQ(out[1].state.score, -2);
  EXPECT_EQ(out[2].link, 2);
  EXPECT_EQ(out[2].state.score, -3);
  // Links of a seed page to its own site are spared the quota.
  EXPECT_EQ(out[0].state.depth_budget, 1);
  EXPECT_EQ(out[2].state.depth_budget, 0);
  // Content (4.7) of a.html, best occurrence: "physics again" has 1 of the
  // 2 topic terms (0.5), the URL none: 1·(0.8·0.5 + 0.2·0) = 0.4.
  EXPECT_NEAR(out[0].state.content, 0.4, kEps);
  EXPECT_EQ(s->sequence(), 3);
  s->RestoreSequence(100);
  quark::AnalyzedPage more =
      MakePage("http://s.com/a.html", {{"http://s.com/z", ""}});
  EXPECT_EQ(s->ScoreLinks(Fetched(more, 0))[0].state.score, -101);
}

TEST(UrlRuleStrategyTest, ExplorationQuotasPerPhysicalLayer) {
  StrategyOptions o = SmallOptions();  // NUM_P2 = 2
  std::unique_ptr<Strategy> s = MakeUrlRule(o, PhysicsTopic());
  const FrontierState plain;
  // Layer 1: quota NUM_P2 = 2 (Reading: layers 0 and 1 get the layer-2
  // quota).
  EXPECT_TRUE(s->Admit("http://s.com/a1.html", 1, plain).fetch);
  EXPECT_TRUE(s->Admit("http://s.com/a2.html", 1, plain).fetch);
  Admission refused = s->Admit("http://s.com/a3.html", 1, plain);
  EXPECT_FALSE(refused.fetch);
  EXPECT_EQ(refused.reason,
            "url-rule: exploration quota of physical layer 1 of s.com is "
            "spent (NUM_P1 = 2)");
  // Layer 3: NUM_P3 = 2·(3−1) = 4.
  for (int i = 0; i < 4; ++i) {
    EXPECT_TRUE(s->Admit(absl::StrCat("http://s.com/a/b/", i), 3, plain).fetch)
        << i;
  }
  refused = s->Admit("http://s.com/a/b/9", 3, plain);
  EXPECT_FALSE(refused.fetch);
  EXPECT_THAT(refused.reason, HasSubstr("NUM_P3 = 4"));
  // Layer 10: NUM_P10 = 2·9 = 18; layer 11 is beyond max_layer 10.
  for (int i = 0; i < 18; ++i) {
    EXPECT_TRUE(
        s->Admit(absl::StrCat("http://s.com/1/2/3/4/5/6/7/8/9/", i), 10, plain)
            .fetch);
  }
  EXPECT_FALSE(s->Admit("http://s.com/1/2/3/4/5/6/7/8/9/x", 10, plain).fetch);
  refused = s->Admit("http://s.com/1/2/3/4/5/6/7/8/9/10/11", 11, plain);
  EXPECT_FALSE(refused.fetch);
  EXPECT_THAT(refused.reason, HasSubstr("beyond max_layer 10"));
  // Seeds and the links of seed pages pass a spent quota.
  EXPECT_TRUE(s->Admit("http://s.com/seed.html", 1, s->SeedState()).fetch);
  FrontierState seed_child;
  seed_child.depth_budget = 1;
  EXPECT_TRUE(s->Admit("http://s.com/a4.html", 1, seed_child).fetch);
  // Quotas are per site.
  EXPECT_TRUE(s->Admit("http://t.com/a3.html", 1, plain).fetch);
  // Malformed URLs are refused.
  EXPECT_FALSE(s->Admit("not a url", 1, plain).fetch);
  EXPECT_FALSE(s->Admit("", -5, plain).fetch);
}

TEST(UrlRuleStrategyTest, RefusedUrlsAreDeferredNotDropped) {
  StrategyOptions o = SmallOptions();  // NUM_P2 = 2
  std::unique_ptr<Strategy> s = MakeUrlRule(o, PhysicsTopic());
  FrontierState first, second;
  first.score = -7;  // BFS positions: 7 was queued before 9
  second.score = -9;
  ASSERT_TRUE(s->Admit("http://s.com/a1.html", 1, first).fetch);
  ASSERT_TRUE(s->Admit("http://s.com/a2.html", 1, first).fetch);
  const Admission a = s->Admit("http://s.com/a3.html", 1, first);
  const Admission b = s->Admit("http://s.com/a4.html", 1, second);
  ASSERT_FALSE(a.fetch);
  ASSERT_TRUE(a.defer_score.has_value());
  ASSERT_TRUE(b.defer_score.has_value());
  // Below every score the strategy admits (BFS positions, guided S >= 0),
  // in the same order as before.
  EXPECT_LT(*a.defer_score, -1e14);
  EXPECT_GT(*a.defer_score, *b.defer_score);
  EXPECT_THAT(a.reason, HasSubstr("NUM_P1 = 2"));
  // Back at the head of its queue, a deferred URL is fetched and counted.
  FrontierState back;
  back.score = *a.defer_score;
  EXPECT_TRUE(s->Admit("http://s.com/a3.html", 1, back).fetch);
  // Guided scores defer above explored ones and keep their order.
  FrontierState good, poor;
  good.score = 0.9;
  poor.score = 0.2;
  const Admission g = s->Admit("http://s.com/a5.html", 1, good);
  const Admission p = s->Admit("http://s.com/a6.html", 1, poor);
  ASSERT_TRUE(g.defer_score.has_value() && p.defer_score.has_value());
  EXPECT_GT(*g.defer_score, *p.defer_score);
  EXPECT_GT(*p.defer_score, *a.defer_score);
  // Corrupt scores still defer to a finite score.
  FrontierState nan_state;
  nan_state.score = std::nan("");
  const Admission n = s->Admit("http://s.com/a7.html", 1, nan_state);
  ASSERT_TRUE(n.defer_score.has_value());
  EXPECT_TRUE(std::isfinite(*n.defer_score));
  // A site outside the seed sites is never deferred: it is out of scope.
  o.sites = {"s.com"};
  std::unique_ptr<Strategy> scoped = MakeUrlRule(o, PhysicsTopic());
  EXPECT_FALSE(scoped->Admit("http://t.com/x", 1, first).defer_score);
  // The paper's rule: refused URLs are skipped.
  o = SmallOptions();
  o.url_rule.set_defer_refused(false);
  std::unique_ptr<Strategy> paper = MakeUrlRule(o, PhysicsTopic());
  ASSERT_TRUE(paper->Admit("http://s.com/a1.html", 1, first).fetch);
  ASSERT_TRUE(paper->Admit("http://s.com/a2.html", 1, first).fetch);
  const Admission skipped = paper->Admit("http://s.com/a3.html", 1, first);
  EXPECT_FALSE(skipped.fetch);
  EXPECT_FALSE(skipped.defer_score.has_value());
}

TEST(UrlRuleStrategyTest, LearnsThenGuides) {
  FakeSiteStore store;
  std::unique_ptr<Strategy> s = MakeUrlRule(SmallOptions(), PhysicsTopic());
  ASSERT_TRUE(s->AttachSiteStore(&store).ok());
  // Irrelevant pages teach nothing.
  for (int i = 1; i <= 5; ++i) {
    quark::AnalyzedPage p =
        MakePage(absl::StrCat("http://s.com/news/2008/", i, ".html"), {});
    s->ScoreLinks(Fetched(p, 0.05));
  }
  EXPECT_FALSE(store.Get("s.com").has_value());
  EXPECT_TRUE(s->Admit("http://s.com/news/x.html", 2, {}).fetch);
  TeachVideoPattern(*s);
  // Learned, guided and saved.
  std::optional<proto::SiteUrlRules> saved = store.Get("s.com");
  ASSERT_TRUE(saved.has_value());
  EXPECT_EQ(saved->phase(), proto::SiteUrlRules::PHASE_GUIDED);
  ASSERT_EQ(saved->patterns_size(), 1);
  EXPECT_EQ(saved->patterns(0).readable(),
            "http://s.com/physics/video/2008/*.html");
  EXPECT_EQ(saved->patterns(0).covered(), 4);
  EXPECT_EQ(saved->pages_analysed(), 9);
  // Non-matching URLs of the site are refused, matching ones fetched.
  Admission a = s->Admit("http://s.com/news/y.html", 2, {});
  EXPECT_FALSE(a.fetch);
  EXPECT_EQ(a.reason, "url-rule: no learned URL pattern of s.com matches");
  EXPECT_TRUE(s->Admit("http://s.com/physics/video/2008/77.html", 4, {}).fetch);
  // Guided admission knows no layer quota.
  for (int i = 0; i < 20; ++i) {
    EXPECT_TRUE(
        s->Admit(absl::StrCat("http://s.com/physics/video/2008/p", i, ".html"),
                 4, {})
            .fetch);
  }
  // Seeds always pass; other sites still explore.
  EXPECT_TRUE(s->Admit("http://s.com/", 0, s->SeedState()).fetch);
  EXPECT_TRUE(s->Admit("http://t.com/news/y.html", 2, {}).fetch);
}

TEST(UrlRuleStrategyTest, GuidedScoresFormulas46To48) {
  std::unique_ptr<Strategy> s = MakeUrlRule(SmallOptions(), PhysicsTopic());
  TeachVideoPattern(*s);
  quark::AnalyzedPage list =
      MakePage("http://s.com/physics/list.html",
               {{"http://s.com/physics/video/2008/9.html", "physics lecture"},
                {"http://s.com/physics/video/2009/1.html", ""},
                {"http://s.com/physics/video/2008/1.html", ""}});
  std::vector<ScoredLink> out = s->ScoreLinks(Fetched(list, 0, Inherited(0.4)));
  ASSERT_EQ(out.size(), 3u);
  // N = 5 pages analysed: (1−d)/N = 0.15/5 = 0.03. Parent: PR 0.4, C = 3 →
  // 0.133333. Siblings: only 2008/1.html was fetched (PR 0.8, C = 1): 0.8.
  //
  // L0 (matches, |D| = 0 → factor 1): part = 0.85·(0.133333 + 0.8)
  //   = 0.793333; PR = 0.823333. Content: anchor {physics, lecture} has 1
  //   of 2 topic terms (0.5), the URL both (1), no group title (1):
  //   1·(0.8·0.5 + 0.2·1) = 0.6. S = 0.4·0.6 + 0.6·0.823333 = 0.734.
  EXPECT_NEAR(out[0].state.sum, 0.85 * (0.4 / 3 + 0.8), kEps);
  EXPECT_NEAR(out[0].state.inherited, 0.03 + 0.85 * (0.4 / 3 + 0.8), kEps);
  EXPECT_NEAR(out[0].state.content, 0.6, kEps);
  EXPECT_NEAR(out[0].state.score, 0.734, kEps);
  // L1: 2009 ≠ 2008 → |D| = 4: part = 0.793333/4 = 0.198333; PR =
  //   0.228333; Content = 0.2·1 = 0.2; S = 0.08 + 0.6·0.228333 = 0.217.
  EXPECT_NEAR(out[1].state.inherited, 0.03 + 0.85 * (0.4 / 3 + 0.8) / 4, kEps);
  EXPECT_NEAR(out[1].state.content, 0.2, kEps);
  EXPECT_NEAR(out[1].state.score, 0.217, kEps);
  // L2 is the fetched sibling itself: siblings 0.8 − 0.8 = 0; part =
  //   0.85·0.133333 = 0.113333; PR = 0.143333; S = 0.08 + 0.086 = 0.166.
  EXPECT_NEAR(out[2].state.inherited, 0.03 + 0.85 * 0.4 / 3, kEps);
  EXPECT_NEAR(out[2].state.score, 0.166, kEps);
  EXPECT_EQ(out[2].state.depth_budget, 0);
}

TEST(UrlRuleStrategyTest, GroupTitleWeightsContent) {
  std::unique_ptr<Strategy> s = MakeUrlRule(SmallOptions(), PhysicsTopic());
  quark::AnalyzedPage p = MakePage(
      "http://s.com/",
      {{"http://s.com/physics/video/1.html", "physics lecture"}}, "physics");
  std::vector<ScoredLink> out = s->ScoreLinks(Fetched(p, 0));
  ASSERT_EQ(out.size(), 1u);
  // Score(group title) = cos("physics", topic) = 1/√2 (both topic terms
  // weigh the same); Content = 0.707107·(0.8·0.5 + 0.2·1) = 0.424264.
  EXPECT_NEAR(out[0].state.content, 0.6 / std::sqrt(2.0), kEps);
}

TEST(UrlRuleStrategyTest, MergeByHand) {
  std::unique_ptr<Strategy> s = MakeUrlRule(SmallOptions(), PhysicsTopic());
  FrontierState q{0.5, 0.3, 0, 0.2, 1, 0.5};
  FrontierState o{0.4, 0.25, 1, 0.2, 1, 0.3};
  FrontierState m = s->Merge(q, o);
  // Σ parts 0.2 + 0.2 = 0.4; (1−d)/N of the offer 0.25 − 0.2 = 0.05;
  // PR 0.45; Content max 0.5; S = 0.4·0.5 + 0.6·0.45 = 0.47.
  EXPECT_NEAR(m.sum, 0.4, kEps);
  EXPECT_NEAR(m.inherited, 0.45, kEps);
  EXPECT_EQ(m.count, 2);
  EXPECT_EQ(m.content, 0.5);
  EXPECT_EQ(m.depth_budget, 1);
  EXPECT_NEAR(m.score, 0.47, kEps);
  // Exploring: the earlier BFS entry keeps its place.
  FrontierState e1{-3, 0.3, 0, 0.2, 1, 0};
  FrontierState e2{-7, 0.3, 0, 0.2, 1, 0};
  EXPECT_EQ(s->Merge(e1, e2).score, -3);
  EXPECT_EQ(s->Merge(e2, e1).score, -3);
  // A seed stays a seed.
  EXPECT_EQ(s->Merge(s->SeedState(), o).score, kSeedScore);
  // A guided offer lifts a URL queued while exploring.
  EXPECT_GE(s->Merge(e1, o).score, 0);
}

TEST(UrlRuleStrategyTest, WithRankByHand) {
  std::unique_ptr<Strategy> s = MakeUrlRule(SmallOptions(), PhysicsTopic());
  TeachVideoPattern(*s);  // s.com: 4 pages analysed, guided
  // N = 4: (1−d)/N = 0.0375. R = 2 → PR = 2/4 = 0.5, sum 0.4625;
  // Content 0.5 → S = 0.4·0.5 + 0.6·0.5 = 0.5.
  FrontierState q{0.3, 0.2, 0, 0.1625, 2, 0.5};
  std::optional<FrontierState> r =
      s->WithRank("http://s.com/physics/video/2008/7.html", q, 2.0);
  ASSERT_TRUE(r.has_value());
  EXPECT_NEAR(r->inherited, 0.5, kEps);
  EXPECT_NEAR(r->sum, 0.4625, kEps);
  EXPECT_EQ(r->count, 2);
  EXPECT_NEAR(r->score, 0.5, kEps);
  // A later offer adds its part: Merge keeps the ranked PR as its base.
  FrontierState o{0.2, 0.0375 + 0.1, 0, 0.1, 1, 0.2};
  EXPECT_NEAR(s->Merge(*r, o).inherited, 0.0375 + 0.4625 + 0.1, kEps);
  // R = 0: PR is the teleport part 0.0375, sum 0.
  r = s->WithRank("http://s.com/x.html", q, 0.0);
  ASSERT_TRUE(r.has_value());
  EXPECT_NEAR(r->inherited, 0.0375, kEps);
  EXPECT_NEAR(r->sum, 0, kEps);
  // A site still exploring (no pages analysed: N = 1) keeps its BFS place.
  FrontierState e{-5, 0.2, 0, 0.05, 1, 0.5};
  r = s->WithRank("http://other.org/a.html", e, 0.5);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->score, -5);
  EXPECT_NEAR(r->inherited, 0.5, kEps);
  // Seeds, garbage ranks and URLs without a site change nothing.
  EXPECT_FALSE(s->WithRank("http://s.com/", s->SeedState(), 3).has_value());
  EXPECT_FALSE(s->WithRank("http://s.com/", q, -1).has_value());
  EXPECT_FALSE(s->WithRank("http://s.com/", q, NAN).has_value());
  EXPECT_FALSE(s->WithRank("not a url", q, 1).has_value());
}

TEST(UrlRuleStrategyTest, LearnFromMediaOrBoth) {
  StrategyOptions o = SmallOptions();
  o.url_rule.set_learn_from("media");
  std::unique_ptr<Strategy> media = MakeUrlRule(o, PhysicsTopic());
  o.url_rule.set_learn_from("both");
  std::unique_ptr<Strategy> both = MakeUrlRule(o, PhysicsTopic());
  for (int i = 1; i <= 4; ++i) {
    quark::AnalyzedPage p = MakePage(
        absl::StrCat("http://s.com/physics/video/2008/", i, ".html"), {});
    // Media without topical relevance.
    media->ScoreLinks(Fetched(p, 0.0, {}, /*media=*/true));
    both->ScoreLinks(Fetched(p, 0.0, {}, /*media=*/true));
  }
  EXPECT_FALSE(media->Admit("http://s.com/news/1.html", 2, {}).fetch);
  EXPECT_TRUE(both->Admit("http://s.com/news/1.html", 2, {}).fetch);
}

TEST(UrlRuleStrategyTest, TemplateLinksDoNotTeach) {
  // Every page links the banner page; the banner and three real pages are
  // relevant: 4 > m = 3 only with the banner, which is template-wide.
  std::unique_ptr<Strategy> s = MakeUrlRule(SmallOptions(), PhysicsTopic());
  const std::string banner = "http://s.com/physics/video/2008/banner.html";
  for (int i = 1; i <= 6; ++i) {
    quark::AnalyzedPage p = MakePage(
        absl::StrCat("http://s.com/news/", i, ".html"), {{banner, "flash"}});
    s->ScoreLinks(Fetched(p, 0));
  }
  quark::AnalyzedPage b = MakePage(banner, {});
  s->ScoreLinks(Fetched(b, 0.9));
  for (int i = 1; i <= 3; ++i) {
    quark::AnalyzedPage p =
        MakePage(absl::StrCat("http://s.com/physics/video/2008/", i, ".html"),
                 {{banner, "flash"}});
    s->ScoreLinks(Fetched(p, 0.9));
  }
  // 9 of 10 analysed pages link the banner (> 0.8): still exploring.
  EXPECT_TRUE(s->Admit("http://s.com/news/x.html", 2, {}).fetch);
  // A fourth real page makes the cluster.
  quark::AnalyzedPage p =
      MakePage("http://s.com/physics/video/2008/4.html", {});
  s->ScoreLinks(Fetched(p, 0.9));
  EXPECT_FALSE(s->Admit("http://s.com/news/y.html", 2, {}).fetch);
}

TEST(UrlRuleStrategyTest, RestartReloadsGuidedSite) {
  FakeSiteStore store;
  {
    std::unique_ptr<Strategy> s = MakeUrlRule(SmallOptions(), PhysicsTopic());
    ASSERT_TRUE(s->AttachSiteStore(&store).ok());
    TeachVideoPattern(*s);
  }
  std::unique_ptr<Strategy> again = MakeUrlRule(SmallOptions(), PhysicsTopic());
  ASSERT_TRUE(again->AttachSiteStore(&store).ok());
  const int loads = store.loads();
  Admission a = again->Admit("http://s.com/news/y.html", 2, {});
  EXPECT_FALSE(a.fetch);
  EXPECT_THAT(a.reason, HasSubstr("no learned URL pattern of s.com"));
  EXPECT_EQ(store.loads(), loads + 1);
  EXPECT_TRUE(
      again->Admit("http://s.com/physics/video/2008/5.html", 4, {}).fetch);
  EXPECT_EQ(store.loads(), loads + 1);  // loaded once
  // Links to the site are scored as guided right away.
  quark::AnalyzedPage p = MakePage(
      "http://t.com/", {{"http://s.com/physics/video/2008/6.html", ""}});
  std::vector<ScoredLink> out = again->ScoreLinks(Fetched(p, 0));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_GE(out[0].state.score, 0);
}

TEST(UrlRuleStrategyTest, SavesEveryFiftyPages) {
  FakeSiteStore store;
  std::unique_ptr<Strategy> s = MakeUrlRule(SmallOptions(), PhysicsTopic());
  ASSERT_TRUE(s->AttachSiteStore(&store).ok());
  for (int i = 0; i < 49; ++i) {
    ASSERT_TRUE(
        s->Admit(absl::StrCat("http://s.com/", i), 1, s->SeedState()).fetch);
  }
  EXPECT_EQ(store.saves(), 0);
  ASSERT_TRUE(s->Admit("http://s.com/x", 1, s->SeedState()).fetch);
  EXPECT_EQ(store.saves(), 1);
  std::optional<proto::SiteUrlRules> saved = store.Get("s.com");
  ASSERT_TRUE(saved.has_value());
  EXPECT_EQ(saved->pages_fetched(), 50);
  EXPECT_EQ(saved->phase(), proto::SiteUrlRules::PHASE_EXPLORING);
  ASSERT_EQ(saved->fetched_per_layer_size(), 2);
  EXPECT_EQ(saved->fetched_per_layer(1), 50);
  // Analysed pages count too.
  for (int i = 0; i < 50; ++i) {
    quark::AnalyzedPage p = MakePage(absl::StrCat("http://s.com/n/", i), {});
    s->ScoreLinks(Fetched(p, 0));
  }
  EXPECT_EQ(store.saves(), 2);
  EXPECT_EQ(store.Get("s.com")->pages_analysed(), 50);
}

TEST(UrlRuleStrategyTest, CorruptOrUnreadableStateExploresAgain) {
  FakeSiteStore store;
  store.Put("s.com", "\xff\xff not a proto");
  proto::SiteUrlRules inconsistent;
  inconsistent.set_host("t.com");
  inconsistent.set_phase(proto::SiteUrlRules::PHASE_GUIDED);  // no patterns
  store.Put("t.com", inconsistent.SerializeAsString());
  proto::SiteUrlRules wrong_host = SiteRulesToProto(SampleRules());
  store.Put("u.com", wrong_host.SerializeAsString());
  std::unique_ptr<Strategy> s = MakeUrlRule(SmallOptions(), PhysicsTopic());
  ASSERT_TRUE(s->AttachSiteStore(&store).ok());
  for (const char* host : {"s.com", "t.com", "u.com"}) {
    EXPECT_TRUE(
        s->Admit(absl::StrCat("http://", host, "/news/1.html"), 2, {}).fetch)
        << host;
  }
  // The corrupt value is overwritten by the next save.
  for (int i = 0; i < 50; ++i) {
    quark::AnalyzedPage p = MakePage(absl::StrCat("http://s.com/n/", i), {});
    s->ScoreLinks(Fetched(p, 0));
  }
  std::optional<proto::SiteUrlRules> saved = store.Get("s.com");
  ASSERT_TRUE(saved.has_value());
  EXPECT_EQ(saved->host(), "s.com");
  EXPECT_TRUE(SiteRulesFromProto(*saved).ok());

  FakeSiteStore failing;
  failing.set_fail_loads(true);
  std::unique_ptr<Strategy> f = MakeUrlRule(SmallOptions(), PhysicsTopic());
  ASSERT_TRUE(f->AttachSiteStore(&failing).ok());
  EXPECT_TRUE(f->Admit("http://s.com/news/1.html", 2, {}).fetch);
}

TEST(UrlRuleStrategyTest, HostilePages) {
  FakeSiteStore store;
  std::unique_ptr<Strategy> s = MakeUrlRule(SmallOptions(), PhysicsTopic());
  ASSERT_TRUE(s->AttachSiteStore(&store).ok());
  // 5000 links: all scored, in-link counting stays bounded.
  std::vector<LinkSpec> many;
  for (int i = 0; i < 5000; ++i) {
    many.push_back({absl::StrCat("http://s.com/x/", i, ".html"), "x"});
  }
  quark::AnalyzedPage big = MakePage("http://s.com/", many);
  EXPECT_EQ(s->ScoreLinks(Fetched(big, 0)).size(), 5000u);
  // Malformed page URL and links: nothing learned, only parseable links.
  std::string huge = "http://s.com";
  for (int i = 0; i < 10000; ++i) huge += "/a";
  quark::AnalyzedPage bad =
      MakePage(huge, {{"http://", ""}, {huge, ""}, {"http://s.com/ok", ""}});
  html::Link relative;
  relative.url = "relative/x";
  relative.resolved = false;
  bad.document.links.push_back(std::move(relative));
  std::vector<ScoredLink> out = s->ScoreLinks(Fetched(bad, 0.9));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].link, 2);
  // NaN similarities (group titles) and relevance do not poison states.
  absl::StatusOr<std::unique_ptr<Strategy>> nan =
      MakeStrategy("url-rule", SmallOptions(),
                   [](absl::string_view) { return std::nan(""); });
  ASSERT_TRUE(nan.ok());
  quark::AnalyzedPage titled =
      MakePage("http://s.com/", {{"http://s.com/a", "a"}}, "title");
  FrontierState nan_state;
  nan_state.inherited = std::nan("");
  out = (*nan)->ScoreLinks(Fetched(titled, std::nan(""), nan_state));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(std::isfinite(out[0].state.inherited));
  EXPECT_TRUE(std::isfinite(out[0].state.score));
  EXPECT_EQ(out[0].state.content, 0);
  // 300 relevant pages of one directory: the sample stays at 200.
  for (int i = 0; i < 300; ++i) {
    quark::AnalyzedPage p =
        MakePage(absl::StrCat("http://s.com/r", i, "/p.html"), {});
    s->ScoreLinks(Fetched(p, 0.9));
  }
  // Force a save and look at the bounds.
  for (int i = 0; i < 50; ++i) {
    s->Admit(absl::StrCat("http://s.com/", i), 0, s->SeedState());
  }
  std::optional<proto::SiteUrlRules> saved = store.Get("s.com");
  ASSERT_TRUE(saved.has_value());
  EXPECT_LE(saved->relevant_urls_size(), 200);
  EXPECT_LE(saved->inlinks_size(), static_cast<int>(kUrlRuleMaxStoredInLinks));
  EXPECT_EQ(saved->phase(), proto::SiteUrlRules::PHASE_GUIDED);
  EXPECT_EQ(saved->patterns(0).readable(), "http://s.com/*/p.html");
}

TEST(UrlRuleStrategyTest, ConcurrentScoreLinksAndAdmit) {
  FakeSiteStore store;
  std::unique_ptr<Strategy> s = MakeUrlRule(SmallOptions(), PhysicsTopic());
  ASSERT_TRUE(s->AttachSiteStore(&store).ok());
  std::vector<quark::AnalyzedPage> pages;
  for (int i = 0; i < 200; ++i) {
    const std::string host = i % 2 == 0 ? "s.com" : "t.com";
    pages.push_back(MakePage(
        absl::StrCat("http://", host, "/physics/video/2008/", i, ".html"),
        {{absl::StrCat("http://s.com/physics/video/2008/", i + 1, ".html"),
          "physics"},
         {absl::StrCat("http://t.com/news/", i, ".html"), "news"}}));
  }
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (size_t i = t; i < pages.size(); i += 4) {
        EXPECT_EQ(s->ScoreLinks(Fetched(pages[i], 0.9)).size(), 2u);
      }
    });
  }
  threads.emplace_back([&] {
    for (int i = 0; i < 500; ++i) {
      s->Admit(absl::StrCat("http://s.com/news/", i, ".html"), 2, {});
    }
  });
  for (std::thread& t : threads) t.join();
  for (const char* host : {"s.com", "t.com"}) {
    std::optional<proto::SiteUrlRules> saved = store.Get(host);
    ASSERT_TRUE(saved.has_value()) << host;
    EXPECT_EQ(saved->phase(), proto::SiteUrlRules::PHASE_GUIDED);
  }
  EXPECT_FALSE(s->Admit("http://t.com/news/1.html", 2, {}).fetch);
}

}  // namespace
}  // namespace fcrawl::focus
