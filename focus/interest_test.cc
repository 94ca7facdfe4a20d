#include "focus/interest.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "core/test_temp_dir.h"
#include "focus/strategy.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "quark/quark.h"

namespace fcrawl::focus {
namespace {

using ::testing::DoubleNear;
using ::testing::HasSubstr;
using ::testing::Pair;
using ::testing::UnorderedElementsAre;

constexpr double kEps = 1e-9;

// ---------------------------------------------------------------------------
// The hand-computed corpus
// ---------------------------------------------------------------------------
//
// D  = {"football goal news", "football team news"}
// D' = {"army team news",     "army tank news"}
// N = 4; n_k: football 2, goal 1, team 2, army 2, tank 1, news 4, so with
// L = ln 2: idf football = team = army = ln(4/2) = L, goal = tank =
// ln(4/1) = 2L, news = ln(4/4) = 0.
//
// Formula 2 (unit TF-IDF vectors, news weighs 0):
//   d1 = (football L, goal 2L)/(L·√5)  = football 1/√5, goal 2/√5
//   d2 = (football L, team L)/(L·√2)   = football 1/√2, team 1/√2
//   d3 = army 1/√2, team 1/√2;  d4 = army 1/√5, tank 2/√5
// Formula 3: V1 = football 1/√5 + 1/√2 (= a = 1.1543204), goal 2/√5
// (= b = 0.8944272), team 1/√2; V2 = army a, tank b, team 1/√2.
// team is in both, news in neither (weight 0 in both): they go to W.
// U = (football a, goal b)/√(a² + b²) = football 0.7904718, goal 0.6124985;
// V = army 0.7904718, tank 0.6124985; W = team 1/√2, news 1/√2.
// P = U − V − 0.2·W; |P|² = 1 + 1 + 0.04 = 2.04.
const double kA = 1 / std::sqrt(5.0) + 1 / std::sqrt(2.0);
const double kB = 2 / std::sqrt(5.0);
const double kUFootball = kA / std::sqrt(kA * kA + kB * kB);  // 0.7904718
const double kUGoal = kB / std::sqrt(kA * kA + kB * kB);      // 0.6124985
const double kW = 1 / std::sqrt(2.0);                         // 0.7071068
const double kPNorm = std::sqrt(2.04);                        // 1.4282857

// Rev("football team"): S = (football L, team L), |S| = L·√2,
// S·P = L·(0.7904718 − 0.2·0.7071068) → cos = 0.6490504/(√2·√2.04)
// = 0.3213278.
const double kRevFootballTeam =
    (kUFootball - 0.2 * kW) / (std::sqrt(2.0) * kPNorm);
// Rev("goal news"): news has idf 0, so S = (goal 2L): cos = 0.6124985/|P|
// = 0.4288347.
const double kRevGoalNews = kUGoal / kPNorm;
// Rev("army"): −0.7904718/|P| = −0.5534409.
const double kRevArmy = -kUFootball / kPNorm;

const std::vector<std::string> kPositive = {"football goal news",
                                            "football team news"};
const std::vector<std::string> kNegative = {"army team news", "army tank news"};

InterestModel HandModel(InterestModelOptions options = {}) {
  absl::StatusOr<InterestModel> m =
      InterestModel::Build(kPositive, kNegative, options);
  EXPECT_TRUE(m.ok()) << m.status();
  return *std::move(m);
}

// The interest section's scopes: {start URL, max pages, max seconds}.
struct ScopeSpec {
  std::string start_url;
  int64_t max_pages;
  int64_t max_seconds;
};
void SetScopes(StrategyOptions& o, std::vector<ScopeSpec> scopes) {
  o.interest.clear_scopes();
  for (const ScopeSpec& spec : scopes) {
    proto::InterestScope* sc = o.interest.add_scopes();
    sc->set_start_url(spec.start_url);
    sc->set_max_pages(spec.max_pages);
    sc->set_max_seconds(spec.max_seconds);
  }
}

TEST(InterestModelTest, DefaultsAreThePapers) {
  InterestModelOptions o;
  EXPECT_EQ(o.alpha, 1);
  EXPECT_EQ(o.beta, -1);
  EXPECT_DOUBLE_EQ(o.gamma, -0.2);
  EXPECT_EQ(o.vocabulary_size, 400);
  EXPECT_TRUE(o.Validate().ok());
}

TEST(InterestModelTest, HandComputedVectors) {
  EXPECT_NEAR(kUFootball, 0.7904718, 1e-6);
  EXPECT_NEAR(kUGoal, 0.6124985, 1e-6);
  const InterestModel m = HandModel();
  EXPECT_EQ(m.documents(), 4);
  EXPECT_EQ(m.positive_documents(), 2);
  EXPECT_EQ(m.negative_documents(), 2);
  EXPECT_EQ(m.dictionary_size(), 6u);
  EXPECT_NEAR(m.idf("football"), std::log(2.0), kEps);
  EXPECT_NEAR(m.idf("goal"), 2 * std::log(2.0), kEps);
  EXPECT_NEAR(m.idf("news"), 0, kEps);
  EXPECT_EQ(m.idf("unknown"), 0);
  EXPECT_THAT(m.positive(), UnorderedElementsAre(
                                Pair("football", DoubleNear(kUFootball, kEps)),
                                Pair("goal", DoubleNear(kUGoal, kEps))));
  EXPECT_THAT(m.negative(),
              UnorderedElementsAre(Pair("army", DoubleNear(kUFootball, kEps)),
                                   Pair("tank", DoubleNear(kUGoal, kEps))));
  // Terms in both sets (team) or in neither (news, idf 0) are dropped from
  // U and V and share W equally.
  EXPECT_THAT(m.common(),
              UnorderedElementsAre(Pair("team", DoubleNear(kW, kEps)),
                                   Pair("news", DoubleNear(kW, kEps))));
  EXPECT_THAT(m.vector(), UnorderedElementsAre(
                              Pair("football", DoubleNear(kUFootball, kEps)),
                              Pair("goal", DoubleNear(kUGoal, kEps)),
                              Pair("army", DoubleNear(-kUFootball, kEps)),
                              Pair("tank", DoubleNear(-kUGoal, kEps)),
                              Pair("team", DoubleNear(-0.2 * kW, kEps)),
                              Pair("news", DoubleNear(-0.2 * kW, kEps))));
  EXPECT_EQ(m.size(), 6u);
}

TEST(InterestModelTest, HandComputedRev) {
  const InterestModel m = HandModel();
  EXPECT_NEAR(m.Rev("football team"), kRevFootballTeam, kEps);
  EXPECT_NEAR(kRevFootballTeam, 0.3213278, 1e-6);
  EXPECT_NEAR(m.Rev("Goal NEWS"), kRevGoalNews, kEps);
  EXPECT_NEAR(kRevGoalNews, 0.4288347, 1e-6);
  EXPECT_NEAR(m.Rev("army"), kRevArmy, kEps);
  EXPECT_NEAR(kRevArmy, -0.5534409, 1e-6);
  // Repetition scales S, not the cosine.
  EXPECT_NEAR(m.Rev("army army army"), kRevArmy, kEps);
  // Only idf-0 or unknown terms: S is empty.
  EXPECT_EQ(m.Rev("news"), 0);
  EXPECT_EQ(m.Rev("unrelated words only"), 0);
  EXPECT_EQ(m.Rev(""), 0);
}

TEST(InterestModelTest, RevOfWeightedCounts) {
  const InterestModel m = HandModel();
  // Title "football" counts 3 (CofTitle), body "team" 1:
  // S = (football 3L, team L) → S·P = L·(3·0.7904718 − 0.1414214) = 2.2299940L,
  // |S| = L·√10 → cos = 2.2299943/(√10·√2.04) = 0.4937290.
  const text::TermCounts counts = m.CountTerms("team", "football", "");
  EXPECT_DOUBLE_EQ(counts.at("football"), 3);
  const double expected =
      (3 * kUFootball - 0.2 * kW) / (std::sqrt(10.0) * kPNorm);
  EXPECT_NEAR(m.RevOfCounts(counts), expected, kEps);
  EXPECT_NEAR(expected, 0.4937290, 1e-6);
  // Hostile counts are ignored.
  text::TermCounts bad = {{"football", std::nan("")},
                          {"army", -1},
                          {"goal", std::numeric_limits<double>::infinity()}};
  EXPECT_EQ(m.RevOfCounts(bad), 0);
}

TEST(InterestModelTest, GammaWeighsTheCommonWords) {
  InterestModelOptions o;
  o.gamma = 0;
  const InterestModel m = HandModel(o);
  // W still exists, but P leaves its zero-weight terms out.
  EXPECT_EQ(m.common().size(), 2u);
  EXPECT_EQ(m.size(), 4u);
  // Rev("football team") = 0.7904718·L/(L·√2·√2) = 0.3952359.
  EXPECT_NEAR(m.Rev("football team"), kUFootball / 2, kEps);
}

TEST(InterestModelTest, VocabularyCap) {
  InterestModelOptions o;
  o.vocabulary_size = 4;
  // Total frequencies: news 4, then army, football, team 2 each (same n_k,
  // by name), goal 1, tank 1: the dictionary is {news, army, football,
  // team}. Formula 2 then runs over those terms only: d1 = football 1,
  // d4 = army 1, so U = football 1, V = army 1, W = news, team 1/√2.
  const InterestModel m = HandModel(o);
  EXPECT_EQ(m.dictionary_size(), 4u);
  EXPECT_THAT(m.positive(),
              UnorderedElementsAre(Pair("football", DoubleNear(1, kEps))));
  EXPECT_THAT(m.negative(),
              UnorderedElementsAre(Pair("army", DoubleNear(1, kEps))));
  EXPECT_THAT(m.common(),
              UnorderedElementsAre(Pair("team", DoubleNear(kW, kEps)),
                                   Pair("news", DoubleNear(kW, kEps))));
  EXPECT_EQ(m.Rev("goal"), 0);  // out of the dictionary
  // m = 3 keeps {news, army, football}: W = news 1.
  o.vocabulary_size = 3;
  const InterestModel m3 = HandModel(o);
  EXPECT_EQ(m3.dictionary_size(), 3u);
  EXPECT_THAT(m3.common(),
              UnorderedElementsAre(Pair("news", DoubleNear(1, kEps))));
  EXPECT_EQ(m3.size(), 3u);
}

TEST(InterestModelTest, BuildErrors) {
  auto message = [](const std::vector<std::string>& pos,
                    const std::vector<std::string>& neg,
                    InterestModelOptions o = {}) {
    absl::StatusOr<InterestModel> m = InterestModel::Build(pos, neg, o);
    EXPECT_FALSE(m.ok());
    EXPECT_EQ(m.status().code(), absl::StatusCode::kInvalidArgument);
    return std::string(m.status().message());
  };
  EXPECT_THAT(message({}, kNegative), HasSubstr("positive"));
  EXPECT_THAT(message(kPositive, {}), HasSubstr("negative"));
  EXPECT_THAT(message({"", "the of and"}, kNegative), HasSubstr("positive"));
  // The same examples on both sides: every term is common, U is empty.
  EXPECT_THAT(message(kPositive, kPositive), HasSubstr("only in the positive"));
  InterestModelOptions o;
  o.alpha = 0;
  o.beta = 0;
  o.gamma = 0;
  EXPECT_THAT(message(kPositive, kNegative, o), HasSubstr("non-zero weight"));
  o = {};
  o.vocabulary_size = 0;
  EXPECT_THAT(message(kPositive, kNegative, o), HasSubstr("vocabulary_size"));
  o = {};
  o.gamma = std::nan("");
  EXPECT_THAT(message(kPositive, kNegative, o), HasSubstr("gamma"));
  o = {};
  o.fields.title = 1;
  EXPECT_THAT(message(kPositive, kNegative, o), HasSubstr("fields"));
}

TEST(InterestModelTest, HostileText) {
  std::string junk;
  for (int i = 0; i < 1 << 16; ++i) junk.push_back(static_cast<char>(i * 131));
  absl::StatusOr<InterestModel> m = InterestModel::Build(
      {"football goal " + junk, "\xff\xfe\xed\xa0\x80 football"},
      {"army tank \xc3\x28", junk + " army"});
  ASSERT_TRUE(m.ok()) << m.status();
  const double r = m->Rev(junk);
  EXPECT_TRUE(r >= -1 && r <= 1);
  EXPECT_GT(m->Rev("football"), 0);
}

// ---------------------------------------------------------------------------
// Save / Load
// ---------------------------------------------------------------------------

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary);
  f << bytes;
  ASSERT_TRUE(f.good()) << path;
}

