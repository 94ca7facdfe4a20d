#include "cluster/ranks.h"

#include <cmath>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"

namespace fcrawl::cluster {
namespace {

constexpr absl::string_view kTsvHeader =
    "rank\turl\tscore\tpagerank\trelevance\tcombined\tfetched";

// A ranker output line: the URL and the algorithm's score.
absl::Status ParseLine(absl::string_view line, bool jsonl, std::string* url,
                       double* score) {
  if (jsonl) {
    google::protobuf::Struct s;
    google::protobuf::util::JsonParseOptions o;
    o.ignore_unknown_fields = true;
    if (!google::protobuf::util::JsonStringToMessage(std::string(line), &s, o)
             .ok()) {
      return absl::InvalidArgumentError("not a JSON object");
    }
    auto u = s.fields().find("url");
    auto sc = s.fields().find("score");
    if (u == s.fields().end() || !u->second.has_string_value() ||
        sc == s.fields().end() || !sc->second.has_number_value()) {
      return absl::InvalidArgumentError("no \"url\" string and \"score\"");
    }
    *url = u->second.string_value();
    *score = sc->second.number_value();
    return absl::OkStatus();
  }
  std::vector<absl::string_view> f = absl::StrSplit(line, '\t');
  if (f.size() != 7) {
    return absl::InvalidArgumentError(
        absl::StrCat(f.size(), " columns; a ranking has 7"));
  }
  if (!absl::SimpleAtod(f[2], score)) {
    return absl::InvalidArgumentError("the score is not a number");
  }
  *url = std::string(f[1]);
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckRankedPage(const proto::RankedPage& page, int index) {
  const std::string& u = page.url();
  if (u.empty() || u.size() > kMaxRankedUrlBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("ranks[", index, "]: URL empty or over ",
                     kMaxRankedUrlBytes, " bytes"));
  }
  const absl::string_view lower = absl::AsciiStrToLower(u.substr(0, 8));
  if (!absl::StartsWith(lower, "http://") &&
      !absl::StartsWith(lower, "https://")) {
    return absl::InvalidArgumentError(
        absl::StrCat("ranks[", index, "]: not an http(s) URL"));
  }
  if (!std::isfinite(page.rank()) || page.rank() < 0 ||
      page.rank() > kMaxRank) {
    return absl::InvalidArgumentError(
        absl::StrCat("ranks[", index, "]: rank ", page.rank(),
                     " is not a number in [0, ", kMaxRank, "]"));
  }
  return absl::OkStatus();
}

absl::StatusOr<RankFile> ReadRankFile(const std::string& path,
                                      int64_t num_pages, size_t max_bytes) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return absl::NotFoundError(absl::StrCat(path, ": cannot open"));
  const std::streamoff size = in.tellg();
  if (size < 0 || static_cast<uint64_t>(size) > max_bytes) {
    return absl::ResourceExhaustedError(absl::StrCat(
        path, ": ", size, " bytes; a ranking may have at most ", max_bytes));
  }
  in.seekg(0);
  RankFile out;
  std::string line;
  int64_t line_no = 0;
  bool jsonl = false;
  std::vector<double> scores;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty()) continue;
    if (line_no == 1) {
      jsonl = line[0] == '{';
      if (!jsonl) {
        if (line != kTsvHeader) {
          return absl::InvalidArgumentError(absl::StrCat(
              path, ": line 1 is neither the ranking's TSV header nor JSON"));
        }
        continue;
      }
    }
    std::string url;
    double score = 0;
    if (absl::Status s = ParseLine(line, jsonl, &url, &score); !s.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(path, ": line ", line_no, ": ", s.message()));
    }
    if (!std::isfinite(score) || score < 0 || score > 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          path, ": line ", line_no, ": score ", score, " is not in [0, 1]"));
    }
    proto::RankedPage p;
    p.set_url(std::move(url));
    out.pages.push_back(std::move(p));
    scores.push_back(score);
    out.score_sum += score;
  }
  if (in.bad()) return absl::DataLossError(absl::StrCat(path, ": read error"));
  out.lines = static_cast<int64_t>(out.pages.size());
  const double n = num_pages > 0 ? static_cast<double>(num_pages)
                                 : static_cast<double>(out.lines);
  for (size_t i = 0; i < scores.size(); ++i) {
    out.pages[i].set_rank(n * scores[i]);
  }
  return out;
}

}  // namespace fcrawl::cluster
