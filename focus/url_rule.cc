#include "focus/url_rule.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/time/time.h"
#include "core/url.h"
#include "re2/re2.h"
#include "re2/set.h"

namespace fcrawl::focus {
namespace {

std::string SiteOf(const url::Url& u) {
  std::string site(u.host());
  if (u.port() != -1) absl::StrAppend(&site, ":", u.port());
  return site;
}

std::optional<url::Url> ParseBounded(absl::string_view spec) {
  if (spec.size() > url::kMaxUrlLength) return std::nullopt;
  absl::StatusOr<url::Url> u = url::Parse(spec);
  if (!u.ok()) return std::nullopt;
  return *std::move(u);
}

// Formula 4.3 from the parts of 4.4: dHost = 1 (same site).
int CombineDistance(int64_t k, int64_t length_difference, bool query_differs) {
  const int64_t path = 4 * k + 2 * length_difference;
  const int64_t d = (path + 1) * (query_differs ? 2 : 1) - 1;
  return static_cast<int>(std::min<int64_t>(d, INT_MAX));
}

// A wildcard directory accepts any non-empty directory ending in its suffix
// (with something before it), as the regex [^/?]+<suffix> does.
bool Accepts(const PatternSegment& s, const std::string& dir) {
  if (!s.wildcard) return s.literal == dir;
  return dir.size() > s.suffix.size() && absl::EndsWith(dir, s.suffix);
}

// The longest common extension of `names` ("." and what follows) that
// leaves every name a non-empty part for the "*".
std::string CommonExtension(const std::vector<const std::string*>& names) {
  if (names.empty()) return "";
  absl::string_view common = *names[0];
  size_t shortest = common.size();
  for (const std::string* n : names) {
    shortest = std::min(shortest, n->size());
    size_t len = 0;
    while (len < common.size() && len < n->size() &&
           common[common.size() - 1 - len] == (*n)[n->size() - 1 - len]) {
      ++len;
    }
    common = common.substr(common.size() - len);
  }
  for (size_t i = 0; i < common.size(); ++i) {
    if (common[i] == '.' && common.size() - i < shortest) {
      return std::string(common.substr(i));
    }
  }
  return "";
}

// Shape of §4.3.6 alignment: URLs of one shape align position by position.
struct Shape {
  std::string host;
  size_t dirs = 0;
  bool directory = false;
  std::vector<std::string> keys;
  friend bool operator==(const Shape& a, const Shape& b) {
    return a.host == b.host && a.dirs == b.dirs && a.directory == b.directory &&
           a.keys == b.keys;
  }
};

Shape ShapeOf(const UrlParts& p) {
  Shape s{p.host, p.dirs.size(), p.directory, {}};
  for (const auto& [k, v] : p.query) s.keys.push_back(k);
  return s;
}

std::string FormatMillis(int64_t ms) {
  if (ms <= 0) return "unknown";
  return absl::FormatTime("%Y-%m-%dT%H:%M:%SZ", absl::FromUnixMillis(ms),
                          absl::UTCTimeZone());
}

absl::Status Corrupt(absl::string_view what) {
  return absl::DataLossError(
      absl::StrCat("stored URL rules are inconsistent: ", what));
}

}  // namespace

std::optional<UrlParts> DecomposeUrl(absl::string_view spec) {
  std::optional<url::Url> u = ParseBounded(spec);
  if (!u.has_value()) return std::nullopt;
  UrlParts p;
  p.scheme = std::string(u->scheme());
  p.host = SiteOf(*u);
  p.dirs = u->PathSegments();
  p.directory =
      !p.dirs.empty() && !u->path().empty() && u->path().back() == '/';
  if (p.dirs.size() > kUrlRuleMaxSegments) {
    p.dirs.resize(kUrlRuleMaxSegments);
    p.truncated = true;
  }
  for (const absl::string_view piece :
       absl::StrSplit(u->query(), '&', absl::SkipEmpty())) {
    if (p.query.size() == kUrlRuleMaxQueryPairs) {
      p.truncated = true;
      break;
    }
    // "k" without '=' gives ("k", "").
    std::pair<std::string, std::string> pair =
        absl::StrSplit(piece, absl::MaxSplits('=', 1));
    p.query.push_back(std::move(pair));
  }
  return p;
}

std::string UrlSite(absl::string_view spec) {
  std::optional<url::Url> u = ParseBounded(spec);
  return u.has_value() ? SiteOf(*u) : std::string();
}

std::optional<int> UrlDistance(const UrlParts& a, const UrlParts& b) {
  if (a.host != b.host) return std::nullopt;
  const size_t m = std::min(a.dirs.size(), b.dirs.size());
  const size_t n = std::max(a.dirs.size(), b.dirs.size());
  int64_t k = 0;
  for (size_t i = 0; i < m; ++i) {
    if (a.dirs[i] != b.dirs[i]) ++k;
  }
  return CombineDistance(k, static_cast<int64_t>(n - m), a.query != b.query);
}

std::optional<int> UrlDistance(absl::string_view a, absl::string_view b) {
  std::optional<UrlParts> pa = DecomposeUrl(a);
  if (!pa.has_value()) return std::nullopt;
  std::optional<UrlParts> pb = DecomposeUrl(b);
  if (!pb.has_value()) return std::nullopt;
  return UrlDistance(*pa, *pb);
}

std::vector<std::vector<int>> ClusterUrls(const std::vector<UrlParts>& urls,
                                          int max_distance,
                                          int min_relevant_pages) {
  const size_t r = std::min(urls.size(), kUrlRuleMaxRelevantUrls);
  const size_t m = static_cast<size_t>(std::max(min_relevant_pages, 0));
  std::vector<char> near(r * r, 0);
  std::vector<std::vector<int>> neighbours(r);
  for (size_t i = 0; i < r; ++i) {
    for (size_t j = i + 1; j < r; ++j) {
      const std::optional<int> d = UrlDistance(urls[i], urls[j]);
      if (d.has_value() && *d <= max_distance) {
        near[i * r + j] = near[j * r + i] = 1;
        neighbours[i].push_back(static_cast<int>(j));
        neighbours[j].push_back(static_cast<int>(i));
      }
    }
  }
  std::vector<char> active(r, 1);
  std::vector<int> degree(r);  // active neighbours
  for (size_t i = 0; i < r; ++i) {
    degree[i] = static_cast<int>(neighbours[i].size());
  }
  auto deactivate = [&](int x) {
    active[x] = 0;
    for (int y : neighbours[x]) {
      if (active[y]) --degree[y];
    }
  };
  std::vector<std::vector<int>> clusters;
  while (true) {
    int best = -1;
    for (size_t i = 0; i < r; ++i) {
      if (active[i] && (best < 0 || degree[i] > degree[best])) {
        best = static_cast<int>(i);
      }
    }
    // Every member of a clique of s URLs has s − 1 active neighbours.
    if (best < 0 || static_cast<size_t>(degree[best]) + 1 <= m) break;
    std::vector<int> candidates;
    for (int y : neighbours[best]) {
      if (active[y]) candidates.push_back(y);
    }
    std::stable_sort(candidates.begin(), candidates.end(),
                     [&](int a, int b) { return degree[a] > degree[b]; });
    std::vector<int> cluster = {best};
    for (int c : candidates) {
      bool all = true;
      for (int member : cluster) {
        if (!near[static_cast<size_t>(c) * r + member]) {
          all = false;
          break;
        }
      }
      if (all) cluster.push_back(c);
    }
    if (cluster.size() > m) {
      for (int x : cluster) deactivate(x);
      std::sort(cluster.begin(), cluster.end());
      clusters.push_back(std::move(cluster));
    } else {
      deactivate(best);
    }
  }
  return clusters;
}

std::string UrlPattern::Readable() const {
  std::string out = absl::StrCat(scheme, "://", host, "/");
  for (size_t i = 0; i < segments.size(); ++i) {
    if (i > 0) out.push_back('/');
    const PatternSegment& s = segments[i];
    absl::StrAppend(&out, s.wildcard ? absl::StrCat("*", s.suffix) : s.literal);
  }
  if (directory && !segments.empty()) out.push_back('/');
  for (size_t i = 0; i < query.size(); ++i) {
    out.push_back(i == 0 ? '?' : '&');
    absl::StrAppend(&out, query[i].key, "=",
                    query[i].wildcard ? "*" : query[i].value);
  }
  return out;
}

std::string UrlPattern::Regex() const {
  std::string out = absl::StrCat("^https?://", RE2::QuoteMeta(host));
  if (segments.empty()) out.push_back('/');
  for (const PatternSegment& s : segments) {
    out.push_back('/');
    if (s.wildcard) {
      absl::StrAppend(&out, "[^/?]+", RE2::QuoteMeta(s.suffix));
    } else {
      absl::StrAppend(&out, RE2::QuoteMeta(s.literal));
    }
  }
  if (directory && !segments.empty()) out.push_back('/');
  for (size_t i = 0; i < query.size(); ++i) {
    absl::StrAppend(&out, i == 0 ? "\\?" : "&", RE2::QuoteMeta(query[i].key));
    if (query[i].wildcard) {
      absl::StrAppend(&out, "(?:=[^&]*)?");
    } else if (query[i].value.empty()) {
      // "k" and "k=" decompose alike.
      absl::StrAppend(&out, "=?");
    } else {
      absl::StrAppend(&out, "=", RE2::QuoteMeta(query[i].value));
    }
  }
  out.push_back('$');
  return out;
}

std::optional<int> UrlPattern::DistanceTo(const UrlParts& url) const {
  if (url.host != host) return std::nullopt;
  const size_t m = std::min(segments.size(), url.dirs.size());
  const size_t n = std::max(segments.size(), url.dirs.size());
  int64_t k = 0;
  for (size_t i = 0; i < m; ++i) {
    if (!Accepts(segments[i], url.dirs[i])) ++k;
  }
  bool query_differs = url.query.size() != query.size();
  for (size_t i = 0; !query_differs && i < query.size(); ++i) {
    query_differs =
        url.query[i].first != query[i].key ||
        (!query[i].wildcard && url.query[i].second != query[i].value);
  }
  return CombineDistance(k, static_cast<int64_t>(n - m), query_differs);
}

bool UrlPattern::SameRule(const UrlPattern& other) const {
  return host == other.host && segments == other.segments &&
         directory == other.directory && query == other.query;
}

std::optional<UrlPattern> ExtractPattern(const std::vector<UrlParts>& urls) {
  if (urls.empty()) return std::nullopt;
  const UrlParts& first = urls[0];
  const Shape shape = ShapeOf(first);
  for (const UrlParts& u : urls) {
    if (u.truncated || !(ShapeOf(u) == shape)) return std::nullopt;
  }
  UrlPattern p;
  p.scheme = first.scheme.empty() ? "http" : first.scheme;
  p.host = first.host;
  p.directory = first.directory;
  for (size_t i = 0; i < first.dirs.size(); ++i) {
    PatternSegment s;
    bool equal = true;
    for (const UrlParts& u : urls) equal = equal && u.dirs[i] == first.dirs[i];
    if (equal) {
      s.literal = first.dirs[i];
    } else {
      s.wildcard = true;
      if (i + 1 == first.dirs.size() && !first.directory) {
        std::vector<const std::string*> names;
        for (const UrlParts& u : urls) names.push_back(&u.dirs[i]);
        s.suffix = CommonExtension(names);
      }
    }
    p.segments.push_back(std::move(s));
  }
  for (size_t i = 0; i < first.query.size(); ++i) {
    PatternQueryPart q;
    q.key = first.query[i].first;
    bool equal = true;
    for (const UrlParts& u : urls) {
      equal = equal && u.query[i].second == first.query[i].second;
    }
    if (equal) {
      q.value = first.query[i].second;
    } else {
      q.wildcard = true;
    }
    p.query.push_back(std::move(q));
  }
  p.covered = static_cast<int32_t>(std::min<size_t>(urls.size(), INT32_MAX));
  return p;
}

std::vector<UrlPattern> ExtractPatterns(const std::vector<UrlParts>& cluster) {
  std::vector<Shape> shapes;
  std::vector<std::vector<UrlParts>> groups;
  for (const UrlParts& u : cluster) {
    if (u.truncated) continue;
    const Shape s = ShapeOf(u);
    auto it = std::find(shapes.begin(), shapes.end(), s);
    if (it == shapes.end()) {
      shapes.push_back(s);
      groups.push_back({u});
    } else {
      groups[it - shapes.begin()].push_back(u);
    }
  }
  std::vector<UrlPattern> out;
  for (const std::vector<UrlParts>& g : groups) {
    if (g.size() < 2) continue;
    if (std::optional<UrlPattern> p = ExtractPattern(g); p.has_value()) {
      out.push_back(*std::move(p));
    }
  }
  return out;
}

bool IsTemplateWide(int32_t inlinks, int64_t site_pages, double share) {
  return site_pages >= 3 &&
         static_cast<double>(inlinks) > share * static_cast<double>(site_pages);
}

std::vector<std::string> RemoveTemplateUrls(
    const std::vector<std::string>& relevant, const InLinkCounts& inlinks,
    int64_t site_pages, double share) {
  std::vector<std::string> out;
  for (const std::string& u : relevant) {
    auto it = inlinks.find(u);
    if (it != inlinks.end() && IsTemplateWide(it->second, site_pages, share)) {
      continue;
    }
    out.push_back(u);
  }
  return out;
}

std::vector<UrlPattern> LearnUrlPatterns(
    const std::vector<std::string>& relevant, const InLinkCounts& inlinks,
    int64_t site_pages, const UrlRuleOptions& options, int64_t now_ms) {
  const std::vector<std::string> kept = RemoveTemplateUrls(
      relevant, inlinks, site_pages, options.template_share());
  std::vector<UrlParts> parts;
  absl::flat_hash_set<std::string> seen;
  for (const std::string& u : kept) {
    if (parts.size() == kUrlRuleMaxRelevantUrls) break;
    if (!seen.insert(u).second) continue;
    std::optional<UrlParts> p = DecomposeUrl(u);
    if (p.has_value() && !p->truncated) parts.push_back(*std::move(p));
  }
  std::vector<UrlPattern> out;
  if (parts.size() <=
      static_cast<size_t>(std::max(0, options.min_relevant_pages()))) {
    return out;
  }
  for (const std::vector<int>& cluster : ClusterUrls(
           parts, options.max_distance(), options.min_relevant_pages())) {
    std::vector<UrlParts> members;
    for (int i : cluster) members.push_back(parts[i]);
    for (UrlPattern& p : ExtractPatterns(members)) {
      auto same =
          std::find_if(out.begin(), out.end(),
                       [&](const UrlPattern& q) { return q.SameRule(p); });
      if (same != out.end()) {
        same->covered += p.covered;
      } else {
        out.push_back(std::move(p));
      }
    }
  }
  for (UrlPattern& p : out) {
    p.relevant = static_cast<int32_t>(parts.size());
    p.learned_at_ms = now_ms;
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const UrlPattern& a, const UrlPattern& b) {
                     return a.covered > b.covered;
                   });
  if (out.size() > kUrlRuleMaxPatterns) out.resize(kUrlRuleMaxPatterns);
  return out;
}

