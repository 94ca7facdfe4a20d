#include <fstream>
#include <sstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "core/text.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "quark/hints.h"
#include "quark/quark.h"
#include "quark/test_util.h"

namespace fcrawl::quark {
namespace {

using ::fcrawl::quark::testing::ReadFixture;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(SimilarityTest, SharedTokensOverSmallerStream) {
  // Sorted streams; multiset intersection {a, c, c} = 3, smaller stream 4.
  EXPECT_DOUBLE_EQ(
      SortedTokenSimilarity({"a", "b", "c", "c"}, {"a", "c", "c", "d", "e"}),
      0.75);
  EXPECT_DOUBLE_EQ(SortedTokenSimilarity({"x"}, {"y"}), 0.0);
  EXPECT_DOUBLE_EQ(SortedTokenSimilarity({}, {"y"}), 0.0);
  EXPECT_DOUBLE_EQ(SortedTokenSimilarity({"a", "a"}, {"a"}), 1.0);
}

Block MakeBlock(size_t text, size_t anchor) {
  Block b;
  b.text_length = text;
  b.anchor_text_length = anchor;
  return b;
}

TEST(BayesTest, ArticleBlockPosteriorByHand) {
  // 600 code points, 10 of anchor text, 1 link, 30 punctuation marks:
  // custom 0, noise 0, punctuation/10 chars 0.5 > 0.3 → 1, count 30 > 4 → 1,
  // non-anchor 590 > 200 → 1, links 1 ≤ 20 → 0, 10/590 ≤ 0.3 → 0.
  // content: .16·.71·.96·.85·.77·.84·.90·.92 = 0.049644237
  // other:   .84·.99·.55·.25·.34·.06·.29·.15 = 0.000101470
  // posterior = 0.049644237 / (0.049644237 + 0.000101470) = 0.997960231
  Block b = MakeBlock(600, 10);
  EXPECT_NEAR(ContentPosterior(b, BayesModel{}, 1, false, 30), 0.997960231,
              1e-8);
}

TEST(BayesTest, ShortParagraphPosteriorByHand) {
  // 150 code points, no links, 3 punctuation: every feature 0.
  // content: .16·.71·.96·.15·.23·.16·.90·.92 = 0.000498...
  // other:   .84·.99·.55·.75·.66·.94·.29·.15 → posterior 0.051090962
  Block b = MakeBlock(150, 0);
  EXPECT_NEAR(ContentPosterior(b, BayesModel{}, 0, false, 3), 0.051090962,
              1e-8);
}

TEST(BayesTest, LinkListPosteriorByHand) {
  // 120 code points all anchor text, 25 links, no punctuation:
  // links > 20 → 1, anchor/non-anchor (no non-anchor text) → 1, rest 0.
  // content: .16·.71·.96·.15·.23·.16·.10·.08; other:
  // .84·.99·.55·.75·.66·.94·.71·.85 posterior = 3.7495128626763536e-05
  Block b = MakeBlock(120, 120);
  EXPECT_NEAR(ContentPosterior(b, BayesModel{}, 25, false, 0),
              3.7495128626763536e-05, 1e-12);
}

TEST(BayesTest, NoiseWordCountsOnlyForShortText) {
  Block short_block = MakeBlock(50, 0);
  Block long_block = MakeBlock(150, 0);
  BayesModel m;
  EXPECT_LT(ContentPosterior(short_block, m, 0, true, 0),
            ContentPosterior(short_block, m, 0, false, 0));
  EXPECT_DOUBLE_EQ(ContentPosterior(long_block, m, 0, true, 0),
                   ContentPosterior(long_block, m, 0, false, 0));
}

TEST(AnalyzerTest, ArticlePageBlockTypes) {
  PageOptions options;
  absl::StatusOr<AnalyzedPage> page = AnalyzePage(
      ReadFixture("article.html"),
      "http://physics.example.com/physics/entanglement.html", "", "", options);
  ASSERT_TRUE(page.ok()) << page.status();
  const Segmentation& seg = page->segmentation;
  auto block_with = [&](absl::string_view needle) -> const Block* {
    for (const Block& b : seg.blocks) {
      if (b.text.find(std::string(needle)) != std::string::npos) return &b;
    }
    return nullptr;
  };
  const Block* article = block_with("Quantum entanglement is a physical");
  ASSERT_NE(article, nullptr);
  EXPECT_EQ(article->type, BlockType::kContent);
  // A block that could be content keeps its split text, in text order.
  EXPECT_TRUE(article->tokenized);
  EXPECT_EQ(article->tokens, text::Tokenizer().Tokenize(article->text));
  const Block* related = block_with("Bell inequality experiments");
  ASSERT_NE(related, nullptr);
  EXPECT_EQ(related->type, BlockType::kRelatedLinks);
  const Block* nav = block_with("Astronomy");
  ASSERT_NE(nav, nullptr);
  EXPECT_EQ(nav->type, BlockType::kNavigation);
  const Block* ads = block_with("Cheap flights");
  ASSERT_NE(ads, nullptr);
  EXPECT_EQ(ads->type, BlockType::kNoise);

  std::string main = MainContent(seg);
  EXPECT_THAT(main, HasSubstr("Einstein, Podolsky and Rosen"));
  EXPECT_THAT(main, Not(HasSubstr("Cheap flights")));
  EXPECT_THAT(main, Not(HasSubstr("All rights reserved")));
  EXPECT_THAT(main, Not(HasSubstr("Astronomy")));
}

TEST(AnalyzerTest, TopicGroupTitleNeedsTwoCues) {
  // "Physics" is short and bold and alone on its line: three cues.
  std::string page =
      "<div><ul><li><b>Physics</b></li>"
      "<li><a href='/p/1'>Quantum field theory lectures</a></li>"
      "<li><a href='/p/2'>Classical mechanics problems</a></li>"
      "<li><a href='/p/3'>Statistical physics notes</a></li></ul></div>";
  absl::StatusOr<AnalyzedPage> a =
      AnalyzePage(page, "http://example.com/", "", "");
  ASSERT_TRUE(a.ok());
  bool found = false;
  for (const Block& b : a->segmentation.blocks) {
    if (b.group_title == "Physics") found = true;
  }
  EXPECT_TRUE(found);

  // A short link alone on its line is one of the group's links, not its
  // title.
  absl::StatusOr<AnalyzedPage> menu = AnalyzePage(
      "<div><ul><li><a href='/p'>Physics</a></li><li><a href='/c'>Chemistry"
      "</a></li><li><a href='/b'>Biology</a></li></ul></div>",
      "http://example.com/", "", "");
  ASSERT_TRUE(menu.ok());
  for (const Block& blk : menu->segmentation.blocks) {
    EXPECT_EQ(blk.group_title, "") << blk.text;
  }

  // A short plain word inside running text has one cue only.
  std::string plain =
      "<div><ul><li>see <a href='/p/1'>Quantum field theory lectures</a> and "
      "<a href='/p/2'>Classical mechanics problems</a></li></ul></div>";
  absl::StatusOr<AnalyzedPage> b =
      AnalyzePage(plain, "http://example.com/", "", "");
  ASSERT_TRUE(b.ok());
  for (const Block& blk : b->segmentation.blocks) {
    EXPECT_EQ(blk.group_title, "") << blk.text;
  }
}

TEST(AnalyzerTest, ChinesePageContent) {
  std::string body;
  for (int i = 0; i < 6; ++i) {
    body +=
        "量子纠缠是一种物理现象，指粒子在相互作用后，每个粒子的量子态不能被单独"
        "描述，"
        "只能描述整体系统的状态。爱因斯坦称之为“鬼魅般的超距作用”。";
  }
  std::string page =
      "<html><head><meta charset='utf-8'><title>物理</title></head><body>"
      "<div><a href='/'>首页</a> <a href='/news'>新闻</a> <a "
      "href='/phy'>物理</a>"
      " <a href='/chem'>化学</a></div>"
      "<div><p>" +
      body +
      "</p></div>"
      "<div>版权所有 © 2008 物理网 京ICP备000000号</div></body></html>";
  absl::StatusOr<AnalyzedPage> a =
      AnalyzePage(page, "http://wuli.example.cn/", "", "");
  ASSERT_TRUE(a.ok());
  std::string main = MainContent(a->segmentation);
  EXPECT_THAT(main, HasSubstr("量子纠缠是一种物理现象"));
  EXPECT_THAT(main, Not(HasSubstr("版权所有")));
  EXPECT_THAT(main, Not(HasSubstr("首页")));
}

// A page built by its script: the document's only text is its <title>.
// That is metadata: the main text is empty, not the title; a page with a
// body keeps the title out as well.
TEST(AnalyzerTest, TheHeadsTextIsNeverContent) {
  for (bool hints : {true, false}) {
    PageOptions options;
    options.analyzer.structure_hints = hints;
    absl::StatusOr<AnalyzedPage> shell = AnalyzePage(
        "<html><head><title>Express - Men's &amp; Women's Clothing</title>"
        "</head>"
        "<body><div id='app'></div><script>render()</script></body></html>",
        "http://shop.example/", "", "", options);
    ASSERT_TRUE(shell.ok()) << shell.status();
    EXPECT_EQ(MainContent(shell->segmentation), "") << hints;
    EXPECT_EQ(shell->metadata.title, "Express - Men's & Women's Clothing");
    absl::StatusOr<AnalyzedPage> page = AnalyzePage(
        "<html><head><title>Pruning roses</title></head><body><p>Prune "
        "roses in late winter, just as the buds swell: cut each stem back "
        "to an outward-facing bud, at a slant, and take out dead wood "
        "first.</p></body></html>",
        "http://garden.example/", "", "", options);
    ASSERT_TRUE(page.ok()) << page.status();
    const std::string main = MainContent(page->segmentation);
    EXPECT_THAT(main, HasSubstr("outward-facing bud")) << hints;
    EXPECT_THAT(main, Not(HasSubstr("Pruning roses"))) << hints;
  }
}

TEST(AnalyzerTest, SiteTemplateLinksMakeNavigation) {
  std::string page =
      "<div><ul><li><a href='http://example.com/long/section/one'>A rather "
      "long section name that is not short</a></li><li><a "
      "href='http://example.com/long/section/two'>Another rather long "
      "section name here</a></li></ul></div>";
  absl::flat_hash_set<std::string> tmpl = {
      "http://example.com/long/section/one",
      "http://example.com/long/section/two"};
  AnalyzerContext context;
  context.site_template_links = &tmpl;
  absl::StatusOr<AnalyzedPage> a =
      AnalyzePage(page, "http://example.com/", "", "", {}, context);
  ASSERT_TRUE(a.ok());
  ASSERT_FALSE(a->segmentation.blocks.empty());
  bool nav = false;
  for (const Block& b : a->segmentation.blocks) {
    if (b.type == BlockType::kNavigation) nav = true;
  }
  EXPECT_TRUE(nav);
}

// Three paragraphs of one article in sibling divs, sharing few tokens.
const char kSplitArticle[] = R"html(<html><body>
<div id="nav"><a href="/a">Home</a> <a href="/b">World</a> <a href="/c">Sport</a></div>
<div id="story">
<div class="para">The river flooded the valley overnight, and residents of three villages were
evacuated to the school gymnasium, where volunteers handed out blankets, soup and dry clothes.
Engineers said the levee had held for forty years before this week's storm.</div>
<div class="para">Meanwhile, markets in the capital opened lower on Tuesday; traders cited
uncertainty about interest rates, a weaker currency, and disappointing quarterly earnings from two
large manufacturers, which had warned of slowing demand abroad.</div>
</div>
<div class="box"><div>Advertisement: compare mortgage offers, loans, credit cards and savings
accounts from dozens of providers, free, with no obligation, in minutes; terms apply, see site.</div></div>
</body></html>)html";

// An article deep in the page and, outside its ancestor three levels up,
// another post's excerpt that shares its words: similar by the paper's
// token test, but no part of the article.
constexpr char kArticleAndExcerpt[] = R"html(<html><body>
<div id="page"><div id="main"><div id="inner"><div class="story">The city council
voted on Tuesday to expand the river park, adding two miles of trail along the water,
a new footbridge and a playground; the mayor said the work would begin in the spring
and that the budget, approved last year, would cover the cost of the park and the trail.
Residents who spoke at the meeting praised the plan, though some asked about parking.</div>
</div></div></div>
<div class="featured"><div class="box">The council also voted last year on the river
park budget, and the mayor said at the meeting that the trail and the park would be
the work of the city for the spring; residents asked about the cost of the plan.</div></div>
</body></html>)html";

