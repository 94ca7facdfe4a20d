#include "quark/article_header.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "quark/metadata.h"
#include "quark/quark.h"
#include "quark/test_util.h"

namespace fcrawl::quark {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

PageMetadata Meta(std::string title, std::string byline = "") {
  PageMetadata m;
  m.title = std::move(title);
  m.byline = std::move(byline);
  return m;
}

TEST(ArticleHeaderTest, WordsAreLowerCaseRunsOfLettersAndDigits) {
  EXPECT_THAT(HeaderWords("Trade-Offs, in 2012!"),
              ElementsAre("trade", "offs", "in", "2012"));
  EXPECT_THAT(HeaderWords("标题_新浪网"), ElementsAre("标题", "新浪网"));
  EXPECT_TRUE(HeaderWords(" -- ").empty());
}

TEST(ArticleHeaderTest, HeadlineIsTheTitleOrItsPartBesideTheSiteName) {
  const PageMetadata m = Meta(
      "Assessing the Trade-Offs Between Security and Civil Liberties - "
      "NYTimes.com");
  EXPECT_EQ(
      ClassifyHeaderLine(
          "Assessing the Trade-Offs Between Security and Civil Liberties", m),
      HeaderLine::kHeadline);
  // Too small a part of the title, or not a run of it.
  EXPECT_EQ(ClassifyHeaderLine("Security and Civil Liberties", m),
            HeaderLine::kNone);
  EXPECT_EQ(ClassifyHeaderLine("Liberties and Security Between Trade-Offs "
                               "the Assessing",
                               m),
            HeaderLine::kNone);
  // The title inside a slightly longer line.
  EXPECT_EQ(ClassifyHeaderLine("Awesome Photographs of Geeks (photos)",
                               Meta("Awesome Photographs of Geeks")),
            HeaderLine::kHeadline);
  // A Chinese headline: the title's words split at punctuation only.
  EXPECT_EQ(
      ClassifyHeaderLine("城市桥梁安全管理工作会议召开",
                         Meta("城市桥梁安全管理工作会议召开_新闻中心_新浪网")),
      HeaderLine::kHeadline);
  // Short titles are not compared: "Contact us" is a page's name and text.
  EXPECT_EQ(ClassifyHeaderLine("Contact us", Meta("Contact us")),
            HeaderLine::kNone);
}

TEST(ArticleHeaderTest, BylinesAndDateLines) {
  const PageMetadata m = Meta("A headline of some length", "Laura Beck");
  EXPECT_EQ(ClassifyHeaderLine("By SCOTT SHANE", m), HeaderLine::kByline);
  EXPECT_EQ(ClassifyHeaderLine("by John on July 21, 2012", m),
            HeaderLine::kByline);
  EXPECT_EQ(ClassifyHeaderLine("Posted by admin in News", m),
            HeaderLine::kByline);
  EXPECT_EQ(ClassifyHeaderLine("Laura Beck", m), HeaderLine::kByline);
  EXPECT_EQ(ClassifyHeaderLine("作者：张三", m), HeaderLine::kByline);
  EXPECT_EQ(ClassifyHeaderLine("July 24, 2012, 9:39 am", m),
            HeaderLine::kDateline);
  EXPECT_EQ(ClassifyHeaderLine("Updated: 2012-07-24 09:39 GMT", m),
            HeaderLine::kDateline);
  EXPECT_EQ(ClassifyHeaderLine("2012年07月24日 09:39", m),
            HeaderLine::kDateline);
  EXPECT_EQ(ClassifyHeaderLine("2012年07月24日 09:39 来源：新华网", m),
            HeaderLine::kDateline);
  // A Chinese paragraph that opens with a date is body text.
  EXPECT_EQ(ClassifyHeaderLine("2012年7月24日，国务院常务会议在北京召开，会议"
                               "研究部署了进一步加强城市桥梁安全管理的工作。",
                               m),
            HeaderLine::kNone);
  // A sentence with a date is body text; "may" is a month only by a number.
  EXPECT_EQ(ClassifyHeaderLine("On July 24, 2012 the council voted to close "
                               "the old bridge",
                               m),
            HeaderLine::kNone);
  EXPECT_EQ(ClassifyHeaderLine("You may be right", m), HeaderLine::kNone);
  EXPECT_EQ(ClassifyHeaderLine("Bystanders watched", m), HeaderLine::kNone);
}

AnalyzedPage Analyzed(const std::string& html, bool article_header = true) {
  PageOptions o;
  o.analyzer.article_header = article_header;
  return testing::AnalyzeNewsPage(html, o);
}

const char kArticle[] =
    "<html><head><title>Bridge closes after council vote - Daily Example"
    "</title></head><body><article>"
    "<p>World</p>"
    "<h1>Bridge closes after council vote</h1>"
    "<p>By Jane Roe</p><p>July 24, 2012, 9:39 am</p>"
    "<p>The old bridge over the river closed on Monday after the council "
    "voted to spend the repair money on a new crossing, officials said, and "
    "traffic was sent through the town centre for the coming months.</p>"
    "<p>Residents said the detour added twenty minutes to their commute, and "
    "shop owners on the bridge road feared for their trade this summer.</p>"
    "</article></body></html>";

TEST(ArticleHeaderTest, MainTextLeavesTheHeaderOut) {
  const std::string text = MainContent(Analyzed(kArticle).segmentation);
  EXPECT_THAT(text, Not(HasSubstr("Bridge closes after council vote")));
  EXPECT_THAT(text, Not(HasSubstr("By Jane Roe")));
  EXPECT_THAT(text, Not(HasSubstr("9:39")));
  EXPECT_THAT(text, HasSubstr("World"));  // a label is scanned past, kept
  EXPECT_THAT(text, HasSubstr("The old bridge over the river closed"));
  EXPECT_THAT(text, HasSubstr("shop owners"));

  // Off: the header stays.
  const std::string all = MainContent(Analyzed(kArticle, false).segmentation);
  EXPECT_THAT(all, HasSubstr("Bridge closes after council vote"));
  EXPECT_THAT(all, HasSubstr("By Jane Roe"));
}

// A standfirst between the headline and the byline is kept, and the byline
// and date after it still go; a second long line ends the header.
TEST(ArticleHeaderTest, TheBylineAfterAStandfirstIsHeader) {
  std::string html = kArticle;
  const std::string h1 = "<h1>Bridge closes after council vote</h1>";
  html.replace(html.find(h1) + h1.size(), 0,
               "<p>The town's oldest crossing shuts for good as the council "
               "picks a new bridge over repairs</p>");
  std::string text = MainContent(Analyzed(html).segmentation);
  EXPECT_THAT(text, HasSubstr("oldest crossing shuts for good"));
  EXPECT_THAT(text, Not(HasSubstr("By Jane Roe")));
  EXPECT_THAT(text, Not(HasSubstr("9:39")));
  html.replace(html.find(h1) + h1.size(), 0,
               "<p>A second line of more than three words here</p>");
  text = MainContent(Analyzed(html).segmentation);
  EXPECT_THAT(text, HasSubstr("By Jane Roe"));
}

// Page controls above the story go with the header; a credit there stays
// (news gold keeps "via …" when it opens the story).
TEST(ArticleHeaderTest, ControlsAboveTheStoryAreNoText) {
  std::string html = kArticle;
  const std::string by = "<p>By Jane Roe</p>";
  html.replace(html.find(by), by.size(),
               "<p>By Jane Roe</p><p>Print</p><p>Email</p><p>小字号</p>"
               "<p>Follow @janeroe</p><p>via example.org</p>");
  const std::string text = MainContent(Analyzed(html).segmentation);
  for (const char* control : {"Print", "Email", "小字号", "@janeroe"}) {
    EXPECT_THAT(text, Not(HasSubstr(control)));
  }
  EXPECT_THAT(text, HasSubstr("via example.org"));
  EXPECT_THAT(text, HasSubstr("The old bridge over the river closed"));
  EXPECT_THAT(MainContent(Analyzed(html, false).segmentation),
              HasSubstr("Print"));
}

// MainContent leaves out a header line and any later copy of it (the
// headline again in a share box), not only the first.
TEST(ArticleHeaderTest, MainContentDropsHeaderLinesAndTheirCopies) {
  Segmentation seg;
  Block a;
  a.type = BlockType::kContent;
  a.text = "Bridge closes after council vote\nThe old bridge closed.";
  a.header_lines = {0};
  Block b = a;
  b.text = "Bridge closes after council vote\nTraffic was sent elsewhere.";
  b.header_lines.clear();
  seg.blocks = {a, b};
  EXPECT_EQ(MainContent(seg),
            "The old bridge closed.\n\nTraffic was sent elsewhere.");
  seg.blocks[0].header_lines.clear();
  EXPECT_EQ(MainContent(seg),
            "Bridge closes after council vote\nThe old bridge closed.\n\n"
            "Traffic was sent elsewhere.");
}

TEST(ArticleHeaderTest, APageThatIsAllHeaderKeepsIt) {
  const std::string html =
      "<html><head><title>Sunset over the harbour in winter</title></head>"
      "<body><div><h1>Sunset over the harbour in winter</h1>"
      "<p>By Jane Roe</p></div></body></html>";
  const std::string text = MainContent(Analyzed(html).segmentation);
  EXPECT_THAT(text, HasSubstr("Sunset over the harbour in winter"));
}

}  // namespace
}  // namespace fcrawl::quark
