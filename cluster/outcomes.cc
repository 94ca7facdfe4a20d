#include "cluster/outcomes.h"

#include "google/protobuf/descriptor.h"
#include "google/protobuf/message.h"

namespace fcrawl::cluster {

std::vector<std::pair<std::string, int64_t>> OutcomeClasses(
    const proto::FetchOutcomeCounts& counts) {
  const google::protobuf::Descriptor* d = counts.GetDescriptor();
  const google::protobuf::Reflection* r = counts.GetReflection();
  std::vector<std::pair<std::string, int64_t>> out;
  out.reserve(d->field_count());
  for (int i = 0; i < d->field_count(); ++i) {
    const google::protobuf::FieldDescriptor* f = d->field(i);
    if (f->number() == proto::FetchOutcomeCounts::kOnTopicHostsFieldNumber ||
        f->cpp_type() != google::protobuf::FieldDescriptor::CPPTYPE_INT64) {
      continue;
    }
    out.emplace_back(std::string(f->name()), r->GetInt64(counts, f));
  }
  return out;
}

}  // namespace fcrawl::cluster
