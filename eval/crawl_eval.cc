// Evaluating crawls (eval/crawl_eval.h): reading fetch logs and labels,
// normalizing URLs, and the harvest and recall curves. The reports made from
// the results are crawl_report.cc's.
#include "eval/crawl_eval.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <system_error>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "core/file.h"
#include "core/json.h"
#include "core/url.h"
#include "formats/crawl_log.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"

namespace fcrawl::eval {
namespace {

absl::Status OpenError(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    return absl::NotFoundError(absl::StrCat(path, ": no such file"));
  }
  return absl::PermissionDeniedError(absl::StrCat(path, ": cannot open"));
}

bool IsBlank(absl::string_view s) {
  return absl::StripAsciiWhitespace(s).empty();
}

// Error text from the JSON parser, made safe to print: its first line only
// (the next ones quote the hostile input around a caret), at most 160
// bytes, control characters (terminal escapes) replaced.
std::string Short(absl::string_view s) {
  constexpr size_t kMax = 160;
  s = s.substr(0, s.find('\n'));
  std::string out(s.substr(0, kMax));
  for (char& c : out) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) c = '?';
  }
  if (s.size() > kMax) out += "...";
  return out;
}

}  // namespace

std::string NormalizeUrl(absl::string_view u) {
  absl::StatusOr<url::Url> parsed = url::Parse(u);
  if (!parsed.ok()) return std::string(u);
  return parsed->spec();
}

absl::StatusOr<Labels> ReadLabels(std::istream& in, absl::string_view source,
                                  const ReadOptions& options,
                                  LabelsInfo* info) {
  Labels labels;
  LabelsInfo seen;
  bool first = true;
  absl::Status s = file::ForEachLine(
      in, source, options.max_line_bytes, options.max_lines,
      [&](absl::string_view line, int64_t line_no, bool) -> absl::Status {
        if (absl::EndsWith(line, "\r")) line.remove_suffix(1);
        if (IsBlank(line)) return absl::OkStatus();
        const size_t tab = line.find('\t');
        if (tab == absl::string_view::npos) {
          return absl::InvalidArgumentError(absl::StrCat(
              source, ":", line_no, ": expected url<TAB>label[,label...]"));
        }
        const absl::string_view u =
            absl::StripAsciiWhitespace(line.substr(0, tab));
        if (u.empty()) {
          return absl::InvalidArgumentError(
              absl::StrCat(source, ":", line_no, ": empty URL"));
        }
        const bool was_first = first;
        first = false;
        if (was_first && absl::EqualsIgnoreCase(u, "url")) {
          seen.header = true;
          return absl::OkStatus();
        }
        absl::string_view rest = line.substr(tab + 1);
        if (const size_t next = rest.find('\t');
            next != absl::string_view::npos) {
          rest = rest.substr(0, next);
          ++seen.extra_columns;
        }
        std::vector<std::string>& out = labels[NormalizeUrl(u)];
        for (absl::string_view l :
             absl::StrSplit(rest, ',', absl::SkipWhitespace())) {
          std::string label(absl::StripAsciiWhitespace(l));
          if (std::find(out.begin(), out.end(), label) == out.end()) {
            out.push_back(std::move(label));
          }
        }
        return absl::OkStatus();
      });
  if (!s.ok()) return s;
  if (info != nullptr) *info = seen;
  return labels;
}

absl::StatusOr<Labels> ReadLabelsFile(const std::string& path,
                                      const ReadOptions& options,
                                      LabelsInfo* info) {
  std::ifstream in(path, std::ios::binary);
  if (!in.is_open()) return OpenError(path);
  return ReadLabels(in, path, options, info);
}

std::vector<std::pair<std::string, int64_t>> CommonLabels(const Labels& labels,
                                                          size_t max) {
  absl::flat_hash_map<std::string, int64_t> counts;
  for (const auto& [u, ls] : labels) {
    for (const std::string& l : ls) ++counts[l];
  }
  std::vector<std::pair<std::string, int64_t>> out(counts.begin(),
                                                   counts.end());
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  if (out.size() > max) out.resize(max);
  return out;
}

