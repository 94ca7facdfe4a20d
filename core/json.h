// Writing JSON by hand: strings, numbers and times as the project's
// JSON-lines files and JSON outputs write them (fetch logs, pages, ranker
// output, the worker's summaries, crawl-eval's report).
//
// Strings may hold any bytes: invalid UTF-8 is replaced with U+FFFD (one per
// maximal invalid subsequence, as the Unicode standard recommends), '"' and
// '\' are escaped, control characters (and DEL, U+2028, U+2029) are
// \u-escaped, so the output is valid UTF-8 and valid JSON whatever a page
// or a URL held. NaN and infinite numbers are written as null.
//
// Thread-safety: every function is thread-safe.
#ifndef FCRAWL_CORE_JSON_H_
#define FCRAWL_CORE_JSON_H_

#include <string>

#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace fcrawl::json {

// `s` as a quoted JSON string (see the escaping rules above).
std::string Quote(absl::string_view s);
// Appends Quote(s) to *out.
void AppendQuoted(std::string* out, absl::string_view s);
// Shortest round-trip form of `v`; "null" for NaN and infinities.
std::string Number(double v);
// RFC 3339 UTC with milliseconds: "2024-05-01T12:34:56.789Z".
std::string Rfc3339Millis(absl::Time t);

}  // namespace fcrawl::json

#endif  // FCRAWL_CORE_JSON_H_