TEST(InterestModelTest, SaveLoadRoundTrip) {
  file::TestTempDir tmp;
  InterestModelOptions o;
  o.gamma = -0.3;
  o.fields.title = 5;
  const InterestModel m = HandModel(o);
  const std::string path = tmp.path() + "/model.pb";
  ASSERT_TRUE(m.Save(path).ok());
  absl::StatusOr<InterestModel> loaded = InterestModel::Load(path);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ(loaded->vector(), m.vector());
  EXPECT_EQ(loaded->positive(), m.positive());
  EXPECT_EQ(loaded->negative(), m.negative());
  EXPECT_EQ(loaded->common(), m.common());
  EXPECT_EQ(loaded->documents(), 4);
  EXPECT_EQ(loaded->options().gamma, -0.3);
  EXPECT_EQ(loaded->options().fields.title, 5);
  EXPECT_EQ(loaded->idf("goal"), m.idf("goal"));
  EXPECT_EQ(loaded->Rev("football team"), m.Rev("football team"));
  EXPECT_EQ(loaded->ToProto().SerializeAsString(),
            m.ToProto().SerializeAsString());
}

absl::Status LoadBytes(const std::string& bytes) {
  file::TestTempDir tmp;
  const std::string path = tmp.path() + "/model.pb";
  WriteFile(path, bytes);
  absl::Status s = InterestModel::Load(path).status();
  if (!s.ok()) {
    EXPECT_THAT(s.message(), HasSubstr(path));
  }
  return s;
}

