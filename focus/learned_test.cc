// The online link learner (link_learner.h) and the "learned" strategy.
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "focus/link_learner.h"
#include "focus/strategy.h"
#include "focus/strategy_internal.h"
#include "focus/topic.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "proto/link_state.pb.h"
#include "quark/quark.h"

namespace fcrawl::focus {
namespace {

using quark::BlockType;
using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(FeatureIdTest, FnvByHandAndWithinRange) {
  // FNV-1a 64 of "" is the offset basis 0xcbf29ce484222325; folded:
  // h ^ (h >> 29), then the low 8 bits.
  const uint64_t h = 0xcbf29ce484222325ULL;
  EXPECT_EQ(FeatureId("", 8), static_cast<uint32_t>((h ^ (h >> 29)) & 0xff));
  EXPECT_EQ(FeatureId("a:cours", 18), FeatureId("a:cours", 18));
  EXPECT_LT(FeatureId("a:cours", 10), 1u << 10);
  // With a prefix: the id of the joined string.
  EXPECT_EQ(FeatureId("a:", "cours", 18), FeatureId("a:cours", 18));
  EXPECT_EQ(FeatureId("", "", 8), FeatureId("", 8));
  EXPECT_EQ(FeatureId("w:", "", 20), FeatureId("w:", 20));
}

TEST(LinkLearnerTest, FirstUpdateByHand) {
  LinkLearnerOptions o;
  o.hash_bits = 8;
  o.learning_rate = 0.5;
  o.l2 = 0;
  LinkLearner m(o);
  const std::vector<uint32_t> x = {3, 7};
  EXPECT_DOUBLE_EQ(m.Predict(x), 0.5);  // all weights 0
  // g = 0.5 − 1 = −0.5; G = 0.25; step = 0.5 / √(1 + 0.25) = 0.4472136;
  // w = 0.5 · 0.4472136 = +0.2236068 each.
  m.Update(x, 1.0);
  EXPECT_NEAR(m.Predict(x), 1 / (1 + std::exp(-0.4472136)), 1e-6);
  EXPECT_NEAR(m.Predict({3}), 1 / (1 + std::exp(-0.2236068)), 1e-6);
  // A small error takes a small step (with G0 = 0 it would be ±η = ±0.5
  // whatever the error): feature 9, g = 0.5 − 0.45 = 0.05, step 0.5 /
  // √1.0025 · 0.05 = 0.0249688.
  m.Update({9}, 0.45);
  EXPECT_NEAR(m.Predict({9}), 1 / (1 + std::exp(0.0249688)), 1e-6);
  EXPECT_DOUBLE_EQ(m.Predict({4}), 0.5);
  EXPECT_EQ(m.examples(), 2);
}

TEST(LinkLearnerTest, SeparatesTwoKindsOfLinks) {
  LinkLearner m;
  const std::vector<uint32_t> good = {FeatureId("u:cours", 18),
                                      FeatureId("bias", 18)};
  const std::vector<uint32_t> bad = {FeatureId("u:photo", 18),
                                     FeatureId("bias", 18)};
  for (int i = 0; i < 50; ++i) {
    m.Update(good, 0.9);
    m.Update(bad, 0.0);
  }
  EXPECT_GT(m.Predict(good), 0.7);
  EXPECT_LT(m.Predict(bad), 0.2);
}

TEST(LinkLearnerTest, LabelsAreClamped) {
  LinkLearner a, b;
  a.Update({1}, 5.0);
  b.Update({1}, 1.0);
  EXPECT_DOUBLE_EQ(a.Predict({1}), b.Predict({1}));
  a.Update({2}, std::nan(""));
  b.Update({2}, 0.0);
  EXPECT_DOUBLE_EQ(a.Predict({2}), b.Predict({2}));
}

TEST(LinkLearnerTest, SerializeRoundTrip) {
  LinkLearnerOptions o;
  o.hash_bits = 10;
  LinkLearner m(o);
  m.Update({1, 2, 3}, 1);
  m.Update({3, 4}, 0);
  absl::StatusOr<LinkLearner> back = LinkLearner::Parse(m.Serialize());
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->examples(), 2);
  EXPECT_EQ(back->options().hash_bits, 10);
  for (uint32_t id = 0; id < 8; ++id) {
    EXPECT_FLOAT_EQ(back->Predict({id}), m.Predict({id}));
  }
}

TEST(LinkLearnerTest, HostileModelsAreRefused) {
  LinkLearner m;
  m.Update({1}, 1);
  const std::string good = m.Serialize();
  EXPECT_FALSE(LinkLearner::Parse("").ok());
  EXPECT_FALSE(LinkLearner::Parse(good.substr(0, good.size() - 1)).ok());
  EXPECT_FALSE(LinkLearner::Parse(good + "x").ok());
  std::string version = good;
  version[0] = 9;
  EXPECT_THAT(std::string(LinkLearner::Parse(version).status().message()),
              HasSubstr("version"));
  std::string bits = good;
  bits[4] = 60;  // hash_bits 60
  EXPECT_THAT(std::string(LinkLearner::Parse(bits).status().message()),
              HasSubstr("hash bits"));
  // Every truncation fails cleanly.
  for (size_t n = 0; n < good.size(); ++n) {
    EXPECT_FALSE(LinkLearner::Parse(good.substr(0, n)).ok()) << n;
  }
}

TEST(LinkFeaturesTest, AnchorUrlBlockAndParent) {
  Topic topic = Topic::FromText("course syllabus", "");
  html::Link link;
  link.url = "http://www.cs.u.test/courses/cs302/index.html";
  link.anchor_text = "CS 302 Courses";
  internal::BlockContext block;
  block.type = "navigation";
  block.similarity = 0.15;
  block.terms = {"teach"};
  std::vector<std::string> f = internal::LinkFeatureStrings(
      link, "http://www.cs.u.test/", block, 0.3, 0.5, topic);
  EXPECT_THAT(f, Contains("bias"));
  EXPECT_THAT(f, Contains("a:cours"));  // stemmed anchor word
  EXPECT_THAT(f, Contains("ab:5"));     // 1 of 2 topic terms: 0.5
  EXPECT_THAT(f, Contains("u:cours"));  // stemmed URL word
  EXPECT_THAT(f, Contains("u#:cs#"));   // the shape of "cs302"
  EXPECT_THAT(f, Contains("ext:html"));
  EXPECT_THAT(f, Contains("pd:3"));
  EXPECT_THAT(f, Contains("lt:downward"));
  EXPECT_THAT(f, Contains("bt:navigation"));
  EXPECT_THAT(f, Contains("bs:3"));  // (0.1, 0.2]
  EXPECT_THAT(f, Contains("b:teach"));
  EXPECT_THAT(f, Contains("pr:4"));  // (0.2, 0.4]
  EXPECT_THAT(f, Contains("pl:1"));  // label 0.5: [0.3, 0.8)
  EXPECT_THAT(f, Contains("lt:downward:pl:1"));
  EXPECT_THAT(f, Not(Contains("query")));
  EXPECT_THAT(f, Contains("s:www.cs.u.test/courses"));
  // The path's shape, on this site (digits as '#') and on any (letter runs
  // as 'a' too).
  EXPECT_THAT(f, Contains("ps:www.cs.u.test/courses/cs#/index.html"));
  EXPECT_THAT(f, Contains("pc:/a/a#/a.a"));
  // A directory URL is its own section; a file at the root is the root's.
  link.url = "http://www.cs.u.test/academic/";
  f = internal::LinkFeatureStrings(link, "http://www.cs.u.test/", block, 0.3,
                                   0.9, topic);
  EXPECT_THAT(f, Contains("s:www.cs.u.test/academic"));
  EXPECT_THAT(f, Contains("pl:2"));
  link.url = "http://www.cs.u.test/people.html";
  f = internal::LinkFeatureStrings(link, "http://www.cs.u.test/", block, 0.3,
                                   0.1, topic);
  EXPECT_THAT(f, Contains("s:www.cs.u.test/"));
  EXPECT_THAT(f, Contains("pl:0"));
  // Home directories are one section, "~", whoever's they are.
  for (const char* home : {"http://www.cs.u.test/~annav/",
                           "http://www.cs.u.test/~cs595/notes.html"}) {
    link.url = home;
    f = internal::LinkFeatureStrings(link, "http://www.cs.u.test/", block, 0.3,
                                     0.1, topic);
    EXPECT_THAT(f, Contains("s:www.cs.u.test/~")) << home;
  }
  // A file at the root whose name starts with '~' is still the root's.
  link.url = "http://www.cs.u.test/~old.html";
  f = internal::LinkFeatureStrings(link, "http://www.cs.u.test/", block, 0.3,
                                   0.1, topic);
  EXPECT_THAT(f, Contains("s:www.cs.u.test/"));
}

// A page linking to one course URL and one photo URL from the same block,
// with anchors that say nothing.
quark::AnalyzedPage Page(const std::string& url, const std::string& course,
                         const std::string& photo) {
  quark::AnalyzedPage p;
  p.document.url = url;
  for (const std::string& u : {course, photo}) {
    html::Link l;
    l.url = u;
    l.anchor_text = "more";
    p.document.links.push_back(l);
  }
  quark::Block b;
  b.type = BlockType::kNavigation;
  b.text = "more more";
  b.links = {0, 1};
  p.segmentation.blocks.push_back(b);
  return p;
}

// The page at `url` (fetched from there, no redirect) in frontier state
// `state`.
FetchedPage Fetched(const quark::AnalyzedPage& page, absl::string_view url,
                    FrontierState state = {}) {
  FetchedPage f;
  f.page = &page;
  f.url = f.final_url = url;
  f.state = state;
  return f;
}

FetchedPage Scored(double relevance, double coverage, double judge = 0) {
  FetchedPage p;
  p.relevance = relevance;
  p.coverage = coverage;
  p.topic_score = judge;
  return p;
}

TEST(LearnedStrategyTest, LabelsByHand) {
  LearnedOptions o;
  o.set_label("coverage");  // coverage_terms 5
  // 11 topic terms: a page with 3 of them has coverage 3/11 → 3 / min(5,
  // ⌈5.5⌉ = 6) = .6; with 6 or more, 1.
  EXPECT_DOUBLE_EQ(internal::LearnedLabelFor(o, 11, Scored(0.9, 3.0 / 11)),
                   0.6);
  EXPECT_DOUBLE_EQ(internal::LearnedLabelFor(o, 11, Scored(0.0, 6.0 / 11)),
                   1.0);
  // 4 topic terms: half of them (2) makes a full label; 1 of 4 → .5.
  EXPECT_DOUBLE_EQ(internal::LearnedLabelFor(o, 4, Scored(0, 0.25)), 0.5);
  // A one-term topic: the term present → 1.
  EXPECT_DOUBLE_EQ(internal::LearnedLabelFor(o, 1, Scored(0, 1)), 1.0);
  // No topic terms, NaN or out-of-range coverage: 0 or clamped.
  EXPECT_DOUBLE_EQ(internal::LearnedLabelFor(o, 0, Scored(1, 1)), 0.0);
  EXPECT_DOUBLE_EQ(internal::LearnedLabelFor(o, 11, Scored(0, std::nan(""))),
                   0.0);
  EXPECT_DOUBLE_EQ(internal::LearnedLabelFor(o, 11, Scored(0, 7)), 1.0);
  // The relevance label: min(1, relevance / .15).
  o.set_label("relevance");
  EXPECT_DOUBLE_EQ(internal::LearnedLabelFor(o, 11, Scored(0.03, 1)), 0.2);
  EXPECT_DOUBLE_EQ(internal::LearnedLabelFor(o, 11, Scored(0.6, 0)), 1.0);
  // The judge's score as it is, clamped; NaN is 0.
  o.set_label("judge");
  EXPECT_DOUBLE_EQ(internal::LearnedLabelFor(o, 11, Scored(0.6, 1, 0.35)),
                   0.35);
  EXPECT_DOUBLE_EQ(internal::LearnedLabelFor(o, 11, Scored(0, 0, 1.5)), 1.0);
  EXPECT_DOUBLE_EQ(internal::LearnedLabelFor(o, 11, Scored(0, 0, std::nan(""))),
                   0.0);
}

// A `learned` strategy for topic "course" whose only bonus is the seed
// sites': no section exploration, and no fetch outcomes (the 404s the tests
// teach would also lower the links of their folders,
// FetchOutcomesWeighLinksByTheirFolder).
std::unique_ptr<Strategy> SeedBonusOnly() {
  StrategyOptions options;
  options.learned.set_exploration(0);
  options.learned.set_learn_outcomes(false);
  absl::StatusOr<std::unique_ptr<Strategy>> made =
      MakeStrategy("learned", options, Topic::FromText("course", ""));
  EXPECT_TRUE(made.ok()) << made.status();
  return made.ok() ? *std::move(made) : nullptr;
}

TEST(LearnedStrategyTest, SeedSitesKeepAnExplorationBonus) {
  std::unique_ptr<Strategy> made = SeedBonusOnly();
  ASSERT_NE(made, nullptr);
  Strategy& s = *made;
  // A seed page on s.test links into its own site and to o.test with the
  // same path and anchor: the same features, the same prior.
  quark::AnalyzedPage seed = Page("http://s.test/", "http://s.test/a/x.html",
                                  "http://o.test/a/x.html");
  FetchedPage fp = Fetched(seed, "http://s.test/", s.SeedState());
  std::vector<ScoredLink> out = s.ScoreLinks(fp);
  ASSERT_EQ(out.size(), 2u);
  // The seed's link into an unseen section of its site is the section's
  // gateway: it scores 1 (as if the model were sure) plus seed_exploration
  // · 2 / (2 + 0 pages seen) = .2; the other site's link has its prior.
  EXPECT_NEAR(out[0].state.score, 1.2, 1e-9);
  EXPECT_LT(out[1].state.score, 0.5);
  // A page that is not a seed makes no seed site.
  quark::AnalyzedPage other = Page("http://o.test/", "http://o.test/b/y.html",
                                   "http://q.test/b/y.html");
  FetchedPage fo;
  fo.page = &other;
  fo.url = fo.final_url = "http://o.test/";
  out = s.ScoreLinks(fo);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_NEAR(out[0].state.score, out[1].state.score, 1e-12);
  // The seed page again, with a link into its site and one to o.test.
  auto from_seed = [&](const std::string& own, const std::string& other) {
    quark::AnalyzedPage again = Page("http://s.test/", own, other);
    fp.page = &again;
    return s.ScoreLinks(fp);
  };
  // Two pages of s.test/a fetched (404s teach y = 0): the bonus is halved,
  // .2 · 2 / (2 + 2) = .1, whatever the model learned meanwhile.
  s.ObserveUnparsed("http://s.test/a/x.html");
  from_seed("http://s.test/a/z.html", "http://o.test/a/z.html");
  s.ObserveUnparsed("http://s.test/a/z.html");
  out = from_seed("http://s.test/a/w.html", "http://o.test/a/w.html");
  ASSERT_EQ(out.size(), 2u);
  // (The model now tells the two links apart a little: the site-internal
  // link type has been seen with y = 0.)
  EXPECT_NEAR(out[0].state.score - out[1].state.score, 0.1, 1e-3);
  // The bonus goes by URL pattern (host and path shape), not by section: a
  // link of the same section but another shape ("/a/a#/", not "/a/a.a")
  // has the whole .2.
  out = from_seed("http://s.test/a/cs101/", "http://o.test/a/cs101/");
  ASSERT_EQ(out.size(), 2u);
  EXPECT_NEAR(out[0].state.score - out[1].state.score, 0.2, 3e-3);
}

// A seed's site is its host without "www" and every host below that: old
// department webs spread over "www.cs.u.test", "cs.u.test" and a lab's
// "ai.cs.u.test". Other hosts of the registrable domain ("www.u.test", the
// university) are not the seed's site.
TEST(LearnedStrategyTest, SeedSitesSpanSiblingHostnames) {
  std::unique_ptr<Strategy> made = SeedBonusOnly();
  ASSERT_NE(made, nullptr);
  Strategy& s = *made;
  quark::AnalyzedPage seed =
      Page("http://www.cs.u.test/", "http://www.cs.u.test/index.html",
           "http://o.test/index.html");
  FetchedPage fp = Fetched(seed, "http://www.cs.u.test/", s.SeedState());
  ASSERT_EQ(s.ScoreLinks(fp).size(), 2u);
  // A page that is no seed links, with the same path and anchor, to a host
  // of the seed's site and to one that is not: the seed site's link has
  // the bonus, seed_exploration · 2 / (2 + 0) = .2, above the other's.
  auto bonus = [&](const std::string& host, const std::string& other) {
    quark::AnalyzedPage p = Page("http://x.test/", "http://" + host + "/c/",
                                 "http://" + other + "/c/");
    FetchedPage f;
    f.page = &p;
    f.url = f.final_url = "http://x.test/";
    std::vector<ScoredLink> out = s.ScoreLinks(f);
    EXPECT_EQ(out.size(), 2u);
    return out.size() == 2 ? out[0].state.score - out[1].state.score : -1;
  };
  EXPECT_NEAR(bonus("cs.u.test", "cs.v.test"), 0.2, 1e-9);
  EXPECT_NEAR(bonus("ai.cs.u.test", "ai.cs.v.test"), 0.2, 1e-9);
  EXPECT_NEAR(bonus("www2.cs.u.test", "www2.cs.v.test"), 0.2, 1e-9);
  // The university's other hosts, and a host whose name only ends alike.
  EXPECT_NEAR(bonus("www.u.test", "www.v.test"), 0, 1e-9);
  EXPECT_NEAR(bonus("math.u.test", "math.v.test"), 0, 1e-9);
  EXPECT_NEAR(bonus("xcs.u.test", "xcs.v.test"), 0, 1e-9);
}

// A link to another host says whether it stays in the linking page's
// registrable domain (a sibling hostname of the same institution).
TEST(LearnedStrategyTest, OutwardLinksSayWhetherTheyLeaveTheDomain) {
  Topic topic = Topic::FromText("course", "");
  html::Link link;
  internal::BlockContext block;
  link.url = "http://cs.u.test/~ann/";
  std::vector<std::string> f = internal::LinkFeatureStrings(
      link, "http://www.cs.u.test/people.html", block, 0, 0, topic);
  EXPECT_THAT(f, Contains("od:same"));
  link.url = "http://www.cs.v.test/~ann/";
  f = internal::LinkFeatureStrings(link, "http://www.cs.u.test/people.html",
                                   block, 0, 0, topic);
  EXPECT_THAT(f, Contains("od:other"));
  // Within a host there is nothing to say.
  link.url = "http://www.cs.u.test/~ann/";
  f = internal::LinkFeatureStrings(link, "http://www.cs.u.test/people.html",
                                   block, 0, 0, topic);
  EXPECT_THAT(f, Not(Contains("od:same")));
  EXPECT_THAT(f, Not(Contains("od:other")));
}

// A link into a folder whose fetches answered 404 is worth its score times
// the folder's chance of giving a page, relative to the prior
// (focus/outcome_model.h); links elsewhere keep their score.
TEST(LearnedStrategyTest, FetchOutcomesWeighLinksByTheirFolder) {
  Topic topic = Topic::FromText("course", "");
  StrategyOptions options;
  options.learned.set_exploration(0);
  options.learned.set_seed_exploration(0);
  options.learned.set_prior_examples(1e9);  // scores are the prior alone
  absl::StatusOr<std::unique_ptr<Strategy>> made =
      MakeStrategy("learned", options, topic);
  ASSERT_TRUE(made.ok()) << made.status();
  Strategy& s = **made;
  quark::AnalyzedPage page = Page("http://p.test/", "http://u.test/dead/x.html",
                                  "http://u.test/live/x.html");
  FetchedPage f;
  f.page = &page;
  f.url = f.final_url = "http://p.test/";
  f.relevance = 0.8;  // a score to lower
  std::vector<ScoredLink> out = s.ScoreLinks(f);
  ASSERT_EQ(out.size(), 2u);
  const double before = out[0].state.score;
  // The page's relevance passes on half of itself (Shark-Search's
  // inherited score), which is half the prior (the anchor "more" and its
  // block say nothing of the topic, the other half): 0.5 · 0.5 · 0.8.
  EXPECT_NEAR(before, 0.2, 1e-6);
  EXPECT_NEAR(out[1].state.score, before, 1e-12);  // same context, same score
  // Two fetches in /dead/ gave no page (a 404 each).
  s.ObserveUnparsed("http://u.test/dead/a.html");
  s.ObserveUnparsed("http://u.test/dead/b.html");
  out = s.ScoreLinks(f);
  ASSERT_EQ(out.size(), 2u);
  // /dead/x.html: the host has no fetch outside /dead/ (0.8); /dead/ 0
  // pages of 2 fetches, (0 + 2·0.8)/(2 + 2) = 0.4; the name x.html unseen.
  // Relative to the prior: 0.4 / 0.8 = 0.5. /live/x.html: the host's level
  // has the two 404s, (0 + 8·0.8)/(2 + 8) = 0.64, relative 0.8.
  EXPECT_NEAR(out[0].state.score, 0.5 * before, 1e-9);
  EXPECT_NEAR(out[1].state.score, 0.8 * before, 1e-9);
  // The 404s re-scored the queued links of their folder at once (a
  // re-score of every link waits for kRescoreEvery = 25 pages): the
  // first ScoreLinks's /dead/x.html, from `before` to 0.5·before; the
  // other folder's link is not in the folder's list.
  std::vector<std::pair<std::string, double>> moved = s.TakeRescores(100);
  ASSERT_EQ(moved.size(), 1u);
  EXPECT_EQ(moved[0].first, "http://u.test/dead/x.html");
  EXPECT_NEAR(moved[0].second, 0.5 * before, 1e-9);
  EXPECT_TRUE(s.TakeRescores(100).empty());
  // Without the model both keep their score.
  options.learned.set_learn_outcomes(false);
  absl::StatusOr<std::unique_ptr<Strategy>> off =
      MakeStrategy("learned", options, topic);
  ASSERT_TRUE(off.ok());
  (*off)->ObserveUnparsed("http://u.test/dead/a.html");
  out = (*off)->ScoreLinks(f);
  EXPECT_NEAR(out[0].state.score, before, 1e-12);
}

// The folders a fetch failed in, with the outcome model's counts and
// P(page): what the cluster's /status lists.
TEST(LearnedStrategyTest, DeadFoldersNameTheFoldersThatFailed) {
  absl::StatusOr<std::unique_ptr<Strategy>> made =
      MakeStrategy("learned", {}, Topic::FromText("course", ""));
  ASSERT_TRUE(made.ok()) << made.status();
  Strategy& s = **made;
  EXPECT_TRUE(s.DeadFolders().empty());
  s.ObserveUnparsed("http://U.test/Courses/cs302/errata.html");
  s.ObserveUnparsed("http://u.test/courses/cs302/handouts.html");
  s.ObserveUnparsed("http://u.test/gone.html");  // no folder: not listed
  std::vector<FolderOutcome> dead = s.DeadFolders();
  ASSERT_EQ(dead.size(), 1u);
  // Host and path as the model keys them (lower case).
  EXPECT_EQ(dead[0].folder, "u.test/courses/cs302/");
  EXPECT_EQ(dead[0].fetches, 2);
  EXPECT_EQ(dead[0].pages, 0);
  // The host: its only fetch outside /courses/ failed, (0 + 8·0.8)/(1 +
  // 8) = 0.7111; /courses/ has no fetch outside cs302/, so it is the
  // host's; cs302/: (0 + 2·0.7111)/(2 + 2) = 0.3556.
  EXPECT_NEAR(dead[0].page_probability, 2 * (6.4 / 9) / 4, 1e-6);
  // A strategy that does not count outcomes lists none.
  StrategyOptions off;
  off.learned.set_learn_outcomes(false);
  made = MakeStrategy("learned", off, Topic::FromText("course", ""));
  ASSERT_TRUE(made.ok());
  (*made)->ObserveUnparsed("http://u.test/courses/cs302/errata.html");
  EXPECT_TRUE((*made)->DeadFolders().empty());
}

// A failed fetch re-scores the links of its folder that are still
// tracked: with room for two tracked links, 2,000 pages of links later
// (the folder lists swept of forgotten links on the way) a 404 in /dead/
// re-scores the one link of /dead/ still tracked.
TEST(LearnedStrategyTest, FolderRescoresReachTrackedLinksOnly) {
  StrategyOptions options;
  options.learned.set_exploration(0);
  options.learned.set_seed_exploration(0);
  options.learned.set_prior_examples(1e9);
  options.learned.set_max_tracked_urls(2);
  absl::StatusOr<std::unique_ptr<Strategy>> made =
      MakeStrategy("learned", options, Topic::FromText("course", ""));
  ASSERT_TRUE(made.ok()) << made.status();
  Strategy& s = **made;
  for (int i = 0; i < 2000; ++i) {
    quark::AnalyzedPage page =
        Page(absl::StrCat("http://p.test/", i, ".html"),
             absl::StrCat("http://u.test/f", i, "/x.html"),
             absl::StrCat("http://u.test/dead/y", i, ".html"));
    FetchedPage f = Fetched(page, page.document.url);
    f.relevance = 0.8;
    ASSERT_EQ(s.ScoreLinks(f).size(), 2u);
  }
  s.TakeRescores(1 << 20);  // whatever was pending
  s.ObserveUnparsed("http://u.test/dead/z.html");
  std::vector<std::pair<std::string, double>> moved = s.TakeRescores(100);
  ASSERT_EQ(moved.size(), 1u);
  EXPECT_EQ(moved[0].first, "http://u.test/dead/y1999.html");
  // Its prior 0.2 (as in FetchOutcomesWeighLinksByTheirFolder) times the
  // weight of /dead/ after one 404: (0 + 2·0.8)/(1 + 2) / 0.8.
  EXPECT_NEAR(moved[0].second, 0.2 * (1.6 / 3) / 0.8, 1e-6);
}

// A seed page's best link into each section of its site is fetched first;
// its other links into that section, links into other sites and links found
// on other pages keep their model scores.
TEST(LearnedStrategyTest, SeedGatewaysAreEnteredFirst) {
  Topic topic = Topic::FromText("course", "");
  StrategyOptions options;
  options.learned.set_exploration(0);
  absl::StatusOr<std::unique_ptr<Strategy>> made =
      MakeStrategy("learned", options, topic);
  ASSERT_TRUE(made.ok()) << made.status();
  Strategy& s = **made;
  quark::AnalyzedPage seed;
  seed.document.url = "http://s.test/";
  quark::Block b;
  b.type = BlockType::kNavigation;
  for (const char* u : {"http://s.test/edu/", "http://s.test/edu/a.html",
                        "http://s.test/news/", "http://o.test/edu/"}) {
    html::Link l;
    l.url = u;
    l.anchor_text = u == std::string("http://s.test/edu/a.html")
                        ? "course list"  // the better link into edu/
                        : "more";
    b.links.push_back(static_cast<int32_t>(seed.document.links.size()));
    seed.document.links.push_back(l);
  }
  b.text = "more course list more more";
  seed.segmentation.blocks.push_back(b);
  FetchedPage fp = Fetched(seed, "http://s.test/", s.SeedState());
  std::vector<ScoredLink> out = s.ScoreLinks(fp);
  ASSERT_EQ(out.size(), 4u);
  auto score_of = [&](int32_t link) {
    for (const ScoredLink& l : out) {
      if (l.link == link) return l.state.score;
    }
    return -1.0;
  };
  EXPECT_NEAR(score_of(1), 1.2, 1e-9);  // edu/'s gateway: its best link
  EXPECT_NEAR(score_of(2), 1.2, 1e-9);  // news/'s only link
  EXPECT_LT(score_of(0), 1.0);          // edu/'s other link
  EXPECT_LT(score_of(3), 1.0);          // another site
  // Without the seed-site bonus there are no gateways either.
  options.learned.set_seed_exploration(0);
  made = MakeStrategy("learned", options, topic);
  ASSERT_TRUE(made.ok());
  out = (*made)->ScoreLinks(fp);
  ASSERT_EQ(out.size(), 4u);
  for (const ScoredLink& l : out) EXPECT_LT(l.state.score, 1.0);
}

// A frameset home page has only frames; an old one may only say "we have
// moved" with a refresh. What the seed's reader sees is fetched as a seed
// and opens the site's sections as a seed page does.
TEST(LearnedStrategyTest, FramesAndRefreshesOfASeedAreSeeds) {
  Topic topic = Topic::FromText("course", "");
  StrategyOptions options;
  absl::StatusOr<std::unique_ptr<Strategy>> made =
      MakeStrategy("learned", options, topic);
  ASSERT_TRUE(made.ok()) << made.status();
  Strategy& s = **made;
  auto page = [](const std::string& url,
                 std::vector<std::pair<const char*, html::LinkKind>> links) {
    quark::AnalyzedPage p;
    p.document.url = url;
    quark::Block b;
    b.type = BlockType::kNavigation;
    for (const auto& [u, kind] : links) {
      html::Link l;
      l.url = u;
      l.kind = kind;
      b.links.push_back(static_cast<int32_t>(p.document.links.size()));
      p.document.links.push_back(l);
    }
    p.segmentation.blocks.push_back(b);
    return p;
  };
  using K = html::LinkKind;
  quark::AnalyzedPage frameset =
      page("http://s.test/", {{"http://s.test/menu.html", K::kFrame},
                              {"http://ads.test/banner.html", K::kFrame},
                              {"http://new.test/", K::kRefresh},
                              {"http://s.test/about.html", K::kAnchor}});
  FetchedPage fp = Fetched(frameset, "http://s.test/", s.SeedState());
  std::vector<ScoredLink> out = s.ScoreLinks(fp);
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[0].state.score, kSeedScore);  // its own site's frame
  EXPECT_LT(out[1].state.score, 1.0);         // another site's frame
  EXPECT_EQ(out[2].state.score, kSeedScore);  // where it sends its reader
  EXPECT_LT(out[3].state.score, 1.0);         // a link
  // The menu frame, fetched as a seed, is a seed page: its links into the
  // site's sections are gateways, scored above a link of another site.
  quark::AnalyzedPage menu = page(
      "http://s.test/menu.html",
      {{"http://s.test/edu/", K::kAnchor}, {"http://o.test/edu/", K::kAnchor}});
  FetchedPage fm = Fetched(menu, "http://s.test/menu.html", out[0].state);
  out = s.ScoreLinks(fm);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_GT(out[0].state.score, out[1].state.score + 0.2);
  // A seed that redirected to another host opens that host's sections.
  quark::AnalyzedPage moved =
      page("http://www.m.test/", {{"http://www.m.test/edu/", K::kAnchor},
                                  {"http://o.test/edu2/", K::kAnchor}});
  FetchedPage fr;
  fr.page = &moved;
  fr.url = "http://m.test/";
  fr.final_url = "http://www.m.test/";
  fr.state = s.SeedState();
  out = s.ScoreLinks(fr);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_GT(out[0].state.score, 1.0);  // a gateway
  EXPECT_LT(out[1].state.score, 1.0);
  // The same frame on a page that is not a seed is a link like any other.
  quark::AnalyzedPage inner =
      page("http://o.test/", {{"http://o.test/frame.html", K::kFrame}});
  FetchedPage fo;
  fo.page = &inner;
  fo.url = fo.final_url = "http://o.test/";
  out = s.ScoreLinks(fo);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_LT(out[0].state.score, 1.0);
}

