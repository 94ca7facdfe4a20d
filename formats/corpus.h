// The corpus record as a JSON line (pages.jsonl; proto/corpus.proto says
// what each field means).
//
// Writing goes over the proto's fields by reflection, so the proto is the
// one place the format is defined: keys are the proto's field names in
// field-number order; strings go through core/json.h (any bytes in, valid
// UTF-8 JSON out); enums are written by name; numbers in their shortest
// round-trip form; a field with presence that is unset (relevance,
// topic_score, on_topic, rank, rank_score) is written as null; NaN and
// infinities as null.
//
// Reading is protobuf's JSON parser: keys it does not know are skipped (a
// newer writer), null is "unset", and a line over `max_bytes` or one that
// does not parse is InvalidArgument naming the problem.
//
// Thread-safety: both functions are reentrant.
#ifndef FCRAWL_FORMATS_CORPUS_H_
#define FCRAWL_FORMATS_CORPUS_H_

#include <cstddef>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "google/protobuf/message.h"
#include "proto/corpus.pb.h"

namespace fcrawl::formats {

// A line is bounded like the pages it comes from (main text of a 32 MiB
// page at most, plus its summaries).
inline constexpr size_t kMaxCorpusLineBytes = size_t{64} << 20;

// `message` as one JSON object (no newline), by the rules above. Works for
// any message; the corpus record is what it is for.
std::string ProtoJson(const google::protobuf::Message& message);

inline std::string CorpusJson(const proto::CorpusRecord& record) {
  return ProtoJson(record);
}

absl::StatusOr<proto::CorpusRecord> ParseCorpusJson(
    absl::string_view line, size_t max_bytes = kMaxCorpusLineBytes);

// The same for any message: `line` (at most `max_bytes`) into `message`;
// InvalidArgument "not a WHAT: ..." when it does not parse.
absl::Status ParseProtoJson(absl::string_view line, size_t max_bytes,
                            absl::string_view what,
                            google::protobuf::Message* message);

}  // namespace fcrawl::formats

#endif  // FCRAWL_FORMATS_CORPUS_H_