TEST(InterestModelTest, LoadRejectsBadFiles) {
  file::TestTempDir tmp;
  const std::string missing = tmp.path() + "/nothing.pb";
  absl::Status s = InterestModel::Load(missing).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(s.message(), HasSubstr(missing));

  EXPECT_THAT(LoadBytes("").message(), HasSubstr("empty"));
  EXPECT_FALSE(LoadBytes("this is not a protobuf \xff\xff\xff\xff").ok());

  const std::string good = HandModel().ToProto().SerializeAsString();
  // Cut at every length: never accepted, never a crash.
  for (size_t n = 1; n < good.size(); ++n) {
    const std::string path = tmp.path() + "/cut.pb";
    WriteFile(path, good.substr(0, n));
    EXPECT_FALSE(InterestModel::Load(path).ok()) << "cut at " << n;
  }
  EXPECT_TRUE(LoadBytes(good).ok());

  // Oversized: a sparse file is refused before it is read.
  const std::string big = tmp.path() + "/big.pb";
  WriteFile(big, "x");
  ASSERT_EQ(truncate(big.c_str(), (64 << 20) + 1), 0);
  s = InterestModel::Load(big).status();
  EXPECT_THAT(s.message(), HasSubstr("larger than"));
  EXPECT_THAT(s.message(), HasSubstr(big));
}

