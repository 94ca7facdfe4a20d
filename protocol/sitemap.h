// Sitemaps (sitemaps.org protocol 0.9): the files a site lists its URLs in,
// named by robots.txt "Sitemap:" lines or found at /sitemap.xml. A sitemap
// is an XML <urlset> of <url><loc>…</loc><lastmod>…</lastmod></url>, a
// <sitemapindex> of <sitemap><loc> entries naming more sitemaps, or a plain
// text file of one URL per line; any of them may be gzip-compressed.
//
// What the crawl does with them (worker/crawler.cc, config `sitemaps`):
// the URLs of a host's sitemaps enter the frontier scored by the strategy
// like the anchor-less links of a page without topic, with `lastmod` kept
// in their link records for revisits; an index's sitemaps are fetched in
// turn (one level: an index naming indexes is not followed further).
//
// Hostile input: the protocol's limits are enforced, with our own on top:
// at most `max_uncompressed_bytes` after gunzip (50 MB; a gzip bomb stops
// there with an error), at most `max_urls` entries (50,000; the rest are
// counted, not kept), locations longer than url::kMaxUrlLength dropped.
// The XML parser is libxml2's streaming reader without network access,
// DTD loading or entity substitution (no external entities, no billion
// laughs), with its default depth and text-node limits. A file that is not
// well-formed XML keeps the entries read before the error.
//
// Thread-safety: a free function over values (libxml2 is initialised
// once, thread-safely).
#ifndef FCRAWL_PROTOCOL_SITEMAP_H_
#define FCRAWL_PROTOCOL_SITEMAP_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace fcrawl::protocol {

struct SitemapLimits {
  // Entries kept per file. Default 50000 (the protocol's limit).
  int64_t max_urls = 50000;
  // Bytes after decompression. Default 50 MiB (the protocol's limit).
  int64_t max_uncompressed_bytes = int64_t{50} << 20;
};

struct SitemapEntry {
  std::string loc;  // as written, whitespace trimmed (not resolved)
  // <lastmod> as Unix milliseconds (W3C datetime: a date, or a date and
  // time with a zone); nullopt when absent or unreadable.
  std::optional<int64_t> lastmod_ms;
};

struct Sitemap {
  enum class Kind { kUrlSet, kIndex, kText };
  Kind kind = Kind::kUrlSet;
  std::vector<SitemapEntry> entries;
  int64_t over_limit = 0;  // entries past max_urls, not kept
  // What went wrong after some entries were read (the XML broke off, an
  // entry without <loc>); "" when nothing did.
  std::string warning;
};

// Parses a sitemap's body (gzip when it starts with the gzip magic bytes,
// whatever the Content-Type says). Errors (InvalidArgument, the message
// naming the problem): the body is over the size limit after
// decompression, the gzip stream is broken, the root element is not
// <urlset> or <sitemapindex>, or the XML breaks before any entry.
absl::StatusOr<Sitemap> ParseSitemap(absl::string_view body,
                                     const SitemapLimits& limits = {});

// W3C datetime (the forms sitemaps use: "2024-05-01",
// "2024-05-01T10:20Z", "2024-05-01T10:20:30+02:00",
// "2024-05-01T10:20:30.5Z") as Unix milliseconds; nullopt otherwise.
std::optional<int64_t> ParseW3cDatetime(absl::string_view s);

}  // namespace fcrawl::protocol

#endif  // FCRAWL_PROTOCOL_SITEMAP_H_
