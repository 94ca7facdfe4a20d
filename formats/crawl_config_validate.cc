// Checking a crawl config's values (ValidateCrawlConfig of crawl_config.h):
// every field against the range its .proto comment gives, seeds against the
// scope, hosts, user agent, content types and resolve entries for their
// syntax. All problems are collected and reported at once. Reading and
// defaults are crawl_config.cc.
#include <arpa/inet.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "core/charset.h"
#include "core/host_port.h"
#include "core/host_scope.h"
#include "core/quote.h"
#include "core/url.h"
#include "focus/strategy.h"
#include "formats/crawl_config.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/message.h"

namespace fcrawl::formats {

using ::fcrawl::url::NormalisedHost;

using ::fcrawl::focus::MakeStrategy;
using ::fcrawl::focus::StrategyNames;
using ::fcrawl::focus::StrategyOptions;
using ::fcrawl::focus::Topic;
namespace {

using proto::CrawlConfig;

constexpr size_t kMaxSeeds = 100000;
constexpr size_t kMaxListEntries = 10000;  // keywords, scopes, types, ...
constexpr size_t kMaxUserAgentBytes = 256;
constexpr int64_t kMaxBodyBytes = int64_t{1} << 30;

class Errors {
 public:
  void Add(absl::string_view field, absl::string_view message) {
    errors_.push_back(absl::StrCat(field, message));
  }
  template <typename T>
  void Positive(const std::string& field, bool has, T value) {
    if (has && !(value > 0)) {
      Add(field, absl::StrCat(" must be positive, got ", value));
    }
  }
  template <typename T>
  void NonNegative(const std::string& field, bool has, T value) {
    if (has && !(value >= 0)) {
      Add(field, absl::StrCat(" must be >= 0, got ", value));
    }
  }
  // [lo, hi]; NaN fails.
  template <typename T>
  void InRange(const std::string& field, bool has, T value, T lo, T hi) {
    if (has && !(value >= lo && value <= hi)) {
      Add(field, absl::StrCat(" must be in [", lo, ", ", hi, "], got ", value));
    }
  }
  // (lo, hi) for doubles.
  void Open(const std::string& field, bool has, double value, double lo,
            double hi) {
    if (has && !(value > lo && value < hi)) {
      Add(field, absl::StrCat(" must be in (", lo, ", ", hi, "), got ", value));
    }
  }
  void TooMany(const std::string& field, size_t size, size_t max) {
    if (size > max) {
      Add(field,
          absl::StrCat(": too many entries (", size, ", at most ", max, ")"));
    }
  }
  absl::Status ToStatus() const {
    if (errors_.empty()) return absl::OkStatus();
    return absl::InvalidArgumentError(absl::StrJoin(errors_, "; "));
  }