TEST(AnalyzerTest, SimilarityCountsNearTheReference) {
  absl::StatusOr<AnalyzedPage> page =
      AnalyzePage(kArticleAndExcerpt, "http://example.com/", "", "", {});
  ASSERT_TRUE(page.ok());
  std::string main = MainContent(page->segmentation);
  EXPECT_THAT(main, HasSubstr("expand the river park"));
  EXPECT_THAT(main, Not(HasSubstr("also voted last year")));

  // Anywhere on the page, as in the paper: the excerpt passes the token test.
  PageOptions anywhere;
  anywhere.analyzer.similarity_levels = -1;
  page =
      AnalyzePage(kArticleAndExcerpt, "http://example.com/", "", "", anywhere);
  ASSERT_TRUE(page.ok());
  main = MainContent(page->segmentation);
  EXPECT_THAT(main, HasSubstr("expand the river park"));
  EXPECT_THAT(main, HasSubstr("also voted last year"));

  PageOptions recall;
  recall.analyzer.favor = Favor::kRecall;
  page = AnalyzePage(kArticleAndExcerpt, "http://example.com/", "", "", recall);
  ASSERT_TRUE(page.ok());
  EXPECT_THAT(MainContent(page->segmentation),
              HasSubstr("also voted last year"));
}

TEST(AnalyzerTest, ContainerAndTemplateReadings) {
  PageOptions paper;
  paper.analyzer.container_levels = -1;
  paper.analyzer.same_template = false;
  absl::StatusOr<AnalyzedPage> strict =
      AnalyzePage(kSplitArticle, "http://example.com/", "", "", paper);
  ASSERT_TRUE(strict.ok());
  std::string strict_main = MainContent(strict->segmentation);
  // The paper's token test alone keeps only one of the two paragraphs.
  EXPECT_EQ(strict_main.find("river") == std::string::npos,
            strict_main.find("markets") != std::string::npos);

  PageOptions container = paper;
  container.analyzer.container_levels = 1;
  absl::StatusOr<AnalyzedPage> c =
      AnalyzePage(kSplitArticle, "http://example.com/", "", "", container);
  ASSERT_TRUE(c.ok());
  std::string main = MainContent(c->segmentation);
  EXPECT_THAT(main, HasSubstr("river flooded"));
  EXPECT_THAT(main, HasSubstr("markets in the capital"));
  EXPECT_THAT(main, Not(HasSubstr("mortgage")));

  PageOptions tmpl = paper;
  tmpl.analyzer.same_template = true;
  absl::StatusOr<AnalyzedPage> t =
      AnalyzePage(kSplitArticle, "http://example.com/", "", "", tmpl);
  ASSERT_TRUE(t.ok());
  main = MainContent(t->segmentation);
  EXPECT_THAT(main, HasSubstr("river flooded"));
  EXPECT_THAT(main, HasSubstr("markets in the capital"));
  EXPECT_THAT(main, Not(HasSubstr("mortgage")));
}

