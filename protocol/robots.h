// robots.txt parsing and matching per RFC 9309 (Robots Exclusion Protocol).
//
// robots.txt is hostile input: Parse() never fails. Lines it cannot use are
// skipped and counted, input beyond RobotsOptions::max_bytes is ignored, and
// every limit below bounds memory and time whatever the server sends.
//
// Beyond the RFC, the parser understands the common `crawl-delay:` record and
// a few spellings Google's open-source parser also accepts ("useragent",
// "user agent", "dissallow", "dissalow", "disalow", "diasllow", "disallaw",
// "site-map").
//
// Thread-safety: RobotsRules is an immutable value; concurrent calls of its
// const methods are safe. Every free function here is thread-safe.

#ifndef FCRAWL_PROTOCOL_ROBOTS_H_
#define FCRAWL_PROTOCOL_ROBOTS_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"

namespace fcrawl::protocol {

struct RobotsOptions {
  // Bytes of the body that are parsed. RFC 9309 §2.5 requires at least
  // 500 KiB; the rest is ignored (and a line cut by the limit is dropped).
  size_t max_bytes = 512 * 1024;
  // Allow/disallow rules kept over all groups; later rules are skipped.
  size_t max_rules = 100000;
  // Lines longer than this (without the line end) are skipped.
  size_t max_line_bytes = 16384;
  // Cap on Crawl-delay, in seconds: a server cannot stall a host for hours.
  double max_crawl_delay_seconds = 60;
};

// The lower-case product token at the start of a User-Agent or a
// user-agent line ("Googlebot/2.1" -> "googlebot"): its leading
// [a-zA-Z_-] characters; empty if there are none.
std::string ProductToken(absl::string_view s);

// The rules of one robots.txt file.
//
// User-agent matching (RFC 9309 §2.2.1): the crawler's product token is
// compared case-insensitively with the product token of each group's
// user-agent values (the leading [a-zA-Z_-] characters, so "Googlebot/2.1"
// names "googlebot"). All groups naming the crawler are merged and used;
// otherwise all `*` groups are merged and used; otherwise all is allowed.
//
// Rule matching (§2.2.2): the longest matching pattern (in octets, after
// percent-encoding normalisation) wins; on a tie between allow and disallow,
// allow wins. `*` matches any run of characters; a trailing `$` anchors the
// pattern to the end of the path. "/robots.txt" is always allowed. Matching
// one rule takes time linear in the pattern and path lengths (no
// backtracking), so hostile patterns cannot stall a worker.
class RobotsRules {
 public:
  // No rules: everything is allowed.
  RobotsRules() = default;

  // Parses a robots.txt body. Never fails; see skipped_lines() and
  // truncated() for what was dropped.
  static RobotsRules Parse(absl::string_view body,
                           const RobotsOptions& options = {});
  // Rules that allow everything (robots.txt unavailable, §2.3.1.3).
  static RobotsRules AllowAll();
  // Rules that disallow everything except /robots.txt (robots.txt
  // unreachable, §2.3.1.4).
  static RobotsRules DisallowAll();

  // Whether the crawler with product token `user_agent_product` (e.g.
  // "fcrawl"; anything from the first character outside [a-zA-Z_-] on, such
  // as "/1.0", is ignored) may fetch `path_and_query`: the URL's path plus
  // "?query" if any (e.g. "/a/b?x=1"). A missing leading '/' is assumed.
  bool IsAllowed(absl::string_view user_agent_product,
                 absl::string_view path_and_query) const;

  // The Crawl-delay in seconds for the crawler's groups (the same groups
  // IsAllowed uses; the largest value if several), capped at
  // RobotsOptions::max_crawl_delay_seconds; nullopt when none is given.
  std::optional<double> CrawlDelay(absl::string_view user_agent_product) const;

  // Sitemap URLs, in file order, as written (not validated or resolved).
  const std::vector<std::string>& sitemaps() const { return sitemaps_; }

  // Non-blank lines that contributed nothing: no ':' separator, too long,
  // unknown key, a rule or crawl-delay before any user-agent, an invalid
  // crawl-delay, an empty sitemap, or a rule beyond max_rules.
  size_t skipped_lines() const { return skipped_lines_; }

  // Whether the body was longer than RobotsOptions::max_bytes.
  bool truncated() const { return truncated_; }

 private:
  struct Rule {
    std::string pattern;  // Normalised, runs of '*' collapsed, no final '$'.
    uint32_t priority;    // Octets of the normalised pattern, with its '$'.
    bool allow;
    bool anchored;  // Pattern ended with '$'.
  };
  struct Group {
    // Sorted by priority descending, allow before disallow on ties, so the
    // first match is the group's verdict.
    std::vector<Rule> rules;
    std::optional<double> crawl_delay;
  };
  // Calls fn(const Group&) for each group the agent uses.
  template <typename Fn>
  void ForEachGroup(absl::string_view user_agent_product, Fn fn) const;

  std::vector<Group> groups_;
  // (lower-case product token or "*", index into groups_), sorted, unique.
  std::vector<std::pair<std::string, uint32_t>> agents_;
  std::vector<std::string> sitemaps_;
  size_t skipped_lines_ = 0;
  bool truncated_ = false;
};

// The rules to apply after fetching /robots.txt with final HTTP status
// `http_status` (RFC 9309 §2.3.1), `body` being the response body:
//  - 2xx: the body is parsed;
//  - 4xx (including 401 and 403): "unavailable", everything is allowed;
//  - 5xx, or 0 for "unreachable" (DNS, connect, TLS or timeout failure):
//    everything is disallowed; the caller retries later and MAY treat the
//    file as unavailable after 30 days of failures (§2.3.1.4);
//  - 3xx: following redirects is the caller's job (at least five hops,
//    §2.3.1.2). A 3xx reaching this function means the redirects were
//    exhausted, which the RFC lets us treat as unavailable: allow all;
//  - anything else (1xx, invalid): treated as unreachable, disallow all.
RobotsRules RobotsForStatus(int http_status, absl::string_view body,
                            const RobotsOptions& options = {});

}  // namespace fcrawl::protocol

#endif  // FCRAWL_PROTOCOL_ROBOTS_H_