// ---------------------------------------------------------------------------
// PatternSet
// ---------------------------------------------------------------------------

struct PatternSet::Compiled {
  explicit Compiled(const RE2::Options& options)
      : set(options, RE2::ANCHOR_BOTH) {}
  RE2::Set set;
};

PatternSet::PatternSet() = default;

absl::StatusOr<PatternSet> PatternSet::Compile(
    std::vector<UrlPattern> patterns) {
  if (patterns.size() > kUrlRuleMaxPatterns) {
    return absl::InvalidArgumentError(absl::StrCat(
        patterns.size(), " URL patterns, at most ", kUrlRuleMaxPatterns));
  }
  PatternSet out;
  out.patterns_ = std::move(patterns);
  if (out.patterns_.empty()) return out;
  RE2::Options options;
  // Any byte string is matched byte by byte (URLs are ASCII once normalised).
  options.set_encoding(RE2::Options::EncodingLatin1);
  options.set_log_errors(false);
  auto compiled = std::make_shared<Compiled>(options);
  for (const UrlPattern& p : out.patterns_) {
    std::string error;
    if (compiled->set.Add(p.Regex(), &error) < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "URL pattern ", p.Readable(), " does not compile: ", error));
    }
  }
  if (!compiled->set.Compile()) {
    return absl::ResourceExhaustedError("URL patterns do not fit in memory");
  }
  out.compiled_ = std::move(compiled);
  return out;
}