absl::StatusOr<std::vector<std::string>> ParseTopic(absl::string_view topic) {
  std::vector<std::string> prefixes;
  for (absl::string_view p : absl::StrSplit(topic, ',')) {
    p = absl::StripAsciiWhitespace(p);
    if (p.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("topic '", topic, "' has an empty prefix"));
    }
    prefixes.emplace_back(p);
  }
  return prefixes;
}

bool OnTopic(const std::vector<std::string>& labels,
             const std::vector<std::string>& prefixes) {
  for (const std::string& l : labels) {
    for (const std::string& p : prefixes) {
      if (l.size() == p.size() ? l == p
                               : l.size() > p.size() && l[p.size()] == '.' &&
                                     absl::StartsWith(l, p)) {
        return true;
      }
    }
  }
  return false;
}

absl::flat_hash_set<std::string> OnTopicUrls(
    const Labels& labels, const std::vector<std::string>& prefixes) {
  absl::flat_hash_set<std::string> out;
  for (const auto& [u, l] : labels) {
    if (OnTopic(l, prefixes)) out.insert(u);
  }
  return out;
}

absl::StatusOr<FetchLog> ReadFetchLog(std::istream& in,
                                      absl::string_view source,
                                      const ReadOptions& options) {
  FetchLog log;
  absl::flat_hash_set<std::string> seen;
  // Parses one line; the error message has no position (added below).
  auto parse = [](absl::string_view line, FetchedPage& page) -> absl::Status {
    google::protobuf::Struct obj;
    const auto s = google::protobuf::util::JsonStringToMessage(
        google::protobuf::StringPiece(line.data(), line.size()), &obj);
    if (!s.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "not a JSON object: ",
          Short(absl::string_view(s.message().data(), s.message().size()))));
    }
    const auto& fields = obj.fields();
    const auto u = fields.find("url");
    if (u == fields.end() || !u->second.has_string_value() ||
        u->second.string_value().empty()) {
      return absl::InvalidArgumentError("\"url\" missing or not a string");
    }
    page.url = NormalizeUrl(u->second.string_value());
    page.final_url = page.url;
    if (const auto f = fields.find("final_url"); f != fields.end()) {
      if (f->second.has_string_value()) {
        if (!f->second.string_value().empty()) {
          page.final_url = NormalizeUrl(f->second.string_value());
        }
      } else if (!f->second.has_null_value()) {
        return absl::InvalidArgumentError("\"final_url\" is not a string");
      }
    }
    page.relevance.reset();
    if (const auto r = fields.find("relevance"); r != fields.end()) {
      if (r->second.has_number_value() &&
          std::isfinite(r->second.number_value())) {
        page.relevance = r->second.number_value();
      } else if (!r->second.has_null_value()) {
        return absl::InvalidArgumentError(
            "\"relevance\" is neither a number nor null");
      }
    }
    page.status = 0;
    if (const auto st = fields.find("status"); st != fields.end()) {
      if (st->second.has_number_value() &&
          std::isfinite(st->second.number_value()) &&
          st->second.number_value() >= 0 && st->second.number_value() < 1000) {
        page.status = static_cast<int>(st->second.number_value());
      } else if (!st->second.has_null_value()) {
        return absl::InvalidArgumentError(
            "\"status\" is not an HTTP status (0 to 999) or null");
      }
    }
    page.content_type.clear();
    if (const auto ct = fields.find("content_type"); ct != fields.end()) {
      if (ct->second.has_string_value()) {
        page.content_type = Short(ct->second.string_value());
      } else if (!ct->second.has_null_value()) {
        return absl::InvalidArgumentError("\"content_type\" is not a string");
      }
    }
    page.error = false;
    if (const auto e = fields.find("error"); e != fields.end()) {
      if (e->second.has_string_value()) {
        page.error = !e->second.string_value().empty();
      } else if (!e->second.has_null_value()) {
        return absl::InvalidArgumentError("\"error\" is not a string");
      }
    }
    page.judged_on_topic.reset();
    if (const auto j = fields.find("on_topic"); j != fields.end()) {
      if (j->second.has_bool_value()) {
        page.judged_on_topic = j->second.bool_value();
      } else if (!j->second.has_null_value()) {
        return absl::InvalidArgumentError(
            "\"on_topic\" is neither true, false nor null");
      }
    }
    return absl::OkStatus();
  };
  absl::Status s = file::ForEachLine(
      in, source, options.max_line_bytes, options.max_lines,
      [&](absl::string_view line, int64_t line_no,
          bool terminated) -> absl::Status {
        if (IsBlank(line)) return absl::OkStatus();
        ++log.lines;
        FetchedPage page;
        if (absl::Status p = parse(line, page); !p.ok()) {
          if (!terminated) {
            ++log.truncated_tail;
            return absl::OkStatus();
          }
          if (options.skip_malformed) {
            ++log.malformed;
            return absl::OkStatus();
          }
          return absl::InvalidArgumentError(
              absl::StrCat(source, ":", line_no, ": ", p.message()));
        }
        absl::StatusOr<url::Url> parsed = url::Parse(page.url);
        if (parsed.ok() && parsed->path() == "/robots.txt") {
          ++log.robots;
          return absl::OkStatus();
        }
        if (!seen.insert(page.url).second) {
          ++log.duplicates;
          return absl::OkStatus();
        }
        log.pages.push_back(std::move(page));
        return absl::OkStatus();
      });
  if (!s.ok()) return s;
  return log;
}

