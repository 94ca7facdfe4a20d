// The main content as Markdown (CommonMark with GitHub's pipe tables): the
// form retrieval-augmented generation pipelines ask for, since headings,
// lists, code and tables tell a chunker where a passage begins and what it
// is about.
//
// Contract:
//  - The lines are MainContentLines (quark.h), the same and in the same
//    order as MainContent prints: with the Markdown syntax taken away
//    (quote and list markers, heading marks, code fences, the table's
//    pipes and delimiter row, backslash escapes) the words are
//    MainContent's words. Only a <pre> line's white space differs: it
//    keeps the page's own line breaks.
//  - Structure comes from the page's elements around each line's first
//    text node (Block::line_nodes): <h1>…<h6> → "#"…"######"; <li> → "- "
//    or "N. " (<ol>, from its start attribute), nested lists indented;
//    <pre> → a fenced code block; <blockquote> → "> "; the rows of a data
//    table (no nested table, list, heading or long cell; two rows and two
//    columns at least) → a pipe table, its header the first row; any other
//    line → a paragraph of its own, blank lines between.
//  - A link keeps its anchor text only: the text is what a reader and an
//    embedding model read, and a URL's tokens would be words MainContent
//    does not have. Inline <code> and emphasis are not marked: a line's
//    text is one string and where each of its text nodes begins is not
//    kept.
//  - A line that would read as Markdown syntax ("# 1", "- x", "1. x",
//    "> x", "```", "[x]: y", a table row) has its first character (or the
//    digits' "." / ")") escaped with a backslash.
//  - Hostile input: at most kMaxMarkdownAncestors elements above a text
//    node are read, lists nest at most kMaxMarkdownListDepth and quotes
//    kMaxMarkdownQuoteDepth deep, tables have at most kMaxMarkdownColumns
//    columns (the rest of a row joins its last cell). When the structured
//    form still outgrows 4 × the plain text + 4 KiB (thousands of
//    one-letter cells padded to a wide table), every line is a paragraph
//    instead, which is never more than twice the plain text and 4 bytes.
//
// Thread-safety: reentrant.
#ifndef FCRAWL_QUARK_MARKDOWN_H_
#define FCRAWL_QUARK_MARKDOWN_H_

#include <cstddef>
#include <string>

#include "core/html.h"
#include "quark/quark.h"

namespace fcrawl::quark {

inline constexpr int kMaxMarkdownAncestors = 64;
inline constexpr int kMaxMarkdownListDepth = 6;
inline constexpr int kMaxMarkdownQuoteDepth = 4;
inline constexpr size_t kMaxMarkdownColumns = 64;

// The main content of the page `doc` segmented as `segmentation` (Analyze
// must have run on it), as Markdown; "" when there is none. `doc` must be
// the document `segmentation` was recognised from.
std::string MainContentMarkdown(const html::Document& doc,
                                const Segmentation& segmentation);

}  // namespace fcrawl::quark

#endif  // FCRAWL_QUARK_MARKDOWN_H_