// MainContent prints the pieces of the content blocks in page order: the
// outer cell's last line comes after the inner table, as on the screen.
TEST(MainContentTest, PiecesInPageOrder) {
  Segmentation seg;
  Block cell;
  cell.type = BlockType::kContent;
  cell.text = "Here are this year's events:\nPrevious features";
  cell.start = 0;
  cell.pieces.push_back({1, 60});
  Block table;
  table.index = 1;
  table.type = BlockType::kContent;
  table.text = "Milan-San Remo\nDistance: 183 mi";
  table.start = 28;
  seg.blocks = {cell, table};
  EXPECT_EQ(MainContent(seg),
            "Here are this year's events:\n\nMilan-San Remo\nDistance: 183 "
            "mi\n\nPrevious features");
  std::vector<ContentLine> lines = ContentLinesInPageOrder(seg);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[3].block, 0);
  EXPECT_EQ(lines[3].line, 1);

  // A block that is not content is left out; so are its pieces.
  seg.blocks[1].type = BlockType::kNoise;
  EXPECT_EQ(MainContent(seg),
            "Here are this year's events:\nPrevious features");
}

TEST(AnalyzerTest, ShortArticleFallsBackToTheReferenceBlock) {
  // Nothing here passes Bayes (no block has 200 characters of own text).
  absl::StatusOr<AnalyzedPage> a = AnalyzePage(
      "<div><a href='/'>Home</a> <a href='/x'>Blog</a></div>"
      "<div><p>Repurposing food as art is creative.</p><p>via "
      "fubiz.net</p></div>",
      "http://example.com/", "", "");
  ASSERT_TRUE(a.ok());
  EXPECT_THAT(MainContent(a->segmentation),
              HasSubstr("Repurposing food as art is creative."));
  EXPECT_THAT(MainContent(a->segmentation), Not(HasSubstr("Home")));
}

