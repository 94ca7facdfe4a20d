// A piece of untrusted input as an error message shows it, for every
// component that names bad input in its errors (URLs, crawl configs).
#ifndef FCRAWL_CORE_QUOTE_H_
#define FCRAWL_CORE_QUOTE_H_

#include <cstddef>
#include <string>

#include "absl/strings/string_view.h"

namespace fcrawl {

// `s` in single quotes with its control bytes (below 0x20, and 0x7F) and
// the bytes of ill-formed UTF-8 written as \xNN, so a message never carries
// raw control bytes or broken text into a log or a terminal; well-formed
// UTF-8 as it is (a Chinese keyword stays readable). At most `max_bytes`
// of `s` are shown (a sequence cut there is shown as bytes), then
// "...' (N bytes)": the input may be kilobytes of junk.
std::string QuoteInput(absl::string_view s, size_t max_bytes = 80);

}  // namespace fcrawl

#endif  // FCRAWL_CORE_QUOTE_H_
