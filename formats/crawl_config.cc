// Reading the crawl config (text format, JSON, a file), filling in its
// defaults and printing it: crawl_config.h. Checking the values is
// crawl_config_validate.cc.
#include "formats/crawl_config.h"

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "core/file.h"
#include "core/url.h"
#include "focus/site_templates.h"
#include "google/protobuf/io/tokenizer.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "google/protobuf/text_format.h"
#include "google/protobuf/util/json_util.h"
#include "quark/quark.h"

namespace fcrawl::formats {
namespace {

using proto::CrawlConfig;

// Strategy.order_window of the focused strategies (proto/crawl_config.proto
// says why; docs/strategies.md measures it).
constexpr int32_t kDefaultOrderWindow = 16;

// ---------------------------------------------------------------- parsing

class Collector : public google::protobuf::io::ErrorCollector {
 public:
  void AddError(int line, google::protobuf::io::ColumnNumber column,
                const std::string& message) override {
    if (errors_.size() < 10) {
      errors_.push_back(absl::StrCat(line + 1, ":", column + 1, ": ", message));
    }
  }
  void AddWarning(int line, google::protobuf::io::ColumnNumber column,
                  const std::string& message) override {}
  std::string Joined() const { return absl::StrJoin(errors_, "; "); }

 private:
  std::vector<std::string> errors_;
};

absl::Status TooLarge(size_t size) {
  return absl::InvalidArgumentError(absl::StrCat(
      "config is ", size, " bytes, more than the limit of ", kMaxConfigBytes));
}

// 1-based "line:column" of byte `offset` in `text`.
std::string Position(absl::string_view text, size_t offset) {
  int line = 1, column = 1;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return absl::StrCat(line, ":", column);
}

// The position of the JSON key `"name"` (followed by ':'), or "" if absent.
std::string FindJsonKey(absl::string_view json, absl::string_view name) {
  const std::string quoted = absl::StrCat("\"", name, "\"");
  for (size_t at = json.find(quoted); at != absl::string_view::npos;
       at = json.find(quoted, at + 1)) {
    size_t after = at + quoted.size();
    while (after < json.size() && absl::ascii_isspace(json[after])) ++after;
    if (after < json.size() && json[after] == ':') return Position(json, at);
  }
  return "";
}

}  // namespace

absl::StatusOr<CrawlConfig> ParseCrawlConfigText(absl::string_view text) {
  if (text.size() > kMaxConfigBytes) return TooLarge(text.size());
  CrawlConfig config;
  Collector collector;
  google::protobuf::TextFormat::Parser parser;
  parser.RecordErrorsTo(&collector);
  google::protobuf::io::ArrayInputStream input(text.data(),
                                               static_cast<int>(text.size()));
  if (!parser.Parse(&input, &config)) {
    std::string errors = collector.Joined();
    if (errors.empty()) errors = "text format parse error";
    return absl::InvalidArgumentError(errors);
  }
  return config;
}

absl::StatusOr<CrawlConfig> ParseCrawlConfigJson(absl::string_view json) {
  if (json.size() > kMaxConfigBytes) return TooLarge(json.size());
  CrawlConfig config;
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = false;
  options.case_insensitive_enum_parsing = false;
  auto status = google::protobuf::util::JsonStringToMessage(
      google::protobuf::StringPiece(json.data(), json.size()), &config,
      options);
  if (!status.ok()) {
    std::string message(status.message().data(), status.message().size());
    // protobuf 3.21 reports an unknown field as "<name>: Cannot find field."
    // without a position; find the key to give one.
    constexpr absl::string_view kCannotFind = ": Cannot find field.";
    size_t at = message.find(std::string(kCannotFind));
    if (at != std::string::npos) {
      // "(budget) maxPagez" for a nested field, "colour" at the top level.
      std::string name = message.substr(0, at);
      std::string parent;
      if (!name.empty() && name[0] == '(') {
        size_t close = name.find(") ");
        if (close != std::string::npos) {
          parent = name.substr(1, close - 1);
          name = name.substr(close + 2);
        }
      }
      std::string position = FindJsonKey(json, name);
      message = absl::StrCat(position.empty() ? "" : position + ": ",
                             "unknown field \"",
                             parent.empty() ? name : parent + "." + name, "\"");
    }
    return absl::InvalidArgumentError(message);
  }
  return config;
}

absl::StatusOr<CrawlConfig> LoadCrawlConfig(const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) {
    absl::Status s = file::ErrnoStatus("cannot open", path);
    // The codes LoadCrawlConfig promises: NotFound, PermissionDenied, or
    // InvalidArgument for anything else.
    if (absl::IsNotFound(s) || absl::IsPermissionDenied(s)) return s;
    return absl::InvalidArgumentError(s.message());
  }
  std::string data;
  char buffer[65536];
  bool read_error = false;
  while (data.size() <= kMaxConfigBytes) {
    size_t n = std::fread(buffer, 1, sizeof(buffer), f);
    data.append(buffer, n);
    if (n < sizeof(buffer)) {
      read_error = std::ferror(f) != 0;
      break;
    }
  }
  const int err = errno;
  std::fclose(f);
  if (read_error) {
    return absl::InvalidArgumentError(
        file::ErrnoStatus(err, "cannot read", path).message());
  }
  if (data.size() > kMaxConfigBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": config is larger than the limit of ",
                     kMaxConfigBytes, " bytes"));
  }

  std::string ext;
  size_t slash = path.rfind('/');
  size_t dot = path.rfind('.');
  if (dot != std::string::npos && (slash == std::string::npos || dot > slash)) {
    ext = absl::AsciiStrToLower(path.substr(dot + 1));
  }
  bool json;
  if (ext == "json") {
    json = true;
  } else if (ext == "textproto" || ext == "txtpb" || ext == "pbtxt" ||
             ext == "cfg" || ext == "txt") {
    json = false;
  } else {
    absl::string_view rest = absl::StripLeadingAsciiWhitespace(data);
    json = !rest.empty() && rest[0] == '{';
  }

  absl::StatusOr<CrawlConfig> config =
      json ? ParseCrawlConfigJson(data) : ParseCrawlConfigText(data);
  if (!config.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ":", config.status().message()));
  }
  if (absl::Status s = ReadScopeFiles(*config); !s.ok()) {
    return absl::Status(s.code(), absl::StrCat(path, ": ", s.message()));
  }
  if (absl::Status s = ValidateCrawlConfig(*config); !s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": ", s.message()));
  }
  return config;
}

