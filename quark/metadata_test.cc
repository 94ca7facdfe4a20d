#include "quark/metadata.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "quark/quark.h"

namespace fcrawl::quark {
namespace {

PageMetadata Read(const std::string& html) {
  absl::StatusOr<AnalyzedPage> page =
      AnalyzePage(html, "http://example.com/a", "", "utf-8");
  EXPECT_TRUE(page.ok());
  return page.ok() ? ExtractMetadata(*page) : PageMetadata{};
}

TEST(MetadataTest, MetaTagsFirst) {
  PageMetadata m = Read(
      "<html lang='en-US'><head><title>Flood | Daily</title>"
      "<meta property='og:title' content='Flood closes the  lower town'>"
      "<meta name='author' content='Ann Smith'>"
      "<meta property='article:published_time' "
      "content='2024-05-01T10:00:00Z'></head><body><p class='byline'>By "
      "Somebody Else</p><p>Text.</p></body></html>");
  EXPECT_EQ(m.title, "Flood closes the lower town");
  EXPECT_EQ(m.byline, "Ann Smith");
  EXPECT_EQ(m.date, "2024-05-01T10:00:00Z");
  EXPECT_EQ(m.language, "en-us");
}

TEST(MetadataTest, MarkedElementsWhenNoMeta) {
  PageMetadata m = Read(
      "<html><head><title>Flood</title></head><body>"
      "<span class='author'>Photo: Bob Lee</span>"
      "<span class='post-byline'>By Ann Smith</span>"
      "<time datetime='2024-05-01'>May 1</time><p>Text.</p></body></html>");
  EXPECT_EQ(m.title, "Flood");
  EXPECT_EQ(m.byline, "By Ann Smith");
  EXPECT_EQ(m.date, "2024-05-01");
  EXPECT_EQ(m.language, "");  // Latin text: no guess
}

// What the page declares in JSON-LD comes after its <meta> tags and before
// the markup's guesses.
TEST(MetadataTest, TheDeclaredArticleBetweenMetaTagsAndMarkup) {
  const std::string declared =
      "<script type='application/ld+json'>{\"@type\": \"NewsArticle\", "
      "\"headline\": \"Flood closes the lower town\", \"author\": "
      "{\"@type\": \"Person\", \"name\": \"Ann Smith\"}, "
      "\"datePublished\": \"2024-05-01\", \"inLanguage\": \"en-GB\"}"
      "</script>";
  PageMetadata m = Read(
      "<html><head><title>Flood | Daily</title>" + declared +
      "</head><body><span class='byline'>By Somebody Else</span>"
      "<time datetime='2024-04-30'>April 30</time><p>Text.</p></body></html>");
  EXPECT_EQ(m.title, "Flood closes the lower town");
  EXPECT_EQ(m.byline, "Ann Smith");
  EXPECT_EQ(m.date, "2024-05-01");
  EXPECT_EQ(m.language, "en-gb");
  m = Read(
      "<html lang='de'><head><title>Flut</title>"
      "<meta property='og:title' content='Flut in der Unterstadt'>"
      "<meta name='author' content='Bo Lee'>"
      "<meta property='article:published_time' content='2024-05-02'>" +
      declared + "</head><body><p>Text.</p></body></html>");
  EXPECT_EQ(m.title, "Flut in der Unterstadt");
  EXPECT_EQ(m.byline, "Bo Lee");
  EXPECT_EQ(m.date, "2024-05-02");
  EXPECT_EQ(m.language, "de");
}

TEST(MetadataTest, AnAuthorBioIsNoByline) {
  std::string bio;
  for (int i = 0; i < 10; ++i) bio += "Ann writes about rivers and towns. ";
  PageMetadata m = Read("<html><body><div class='author'>" + bio +
                        "</div><p>Text.</p></body></html>");
  EXPECT_EQ(m.byline, "");
}

TEST(MetadataTest, NestedMarkedElementsStayLinear) {
  // 20,000 nested empty "author" elements: each reads a bounded subtree.
  std::string html = "<html><body>";
  for (int i = 0; i < 20000; ++i) html += "<span class='author'>";
  html += "Ann</body></html>";
  PageMetadata m = Read(html);
  EXPECT_LE(m.byline.size(), 3u);
}

TEST(MetadataTest, LanguageGuessedFromChineseContent) {
  PageMetadata m = Read(
      "<html><head><meta charset='utf-8'></head><body><div>"
      "本市昨日召开防汛工作会议，部署今年汛期各项准备工作。会议要求各区在五月底"
      "前"
      "完成河道清淤和堤防检查，储备足够的抢险物资，并组织一次全市范围的应急演练"
      "。"
      "</div></body></html>");
  EXPECT_EQ(m.language, "zh");
}

}  // namespace
}  // namespace fcrawl::quark