TEST(LearnedStrategyTest, LearnsWhichLinksLeadToTheTopic) {
  Topic topic = Topic::FromText("course", "");
  StrategyOptions options;
  options.learned.set_prior_examples(5);
  options.learned.set_exploration(0);
  absl::StatusOr<std::unique_ptr<Strategy>> made =
      MakeStrategy("learned", options, topic);
  ASSERT_TRUE(made.ok()) << made.status();
  Strategy& s = **made;
  EXPECT_EQ(s.name(), "learned");

  auto score_of = [&](const std::vector<ScoredLink>& links, int32_t link) {
    for (const ScoredLink& l : links) {
      if (l.link == link) return l.state.score;
    }
    return -1.0;
  };
  // Before learning both links look the same.
  quark::AnalyzedPage first = Page("http://u.test/", "http://u.test/c/cs1.html",
                                   "http://u.test/p/img1.html");
  FetchedPage fp;
  fp.page = &first;
  fp.url = fp.final_url = "http://u.test/";
  std::vector<ScoredLink> before = s.ScoreLinks(fp);
  ASSERT_EQ(before.size(), 2u);
  EXPECT_DOUBLE_EQ(score_of(before, 0), score_of(before, 1));

  // Pages under /c/ turn out relevant, pages under /p/ are dead links.
  for (int i = 1; i <= 30; ++i) {
    const std::string parent = "http://u.test/list" + std::to_string(i);
    const std::string c = "http://u.test/c/cs" + std::to_string(i) + ".html";
    const std::string p = "http://u.test/p/img" + std::to_string(i) + ".html";
    quark::AnalyzedPage page = Page(parent, c, p);
    FetchedPage f;
    f.page = &page;
    f.url = f.final_url = parent;
    s.ScoreLinks(f);  // tracks the features of c and p
    quark::AnalyzedPage child;
    FetchedPage fc;
    fc.page = &child;
    fc.url = fc.final_url = c;
    fc.relevance = 0.3;
    fc.coverage = 1;       // the page has the topic's one term
    s.ScoreLinks(fc);      // learns: c was relevant
    s.ObserveUnparsed(p);  // learns: p was a 404
  }
  quark::AnalyzedPage last =
      Page("http://u.test/x", "http://u.test/c/cs99.html",
           "http://u.test/p/img99.html");
  FetchedPage fl;
  fl.page = &last;
  fl.url = fl.final_url = "http://u.test/x";
  std::vector<ScoredLink> after = s.ScoreLinks(fl);
  EXPECT_GT(score_of(after, 0), score_of(after, 1) + 0.3);
}