absl::StatusOr<FetchLog> ReadFetchLogFile(const std::string& path,
                                          const ReadOptions& options) {
  std::error_code ec;
  std::string file = path;
  if (std::filesystem::is_directory(path, ec)) {
    file = (std::filesystem::path(path) /
            std::string(formats::CrawlLog::kFetchLogName))
               .string();
  }
  std::ifstream in(file, std::ios::binary);
  if (!in.is_open()) return OpenError(file);
  return ReadFetchLog(in, file, options);
}

FetchOutcome ClassifyFetch(const FetchedPage& page, bool labelled_on_topic) {
  if (labelled_on_topic) return FetchOutcome::kOnTopic;
  if (page.status == 404 || page.status == 410) return FetchOutcome::kNotFound;
  if (page.status < 200 || page.status >= 300 || page.error) {
    return FetchOutcome::kOtherError;
  }
  // The media type without parameters; an absent type is sniffed as HTML by
  // the worker, so it counts as HTML here too.
  const absl::string_view type =
      absl::StripAsciiWhitespace(absl::string_view(page.content_type)
                                     .substr(0, page.content_type.find(';')));
  if (!type.empty() && !absl::EqualsIgnoreCase(type, "text/html") &&
      !absl::EqualsIgnoreCase(type, "application/xhtml+xml")) {
    return FetchOutcome::kNonHtml;
  }
  return FetchOutcome::kOffTopic;
}