TEST(InterestModelTest, FromProtoRejectsInconsistentModels) {
  const proto::InterestModel good = HandModel().ToProto();
  ASSERT_TRUE(InterestModel::FromProto(good).ok());
  auto message = [](const proto::InterestModel& p) {
    absl::StatusOr<InterestModel> m = InterestModel::FromProto(p);
    EXPECT_FALSE(m.ok());
    return std::string(m.status().message());
  };
  proto::InterestModel p = good;
  p.clear_end_marker();
  EXPECT_THAT(message(p), HasSubstr("end marker"));
  p = good;
  p.set_format_version(2);
  EXPECT_THAT(message(p), HasSubstr("format_version"));
  p = good;
  p.mutable_terms()->RemoveLast();
  EXPECT_THAT(message(p), HasSubstr("term_count"));
  p = good;
  p.mutable_terms(0)->set_weight(0.5);  // U no longer a unit vector
  EXPECT_THAT(message(p), HasSubstr("norm"));
  p = good;
  p.mutable_terms(0)->set_document_frequency(5);  // > N = 4
  EXPECT_THAT(message(p), HasSubstr("document frequency"));
  p = good;
  p.mutable_terms(1)->set_text(p.terms(0).text());
  EXPECT_THAT(message(p), HasSubstr("twice"));
  p = good;
  p.mutable_terms(0)->set_kind(proto::INTEREST_TERM_CLASS_UNSPECIFIED);
  EXPECT_THAT(message(p), HasSubstr("class"));
  p = good;
  p.set_documents(5);
  EXPECT_THAT(message(p), HasSubstr("document counts"));
  p = good;
  p.set_alpha(std::numeric_limits<double>::infinity());
  EXPECT_THAT(message(p), HasSubstr("alpha"));
  p = good;
  for (proto::InterestTerm& t : *p.mutable_terms()) {
    if (t.kind() == proto::INTEREST_TERM_COMMON && t.text() == "team") {
      t.set_weight(0.5);
    }
  }
  EXPECT_THAT(message(p), HasSubstr("not uniform"));
  p = good;
  p.mutable_terms(0)->set_text("\xff");
  EXPECT_THAT(message(p), HasSubstr("UTF-8"));
}

TEST(InterestModelTest, SaveToUnwritablePathFails) {
  file::TestTempDir tmp;
  absl::Status s = HandModel().Save(tmp.path() + "/no/such/dir/model.pb");
  EXPECT_FALSE(s.ok());
  EXPECT_THAT(s.message(), HasSubstr("no/such/dir"));
}

// ---------------------------------------------------------------------------
// Folders
// ---------------------------------------------------------------------------

