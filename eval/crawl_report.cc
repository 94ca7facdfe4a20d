// The report half of eval/crawl_eval.h: report.md, report.json and
// curves.svg from evaluated crawls (CrawlResult), and the escaping and number
// formatting they need. Reading logs and labels and computing the curves is
// crawl_eval.cc's.
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "core/json.h"
#include "eval/crawl_eval.h"

namespace fcrawl::eval {
namespace {

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

  bool any_judged = false;
  for (const CrawlResult& r : results) any_judged |= r.judged > 0;
  if (any_judged) {
    md +=
        "The crawler's on-topic decision (fetch-log `on_topic`, "
        "focus/page_judge.h) as a classifier against the labels:\n\n"
        "| crawl | pages judged | judged on topic | right | precision "
        "| recall | F1 |\n"
        "|---|---:|---:|---:|---:|---:|---:|\n";
    for (const CrawlResult& r : results) {
      if (r.judged == 0) {
        absl::StrAppend(&md, "| ", MarkdownCell(r.name),
                        " | 0 | – | – | – | – | – |\n");
        continue;
      }
      absl::StrAppendFormat(&md, "| %s | %d | %d | %d | %.3f | %.3f | %.3f |\n",
                            MarkdownCell(r.name), r.judged,
                            r.judged_true_positives + r.judged_false_positives,
                            r.judged_true_positives, r.judge_precision,
                            r.judge_recall, r.judge_f1);
    }
    md += "\n";
  }

  md +=
      "What the fetches came to (shares of pages fetched; each fetch in "
      "the first class that applies, redirected across the classes):\n\n"
      "| crawl | on topic | off topic (HTML) | 404/410 | other errors "
      "| not HTML | redirected | on-topic hosts |\n"
      "|---|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const CrawlResult& r : results) {
    const double n = r.pages > 0 ? static_cast<double>(r.pages) : 1.0;
    const FetchOutcomes& o = r.outcomes;
    absl::StrAppendFormat(
        &md,
        "| %s | %.1f%% | %.1f%% | %.1f%% | %.1f%% | %.1f%% | %.1f%% | %d |\n",
        MarkdownCell(r.name), 100 * o.on_topic / n, 100 * o.off_topic / n,
        100 * o.not_found / n, 100 * o.other_error / n, 100 * o.non_html / n,
        100 * o.redirected / n, r.on_topic_hosts);
  }
  md += "\n";

  bool any_unscored = false;
  for (const CrawlResult& r : results) {
    if (r.pages > 0 && r.pages_with_relevance == 0) any_unscored = true;
  }
  if (any_unscored) {
    md +=
        "–: the crawl logged no relevance scores (bfs does not score "
        "pages), so the [SSAPS] sums do not apply.\n\n";
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
        ",\"judged\":", r.judged,
        ",\"judged_true_positives\":", r.judged_true_positives,
        ",\"judged_false_positives\":", r.judged_false_positives,
        ",\"judged_false_negatives\":", r.judged_false_negatives,
        ",\"judge_precision\":",
        r.judged > 0 ? FormatNumber(r.judge_precision) : "null",
        ",\"judge_recall\":",
        r.judged > 0 ? FormatNumber(r.judge_recall) : "null",
        ",\"judge_f1\":", r.judged > 0 ? FormatNumber(r.judge_f1) : "null",
        ",\"on_topic_hosts\":", r.on_topic_hosts,
        ",\"outcomes\":{\"on_topic\":", r.outcomes.on_topic,
        ",\"off_topic\":", r.outcomes.off_topic,
        ",\"not_found\":", r.outcomes.not_found,
        ",\"other_error\":", r.outcomes.other_error,
        ",\"non_html\":", r.outcomes.non_html,
        ",\"redirected\":", r.outcomes.redirected, "}", ",\n \"segments\":[");
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
