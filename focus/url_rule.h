// URL-rule learning of [MMTOPIC] ch. 4 (docs/papers.md "URL-rule strategy"):
// URL decomposition (§4.3.3), URL distance (§4.3.5, formulas 4.3–4.4),
// clustering of a site's relevant URLs, pattern extraction (§4.3.6),
// template-wide URL removal (§4.3.7), the compiled pattern matcher of the
// guided phase and the per-site state the "url-rule" strategy persists
// (proto/url_rules.proto). The strategy itself is in url_rule_strategy.cc.
//
// Sites. A site is a storage::HostKey: the lower-case host plus ":port" when
// the port is not the scheme's default, so http and https URLs of one host
// share their rules (and patterns accept either scheme).
//
// Directories (§4.3.3). The paper splits "/subject/physics/courseware.php"
// into the directories subject, physics, courseware.php: the final file name
// is the last directory, for the distance as for alignment. A path ending in
// '/' has no file name; UrlParts::directory records it so that a pattern
// learned from "/a/b/" pages does not match "/a/b" (the distance, as in the
// paper, ignores it).
//
// Bounded work. A URL is at most url::kMaxUrlLength bytes (longer ones are
// not URLs here), and only its first kUrlRuleMaxSegments directories and
// kUrlRuleMaxQueryPairs query pairs are considered (UrlParts::truncated says
// the rest was dropped; learning skips such URLs). Clustering looks at most
// at kUrlRuleMaxRelevantUrls URLs.
//
// Thread-safety: the free functions are pure; a PatternSet is immutable after
// Compile() and may be used from many threads at once.
#ifndef FCRAWL_FOCUS_URL_RULE_H_
#define FCRAWL_FOCUS_URL_RULE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "focus/strategy.h"
#include "proto/url_rules.pb.h"

namespace fcrawl::focus {

inline constexpr size_t kUrlRuleMaxSegments = 64;
inline constexpr size_t kUrlRuleMaxQueryPairs = 32;
// The relevant URLs a site keeps for learning (and stores).
inline constexpr size_t kUrlRuleMaxRelevantUrls = 200;
// Site URLs whose in-links are counted in memory, and how many of the
// largest counts are stored.
inline constexpr size_t kUrlRuleMaxInLinkUrls = 1024;
inline constexpr size_t kUrlRuleMaxStoredInLinks = 256;
// Patterns kept per site (the ones covering most URLs).
inline constexpr size_t kUrlRuleMaxPatterns = 64;
// Physical layers counted per site (deeper layers share the last count).
inline constexpr size_t kUrlRuleMaxLayers = 128;

// §4.3.3: host, path directories, query key/value pairs (percent-encoded as
// in the normalised URL).
struct UrlParts {
  std::string scheme;  // "http" or "https"
  std::string host;    // host[:port], the site
  std::vector<std::string> dirs;
  bool directory = false;  // the path ends in '/' (and is not "/")
  std::vector<std::pair<std::string, std::string>> query;
  bool truncated = false;  // directories or pairs beyond the caps dropped