// Structure hints (AnalyzerOptions::structure_hints).
constexpr char kArticleWithComments[] = R"html(<html><body>
<div id="page">
<div class="post"><h1>Flood at the river</h1>
<div class="entry-content">The river flooded the lower town on Monday night, and
residents were evacuated to the school gymnasium, where volunteers handed out
blankets, soup and dry clothes. Engineers said the levee had held for forty years.</div>
<div class="entry-content-more">The mayor said repairs would start next week.</div>
</div>
<div id="comments"><div class="comment-body">I lived in the lower town for
twenty years, and every spring we feared this; the levee was never inspected, the
council never listened, and now look at it: houses ruined, cars gone, and the
insurers will say it was an act of God, as they always do, and nobody will pay
for any of it, not the council, not the state, not the engineers who signed it.
What a disgrace this is, and what a shame for all of us who warned them.</div></div>
<div class="footer"><div>About this site: a local newspaper since 1901, owned by its
readers' cooperative, printed in the old mill, delivered every morning, read by all.</div></div>
</div></body></html>)html";

TEST(AnalyzerTest, HintsPickTheArticleOverALongerComment) {
  absl::StatusOr<AnalyzedPage> a =
      AnalyzePage(kArticleWithComments, "http://example.com/", "", "");
  ASSERT_TRUE(a.ok());
  std::string main = MainContent(a->segmentation);
  EXPECT_THAT(main, HasSubstr("river flooded"));
  EXPECT_THAT(main, HasSubstr("repairs would start"));  // short paragraph
  EXPECT_THAT(main, Not(HasSubstr("disgrace")));        // the comment
  EXPECT_THAT(main, Not(HasSubstr("cooperative")));     // the footer

  // The paper's reading takes the longest block, the comment.
  PageOptions paper;
  paper.analyzer.container_levels = -1;
  paper.analyzer.same_template = false;
  paper.analyzer.structure_hints = false;
  absl::StatusOr<AnalyzedPage> p =
      AnalyzePage(kArticleWithComments, "http://example.com/", "", "", paper);
  ASSERT_TRUE(p.ok());
  EXPECT_THAT(MainContent(p->segmentation), HasSubstr("disgrace"));
}

TEST(AnalyzerTest, FavorRecallKeepsTheComment) {
  // CleanEval's gold keeps reader comments, Dragnet's article gold does not:
  // --favor recall keeps a comment that naive Bayes accepts.
  PageOptions recall;
  recall.analyzer.favor = Favor::kRecall;
  absl::StatusOr<AnalyzedPage> a =
      AnalyzePage(kArticleWithComments, "http://example.com/", "", "", recall);
  ASSERT_TRUE(a.ok());
  std::string main = MainContent(a->segmentation);
  EXPECT_THAT(main, HasSubstr("river flooded"));
  EXPECT_THAT(main, HasSubstr("disgrace"));

  PageOptions precision;
  precision.analyzer.favor = Favor::kPrecision;
  absl::StatusOr<AnalyzedPage> p = AnalyzePage(
      kArticleWithComments, "http://example.com/", "", "", precision);
  ASSERT_TRUE(p.ok());
  EXPECT_THAT(MainContent(p->segmentation), Not(HasSubstr("disgrace")));
}

TEST(AnalyzerTest, LinkDenseArticleIsStillTheReference) {
  // A third of the article's text is links: Bayes's anchor-ratio feature
  // rejects it, but it is the only prose on the page.
  std::string article =
      "<div class='story'>Officials in <a href='/a'>Springfield County</a> "
      "said "
      "on Monday that the <a href='/b'>new water treatment plant</a> would "
      "open "
      "in March, two years late; <a href='/c'>the contractor</a> blamed the "
      "supply of pumps, and the <a href='/d'>state auditor</a> has opened an "
      "inquiry into the costs, which rose by a third.</div>";
  absl::StatusOr<AnalyzedPage> a = AnalyzePage(
      "<html><body><div class='menu'><a href='/1'>Home</a> <a href='/2'>News"
      "</a> <a href='/3'>Sport</a></div>" +
          article +
          "<div>Contact us: newsroom, 1 Main Street, Springfield; phone 555."
          "</div></body></html>",
      "http://example.com/", "", "");
  ASSERT_TRUE(a.ok());
  std::string main = MainContent(a->segmentation);
  EXPECT_THAT(main, HasSubstr("water treatment plant"));
  EXPECT_THAT(main, Not(HasSubstr("Sport")));
}

TEST(AnalyzerTest, WrapperOfArticleAndSidebarIsNotAgainst) {
  // "content-sidebar-wrap" holds both; the article inside it stays content.
  std::string text;
  for (int i = 0; i < 30; ++i) text += "The council met again today. ";
  absl::StatusOr<AnalyzedPage> a = AnalyzePage(
      "<html><body><div id='content-sidebar-wrap'><div id='content'>"
      "<div class='entry-content'>" +
          text +
          "</div></div><div id='sidebar'><div class='textwidget'>Sign up for "
          "our daily email digest and follow us on all the networks today, "
          "free of charge, with a single click, unsubscribe at any time.</div>"
          "</div></div></body></html>",
      "http://example.com/", "", "");
  ASSERT_TRUE(a.ok());
  std::string main = MainContent(a->segmentation);
  EXPECT_THAT(main, HasSubstr("council met again"));
  EXPECT_THAT(main, Not(HasSubstr("digest")));
}

TEST(CjkTest, CountsHanKanaAndHangul) {
  // 2 Han + 3 Hangul + 2 kana; Latin letters, CJK punctuation and a
  // truncated sequence do not count.
  EXPECT_EQ(CountCjk("中文abc한국어カナ。\xe4\xb8"), 7u);
  EXPECT_EQ(CountCjk(""), 0u);
}