// Topic pages two clicks below the home pages, behind a "teaching" page
// that is itself not about the topic: with parent credit the crawl learns
// to take the teaching link from a new home page; without it the teaching
// and misc links, whose pages both taught y = 0, look alike.
double TeachingLead(double parent_credit) {
  Topic topic = Topic::FromText("course", "");
  StrategyOptions options;
  options.learned.set_prior_examples(1);
  options.learned.set_exploration(0);
  options.learned.set_seed_exploration(0);
  options.learned.set_parent_credit(parent_credit);
  absl::StatusOr<std::unique_ptr<Strategy>> made =
      MakeStrategy("learned", options, topic);
  EXPECT_TRUE(made.ok()) << made.status();
  if (!made.ok()) return 0;
  Strategy& s = **made;
  auto fetch = [&](const quark::AnalyzedPage& page, double coverage) {
    FetchedPage f;
    f.page = &page;
    f.url = f.final_url = page.document.url;
    f.coverage = coverage;
    return s.ScoreLinks(f);
  };
  for (int i = 0; i < 20; ++i) {
    const std::string host = "http://u" + std::to_string(i) + ".test/";
    fetch(Page(host, host + "teaching/", host + "misc/"), 0);
    fetch(Page(host + "teaching/", host + "teaching/cs1.html",
               host + "teaching/cs2.html"),
          0);
    fetch(Page(host + "misc/", host + "misc/a.html", host + "misc/b.html"), 0);
    for (const char* leaf : {"teaching/cs1.html", "teaching/cs2.html"}) {
      fetch(Page(host + leaf, host + "x.html", host + "y.html"), 1);
    }
    s.ObserveUnparsed(host + "misc/a.html");
    s.ObserveUnparsed(host + "misc/b.html");
  }
  const std::vector<ScoredLink> out =
      fetch(Page("http://new.test/", "http://new.test/teaching/",
                 "http://new.test/misc/"),
            0);
  EXPECT_EQ(out.size(), 2u);
  if (out.size() != 2) return 0;
  return out[0].state.score - out[1].state.score;
}

