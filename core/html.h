// HTML parsing: bytes in any charset → a compact, bounded DOM plus the page
// facts every component needs (title, meta keywords and description, links
// of every kind with their anchor text, media).
//
// gumbo builds the tree; its types never leave html.cc (and its internal
// html_streamed.h). The DOM here is a flat vector of nodes, so a page of
// any shape is walked without recursion.
//
// Hostile input: input above `max_input_bytes` is an error; everything else
// gives a Document. Nesting deeper than `max_depth` is flattened into the
// element at that depth (its text is kept), nodes past `max_nodes` and links
// past `max_links` are dropped; each limit that was hit is named in
// `Document::warnings`.
//
// Thread-safety: Parse() is reentrant; a Document is a plain value.
#ifndef FCRAWL_CORE_HTML_H_
#define FCRAWL_CORE_HTML_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/url.h"

namespace fcrawl::html {

enum class LinkKind : uint8_t {
  kAnchor,   // <a href>
  kArea,     // <area href>
  kFrame,    // <frame src>, <iframe src>
  kImage,    // <img src>
  kObject,   // <object data>, <param value> of movie/src/url/filename
  kEmbed,    // <embed src>
  kMedia,    // <video src>, <audio src>, <source src>
  kRefresh,  // <meta http-equiv="refresh" content="N; url=...">
};
absl::string_view LinkKindName(LinkKind kind);

enum class MediaType : uint8_t { kNone, kAudio, kVideo, kAnimation };
absl::string_view MediaTypeName(MediaType type);

// Media type from the extension of a URL's path (docs/papers.md "Page
// parsing"): audio mp3 flac wav wma mid midi rm au; video avi mpeg mpg mpe
// rmvb wmv mov asf vob dat m1v m2v divx mp4 webm; animation swf.
MediaType MediaTypeOfUrl(absl::string_view url);

// Whether the extension of a URL's path names a file that is no page to
// read: the media above, images (gif jpg jpeg png bmp tif tiff ico xbm),
// archives (zip gz tgz tar z bz2 xz rar 7z hqx sit), documents kept in
// binary or printer formats (pdf ps eps dvi doc docx ppt pptx xls xlsx
// rtf) and programs (exe msi dmg iso bin jar class). A crawl that fetches
// one learns no text and no links from it. Case-insensitive; the query
// and fragment are ignored.
bool NamesUnreadableFile(absl::string_view url);

struct Node {
  enum class Kind : uint8_t { kElement, kText };
  Kind kind = Kind::kElement;
  std::string tag;  // lower-case tag name (elements only)
  // Raw text (text nodes only). White space alone is one space, except
  // inside a <pre>, where it is kept as written (line breaks of code).
  std::string text;
  int32_t parent = -1;
  std::vector<int32_t> children;
  std::vector<std::pair<std::string, std::string>> attributes;
  // The parser made this element up: a copy of a formatting element that was
  // still open when a new block began (an unclosed <a> or <b> is reopened in
  // every following paragraph); its start tag is not in the source.
  bool reconstructed = false;
  // The source never closes this element (no end tag; closed by the parser).
  bool unclosed = false;