TEST(CjkTest, CjkCharactersWeighTwiceInTheSizeFeature) {
  // 150 Chinese characters say what about 300 Latin letters do: over the
  // 200-code-point size threshold, so the posterior is higher than that of
  // 150 Latin letters with the same punctuation.
  Block latin = MakeBlock(150, 0);
  Block cjk = MakeBlock(150, 0);
  cjk.cjk_length = 150;
  EXPECT_EQ(WeightedOwnText(latin), 150u);
  EXPECT_EQ(WeightedOwnText(cjk), 300u);
  EXPECT_GT(ContentPosterior(cjk, BayesModel{}, 0, false, 10),
            ContentPosterior(latin, BayesModel{}, 0, false, 10));
}

// A Chinese news page: the blocks are named in pinyin ("zhengwen" body text,
// "pinglun" comments, "ft" footer); the readers' comments are longer than
// the article.
constexpr char kChineseNews[] =
    R"html(<html><head><meta charset="utf-8"></head><body>
<div class="wrap">
<div class="zhengwen">本市昨日召开防汛工作会议，部署今年汛期各项准备工作。会议要求各区在五月底前完成河道清淤和堤防检查，储备足够的抢险物资，并组织一次全市范围的应急演练。市水务局负责人介绍，去年汛期全市共转移群众三千余人，没有发生人员伤亡。今年将新建六座排涝泵站，改造老旧小区排水管网四十公里。</div>
<div class="editor">责任编辑：王明</div>
<div class="pinglun"><div class="item">网友小王：我家住在河边的老小区，每年夏天一下大雨楼下就积水，车子都开不出去，希望这次改造真的能落实到位，不要又是只开会不干活。网友李先生：排涝泵站早就该建了，前几年说了好多次都没有动静，老百姓等得太久了，这次一定要让大家看到实实在在的变化。网友阿华：应急演练很有必要，很多人根本不知道发大水的时候该往哪里跑，社区应该多组织几次培训，让老人和孩子也知道怎么办。</div></div>
<div class="ft">本站所有文章版权归原作者所有，未经许可不得转载，违者必究。联系电话：010-12345678，地址：北京市某某区某某路一号。</div>
</div></body></html>)html";

TEST(AnalyzerTest, ChineseHintsPickTheArticleOverComments) {
  absl::StatusOr<AnalyzedPage> a =
      AnalyzePage(kChineseNews, "http://example.com/", "", "");
  ASSERT_TRUE(a.ok());
  std::string main = MainContent(a->segmentation);
  EXPECT_THAT(main, HasSubstr("防汛工作会议"));
  EXPECT_THAT(main, Not(HasSubstr("网友")));      // the comments
  EXPECT_THAT(main, Not(HasSubstr("未经许可")));  // the footer
  EXPECT_THAT(main, Not(HasSubstr("责任编辑")));  // the editor line
}

TEST(AnalyzerTest, ChineseBodyNamesAreHintsFor) {
  // The names Chinese CMSs give the article body: 正文 abbreviated, the TRS
  // editor's output, the font-size switch's wrapper.
  for (const char* name : {"left_zw", "rwb_zw", "TRS_Editor", "fontzoom",
                           "ozoom", "articalContent"}) {
    absl::StatusOr<html::Document> doc =
        html::ParseUtf8(absl::StrCat("<div class=\"", name, "\">x</div>"));
    ASSERT_TRUE(doc.ok());
    int32_t div = -1;
    for (size_t i = 0; i < doc->nodes.size(); ++i) {
      if (doc->nodes[i].tag == "div") div = static_cast<int32_t>(i);
    }
    ASSERT_GE(div, 0);
    EXPECT_EQ(ElementHint(doc->nodes[div]), kFor) << name;
  }
}

TEST(AnalyzerTest, AnElementThatSaysBothSaysNothing) {
  auto hint = [](const std::string& attributes) {
    absl::StatusOr<html::Document> doc =
        html::ParseUtf8(absl::StrCat("<div ", attributes, ">x</div>"));
    EXPECT_TRUE(doc.ok());
    for (const html::Node& n : doc->nodes) {
      if (n.tag == "div") return ElementHint(n);
    }
    return static_cast<int8_t>(kNoHint);
  };
  // Sina's blog body: its id names the keyword-ad area, its class the text.
  EXPECT_EQ(hint("id=\"sina_keyword_ad_area2\" class=\"articalContent\""),
            kNoHint);
  // A comment section stays against whatever else it says.
  EXPECT_EQ(hint("id=\"comments\" class=\"entry\""), kAgainst);
  // Within one attribute a word against still decides.
  EXPECT_EQ(hint("class=\"article-ad\""), kAgainst);
  EXPECT_EQ(hint("id=\"ad\""), kAgainst);
  EXPECT_EQ(hint("class=\"story\""), kFor);
}

TEST(AnalyzerTest, FigureTextIsNotContent) {
  // A figure's text is its caption and credit, even when the caption is a
  // plain <div> long enough to be a block of its own inside the article.
  std::string text;
  for (int i = 0; i < 20; ++i) text += "The river rose again overnight. ";
  absl::StatusOr<AnalyzedPage> a = AnalyzePage(
      "<html><body><div class='story'><div>" + text +
          "</div><figure><img src='/flood.jpg'><div>Residents wade through "
          "the flooded main street on Monday morning, seen from the old "
          "bridge by our photographer.</div></figure><div>" +
          text + "</div></div></body></html>",
      "http://example.com/", "", "");
  ASSERT_TRUE(a.ok());
  std::string main = MainContent(a->segmentation);
  EXPECT_THAT(main, HasSubstr("river rose again"));
  EXPECT_THAT(main, Not(HasSubstr("Residents wade")));
}

// The main content of `page` analysed with `options` ("" when it fails).
std::string MainText(const std::string& page, const PageOptions& options = {}) {
  absl::StatusOr<AnalyzedPage> a =
      AnalyzePage(page, "http://example.com/", "", "", options);
  EXPECT_TRUE(a.ok()) << a.status();
  return a.ok() ? MainContent(a->segmentation) : "";
}

