// The article's closing lines (quark/article_footer.h).
#include "quark/article_footer.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "core/text.h"
#include "quark/article_header.h"
#include "quark/records.h"

namespace fcrawl::quark {
namespace {

// A line that is nothing but one of these (its words, lower-cased): a
// control of the page around the story, not the story.
bool IsControl(const std::string& words) {
  static constexpr absl::string_view kControls[] = {
      "tweet",
      "print",
      "email",
      "e mail",
      "share",
      "pin it",
      "rss",
      "comments",
      "reply",
      "read more",
      "continue reading",
      "next post",
      "previous post",
      "buffer",
      "advertisement",
      "about these ads",
      "remove this ad",
      "loading",
      "post a comment",
      "leave a reply",
      "leave a comment",
      "related posts",
      "related",
      "related articles",
      "related stories",
      "more popular stories",
      "share and enjoy",
      "share this",
      "like this",
      "no comments",
      "comments are closed",
      "the comments to this entry are closed",
      "facebook",
      "twitter",
      "pinterest",
      "linkedin",
      "reddit",
      "google",
      "share on facebook",
      "share on twitter",
      "back to top"};
  for (absl::string_view c : kControls) {
    if (words == c) return true;
  }
  return false;
}

// The line without the opening bracket of a note: "[via X]", "(Reporting
// by …)", "【编辑：…】", "【打印】".
absl::string_view WithoutOpeningBracket(absl::string_view line) {
  for (absl::string_view open : {"[", "(", "（", "【", "〔"}) {
    if (absl::ConsumePrefix(&line, open)) break;
  }
  return line;
}

}  // namespace

bool IsPageControl(absl::string_view line) {
  line = absl::StripAsciiWhitespace(line);
  if (line.empty() || text::CountCodePoints(line) > kMaxFooterCodePoints) {
    return false;
  }
  const std::vector<std::string> words = HeaderWords(line);
  if (words.empty()) return false;
  if (IsControl(absl::StrJoin(words, " "))) return true;
  // "Follow @reporter": a link to a social account.
  if (words.size() <= 4 && words[0] == "follow" &&
      absl::StrContains(line, "@")) {
    return true;
  }
  const absl::string_view l = WithoutOpeningBracket(line);
  // Print, close the window, back to the top, bookmark, send to a friend,
  // comment; the text's font-size switch ("【字号：大 中 小】", "小字号").
  static constexpr absl::string_view kPrefixes[] = {
      "打印",     "关闭", "返回顶部", "收藏",   "推荐给朋友",
      "我要评论", "字号", "字体",     "大字号", "小字号"};
  for (absl::string_view p : kPrefixes) {
    if (absl::StartsWith(l, p)) return true;
  }
  // "分享让更多人看到", "分享：": a share control, short (a paragraph may
  // open with 分享, "sharing").
  constexpr size_t kMaxShareLine = 12;
  if (absl::StartsWith(l, "分享") &&
      text::CountCodePoints(l) <= kMaxShareLine) {
    return true;
  }
  // "返回网易首页 返回新闻首页": back to the site's home page.
  return absl::StartsWith(l, "返回") && absl::StrContains(l, "首页");
}

bool IsFooterLine(absl::string_view line) {
  if (IsPageControl(line)) return true;
  line = absl::StripAsciiWhitespace(line);
  if (line.empty() || text::CountCodePoints(line) > kMaxFooterCodePoints) {
    return false;
  }
  const std::string lower = absl::AsciiStrToLower(line);
  absl::string_view l = WithoutOpeningBracket(lower);
  static constexpr absl::string_view kPrefixes[] = {
      // Tags and categories.
      "tags:", "tagged as:", "tagged with:", "tagged:", "filed under",
      "posted in:", "categories:", "category:",
      // Sources and credits.
      "source:", "sources:", "image:", "images:", "photo:", "photos:",
      "photo courtesy", "photo credit", "image credit", "image courtesy",
      "via ", "see original", "see also:",
      // The reporter's and editor's notes.
      "write to ", "a version of this article appeared", "reporting by",
      "editing by", "additional reporting by", "contact the reporter",
      "follow ", "©", "(c) ", "copyright ",
      // Subscriptions.
      "sign up", "sign-up", "subscribe", "don't miss",
      "read more:", "click here", "more from ",
      // Chinese: editor in charge, editor, source, original title,
      // corrections, share to, end, this article's source, related reading,
      // extended reading, statement, disclaimer, all rights reserved,
      // reprinting.
      "责任编辑", "编辑：", "编辑:", "来源：", "来源:", "原标题", "纠错",
      "分享到", "完）", "完)", "本文来源", "文章来源", "相关阅读", "延伸阅读",
      "声明：", "免责声明", "特别声明", "版权所有", "转载", "责编"};
  for (absl::string_view p : kPrefixes) {
    if (absl::StartsWith(l, p)) return true;
  }
  // A site's statement: "新浪声明：", "本站声明：", "网易声明：".
  constexpr size_t kMaxStatementPrefix = 16;  // bytes: 4 Chinese characters
  for (absl::string_view mark : {"声明：", "声明:"}) {
    size_t at = l.find(mark);
    if (at != absl::string_view::npos && at <= kMaxStatementPrefix) {
      return true;
    }
  }
  return absl::StrContains(lower, "all rights reserved");
}

void MarkArticleFooter(const std::vector<ContentLine>& lines,
                       Segmentation* seg) {
  for (Block& b : seg->blocks) b.footer_lines.clear();
  if (HoldsRecords(*seg)) return;
  std::vector<const ContentLine*> closing;
  size_t i = lines.size();
  for (; i > 0 && closing.size() < static_cast<size_t>(kMaxFooterScan); --i) {
    const ContentLine& l = lines[i - 1];
    if (absl::StripAsciiWhitespace(l.text).empty()) continue;
    if (!IsFooterLine(l.text)) break;
    closing.push_back(&l);
  }
  // A page whose whole text is such lines keeps it.
  bool body = false;
  for (size_t j = 0; j < i && !body; ++j) {
    body = !absl::StripAsciiWhitespace(lines[j].text).empty();
  }
  if (!body) return;
  for (const ContentLine* l : closing) {
    std::vector<int32_t>& f = seg->blocks[l->block].footer_lines;
    f.insert(std::upper_bound(f.begin(), f.end(), l->line), l->line);
  }
}

}  // namespace fcrawl::quark
