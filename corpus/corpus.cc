#include "corpus/corpus.h"

#include <openssl/sha.h>

#include <filesystem>
#include <fstream>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "cluster/ranks.h"
#include "core/file.h"
#include "core/json.h"
#include "formats/corpus.h"
#include "formats/crawl_log.h"

namespace fcrawl::corpus {
namespace {

constexpr size_t kMaxProblems = 10;
constexpr int64_t kMaxLinesPerInput = 200'000'000;

std::string InputFile(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return absl::StrCat(path, "/", formats::CrawlLog::kPagesName);
  }
  return path;
}

void Problem(CorpusStats* stats, const std::string& where,
             absl::string_view why) {
  ++stats->bad_lines;
  if (stats->problems.size() < kMaxProblems) {
    stats->problems.push_back(absl::StrCat(where, ": ", why));
  }
}

// Where a URL's latest record is.
struct Latest {
  std::string fetched_at;  // RFC 3339 UTC, so strings order as times do
  int input = 0;
  int64_t line = 0;
};

// Reads every line of every input, calling fn(input, line_no, record).
absl::Status Scan(
    const std::vector<std::string>& files, CorpusStats* stats, bool count,
    const std::function<absl::Status(int, int64_t, proto::CorpusRecord&)>& fn) {
  for (size_t i = 0; i < files.size(); ++i) {
    std::ifstream in(files[i], std::ios::binary);
    if (!in.is_open()) {
      return absl::NotFoundError(
          absl::StrCat(files[i], ": cannot open (no corpus there?)"));
    }
    // A line too long for a record is skipped: the lines after it are read.
    const std::function<void(int64_t)> too_long = [&](int64_t line_no) {
      if (count) {
        ++stats->lines;
        Problem(stats, absl::StrCat(files[i], ":", line_no),
                absl::StrCat("line longer than ", formats::kMaxCorpusLineBytes,
                             " bytes"));
      }
    };
    absl::Status s = file::ForEachLine(
        in, files[i], formats::kMaxCorpusLineBytes, kMaxLinesPerInput,
        [&](absl::string_view line, int64_t line_no, bool) -> absl::Status {
          if (absl::StripAsciiWhitespace(line).empty()) return absl::OkStatus();
          if (count) ++stats->lines;
          absl::StatusOr<proto::CorpusRecord> r =
              formats::ParseCorpusJson(line);
          if (!r.ok() || r->url().empty()) {
            if (count) {
              Problem(stats, absl::StrCat(files[i], ":", line_no),
                      r.ok() ? "no url" : r.status().message());
            }
            return absl::OkStatus();
          }
          return fn(static_cast<int>(i), line_no, *r);
        },
        &too_long);
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

// RFC 4180: quoted when it holds a comma, quote, CR or LF; quotes doubled.
void AppendCsvField(std::string* out, absl::string_view v) {
  // `v` is valid UTF-8: it was read back by protobuf's JSON parser.
  const bool quote = v.find_first_of(",\"\r\n") != absl::string_view::npos;
  if (!quote) {
    out->append(v.data(), v.size());
    return;
  }
  out->push_back('"');
  for (char c : v) {
    if (c == '"') out->push_back('"');
    out->push_back(c);
  }
  out->push_back('"');
}

std::string OptionalNumber(bool has, double v) {
  return has ? json::Number(v) : "";
}

}  // namespace

bool CorpusFilter::Keep(const proto::CorpusRecord& r) const {
  if (r.gone()) return include_gone;
  if (on_topic && !(r.has_on_topic() && r.on_topic())) return false;
  if (!language.empty()) {
    const std::string want = absl::AsciiStrToLower(language);
    const std::string have = absl::AsciiStrToLower(r.language());
    if (have != want && !absl::StartsWith(have, absl::StrCat(want, "-"))) {
      return false;
    }
  }
  if (min_score.has_value() &&
      !(r.has_topic_score() && r.topic_score() >= *min_score)) {
    return false;
  }
  if (media_only && r.media_size() == 0) return false;
  if (!keep_duplicates && !r.duplicate_of().empty()) return false;
  return true;
}

absl::Status ReadCorpus(
    const std::vector<std::string>& inputs, const CorpusFilter& filter,
    const std::optional<RankJoin>& ranks, CorpusStats* stats,
    const std::function<absl::Status(proto::CorpusRecord&)>& emit) {
  CorpusStats local;
  if (stats == nullptr) stats = &local;
  if (inputs.empty()) return absl::InvalidArgumentError("no corpus input");
  std::vector<std::string> files;
  for (const std::string& in : inputs) files.push_back(InputFile(in));

  absl::flat_hash_map<std::string, std::pair<int64_t, double>> rank_of;
  if (ranks.has_value()) {
    absl::StatusOr<cluster::RankFile> file =
        cluster::ReadRankFile(ranks->path, ranks->num_pages);
    if (!file.ok()) return file.status();
    for (size_t i = 0; i < file->pages.size(); ++i) {
      rank_of.try_emplace(file->pages[i].url(), static_cast<int64_t>(i + 1),
                          file->pages[i].rank());
    }
  }

  // Pass 1: where each URL's latest record is.
  absl::flat_hash_map<std::string, Latest> latest;
  absl::Status s = Scan(
      files, stats, /*count=*/true,
      [&](int input, int64_t line, proto::CorpusRecord& r) -> absl::Status {
        auto [it, inserted] =
            latest.try_emplace(r.url(), Latest{r.fetched_at(), input, line});
        if (!inserted) {
          ++stats->superseded;
          if (r.fetched_at() >= it->second.fetched_at) {
            it->second = Latest{r.fetched_at(), input, line};
          }
        }
        return absl::OkStatus();
      });
  if (!s.ok()) return s;
  // Pass 2: the latest records, filtered, ranked, handed on.
  return Scan(
      files, stats, /*count=*/false,
      [&](int input, int64_t line, proto::CorpusRecord& r) -> absl::Status {
        auto it = latest.find(r.url());
        if (it == latest.end() || it->second.input != input ||
            it->second.line != line) {
          return absl::OkStatus();
        }
        if (!filter.Keep(r)) {
          ++stats->filtered;
          return absl::OkStatus();
        }
        r.clear_rank();
        r.clear_rank_score();
        if (auto k = rank_of.find(r.url()); k != rank_of.end()) {
          r.set_rank(k->second.first);
          r.set_rank_score(k->second.second);
          ++stats->ranked;
        }
        ++stats->written;
        return emit(r);
      });
}

absl::StatusOr<ExportFormat> ParseExportFormat(absl::string_view name) {
  if (name == "jsonl") return ExportFormat::kJsonl;
  if (name == "csv") return ExportFormat::kCsv;
  if (name == "bulk") return ExportFormat::kBulk;
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown export format \"", name, "\" (one of: jsonl, csv, bulk)"));
}

