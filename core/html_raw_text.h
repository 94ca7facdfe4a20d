// Script and style text cut out before gumbo parses a page (internal to
// core/html.cc).
//
// gumbo tokenizes the text of every <script> and <style> one code point at a
// time, as it does a page's prose, and html.cc then throws that text away
// (only JSON-LD is kept). Scripts and styles are 17% of the bytes of the
// Dragnet pages and often half of a page written after 2015. CutRawText finds
// them with the HTML tokenizer's own rules for where they end (the script
// data states with their <!-- escapes, RAWTEXT's appropriate end tag) and
// removes what lies between each start tag and its end tag.
//
// Where a script starts is the tree builder's business as well (a <script>
// inside SVG, a frameset or a comment is not one), so this scan only
// proposes: html.cc checks every cut against the tree gumbo builds from the
// cut page and, when one does not sit between the start and end tag of an
// HTML <script> or <style> element, parses the page as it was. Scripts
// whose type is application/ld+json keep their text, and so does a script
// whose attributes the scan cannot read plainly (a character reference in
// its type).
//
// Thread-safety: a function of its arguments.
#ifndef FCRAWL_CORE_HTML_RAW_TEXT_H_
#define FCRAWL_CORE_HTML_RAW_TEXT_H_

#include <cstddef>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace fcrawl::html {

struct RawTextCut {
  size_t offset = 0;    // in the output: right after the start tag's '>'
  bool script = false;  // <script>, else <style>
};

// Returns true and fills `*out` (the page without the cut text) and `*cuts`
// (in page order) when there was text to cut; false, with both untouched,
// when there was none.
bool CutRawText(absl::string_view in, std::string* out,
                std::vector<RawTextCut>* cuts);

// Where script data that starts at `from` ends by the HTML tokenizer's
// script data states: the offset of the '<' of the end tag that closes the
// script, or npos when the script runs to the end of the input.
size_t ScriptDataEnd(absl::string_view in, size_t from);

}  // namespace fcrawl::html

#endif  // FCRAWL_CORE_HTML_RAW_TEXT_H_