namespace {

// Appends the names of the file `*path` names to `list` and clears `*path`
// (see ReadScopeFiles); nothing when `*path` is empty.
absl::Status ReadScopeFile(
    std::string* path_field, const char* field, bool domain,
    google::protobuf::RepeatedPtrField<std::string>* list) {
  if (path_field->empty()) return absl::OkStatus();
  const std::string path = std::move(*path_field);
  path_field->clear();
  if (path.find('\0') != std::string::npos) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ": contains a NUL byte"));
  }
  absl::StatusOr<std::string> data =
      file::ReadFileBounded(path, kMaxConfigBytes, field);
  if (!data.ok()) {
    return absl::Status(data.status().code(),
                        absl::StrCat(field, ": ", data.status().message()));
  }
  constexpr int kMaxProblems = 10;
  std::vector<std::string> problems;
  int64_t line_no = 0;
  for (absl::string_view line : absl::StrSplit(*data, '\n')) {
    ++line_no;
    line = absl::StripAsciiWhitespace(line);
    if (line.empty() || line[0] == '#') continue;
    if (static_cast<size_t>(list->size()) >= kMaxScopeEntries) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ": ", path, ":", line_no, ": more than ",
                       kMaxScopeEntries, " names"));
    }
    std::string problem = ScopeEntryProblem(line, domain);
    if (problem.empty()) {
      list->Add(std::string(line));
    } else if (problems.size() < kMaxProblems) {
      problems.push_back(absl::StrCat(path, ":", line_no, problem));
    }
  }
  if (!problems.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ": ", absl::StrJoin(problems, "; ")));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status ReadScopeFiles(CrawlConfig& config) {
  proto::Scope* scope = config.mutable_scope();
  absl::Status s = ReadScopeFile(scope->mutable_allowed_hosts_file(),
                                 "scope.allowed_hosts_file", /*domain=*/false,
                                 scope->mutable_allowed_hosts());
  if (!s.ok()) return s;
  return ReadScopeFile(scope->mutable_allowed_domains_file(),
                       "scope.allowed_domains_file", /*domain=*/true,
                       scope->mutable_allowed_domains());
}

