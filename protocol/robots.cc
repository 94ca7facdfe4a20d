#include "protocol/robots.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "core/url.h"

namespace fcrawl::protocol {
namespace {

bool IsUnreserved(unsigned char c) {
  return absl::ascii_isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~';
}

// Bytes that are percent-encoded by normalisation: controls, space, DEL and
// every non-ASCII octet (RFC 9309 §2.2.2).
bool MustEncode(unsigned char c) { return c <= 0x20 || c >= 0x7F; }

bool NeedsNormalisation(absl::string_view s) {
  for (unsigned char c : s) {
    if (c == '%' || MustEncode(c)) return true;
  }
  return false;
}

// Percent-encoding normalisation shared by patterns and paths, so that
// equivalent spellings compare equal: %XX of an unreserved character is
// decoded, other %XX get upper-case hex, a '%' not followed by two hex digits
// becomes %25, and bytes that may not appear in a URL are encoded. '*' and
// '$' are left alone (wildcards in patterns, literals in paths).
void AppendNormalised(absl::string_view s, std::string* out) {
  out->reserve(out->size() + s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = s[i];
    if (c == '%') {
      const int hi = i + 2 < s.size() ? url::HexDigitValue(s[i + 1]) : -1;
      const int lo = hi >= 0 ? url::HexDigitValue(s[i + 2]) : -1;
      if (lo >= 0) {
        const unsigned char decoded = static_cast<unsigned char>(hi * 16 + lo);
        if (IsUnreserved(decoded)) {
          out->push_back(static_cast<char>(decoded));
        } else {
          url::AppendPercentEscape(decoded, out);
        }
        i += 2;
        continue;
      }
      url::AppendPercentEscape(c, out);
    } else if (MustEncode(c)) {
      url::AppendPercentEscape(c, out);
    } else {
      out->push_back(static_cast<char>(c));
    }
  }
}

bool IsTokenChar(char c) {
  return absl::ascii_isalpha(c) || c == '-' || c == '_';
}

// The first occurrence of `needle` in `text` at or after `from`, or npos.
// Knuth-Morris-Pratt, so O(|text| + |needle|) whatever the bytes: a hostile
// "aaaa...ab" cannot make it quadratic. `table` is scratch space.
size_t Find(absl::string_view text, size_t from, absl::string_view needle,
            std::vector<uint32_t>* table) {
  if (needle.size() <= 1) return text.find(needle, from);
  std::vector<uint32_t>& fail = *table;
  fail.assign(needle.size(), 0);
  for (size_t i = 1, k = 0; i < needle.size(); ++i) {
    while (k > 0 && needle[i] != needle[k]) k = fail[k - 1];
    if (needle[i] == needle[k]) ++k;
    fail[i] = static_cast<uint32_t>(k);
  }
  for (size_t i = from, k = 0; i < text.size(); ++i) {
    while (k > 0 && text[i] != needle[k]) k = fail[k - 1];
    if (text[i] == needle[k] && ++k == needle.size()) return i + 1 - k;
  }
  return absl::string_view::npos;
}

// Whether `pattern` ('*' wildcards, runs of '*' collapsed) matches a prefix
// of `path` (all of it when `anchored`). With only '*' wildcards, taking the
// leftmost occurrence of each literal segment in turn is exact, and each
// segment's search starts where the previous one ended: linear in
// |pattern| + |path|, no backtracking.
bool WildcardMatch(absl::string_view pattern, bool anchored,
                   absl::string_view path, std::vector<uint32_t>* table) {
  size_t star = pattern.find('*');
  if (star == absl::string_view::npos) {
    return anchored ? path == pattern : absl::StartsWith(path, pattern);
  }
  if (!absl::StartsWith(path, pattern.substr(0, star))) return false;
  size_t pos = star;
  absl::string_view rest = pattern.substr(star + 1);
  while (true) {
    star = rest.find('*');
    const absl::string_view segment = rest.substr(0, star);
    if (star == absl::string_view::npos) {  // The last segment.
      if (anchored) {
        return path.size() - pos >= segment.size() &&
               absl::EndsWith(path, segment);
      }
      return Find(path, pos, segment, table) != absl::string_view::npos;
    }
    const size_t found = Find(path, pos, segment, table);
    if (found == absl::string_view::npos) return false;
    pos = found + segment.size();
    rest = rest.substr(star + 1);
  }
}

// A Crawl-delay value: digits with an optional fraction ("10", "0.5", ".5",
// "5."). Anything else (signs, exponents, units) is rejected.
std::optional<double> ParseDelay(absl::string_view value, double cap) {
  double seconds = 0, scale = 1;
  bool digits = false, fraction = false;
  for (char c : value) {
    if (c == '.' && !fraction) {
      fraction = true;
    } else if (absl::ascii_isdigit(c)) {
      digits = true;
      if (fraction) {
        scale /= 10;
        seconds += (c - '0') * scale;
      } else {
        seconds = std::min(seconds * 10 + (c - '0'), 1e12);
      }
    } else {
      return std::nullopt;
    }
  }
  if (!digits) return std::nullopt;
  return std::min(seconds, std::max(cap, 0.0));
}

enum class Key { kUserAgent, kAllow, kDisallow, kCrawlDelay, kSitemap, kOther };

Key ClassifyKey(absl::string_view key) {
  static constexpr std::pair<const char*, Key> kKeys[] = {
      {"user-agent", Key::kUserAgent},
      {"disallow", Key::kDisallow},
      {"allow", Key::kAllow},
      {"sitemap", Key::kSitemap},
      {"crawl-delay", Key::kCrawlDelay},
      // Misspellings Google's parser accepts too.
      {"useragent", Key::kUserAgent},
      {"user agent", Key::kUserAgent},
      {"dissallow", Key::kDisallow},
      {"dissalow", Key::kDisallow},
      {"disalow", Key::kDisallow},
      {"diasllow", Key::kDisallow},
      {"disallaw", Key::kDisallow},
      {"site-map", Key::kSitemap},
  };
  for (const auto& [name, value] : kKeys) {
    if (absl::EqualsIgnoreCase(key, name)) return value;
  }
  return Key::kOther;
}

}  // namespace

std::string ProductToken(absl::string_view s) {
  size_t n = 0;
  while (n < s.size() && IsTokenChar(s[n])) ++n;
  return absl::AsciiStrToLower(s.substr(0, n));
}

RobotsRules RobotsRules::Parse(absl::string_view body,
                               const RobotsOptions& options) {
  RobotsRules rules;
  if (body.size() > options.max_bytes) {
    rules.truncated_ = true;
    const char next = body[options.max_bytes];
    body = body.substr(0, options.max_bytes);
    if (next != '\n' && next != '\r') {  // The last line was cut: drop it.
      const size_t end = body.find_last_of("\r\n");
      body = end == absl::string_view::npos ? absl::string_view()
                                            : body.substr(0, end + 1);
    }
  }
  if (absl::StartsWith(body, "\xEF\xBB\xBF")) body.remove_prefix(3);

  Group* group = nullptr;  // The group being filled; null before any agent.
  bool in_agents = false;  // The last record was a user-agent line.
  size_t rule_count = 0;
  while (!body.empty()) {
    size_t end = body.find_first_of("\r\n");
    absl::string_view line = body.substr(0, end);
    if (end == absl::string_view::npos) {
      body = absl::string_view();
    } else {
      if (body[end] == '\r' && end + 1 < body.size() && body[end + 1] == '\n') {
        ++end;
      }
      body.remove_prefix(end + 1);
    }
    if (line.size() > options.max_line_bytes) {
      ++rules.skipped_lines_;
      continue;
    }
    line = absl::StripAsciiWhitespace(line.substr(0, line.find('#')));
    if (line.empty()) continue;
    const size_t colon = line.find(':');
    if (colon == absl::string_view::npos) {
      ++rules.skipped_lines_;
      continue;
    }
    const Key key =
        ClassifyKey(absl::StripAsciiWhitespace(line.substr(0, colon)));
    const absl::string_view value =
        absl::StripAsciiWhitespace(line.substr(colon + 1));

    switch (key) {
      case Key::kUserAgent: {
        if (!in_agents) {  // Consecutive user-agent lines share one group.
          rules.groups_.emplace_back();
          group = &rules.groups_.back();
          in_agents = true;
        }
        const uint32_t index = static_cast<uint32_t>(rules.groups_.size() - 1);
        if (!value.empty() && value[0] == '*' &&
            (value.size() == 1 || absl::ascii_isspace(value[1]))) {
          rules.agents_.emplace_back("*", index);
        } else if (std::string token = ProductToken(value); !token.empty()) {
          rules.agents_.emplace_back(std::move(token), index);
        }
        break;
      }
      case Key::kAllow:
      case Key::kDisallow: {
        if (group == nullptr) {
          ++rules.skipped_lines_;
          break;
        }
        in_agents = false;
        if (value.empty()) break;  // "disallow:" alone allows everything.
        if (rule_count >= options.max_rules) {
          ++rules.skipped_lines_;
          break;
        }
        ++rule_count;
        absl::string_view raw = value;
        const bool anchored = absl::ConsumeSuffix(&raw, "$");
        std::string normalised;
        if (raw.empty() || (raw[0] != '/' && raw[0] != '*')) normalised = "/";
        AppendNormalised(raw, &normalised);
        const size_t priority = normalised.size() + (anchored ? 1 : 0);
        std::string pattern;  // Runs of '*' collapse: "**" == "*".
        pattern.reserve(normalised.size());
        for (char c : normalised) {
          if (c != '*' || pattern.empty() || pattern.back() != '*') {
            pattern.push_back(c);
          }
        }
        group->rules.push_back(Rule{std::move(pattern),
                                    static_cast<uint32_t>(priority),
                                    key == Key::kAllow, anchored});
        break;
      }
      case Key::kCrawlDelay: {
        if (group == nullptr) {
          ++rules.skipped_lines_;
          break;
        }
        in_agents = false;
        const std::optional<double> delay =
            ParseDelay(value, options.max_crawl_delay_seconds);
        if (!delay.has_value()) {
          ++rules.skipped_lines_;
        } else if (!group->crawl_delay.has_value() ||
                   *delay > *group->crawl_delay) {
          group->crawl_delay = delay;
        }
        break;
      }
      case Key::kSitemap:
        if (value.empty()) {
          ++rules.skipped_lines_;
        } else {
          rules.sitemaps_.emplace_back(value);
        }
        break;
      case Key::kOther:
        ++rules.skipped_lines_;
        break;
    }
  }

  for (Group& g : rules.groups_) {
    std::sort(g.rules.begin(), g.rules.end(), [](const Rule& a, const Rule& b) {
      if (a.priority != b.priority) return a.priority > b.priority;
      return a.allow && !b.allow;
    });
  }
  std::sort(rules.agents_.begin(), rules.agents_.end());
  rules.agents_.erase(std::unique(rules.agents_.begin(), rules.agents_.end()),
                      rules.agents_.end());
  return rules;
}

RobotsRules RobotsRules::AllowAll() { return RobotsRules(); }

RobotsRules RobotsRules::DisallowAll() {
  RobotsRules rules;
  rules.groups_.push_back(Group{{Rule{"/", 1, false, false}}, std::nullopt});
  rules.agents_.emplace_back("*", 0);
  return rules;
}

template <typename Fn>
void RobotsRules::ForEachGroup(absl::string_view user_agent_product,
                               Fn fn) const {
  auto range_of = [this](absl::string_view name) {
    auto less = [](const std::pair<std::string, uint32_t>& a,
                   absl::string_view b) { return a.first < b; };
    auto greater = [](absl::string_view a,
                      const std::pair<std::string, uint32_t>& b) {
      return a < b.first;
    };
    return std::make_pair(
        std::lower_bound(agents_.begin(), agents_.end(), name, less),
        std::upper_bound(agents_.begin(), agents_.end(), name, greater));
  };
  const std::string token = ProductToken(user_agent_product);
  auto range = range_of(token);
  if (token.empty() || range.first == range.second) range = range_of("*");
  for (auto it = range.first; it != range.second; ++it) fn(groups_[it->second]);
}

bool RobotsRules::IsAllowed(absl::string_view user_agent_product,
                            absl::string_view path_and_query) const {
  std::string storage;
  absl::string_view path = path_and_query;
  const bool add_slash = path.empty() || path[0] != '/';
  if (add_slash || NeedsNormalisation(path)) {
    if (add_slash) storage = "/";
    AppendNormalised(path_and_query, &storage);
    path = storage;
  }
  if (path.substr(0, path.find('?')) == "/robots.txt") return true;

  std::vector<uint32_t> table;  // Scratch for WildcardMatch.
  int64_t best = -1;            // Priority of the winning rule so far.
  bool best_allow = true;
  ForEachGroup(user_agent_product, [&](const Group& group) {
    // Rules are sorted so the first match is the best one in this group.
    for (const Rule& rule : group.rules) {
      if (rule.priority < best) break;
      if (rule.priority == best && (best_allow || !rule.allow)) break;
      if (WildcardMatch(rule.pattern, rule.anchored, path, &table)) {
        best = rule.priority;
        best_allow = rule.allow;
        break;
      }
    }
  });
  return best < 0 || best_allow;
}

std::optional<double> RobotsRules::CrawlDelay(
    absl::string_view user_agent_product) const {
  std::optional<double> delay;
  ForEachGroup(user_agent_product, [&](const Group& group) {
    if (group.crawl_delay.has_value() &&
        (!delay.has_value() || *group.crawl_delay > *delay)) {
      delay = group.crawl_delay;
    }
  });
  return delay;
}

RobotsRules RobotsForStatus(int http_status, absl::string_view body,
                            const RobotsOptions& options) {
  if (http_status >= 200 && http_status < 300) {
    return RobotsRules::Parse(body, options);
  }
  if (http_status >= 300 && http_status < 500) return RobotsRules::AllowAll();
  return RobotsRules::DisallowAll();  // 5xx, unreachable (0), or nonsense.
}

}  // namespace fcrawl::protocol
