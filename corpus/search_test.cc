#include "corpus/search.h"

#include <string>
#include <vector>

#include "core/test_temp_dir.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace fcrawl::corpus {
namespace {

using ::testing::HasSubstr;

proto::CorpusRecord Page(const std::string& url, const std::string& title,
                         const std::string& text, bool on_topic = false,
                         double rank_score = -1) {
  proto::CorpusRecord r;
  r.set_url(url);
  r.set_title(title);
  r.set_main_text(text);
  r.set_on_topic(on_topic);
  if (rank_score >= 0) r.set_rank_score(rank_score);
  return r;
}

std::vector<std::string> Urls(const SearchResult& r) {
  std::vector<std::string> out;
  for (const SearchHit& h : r.hits) out.push_back(h.record.url());
  return out;
}

class SearchTest : public ::testing::Test {
 protected:
  void Build(const std::vector<proto::CorpusRecord>& pages) {
    auto index = SearchIndex::OpenForWriting(dir_.path() + "/index");
    ASSERT_TRUE(index.ok()) << index.status();
    for (const auto& p : pages) ASSERT_TRUE((*index)->Add(p).ok());
    ASSERT_TRUE((*index)->Commit().ok());
  }
  SearchResult Find(const std::string& q, SearchOptions o = {}) {
    auto index = SearchIndex::OpenForReading(dir_.path() + "/index");
    EXPECT_TRUE(index.ok()) << index.status();
    if (!index.ok()) return {};
    absl::StatusOr<SearchResult> r = (*index)->Search(q, o);
    EXPECT_TRUE(r.ok()) << r.status();
    return r.ok() ? *r : SearchResult{};
  }
  file::TestTempDir dir_;
};

TEST_F(SearchTest, StemmedWordsTitleWeightAndSnippets) {
  Build({Page("http://a/1", "Physics courses",
              "An introduction to quantum mechanics and relativity."),
         Page("http://a/2", "Gardening",
              "Roses need sun. This page mentions a physics course once, "
              "among many words about gardens and flowers and soil."),
         Page("http://a/3", "Cooking", "Bread, butter and jam.")});
  // "course" matches "courses" (stemming); the title match ranks first.
  SearchResult r = Find("physics course");
  EXPECT_THAT(Urls(r), testing::ElementsAre("http://a/1", "http://a/2"));
  EXPECT_THAT(r.hits[1].snippet, HasSubstr("[physics] [course]"));
  EXPECT_EQ(r.hits[0].position, 1);
  EXPECT_TRUE(r.hits[0].record.main_text().empty());
  EXPECT_EQ(r.hits[0].record.title(), "Physics courses");
  EXPECT_THAT(Urls(Find("title:gardening")),
              testing::ElementsAre("http://a/2"));
  EXPECT_TRUE(Find("astronomy").hits.empty());
}

TEST_F(SearchTest, IndexesTheTextNotTheMarkdown) {
  proto::CorpusRecord p = Page("http://a/1", "Notes", "plain words here");
  p.set_main_markdown("# markdownonlyword\n\nplain words here");
  Build({p});
  EXPECT_THAT(Urls(Find("plain")), testing::ElementsAre("http://a/1"));
  EXPECT_TRUE(Find("markdownonlyword").hits.empty());
  // What the index keeps of the record leaves the Markdown out.
  SearchResult r = Find("plain");
  ASSERT_EQ(r.hits.size(), 1u);
  EXPECT_FALSE(r.hits[0].record.has_main_markdown());
}

TEST_F(SearchTest, RankBoostOrdersMatchesAndOnTopicFilters) {
  const std::string text = "The solar eclipse of 1999.";
  Build(
      {Page("http://a/low", "Eclipse", text, false, 0.2),
       Page("http://a/high", "Eclipse", text, true, 20),
       Page("http://a/none", "Eclipse", text, false),
       Page("http://a/other", "Other", "Nothing relevant here.", true, 1000)});
  SearchOptions bm25;
  bm25.rank_weight = 0;
  // Same text: BM25 alone ties them; the rank boost orders them, and a
  // page with a high rank but no match is not found.
  SearchResult ranked = Find("eclipse");
  EXPECT_THAT(
      Urls(ranked),
      testing::ElementsAre("http://a/high", "http://a/low", "http://a/none"));
  EXPECT_GT(ranked.hits[0].weight, ranked.hits[1].weight);
  EXPECT_EQ(Find("eclipse", bm25).hits.size(), 3u);
  SearchOptions on;
  on.on_topic_only = true;
  EXPECT_THAT(Urls(Find("eclipse", on)), testing::ElementsAre("http://a/high"));
}

TEST_F(SearchTest, SnippetsAsTextOrEscapedHtml) {
  Build({Page("http://a/1", "T", "Use <b> & [x] with the eclipse filter.")});
  SearchResult text = Find("eclipse");
  ASSERT_EQ(text.hits.size(), 1u);
  EXPECT_EQ(text.hits[0].snippet, "Use <b> & [x] with the [eclipse] filter.");
  SearchOptions html;
  html.marks = SearchOptions::Marks::kHtml;
  SearchResult h = Find("eclipse", html);
  ASSERT_EQ(h.hits.size(), 1u);
  EXPECT_EQ(h.hits[0].snippet,
            "Use &lt;b&gt; &amp; [x] with the <b>eclipse</b> filter.");
  SearchOptions control;
  control.marks = SearchOptions::Marks::kControl;
  EXPECT_EQ(Find("eclipse", control).hits[0].snippet,
            "Use <b> & [x] with the \x02"
            "eclipse\x03 filter.");
  const std::string json = SearchResultJson("eclipse", h);
  EXPECT_THAT(json, HasSubstr("{\"query\":\"eclipse\",\"matches\":1,"
                              "\"hits\":[{\"position\":1,"));
  EXPECT_THAT(json, HasSubstr("\"url\":\"http://a/1\",\"title\":\"T\","
                              "\"on_topic\":false,\"topic_score\":null,"
                              "\"rank\":null,\"media\":0,\"snippet\":"));
}

// Xapian's pruning by maximum weight once dropped pages from a short
// result list that a longer one ranked above the rest: the best k must be
// the first k of the best n.
TEST_F(SearchTest, TopKIsAPrefixOfTopN) {
  std::vector<proto::CorpusRecord> pages;
  for (int i = 0; i < 60; ++i) {
    std::string text;
    for (int k = 0; k <= i % 7; ++k) text += "quantum ";
    for (int k = 0; k <= (i * 5) % 11; ++k) text += "light ";
    text += std::string(static_cast<size_t>(i % 13), 'x') + " filler words";
    pages.push_back(Page("http://a/" + std::to_string(i),
                         "Page " + std::to_string(i), text, false,
                         (i * 37) % 17 / 4.0));
  }
  Build(pages);
  const std::vector<std::string> all = Urls(Find("quantum of light", [] {
    SearchOptions o;
    o.limit = 60;
    return o;
  }()));
  ASSERT_EQ(all.size(), 60u);
  for (int k : {1, 2, 3, 5, 8, 13}) {
    SearchOptions o;
    o.limit = k;
    EXPECT_EQ(Urls(Find("quantum of light", o)),
              std::vector<std::string>(all.begin(), all.begin() + k))
        << "k = " << k;
  }
  // Stop words match nothing.
  EXPECT_TRUE(Find("of the").hits.empty());
}

TEST_F(SearchTest, PhrasesNeedTheMainTextsPositions) {
  const proto::CorpusRecord a =
      Page("http://a/1", "Solar eclipse", "the quantum mechanics of light");
  const proto::CorpusRecord b =
      Page("http://a/2", "Other", "mechanics of a quantum engine");
  Build({a, b});
  EXPECT_THAT(Urls(Find("\"quantum mechanics\"")),
              testing::ElementsAre("http://a/1"));
  // An index without them (the one built while crawling): phrases match
  // titles only, words everywhere.
  IndexOptions lean;
  lean.main_text_positions = false;
  auto index = SearchIndex::OpenForWriting(dir_.path() + "/lean", lean);
  ASSERT_TRUE(index.ok());
  ASSERT_TRUE((*index)->Add(a).ok());
  ASSERT_TRUE((*index)->Add(b).ok());
  ASSERT_TRUE((*index)->Commit().ok());
  auto r = (*index)->Search("\"quantum mechanics\"");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(Urls(*r).empty());
  r = (*index)->Search("\"solar eclipse\"");
  ASSERT_TRUE(r.ok());
  EXPECT_THAT(Urls(*r), testing::ElementsAre("http://a/1"));
  r = (*index)->Search("quantum mechanics");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->hits.size(), 2u);
}