absl::StatusOr<CrawlResult> Evaluate(
    absl::string_view name, const FetchLog& log,
    const absl::flat_hash_set<std::string>& on_topic,
    const EvalOptions& options) {
  if (options.segment_size < 1) {
    return absl::InvalidArgumentError("segment size must be at least 1");
  }
  if (!std::isfinite(options.relevance_threshold)) {
    return absl::InvalidArgumentError("relevance threshold must be finite");
  }
  CrawlResult r;
  r.name = std::string(name);
  r.log_counts.lines = log.lines;
  r.log_counts.robots = log.robots;
  r.log_counts.duplicates = log.duplicates;
  r.log_counts.malformed = log.malformed;
  r.log_counts.truncated_tail = log.truncated_tail;
  r.on_topic_total = static_cast<int64_t>(on_topic.size());
  const size_t n = log.pages.size();
  r.harvest_curve.reserve(n);
  r.recall_curve.reserve(n);
  r.relevant_page_curve.reserve(n);
  r.info_curve.reserve(n);
  // Recall counts URLs, not lines: two redirecting URLs that end on the same
  // labelled page find it once.
  absl::flat_hash_set<absl::string_view> found;
  absl::flat_hash_set<std::string> on_topic_hosts;
  Segment seg;
  for (size_t i = 0; i < n; ++i) {
    const FetchedPage& p = log.pages[i];
    const int64_t page_no = static_cast<int64_t>(i) + 1;
    if (seg.first_page == 0) seg.first_page = page_no;
    const bool url_on = on_topic.contains(p.url);
    const bool final_on = on_topic.contains(p.final_url);
    if (url_on || final_on) {
      ++r.on_topic;
      ++seg.on_topic;
      if (url_on) found.insert(p.url);
      if (final_on) found.insert(p.final_url);
    }
    switch (ClassifyFetch(p, url_on || final_on)) {
      case FetchOutcome::kOnTopic:
        ++r.outcomes.on_topic;
        if (absl::StatusOr<url::Url> u =
                url::Parse(final_on ? p.final_url : p.url);
            u.ok()) {
          on_topic_hosts.insert(std::string(u->host()));
        }
        break;
      case FetchOutcome::kNotFound:
        ++r.outcomes.not_found;
        break;
      case FetchOutcome::kOtherError:
        ++r.outcomes.other_error;
        break;
      case FetchOutcome::kNonHtml:
        ++r.outcomes.non_html;
        break;
      case FetchOutcome::kOffTopic:
        ++r.outcomes.off_topic;
        break;
    }
    if (p.final_url != p.url) ++r.outcomes.redirected;
    if (p.judged_on_topic.has_value()) {
      ++r.judged;
      const bool labelled = url_on || final_on;
      if (*p.judged_on_topic && labelled) ++r.judged_true_positives;
      if (*p.judged_on_topic && !labelled) ++r.judged_false_positives;
      if (!*p.judged_on_topic && labelled) ++r.judged_false_negatives;
    }
    if (p.relevance.has_value()) {
      ++r.pages_with_relevance;
      r.sum_of_info += *p.relevance;
      seg.sum_of_info += *p.relevance;
      if (*p.relevance > options.relevance_threshold) {
        ++r.sum_of_relevant_page;
        ++seg.sum_of_relevant_page;
      }
    }
    r.harvest_curve.push_back(static_cast<double>(r.on_topic) / page_no);
    r.recall_curve.push_back(r.on_topic_total == 0
                                 ? 0.0
                                 : static_cast<double>(found.size()) /
                                       r.on_topic_total);
    r.relevant_page_curve.push_back(r.sum_of_relevant_page);
    r.info_curve.push_back(r.sum_of_info);
    if (page_no % options.segment_size == 0 || i + 1 == n) {
      seg.last_page = page_no;
      seg.harvest_rate = static_cast<double>(seg.on_topic) /
                         (seg.last_page - seg.first_page + 1);
      r.segments.push_back(seg);
      seg = Segment();
    }
  }
  r.pages = static_cast<int64_t>(n);
  r.on_topic_found = static_cast<int64_t>(found.size());
  r.on_topic_hosts = static_cast<int64_t>(on_topic_hosts.size());
  r.harvest_rate = n == 0 ? 0.0 : r.harvest_curve.back();
  r.recall = n == 0 ? 0.0 : r.recall_curve.back();
  const double tp = static_cast<double>(r.judged_true_positives);
  const double predicted = tp + r.judged_false_positives;
  const double actual = tp + r.judged_false_negatives;
  r.judge_precision = predicted > 0 ? tp / predicted : 0;
  r.judge_recall = actual > 0 ? tp / actual : 0;
  r.judge_f1 = r.judge_precision + r.judge_recall > 0
                   ? 2 * r.judge_precision * r.judge_recall /
                         (r.judge_precision + r.judge_recall)
                   : 0;
  return r;
}

}  // namespace fcrawl::eval