TEST(AnalyzerTest, FavorRecallTakesPostsNamedCommentsAsTheReference) {
  // A forum thread whose every post is named a comment (Invision
  // Community's "ipsComment"), with a help box of plain prose below it:
  // favoring recall, a post is the reference, the posts are content and
  // the help box is not; balanced, the help box is the reference, as for
  // an article with reader comments.
  std::string page =
      "<html><body><h1>Which lens for birds?</h1><div class='wrap'><div "
      "class='thread'>";
  for (int i = 0; i < 5; ++i) {
    absl::StrAppend(&page, "<div class='ipsComment'><div class='post'><p>",
                    "Reply ", i, ":");
    for (int j = 0; j < 4; ++j) {
      absl::StrAppend(&page,
                      " I have used the long zoom for two winters on the "
                      "marsh and it is sharp enough for herons and geese "
                      "at a distance, though heavy to carry all day.");
    }
    absl::StrAppend(&page, "</p></div></div>");
  }
  absl::StrAppend(&page,
                  "</div></div><div class='bottom'><div class='help'><p>To "
                  "turn on notifications, click "
                  "the padlock next to the address bar, choose the site's "
                  "settings and allow them for this forum.</p></div></div>"
                  "</body></html>");
  PageOptions recall;
  recall.analyzer.favor = Favor::kRecall;
  recall.analyzer.by_type = false;
  const std::string main = MainText(page, recall);
  for (int i = 0; i < 5; ++i) {
    EXPECT_THAT(main, HasSubstr(absl::StrCat("Reply ", i, ":")));
  }
  EXPECT_THAT(main, Not(HasSubstr("padlock")));
  PageOptions balanced;
  balanced.analyzer.by_type = false;
  EXPECT_THAT(MainText(page, balanced), Not(HasSubstr("Reply 0:")));
}

// A news article's frame inside the article's own element: breadcrumbs,
// a share bar, a photo caption, an ad label, a tag list. Their element
// names say what they are, so their lines are not main text; a paragraph
// that only begins with a dated span, and an id that is a URL, do not
// count.
TEST(AnalyzerTest, LinesInsideElementsNamedAgainstAreLeftOut) {
  std::string para;
  for (int i = 0; i < 6; ++i) {
    para += "The council voted on Tuesday to widen the lanes downtown. ";
  }
  const std::string page =
      "<html><body><article><div class='breadcrumbs'><a href='/n'>News</a> "
      "&gt; <a href='/l'>Local</a></div>"
      "<div class='share-tools'><a href='/f'>Facebook</a> <a "
      "href='/t'>Twitter</a></div>"
      "<div class='body'><p>" +
      para +
      "</p><figure><img src='/b.jpg'><figcaption>Cyclists on Main Street on "
      "Tuesday evening.</figcaption></figure><div "
      "class='ad-slot'>Advertisement</div><p><span "
      "class='date'>March 4.</span> The plan's first phase begins in "
      "the fall, the engineers said.</p><p>" +
      para +
      "</p></div><div class='tags'><a href='/t/b'>Bikes</a> <a "
      "href='/t/c'>City Council</a></div></article></body></html>";
  const std::string main = MainText(page);
  EXPECT_THAT(main, HasSubstr("widen the lanes"));
  EXPECT_THAT(main, HasSubstr("March 4. The plan's first phase"));
  for (const char* gone :
       {"Local", "Facebook", "Cyclists on Main", "Advertisement", "Bikes"}) {
    EXPECT_THAT(main, Not(HasSubstr(gone))) << gone;
  }
  PageOptions off;
  off.analyzer.against_lines = false;
  EXPECT_THAT(MainText(page, off), HasSubstr("Cyclists on Main"));

  // A block whose only text is a caption (a WordPress image block between
  // paragraphs) is left out whole.
  const std::string image_block =
      "<html><body><div class='entry'><p>" + para +
      "</p><div class='wp-block-image'><figure><img src='/b.jpg'>"
      "<figcaption>The balcony in August, with the tubs along the "
      "wall.</figcaption></figure></div><p>" +
      para + "</p></div></body></html>";
  EXPECT_THAT(MainText(image_block), Not(HasSubstr("balcony")));
  // An id that is a URL names a page, not a part of one.
  const std::string url_id =
      "<html><body><div><p>" + para +
      "</p><div id='http://example.com/share/page.html'><p>The second "
      "paragraph of the page, with words of its own.</p></div><p>" +
      para + "</p></div></body></html>";
  EXPECT_THAT(MainText(url_id), HasSubstr("words of its own"));
}

// A picture's caption is the only text of the smallest element around it
// that holds the picture; the same short line beside a bullet image in its
// own paragraph, or in a table row with decoration images, stays.
TEST(AnalyzerTest, PictureCaptionsAreLeftOut) {
  std::string para;
  for (int i = 0; i < 5; ++i) {
    para += "新华社北京5月12日电，各地相继出台政策措施支持新能源汽车消费。";
  }
  auto page = [&](const std::string& middle) {
    return "<html><body><div class='article'><p>" + para + "</p>" + middle +
           "<p>" + para + "</p></div></body></html>";
  };
  EXPECT_THAT(
      MainText(page("<div class='pic'><img src='/car.jpg'><p>"
                    "图为消费者在展厅内选购汽车。新华社记者 摄</p></div>")),
      Not(HasSubstr("图为")));
  EXPECT_THAT(MainText(page("<table><tr><td><img src='/car.jpg'></td></tr>"
                            "<tr><td>图为消费者在展厅内选购汽车。</td></tr>"
                            "</table>")),
              Not(HasSubstr("图为")));
  // Kept: a bullet image in the line's own paragraph, a decoration in the
  // line's table row, an icon, a GIF.
  EXPECT_THAT(MainText(page("<ul><li><img src='/dot.png'>充电设施建设加快推进"
                            "</li></ul>")),
              HasSubstr("充电设施"));
  EXPECT_THAT(MainText(page("<table><tr><td><img src='/corner.png'></td><td>"
                            "充电设施建设加快推进</td></tr></table>")),
              HasSubstr("充电设施"));
  EXPECT_THAT(MainText(page("<div><img src='/i.png' width='16'><p>"
                            "充电设施建设加快推进</p></div>")),
              HasSubstr("充电设施"));
  EXPECT_THAT(MainText(page("<div><img src='/bar.gif'><p>充电设施建设加快推进"
                            "</p></div>")),
              HasSubstr("充电设施"));
}