TEST_F(SearchTest, TopicWeightPrefersPagesJudgedOnTopic) {
  proto::CorpusRecord on = Page("http://a/on", "Eclipse", "The solar eclipse.");
  on.set_topic_score(0.9);
  proto::CorpusRecord off =
      Page("http://a/off", "Eclipse", "The solar eclipse.");
  off.set_topic_score(0.1);
  proto::CorpusRecord none =
      Page("http://a/none", "Eclipse", "The solar eclipse.");
  Build({off, none, on});
  SearchOptions o;
  o.rank_weight = 0;
  o.topic_weight = 4;
  SearchResult r = Find("eclipse", o);
  EXPECT_THAT(Urls(r), testing::ElementsAre("http://a/on", "http://a/off",
                                            "http://a/none"));
  // 4 × (0.9 − 0.1) between the first two, the text being the same.
  EXPECT_NEAR(r.hits[0].weight - r.hits[1].weight, 3.2, 1e-6);
  o.topic_weight = -1;
  auto index = SearchIndex::OpenForReading(dir_.path() + "/index");
  ASSERT_TRUE(index.ok());
  EXPECT_FALSE((*index)->Search("eclipse", o).ok());
}

TEST_F(SearchTest, ChineseByCharacterNgrams) {
  Build({Page("http://zh/1", "物理学", "量子力学是物理学的一个分支。"),
         Page("http://zh/2", "园艺", "玫瑰需要阳光。")});
  EXPECT_THAT(Urls(Find("量子力学")), testing::ElementsAre("http://zh/1"));
}

