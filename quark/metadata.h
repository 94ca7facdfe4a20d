// Page metadata beside the main content: title, byline, date and language
// (issue 15: what an article reader shows above the text, and what the
// extraction benchmarks' gold leaves out of the body).
#ifndef FCRAWL_QUARK_METADATA_H_
#define FCRAWL_QUARK_METADATA_H_

#include <string>

#include "quark/quark.h"

namespace fcrawl::quark {

struct PageMetadata {
  // og:title / twitter:title, else <title>; whitespace collapsed.
  std::string title;
  // <meta name="author"> / article:author (when not a URL), else the text of
  // an element marked itemprop="author", rel="author" or class/id "byline"
  // or "author" (at most 120 code points).
  std::string byline;
  // article:published_time, itemprop="datePublished" (content or datetime),
  // <meta name="date">, else the first <time datetime>; as written.
  std::string date;
  // <html lang>, else Content-Language or og:locale, lower-cased, as
  // written ("en-us", "zh-cn"); else a guess from the content's script when
  // it is mostly CJK ("zh", "ja" with kana, "ko" with Hangul); else "".
  std::string language;
};

// Reads the metadata of an analysed page (Analyze must have run: the
// language guess looks at the content blocks). Linear in the nodes.
PageMetadata ExtractMetadata(const AnalyzedPage& page);

}  // namespace fcrawl::quark

#endif  // FCRAWL_QUARK_METADATA_H_