  friend bool operator==(const UrlParts& a, const UrlParts& b) {
    return a.scheme == b.scheme && a.host == b.host && a.dirs == b.dirs &&
           a.directory == b.directory && a.query == b.query &&
           a.truncated == b.truncated;
  }
};

// Parses (url::Parse) and splits `url`; nullopt when it is not an absolute
// http(s) URL. Query pairs split on '&' and at the first '=' ("k" gives
// ("k", "")); empty pieces are skipped.
std::optional<UrlParts> DecomposeUrl(absl::string_view url);

// The site of `url` (host[:port]), "" when `url` does not parse.
std::string UrlSite(absl::string_view url);

// Formula 4.3: dURL = dHost·(dPath+1)·(dQuery+1) − 1, nullopt for different
// sites (the paper does not compare them; dHost = 1 otherwise). With m ≤ n
// the directory counts and k the differing directories among the first m,
// dPath = 4k + 2(n−m) (4.4); dQuery = 0 when the query pair lists are equal
// (same pairs, same order), else 1. The string form is nullopt also when
// either URL does not parse.
std::optional<int> UrlDistance(const UrlParts& a, const UrlParts& b);
std::optional<int> UrlDistance(absl::string_view a, absl::string_view b);

// Clusters of a site's relevant URLs (§4.3.7: learn when more than m pages
// lie within distance d of each other). Reading: "within d of each other"
// is read as every pair (complete linkage), so one misjudged page cannot
// widen a pattern over a whole site; clusters are grown greedily, each from
// the URL with the most unclustered neighbours (ties: first in `urls`),
// adding its neighbours (most neighbours first) that are within d of every
// member. Returns the clusters with more than `min_relevant_pages` members,
// as ascending indices into `urls`, in the order found (the first is the
// largest the greedy step found). Only the first kUrlRuleMaxRelevantUrls
// URLs are looked at.
std::vector<std::vector<int>> ClusterUrls(const std::vector<UrlParts>& urls,
                                          int max_distance,
                                          int min_relevant_pages);

// One aligned directory of a pattern.
struct PatternSegment {
  std::string literal;    // when !wildcard
  bool wildcard = false;  // any one non-empty directory
  // Wildcard file names keep their common extension: "*.html".
  std::string suffix;

  friend bool operator==(const PatternSegment& a, const PatternSegment& b) {
    return a.literal == b.literal && a.wildcard == b.wildcard &&
           a.suffix == b.suffix;
  }
};

struct PatternQueryPart {
  std::string key;
  std::string value;      // when !wildcard
  bool wildcard = false;  // any value (also none)

  friend bool operator==(const PatternQueryPart& a, const PatternQueryPart& b) {
    return a.key == b.key && a.value == b.value && a.wildcard == b.wildcard;
  }
};

// A learned URL regular expression (§4.3.6).
struct UrlPattern {
  std::string scheme = "http";  // shown in Readable(); the regex takes both
  std::string host;             // site, literal
  std::vector<PatternSegment> segments;
  bool directory = false;
  std::vector<PatternQueryPart> query;
  int32_t covered = 0;   // URLs it was extracted from
  int32_t relevant = 0;  // relevant URLs learning looked at
  int64_t learned_at_ms = 0;

  // "http://host/physics/*/video/*.html?id=*".
  std::string Readable() const;
  // RE2 syntax, "^https?://<host>/...$", every literal RE2::QuoteMeta'd; a
  // wildcard directory is [^/?]+, a wildcard value [^&]*.
  std::string Regex() const;
  // Formula 4.3 between `url` and the pattern, the pattern read as a URL
  // whose wildcard directories equal any directory (with the extension when
  // it keeps one) and whose wildcard values equal any value: k counts the
  // directories among the first m that the pattern's do not accept, n−m the
  // difference in directory counts, dQuery = 0 when the key lists are equal
  // and every value is accepted. nullopt for another site. A URL the regex
  // matches is at distance 0.
  std::optional<int> DistanceTo(const UrlParts& url) const;
  // Same structure (not counts or time).
  bool SameRule(const UrlPattern& other) const;
};

// §4.3.6 for URLs of one shape (same site, directory count, trailing '/' and
// query key list; not truncated): equal directories stay literal, different
// ones become "*" (a file name keeps the longest common extension that
// leaves every name a non-empty rest: {a.swf.html, b.swf.html} →
// "*.swf.html"); keys stay literal, differing values become "*". covered =
// urls.size(); relevant and learned_at_ms are left 0. nullopt when `urls`
// is empty or the shapes differ.
std::optional<UrlPattern> ExtractPattern(const std::vector<UrlParts>& urls);

// The patterns of one cluster: its URLs grouped by shape (first occurrence
// order), one pattern per group of at least two URLs. Reading: a group of
// one would be a literal pattern matching only a page already fetched.
std::vector<UrlPattern> ExtractPatterns(const std::vector<UrlParts>& cluster);

// Site URL → number of the site's analysed pages linking to it.
using InLinkCounts = absl::flat_hash_map<std::string, int32_t>;

// A URL linked from more than `share` of the site's `site_pages` analysed
// pages, when there are at least 3 of them (§4.3.7: a Flash banner in every
// page's navigation bar would otherwise teach a pattern for the whole site).
bool IsTemplateWide(int32_t inlinks, int64_t site_pages, double share);

// `relevant` without its template-wide URLs (order kept).
std::vector<std::string> RemoveTemplateUrls(
    const std::vector<std::string>& relevant, const InLinkCounts& inlinks,
    int64_t site_pages, double share);

// The learner: template-wide URLs removed (options.template_share),
// ClusterUrls with options.max_distance and options.min_relevant_pages,
// ExtractPatterns per cluster, identical rules merged (covered added up),
// sorted by covered (descending, ties in order found), at most
// kUrlRuleMaxPatterns. Each pattern's `relevant` is the number of usable
// relevant URLs after removal, learned_at_ms = now_ms. Empty when no cluster
// has more than min_relevant_pages URLs.
std::vector<UrlPattern> LearnUrlPatterns(
    const std::vector<std::string>& relevant, const InLinkCounts& inlinks,
    int64_t site_pages, const UrlRuleOptions& options, int64_t now_ms);

// The learned patterns of the guided phase, compiled into one RE2::Set
// (anchored at both ends). Copies share the compiled set.
class PatternSet {
 public:
  PatternSet();  // no patterns: matches nothing
  // InvalidArgument when a pattern's regex does not compile (cannot happen
  // for patterns built by this file) or there are more than
  // kUrlRuleMaxPatterns.
  static absl::StatusOr<PatternSet> Compile(std::vector<UrlPattern> patterns);

