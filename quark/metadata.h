// Page metadata beside the main content: title, byline, date and language
// (issue 15: what an article reader shows above the text, and what the
// extraction benchmarks' gold leaves out of the body).
#ifndef FCRAWL_QUARK_METADATA_H_
#define FCRAWL_QUARK_METADATA_H_

#include "quark/quark.h"

namespace fcrawl::quark {

// Reads the metadata (PageMetadata, quark/quark.h) of an analysed page
// (Analyze must have run: the language guess looks at the content blocks).
// Linear in the nodes. AnalyzePage calls it once and keeps the result in
// AnalyzedPage::metadata; read that instead of calling this again.
PageMetadata ExtractMetadata(const AnalyzedPage& page);

}  // namespace fcrawl::quark

#endif  // FCRAWL_QUARK_METADATA_H_
