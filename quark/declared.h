// What a page declares about itself in schema.org JSON-LD
// (<script type="application/ld+json">): a news or blog article's headline,
// authors, date, language and, on many news sites, its whole text
// (`articleBody`), written there for search engines and readers.
//
// quark uses the declared body as a second opinion on the main content: a
// block whose text is the declared body's is content, a block with none of
// it is not, and a line of a content block that the declaration leaves out
// (a caption, "Advertisement", a "Read more" teaser) is left out of the main
// text. It is used only when it can be trusted: one article on the page,
// its body long and not cut short with an ellipsis, most of it shown on the
// page, and not much shorter than the article's blocks (docs/quark.md, rule
// 19).
//
// Hostile input: the scripts are bounded by html::ParseOptions; JSON that
// nests deeper than kMaxJsonDepth or does not parse (RapidJSON, without
// recursion, UTF-8 checked) is skipped; at most kMaxJsonValues values of a
// script are looked at.
//
// Thread-safety: functions of their arguments.
#ifndef FCRAWL_QUARK_DECLARED_H_
#define FCRAWL_QUARK_DECLARED_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "core/html.h"
#include "quark/quark.h"

namespace fcrawl::quark {

// The page's DeclaredArticle (quark/quark.h): the first article-like object
// (@type Article or a type whose name ends in "Article", BlogPosting,
// Report) of its JSON-LD, top level, in an @graph or nested.
inline constexpr size_t kMaxJsonValues = 20000;
inline constexpr int kMaxJsonDepth = 64;
DeclaredArticle ReadDeclaredArticle(const html::Document& doc);

// What the declared body says of each block (MarkDeclaredBody's result).
enum class Declared : uint8_t {
  kUnknown,  // the declaration is not used, or the block has no words
  kIn,       // the block's text is the declared body's
  kOut,      // the block holds none of it
};

// A declared body is used when it has at least kMinDeclaredTokens tokens,
// does not end in an ellipsis, the page shows at least kMinShownShare of
// its 4-token shingles, no line of prose (kProseTokens tokens or more, under
// a fifth of them from the body) follows its end in the block that shows
// its end or in a content block beside that one, and it has at least
// kMinBodyShare of the tokens of the blocks that show it and the content
// blocks beside them: a body cut short fails one of these. Then, on the
// blocks Analyze typed:
// - a block whose lines with four or more tokens have at least half their
//   shingles in the body, over at least half its tokens, is content;
// - a content block under a fifth of whose tokens are in such lines is not
//   (its type becomes kNoise; Analyze types it again), unless it lies in
//   the article's container (the lowest common ancestor of the body's
//   blocks) and has a line of kArticleProseTokens tokens or more: a
//   paragraph the declaration may have left out;
// - in the content blocks, a line of at most kMaxUndeclaredTokens tokens
//   that the body does not hold (four tokens or more: under a fifth of its
//   shingles in the body; shorter: under half its tokens among the body's)
//   goes into Block::undeclared_lines: a caption, "Advertisement", a "Read
//   more" teaser. Longer lines are left as Analyze decided them.
// Returns a verdict per block (all kUnknown when the declaration is not
// used). bench/declared.py measures what these bounds give and cost.
inline constexpr size_t kMinDeclaredTokens = 50;
inline constexpr double kMinShownShare = 0.6;
inline constexpr double kMinBodyShare = 0.5;
inline constexpr size_t kProseTokens = 15;
inline constexpr size_t kArticleProseTokens = 25;
inline constexpr size_t kMaxUndeclaredTokens = 12;
std::vector<Declared> MarkDeclaredBody(const html::Document& doc,
                                       absl::string_view body,
                                       Segmentation* seg);

}  // namespace fcrawl::quark

#endif  // FCRAWL_QUARK_DECLARED_H_