TEST(InterestModelTest, BuildFromFolders) {
  file::TestTempDir tmp;
  const std::string root = tmp.path();
  const std::string pos = root + "/pos", neg = root + "/neg";
  ASSERT_EQ(mkdir(pos.c_str(), 0755), 0);
  ASSERT_EQ(mkdir(neg.c_str(), 0755), 0);
  WriteFile(pos + "/a.HTML",
            "<html><head><title>Football</title></head><body><p>The football "
            "match ended with a late goal from the striker.</p></body></html>");
  WriteFile(pos + "/b.txt", "football goal striker");
  // Binary junk: ignored by name, or skipped by content.
  WriteFile(pos + "/junk.bin", std::string("\x00\x01\x02 army army", 12));
  WriteFile(pos + "/junk.html", std::string("\x89PNG\x00\x00 army tank", 16));
  ASSERT_EQ(mkdir((pos + "/folder.html").c_str(), 0755), 0);
  WriteFile(neg + "/n.txt", "army tank soldier");
  WriteFile(neg + "/m.htm", "<p>The army moved the tank at night.</p>");
  WriteFile(neg + "/bad.txt", "army \xc3\x28 tank \xed\xa0\x80");

  absl::StatusOr<InterestModel> m = InterestModel::BuildFromFolders(pos, neg);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->positive_documents(), 2);
  EXPECT_EQ(m->negative_documents(), 3);
  EXPECT_TRUE(m->positive().contains("football"));
  EXPECT_TRUE(m->positive().contains("striker"));
  EXPECT_TRUE(m->negative().contains("army"));
  EXPECT_FALSE(m->positive().contains("army"));
  EXPECT_GT(m->Rev("football striker"), 0);
  EXPECT_LT(m->Rev("army tank"), 0);
}

TEST(InterestModelTest, BuildFromFoldersErrors) {
  file::TestTempDir tmp;
  const std::string root = tmp.path();
  const std::string pos = root + "/pos", neg = root + "/neg";
  ASSERT_EQ(mkdir(pos.c_str(), 0755), 0);
  ASSERT_EQ(mkdir(neg.c_str(), 0755), 0);
  WriteFile(pos + "/a.txt", "football goal");

  absl::Status s =
      InterestModel::BuildFromFolders(pos, root + "/missing").status();
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(s.message(), HasSubstr(root + "/missing"));

  s = InterestModel::BuildFromFolders(pos, neg).status();  // empty folder
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr(neg));

  WriteFile(neg + "/empty.txt", "");
  WriteFile(neg + "/junk.txt", std::string("\x00\x00\x00", 3));
  s = InterestModel::BuildFromFolders(pos, neg).status();  // nothing usable
  EXPECT_THAT(s.message(), HasSubstr("negative example set"));
  EXPECT_THAT(s.message(), HasSubstr(neg));

  WriteFile(neg + "/big.txt", std::string((4 << 20) + 1, 'a'));
  s = InterestModel::BuildFromFolders(pos, neg).status();
  EXPECT_THAT(s.message(), HasSubstr(neg + "/big.txt"));
  EXPECT_THAT(s.message(), HasSubstr("larger than"));
  ASSERT_EQ(unlink((neg + "/big.txt").c_str()), 0);

  for (int i = 0; i <= 5000; ++i) {
    WriteFile(absl::StrCat(neg, "/f", i, ".txt"), "army");
  }
  s = InterestModel::BuildFromFolders(pos, neg).status();
  EXPECT_THAT(s.message(), HasSubstr("more than 5000"));
  EXPECT_THAT(s.message(), HasSubstr(neg));
}

// ---------------------------------------------------------------------------
// Link types
// ---------------------------------------------------------------------------

TEST(ClassifyLinkTest, FromAFile) {
  const char* page = "http://s.com/a/b.html";
  struct Case {
    const char* target;
    LinkType type;
  };
  const Case cases[] = {
      {"http://s.com/a/c.html", LinkType::kHorizontal},
      {"http://s.com/a/c.html?x=1", LinkType::kHorizontal},
      {"http://s.com/a/b.html?page=2", LinkType::kHorizontal},
      {"https://s.com/a/c.html", LinkType::kHorizontal},  // default ports
      {"http://s.com:80/a/c.html", LinkType::kHorizontal},
      {"HTTP://S.COM/a/c.html#top", LinkType::kHorizontal},
      {"http://s.com/a/", LinkType::kUpward},  // the directory's own page
      {"http://s.com/a/index.html", LinkType::kUpward},
      {"http://s.com/a/Default.aspx?x=1", LinkType::kUpward},
      {"http://s.com/z.html", LinkType::kUpward},
      {"http://s.com/", LinkType::kUpward},
      {"http://s.com/a", LinkType::kUpward},  // the file "a" in "/"
      {"http://s.com/a/x/y.html", LinkType::kDownward},
      {"http://s.com/a/x/", LinkType::kDownward},
      {"http://s.com/a/x/index.html", LinkType::kDownward},
      {"http://s.com/q/r.html", LinkType::kCrosswise},
      {"http://s.com/ab/c.html", LinkType::kCrosswise},  // not a prefix
      {"http://s.com:8080/a/c.html", LinkType::kOutward},
      {"http://t.com/a/c.html", LinkType::kOutward},
      {"http://www.s.com/a/c.html", LinkType::kOutward},
      {"not a url", LinkType::kOutward},
      {"", LinkType::kOutward},
      {"mailto:x@s.com", LinkType::kOutward},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(ClassifyLink(page, c.target), c.type)
        << c.target << " is "
        << url::LinkTypeName(ClassifyLink(page, c.target));
  }
}