// A lesson plan as 1990s pages wrote it: two paragraphs with a table of
// steps between them, each step a cell of its own, too short for naive
// Bayes and too deep to be a paragraph next to the reference. Between the
// paragraphs in reading order and written as sentences, the steps are
// content (AnalyzerOptions::fill_gaps); a list of short menu entries there
// is not.
TEST(AnalyzerTest, ShortSentencesBetweenContentAreContent) {
  std::string para;
  for (int i = 0; i < 8; ++i) {
    para += "Students interview successful leaders about their careers, ";
  }
  std::string steps;
  for (const char* step :
       {"Brainstorm successful leaders from various careers.",
        "Translate the interview videotapes into English.",
        "Install framed photos and sketches on the wall."}) {
    // A table per step, its bullet in a cell of its own (the bullet
    // becomes a block beside the step's: RecognizerOptions::mixed_blocks).
    absl::StrAppend(&steps, "<table><tr><td>*</td><td><font>", step,
                    "</font></td></tr></table>");
  }
  const std::string page = absl::StrCat(
      "<html><body><table><tr><td><p>", para,
      "and present them.</p><table><tr><td>", steps, "</td></tr></table><p>",
      para,
      "then they celebrate.</p><div><div><div>All Apps<br>Money<br>"
      "Travel and Food</div></div></div><p>",
      para, "and go home.</p></td></tr></table></body></html>");
  std::string main = MainText(page);
  EXPECT_THAT(main, HasSubstr("present them"));
  EXPECT_THAT(main, HasSubstr("then they celebrate"));
  EXPECT_THAT(main, HasSubstr("and go home"));
  EXPECT_THAT(main, HasSubstr("Brainstorm successful leaders"));
  EXPECT_THAT(main, HasSubstr("Install framed photos"));
  EXPECT_THAT(main, Not(HasSubstr("Travel and Food")));

  PageOptions no_gaps;
  no_gaps.analyzer.fill_gaps = false;
  EXPECT_THAT(MainText(page, no_gaps),
              Not(HasSubstr("Brainstorm successful leaders")));
}

// A table per race, each headed by a cell with the race's name only: too
// short for the prose rule of the gaps, the lone line between two content
// blocks is a heading of the article; a noise word there is not.
TEST(AnalyzerTest, ALoneHeadingBetweenContentIsContent) {
  std::string course;
  for (int i = 0; i < 5; ++i) {
    course += "The course climbs twice before a flat run to the finish line. ";
  }
  auto race = [&](const std::string& name) {
    return absl::StrCat("<table><tr><td colspan=2><p><strong>", name,
                        "</strong></td></tr><tr><td>", course,
                        "</td></tr></table>");
  };
  const std::string page = absl::StrCat(
      "<html><body><div><p>", course, "</p>", race("Milan-San Remo, Italy"),
      race("Tour Of Flanders"), race("Advertisement"), "</div></body></html>");
  std::string main = MainText(page);
  EXPECT_THAT(main, HasSubstr("Milan-San Remo, Italy"));
  EXPECT_THAT(main, HasSubstr("Tour Of Flanders"));
  EXPECT_THAT(main, Not(HasSubstr("Advertisement")));

  PageOptions no_gaps;
  no_gaps.analyzer.fill_gaps = false;
  EXPECT_THAT(MainText(page, no_gaps), Not(HasSubstr("Tour Of Flanders")));
}

// A listing of job ads in one template: the short ad naive Bayes rejects
// is still a record of the reference's element and class; a block of
// another class that is as short is not.
TEST(AnalyzerTest, ShortRecordsOfTheReferencesTemplateAreContent) {
  std::string ad;
  for (int i = 0; i < 6; ++i) {
    ad += "Answer the phones, file the invoices and greet visitors. ";
  }
  const std::string page = absl::StrCat(
      "<html><body><div><div class='ad'>", ad,
      "</div></div><div><div><div><div><div class='ad'>Part time. Keep the "
      "books of a small bakery downtown</div><div class='promo'>Get weekly "
      "updates from us, short and sweet and interesting</div></div></div>"
      "</div></div></body></html>");
  std::string main = MainText(page);
  EXPECT_THAT(main, HasSubstr("Answer the phones"));
  EXPECT_THAT(main, HasSubstr("small bakery"));
  EXPECT_THAT(main, Not(HasSubstr("weekly updates")));

  PageOptions no_template;
  no_template.analyzer.same_template = false;
  EXPECT_THAT(MainText(page, no_template), Not(HasSubstr("small bakery")));
}

