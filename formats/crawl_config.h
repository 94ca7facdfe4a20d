// The crawl config (proto/crawl_config.proto): reading it from text format or
// JSON, checking it, and filling in its defaults.
//
// A config is written by a person, so every error says where it is: parse
// errors name the file, line and column and the offending field; validation
// errors name the field path ("budget.max_pages", "seeds[2]",
// "resolve[0].address") and the value that was given.
//
// Typical use:
//   absl::StatusOr<proto::CrawlConfig> config = LoadCrawlConfig(path);
//   if (!config.ok()) { report config.status(); exit; }
//   proto::CrawlConfig effective = WithDefaults(*std::move(config));
//
// The worker, the coordinator (which checks a config before a crawl starts)
// and crawlctl (which sends one) all read configs, so this lives in formats/,
// apart from the worker's libcurl and RocksDB; it needs focus/ only for the
// strategy names and their parameters.
//
// Thread-safety: every function here is thread-safe.

#ifndef FCRAWL_FORMATS_CRAWL_CONFIG_H_
#define FCRAWL_FORMATS_CRAWL_CONFIG_H_

#include <cstddef>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "proto/crawl_config.pb.h"

namespace fcrawl::focus {
struct StrategyOptions;  // focus/strategy.h
}  // namespace fcrawl::focus

namespace fcrawl::formats {

// Largest config accepted, bytes (file or string). Larger inputs are refused
// before parsing. Room for the most seeds a config may list (100,000) at
// about 160 bytes a line; well below the RPC message limit
// (cluster::kMaxMessageBytes, 32 MiB) a cluster crawl's config travels in.
inline constexpr size_t kMaxConfigBytes = 16 << 20;

// Most names scope.allowed_hosts and scope.allowed_domains may each hold
// (inline and from their files together). Scope lists and address
// overrides are hash lookups in the crawler (core/host_scope.h, the
// fetcher's resolve map), so the bound is on memory, not on time.
inline constexpr size_t kMaxScopeEntries = 1000000;

// Reads, parses and validates the config at `path`. The format comes from the
// extension: .textproto, .txtpb, .pbtxt, .cfg, .txt → text format; .json →
// JSON; anything else → JSON if the first non-blank byte is '{', else text.
// Returns the config as written (call WithDefaults for the effective one),
// with scope.allowed_hosts_file and allowed_domains_file read into their
// lists (ReadScopeFiles).
// Errors: NotFound / PermissionDenied when the file cannot be read,
// InvalidArgument for a file over kMaxConfigBytes, a parse error, a scope
// file that cannot be read or holds a bad name, or a validation error;
// every message starts with `path`.
absl::StatusOr<proto::CrawlConfig> LoadCrawlConfig(const std::string& path);

// Parse only (no validation). Unknown fields, repeated singular fields and
// malformed values are errors; the message gives line:column (1-based) and
// names the field. InvalidArgument on failure, also for input over
// kMaxConfigBytes.
absl::StatusOr<proto::CrawlConfig> ParseCrawlConfigText(absl::string_view text);
// Proto3 JSON mapping: field names in lowerCamelCase or as in the .proto,
// 64-bit integers as numbers or strings. Errors as ParseCrawlConfigText; the
// line:column of an unknown field is given where it can be found.
absl::StatusOr<proto::CrawlConfig> ParseCrawlConfigJson(absl::string_view json);

// Reads scope.allowed_hosts_file and scope.allowed_domains_file (paths
// relative to the working directory, each at most kMaxConfigBytes): their
// names (one per line, surrounding blanks trimmed, empty lines and lines
// starting with '#' skipped) are appended to allowed_hosts and
// allowed_domains and the fields are cleared. Errors (InvalidArgument, or
// NotFound / PermissionDenied for a file that cannot be opened) name the
// field and the file; a bad name gives "FILE:LINE" and the problem, up to
// ten of them at once. A config without the fields is left as it is.
absl::Status ReadScopeFiles(proto::CrawlConfig& config);

// What is wrong with `name` as an entry of scope.allowed_domains (when
// `domain`) or scope.allowed_hosts: "" when nothing, else the problem,
// starting with ": " to follow the entry's position (": not a host name
// (no scheme, port or path), got \"http://x/\"").
std::string ScopeEntryProblem(absl::string_view name, bool domain);

// Checks the values (set fields only; unset fields take their defaults, which
// are valid). All problems are reported at once, separated by "; ", each
// prefixed by its field path. InvalidArgument on failure. Checks include: at
// least one seed, each an http(s) URL inside the scope; a topic unless the
// strategy is "bfs" (and both example folders for "interest"); a known
// strategy name; every parameter in the range its .proto comment gives;
// well-formed scope hosts and domains, user agent, content types and resolve
// entries (address an IP:port, not private unless allow_private_addresses).
// Validating WithDefaults(c) gives the same result as validating c.
absl::Status ValidateCrawlConfig(const proto::CrawlConfig& config);

// Returns `config` with every unset field that has a default set to it: the
// `[default = ...]` of proto/crawl_config.proto and proto/strategy_params.proto
// (their one source; an empty strategy.name or output_dir counts as unset),
// so that the effective config says every value. The strategies' parameter
// messages are written out whole (every number and bool, the type's zero
// where none is declared; a string only with a declared default), the named
// strategy's and the others'. Two rules are not field defaults: an unset
// order_window is 0 for "bfs", and an empty fetch.accepted_content_types is
// text/html and application/xhtml+xml. Fields without a default (seeds, topic
// texts, scope lists, resolve) are left as they are.
proto::CrawlConfig WithDefaults(proto::CrawlConfig config);

// The crawl's start pages as written: config.seeds, then, for the interest
// strategy, its scopes' start pages (not normalised; repeats kept).
std::vector<std::string> SeedUrlsOf(const proto::CrawlConfig& config);

// The parameter messages of the config's strategy section as the
// strategies take them (the caller adds interest_model, sites and
// url_dictionary, which the crawl builds).
focus::StrategyOptions StrategyOptionsOf(const proto::Strategy& strategy);

// Text format of `config` (the form ParseCrawlConfigText reads), for
// printing the effective config.
std::string CrawlConfigToText(const proto::CrawlConfig& config);

}  // namespace fcrawl::formats

#endif  // FCRAWL_FORMATS_CRAWL_CONFIG_H_