std::string CsvHeader() {
  return "url,title,language,byline,date,on_topic,topic_score,relevance,"
         "topic_model,rank,rank_score,duplicate_of,media,media_kinds,"
         "canonical_url,fetched_at,main_text,main_markdown,gone\r\n";
}

std::string CsvRow(const proto::CorpusRecord& r) {
  std::vector<std::string> kinds;
  for (const proto::MediaResource& m : r.media()) {
    std::string k = absl::AsciiStrToLower(proto::MediaType_Name(m.kind()));
    if (std::find(kinds.begin(), kinds.end(), k) == kinds.end()) {
      kinds.push_back(std::move(k));
    }
  }
  const std::string fields[] = {
      r.url(),
      r.title(),
      r.language(),
      r.byline(),
      r.date(),
      r.has_on_topic() ? (r.on_topic() ? "true" : "false") : "",
      OptionalNumber(r.has_topic_score(), r.topic_score()),
      OptionalNumber(r.has_relevance(), r.relevance()),
      r.topic_model(),
      r.has_rank() ? absl::StrCat(r.rank()) : "",
      OptionalNumber(r.has_rank_score(), r.rank_score()),
      r.duplicate_of(),
      absl::StrCat(r.media_size()),
      absl::StrJoin(kinds, ";"),
      r.canonical_url(),
      r.fetched_at(),
      r.main_text(),
      r.main_markdown(),
      r.gone() ? "true" : "",
  };
  std::string out;
  bool first = true;
  for (const std::string& f : fields) {
    if (!first) out.push_back(',');
    first = false;
    AppendCsvField(&out, f);
  }
  out.append("\r\n");
  return out;
}

std::string BulkLines(const proto::CorpusRecord& r, absl::string_view index) {
  unsigned char digest[SHA_DIGEST_LENGTH];
  SHA1(reinterpret_cast<const unsigned char*>(r.url().data()), r.url().size(),
       digest);
  // A tombstone (--include_gone) deletes the page's document: a delete
  // action has no source line.
  std::string out =
      r.gone() ? "{\"delete\":{\"_index\":" : "{\"index\":{\"_index\":";
  json::AppendQuoted(&out, index);
  absl::StrAppend(&out, ",\"_id\":\"",
                  absl::BytesToHexString(absl::string_view(
                      reinterpret_cast<const char*>(digest), sizeof(digest))),
                  "\"}}\n");
  if (!r.gone()) absl::StrAppend(&out, formats::CorpusJson(r), "\n");
  return out;
}

absl::Status ExportCorpus(const std::vector<std::string>& inputs,
                          const CorpusFilter& filter,
                          const std::optional<RankJoin>& ranks,
                          const ExportOptions& options,
                          const std::string& out_path, CorpusStats* stats) {
  if (options.format == ExportFormat::kBulk && options.bulk_index.empty()) {
    return absl::InvalidArgumentError("the bulk export needs an index name");
  }
  file::AtomicFile out;
  if (absl::Status s = out.Open(out_path); !s.ok()) return s;
  std::string buffer;
  if (options.format == ExportFormat::kCsv) buffer = CsvHeader();
  auto flush = [&](bool force) -> absl::Status {
    if (!force && buffer.size() < (size_t{1} << 20)) return absl::OkStatus();
    absl::Status s = out.Write(buffer);
    buffer.clear();
    return s;
  };
  absl::Status s =
      ReadCorpus(inputs, filter, ranks, stats,
                 [&](proto::CorpusRecord& r) -> absl::Status {
                   switch (options.format) {
                     case ExportFormat::kJsonl:
                       absl::StrAppend(&buffer, formats::CorpusJson(r), "\n");
                       break;
                     case ExportFormat::kCsv:
                       buffer.append(CsvRow(r));
                       break;
                     case ExportFormat::kBulk:
                       buffer.append(BulkLines(r, options.bulk_index));
                       break;
                   }
                   return flush(false);
                 });
  if (!s.ok()) return s;
  if (s = flush(true); !s.ok()) return s;
  return out.Commit();
}

}  // namespace fcrawl::corpus
