#include "focus/outcome_model.h"

#include <cmath>
#include <limits>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace fcrawl::focus {
namespace {

using ::testing::HasSubstr;

OutcomeKeys Keys(const char* spec, int max_depth = 8) {
  absl::StatusOr<url::Url> u = url::Parse(spec);
  EXPECT_TRUE(u.ok()) << spec;
  return OutcomeModel::KeysOf(*u, max_depth);
}

TEST(OutcomeModelTest, KeysAreHostDirectoriesAndFileName) {
  const OutcomeKeys a = Keys("http://u.test/a/b/errata.html");
  ASSERT_EQ(a.chain.size(), 3u);  // host, /a/, /a/b/
  EXPECT_NE(a.name, 0u);
  // The same host, folders and name in another case are the same keys.
  const OutcomeKeys upper = Keys("http://U.TEST/A/b/Errata.html");
  EXPECT_EQ(upper.chain, a.chain);
  EXPECT_EQ(upper.name, a.name);
  // A folder URL has no file name; its last folder is in the chain.
  const OutcomeKeys dir = Keys("http://u.test/a/b/");
  EXPECT_EQ(dir.chain, a.chain);
  EXPECT_EQ(dir.name, 0u);
  // The same file name in another folder of the host shares the name key.
  const OutcomeKeys other = Keys("http://u.test/c/errata.html");
  EXPECT_EQ(other.name, a.name);
  EXPECT_EQ(other.chain[0], a.chain[0]);
  EXPECT_NE(other.chain[1], a.chain[1]);
  // ... but not on another host.
  EXPECT_NE(Keys("http://v.test/c/errata.html").name, a.name);
  // The root page: the host's key only (every path is under "/", so "/"
  // would count what the host counts), no name.
  const OutcomeKeys root = Keys("http://u.test/");
  EXPECT_EQ(root.chain.size(), 1u);
  EXPECT_EQ(root.name, 0u);
  // Depth is bounded.
  EXPECT_EQ(Keys("http://u.test/1/2/3/4/5/6/x", 3).chain.size(), 4u);
}

TEST(OutcomeModelTest, LabelsNameTheKeys) {
  absl::StatusOr<url::Url> u = url::Parse("http://U.test/A/b/Errata.html");
  ASSERT_TRUE(u.ok());
  const OutcomeKeys k = OutcomeModel::KeysOf(*u, 8);
  const OutcomeLabels l = OutcomeModel::LabelsOf(*u, 8);
  EXPECT_EQ(l.host, "u.test");
  EXPECT_EQ(l.host_key, k.chain[0]);
  ASSERT_EQ(l.folders.size(), 2u);
  EXPECT_EQ(l.folders[0].second, "/a/");  // lower case, as keyed
  EXPECT_EQ(l.folders[1].second, "/a/b/");
  EXPECT_EQ(l.folders[0].first, k.chain[1]);
  EXPECT_EQ(l.folders[1].first, k.chain[2]);
  EXPECT_EQ(l.name.first, k.name);
  EXPECT_EQ(l.name.second, "errata.html");
  // A folder URL has no name; depth is bounded as for the keys.
  u = url::Parse("http://u.test/1/2/3/4/");
  ASSERT_TRUE(u.ok());
  const OutcomeLabels d = OutcomeModel::LabelsOf(*u, 3);
  ASSERT_EQ(d.folders.size(), 3u);
  EXPECT_EQ(d.folders[2].second, "/1/2/3/");
  EXPECT_EQ(d.name.first, 0u);
  EXPECT_EQ(d.name.second, "");
}

TEST(OutcomeModelTest, HandComputedPosteriors) {
  OutcomeModel m;  // prior 0.8, strength 2
  const OutcomeKeys dead = Keys("http://u.test/c/x.html");
  EXPECT_DOUBLE_EQ(m.Probability(dead), 0.8);
  m.Observe(dead, false);
  EXPECT_EQ(m.CountsOf(dead.chain[1]).fetches, 1);  // /c/
  EXPECT_EQ(m.CountsOf(dead.chain[1]).pages, 0);
  EXPECT_EQ(m.CountsOf(dead.name).fetches, 1);
  EXPECT_EQ(m.CountsOf(Keys("http://u.test/d/").chain[1]).fetches, 0);
  // Each fetch counts once: the host speaks for the fetches outside /c/
  // (none), so it keeps the prior 0.8; /c/ (1 fetch, 0 pages) gives
  // (0 + 2·0.8)/3 = 0.5333; the name x.html (1, 0) shrunk towards that,
  // 2·0.5333/3 = 0.3556.
  const double c = 1.6 / 3;
  const double name = 2 * c / 3;
  EXPECT_NEAR(m.Probability(dead), name, 1e-12);
  EXPECT_NEAR(name, 0.355555555555556, 1e-12);
  // A sibling file in the same folder: its own name unseen.
  EXPECT_NEAR(m.Probability(Keys("http://u.test/c/y.html")), c, 1e-12);
  // Another folder of the host: the host's level has the 404 (outside
  // /d/), with the host's strength 8: (0 + 8·0.8)/(1 + 8) = 0.7111.
  const double host = 6.4 / 9;
  EXPECT_NEAR(m.Probability(Keys("http://u.test/d/y.html")), host, 1e-12);
  // Another host: the prior.
  EXPECT_DOUBLE_EQ(m.Probability(Keys("http://v.test/c/x.html")), 0.8);

  // Three pages in /d/: the host 3 pages of 4 fetches, /d/ 3 of 3.
  for (const char* u : {"http://u.test/d/1.html", "http://u.test/d/2.html",
                        "http://u.test/d/3.html"}) {
    m.Observe(Keys(u), true);
  }
  // /d/4.html: the host less /d/ is the one 404, 0.7111 as above; /d/
  // (3 + 2·0.7111)/(3 + 2) = 0.8844.
  const double d2 = (3 + 2 * host) / 5;
  EXPECT_NEAR(m.Probability(Keys("http://u.test/d/4.html")), d2, 1e-12);
  EXPECT_NEAR(d2, 0.884444444444444, 1e-12);
  // /c/z.html: the host less /c/ is the three pages, (3 + 6.4)/(3 + 8) =
  // 0.8545; /c/ (0 + 2·0.8545)/(1 + 2) = 0.5697.
  const double host2 = 9.4 / 11;
  EXPECT_NEAR(m.Probability(Keys("http://u.test/c/z.html")), 2 * host2 / 3,
              1e-12);
  // The weight of a link: relative to the prior, at most 1. x.html itself
  // (0 pages of 1) below /c/: 2·0.5697/3 = 0.3798, weight 0.4747.
  EXPECT_NEAR(m.Weight(dead), (2 * (2 * host2 / 3) / 3) / 0.8, 1e-12);
  EXPECT_NEAR(m.Weight(dead), 0.474747474747475, 1e-12);
  EXPECT_DOUBLE_EQ(m.Weight(Keys("http://u.test/d/4.html")), 1.0);
  EXPECT_DOUBLE_EQ(m.Weight(Keys("http://v.test/")), 1.0);
  EXPECT_EQ(m.observations(), 4);
}

TEST(OutcomeModelTest, AFolderOfDeadLinksSinksAndALiveOneStays) {
  OutcomeModel m;
  for (int i = 0; i < 20; ++i) {
    m.Observe(Keys(("http://u.test/course/cs1/h" + std::to_string(i) + ".html")
                       .c_str()),
              false);
    m.Observe(
        Keys(("http://u.test/course/cs" + std::to_string(i + 2) + "/").c_str()),
        true);
  }
  EXPECT_LT(m.Probability(Keys("http://u.test/course/cs1/h99.html")), 0.1);
  EXPECT_GT(m.Probability(Keys("http://u.test/course/cs99/")), 0.5);
}

TEST(OutcomeModelTest, FullTableCountsOnlyKnownKeys) {
  OutcomeModelOptions o;
  o.max_keys = 3;
  OutcomeModel m(o);
  m.Observe(Keys("http://u.test/a/b/x"), false);  // host, /a/, /a/b/, x
  EXPECT_EQ(m.keys(), 3u);
  m.Observe(Keys("http://v.test/"), false);
  EXPECT_EQ(m.keys(), 3u);
  EXPECT_DOUBLE_EQ(m.Probability(Keys("http://v.test/")), 0.8);
}

TEST(OutcomeModelTest, SavedAndLoaded) {
  OutcomeModel m;
  m.Observe(Keys("http://u.test/c/x.html"), false);
  m.Observe(Keys("http://u.test/d/x.html"), true);
  proto::LearnedState state;
  m.SaveTo(&state);
  OutcomeModel back;
  ASSERT_TRUE(back.LoadFrom(state).ok());
  EXPECT_EQ(back.keys(), m.keys());
  for (const char* u : {"http://u.test/c/x.html", "http://u.test/d/y.html",
                        "http://u.test/e/"}) {
    EXPECT_DOUBLE_EQ(back.Probability(Keys(u)), m.Probability(Keys(u))) << u;
  }
}

TEST(OutcomeModelTest, BadSavedCountsAreRefused) {
  proto::LearnedState uneven;
  uneven.add_outcome_keys(1);
  uneven.add_outcome_pages(1);
  OutcomeModel m;
  absl::Status s = m.LoadFrom(uneven);
  EXPECT_TRUE(absl::IsInvalidArgument(s));
  EXPECT_THAT(s.message(), HasSubstr("1 keys but 1 page counts and 0"));
  for (float pages : {-1.0f, 3.0f, std::numeric_limits<float>::quiet_NaN()}) {
    proto::LearnedState bad;
    bad.add_outcome_keys(1);
    bad.add_outcome_pages(pages);
    bad.add_outcome_fetches(2);
    EXPECT_TRUE(absl::IsInvalidArgument(m.LoadFrom(bad))) << pages;
  }
}

}  // namespace
}  // namespace fcrawl::focus
