// The article's header: the lines a reader sees above the text (the
// headline that repeats the page's title, the byline, the date line).
// quark emits them as metadata (quark/metadata.h) and leaves them out of
// the main text, as article readers do and as news benchmarks' gold
// (the article body) does.
#ifndef FCRAWL_QUARK_ARTICLE_HEADER_H_
#define FCRAWL_QUARK_ARTICLE_HEADER_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "quark/metadata.h"
#include "quark/quark.h"

namespace fcrawl::quark {

// Lower-cased words of `line` (runs of ASCII letters and digits and of
// non-ASCII UTF-8 bytes), for comparing a line with the title. Exposed for
// tests.
std::vector<std::string> HeaderWords(absl::string_view line);

// What kind of header line `line` is, given the page's metadata.
enum class HeaderLine { kNone, kHeadline, kByline, kDateline };
HeaderLine ClassifyHeaderLine(absl::string_view line, const PageMetadata& meta);

// Looks at the first of `lines`, the main text's lines as
// ContentLinesInPageOrder(*seg) gives them, and sets Block::header_lines for
// the headline, byline and date lines and the page controls
// (IsPageControl) among them. Scanning stops after kMaxHeaderScan lines or
// at a line that is neither a header line nor a short label (a section name
// above the headline): the first paragraph of body text. Once, such a line
// followed by a header line is a standfirst: kept, and the scan goes on. A page
// of records (HoldsRecords) has no article header. Analyze must have run.
inline constexpr int kMaxHeaderScan = 8;
void MarkArticleHeader(const PageMetadata& meta,
                       const std::vector<ContentLine>& lines,
                       Segmentation* seg);

}  // namespace fcrawl::quark

#endif  // FCRAWL_QUARK_ARTICLE_HEADER_H_