std::vector<int> PatternSet::Match(absl::string_view spec) const {
  std::vector<int> hits;
  if (compiled_ == nullptr) return hits;
  // The patterns were built from normalised URLs: match the normal form.
  std::optional<url::Url> u = ParseBounded(spec);
  if (!u.has_value()) return hits;
  if (!compiled_->set.Match(u->spec(), &hits)) return {};
  std::sort(hits.begin(), hits.end());
  return hits;
}

int PatternSet::Best(absl::string_view url) const {
  int best = -1;
  for (int i : Match(url)) {
    if (best < 0 || patterns_[i].covered > patterns_[best].covered) best = i;
  }
  return best;
}

std::optional<int> PatternSet::Distance(absl::string_view url) const {
  std::optional<UrlParts> parts = DecomposeUrl(url);
  if (!parts.has_value()) return std::nullopt;
  std::optional<int> nearest;
  for (const UrlPattern& p : patterns_) {
    std::optional<int> d = p.DistanceTo(*parts);
    if (d.has_value() && (!nearest.has_value() || *d < *nearest)) nearest = d;
  }
  if (!nearest.has_value()) return std::nullopt;
  if (!Match(url).empty()) return 0;
  return std::max(1, *nearest);
}

// ---------------------------------------------------------------------------
// Persistence and listing
// ---------------------------------------------------------------------------

