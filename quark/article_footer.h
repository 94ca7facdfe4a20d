// The article's closing lines: what follows the last paragraph of a
// story in the same block of the page ("Tweet", "Tags: …", "Posted in …
// | comments", "Write to … at …", "© 2012 … All Rights Reserved", "（责任
// 编辑：张三）"). quark leaves them out of the main text, as article readers
// do and as news benchmarks' gold (the article body) does.
//
// Thread-safety: functions of their arguments; MarkArticleFooter writes only
// the segmentation it is given.
#ifndef FCRAWL_QUARK_ARTICLE_FOOTER_H_
#define FCRAWL_QUARK_ARTICLE_FOOTER_H_

#include <vector>

#include "absl/strings/string_view.h"
#include "quark/quark.h"

namespace fcrawl::quark {

// Whether `line` reads as a closing line: at most kMaxFooterCodePoints,
// and a share/print/comment control, a tag or category list, a source or
// credit line, a "follow us" or subscription line, a copyright notice, a
// reporter's or editor's note ("Write to …", "Reporting by …", "A version
// of this article appeared …"; 责任编辑, 来源, 原标题, 分享到, …).
inline constexpr size_t kMaxFooterCodePoints = 200;
bool IsFooterLine(absl::string_view line);

// The closing lines that are controls of the page, not notes about the
// story: "Tweet", "Share", "Print", "Email", "Follow @reporter", 打印,
// 关闭, 收藏, 字号 (the font-size switch), a short 分享 line, 返回…首页.
// IsFooterLine includes them; above the story they are page too
// (MarkArticleHeader), where a credit or a tag line may be the story's.
bool IsPageControl(absl::string_view line);

// Looks at the last of `lines`, the main text's lines as
// ContentLinesInPageOrder(*seg) gives them, from the end, at most
// kMaxFooterScan, and
// sets Block::footer_lines for the closing lines among them; the scan
// stops at the first line that is not one. A page whose text is all such
// lines, or a page of records (HoldsRecords: a forum thread, a blog's front
// page, where each record ends with its own), keeps them. Analyze must have
// run.
inline constexpr int kMaxFooterScan = 8;
void MarkArticleFooter(const std::vector<ContentLine>& lines,
                       Segmentation* seg);

}  // namespace fcrawl::quark

#endif  // FCRAWL_QUARK_ARTICLE_FOOTER_H_
