// Conversion of an analysed page to the records of proto/page.proto and
// proto/corpus.proto.
#ifndef FCRAWL_QUARK_PAGE_PROTO_H_
#define FCRAWL_QUARK_PAGE_PROTO_H_

#include <cstddef>

#include "proto/corpus.pb.h"
#include "proto/page.pb.h"
#include "quark/quark.h"

namespace fcrawl::quark {

proto::Page ToProto(const AnalyzedPage& page);

proto::BlockType ToProto(BlockType type);
proto::LinkKind ToProto(html::LinkKind kind);
proto::MediaType ToProto(html::MediaType media);

// A record's main text and Markdown together are at most this long, half
// of formats/corpus.h's line bound (kMaxCorpusLineBytes, 64 MiB), which
// leaves room for JSON escapes: the Markdown of a longer main text is left
// out rather than making a line the readers refuse.
inline constexpr size_t kMaxCorpusMarkdownBytes = size_t{32} << 20;

struct CorpusRecordOptions {
  // A page of thousands of blocks or media links keeps the first ones: a
  // record stays a few kilobytes beside its main text.
  size_t max_blocks = 512;
  size_t max_media = 256;
  // Also main_markdown (quark/markdown.h); the crawl config's
  // corpus.markdown.
  bool markdown = false;
};

// What the page itself says for its corpus record (proto/corpus.proto): url
// (the document's), title, byline, date and language (quark/metadata.h),
// main text (and its Markdown when asked for), the block summary and the
// media resources (quark/media.h). The crawl fills in the rest (fetch
// time, the on-topic decision, ...).
proto::CorpusRecord ToCorpusRecord(const AnalyzedPage& page,
                                   const CorpusRecordOptions& options = {});

}  // namespace fcrawl::quark

#endif  // FCRAWL_QUARK_PAGE_PROTO_H_