namespace {

// Every unset singular scalar field of `m` that has a declared default
// (proto2 `[default = ...]`, or the type's zero) takes that value
// explicitly. Repeated and message fields are left alone.
void SetUnsetDefaults(google::protobuf::Message* m) {
  using google::protobuf::FieldDescriptor;
  const google::protobuf::Descriptor* d = m->GetDescriptor();
  const google::protobuf::Reflection* r = m->GetReflection();
  for (int i = 0; i < d->field_count(); ++i) {
    const FieldDescriptor* f = d->field(i);
    if (f->is_repeated() || !f->has_presence() || r->HasField(*m, f)) continue;
    switch (f->cpp_type()) {
      case FieldDescriptor::CPPTYPE_INT32:
        r->SetInt32(m, f, f->default_value_int32());
        break;
      case FieldDescriptor::CPPTYPE_INT64:
        r->SetInt64(m, f, f->default_value_int64());
        break;
      case FieldDescriptor::CPPTYPE_UINT32:
        r->SetUInt32(m, f, f->default_value_uint32());
        break;
      case FieldDescriptor::CPPTYPE_UINT64:
        r->SetUInt64(m, f, f->default_value_uint64());
        break;
      case FieldDescriptor::CPPTYPE_DOUBLE:
        r->SetDouble(m, f, f->default_value_double());
        break;
      case FieldDescriptor::CPPTYPE_FLOAT:
        r->SetFloat(m, f, f->default_value_float());
        break;
      case FieldDescriptor::CPPTYPE_BOOL:
        r->SetBool(m, f, f->default_value_bool());
        break;
      case FieldDescriptor::CPPTYPE_STRING:
        // A string without a declared default stays unset (model_file:
        // "none" is not a value worth printing).
        if (f->has_default_value()) {
          r->SetString(m, f, f->default_value_string());
        }
        break;
      case FieldDescriptor::CPPTYPE_ENUM:
        r->SetEnum(m, f, f->default_value_enum());
        break;
      case FieldDescriptor::CPPTYPE_MESSAGE:
        break;
    }
  }
}

}  // namespace

