// The canonical URL a page declares for itself (RFC 6596): a
// <link rel="canonical" href="..."> in the document's <head> or a
// "Link: <...>; rel="canonical"" response header, as Google, Bing, Nutch and
// StormCrawler read them.
//
// What the crawl does with it (worker/page_commit.h, scope.follow_canonical):
// the page is recorded under its canonical URL (link state, stored page,
// pages.jsonl, graph export) and the URL it was fetched as becomes an alias
// of it (LinkRecord.canonical_url), never fetched again; links to the alias
// reach the canonical page in the ranker (GraphPage.aliases). The crawl
// accepts a declaration only when it is trustworthy and cheap to honour:
// http(s), on the same registrable domain as the page (a page must not be
// able to claim another site's URL), in scope, owned by this worker, and
// not yet fetched or in flight (a canonical fetched already keeps its own
// page; the alias is then a duplicate of it).
//
// Hostile input: the response head is bounded by the fetcher, the page's
// elements by the HTML parser's caps; each source is read once, linearly.
// Declarations that disagree (two different canonicals) are ignored, as
// search engines ignore them.
//
// Thread-safety: free functions over values.
#ifndef FCRAWL_PROTOCOL_CANONICAL_H_
#define FCRAWL_PROTOCOL_CANONICAL_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "core/html.h"

namespace fcrawl::protocol {

// The targets of the "Link" headers' rel="canonical" link-values in a
// response head (status line and headers, CRLF or LF line ends), as
// written (not resolved).
std::vector<std::string> HeaderCanonicals(absl::string_view response_head);

// The hrefs of <link rel="canonical"> elements inside <head>, as written.
std::vector<std::string> DocumentCanonicals(const html::Document& doc);

// The one canonical URL the page declares, resolved against the document's
// base URL and normalised (url::Parse): nullopt when it declares none, when
// its declarations name different URLs, or when the one it names is not an
// absolute http(s) URL or is on another registrable domain than
// `page_url`.
std::optional<std::string> DeclaredCanonical(const html::Document& doc,
                                             absl::string_view response_head,
                                             absl::string_view page_url);

}  // namespace fcrawl::protocol

#endif  // FCRAWL_PROTOCOL_CANONICAL_H_
