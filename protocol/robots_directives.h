// Robots directives a page gives about itself and its links, as the
// crawlers people use read them (Google's and Bing's documented rules,
// which Nutch, StormCrawler and Heritrix follow):
//  - <meta name="robots" content="noindex, nofollow">, and the same meta
//    named after the crawler's product token (<meta name="fcrawl" ...>);
//  - the X-Robots-Tag response header, optionally for one crawler only
//    ("X-Robots-Tag: fcrawl: noindex"; a header for another crawler is
//    ignored);
//  - rel="nofollow" on an <a href> or <area href>. The newer "ugc" and
//    "sponsored" are hints about the link, not requests not to follow it
//    (Google reads them as hints; Nutch and StormCrawler ignore them), so
//    they are followed.
// "none" means noindex and nofollow; "all", "index", "follow" and unknown
// directives (noarchive, max-snippet:…) change nothing. Directives add up:
// a noindex anywhere makes the page noindex.
//
// What the crawl does with them (worker/parse_pool.h, politeness options):
// a noindex page is fetched, archived and its links followed, but it is
// left out of pages.jsonl and the graph export; a nofollow page's links,
// and each rel=nofollow link, are not queued.
//
// Hostile input: the response head is already bounded by the fetcher, the
// page's meta elements by the HTML parser's node cap; a directive list is
// read once, linearly.
//
// Thread-safety: free functions over values.
#ifndef FCRAWL_PROTOCOL_ROBOTS_DIRECTIVES_H_
#define FCRAWL_PROTOCOL_ROBOTS_DIRECTIVES_H_

#include "absl/strings/string_view.h"
#include "core/html.h"

namespace fcrawl::protocol {

struct RobotsDirectives {
  bool noindex = false;
  bool nofollow = false;
};

// Adds the directives of a comma-separated list ("noindex, nofollow").
void AddDirectiveList(absl::string_view list, RobotsDirectives* d);

// The directives of the page's <meta name="robots"> elements and those
// named `product_token` (lower-case, as protocol/robots.h ProductToken gives
// it; empty: robots only).
RobotsDirectives MetaDirectives(const html::Document& doc,
                                absl::string_view product_token);

// The directives of the X-Robots-Tag headers in a response head (status
// line and headers, CRLF or LF line ends) that apply to every crawler or
// name `product_token`.
RobotsDirectives HeaderDirectives(absl::string_view response_head,
                                  absl::string_view product_token);

// Whether `link` (a link of `doc`) is an <a>/<area> whose rel has the
// token nofollow.
bool RelNofollow(const html::Document& doc, const html::Link& link);

}  // namespace fcrawl::protocol

#endif  // FCRAWL_PROTOCOL_ROBOTS_DIRECTIVES_H_