TEST(LearnedStrategyTest, ParentCreditTeachesTheWayToTheTopic) {
  EXPECT_GT(TeachingLead(0.5), 0.1);
  EXPECT_LT(std::abs(TeachingLead(0)), 0.05);
}

// In a cluster the link is found on one worker and fetched on another: the
// finder's LinkContext lets the owner learn from it; hostile bytes are
// refused and teach nothing.
TEST(LearnedStrategyTest, LinkContextMovesALinkToAnotherWorker) {
  Topic topic = Topic::FromText("course", "");
  StrategyOptions options;
  options.learned.set_exploration(0);
  options.learned.set_seed_exploration(0);
  absl::StatusOr<std::unique_ptr<Strategy>> finder =
      MakeStrategy("learned", options, topic);
  absl::StatusOr<std::unique_ptr<Strategy>> owner =
      MakeStrategy("learned", options, topic);
  ASSERT_TRUE(finder.ok() && owner.ok());
  const std::string c = "http://o.test/c/cs1.html";
  quark::AnalyzedPage page = Page("http://s.test/", c, "http://o.test/p/x");
  FetchedPage f;
  f.page = &page;
  f.url = f.final_url = "http://s.test/";
  (*finder)->ScoreLinks(f);
  const std::string context = (*finder)->LinkContext(c);
  ASSERT_FALSE(context.empty());
  EXPECT_LE(context.size(), Strategy::kMaxLinkContextBytes);
  EXPECT_EQ((*finder)->LinkContext("http://o.test/never-seen"), "");

  // The link classifier's part of a saved model (the fetch outcomes are
  // learned from any fetch, known link or not).
  auto link_model = [](const std::string& saved) {
    proto::LearnedState state;
    EXPECT_TRUE(state.ParseFromString(saved));
    return state.link_model();
  };
  const std::string before = link_model((*owner)->SaveModel());
  // The owner fetches c without knowing its link: nothing to learn.
  quark::AnalyzedPage child;
  FetchedPage fc;
  fc.page = &child;
  fc.url = fc.final_url = c;
  fc.coverage = 1;
  (*owner)->ScoreLinks(fc);
  EXPECT_EQ(link_model((*owner)->SaveModel()), before);
  // With the finder's context it learns.
  ASSERT_TRUE((*owner)->AdoptLinkContext(c, context).ok());
  (*owner)->ScoreLinks(fc);
  EXPECT_NE(link_model((*owner)->SaveModel()), before);

  // Hostile contexts.
  EXPECT_EQ((*owner)->AdoptLinkContext(c, "\xff\xff garbage").code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ((*owner)
                ->AdoptLinkContext(
                    c, std::string(Strategy::kMaxLinkContextBytes + 1, 'x'))
                .code(),
            absl::StatusCode::kInvalidArgument);
  proto::LearnedLinkContext other_bits;
  other_bits.set_hash_bits(10);
  other_bits.add_ids(3);
  EXPECT_THAT(
      std::string((*owner)
                      ->AdoptLinkContext(c, other_bits.SerializeAsString())
                      .message()),
      HasSubstr("10 bits"));
  proto::LearnedLinkContext out_of_range;
  out_of_range.set_hash_bits(options.learned.hash_bits());
  out_of_range.add_ids(1u << options.learned.hash_bits());
  EXPECT_FALSE(
      (*owner)->AdoptLinkContext(c, out_of_range.SerializeAsString()).ok());
  proto::LearnedLinkContext bad_prior;
  bad_prior.set_hash_bits(options.learned.hash_bits());
  bad_prior.set_prior(std::nan(""));
  EXPECT_FALSE(
      (*owner)->AdoptLinkContext(c, bad_prior.SerializeAsString()).ok());
  EXPECT_TRUE((*owner)->AdoptLinkContext(c, "").ok());
}

// In a cluster each worker learns from the others' pages too: the lessons
// one strategy takes teach another the same links; a standalone crawl
// keeps none; hostile lessons are refused whole and teach nothing.
TEST(LearnedStrategyTest, LessonsTeachAnotherWorker) {
  Topic topic = Topic::FromText("course", "");
  StrategyOptions options;
  options.learned.set_exploration(0);
  options.learned.set_seed_exploration(0);
  options.learned.set_prior_examples(1);
  absl::StatusOr<std::unique_ptr<Strategy>> a =
      MakeStrategy("learned", options, topic);
  absl::StatusOr<std::unique_ptr<Strategy>> b =
      MakeStrategy("learned", options, topic);
  ASSERT_TRUE(a.ok() && b.ok());
  // Lessons are kept once someone collects them.
  EXPECT_EQ((*a)->TakeLessons(), "");
  auto fetch = [](Strategy& s, const quark::AnalyzedPage& page,
                  double coverage) {
    FetchedPage f;
    f.page = &page;
    f.url = f.final_url = page.document.url;
    f.coverage = coverage;
    return s.ScoreLinks(f);
  };
  for (int i = 0; i < 30; ++i) {
    const std::string host = "http://a" + std::to_string(i) + ".test/";
    fetch(**a, Page(host, host + "c/cs1.html", host + "p/img.html"), 0);
    fetch(**a, Page(host + "c/cs1.html", host + "x", host + "y"), 1);
    (*a)->ObserveUnparsed(host + "p/img.html");
  }
  const std::string lessons = (*a)->TakeLessons();
  ASSERT_FALSE(lessons.empty());
  EXPECT_LE(lessons.size(), Strategy::kMaxLessonBytes);
  proto::LearnedLessons parsed;
  ASSERT_TRUE(parsed.ParseFromString(lessons));
  EXPECT_EQ(parsed.lessons_size(), 60);  // a course page and an image each
  EXPECT_EQ((*a)->TakeLessons(), "");    // taken once

  // b has seen none of these pages; after the lessons it ranks a new
  // site's course link above its image link as a does.
  const quark::AnalyzedPage fresh =
      Page("http://new.test/", "http://new.test/c/cs9.html",
           "http://new.test/p/img9.html");
  auto lead = [&](Strategy& s) {
    const std::vector<ScoredLink> out = fetch(s, fresh, 0);
    EXPECT_EQ(out.size(), 2u);
    return out.size() == 2 ? out[0].state.score - out[1].state.score : 0.0;
  };
  EXPECT_LT(std::abs(lead(**b)), 0.05);
  const std::string before = (*b)->SaveModel();

  // Hostile lessons: refused, the model unchanged.
  EXPECT_EQ((*b)->LearnLessons("\xff\xff garbage").code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ((*b)->LearnLessons(std::string(Strategy::kMaxLessonBytes + 1, 'x'))
                .code(),
            absl::StatusCode::kInvalidArgument);
  proto::LearnedLessons bad = parsed;
  bad.set_hash_bits(10);
  EXPECT_THAT(
      std::string((*b)->LearnLessons(bad.SerializeAsString()).message()),
      HasSubstr("10 bits"));
  bad = parsed;
  bad.mutable_lessons(5)->set_label(2);
  EXPECT_THAT(
      std::string((*b)->LearnLessons(bad.SerializeAsString()).message()),
      HasSubstr("lesson 5"));
  bad = parsed;
  bad.mutable_lessons(7)->add_ids(1u << options.learned.hash_bits());
  EXPECT_FALSE((*b)->LearnLessons(bad.SerializeAsString()).ok());
  EXPECT_EQ((*b)->SaveModel(), before);

  ASSERT_TRUE((*b)->LearnLessons(lessons).ok());
  EXPECT_GT(lead(**b), 0.3);
  EXPECT_GT(lead(**a), 0.3);
  // b passes on only what it learned from its own pages.
  EXPECT_EQ((*b)->TakeLessons(), "");
}

TEST(LearnedStrategyTest, ExplorationFavoursUnseenSections) {
  Topic topic = Topic::FromText("course", "");
  StrategyOptions options;
  options.learned.set_exploration(0.2);
  absl::StatusOr<std::unique_ptr<Strategy>> made =
      MakeStrategy("learned", options, topic);
  ASSERT_TRUE(made.ok());
  Strategy& s = **made;
  // Teach a few pages of section u.test/p (all dead).
  for (int i = 0; i < 10; ++i) {
    const std::string parent = "http://u.test/l" + std::to_string(i);
    quark::AnalyzedPage page =
        Page(parent, "http://u.test/q/a" + std::to_string(i) + ".html",
             "http://u.test/p/b" + std::to_string(i) + ".html");
    FetchedPage f;
    f.page = &page;
    f.url = f.final_url = parent;
    s.ScoreLinks(f);
    s.ObserveUnparsed("http://u.test/p/b" + std::to_string(i) + ".html");
  }
  quark::AnalyzedPage page = Page("http://u.test/z", "http://u.test/new/a.html",
                                  "http://u.test/p/c.html");
  FetchedPage f;
  f.page = &page;
  f.url = f.final_url = "http://u.test/z";
  std::vector<ScoredLink> out = s.ScoreLinks(f);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_GT(out[0].state.score, out[1].state.score);
}

// Homework as a page and as a PostScript file, linked from one block with
// the same anchor: the same context, so the same score, but the file is
// no page to read and scores a tenth of it (kUnreadableWeight), whatever
// the model says.
TEST(LearnedStrategyTest, FilesThatAreNoPagesComeLast) {
  Topic topic = Topic::FromText("course", "");
  absl::StatusOr<std::unique_ptr<Strategy>> made =
      MakeStrategy("learned", StrategyOptions{}, topic);
  ASSERT_TRUE(made.ok());
  Strategy& s = **made;
  for (const char* ext : {"ps", "pdf", "dvi", "ps.gz", "mp4", "jpg"}) {
    const std::string file = absl::StrCat("http://u.test/cs1/hw8.", ext);
    quark::AnalyzedPage page =
        Page("http://u.test/cs1/", "http://u.test/cs1/hw8.html", file);
    std::vector<ScoredLink> out =
        s.ScoreLinks(Fetched(page, page.document.url));
    ASSERT_EQ(out.size(), 2u);
    EXPECT_GT(out[0].state.score, 0.05) << ext;
    EXPECT_NEAR(out[1].state.score, 0.1 * out[0].state.score, 1e-9) << ext;
  }
}

TEST(LearnedStrategyTest, OptionsAreValidated) {
  StrategyOptions o;
  o.learned.set_exploration(2);
  EXPECT_FALSE(o.Validate().ok());
  o.learned.set_exploration(0.1);
  o.learned.set_relevance_scale(0);
  EXPECT_FALSE(o.Validate().ok());
  o.learned.set_relevance_scale(0.1);
  o.learned.set_hash_bits(40);
  EXPECT_FALSE(o.Validate().ok());
  o.learned.set_hash_bits(18);
  EXPECT_TRUE(o.Validate().ok());
}

TEST(LearnedStrategyTest, ModelSurvivesSaveAndRestore) {
  Topic topic = Topic::FromText("course", "");
  StrategyOptions options;
  options.learned.set_exploration(0);
  absl::StatusOr<std::unique_ptr<Strategy>> a =
      MakeStrategy("learned", options, topic);
  absl::StatusOr<std::unique_ptr<Strategy>> b =
      MakeStrategy("learned", options, topic);
  ASSERT_TRUE(a.ok() && b.ok());
  for (int i = 0; i < 20; ++i) {
    const std::string parent = "http://u.test/l" + std::to_string(i);
    quark::AnalyzedPage page =
        Page(parent, "http://u.test/c/a" + std::to_string(i) + ".html",
             "http://u.test/p/b" + std::to_string(i) + ".html");
    FetchedPage f;
    f.page = &page;
    f.url = f.final_url = parent;
    (*a)->ScoreLinks(f);
    (*a)->ObserveUnparsed("http://u.test/p/b" + std::to_string(i) + ".html");
  }
  const std::string saved = (*a)->SaveModel();
  ASSERT_FALSE(saved.empty());
  ASSERT_TRUE((*b)->RestoreModel(saved).ok());
  EXPECT_EQ((*b)->SaveModel(), saved);
  EXPECT_FALSE((*b)->RestoreModel("not a model").ok());
  // A model saved before the fetch outcomes (the link classifier's bytes
  // alone) is refused, so the worker learns afresh instead of misreading it;
  // the model restored before stays.
  EXPECT_FALSE((*b)->RestoreModel(LinkLearner().Serialize()).ok());
  EXPECT_EQ((*b)->SaveModel(), saved);
  // Counts that do not add up are refused too.
  proto::LearnedState bad;
  bad.set_link_model(LinkLearner().Serialize());
  bad.add_outcome_keys(7);
  bad.add_outcome_pages(2);
  bad.add_outcome_fetches(1);
  EXPECT_FALSE((*b)->RestoreModel(bad.SerializeAsString()).ok());
  EXPECT_EQ((*b)->SaveModel(), saved);
  // Strategies that learn nothing save nothing.
  absl::StatusOr<std::unique_ptr<Strategy>> shark =
      MakeStrategy("shark", options, topic);
  ASSERT_TRUE(shark.ok());
  EXPECT_EQ((*shark)->SaveModel(), "");
}

}  // namespace
}  // namespace fcrawl::focus