proto::SiteUrlRules SiteRulesToProto(const SiteRules& rules) {
  proto::SiteUrlRules p;
  p.set_host(rules.host);
  p.set_phase(rules.phase == SitePhase::kGuided
                  ? proto::SiteUrlRules::PHASE_GUIDED
                  : proto::SiteUrlRules::PHASE_EXPLORING);
  const size_t layers =
      std::min(rules.fetched_per_layer.size(), kUrlRuleMaxLayers);
  for (size_t i = 0; i < layers; ++i) {
    p.add_fetched_per_layer(rules.fetched_per_layer[i]);
  }
  p.set_pages_fetched(rules.pages_fetched);
  p.set_pages_analysed(rules.pages_analysed);
  const size_t patterns = std::min(rules.patterns.size(), kUrlRuleMaxPatterns);
  for (size_t i = 0; i < patterns; ++i) {
    const UrlPattern& u = rules.patterns[i];
    proto::SiteUrlRules::Pattern* q = p.add_patterns();
    q->set_readable(u.Readable());
    q->set_regex(u.Regex());
    q->set_covered(u.covered);
    q->set_relevant(u.relevant);
    q->set_learned_at_ms(u.learned_at_ms);
    q->set_scheme(u.scheme);
    for (const PatternSegment& s : u.segments) {
      proto::SiteUrlRules::Segment* ps = q->add_segments();
      ps->set_literal(s.literal);
      ps->set_wildcard(s.wildcard);
      ps->set_suffix(s.suffix);
    }
    q->set_directory(u.directory);
    for (const PatternQueryPart& k : u.query) {
      proto::SiteUrlRules::QueryPart* pq = q->add_query();
      pq->set_key(k.key);
      pq->set_value(k.value);
      pq->set_wildcard(k.wildcard);
    }
  }
  const size_t relevant =
      std::min(rules.relevant_urls.size(), kUrlRuleMaxRelevantUrls);
  for (size_t i = 0; i < relevant; ++i) {
    p.add_relevant_urls(rules.relevant_urls[i]);
  }
  std::vector<std::pair<std::string, int32_t>> inlinks(rules.inlinks.begin(),
                                                       rules.inlinks.end());
  std::sort(inlinks.begin(), inlinks.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  if (inlinks.size() > kUrlRuleMaxStoredInLinks) {
    inlinks.resize(kUrlRuleMaxStoredInLinks);
  }
  for (const auto& [url, pages] : inlinks) {
    proto::SiteUrlRules::InLinks* l = p.add_inlinks();
    l->set_url(url);
    l->set_pages(pages);
  }
  p.set_updated_at_ms(rules.updated_at_ms);
  return p;
}

absl::StatusOr<SiteRules> SiteRulesFromProto(const proto::SiteUrlRules& p) {
  SiteRules r;
  if (p.host().empty()) return Corrupt("no host");
  r.host = p.host();
  switch (p.phase()) {
    case proto::SiteUrlRules::PHASE_UNSPECIFIED:
    case proto::SiteUrlRules::PHASE_EXPLORING:
      r.phase = SitePhase::kExploring;
      break;
    case proto::SiteUrlRules::PHASE_GUIDED:
      r.phase = SitePhase::kGuided;
      break;
    default:
      return Corrupt(absl::StrCat("unknown phase ", p.phase()));
  }
  if (static_cast<size_t>(p.fetched_per_layer_size()) > kUrlRuleMaxLayers) {
    return Corrupt("too many physical layers");
  }
  for (int64_t n : p.fetched_per_layer()) {
    if (n < 0) return Corrupt("negative layer count");
    r.fetched_per_layer.push_back(n);
  }
  if (p.pages_fetched() < 0 || p.pages_analysed() < 0) {
    return Corrupt("negative page count");
  }
  r.pages_fetched = p.pages_fetched();
  r.pages_analysed = p.pages_analysed();
  if (static_cast<size_t>(p.patterns_size()) > kUrlRuleMaxPatterns) {
    return Corrupt("too many patterns");
  }
  for (const proto::SiteUrlRules::Pattern& q : p.patterns()) {
    UrlPattern u;
    if (q.scheme() == "http" || q.scheme() == "https") u.scheme = q.scheme();
    u.host = r.host;
    if (static_cast<size_t>(q.segments_size()) > kUrlRuleMaxSegments ||
        static_cast<size_t>(q.query_size()) > kUrlRuleMaxQueryPairs) {
      return Corrupt("pattern beyond the directory or query caps");
    }
    for (const proto::SiteUrlRules::Segment& s : q.segments()) {
      if (!s.wildcard() && s.literal().empty()) {
        return Corrupt("empty literal directory");
      }
      u.segments.push_back(PatternSegment{s.wildcard() ? "" : s.literal(),
                                          s.wildcard(),
                                          s.wildcard() ? s.suffix() : ""});
    }
    u.directory = q.directory();
    for (const proto::SiteUrlRules::QueryPart& k : q.query()) {
      u.query.push_back(PatternQueryPart{k.key(), k.wildcard() ? "" : k.value(),
                                         k.wildcard()});
    }
    if (q.covered() < 0 || q.relevant() < 0) {
      return Corrupt("negative pattern count");
    }
    u.covered = q.covered();
    u.relevant = q.relevant();
    u.learned_at_ms = q.learned_at_ms();
    r.patterns.push_back(std::move(u));
  }
  if (r.phase == SitePhase::kGuided && r.patterns.empty()) {
    return Corrupt("guided site without patterns");
  }
  if (static_cast<size_t>(p.relevant_urls_size()) > kUrlRuleMaxRelevantUrls) {
    return Corrupt("too many relevant URLs");
  }
  r.relevant_urls.assign(p.relevant_urls().begin(), p.relevant_urls().end());
  if (static_cast<size_t>(p.inlinks_size()) > kUrlRuleMaxStoredInLinks) {
    return Corrupt("too many in-link counts");
  }
  for (const proto::SiteUrlRules::InLinks& l : p.inlinks()) {
    if (l.pages() < 0) return Corrupt("negative in-link count");
    r.inlinks[l.url()] = l.pages();
  }
  r.updated_at_ms = p.updated_at_ms();
  return r;
}

std::string FormatSiteRules(const proto::SiteUrlRules& rules) {
  const bool guided = rules.phase() == proto::SiteUrlRules::PHASE_GUIDED;
  std::string out =
      absl::StrCat("site ", rules.host(), ": ", guided ? "guided" : "exploring",
                   " (updated ", FormatMillis(rules.updated_at_ms()), ")\n");
  std::vector<std::string> layers;
  for (int i = 0; i < rules.fetched_per_layer_size(); ++i) {
    if (rules.fetched_per_layer(i) != 0) {
      layers.push_back(absl::StrCat(i, ":", rules.fetched_per_layer(i)));
    }
  }
  absl::StrAppend(&out, "  pages fetched: ", rules.pages_fetched(),
                  "; per physical layer: ",
                  layers.empty() ? "none" : absl::StrJoin(layers, " "), "\n");
  absl::StrAppend(&out, "  pages analysed: ", rules.pages_analysed(),
                  "; relevant URLs kept: ", rules.relevant_urls_size(),
                  "; in-link counts kept: ", rules.inlinks_size(), "\n");
  std::vector<const proto::SiteUrlRules::Pattern*> patterns;
  for (const auto& p : rules.patterns()) patterns.push_back(&p);
  std::stable_sort(
      patterns.begin(), patterns.end(),
      [](const auto* a, const auto* b) { return a->covered() > b->covered(); });
  absl::StrAppend(&out, "  patterns: ", patterns.size(),
                  patterns.empty() ? "\n" : " (most covered first)\n");
  for (size_t i = 0; i < patterns.size(); ++i) {
    const proto::SiteUrlRules::Pattern& p = *patterns[i];
    absl::StrAppend(&out, "    ", i + 1, ". ", p.readable(), "\n",
                    "       covers ", p.covered(), " of ", p.relevant(),
                    " relevant URLs; learned ", FormatMillis(p.learned_at_ms()),
                    "\n", "       regex ", p.regex(), "\n");
  }
  out.push_back('\n');
  return out;
}

}  // namespace fcrawl::focus
