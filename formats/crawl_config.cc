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
#include "focus/strategy.h"
#include "google/protobuf/io/tokenizer.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "google/protobuf/text_format.h"
#include "google/protobuf/util/json_util.h"

namespace fcrawl::formats {
namespace {

using proto::CrawlConfig;

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

// Appends the names of the file `path` to `list` (see ReadScopeFiles);
// nothing when `path` is empty.
absl::Status ReadScopeFile(
    const std::string& path, const char* field, bool domain,
    google::protobuf::RepeatedPtrField<std::string>* list) {
  if (path.empty()) return absl::OkStatus();
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
  // Cleared before reading: the names are in the lists from here on.
  const std::string hosts = scope->allowed_hosts_file();
  const std::string domains = scope->allowed_domains_file();
  scope->clear_allowed_hosts_file();
  scope->clear_allowed_domains_file();
  absl::Status s =
      ReadScopeFile(hosts, "scope.allowed_hosts_file",
                    /*domain=*/false, scope->mutable_allowed_hosts());
  if (!s.ok()) return s;
  return ReadScopeFile(domains, "scope.allowed_domains_file", /*domain=*/true,
                       scope->mutable_allowed_domains());
}

namespace {

// The singular scalar field `f` of `m` takes its default (declared, or the
// type's zero) explicitly; a string only a declared one.
void SetUnsetDefault(google::protobuf::Message* m,
                     const google::protobuf::FieldDescriptor* f) {
  using google::protobuf::FieldDescriptor;
  const google::protobuf::Reflection* r = m->GetReflection();
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

// Every unset singular scalar field of `m` takes its default (declared, or
// the type's zero) explicitly. Repeated and message fields are left alone.
void SetUnsetDefaults(google::protobuf::Message* m) {
  const google::protobuf::Descriptor* d = m->GetDescriptor();
  const google::protobuf::Reflection* r = m->GetReflection();
  for (int i = 0; i < d->field_count(); ++i) {
    const google::protobuf::FieldDescriptor* f = d->field(i);
    if (f->is_repeated() || !f->has_presence() || r->HasField(*m, f)) continue;
    SetUnsetDefault(m, f);
  }
}

// Every unset singular scalar field of `m` and of its singular message
// fields, recursively, with a declared default (`[default = ...]`) takes
// it explicitly; one without stays unset. Sub-messages are created (so
// print-config shows every section).
void SetDeclaredDefaults(google::protobuf::Message* m) {
  using google::protobuf::FieldDescriptor;
  const google::protobuf::Descriptor* d = m->GetDescriptor();
  const google::protobuf::Reflection* r = m->GetReflection();
  for (int i = 0; i < d->field_count(); ++i) {
    const FieldDescriptor* f = d->field(i);
    if (f->is_repeated()) continue;
    if (f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
      SetDeclaredDefaults(r->MutableMessage(m, f));
    } else if (f->has_default_value() && !r->HasField(*m, f)) {
      SetUnsetDefault(m, f);
    }
  }
}

}  // namespace

proto::CrawlConfig WithDefaults(proto::CrawlConfig c) {
  // An empty name or folder means "the default" too.
  if (c.has_output_dir() && c.output_dir().empty()) c.clear_output_dir();
  proto::Strategy* s = c.mutable_strategy();
  if (s->has_name() && s->name().empty()) s->clear_name();
  // Unset, bfs orders by discovery (proto/crawl_config.proto says why).
  if (!s->has_order_window() && s->name() == "bfs") s->set_order_window(0);
  proto::Fetch* f = c.mutable_fetch();
  if (f->accepted_content_types().empty()) {
    f->add_accepted_content_types("text/html");
    f->add_accepted_content_types("application/xhtml+xml");
  }
  // The strategies' parameters and the judge's (proto/strategy_params.proto)
  // are written out whole, every scalar with its default, the named
  // strategy's and the others'.
  SetUnsetDefaults(c.mutable_topic()->mutable_judge());
  for (google::protobuf::Message* m :
       std::initializer_list<google::protobuf::Message*>{
           s->mutable_fish(), s->mutable_shark(), s->mutable_ssaps(),
           s->mutable_hopfield(), s->mutable_interest(),
           s->mutable_topic_pagerank(), s->mutable_improved_shark(),
           s->mutable_url_rule(), s->mutable_learned()}) {
    SetUnsetDefaults(m);
  }
  SetDeclaredDefaults(&c);
  return c;
}

std::vector<std::string> SeedUrlsOf(const proto::CrawlConfig& config) {
  std::vector<std::string> out(config.seeds().begin(), config.seeds().end());
  if (config.strategy().name() == "interest") {
    for (const proto::InterestScope& sc :
         config.strategy().interest().scopes()) {
      out.push_back(sc.start_url());
    }
  }
  return out;
}

focus::StrategyOptions StrategyOptionsOf(const proto::Strategy& s) {
  focus::StrategyOptions o;
  o.fish = s.fish();
  o.shark = s.shark();
  o.ssaps = s.ssaps();
  o.hopfield = s.hopfield();
  o.interest = s.interest();
  o.topic_pagerank = s.topic_pagerank();
  o.improved_shark = s.improved_shark();
  o.url_rule = s.url_rule();
  o.learned = s.learned();
  return o;
}

std::string CrawlConfigToText(const CrawlConfig& config) {
  std::string out;
  google::protobuf::TextFormat::PrintToString(config, &out);
  return out;
}

}  // namespace fcrawl::formats