  bool is_element() const { return kind == Kind::kElement; }
  // Value of the attribute `name` (lower-case), or nullptr.
  const std::string* Attribute(absl::string_view name) const;
};

struct Link {
  // Absolute, normalised URL; when the page has no usable base URL a relative
  // reference is kept as written and `resolved` is false.
  std::string url;
  std::string anchor_text;  // whitespace-collapsed; alt/title for non-anchors
  LinkKind kind = LinkKind::kAnchor;
  MediaType media = MediaType::kNone;
  bool resolved = true;
  int32_t node = -1;  // the element the link came from
  // `url` as the resolver parsed it (set when `resolved`): who needs the
  // URL's parts (the crawl's canonical form, host keys, a strategy's URL
  // features) takes them from here instead of parsing `url` again.
  std::optional<url::Url> parsed;
};

// link.parsed, or link.url parsed into *storage for a link made without it
// (a test's, a caller's own); null when it does not parse.
const url::Url* ParsedUrl(const Link& link, std::optional<url::Url>* storage);

struct ParseOptions {
  size_t max_input_bytes = 32u << 20;  // 32 MiB: a larger page is an error
  int max_depth = 256;                 // deeper elements are flattened
  size_t max_nodes = 1u << 21;         // ~2M nodes
  size_t max_links = 20000;
  size_t max_attributes_per_element = 64;
  size_t max_attribute_bytes = 8192;  // longer values are truncated
  // JSON-LD kept (Document::structured_data): at most this many scripts and
  // bytes over all of them; a script that does not fit is dropped whole.
  size_t max_structured_data_scripts = 16;
  size_t max_structured_data_bytes = 1u << 20;  // 1 MiB
  // Cut the text of scripts and styles (not JSON-LD) before gumbo tokenizes
  // it: the same Document, sooner (core/html_raw_text.h). false: gumbo reads
  // the page as it is, for comparison.
  bool cut_raw_text = true;
};

struct Document {
  std::string url;       // normalised page URL, "" when unknown
  std::string base_url;  // what links resolve against (<base> or url)
  std::string charset;   // charset the bytes were decoded from
  std::string charset_source;
  std::vector<Node> nodes;  // nodes[0] is the <html> element; empty page → 1
  std::string title;
  std::string keywords;
  std::string description;
  std::vector<Link> links;
  bool has_media = false;
  // The text of each <script type="application/ld+json"> (schema.org data
  // the page declares about itself: an article's headline, author, date and
  // body), in document order, as written; not parsed here.
  std::vector<std::string> structured_data;
  size_t invalid_sequences = 0;  // bytes replaced with U+FFFD while decoding
  std::vector<std::string> warnings;
};

// Decodes `bytes` (charset: `charset_override`, then BOM, the Content-Type
// header, <meta>, detection) and parses them. `url` may be empty. Errors:
// InvalidArgument for an oversized input, an unknown override charset, or an
// invalid `url`.
absl::StatusOr<Document> Parse(absl::string_view bytes,
                               absl::string_view url = "",
                               absl::string_view content_type = "",
                               absl::string_view charset_override = "",
                               const ParseOptions& options = {});

// Parses already-decoded UTF-8 (invalid sequences are replaced).
absl::StatusOr<Document> ParseUtf8(absl::string_view utf8,
                                   absl::string_view url = "",
                                   const ParseOptions& options = {});

// The first difference between two Documents (their nodes, links, title,
// meta fields, JSON-LD and warnings), described; "" when there is none.
// Tests and the page fuzzer use it to check that ParseOptions::cut_raw_text
// changes nothing.
std::string DocumentDifference(const Document& a, const Document& b);

// Whether `bytes` start like an HTML document by the HTML-sniffing rules of
// the MIME Sniffing standard (§7.1, "identifying an unknown MIME type"):
// after a byte order mark and blanks, "<!DOCTYPE HTML", "<HTML", "<HEAD",
// "<BODY", "<TITLE", "<P", "<A", "<TABLE", ... or "<!--", each
// case-insensitive and followed by a blank or '>'. For bodies a server
// could not name (files without an extension served as text/plain or
// application/octet-stream). A page saved with the headers its server sent
// (two or more "Name: value" or "HTTP/1.0 200" lines, then an empty line,
// within the first 4 KiB, as old crawl archives keep pages) is sniffed
// after them.
bool LooksLikeHtml(absl::string_view bytes);

// The URL of a <meta http-equiv="refresh"> content attribute, as the HTML
// standard's declarative refresh reads it ("5; url='/moved.html'",
// "0;URL=http://x/", "0, /next"): "" when it names none (a page that
// reloads itself). Not resolved.
std::string RefreshUrl(absl::string_view content);

// An <a> that is a hyperlink a reader sees: it has a non-empty href and its
// start tag is in the source (not a parser's copy of an unclosed <a>). Text
// of other <a> elements (<a name="top">, a stray <a>) is no link text.
bool IsHyperlinkAnchor(const Node& node);

// The text under `node` (an <img>'s alt when it comes first), whitespace
// collapsed, cut at `limit` bytes (a sequence cut in two becomes U+FFFD);
// at most 4 × `limit` + 16 nodes are visited. Text nodes are joined as they
// are (inline markup splits no word) or, with `space_between_texts`, with a
// space (for elements whose children are separate items).
std::string SubtreeText(const Document& doc, int32_t node, size_t limit,
                        bool space_between_texts = false);

// Appends `s` to `out` with &, <, >, " escaped.
void AppendEscaped(absl::string_view s, std::string* out);

}  // namespace fcrawl::html

#endif  // FCRAWL_CORE_HTML_H_
