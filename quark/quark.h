// Quark page segmentation and block analysis ([QUARK] ch. 3; docs/papers.md
// "Quark page segmentation and block analysis").
//
//   html::Document ──Recognize──► Segmentation (disjoint blocks, no text lost)
//                  ──Analyze────► each block typed content / related links /
//                                 navigation / noise, topic-group titles
//
// Recognize walks the DOM bottom-up once (O(nodes)); Analyze tokenizes each
// block's text once. Neither recurses, so any nesting depth is safe.
//
// Thread-safety: all functions are reentrant; results are plain values.
#ifndef FCRAWL_QUARK_QUARK_H_
#define FCRAWL_QUARK_QUARK_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/html.h"

namespace fcrawl::quark {

// Tag classes of QuarkRecognizer. S wins over B, B over A (the paper lists
// FIELDSET under S and B, TD under B and A). HTML5 sectioning tags are B.
enum class TagClass : uint8_t {
  kSuper,       // S: a block at once
  kBig,         // B: a block when ripe
  kLayout,      // L: passes text and itself up
  kDisplay,     // D: passes text up
  kAffiliated,  // A: passes text up
  kOther,       // unknown tags behave like D
};
TagClass ClassifyTag(absl::string_view lowercase_tag);

enum class BlockType : uint8_t {
  kContent,       // B_T
  kRelatedLinks,  // B_LR
  kNavigation,    // B_LN
  kNoise,         // B_LA
};
absl::string_view BlockTypeName(BlockType type);  // content, related_links, ...

struct RecognizerOptions {
  // A B node becomes a block when its pending text has at least this many
  // code points, a CJK character counting kCjkWeight...
  size_t min_block_text = 40;
  // ...or when at least this share of its pending element children are L.
  double min_layout_ratio = 0.5;
  // C class: tag names (lower-case) that make an S/B/L node its own block.
  std::vector<std::string> custom_tags;
  // C class: RE2 patterns; an S/B/L node whose own text matches is a block.
  std::vector<std::string> custom_patterns;
  // Our extension (off in --paper): an S/B/L element that names itself a
  // comment section, sidebar or footer (quark/hints.h, IsStrongAgainst) is
  // a block whenever it holds text or links, so a short footer list does
  // not pass its text up into the page wrapper's block, where it would be
  // judged with whatever else the wrapper says.
  bool hint_blocks = true;
  // Our extension (off in --paper): a B element that holds a block and
  // text of its own beside it is a block too, however short that text: a
  // forum post's author and date line beside the post's text, a blog
  // entry's date and title above its body stay with their record instead
  // of passing up into a far ancestor's block with every other record's.
  bool mixed_blocks = true;

  absl::Status Validate() const;
};

struct Block {
  int32_t index = 0;  // document order
  int32_t node = -1;  // root element in html::Document::nodes
  std::string tag;
  // The block's own text (nested blocks excluded), whitespace collapsed, with
  // a line break where layout elements break the text.
  std::string text;
  size_t text_length = 0;         // code points of `text`
  size_t anchor_text_length = 0;  // code points inside <a>
  // Code points of Chinese, Japanese or Korean script in `text` (Han, kana,
  // Hangul syllables): such a character carries about what two or three
  // Latin letters do, so the analyzer's length thresholds weigh them more.
  size_t cjk_length = 0;
  size_t start = 0;  // code-point offset of the block's text in the page text
  // Where the block's text resumes after the text of a nested block (a
  // layout cell's text that goes on after an inner table): the line of
  // `text` the piece begins on and its code-point offset in the page text.
  // The first piece (line 0, `start`) is not listed. A piece always begins
  // a new line, so MainContent can print every piece in page order.
  struct Piece {
    int32_t line = 0;
    size_t start = 0;
  };
  std::vector<Piece> pieces;
  std::vector<int32_t> links;  // indices into html::Document::links
  bool has_custom_tag = false;