TEST_F(SearchTest, ReplacesAPageIndexedAgain) {
  Build({Page("http://a/1", "Old", "old words"),
         Page("http://a/1", "New", "new words")});
  auto index = SearchIndex::OpenForReading(dir_.path() + "/index");
  ASSERT_TRUE(index.ok());
  EXPECT_EQ((*index)->documents(), 1);
  EXPECT_TRUE(Find("old").hits.empty());
  EXPECT_EQ(Find("new").hits.size(), 1u);
}

// A story and its copy elsewhere (a near-duplicate, duplicate_of set)
// take one line of the results, the better-scoring of the two; asked, the
// search shows both.
TEST_F(SearchTest, DuplicatesCollapseIntoOneResult) {
  proto::CorpusRecord copy =
      Page("http://b/copy", "Flood", "river flood in the delta town");
  copy.set_duplicate_of("http://a/story");
  Build({Page("http://a/story", "Flood on the river",
              "river flood in the delta town"),
         copy, Page("http://c/other", "Other", "a river walk")});
  EXPECT_THAT(Urls(Find("river flood")),
              testing::ElementsAre("http://a/story", "http://c/other"));
  SearchOptions all;
  all.collapse_duplicates = false;
  EXPECT_THAT(Urls(Find("river flood", all)),
              testing::UnorderedElementsAre("http://a/story", "http://b/copy",
                                            "http://c/other"));
}

// A tombstone (a revisit found the page gone) drops the page's document.
TEST_F(SearchTest, ATombstoneDropsThePage) {
  proto::CorpusRecord tomb;
  tomb.set_url("http://a/1");
  tomb.set_gone(true);
  Build({Page("http://a/1", "Flood", "river flood"),
         Page("http://a/2", "Walk", "river walk"), tomb});
  EXPECT_THAT(Urls(Find("river")), testing::ElementsAre("http://a/2"));
}

TEST_F(SearchTest, ErrorsNameTheProblem) {
  auto missing = SearchIndex::OpenForReading(dir_.path() + "/none");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(missing.status().message()), HasSubstr("/none"));
  Build({Page("http://a/1", "T", "x")});
  auto writer = SearchIndex::OpenForWriting(dir_.path() + "/index");
  ASSERT_TRUE(writer.ok());
  auto second = SearchIndex::OpenForWriting(dir_.path() + "/index");
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), absl::StatusCode::kFailedPrecondition);
  auto reader = SearchIndex::OpenForReading(dir_.path() + "/index");
  ASSERT_TRUE(reader.ok());
  SearchOptions o;
  o.limit = 0;
  EXPECT_FALSE((*reader)->Search("x", o).ok());
  EXPECT_FALSE((*reader)->Search(std::string(5000, 'a')).ok());
  // Queries a user (or an attacker at /search.json) may type: answered or
  // refused as a bad argument, never a crash or another error.
  for (const std::string& q :
       {std::string("AND OR ((( title: NOT"), std::string("\"unclosed"),
        std::string("*"), std::string("title:"), std::string("\xFF\xFE\x01"),
        std::string(3000, '('), std::string("a NEAR/999999 b"),
        std::string()}) {
    absl::StatusOr<SearchResult> r = (*reader)->Search(q);
    EXPECT_TRUE(r.ok() ||
                r.status().code() == absl::StatusCode::kInvalidArgument)
        << q << ": " << r.status();
  }
  EXPECT_FALSE((*reader)->Add(Page("http://a/2", "T", "x")).ok());
  auto bad_stem = SearchIndex::OpenForWriting(dir_.path() + "/other",
                                              IndexOptions{"klingon", 1000});
  EXPECT_FALSE(bad_stem.ok());
}

}  // namespace
}  // namespace fcrawl::corpus