  const std::vector<UrlPattern>& patterns() const { return patterns_; }
  bool empty() const { return patterns_.empty(); }

  // Indices of the patterns matching `url` (ascending); empty for a URL
  // longer than url::kMaxUrlLength.
  std::vector<int> Match(absl::string_view url) const;
  // §4.3.7 (2): of several matching patterns the best is the one that
  // covered most URLs when learned (ties: lower index); -1 if none.
  int Best(absl::string_view url) const;
  // |D_url| of 4.6: 0 when a pattern matches, otherwise the smallest
  // UrlPattern::DistanceTo over the patterns of the URL's site, at least 1
  // (a URL the regexes reject is never at distance 0). nullopt when no
  // pattern belongs to the URL's site or `url` does not parse.
  std::optional<int> Distance(absl::string_view url) const;

 private:
  struct Compiled;
  std::vector<UrlPattern> patterns_;
  std::shared_ptr<const Compiled> compiled_;
};

enum class SitePhase { kExploring, kGuided };

// What the strategy knows about one site (proto::SiteUrlRules in memory).
struct SiteRules {
  std::string host;
  SitePhase phase = SitePhase::kExploring;
  std::vector<int64_t> fetched_per_layer;  // index = physical layer
  int64_t pages_fetched = 0;
  int64_t pages_analysed = 0;
  std::vector<UrlPattern> patterns;
  std::vector<std::string> relevant_urls;  // ≤ kUrlRuleMaxRelevantUrls
  InLinkCounts inlinks;                    // ≤ kUrlRuleMaxInLinkUrls
  int64_t updated_at_ms = 0;
};

// Stores at most kUrlRuleMaxStoredInLinks in-link counts (the largest; ties
// by URL) and kUrlRuleMaxRelevantUrls relevant URLs.
proto::SiteUrlRules SiteRulesToProto(const SiteRules& rules);
// DataLoss for a value this file cannot have written: negative counts,
// more entries than the bounds, a pattern of another site or beyond the
// directory/pair caps, a guided site without patterns.
absl::StatusOr<SiteRules> SiteRulesFromProto(const proto::SiteUrlRules& p);

// Readable multi-line listing of a site's rules (`worker list-patterns
// HOST|all`): site, phase, counts per physical layer, the patterns (most
// covered first) with their regexes, ending in a blank line.
std::string FormatSiteRules(const proto::SiteUrlRules& rules);

}  // namespace fcrawl::focus

#endif  // FCRAWL_FOCUS_URL_RULE_H_
