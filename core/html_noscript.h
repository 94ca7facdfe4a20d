// <noscript> read as a browser with scripts reads it (internal to
// core/html.cc).
//
// A browser that runs scripts takes the content of a <noscript> as raw text
// up to the first </noscript>, so nothing inside it can reach the rest of
// the page. gumbo parses as a browser without scripts: the content is
// markup, and a raw-text element opened there runs on past the
// </noscript>. Tag managers write <noscript><iframe src="…" /></noscript>
// ("/>" closes no <iframe>), and gumbo then reads the whole rest of the
// page as the iframe's text: a page shows its menu and nothing else (two
// of WCXB's 1,497 dev pages). CloseRawTextInNoscript ends such an element
// where the <noscript> ends. An end tag inserted where nothing was open
// (the start tag sat in a comment) is ignored by the parser, so a wrong
// guess costs nothing.
//
// Linear in the input; the output is at most the input plus one end tag
// per <noscript>.
//
// Thread-safety: a function of its arguments.
#ifndef FCRAWL_CORE_HTML_NOSCRIPT_H_
#define FCRAWL_CORE_HTML_NOSCRIPT_H_

#include <string>

#include "absl/strings/string_view.h"

namespace fcrawl::html {

// Returns true and fills `*out` with `in` plus the end tags inserted when
// some <noscript> of `in` opens a raw-text element (iframe, noembed,
// noframes, xmp, textarea, title, style, script) that it does not close
// before its </noscript>; false (and `*out` untouched) when none does.
bool CloseRawTextInNoscript(absl::string_view in, std::string* out);

}  // namespace fcrawl::html

#endif  // FCRAWL_CORE_HTML_NOSCRIPT_H_
