// The nesting pre-scan that runs before gumbo (internal to core/html.cc).
//
// gumbo's tree builder checks element scopes by walking the stack of open
// elements, so its time grows with the square of the nesting depth (100,000
// nested <div>s take over a minute). LimitNesting scans the markup once,
// tracks an estimate of that stack and drops the start tags (and their end
// tags) that would open an element deeper than `max_depth`; the text inside
// is kept. Linear in the input.
//
// Thread-safety: a function of its arguments.
#ifndef FCRAWL_CORE_HTML_NESTING_H_
#define FCRAWL_CORE_HTML_NESTING_H_

#include <string>

#include "absl/strings/string_view.h"

namespace fcrawl::html {

// Returns true and fills `*out` with the rewritten markup when `in` nests
// deeper than `max_depth`; false (and `*out` untouched) when the page is
// within the limit and goes to gumbo unchanged.
bool LimitNesting(absl::string_view in, int max_depth, std::string* out);

}  // namespace fcrawl::html

#endif  // FCRAWL_CORE_HTML_NESTING_H_