 private:
  std::vector<std::string> errors_;
};

std::string Indexed(absl::string_view field, size_t i) {
  return absl::StrCat(field, "[", i, "]");
}

bool IsBlank(absl::string_view s) {
  return absl::StripAsciiWhitespace(s).empty();
}

struct IpAddress {
  bool v6 = false;
  unsigned char bytes[16] = {};
};

// "1.2.3.4:80" or "[::1]:80"; the port is required.
bool ParseIpPort(absl::string_view s, IpAddress* ip) {
  const std::optional<HostPort> split = SplitHostPort(s);
  if (!split.has_value() || split->port.value_or(0) == 0) return false;
  if (absl::StartsWith(split->host, "[")) {
    std::string inner(Unbracketed(split->host));
    ip->v6 = true;
    return inet_pton(AF_INET6, inner.c_str(), ip->bytes) == 1;
  }
  std::string v4(split->host);
  ip->v6 = false;
  return inet_pton(AF_INET, v4.c_str(), ip->bytes) == 1;
}

bool IsPrivateV4(const unsigned char* b) {
  return b[0] == 0 || b[0] == 10 || b[0] == 127 ||
         (b[0] == 100 && (b[1] & 0xc0) == 64) ||  // 100.64/10, shared space
         (b[0] == 169 && b[1] == 254) || (b[0] == 172 && (b[1] & 0xf0) == 16) ||
         (b[0] == 192 && b[1] == 168) || b[0] >= 224;  // multicast, reserved
}

// Private, loopback, link-local, unspecified and similar non-public addresses.
bool IsPrivate(const IpAddress& ip) {
  if (!ip.v6) return IsPrivateV4(ip.bytes);
  const unsigned char* b = ip.bytes;
  static const unsigned char kMapped[12] = {0, 0, 0, 0, 0,    0,
                                            0, 0, 0, 0, 0xff, 0xff};
  if (std::memcmp(b, kMapped, 12) == 0) return IsPrivateV4(b + 12);
  bool zero_prefix = true;
  for (int i = 0; i < 15; ++i) zero_prefix = zero_prefix && b[i] == 0;
  if (zero_prefix && (b[15] == 0 || b[15] == 1)) return true;  // ::, ::1
  return (b[0] & 0xfe) == 0xfc ||                    // fc00::/7 unique local
         (b[0] == 0xfe && (b[1] & 0xc0) == 0x80) ||  // fe80::/10 link-local
         b[0] == 0xff;                               // multicast
}

bool IsTokenChar(char c) {
  return absl::ascii_isalnum(c) ||
         std::strchr("!#$&-^_.+", c) != nullptr;  // RFC 6838 restricted-name
}

// "type/subtype" or "type/*".
bool IsMediaRange(absl::string_view s) {
  size_t slash = s.find('/');
  if (slash == absl::string_view::npos || slash == 0 || slash + 1 == s.size()) {
    return false;
  }
  absl::string_view type = s.substr(0, slash), sub = s.substr(slash + 1);
  for (char c : type) {
    if (!IsTokenChar(c)) return false;
  }
  if (sub == "*") return true;
  for (char c : sub) {
    if (!IsTokenChar(c)) return false;
  }
  return true;
}

void ValidateSeeds(const CrawlConfig& c, Errors& e) {
  if (c.seeds().empty()) {
    e.Add("seeds", ": at least one seed is required");
    return;
  }
  e.TooMany("seeds", c.seeds_size(), kMaxSeeds);
  // Scope membership as the crawler applies it.
  const url::HostScope scope(c.scope().allowed_hosts(),
                             c.scope().allowed_domains());
  for (int i = 0; i < c.seeds_size() && static_cast<size_t>(i) < kMaxSeeds;
       ++i) {
    const std::string& s = c.seeds(i);
    absl::StatusOr<url::Url> u = url::Parse(s);
    if (!u.ok()) {
      e.Add(Indexed("seeds", i), absl::StrCat(": ", u.status().message()));
    } else if (const std::string host(u->host()); !scope.Contains(host)) {
      e.Add(Indexed("seeds", i),
            absl::StrCat(": host ", QuoteInput(host),
                         " is outside scope.allowed_hosts and "
                         "scope.allowed_domains"));
    }
  }
}

void ValidateTopic(const CrawlConfig& c, absl::string_view strategy,
                   Errors& e) {
  const proto::Topic& t = c.topic();
  e.TooMany("topic.keywords", t.keywords_size(), kMaxListEntries);
  bool has_keyword = false;
  for (int i = 0; i < t.keywords_size(); ++i) {
    if (IsBlank(t.keywords(i))) {
      e.Add(Indexed("topic.keywords", i), ": empty keyword");
    } else {
      has_keyword = true;
    }
  }
  const bool has_description = !IsBlank(t.description());
  const bool has_examples = !t.positive_examples_dir().empty();
  if (strategy != "bfs" && !has_keyword && !has_description && !has_examples) {
    e.Add("topic", absl::StrCat(": give keywords, a description, or example "
                                "folders (strategy '",
                                strategy, "' needs a topic)"));
  }
  if (strategy == "interest" && c.strategy().interest().model_file().empty() &&
      (t.positive_examples_dir().empty() ||
       t.negative_examples_dir().empty())) {
    e.Add(t.positive_examples_dir().empty() ? "topic.positive_examples_dir"
                                            : "topic.negative_examples_dir",
          ": the interest strategy needs both positive_examples_dir and "
          "negative_examples_dir (or strategy.interest.model_file)");
  }
  for (const auto& [name, value] :
       {std::pair<const char*, const std::string*>{
            "topic.positive_examples_dir", &t.positive_examples_dir()},
        {"topic.negative_examples_dir", &t.negative_examples_dir()},
        {"topic.url_dictionary_file", &t.url_dictionary_file()}}) {
    if (value->find('\0') != std::string::npos) {
      e.Add(name, ": contains a NUL byte");
    }
  }
  for (const focus::ParamError& error : focus::ValidateJudgeParams(t.judge())) {
    e.Add("topic.judge." + error.field, error.problem);
  }
  e.InRange("topic.title_weight", t.has_title_weight(), t.title_weight(), 1.0,
            10.0);
  e.InRange("topic.meta_weight", t.has_meta_weight(), t.meta_weight(), 1.0,
            10.0);
  e.InRange("topic.anchor_weight", t.has_anchor_weight(), t.anchor_weight(),
            1.0, 10.0);
  e.InRange("topic.coverage_tokens_per_use", t.has_coverage_tokens_per_use(),
            t.coverage_tokens_per_use(), 0.0, 1e6);
}

void ValidateStrategy(const proto::Strategy& s, Errors& e) {
  if (!s.name().empty()) {
    // The names MakeStrategy accepts (focus/strategy.h).
    const std::vector<absl::string_view>& known = StrategyNames();
    bool found = false;
    for (absl::string_view k : known) found = found || k == s.name();
    if (!found) {
      e.Add("strategy.name",
            absl::StrCat(": unknown strategy ", QuoteInput(s.name()),
                         " (known: ", absl::StrJoin(known, ", "), ")"));
    }
  }
  const std::string p = "strategy.";
  e.InRange(p + "order_window", s.has_order_window(), s.order_window(), 0,
            1000000);
  e.TooMany(p + "interest.scopes", s.interest().scopes_size(), kMaxListEntries);
  if (static_cast<size_t>(s.interest().scopes_size()) > kMaxListEntries) return;
  // The parameters' ranges are the strategies' own (focus/strategy.h).
  for (const focus::ParamError& error :
       focus::ValidateStrategyParams(StrategyOptionsOf(s))) {
    e.Add(p + error.field, error.problem);
  }
}

void ValidateScope(const proto::Scope& s, Errors& e) {
  e.TooMany("scope.allowed_hosts", s.allowed_hosts_size(), kMaxScopeEntries);
  e.TooMany("scope.allowed_domains", s.allowed_domains_size(),
            kMaxScopeEntries);
  for (int i = 0; i < s.allowed_hosts_size(); ++i) {
    std::string problem = ScopeEntryProblem(s.allowed_hosts(i), false);
    if (!problem.empty()) e.Add(Indexed("scope.allowed_hosts", i), problem);
  }
  for (int i = 0; i < s.allowed_domains_size(); ++i) {
    std::string problem = ScopeEntryProblem(s.allowed_domains(i), true);
    if (!problem.empty()) e.Add(Indexed("scope.allowed_domains", i), problem);
  }
  // LoadCrawlConfig reads the files and clears the fields; a config that
  // still names one came as a message, where a path would mean a file on
  // whichever machine reads it.
  for (const auto& [name, value] :
       {std::pair<const char*, const std::string*>{"scope.allowed_hosts_file",
                                                   &s.allowed_hosts_file()},
        {"scope.allowed_domains_file", &s.allowed_domains_file()}}) {
    if (!value->empty()) {
      e.Add(name, absl::StrCat(": ", QuoteInput(*value),
                               " is read only from a config file (worker or "
                               "crawlctl --config); a config sent as a "
                               "message lists the names themselves"));
    }
  }
  e.Positive("scope.max_pages_per_host", s.has_max_pages_per_host(),
             s.max_pages_per_host());
  e.InRange("scope.max_url_bytes", s.has_max_url_bytes(), s.max_url_bytes(), 16,
            static_cast<int32_t>(url::kMaxUrlLength));
  e.Positive("scope.max_links_per_page", s.has_max_links_per_page(),
             s.max_links_per_page());
}

void ValidateSitemaps(const proto::Sitemaps& s, Errors& e) {
  e.InRange("sitemaps.max_per_host", s.has_max_per_host(), s.max_per_host(), 0,
            1000);
  e.InRange("sitemaps.max_urls", s.has_max_urls(), s.max_urls(), 1, 50000);
}

void ValidateDuplicates(const proto::Duplicates& d, Errors& e) {
  e.InRange("duplicates.min_resemblance", d.has_min_resemblance(),
            d.min_resemblance(), 0.3, 1.0);
  e.InRange("duplicates.min_words", d.has_min_words(), d.min_words(), 3,
            100000);
}

void ValidateRevisit(const CrawlConfig& config, Errors& e) {
  const proto::Revisit& r = config.revisit();
  constexpr int64_t kMin = 10;
  constexpr int64_t kMax = int64_t{10} * 366 * 86400 * 1000;  // 10 years
  e.InRange("revisit.initial_interval_ms", r.has_initial_interval_ms(),
            r.initial_interval_ms(), kMin, kMax);
  e.InRange("revisit.min_interval_ms", r.has_min_interval_ms(),
            r.min_interval_ms(), kMin, kMax);
  e.InRange("revisit.max_interval_ms", r.has_max_interval_ms(),
            r.max_interval_ms(), kMin, kMax);
  // The order of the three as they will run (defaults filled in).
  const proto::Revisit eff = WithDefaults(config).revisit();
  if (eff.min_interval_ms() > eff.initial_interval_ms() ||
      eff.initial_interval_ms() > eff.max_interval_ms()) {
    e.Add("revisit",
          absl::StrCat(": min_interval_ms <= initial_interval_ms <= "
                       "max_interval_ms must hold, got ",
                       eff.min_interval_ms(), ", ", eff.initial_interval_ms(),
                       ", ", eff.max_interval_ms()));
  }
}

// A header value or file name: at most `max_bytes` of printable ASCII
// (empty allowed).
void PrintableAscii(absl::string_view field, const std::string& value,
                    size_t max_bytes, Errors& e) {
  bool printable = true;
  for (char c : value) printable = printable && c >= 0x20 && c < 0x7f;
  if (value.size() > max_bytes || !printable) {
    e.Add(std::string(field),
          absl::StrCat(": must be at most ", max_bytes,
                       " bytes of printable ASCII, got ", QuoteInput(value)));
  }
}

void ValidatePoliteness(const proto::Politeness& p, Errors& e) {
  e.NonNegative("politeness.per_host_delay_ms", p.has_per_host_delay_ms(),
                p.per_host_delay_ms());
  e.NonNegative("politeness.per_ip_delay_ms", p.has_per_ip_delay_ms(),
                p.per_ip_delay_ms());
  e.NonNegative("politeness.max_crawl_delay_ms", p.has_max_crawl_delay_ms(),
                p.max_crawl_delay_ms());
  e.InRange<int64_t>("politeness.robots_cache_seconds",
                     p.has_robots_cache_seconds(), p.robots_cache_seconds(), 0,
                     86400);
  if (p.has_user_agent()) {
    const std::string& ua = p.user_agent();
    bool printable = true;
    for (char c : ua) printable = printable && c >= 0x20 && c < 0x7f;
    const char first = ua.empty() ? ' ' : ua[0];
    if (ua.empty() || ua.size() > kMaxUserAgentBytes || !printable) {
      e.Add("politeness.user_agent",
            absl::StrCat(": must be 1 to ", kMaxUserAgentBytes,
                         " bytes of printable ASCII, got ", QuoteInput(ua)));
    } else if (!(absl::ascii_isalpha(first) || first == '_' || first == '-')) {
      e.Add("politeness.user_agent",
            absl::StrCat(": must start with a product token ([A-Za-z_-]), "
                         "got ",
                         QuoteInput(ua)));
    }
  }
  PrintableAscii("politeness.from", p.from(), kMaxUserAgentBytes, e);
  PrintableAscii("politeness.accept_language", p.accept_language(),
                 kMaxUserAgentBytes, e);
}

void ValidateFetch(const proto::Fetch& f, Errors& e) {
  e.Positive("fetch.connect_timeout_ms", f.has_connect_timeout_ms(),
             f.connect_timeout_ms());
  e.Positive("fetch.total_timeout_ms", f.has_total_timeout_ms(),
             f.total_timeout_ms());
  e.NonNegative("fetch.low_speed_bytes_per_s", f.has_low_speed_bytes_per_s(),
                f.low_speed_bytes_per_s());
  e.NonNegative("fetch.low_speed_seconds", f.has_low_speed_seconds(),
                f.low_speed_seconds());
  e.InRange<int64_t>("fetch.max_body_bytes", f.has_max_body_bytes(),
                     f.max_body_bytes(), 1, kMaxBodyBytes);
  e.InRange("fetch.max_redirects", f.has_max_redirects(), f.max_redirects(), 0,
            20);
  e.InRange("fetch.max_in_flight", f.has_max_in_flight(), f.max_in_flight(), 1,
            10000);
  e.InRange<int64_t>("fetch.dns_timeout_ms", f.has_dns_timeout_ms(),
                     f.dns_timeout_ms(), 10, 60000);
  e.InRange("fetch.max_dns_lookups", f.has_max_dns_lookups(),
            f.max_dns_lookups(), 1, 1000);
  e.InRange("fetch.unreachable_retries", f.has_unreachable_retries(),
            f.unreachable_retries(), 0, 10);
  e.InRange<int64_t>("fetch.unreachable_retry_ms", f.has_unreachable_retry_ms(),
                     f.unreachable_retry_ms(), 0, 86400000);
  PrintableAscii("fetch.proxy", f.proxy(), 2048, e);
  PrintableAscii("fetch.ca_file", f.ca_file(), 2048, e);
  if (!f.proxy().empty() && f.proxy().find("://") == std::string::npos) {
    e.Add("fetch.proxy", absl::StrCat(": must be scheme://host[:port], got ",
                                      QuoteInput(f.proxy())));
  }
  e.TooMany("fetch.dns_servers", f.dns_servers_size(), kMaxListEntries);
  for (int i = 0; i < f.dns_servers_size(); ++i) {
    IpAddress ip;
    const std::string& server = f.dns_servers(i);
    // "ip:port", "[ipv6]:port", or an address without a port (bracketed or
    // not).
    const bool ok = ParseIpPort(server, &ip) ||
                    ParseIpPort(absl::StrCat(server, ":53"), &ip) ||
                    ParseIpPort(absl::StrCat("[", server, "]:53"), &ip);
    if (!ok) {
      e.Add(Indexed("fetch.dns_servers", i),
            absl::StrCat(": not an IP address with an optional port, got ",
                         QuoteInput(server)));
    }
  }
  e.TooMany("fetch.accepted_content_types", f.accepted_content_types_size(),
            kMaxListEntries);
  for (int i = 0; i < f.accepted_content_types_size(); ++i) {
    if (!IsMediaRange(f.accepted_content_types(i))) {
      e.Add(Indexed("fetch.accepted_content_types", i),
            absl::StrCat(": not a media type (type/subtype or type/*), got ",
                         QuoteInput(f.accepted_content_types(i))));
    }
  }
}

void ValidateResolve(const CrawlConfig& c, Errors& e) {
  e.TooMany("resolve", c.resolve_size(), kMaxScopeEntries);
  std::map<std::string, int> seen;  // "host:port" → index
  for (int i = 0; i < c.resolve_size(); ++i) {
    const proto::Resolve& r = c.resolve(i);
    const std::string field = Indexed("resolve", i);
    const std::optional<HostPort> split = SplitHostPort(r.host_port());
    std::string normalised;
    if (split.has_value() && split->port != 0) {
      normalised = NormalisedHost(split->host);
    }
    const int port = split.has_value() ? split->port.value_or(0) : 0;
    if (normalised.empty()) {
      e.Add(field + ".host_port",
            absl::StrCat(": not a host or host:port, got ",
                         QuoteInput(r.host_port())));
    } else {
      std::string key = absl::StrCat(normalised, ":", port);
      auto [it, inserted] = seen.emplace(key, i);
      if (!inserted) {
        e.Add(field + ".host_port",
              absl::StrCat(": ", QuoteInput(r.host_port()), " repeats resolve[",
                           it->second, "]"));
      }
    }
    IpAddress ip;
    if (!ParseIpPort(r.address(), &ip)) {
      e.Add(field + ".address",
            absl::StrCat(": not an IP:port (\"127.0.0.1:8080\" or "
                         "\"[::1]:8080\"), got ",
                         QuoteInput(r.address())));
    } else if (IsPrivate(ip) && !c.allow_private_addresses()) {
      e.Add(field + ".address",
            absl::StrCat(": ", QuoteInput(r.address()),
                         " is a private, loopback or link-local address; set "
                         "allow_private_addresses: true to crawl it"));
    }
  }
}

void ValidateSegmentation(const proto::Segmentation& s, Errors& e) {
  e.InRange("segmentation.min_block_text", s.has_min_block_text(),
            s.min_block_text(), 1, 100000);
  e.InRange("segmentation.min_layout_ratio", s.has_min_layout_ratio(),
            s.min_layout_ratio(), 0.0, 1.0);
  e.InRange("segmentation.sim_threshold", s.has_sim_threshold(),
            s.sim_threshold(), 0.0, 1.0);
  if (s.has_template_share() &&
      !(s.template_share() > 0 && s.template_share() <= 1)) {
    e.Add("segmentation.template_share",
          absl::StrCat(" = ", s.template_share(), " is not in (0, 1]"));
  }
  e.InRange("segmentation.template_min_pages", s.has_template_min_pages(),
            s.template_min_pages(), 2, 1000);
  e.TooMany("segmentation.custom_tags", s.custom_tags_size(), kMaxListEntries);
  for (int i = 0; i < s.custom_tags_size(); ++i) {
    const std::string& tag = s.custom_tags(i);
    bool ok = !tag.empty() && tag.size() <= 64 && absl::ascii_isalpha(tag[0]);
    for (char c : tag) ok = ok && (absl::ascii_isalnum(c) || c == '-');
    if (!ok) {
      e.Add(Indexed("segmentation.custom_tags", i),
            absl::StrCat(": not a tag name, got ", QuoteInput(tag)));
    }
  }
}

}  // namespace

std::string ScopeEntryProblem(absl::string_view name, bool domain) {
  std::string host = NormalisedHost(name);
  if (host.empty()) {
    return absl::StrCat(domain ? ": not a domain name, got "
                               : ": not a host name (no scheme, port or "
                                 "path), got ",
                        QuoteInput(name));
  }
  if (!domain) return "";
  std::string registrable = url::RegistrableDomain(host);
  if (registrable == host) return "";
  return absl::StrCat(": ", QuoteInput(name),
                      " is not a registrable domain (did you mean ",
                      QuoteInput(registrable), ", or scope.allowed_hosts?)");
}

namespace {

// Adds an error for each string of `m` and its sub-messages, at any depth,
// that is not UTF-8, up to `*budget` of them: proto2 parsing (the config's)
// does not check, and the config's strings reach the tokenizer, logs and
// the cluster's proto3 messages.
void ValidateUtf8(const google::protobuf::Message& m, const std::string& path,
                  Errors& e, int* budget) {
  using google::protobuf::FieldDescriptor;
  const google::protobuf::Reflection* r = m.GetReflection();
  std::vector<const FieldDescriptor*> fields;
  r->ListFields(m, &fields);
  for (const FieldDescriptor* f : fields) {
    const std::string name = absl::StrCat(path, f->name());
    const int n = f->is_repeated() ? r->FieldSize(m, f) : 1;
    for (int i = 0; i < n; ++i) {
      if (*budget <= 0) return;
      const std::string at =
          f->is_repeated() ? absl::StrCat(name, "[", i, "]") : name;
      if (f->type() == FieldDescriptor::TYPE_STRING) {
        std::string scratch;
        const std::string& v =
            f->is_repeated() ? r->GetRepeatedStringReference(m, f, i, &scratch)
                             : r->GetStringReference(m, f, &scratch);
        if (!charset::IsValidUtf8(v)) {
          e.Add(at, ": not valid UTF-8");
          --*budget;
        }
      } else if (f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
        ValidateUtf8(f->is_repeated() ? r->GetRepeatedMessage(m, f, i)
                                      : r->GetMessage(m, f),
                     absl::StrCat(at, "."), e, budget);
      }
    }
  }
}

}  // namespace

absl::Status ValidateCrawlConfig(const CrawlConfig& config) {
  Errors e;
  // An empty name is the default's (WithDefaults).
  const std::string strategy = config.strategy().name().empty()
                                   ? proto::Strategy().name()
                                   : config.strategy().name();
  int utf8_errors = 10;
  ValidateUtf8(config, "", e, &utf8_errors);
  ValidateSeeds(config, e);
  ValidateTopic(config, strategy, e);
  ValidateStrategy(config.strategy(), e);
  {
    const proto::Budget& b = config.budget();
    e.Positive("budget.max_pages", b.has_max_pages(), b.max_pages());
    e.NonNegative("budget.max_depth", b.has_max_depth(), b.max_depth());
    e.NonNegative("budget.max_seconds", b.has_max_seconds(), b.max_seconds());
    e.InRange("budget.min_free_disk_mb", b.has_min_free_disk_mb(),
              b.min_free_disk_mb(), int64_t{0}, int64_t{1} << 20);
    e.NonNegative("budget.max_revisits", b.has_max_revisits(),
                  b.max_revisits());
  }
  ValidateScope(config.scope(), e);
  ValidateSitemaps(config.sitemaps(), e);
  ValidateDuplicates(config.duplicates(), e);
  ValidateRevisit(config, e);
  if (const proto::Warc& w = config.warc(); w.has_compression() &&
                                            w.compression() != "gzip" &&
                                            w.compression() != "zstd") {
    e.Add("warc.compression", absl::StrCat(": \"gzip\" or \"zstd\", got ",
                                           QuoteInput(w.compression())));
  }
  ValidatePoliteness(config.politeness(), e);
  ValidateFetch(config.fetch(), e);
  if (config.output_dir().find('\0') != std::string::npos) {
    e.Add("output_dir", ": contains a NUL byte");
  }
  ValidateResolve(config, e);
  ValidateSegmentation(config.segmentation(), e);
  return e.ToStatus();
}
}  // namespace fcrawl::formats