proto::CrawlConfig WithDefaults(proto::CrawlConfig c) {
#define FCRAWL_DEFAULT(msg, field, value) \
  if (!(msg)->has_##field()) (msg)->set_##field(value)

  if (c.output_dir().empty()) c.set_output_dir("crawl-out");

  proto::Topic* t = c.mutable_topic();
  FCRAWL_DEFAULT(t, title_weight, 3.0);
  FCRAWL_DEFAULT(t, meta_weight, 3.0);
  FCRAWL_DEFAULT(t, anchor_weight, 3.0);
  FCRAWL_DEFAULT(t, coverage_tokens_per_use, 1000.0);
  SetUnsetDefaults(t->mutable_judge());  // proto/strategy_params.proto

  proto::Strategy* s = c.mutable_strategy();
  if (s->name().empty()) s->set_name(kDefaultStrategy);
  if (!s->has_order_window()) {
    s->set_order_window(s->name() == "bfs" ? 0 : kDefaultOrderWindow);
  }
  // The parameter messages carry their defaults
  // (proto/strategy_params.proto); written out here so that print-config
  // shows them.
  for (google::protobuf::Message* m :
       std::initializer_list<google::protobuf::Message*>{
           s->mutable_fish(), s->mutable_shark(), s->mutable_ssaps(),
           s->mutable_hopfield(), s->mutable_interest(),
           s->mutable_topic_pagerank(), s->mutable_improved_shark(),
           s->mutable_url_rule(), s->mutable_learned()}) {
    SetUnsetDefaults(m);
  }

  proto::Budget* b = c.mutable_budget();
  FCRAWL_DEFAULT(b, max_pages, 10000);
  FCRAWL_DEFAULT(b, max_depth, 0);
  FCRAWL_DEFAULT(b, max_seconds, 0);
  FCRAWL_DEFAULT(b, min_free_disk_mb, 256);
  FCRAWL_DEFAULT(b, max_revisits, 0);

  proto::Scope* sc = c.mutable_scope();
  FCRAWL_DEFAULT(sc, max_pages_per_host, 10000);
  FCRAWL_DEFAULT(sc, max_url_bytes, static_cast<int32_t>(url::kMaxUrlLength));
  FCRAWL_DEFAULT(sc, max_links_per_page, 1000);
  FCRAWL_DEFAULT(sc, follow_canonical, true);

  proto::Sitemaps* sm = c.mutable_sitemaps();
  FCRAWL_DEFAULT(sm, from_robots, true);
  FCRAWL_DEFAULT(sm, guess_on_seed_hosts, false);
  FCRAWL_DEFAULT(sm, max_per_host, 16);
  FCRAWL_DEFAULT(sm, max_urls, 50000);

  proto::Duplicates* du = c.mutable_duplicates();
  FCRAWL_DEFAULT(du, enabled, true);
  FCRAWL_DEFAULT(du, min_resemblance, 0.7);
  FCRAWL_DEFAULT(du, min_words, 50);
  FCRAWL_DEFAULT(du, expand, false);

  FCRAWL_DEFAULT(c.mutable_warc(), compression, "gzip");
  FCRAWL_DEFAULT(c.mutable_search(), index, false);
  FCRAWL_DEFAULT(c.mutable_corpus(), markdown, false);

  proto::Revisit* rv = c.mutable_revisit();
  FCRAWL_DEFAULT(rv, continuous, false);
  FCRAWL_DEFAULT(rv, initial_interval_ms, int64_t{86400000});
  FCRAWL_DEFAULT(rv, min_interval_ms, int64_t{3600000});
  FCRAWL_DEFAULT(rv, max_interval_ms, int64_t{2592000000});
  FCRAWL_DEFAULT(rv, conditional_get, true);

  proto::Politeness* p = c.mutable_politeness();
  FCRAWL_DEFAULT(p, per_host_delay_ms, 1000);
  FCRAWL_DEFAULT(p, per_ip_delay_ms, 0);
  FCRAWL_DEFAULT(p, user_agent, "fcrawl/0.1");
  FCRAWL_DEFAULT(p, obey_robots, true);
  FCRAWL_DEFAULT(p, max_crawl_delay_ms, 60000);
  FCRAWL_DEFAULT(p, robots_cache_seconds, 86400);
  FCRAWL_DEFAULT(p, obey_robots_meta, true);
  FCRAWL_DEFAULT(p, obey_x_robots_tag, true);
  FCRAWL_DEFAULT(p, obey_rel_nofollow, true);
  FCRAWL_DEFAULT(p, from, "");
  FCRAWL_DEFAULT(p, accept_language, "");

  proto::Fetch* f = c.mutable_fetch();
  FCRAWL_DEFAULT(f, connect_timeout_ms, 10000);
  FCRAWL_DEFAULT(f, total_timeout_ms, 30000);
  FCRAWL_DEFAULT(f, low_speed_bytes_per_s, 1000);
  FCRAWL_DEFAULT(f, low_speed_seconds, 10);
  FCRAWL_DEFAULT(f, max_body_bytes, 10 * 1024 * 1024);
  FCRAWL_DEFAULT(f, max_redirects, 5);
  FCRAWL_DEFAULT(f, max_in_flight, 64);
  FCRAWL_DEFAULT(f, async_dns, true);
  FCRAWL_DEFAULT(f, dns_timeout_ms, 5000);
  FCRAWL_DEFAULT(f, max_dns_lookups, 256);
  FCRAWL_DEFAULT(f, unreachable_retries, 2);
  FCRAWL_DEFAULT(f, unreachable_retry_ms, 60000);
  FCRAWL_DEFAULT(f, http2, true);
  if (f->accepted_content_types().empty()) {
    f->add_accepted_content_types("text/html");
    f->add_accepted_content_types("application/xhtml+xml");
  }

  proto::Segmentation* g = c.mutable_segmentation();
  // Quark's option structs own the segmentation defaults.
  const quark::RecognizerOptions ro;
  const quark::AnalyzerOptions ao;
  FCRAWL_DEFAULT(g, min_block_text, static_cast<int32_t>(ro.min_block_text));
  FCRAWL_DEFAULT(g, min_layout_ratio, ro.min_layout_ratio);
  FCRAWL_DEFAULT(g, sim_threshold, ao.sim_threshold);
  const focus::SiteTemplateOptions to;
  FCRAWL_DEFAULT(g, site_templates, true);
  FCRAWL_DEFAULT(g, template_share, to.min_share);
  FCRAWL_DEFAULT(g, template_min_pages, to.min_pages);

#undef FCRAWL_DEFAULT
  return c;
}

std::string CrawlConfigToText(const CrawlConfig& config) {
  std::string out;
  google::protobuf::TextFormat::PrintToString(config, &out);
  return out;
}

}  // namespace fcrawl::formats