// A forum thread: posts of one template, each a header (the author, maybe
// linked to a profile, and the date) above the post's text. The headers of
// the posts are content, the first post's too (who wrote what, and when);
// the links under the thread are not, nor is a lone article's byline.
TEST(AnalyzerTest, HeadersOfRecordsAreContent) {
  auto post = [](const std::string& author, const std::string& text) {
    std::string body;
    for (int i = 0; i < 5; ++i) body += text + " ";
    return absl::StrCat(
        "<div class='post'><div class='posttop'><div class='username'>", author,
        "</div><div class='date'>05-06-2005, 05:28 PM</div></div>",
        "<div class='posttext'>", body, "</div></div>");
  };
  const std::string first =
      post("Samurai Mike", "The duels are lifeless most of the time, sadly.");
  const std::string second =
      post("Litmus Configuration",
           "I liked the opening battle above the planet a lot more.");
  const std::string thread = absl::StrCat(
      "<html><body><div id='thread'>", first, second,
      post("<a href='/member/7'>Holy Diver</a>",
           "We knew the answer since the second film came out."),
      "</div><div><a href='/report'>Report abuse</a> <a href='/new'>New "
      "thread</a></div></body></html>");
  std::string main = MainText(thread);
  EXPECT_THAT(main, HasSubstr("The duels are lifeless"));
  EXPECT_THAT(main, HasSubstr("Samurai Mike"));
  EXPECT_THAT(main, HasSubstr("Litmus Configuration"));
  EXPECT_THAT(main, HasSubstr("Holy Diver"));
  EXPECT_THAT(main, HasSubstr("05-06-2005, 05:28 PM"));
  EXPECT_THAT(main, Not(HasSubstr("Report abuse")));

  // Two posts are no list of records.
  const std::string two = absl::StrCat("<html><body><div id='thread'>", first,
                                       second, "</div></body></html>");
  EXPECT_THAT(MainText(two), Not(HasSubstr("Samurai Mike")));

  PageOptions no_template;
  no_template.analyzer.same_template = false;
  EXPECT_THAT(MainText(thread, no_template), Not(HasSubstr("Samurai Mike")));
}

// A blog's front page: each day's entry holds its date and its title,
// linked to the entry's own page, above the post's element. The record is
// the day's entry (the highest repeated ancestor), and its date counts
// although "date" marks an element against; the share links under each
// post, more than one link, do not.
TEST(AnalyzerTest, DatesAndTitlesOfABlogsEntriesAreContent) {
  auto entry = [](const std::string& day, const std::string& title,
                  const std::string& text) {
    std::string body;
    for (int i = 0; i < 5; ++i) body += text + " ";
    return absl::StrCat(
        "<div class='entry_date'><h3 class='date'>", day,
        "</h3><h4 class='title'><a href='/archives/", day.size(), "'>", title,
        "</a></h4><div class='entry'><div class='entry_body'>", body,
        "</div><div class='share'><a href='/t'>Tweet</a> <a "
        "href='/f'>Like</a></div></div></div>");
  };
  const std::string page = absl::StrCat(
      "<html><body><div id='entries'>",
      entry("Wednesday, December 13. 2006", "Reviewed on a podcast",
            "Here is a really nice review of the player and its features."),
      entry("Monday, December 11. 2006", "A new server",
            "Thanks to the donations of our fundraiser we rented a server."),
      entry("Friday, December 1. 2006", "A misfeature",
            "Please look at the screenshot above, it hurts to look at it."),
      "</div></body></html>");
  std::string main = MainText(page);
  EXPECT_THAT(main, HasSubstr("Reviewed on a podcast"));
  EXPECT_THAT(main, HasSubstr("Monday, December 11. 2006"));
  EXPECT_THAT(main, HasSubstr("A misfeature"));
  EXPECT_THAT(main, HasSubstr("rented a server"));
  EXPECT_THAT(main, Not(HasSubstr("Tweet")));
}

TEST(MainContentTest, RepeatedLongLinesAreWrittenOnce) {
  Segmentation seg;
  Block a, b, c;
  a.text = "Flood closes the lower town\nThe river rose overnight.";
  b.text = "Flood closes the lower town\n$105\n$105";  // headline again
  c.text = "Flood closes the lower town";              // only a repeat
  for (Block* x : {&a, &b, &c}) x->type = BlockType::kContent;
  seg.blocks = {a, b, c};
  // Short lines may repeat (table cells, list items); a block left empty is
  // dropped.
  EXPECT_EQ(MainContent(seg),
            "Flood closes the lower town\nThe river rose overnight.\n\n"
            "$105\n$105");
}

// Lines that recur within one block are the fields of a list of records,
// not a headline shown twice: they stay.
TEST(MainContentTest, LinesRepeatedWithinABlockStay) {
  Segmentation seg;
  Block a;
  a.type = BlockType::kContent;
  a.text =
      "Title: Grade span and achievement\nLanguage: English (US)\n"
      "Title: Revival of the K-8 school\nLanguage: English (US)";
  seg.blocks = {a};
  EXPECT_EQ(MainContent(seg), a.text);
}

// Chinese news and blog pages written after the templates of people.cn,
// Sina news, Sina's blog and NetEase (GBK): the story's paragraphs are the
// main text; the font-size switch, the editor's and the site's lines, the
// share line, related links and, on the blog, the tags bar are not.
TEST(AnalyzerTest, ChineseTemplates) {
  struct Case {
    const char* file;
    std::vector<std::string> kept, dropped;
  };
  const Case cases[] = {
      {"zh_people.html",
       {"全国秋粮已收获过半", "保护农民种粮积极性"},
       {"小字号", "责编", "分享让更多人看到", "相关新闻", "东北地区玉米",
        "人民网版权所有"}},
      {"zh_sina.html",
       {"多地陆续出台促进消费的新举措", "增强居民消费信心"},
       {"责任编辑", "新浪声明", "相关阅读", "新闻排行", "分享到"}},
      {"zh_sina_blog.html",
       {"国庆假期第三天", "最好提前订好住处"},
       {"博客等级", "新浪BLOG意见反馈留言板"}},
      {"zh_netease_gbk.html",
       {"老旧小区改造进度明显提速", "探索可持续的改造模式"},
       {"责任编辑", "相关推荐", "热点新闻", "网易公司版权所有"}},
  };
  for (const Case& c : cases) {
    const std::string page = ReadFixture(c.file);
    ASSERT_FALSE(page.empty()) << c.file;
    const std::string text = MainText(page);
    for (const std::string& k : c.kept) {
      EXPECT_THAT(text, HasSubstr(k)) << c.file;
    }
    for (const std::string& d : c.dropped) {
      EXPECT_THAT(text, Not(HasSubstr(d))) << c.file;
    }
  }
}

}  // namespace
}  // namespace fcrawl::quark