TEST(ClassifyLinkTest, FromADirectoryPage) {
  for (const char* page : {"http://s.com/a/", "http://s.com/a/index.html"}) {
    EXPECT_EQ(ClassifyLink(page, "http://s.com/a/c.html"), LinkType::kDownward)
        << page;
    EXPECT_EQ(ClassifyLink(page, "http://s.com/a/x/"), LinkType::kDownward);
    EXPECT_EQ(ClassifyLink(page, "http://s.com/a/"), LinkType::kHorizontal);
    EXPECT_EQ(ClassifyLink(page, "http://s.com/a/index.htm"),
              LinkType::kHorizontal);
    EXPECT_EQ(ClassifyLink(page, "http://s.com/"), LinkType::kUpward);
    EXPECT_EQ(ClassifyLink(page, "http://s.com/b/"), LinkType::kCrosswise);
  }
  EXPECT_EQ(ClassifyLink("garbage", "http://s.com/"), LinkType::kOutward);
  EXPECT_EQ(ClassifyLink("http://s.com:81/", "http://s.com:81/a.html"),
            LinkType::kDownward);
}

// ---------------------------------------------------------------------------
// The strategy
// ---------------------------------------------------------------------------

std::shared_ptr<const InterestModel> SharedModel() {
  static const auto* model = new std::shared_ptr<const InterestModel>(
      std::make_shared<InterestModel>(HandModel()));
  return *model;
}

StrategyOptions Options() {
  StrategyOptions o;
  o.interest_model = SharedModel();
  return o;
}

std::unique_ptr<Strategy> Make(const StrategyOptions& options = Options(),
                               std::function<absl::Time()> now = absl::Now) {
  absl::StatusOr<std::unique_ptr<Strategy>> s =
      internal::MakeInterestStrategy(options, std::move(now));
  EXPECT_TRUE(s.ok()) << s.status();
  return s.ok() ? *std::move(s) : nullptr;
}

quark::AnalyzedPage Page(const std::string& url, const std::string& text,
                         const std::vector<std::string>& links) {
  quark::AnalyzedPage p;
  p.document.url = url;
  quark::Block b;
  b.text = text;
  for (size_t i = 0; i < links.size(); ++i) {
    html::Link link;
    link.url = links[i];
    p.document.links.push_back(link);
    b.links.push_back(static_cast<int32_t>(i));
  }
  p.segmentation.blocks.push_back(b);
  return p;
}

FetchedPage Fetched(const quark::AnalyzedPage& p) {
  FetchedPage f;
  f.page = &p;
  f.url = p.document.url;
  f.final_url = p.document.url;
  return f;
}

TEST(InterestStrategyTest, Factory) {
  StrategyOptions o;
  absl::StatusOr<std::unique_ptr<Strategy>> s =
      MakeStrategy("interest", o, [](absl::string_view) { return 0.0; });
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.status().message(), HasSubstr("interest_model"));

  s = MakeStrategy("interest", Options(),
                   [](absl::string_view) { return 0.0; });
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ((*s)->name(), "interest");
  EXPECT_EQ((*s)->SeedState().score, kSeedScore);

  o = Options();
  SetScopes(o, {{"ftp://s.com/", 1, 0}});
  s = internal::MakeInterestStrategy(o, absl::Now);
  EXPECT_THAT(s.status().message(), HasSubstr("ftp://s.com/"));
  SetScopes(o, {{"http://s.com/a/x.html", 1, 0}, {"http://s.com/a/", 2, 0}});
  s = internal::MakeInterestStrategy(o, absl::Now);
  EXPECT_THAT(s.status().message(), HasSubstr("same scope"));
  o = Options();
  o.interest.set_upward_weight(-1);
  EXPECT_FALSE(internal::MakeInterestStrategy(o, absl::Now).ok());
}

