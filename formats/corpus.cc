#include "formats/corpus.h"

#include <cstdint>

#include "absl/strings/str_cat.h"
#include "core/json.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/util/json_util.h"

namespace fcrawl::formats {
namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;

void AppendMessage(const Message& m, std::string* out);

// One value of `field` (element `index` of a repeated field, else -1).
void AppendValue(const Message& m, const FieldDescriptor* f, int index,
                 std::string* out) {
  const Reflection* r = m.GetReflection();
  const bool rep = index >= 0;
  switch (f->cpp_type()) {
    case FieldDescriptor::CPPTYPE_STRING:
      json::AppendQuoted(
          out, rep ? r->GetRepeatedString(m, f, index) : r->GetString(m, f));
      break;
    case FieldDescriptor::CPPTYPE_INT32:
      absl::StrAppend(
          out, rep ? r->GetRepeatedInt32(m, f, index) : r->GetInt32(m, f));
      break;
    case FieldDescriptor::CPPTYPE_INT64:
      absl::StrAppend(
          out, rep ? r->GetRepeatedInt64(m, f, index) : r->GetInt64(m, f));
      break;
    case FieldDescriptor::CPPTYPE_UINT32:
      absl::StrAppend(
          out, rep ? r->GetRepeatedUInt32(m, f, index) : r->GetUInt32(m, f));
      break;
    case FieldDescriptor::CPPTYPE_UINT64:
      absl::StrAppend(
          out, rep ? r->GetRepeatedUInt64(m, f, index) : r->GetUInt64(m, f));
      break;
    case FieldDescriptor::CPPTYPE_DOUBLE:
      out->append(json::Number(rep ? r->GetRepeatedDouble(m, f, index)
                                   : r->GetDouble(m, f)));
      break;
    case FieldDescriptor::CPPTYPE_FLOAT:
      out->append(json::Number(rep ? r->GetRepeatedFloat(m, f, index)
                                   : r->GetFloat(m, f)));
      break;
    case FieldDescriptor::CPPTYPE_BOOL:
      out->append((rep ? r->GetRepeatedBool(m, f, index) : r->GetBool(m, f))
                      ? "true"
                      : "false");
      break;
    case FieldDescriptor::CPPTYPE_ENUM: {
      const int v =
          rep ? r->GetRepeatedEnumValue(m, f, index) : r->GetEnumValue(m, f);
      const google::protobuf::EnumValueDescriptor* e =
          f->enum_type()->FindValueByNumber(v);
      // A number the descriptor does not name (from a newer writer) is
      // written as the number, which the JSON parser also reads.
      if (e != nullptr) {
        json::AppendQuoted(out, e->name());
      } else {
        absl::StrAppend(out, v);
      }
      break;
    }
    case FieldDescriptor::CPPTYPE_MESSAGE:
      AppendMessage(
          rep ? r->GetRepeatedMessage(m, f, index) : r->GetMessage(m, f), out);
      break;
  }
}

void AppendMessage(const Message& m, std::string* out) {
  const google::protobuf::Descriptor* d = m.GetDescriptor();
  const Reflection* r = m.GetReflection();
  out->push_back('{');
  for (int i = 0; i < d->field_count(); ++i) {
    const FieldDescriptor* f = d->field(i);
    if (i > 0) out->push_back(',');
    json::AppendQuoted(out, f->name());
    out->push_back(':');
    if (f->is_repeated()) {
      out->push_back('[');
      const int n = r->FieldSize(m, f);
      for (int k = 0; k < n; ++k) {
        if (k > 0) out->push_back(',');
        AppendValue(m, f, k, out);
      }
      out->push_back(']');
    } else if (f->has_presence() && !r->HasField(m, f)) {
      out->append("null");
    } else {
      AppendValue(m, f, -1, out);
    }
  }
  out->push_back('}');
}

}  // namespace

std::string ProtoJson(const Message& message) {
  std::string out;
  AppendMessage(message, &out);
  return out;
}

absl::Status ParseProtoJson(absl::string_view line, size_t max_bytes,
                            absl::string_view what,
                            google::protobuf::Message* message) {
  if (line.size() > max_bytes) {
    return absl::InvalidArgumentError(absl::StrCat(
        what, " line of ", line.size(), " bytes is over ", max_bytes));
  }
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = true;
  const auto s = google::protobuf::util::JsonStringToMessage(
      google::protobuf::StringPiece(line.data(), line.size()), message,
      options);
  if (!s.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("not a ", what, ": ", s.message().as_string()));
  }
  return absl::OkStatus();
}

absl::StatusOr<proto::CorpusRecord> ParseCorpusJson(absl::string_view line,
                                                    size_t max_bytes) {
  proto::CorpusRecord record;
  if (absl::Status s =
          ParseProtoJson(line, max_bytes, "corpus record", &record);
      !s.ok()) {
    return s;
  }
  return record;
}

}  // namespace fcrawl::formats
