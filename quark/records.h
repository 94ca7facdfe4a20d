// Pages of records: a forum thread's posts, a blog's entries, a listing's
// ads, each built from one template. Internal to the quark library: the
// analyzer (analyzer.cc) uses these to keep a list of records together.
//
// Thread-safety: functions of their arguments; MarkRecordHeaders writes
// only the blocks it is given.
#ifndef FCRAWL_QUARK_RECORDS_H_
#define FCRAWL_QUARK_RECORDS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/html.h"
#include "quark/quark.h"

namespace fcrawl::quark {

// An element's place in its template: its tag, class and parent's tag
// ("div.post/body"). The records of one list share it.
std::string TemplateSignature(const html::Document& doc, int32_t n);

// The record headers rule of Analyze (AnalyzerOptions::same_template with
// structure hints). The record is the highest ancestor of the reference
// block's root, at most three levels up, whose template holds content
// blocks three times or more. In each record with content, a block before
// its first content block in reading order that is a line or two (at most
// 80 code points, at most one link) without a noise word becomes content
// with Block::record_header set, unless it is marked against and a comment
// section, sidebar or footer (IsStrongAgainst) lies between it and its
// record (a mark by a metadata word such as "date" or "author" does not
// keep a record's header out). `order` is the blocks in reading order,
// `hint` and `noisy` per block as Analyze found them, `reference` the
// reference block's index.
void MarkRecordHeaders(const html::Document& doc,
                       const std::vector<size_t>& order,
                       const std::vector<int8_t>& hint,
                       const std::vector<uint8_t>& noisy,
                       bool reference_against, size_t reference,
                       std::vector<Block>* blocks);

// Whether MarkRecordHeaders found a list of records on the page (a content
// block is a record's header): such a page is no single article, and the
// article header and footer rules leave it alone.
bool HoldsRecords(const Segmentation& seg);

}  // namespace fcrawl::quark

#endif  // FCRAWL_QUARK_RECORDS_H_