TEST(InterestStrategyTest, ScoreLinksWeightsRevByLinkType) {
  std::unique_ptr<Strategy> s = Make();
  const quark::AnalyzedPage p =
      Page("http://s.com/a/x.html", "football team",
           {"http://s.com/a/h.html", "http://s.com/a/sub/k.html",
            "http://s.com/", "http://s.com/b/c.html", "http://t.com/",
            "http://s.com/a/h.html", "http://s.com/a/x.html"});
  const std::vector<ScoredLink> links = s->ScoreLinks(Fetched(p));
  // Each distinct URL once; the self-link is not a candidate.
  ASSERT_EQ(links.size(), 5u);
  const double r = kRevFootballTeam;
  const double expected[] = {1.0 * r, 0.8 * r, 0.6 * r, 0.4 * r, 0.2 * r};
  for (size_t i = 0; i < links.size(); ++i) {
    EXPECT_EQ(links[i].link, static_cast<int32_t>(i));
    EXPECT_NEAR(links[i].state.sum, expected[i], kEps) << i;
    EXPECT_NEAR(links[i].state.score, expected[i], kEps) << i;
    EXPECT_EQ(links[i].state.count, 1);
  }
}

TEST(InterestStrategyTest, PredictedRelevanceFormula6) {
  std::unique_ptr<Strategy> s = Make();
  const std::string h = "http://s.com/a/h.html";
  // Five fetched pages link to h, one per link type:
  //   A /a/x.html   "football team" r1 horizontal ×1.0
  //   B /b/y.html   "goal news"     r2 crosswise  ×0.4
  //   C t.com       "army"          r3 outward    ×0.2
  //   D /a/b/w.html "football team" r1 upward     ×0.6
  //   E /           "goal news"     r2 downward   ×0.8
  // V(h) = (1.6·r1 + 1.2·r2 + 0.2·r3)/5
  //      = (0.5141245 + 0.5146016 − 0.1106882)/5 = 0.1836076.
  const quark::AnalyzedPage pages[] = {
      Page("http://s.com/a/x.html", "football team", {h}),
      Page("http://s.com/b/y.html", "goal news", {h}),
      Page("http://t.com/z.html", "army", {h}),
      Page("http://s.com/a/b/w.html", "football team", {h}),
      Page("http://s.com/", "goal news", {h}),
  };
  std::optional<FrontierState> state;
  for (const quark::AnalyzedPage& p : pages) {
    const std::vector<ScoredLink> links = s->ScoreLinks(Fetched(p));
    ASSERT_EQ(links.size(), 1u);
    state =
        state.has_value() ? s->Merge(*state, links[0].state) : links[0].state;
  }
  const double expected =
      (1.6 * kRevFootballTeam + 1.2 * kRevGoalNews + 0.2 * kRevArmy) / 5;
  EXPECT_NEAR(expected, 0.1836076, 1e-6);
  EXPECT_NEAR(state->score, expected, kEps);
  EXPECT_EQ(state->count, 5);
  // Merge is symmetric in its arguments' sums and counts.
  FrontierState a, b;
  a.sum = 0.3, a.count = 2, b.sum = -0.1, b.count = 1;
  EXPECT_NEAR(s->Merge(a, b).score, 0.2 / 3, kEps);
  EXPECT_NEAR(s->Merge(b, a).score, 0.2 / 3, kEps);
}

TEST(InterestStrategyTest, IrrelevantPagesLowerTheirTargets) {
  std::unique_ptr<Strategy> s = Make();
  const quark::AnalyzedPage p =
      Page("http://s.com/a/x.html", "army", {"http://s.com/a/h.html"});
  const std::vector<ScoredLink> links = s->ScoreLinks(Fetched(p));
  ASSERT_EQ(links.size(), 1u);  // still offered
  EXPECT_NEAR(links[0].state.score, kRevArmy, kEps);
  EXPECT_LT(links[0].state.score, 0);
}

TEST(InterestStrategyTest, SeedsKeepTheirPlace) {
  std::unique_ptr<Strategy> s = Make();
  FrontierState link;
  link.sum = 0.5;
  link.count = 1;
  link.score = 0.5;
  EXPECT_EQ(s->Merge(s->SeedState(), link).score, kSeedScore);
  EXPECT_EQ(s->Merge(link, s->SeedState()).score, kSeedScore);
  // Counts saturate instead of overflowing; NaN sums are dropped.
  FrontierState big;
  big.count = std::numeric_limits<int32_t>::max();
  big.sum = std::nan("");
  const FrontierState m = s->Merge(big, link);
  EXPECT_EQ(m.count, std::numeric_limits<int32_t>::max());
  EXPECT_TRUE(std::isfinite(m.score));
}

