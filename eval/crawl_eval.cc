#include "eval/crawl_eval.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string_view>
#include <system_error>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "core/json.h"
#include "core/url.h"
#include "formats/crawl_log.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"

namespace fcrawl::eval {
namespace {

using LineFn = std::function<absl::Status(absl::string_view line,
                                          int64_t line_no, bool terminated)>;

// Calls fn for every line of `in` (without its '\n'). `terminated` is false
// only for a last line that has no newline. The line length is checked while
// reading, so a hostile file without newlines never grows a huge buffer.
absl::Status ForEachLine(std::istream& in, absl::string_view source,
                         const ReadOptions& options, const LineFn& fn) {
  std::streambuf* sb = in.rdbuf();
  if (sb == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(source, ": no stream"));
  }
  std::string line;
  int64_t line_no = 0;
  char buf[64 * 1024];
  auto emit = [&](bool terminated) -> absl::Status {
    ++line_no;
    if (line_no > options.max_lines) {
      return absl::ResourceExhaustedError(absl::StrCat(
          source, ": more than ", options.max_lines, " lines (the limit)"));
    }
    absl::Status s = fn(line, line_no, terminated);
    line.clear();
    return s;
  };
  while (true) {
    const std::streamsize got = sb->sgetn(buf, sizeof(buf));
    if (got <= 0) break;
    absl::string_view chunk(buf, static_cast<size_t>(got));
    while (!chunk.empty()) {
      const size_t nl = chunk.find('\n');
      const absl::string_view piece = chunk.substr(0, nl);
      if (line.size() + piece.size() > options.max_line_bytes) {
        return absl::ResourceExhaustedError(
            absl::StrCat(source, ":", line_no + 1, ": line longer than ",
                         options.max_line_bytes, " bytes"));
      }
      line.append(piece.data(), piece.size());
      if (nl == absl::string_view::npos) break;
      if (absl::Status s = emit(true); !s.ok()) return s;
      chunk.remove_prefix(nl + 1);
    }
  }
  if (!line.empty()) return emit(false);
  return absl::OkStatus();
}

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

std::string FormatNumber(double v) {
  if (!std::isfinite(v)) return "null";
  return absl::StrFormat("%.6g", v);
}

// Length of the valid UTF-8 sequence at the start of `s`, 0 if invalid.
size_t Utf8Length(absl::string_view s) {
  const auto b = [&](size_t i) { return static_cast<unsigned char>(s[i]); };
  const unsigned char c = b(0);
  size_t n;
  uint32_t min;
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
    min = 0x80;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    min = 0x800;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    min = 0x10000;
  } else {
    return 0;
  }
  if (s.size() < n) return 0;
  uint32_t cp = c & (0x7F >> n);
  for (size_t i = 1; i < n; ++i) {
    if ((b(i) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b(i) & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

// Text for an SVG element or attribute. Invalid UTF-8 and control characters
// would make the whole document unreadable (XML parsers stop at the first
// one), so they become '?'.
std::string XmlEscape(absl::string_view s) {
  std::string out;
  while (!s.empty()) {
    const size_t n = Utf8Length(s);
    if (n == 0) {
      out += '?';
      s.remove_prefix(1);
      continue;
    }
    if (n > 1) {
      out.append(s.data(), n);
      s.remove_prefix(n);
      continue;
    }
    const char c = s[0];
    s.remove_prefix(1);
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        // XML 1.0 forbids most control characters even as references.
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) {
          out += '?';
        } else {
          out += c;
        }
    }
  }
  return out;
}

// A name in a markdown table cell: '|' and newlines would break the table.
std::string MarkdownCell(absl::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '|') {
      out += "\\|";
    } else if (c == '\n' || c == '\r') {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

// A tick step of 1, 2, 2.5 or 5 times a power of ten that splits `range`
// into at most about `ticks` intervals.
double NiceStep(double range, int ticks) {
  if (!(range > 0)) return 1;
  const double raw = range / ticks;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    if (m * mag >= raw) return m * mag;
  }
  return 10 * mag;
}

}  // namespace

std::string NormalizeUrl(absl::string_view u) {
  absl::StatusOr<url::Url> parsed =
      url::Parse(std::string_view(u.data(), u.size()));
  if (!parsed.ok()) return std::string(u);
  return parsed->spec();
}

absl::StatusOr<Labels> ReadLabels(std::istream& in, absl::string_view source,
                                  const ReadOptions& options,
                                  LabelsInfo* info) {
  Labels labels;
  LabelsInfo seen;
  bool first = true;
  absl::Status s = ForEachLine(
      in, source, options,
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
    return absl::OkStatus();
  };
  absl::Status s =
      ForEachLine(in, source, options,
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
                      return absl::InvalidArgumentError(absl::StrCat(
                          source, ":", line_no, ": ", p.message()));
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
  r.harvest_rate = n == 0 ? 0.0 : r.harvest_curve.back();
  r.recall = n == 0 ? 0.0 : r.recall_curve.back();
  return r;
}

std::string ReportMarkdown(const std::vector<CrawlResult>& results,
                           const ReportContext& c) {
  std::string md = "# Crawl evaluation\n\n";
  absl::StrAppend(&md, "- labels: `", MarkdownCell(c.labels_source), "`, ",
                  c.on_topic_total, " on-topic pages (topic `",
                  MarkdownCell(absl::StrJoin(c.topic, ",")), "`)\n");
  absl::StrAppend(
      &md, "- harvest rate and recall: from the labels; sum_of_relevantPage ",
      "(pages with R'_p > ", FormatNumber(c.options.relevance_threshold),
      ") and sum_of_info (Σ R'_p): from the crawler's relevance scores ",
      "([SSAPS], formulas 5–7)\n");
  absl::StrAppend(&md, "- segments of ", c.options.segment_size,
                  " pages fetched\n\n");

  md +=
      "| crawl | pages fetched | on-topic fetched | harvest rate | recall "
      "| sum_of_relevantPage | sum_of_info | scored pages |\n"
      "|---|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const CrawlResult& r : results) {
    const bool scored = r.pages_with_relevance > 0;
    absl::StrAppendFormat(
        &md, "| %s | %d | %d | %.4f | %.4f (%d/%d) | %s | %s | %d |\n",
        MarkdownCell(r.name), r.pages, r.on_topic, r.harvest_rate, r.recall,
        r.on_topic_found, r.on_topic_total,
        scored ? absl::StrCat(r.sum_of_relevant_page) : "–",
        scored ? absl::StrFormat("%.2f", r.sum_of_info) : "–",
        r.pages_with_relevance);
  }
  md += "\n";

  bool any_unscored = false;
  for (const CrawlResult& r : results) {
    if (r.pages > 0 && r.pages_with_relevance == 0) any_unscored = true;
  }
  if (any_unscored) {
    md +=
        "–: the crawl logged no relevance scores (bfs does not score "
        "pages), so the seed-001 sums do not apply.\n\n";
  }

  md +=
      "Fetch-log lines not counted as pages:\n\n"
      "| crawl | lines | robots.txt | repeated URL | malformed skipped "
      "| cut-off last line | source |\n"
      "|---|---:|---:|---:|---:|---:|---|\n";
  for (const CrawlResult& r : results) {
    absl::StrAppendFormat(&md, "| %s | %d | %d | %d | %d | %d | `%s` |\n",
                          MarkdownCell(r.name), r.log_counts.lines,
                          r.log_counts.robots, r.log_counts.duplicates,
                          r.log_counts.malformed, r.log_counts.truncated_tail,
                          MarkdownCell(r.source));
  }
  md += "\n";

  size_t max_segments = 0;
  for (const CrawlResult& r : results) {
    max_segments = std::max(max_segments, r.segments.size());
  }
  struct Measure {
    const char* title;
    std::function<std::string(const CrawlResult&, const Segment&)> cell;
  };
  const Measure measures[] = {
      {"Harvest rate per segment",
       [](const CrawlResult&, const Segment& s) {
         return absl::StrFormat("%.4f", s.harvest_rate);
       }},
      {"On-topic pages (labels) per segment",
       [](const CrawlResult&, const Segment& s) {
         return absl::StrCat(s.on_topic);
       }},
      {"sum_of_relevantPage per segment",
       [](const CrawlResult& r, const Segment& s) {
         return r.pages_with_relevance > 0
                    ? absl::StrCat(s.sum_of_relevant_page)
                    : std::string("–");
       }},
      {"sum_of_info per segment",
       [](const CrawlResult& r, const Segment& s) {
         return r.pages_with_relevance > 0
                    ? absl::StrFormat("%.2f", s.sum_of_info)
                    : std::string("–");
       }},
  };
  for (const Measure& m : measures) {
    absl::StrAppend(&md, "## ", m.title, "\n\n| pages |");
    std::string rule = "|---|";
    for (const CrawlResult& r : results) {
      absl::StrAppend(&md, " ", MarkdownCell(r.name), " |");
      rule += "---:|";
    }
    absl::StrAppend(&md, "\n", rule, "\n");
    for (size_t i = 0; i < max_segments; ++i) {
      const int64_t first = static_cast<int64_t>(i) * c.options.segment_size;
      absl::StrAppend(&md, "| ", first + 1, "–", first + c.options.segment_size,
                      " |");
      for (const CrawlResult& r : results) {
        if (i < r.segments.size()) {
          const Segment& s = r.segments[i];
          std::string cell = m.cell(r, s);
          if (s.last_page - s.first_page + 1 < c.options.segment_size) {
            absl::StrAppend(&cell, " (", s.last_page - s.first_page + 1,
                            " pages)");
          }
          absl::StrAppend(&md, " ", cell, " |");
        } else {
          md += " |";
        }
      }
      md += "\n";
    }
    md += "\n";
  }
  return md;
}

std::string ReportJson(const std::vector<CrawlResult>& results,
                       const ReportContext& c) {
  using json::Quote;
  std::string j = "{";
  absl::StrAppend(&j, "\"labels\":", Quote(c.labels_source), ",\"topic\":[");
  for (size_t i = 0; i < c.topic.size(); ++i) {
    absl::StrAppend(&j, i ? "," : "", Quote(c.topic[i]));
  }
  absl::StrAppend(
      &j, "],\"on_topic_total\":", c.on_topic_total,
      ",\"relevance_threshold\":", FormatNumber(c.options.relevance_threshold),
      ",\"segment_size\":", c.options.segment_size, ",\n\"crawls\":[");
  auto doubles = [](std::string* out, const std::vector<double>& v) {
    *out += '[';
    for (size_t i = 0; i < v.size(); ++i) {
      if (i) *out += ',';
      *out += FormatNumber(v[i]);
    }
    *out += ']';
  };
  for (size_t k = 0; k < results.size(); ++k) {
    const CrawlResult& r = results[k];
    const bool scored = r.pages_with_relevance > 0;
    absl::StrAppend(
        &j, k ? ",\n" : "\n", "{\"name\":", Quote(r.name),
        ",\"source\":", Quote(r.source), ",\"lines\":", r.log_counts.lines,
        ",\"robots_lines\":", r.log_counts.robots,
        ",\"duplicate_lines\":", r.log_counts.duplicates,
        ",\"malformed_lines\":", r.log_counts.malformed,
        ",\"truncated_tail_lines\":", r.log_counts.truncated_tail,
        ",\"pages\":", r.pages, ",\"on_topic\":", r.on_topic,
        ",\"on_topic_found\":", r.on_topic_found,
        ",\"harvest_rate\":", FormatNumber(r.harvest_rate),
        ",\"recall\":", FormatNumber(r.recall),
        ",\"pages_with_relevance\":", r.pages_with_relevance,
        ",\"sum_of_relevantPage\":",
        scored ? absl::StrCat(r.sum_of_relevant_page) : "null",
        ",\"sum_of_info\":", scored ? FormatNumber(r.sum_of_info) : "null",
        ",\n \"segments\":[");
    for (size_t i = 0; i < r.segments.size(); ++i) {
      const Segment& s = r.segments[i];
      absl::StrAppend(
          &j, i ? "," : "", "{\"first_page\":", s.first_page,
          ",\"last_page\":", s.last_page, ",\"on_topic\":", s.on_topic,
          ",\"harvest_rate\":", FormatNumber(s.harvest_rate),
          ",\"sum_of_relevantPage\":",
          scored ? absl::StrCat(s.sum_of_relevant_page) : "null",
          ",\"sum_of_info\":", scored ? FormatNumber(s.sum_of_info) : "null",
          "}");
    }
    j += "],\n \"curves\":{\"harvest_rate\":";
    doubles(&j, r.harvest_curve);
    j += ",\n  \"recall\":";
    doubles(&j, r.recall_curve);
    j += ",\n  \"sum_of_relevantPage\":";
    if (scored) {
      j += '[';
      for (size_t i = 0; i < r.relevant_page_curve.size(); ++i) {
        absl::StrAppend(&j, i ? "," : "", r.relevant_page_curve[i]);
      }
      j += ']';
    } else {
      j += "null";
    }
    j += ",\n  \"sum_of_info\":";
    if (scored) {
      doubles(&j, r.info_curve);
    } else {
      j += "null";
    }
    j += "}}";
  }
  j += "\n]}\n";
  return j;
}

std::vector<size_t> SampleIndices(size_t n, int max_points) {
  std::vector<size_t> out;
  const size_t m = static_cast<size_t>(std::max(2, max_points));
  if (n <= m) {
    for (size_t i = 0; i < n; ++i) out.push_back(i);
    return out;
  }
  for (size_t k = 0; k < m; ++k) {
    // Rounded k * (n-1) / (m-1) in integers: exact, increasing, ends at n-1.
    out.push_back((k * (n - 1) + (m - 1) / 2) / (m - 1));
  }
  return out;
}

std::string CurvesSvg(const std::vector<CrawlResult>& results,
                      const ReportContext& c, const SvgOptions& o) {
  // Colours: the Tableau 10 palette, distinguishable and print-safe; with
  // more crawls than colours the dash pattern changes too.
  static constexpr const char* kColors[] = {
      "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
      "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};
  constexpr size_t kNumColors = sizeof(kColors) / sizeof(kColors[0]);
  const double w = std::max(400, o.width);
  const double h = std::max(300, o.height);
  const double left = 80, right = 220, top = 60, gap = 80, bottom = 60;
  const double plot_w = w - left - right;
  const double plot_h = (h - top - gap - bottom) / 2;

  int64_t max_pages = 1;
  for (const CrawlResult& r : results) max_pages = std::max(max_pages, r.pages);
  const double x_step = NiceStep(static_cast<double>(max_pages), 8);
  const double x_max = std::ceil(max_pages / x_step) * x_step;

  std::string svg = absl::StrFormat(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
      "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n"
      "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"white\"/>\n",
      static_cast<int>(w), static_cast<int>(h), static_cast<int>(w),
      static_cast<int>(h), static_cast<int>(w), static_cast<int>(h));
  absl::StrAppendFormat(
      &svg,
      "<text x=\"%g\" y=\"28\" font-size=\"16\" font-weight=\"bold\">Crawl "
      "evaluation: topic %s (%d on-topic pages)</text>\n",
      left, XmlEscape(absl::StrJoin(c.topic, ",")), c.on_topic_total);

  struct Panel {
    const char* title;
    const std::vector<double> CrawlResult::*curve;
  };
  const Panel panels[] = {
      {"harvest rate", &CrawlResult::harvest_curve},
      {"recall", &CrawlResult::recall_curve},
  };
  for (int p = 0; p < 2; ++p) {
    const Panel& panel = panels[p];
    const double y0 = top + p * (plot_h + gap);  // top of the plot area
    double y_data_max = 0;
    for (const CrawlResult& r : results) {
      for (double v : r.*(panel.curve)) y_data_max = std::max(y_data_max, v);
    }
    // Rates are in [0, 1]: scale to the data (small rates stay readable)
    // but never past 1.
    const double y_step = NiceStep(std::max(y_data_max, 0.05), 5);
    const double y_max = std::min(
        1.0, std::ceil(std::max(y_data_max, 0.05) / y_step - 1e-9) * y_step);
    auto px = [&](double pages) { return left + pages / x_max * plot_w; };
    auto py = [&](double v) {
      v = std::clamp(v, 0.0, y_max);
      return y0 + plot_h - v / y_max * plot_h;
    };
    absl::StrAppendFormat(&svg, "<g class=\"panel\" id=\"%s\">\n",
                          p == 0 ? "harvest-rate" : "recall");
    // Grid and y ticks.
    for (int k = 0;; ++k) {
      const double v = k * y_step;
      if (v > y_max + 1e-9) break;
      absl::StrAppendFormat(
          &svg,
          "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
          "stroke=\"#e0e0e0\"/>\n"
          "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
          left, py(v), left + plot_w, py(v), left - 6, py(v) + 4,
          FormatNumber(v));
    }
    // x ticks.
    for (int k = 0;; ++k) {
      const double v = k * x_step;
      if (v > x_max + 1e-9) break;
      absl::StrAppendFormat(
          &svg,
          "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
          "stroke=\"#e0e0e0\"/>\n"
          "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
          "stroke=\"black\"/>\n"
          "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
          px(v), y0, px(v), y0 + plot_h, px(v), y0 + plot_h, px(v),
          y0 + plot_h + 5, px(v), y0 + plot_h + 18, FormatNumber(v));
    }
    // Axes, labels, title.
    absl::StrAppendFormat(
        &svg,
        "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
        "fill=\"none\" stroke=\"black\"/>\n"
        "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">pages "
        "fetched</text>\n"
        "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
        "transform=\"rotate(-90 %.1f %.1f)\">%s</text>\n"
        "<text x=\"%.1f\" y=\"%.1f\" font-size=\"14\" "
        "font-weight=\"bold\">%s against pages fetched</text>\n",
        left, y0, plot_w, plot_h, left + plot_w / 2, y0 + plot_h + 36,
        left - 50, y0 + plot_h / 2, left - 50, y0 + plot_h / 2, panel.title,
        left, y0 - 8, panel.title);
    // One polyline per crawl.
    for (size_t k = 0; k < results.size(); ++k) {
      const std::vector<double>& curve = results[k].*(panel.curve);
      if (curve.empty()) continue;
      std::string points;
      for (size_t i : SampleIndices(curve.size(), o.max_points)) {
        absl::StrAppendFormat(&points, "%s%.1f,%.1f", points.empty() ? "" : " ",
                              px(static_cast<double>(i + 1)), py(curve[i]));
      }
      absl::StrAppendFormat(
          &svg,
          "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s "
          "points=\"%s\"/>\n",
          kColors[k % kNumColors],
          k >= kNumColors ? " stroke-dasharray=\"6 3\"" : "", points);
    }
    svg += "</g>\n";
  }
  // Legend, right of the plots.
  const double lx = left + plot_w + 20;
  svg += "<g class=\"legend\">\n";
  for (size_t k = 0; k < results.size(); ++k) {
    const double ly = top + 10 + 22 * static_cast<double>(k);
    absl::StrAppendFormat(
        &svg,
        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
        "stroke-width=\"3\"%s/>\n"
        "<text x=\"%.1f\" y=\"%.1f\">%s (%d pages)</text>\n",
        lx, ly, lx + 28, ly, kColors[k % kNumColors],
        k >= kNumColors ? " stroke-dasharray=\"6 3\"" : "", lx + 34, ly + 4,
        XmlEscape(results[k].name), results[k].pages);
  }
  svg += "</g>\n</svg>\n";
  return svg;
}

}  // namespace fcrawl::eval
