#include "corpus/corpus_cli.h"

#include <cmath>
#include <optional>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "core/json.h"
#include "corpus/corpus.h"
#include "corpus/search.h"
#include "formats/corpus.h"

namespace fcrawl::corpus {
namespace {

int Fail(FILE* err, const absl::Status& s) {
  std::fprintf(err, "worker: %s\n", std::string(s.message()).c_str());
  return absl::IsInvalidArgument(s) || absl::IsNotFound(s) ? 2 : 1;
}

absl::StatusOr<CorpusFilter> FilterOf(const CorpusCliFlags& f) {
  CorpusFilter filter;
  filter.on_topic = f.on_topic;
  filter.language = f.language;
  filter.media_only = f.media_only;
  filter.keep_duplicates = !f.no_duplicates;
  filter.include_gone = f.include_gone;
  if (!f.min_score.empty()) {
    double v;
    if (!absl::SimpleAtod(f.min_score, &v) || !std::isfinite(v)) {
      return absl::InvalidArgumentError(
          absl::StrCat("--min_score \"", f.min_score, "\" is not a number"));
    }
    filter.min_score = v;
  }
  return filter;
}

std::optional<RankJoin> RanksOf(const CorpusCliFlags& f) {
  if (f.ranks.empty()) return std::nullopt;
  return RankJoin{f.ranks, f.num_pages};
}

std::string StatsJson(const CorpusStats& s) {
  std::string problems;
  for (const std::string& p : s.problems) {
    absl::StrAppend(&problems, problems.empty() ? "" : ",", json::Quote(p));
  }
  return absl::StrCat("\"lines\":", s.lines, ",\"bad_lines\":", s.bad_lines,
                      ",\"superseded\":", s.superseded,
                      ",\"filtered\":", s.filtered, ",\"written\":", s.written,
                      ",\"ranked\":", s.ranked, ",\"problems\":[", problems,
                      "]");
}

}  // namespace

int RunCorpusExport(const std::vector<std::string>& inputs,
                    const CorpusCliFlags& flags, FILE* out, FILE* err) {
  absl::StatusOr<ExportFormat> format = ParseExportFormat(flags.format);
  if (!format.ok()) return Fail(err, format.status());
  absl::StatusOr<CorpusFilter> filter = FilterOf(flags);
  if (!filter.ok()) return Fail(err, filter.status());
  if (flags.out.empty()) {
    return Fail(err, absl::InvalidArgumentError("corpus needs --out FILE"));
  }
  ExportOptions options;
  options.format = *format;
  options.bulk_index = flags.bulk_index;
  CorpusStats stats;
  absl::Status s =
      ExportCorpus(inputs, *filter, RanksOf(flags), options, flags.out, &stats);
  if (!s.ok()) return Fail(err, s);
  std::fprintf(out, "{%s,\"out\":%s}\n", StatsJson(stats).c_str(),
               json::Quote(flags.out).c_str());
  return 0;
}

int RunCorpusIndex(const std::vector<std::string>& inputs,
                   const CorpusCliFlags& flags, FILE* out, FILE* err) {
  absl::StatusOr<CorpusFilter> filter = FilterOf(flags);
  if (!filter.ok()) return Fail(err, filter.status());
  if (flags.index.empty()) {
    return Fail(err, absl::InvalidArgumentError("index needs --index DIR"));
  }
  IndexOptions options;
  options.stem_language = flags.stem_language;
  CorpusStats stats;
  absl::StatusOr<int64_t> added = IndexCorpus(inputs, *filter, RanksOf(flags),
                                              flags.index, options, &stats);
  if (!added.ok()) return Fail(err, added.status());
  std::fprintf(out, "{%s,\"indexed\":%lld,\"index\":%s}\n",
               StatsJson(stats).c_str(), static_cast<long long>(*added),
               json::Quote(flags.index).c_str());
  return 0;
}

int RunCorpusSearch(const std::string& query, const CorpusCliFlags& flags,
                    FILE* out, FILE* err) {
  if (flags.index.empty()) {
    return Fail(err, absl::InvalidArgumentError("search needs --index DIR"));
  }
  absl::StatusOr<std::unique_ptr<SearchIndex>> index =
      SearchIndex::OpenForReading(flags.index);
  if (!index.ok()) return Fail(err, index.status());
  SearchOptions o;
  o.limit = flags.limit;
  o.rank_weight = flags.rank_weight;
  o.topic_weight = flags.topic_weight;
  o.on_topic_only = flags.on_topic;
  o.collapse_duplicates = !flags.all_duplicates;
  if (flags.json) o.marks = SearchOptions::Marks::kHtml;
  absl::StatusOr<SearchResult> r = (*index)->Search(query, o);
  if (!r.ok()) return Fail(err, r.status());
  if (flags.json) {
    std::fprintf(out, "%s\n", SearchResultJson(query, *r).c_str());
    return 0;
  }
  std::fprintf(out, "about %lld matches for %s\n",
               static_cast<long long>(r->matches_estimated),
               json::Quote(query).c_str());
  for (const SearchHit& h : r->hits) {
    const proto::CorpusRecord& p = h.record;
    // Text for a terminal: the page's own strings made printable.
    auto clean = [](const std::string& s) {
      std::string o = s;
      for (char& c : o) {
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) c = ' ';
      }
      return o;
    };
    std::fprintf(
        out, "%2d. %s\n    %s\n    weight %.3f%s%s\n    %s\n", h.position,
        clean(p.title()).c_str(), clean(p.url()).c_str(), h.weight,
        p.has_rank() ? absl::StrCat(", block rank #", p.rank()).c_str() : "",
        p.has_on_topic() && p.on_topic() ? ", on topic" : "",
        clean(h.snippet).c_str());
  }
  return 0;
}

}  // namespace fcrawl::corpus