  // Filled by Analyze().
  BlockType type = BlockType::kNoise;
  double content_probability = 0;  // naive Bayes posterior
  // The text-similarity test said content (computed for the blocks naive
  // Bayes accepts and the reference block; false for the rest).
  bool similar_to_main = false;
  std::string group_title;  // topic-group title of a link block
  // The header (author, date, title) of one record of a list of records,
  // a forum's posts or a blog's entries: content, and no article header
  // (Analyze's record headers).
  bool record_header = false;
  // The block recurs on most pages of its site (focus/site_templates.h).
  // Not set by Analyze, which sees one page: the crawler fills it in.
  bool site_template = false;
  // Lines of `text` (0-based, '\n'-separated) that are the article's
  // header: the headline repeating the title, the byline, the date line
  // (quark/article_header.h). MainContent leaves them out; they are the
  // page's metadata.
  std::vector<int32_t> header_lines;
  // Lines that are the article's closing lines ("Tweet", "Tags: …", a
  // copyright notice; quark/article_footer.h), sorted. MainContent leaves
  // them out.
  std::vector<int32_t> footer_lines;
  // Lines that the page's declared article body (JSON-LD articleBody,
  // quark/declared.h) does not hold, in a block that shows that body:
  // captions, "Advertisement", teasers. Sorted; MainContent leaves them out.
  std::vector<int32_t> undeclared_lines;
  // Lines inside an element of the block whose tag, class or id says it is
  // not the article (a share bar, breadcrumbs, a caption, a tag list, an
  // "Advertisement" slot: quark/hints.h MarkAgainstLines). Sorted;
  // MainContent and the header and footer rules leave them out.
  std::vector<int32_t> against_lines;
  // The first and last text node (indices into html::Document::nodes) of
  // each line of `text`, in line order: where in the page a line comes from.
  struct LineNodes {
    int32_t first = -1;
    int32_t last = -1;
  };
  std::vector<LineNodes> line_nodes;
  // `text` split by a default text::Tokenizer, in text order, when
  // Analyze needed it (the blocks that can be content; `tokenized` says
  // which): a caller splitting blocks with the same tokenizer takes these
  // instead of splitting the text again (worker/parse_pool.cc).
  std::vector<std::string> tokens;
  bool tokenized = false;
};

struct Segmentation {
  std::vector<Block> blocks;
  size_t text_length = 0;  // code points over all blocks
};

// Segments the page. Every text node ends up in exactly one block; blocks
// without text and without links are dropped.
absl::StatusOr<Segmentation> Recognize(const html::Document& doc,
                                       const RecognizerOptions& options = {});

// Naive Bayes likelihoods P(feature | content), P(feature | non-content) and
// the thresholds that define the seven binary features ([QUARK] §3.2).
struct BayesModel {
  double prior_content = 0.16;
  double decision = 0.5;  // content if the posterior is above this
  // custom tag present
  double custom_tag_content = 0.29, custom_tag_other = 0.01;
  // noise words present and text shorter than `noise_max_text`
  double noise_content = 0.04, noise_other = 0.45;
  size_t noise_max_text = 100;
  // punctuation per 10 code points above `punctuation_per_10`
  double punct_scale_content = 0.85, punct_scale_other = 0.25;
  double punctuation_per_10 = 0.3;
  // punctuation count above `punctuation_count`
  double punct_count_content = 0.77, punct_count_other = 0.34;
  size_t punctuation_count = 4;
  // non-anchor text longer than `non_anchor_text`
  double size_content = 0.84, size_other = 0.06;
  size_t non_anchor_text = 200;
  // more than `link_count` links
  double links_content = 0.10, links_other = 0.71;
  size_t link_count = 20;
  // anchor / non-anchor text above `anchor_ratio`
  double anchor_ratio_content = 0.08, anchor_ratio_other = 0.85;
  double anchor_ratio = 0.3;
};

// What to prefer when a block is in doubt (like trafilatura's
// favor_precision / favor_recall); kBalanced is the best F1 on the dev sets.
enum class Favor : uint8_t { kBalanced, kPrecision, kRecall };

struct AnalyzerOptions {
  // Text-similarity test: a block is content when the shared tokens of its
  // sorted token stream and the longest block's, divided by the tokens of the
  // smaller stream, reach this.
  double sim_threshold = 0.3;
  // Our extensions of the similarity test (the paper compares tokens only;
  // docs/benchmarks.md measures each). A block also counts as similar when it
  // lies inside the reference block's ancestor this many levels up (content
  // is contiguous; -1: off)...
  int container_levels = 1;
  // ...or when its root has the reference's tag, class and parent tag (one
  // template per post, comment or listing).
  bool same_template = true;
  // Structure hints (our extension; off in --paper): the reference block is
  // chosen by its own text weighted by what its element and its ancestors
  // say they are (<article>, <main>, class/id/itemprop/role words such as
  // "article", "post-body" for; "comment", "footer", "sidebar", "related"
  // against); blocks marked as comments, footers, sidebars, bylines,
  // captions, forms etc. are not content unless the reference is marked the
  // same way; and short paragraph blocks next to the reference, under its
  // container, join it when they are plain text.
  bool structure_hints = true;
  // With structure hints: the similarity test counts only for blocks
  // inside the reference's ancestor this many levels up (-1: anywhere on
  // the page, as in the paper; so with kRecall). Other posts' excerpts,
  // teasers and sidebar prose share the article's words, stop words above
  // all.
  int similarity_levels = 3;
  // With structure hints: a run of short plain-text blocks between two
  // content blocks in reading order is content (jusText's context rule).
  bool fill_gaps = true;
  // With structure hints: the headline (a line repeating the page's
  // title), the byline and the date line at the top of the main text are
  // metadata, not main text (quark/article_header.h).
  bool article_header = true;
  // With structure hints: the closing lines after the article's last
  // paragraph (share and print controls, tags, credits, copyright, the
  // reporter's and editor's notes) are not main text
  // (quark/article_footer.h).
  bool article_footer = true;
  // With structure hints: lines of a content block that lie wholly inside
  // an element whose tag, class or id is against (breadcrumbs, a share bar,
  // a caption, a tag list, an ad slot) are not main text
  // (quark/hints.h MarkAgainstLines).
  bool against_lines = true;
  // With structure hints: the article body the page declares in its
  // JSON-LD (AnalyzerContext::declared_body), when it can be trusted, says
  // which blocks and lines are content (quark/declared.h).
  bool declared_body = true;
  // With structure hints: once the page's type is known
  // (AnalyzedPage::page_type), the content of a service page, a listing, a
  // collection, a product or a documentation page (and of an article of
  // which Analyze kept a small part) is widened to every block outside the
  // page's frame, and a sure forum thread or documentation page is analysed
  // again favoring recall (quark/page_content.h). AnalyzePage does this,
  // not Analyze, which does not know the type.
  bool by_type = true;
  // kPrecision: the container is one level closer (container_levels - 1,
  // at least 0). kRecall: one level further, and with structure hints a
  // block marked against that Bayes accepts is judged like the others,
  // and may be the reference (a thread whose posts are named comments).
  Favor favor = Favor::kBalanced;
  BayesModel bayes;
  // Words that mark boilerplate (lower-case; matched as substrings of the
  // lower-cased text). Empty: the built-in English and Chinese list.
  std::vector<std::string> noise_words;
  // A non-content block is a link block when anchor text is at least this
  // share of its text.
  double link_block_anchor_share = 0.5;
  // Related links: distinct tokens shared with the content (or the topic),
  // over the block's distinct anchor tokens, at least this.
  double related_min_overlap = 0.2;
  // Navigation: mean anchor length at most this many code points and at
  // least this share of links to the page's own host.
  size_t navigation_max_mean_anchor = 24;
  double navigation_min_same_host = 0.6;
  // Topic-group titles: at most this many code points.
  size_t group_title_max_length = 10;
};

// What Analyze may know beyond the page itself.
struct AnalyzerContext {
  // Topic terms (tokenized, lower-case); links sharing them are related.
  std::vector<std::string> topic_terms;
  // Links that appear on many pages of this site (site template). When given,
  // a link block whose links are mostly in this set is navigation.
  const absl::flat_hash_set<std::string>* site_template_links = nullptr;
  // The article body the page declares in its JSON-LD
  // (DeclaredArticle::body; AnalyzePage reads it): with structure hints and
  // AnalyzerOptions::declared_body, a second opinion on what is content
  // (quark/declared.h). Must outlive the call.
  absl::string_view declared_body;
};

// Types every block: content when both the text-similarity test and naive
// Bayes say so; otherwise related links, navigation or noise.
void Analyze(const html::Document& doc, Segmentation* segmentation,
             const AnalyzerOptions& options = {},
             const AnalyzerContext& context = {});

// Naive Bayes posterior P(content | features) of one block, exposed for tests.
// `hyperlinks` counts the block's <a>/<area> links (images and frames are not
// links a reader follows).
double ContentPosterior(const Block& block, const BayesModel& model,
                        size_t hyperlinks, bool has_noise_word,
                        size_t punctuation);

// Code points of `utf8` in the Han, kana and Hangul-syllable blocks
// (U+3040–U+30FF, U+3400–U+4DBF, U+4E00–U+9FFF, U+AC00–U+D7AF,
// U+F900–U+FAFF). Malformed UTF-8 is skipped byte by byte.
size_t CountCjk(absl::string_view utf8);

// A block's non-anchor text in code points, a CJK character counting
// kCjkWeight (a Chinese word is one or two characters, an English one five
// or six letters and a space): the length the size thresholds compare, so a
// Chinese paragraph is as long to them as its English translation.
inline constexpr double kCjkWeight = 2.0;
size_t WeightedOwnText(const Block& block);

// Shared tokens of two sorted token streams / tokens of the smaller one.
double SortedTokenSimilarity(const std::vector<std::string>& a,
                             const std::vector<std::string>& b);

// A line of a content block's text (a block of type kContent that is not a
// site template). `text` points into the block, which must outlive it.
struct ContentLine {
  int32_t block = 0;  // index into Segmentation::blocks
  int32_t line = 0;   // 0-based line of Block::text
  absl::string_view text;
};

// Every line of the content blocks in page order: a block's pieces
// (Block::pieces) sorted among the other blocks' text by their offset in
// the page text, so a layout cell's text that goes on after an inner table
// comes after that table, where a reader sees it.
std::vector<ContentLine> ContentLinesInPageOrder(const Segmentation& seg);

// The lines of the main content, in page order: ContentLinesInPageOrder
// without the blocks' header, footer, undeclared and against lines and
// without a line that repeats a line of an earlier block. MainContent
// prints them; the Markdown form (quark/markdown.h) renders the same
// lines, so both forms say the same words.
std::vector<ContentLine> MainContentLines(const Segmentation& segmentation);

// The text of the content blocks in page order, one block per paragraph:
// MainContentLines, a block's lines on lines of their own, a blank line
// between blocks.
std::string MainContent(const Segmentation& segmentation);

// Options for the whole pipeline, as `quark` and the worker use it.
struct PageOptions {
  html::ParseOptions parse;
  RecognizerOptions recognizer;
  AnalyzerOptions analyzer;
};

// Page metadata beside the main content (quark/metadata.h reads it): what
// an article reader shows above the text, and what the extraction
// benchmarks' gold leaves out of the body.
struct PageMetadata {
  // og:title / twitter:title, else the JSON-LD article's headline, else
  // <title>; whitespace collapsed.
  std::string title;
  // <meta name="author"> / article:author (when not a URL), else the JSON-LD
  // article's authors, else the text of an element marked itemprop="author",
  // rel="author" or class/id "byline" or "author" (at most 120 code points).
  std::string byline;
  // article:published_time, itemprop="datePublished" (content or datetime),
  // <meta name="date">, else the JSON-LD article's datePublished, else the
  // first <time datetime>; as written.
  std::string date;
  // <html lang>, else Content-Language or og:locale, else the JSON-LD
  // article's inLanguage, lower-cased, as written ("en-us", "zh-cn"); else a
  // guess from the content's script when it is mostly CJK ("zh", "ja" with
  // kana, "ko" with Hangul); else "".
  std::string language;
};

// What the page declares about itself in schema.org JSON-LD (read by
// ReadDeclaredArticle, quark/declared.h). Fields are "" when absent;
// strings only, whitespace collapsed.
struct DeclaredArticle {
  std::string headline;
  std::string author;  // the authors' names, ", "-separated
  std::string date_published;
  std::string language;  // inLanguage
  // articleBody with markup removed (some sites put HTML there); "" when
  // the page declares more than one article with a body (a front page
  // listing teasers: none of them is the page's text).
  std::string body;
  // Every schema.org @type the page's JSON-LD names (any object, any
  // depth), without its "http://schema.org/" or "schema:" prefix, each
  // once, in the order met; at most kMaxDeclaredTypes. What kind of page
  // it says it is (Product, DiscussionForumPosting, CollectionPage, ...):
  // quark/page_type.h reads them.
  std::vector<std::string> types;
};
inline constexpr size_t kMaxDeclaredTypes = 32;

// What kind of page it is (quark/page_type.h): the seven types of the
// WCXB extraction benchmark, or other.
enum class PageType : uint8_t {
  kArticle,
  kForum,
  kProduct,
  kCollection,
  kListing,
  kDocumentation,
  kService,
  kOther,  // no type is probable enough
};
// "article", "forum", "product", "collection", "listing", "documentation",
// "service", "other".
absl::string_view PageTypeName(PageType type);

struct AnalyzedPage {
  html::Document document;
  Segmentation segmentation;
  // Filled by AnalyzePage (ExtractMetadata, after Analyze).
  PageMetadata metadata;
  // Filled by AnalyzePage (before Analyze, which reads its body).
  DeclaredArticle declared;
  // Filled by AnalyzePage (GuessPageType, after Analyze): the page's type
  // and the model's probability for it.
  PageType page_type = PageType::kOther;
  double page_type_probability = 0;
};

// Parse + Recognize + Analyze.
absl::StatusOr<AnalyzedPage> AnalyzePage(absl::string_view bytes,
                                         absl::string_view url,
                                         absl::string_view content_type,
                                         absl::string_view charset_override,
                                         const PageOptions& options = {},
                                         const AnalyzerContext& context = {});

// QuarkHtmlBuilder ([QUARK] §3.3): the page re-serialised with every block
// outlined and coloured by type, and a legend; scripts are removed so the
// view is safe to open.
std::string RenderView(const AnalyzedPage& page);

}  // namespace fcrawl::quark

#endif  // FCRAWL_QUARK_QUARK_H_
