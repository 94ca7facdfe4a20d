#include "quark/article_footer.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "quark/quark.h"
#include "quark/test_util.h"

namespace fcrawl::quark {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(ArticleFooterTest, ClosingLines) {
  for (const char* line :
       {"Tweet",
        "Share |",
        "Pin It",
        "Print",
        "Related posts:",
        "Leave a Reply",
        "Tags: Mitt Romney, polls",
        "Tagged as: Fermi",
        "Posted in: NFL Network | comments|",
        "Source: Getty",
        "Image: NASA",
        "[via Android Police]",
        "via hammacher.com",
        "Follow Scott Shane on Twitter at @ScottShaneNYT.",
        "Write to Caroline Porter at caroline.porter@wsj.com",
        "A version of this article appeared July 24, 2012, on page A2.",
        "(Reporting by Jane Roe; Editing by John Doe)",
        "© 2012 CBS Interactive Inc. All Rights Reserved.",
        "Copyright 2012 The Associated Press.",
        "Subscribe to our newsletter and get weekly updates!",
        "（责任编辑：张三）",
        "【纠错】",
        "分享到：",
        "本文来源：新华网",
        "返回网易首页 返回新闻首页 责任编辑：王晓易",
        "【打印】【关闭】",
        "（责编：张三、李四）",
        "特别声明：以上内容为用户上传并发布，本平台仅提供信息存储服务。",
        "分享让更多人看到",
        "【字号 大 中 小】",
        "新浪声明：新浪网登载此文出于传递更多信息之目的，并不意味着赞同其观点"
        "。"}) {
    EXPECT_TRUE(IsFooterLine(line)) << line;
  }
  for (const char* line : {"Tweet", "Print", "Follow @janeroe", "小字号",
                           "分享让更多人看到", "返回网易首页"}) {
    EXPECT_TRUE(IsPageControl(line)) << line;
  }
  // Notes about the story are closing lines, not controls.
  for (const char* line :
       {"via hammacher.com", "Tags: Book Club", "Photo: Jane Roe",
        "Follow Scott Shane on Twitter at @ScottShaneNYT."}) {
    EXPECT_TRUE(IsFooterLine(line)) << line;
    EXPECT_FALSE(IsPageControl(line)) << line;
  }
  for (const char* line :
       {"", "The council will vote again in September.",
        "Followers of the band were not surprised.",  // not "follow "
        "He shared the prize with two colleagues.",
        "Sources close to the mayor said the plan was dead.",
        "据悉，首批搭载新系统的机型将于下月上市。",
        "返回地球后，三名航天员的身体状况良好。",
        // A statement quoted in the story.
        "外交部发言人在声明：中方对此表示强烈不满。",
        // A paragraph that opens with 分享 ("sharing").
        "分享经济在这座城市发展很快，越来越多的市民骑共享单车上班。"}) {
    EXPECT_FALSE(IsFooterLine(line)) << line;
  }
  // A long line is body text, whatever it opens with.
  EXPECT_FALSE(IsFooterLine(std::string("Follow ") + std::string(200, 'x')));
}

AnalyzedPage Analyzed(const std::string& html, bool article_footer = true) {
  PageOptions o;
  o.analyzer.article_footer = article_footer;
  return testing::AnalyzeNewsPage(html, o);
}

// The closing lines at the end of the article's block go; a closing-like
// line before the last paragraph stays (the scan stops at body text).
TEST(ArticleFooterTest, MainTextLeavesTheClosingLinesOut) {
  const std::string html =
      "<html><body><article>"
      "<p>The old bridge over the river closed on Monday after the council "
      "voted to spend the repair money on a new crossing, officials said, "
      "and traffic was sent through the town centre for the months ahead.</p>"
      "<p>Photo: Jane Roe</p>"
      "<p>Residents said the detour added twenty minutes to their commute, "
      "and shop owners on the bridge road feared for their trade.</p>"
      "<p>Tags: bridge, council</p><p>Tweet</p>"
      "<p>&copy; 2012 Daily Example. All rights reserved.</p>"
      "</article></body></html>";
  const std::string text = MainContent(Analyzed(html).segmentation);
  EXPECT_THAT(text, HasSubstr("The old bridge over the river closed"));
  EXPECT_THAT(text, HasSubstr("shop owners"));
  EXPECT_THAT(text, HasSubstr("Photo: Jane Roe"));
  EXPECT_THAT(text, Not(HasSubstr("Tags:")));
  EXPECT_THAT(text, Not(HasSubstr("Tweet")));
  EXPECT_THAT(text, Not(HasSubstr("All rights reserved")));

  const std::string off = MainContent(Analyzed(html, false).segmentation);
  EXPECT_THAT(off, HasSubstr("Tags: bridge, council"));
  EXPECT_THAT(off, HasSubstr("All rights reserved"));
}

// A text that is all closing lines keeps them.
TEST(ArticleFooterTest, APageOfClosingLinesKeepsThem) {
  Segmentation seg;
  Block a;
  a.type = BlockType::kContent;
  a.text = "Tweet\nShare";
  seg.blocks = {a};
  MarkArticleFooter(ContentLinesInPageOrder(seg), &seg);
  EXPECT_TRUE(seg.blocks[0].footer_lines.empty());
  EXPECT_EQ(MainContent(seg), "Tweet\nShare");
}

}  // namespace
}  // namespace fcrawl::quark