TEST(InterestStrategyTest, HostilePages) {
  std::unique_ptr<Strategy> s = Make();
  EXPECT_TRUE(s->ScoreLinks(FetchedPage{}).empty());
  const quark::AnalyzedPage empty = Page("http://s.com/", "", {});
  EXPECT_TRUE(s->ScoreLinks(Fetched(empty)).empty());
  // Malformed URLs (as a broken resolver might leave them) are outward.
  quark::AnalyzedPage bad = Page("http://s.com/a/x.html", "football team",
                                 {"::::", "http://s.com/a/y.html"});
  html::Link unresolved;
  unresolved.url = "relative.html";
  unresolved.resolved = false;
  bad.document.links.push_back(unresolved);
  std::vector<ScoredLink> links = s->ScoreLinks(Fetched(bad));
  ASSERT_EQ(links.size(), 2u);
  EXPECT_NEAR(links[0].state.score, 0.2 * kRevFootballTeam, kEps);
  // Many links.
  std::vector<std::string> many;
  for (int i = 0; i < 20000; ++i) {
    many.push_back(absl::StrCat("http://s.com/a/p", i, ".html"));
  }
  const quark::AnalyzedPage big = Page("http://s.com/a/", "goal", many);
  links = s->ScoreLinks(Fetched(big));
  ASSERT_EQ(links.size(), 20000u);
  EXPECT_NEAR(links[19999].state.score, 0.8 * kUGoal / kPNorm, kEps);
}

TEST(InterestStrategyTest, ScopesWithBudgets) {
  StrategyOptions o = Options();
  SetScopes(o, {{"http://s.com/sports/index.html", 2, 0},
                {"http://s.com/sports/football/a.html", 0, 10}});
  absl::Time now = absl::FromUnixSeconds(1000);
  std::unique_ptr<Strategy> s = Make(o, [&now] { return now; });
  auto admit = [&](const std::string& url) {
    return s->Admit(url, 0, FrontierState{});
  };
  // Outside every scope.
  for (const char* url :
       {"http://s.com/news/x.html", "http://other.com/sports/x.html",
        "http://s.com:8080/sports/x.html", "http://s.com/sports",
        "not a url"}) {
    const Admission a = admit(url);
    EXPECT_FALSE(a.fetch) << url;
    EXPECT_EQ(a.reason, "outside every interest scope") << url;
  }
  // Page budget of /sports/: two fetches.
  EXPECT_TRUE(admit("http://s.com/sports/index.html").fetch);
  EXPECT_TRUE(admit("https://s.com/sports/1.html?x").fetch);
  Admission a = admit("http://s.com/sports/2.html");
  EXPECT_FALSE(a.fetch);
  EXPECT_THAT(a.reason, HasSubstr("http://s.com/sports/index.html"));
  EXPECT_THAT(a.reason, HasSubstr("2 pages"));
  // /sports/football/ is the longer prefix: its own time budget, which runs
  // from its first fetch.
  now += absl::Seconds(100);
  EXPECT_TRUE(admit("http://s.com/sports/football/b.html").fetch);
  now += absl::Seconds(9);
  EXPECT_TRUE(admit("http://s.com/sports/football/c/d.html").fetch);
  now += absl::Seconds(1);
  a = admit("http://s.com/sports/football/e.html");
  EXPECT_FALSE(a.fetch);
  EXPECT_THAT(a.reason, HasSubstr("http://s.com/sports/football/a.html"));
  EXPECT_THAT(a.reason, HasSubstr("10 seconds"));
  EXPECT_FALSE(admit("http://s.com/sports/3.html").fetch);
}

TEST(InterestStrategyTest, NoScopesAdmitsEverything) {
  std::unique_ptr<Strategy> s = Make();
  for (int i = 0; i < 100; ++i) {
    EXPECT_TRUE(s->Admit("http://any.com/x", 0, FrontierState{}).fetch);
  }
  EXPECT_TRUE(s->Admit("garbage", 0, FrontierState{}).fetch);
}

TEST(InterestStrategyTest, ConcurrentUse) {
  StrategyOptions o = Options();
  SetScopes(o, {{"http://s.com/", 1000, 0}});
  std::unique_ptr<Strategy> s = Make(o);
  const quark::AnalyzedPage p =
      Page("http://s.com/a/x.html", "football team",
           {"http://s.com/a/h.html", "http://t.com/"});
  std::vector<std::thread> threads;
  std::atomic<int> admitted{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 500; ++i) {
        EXPECT_EQ(s->ScoreLinks(Fetched(p)).size(), 2u);
        if (s->Admit("http://s.com/x.html", 0, FrontierState{}).fetch) {
          ++admitted;
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(admitted.load(), 1000);
}

}  // namespace
}  // namespace fcrawl::focus
