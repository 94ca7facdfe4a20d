// "host:port" as people write it in flags and configs (a listen address,
// a crawl config's resolve entries), split once for every reader.
#ifndef FCRAWL_CORE_HOST_PORT_H_
#define FCRAWL_CORE_HOST_PORT_H_

#include <optional>

#include "absl/strings/string_view.h"

namespace fcrawl {

struct HostPort {
  absl::string_view host;   // as written: an IPv6 literal keeps its brackets
  std::optional<int> port;  // absent when the text has none
};

// Splits "host", "host:port", "[v6]" or "[v6]:port". nullopt for an empty
// host, a bare IPv6 address (more than one colon without brackets), an
// unclosed bracket or text after ']' other than ":port", whitespace or a
// control byte in the host, and a port that is not 1 to 5 digits or is
// above 65535 (0 is a port here: a listener's "any free port"; callers
// that connect refuse it). The result points into `text`.
std::optional<HostPort> SplitHostPort(absl::string_view text);

// `host` without the brackets of an IPv6 literal ("[::1]" → "::1").
absl::string_view Unbracketed(absl::string_view host);

}  // namespace fcrawl

#endif  // FCRAWL_CORE_HOST_PORT_H_
