// The article's header lines (quark/article_header.h).
#include "quark/article_header.h"

#include <unicode/uchar.h>
#include <unicode/utf8.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "core/text.h"
#include "quark/article_footer.h"
#include "quark/records.h"

namespace fcrawl::quark {
namespace {

// A header line is short: a longer one is body text (the article's first
// paragraph), whatever it says.
constexpr size_t kMaxHeaderWords = 16;
constexpr size_t kMaxHeaderCodePoints = 160;
// A line of at most this many words that is not a header line (a section
// name, "Home > World", a kicker) does not end the scan.
constexpr size_t kMaxLabelWords = 3;
// A headline shorter than this (code points of its words, a CJK character
// counting kCjkWeight) is not compared with the title: "Home", "News",
// "Contact us" are titles too.
constexpr size_t kMinHeadlineLength = 12;
// A Chinese byline or source line ("作者：…", "来源：…") is at most this
// long; a date line carries at most this many CJK characters besides the
// date's own (年月日…).
constexpr size_t kMaxCjkByline = 60;
constexpr size_t kMaxCjkDateOther = 12;

bool IsNumber(absl::string_view w) {
  return !w.empty() && std::all_of(w.begin(), w.end(),
                                   [](char c) { return c >= '0' && c <= '9'; });
}

bool IsMonth(absl::string_view w) {
  static constexpr absl::string_view kMonths[] = {
      "jan",  "january", "feb",    "february", "mar",  "march",
      "apr",  "april",   "may",    "jun",      "june", "jul",
      "july", "aug",     "august", "sep",      "sept", "september",
      "oct",  "october", "nov",    "november", "dec",  "december"};
  return std::find(std::begin(kMonths), std::end(kMonths), w) !=
         std::end(kMonths);
}

// Words a date line carries besides the date itself.
bool IsDateWord(absl::string_view w) {
  static constexpr absl::string_view kWords[] = {
      "monday",    "tuesday", "wednesday", "thursday", "friday", "saturday",
      "sunday",    "mon",     "tue",       "tues",     "wed",    "thu",
      "thurs",     "fri",     "sat",       "sun",      "am",     "pm",
      "a",         "m",       "p",         "et",       "est",    "edt",
      "ct",        "cst",     "cdt",       "pt",       "pst",    "pdt",
      "gmt",       "utc",     "bst",       "cet",      "cest",   "updated",
      "published", "posted",  "on",        "at",       "last",   "modified",
      "date",      "st",      "nd",        "rd",       "th",     "of"};
  return IsNumber(w) || IsMonth(w) ||
         std::find(std::begin(kWords), std::end(kWords), w) != std::end(kWords);
}

bool HasDate(const std::vector<std::string>& words, absl::string_view line) {
  auto next_to_number = [&](size_t i) {
    return (i + 1 < words.size() && IsNumber(words[i + 1])) ||
           (i > 0 && IsNumber(words[i - 1]));
  };
  for (size_t i = 0; i < words.size(); ++i) {
    // "July 24", "24 July"; 2012-07-24, 24.07.2012, 7/24/2012: a
    // four-digit year next to a number.
    const bool year = words[i].size() == 4 && IsNumber(words[i]) &&
                      (words[i][0] == '1' || words[i][0] == '2');
    if ((IsMonth(words[i]) || year) && next_to_number(i)) return true;
  }
  // 2012年7月24日: the year and month characters after digits.
  const size_t year = line.find("年");
  return year != absl::string_view::npos && year > 0 && line[year - 1] >= '0' &&
         line[year - 1] <= '9' && absl::StrContains(line.substr(year), "月");
}

// `small` occurs in `big` as a contiguous run.
bool Contains(const std::vector<std::string>& big,
              const std::vector<std::string>& small) {
  if (small.empty() || small.size() > big.size()) return false;
  return std::search(big.begin(), big.end(), small.begin(), small.end()) !=
         big.end();
}

// Code points of `words`, a CJK character counting kCjkWeight: a Chinese
// headline of 8 characters is as long as an English one of 16 letters.
double WordLength(const std::vector<std::string>& words) {
  double n = 0;
  for (const std::string& w : words) {
    n += static_cast<double>(text::CountCodePoints(w)) +
         (kCjkWeight - 1) * static_cast<double>(CountCjk(w));
  }
  return n;
}

// CJK characters of `line` that are not part of a date or time.
size_t CjkBesideDate(absl::string_view line) {
  size_t n = CountCjk(line);
  for (absl::string_view c :
       {"年", "月", "日", "时", "分", "秒", "星期", "周"}) {
    for (size_t pos = line.find(c); pos != absl::string_view::npos;
         pos = line.find(c, pos + c.size())) {
      n -= std::min<size_t>(n, CountCjk(c));
    }
  }
  return n;
}

}  // namespace

std::vector<std::string> HeaderWords(absl::string_view line) {
  std::vector<std::string> out;
  std::string cur;
  int32_t i = 0;
  const int32_t n = static_cast<int32_t>(line.size());
  while (i < n) {
    const int32_t start = i;
    UChar32 c;
    U8_NEXT(line.data(), i, n, c);
    if (c >= 0 && u_isalnum(c)) {
      if (c < 0x80) {
        cur.push_back(static_cast<char>(u_tolower(c)));
      } else {
        cur.append(line.data() + start, static_cast<size_t>(i - start));
      }
    } else if (!cur.empty()) {
      out.push_back(std::move(cur));
      cur.clear();
    }
  }
  if (!cur.empty()) out.push_back(std::move(cur));
  return out;
}

HeaderLine ClassifyHeaderLine(absl::string_view line,
                              const PageMetadata& meta) {
  line = absl::StripAsciiWhitespace(line);
  const std::vector<std::string> words = HeaderWords(line);
  if (words.empty() || words.size() > kMaxHeaderWords ||
      text::CountCodePoints(line) > kMaxHeaderCodePoints) {
    return HeaderLine::kNone;
  }
  const size_t n = words.size();
  // The headline: the title or the part of it before or after the site's
  // name ("Headline - Site", "Site » Headline").
  // Lengths in code points, not words: a Chinese title splits into words
  // only at punctuation.
  const std::vector<std::string> title = HeaderWords(meta.title);
  const double length = WordLength(words);
  const double title_length = WordLength(title);
  if (length >= kMinHeadlineLength && !title.empty()) {
    if (Contains(title, words) && 2 * length >= title_length) {
      return HeaderLine::kHeadline;
    }
    if (Contains(words, title) && title_length >= kMinHeadlineLength &&
        10 * title_length >= 7 * length) {
      return HeaderLine::kHeadline;
    }
  }
  // The byline.
  if (n >= 2 && n <= 12 && words[0] == "by") return HeaderLine::kByline;
  if (n >= 3 && words[1] == "by" &&
      (words[0] == "posted" || words[0] == "written" || words[0] == "story" ||
       words[0] == "words" || words[0] == "reported")) {
    return HeaderLine::kByline;
  }
  if (!meta.byline.empty()) {
    const std::vector<std::string> by = HeaderWords(meta.byline);
    if (Contains(words, by) && n <= by.size() + 6) return HeaderLine::kByline;
  }
  for (absl::string_view prefix : {"作者", "记者", "编辑", "责任编辑", "来源",
                                   "发布时间", "发布日期", "时间："}) {
    if (absl::StartsWith(line, prefix) &&
        text::CountCodePoints(line) <= kMaxCjkByline) {
      return HeaderLine::kByline;
    }
  }
  // The date line: a date and little else.
  if (HasDate(words, line)) {
    size_t other = 0;
    for (const std::string& w : words) {
      if (!IsDateWord(w) && static_cast<unsigned char>(w[0]) < 0x80) ++other;
    }
    if (other <= 3 && CjkBesideDate(line) <= kMaxCjkDateOther) {
      return HeaderLine::kDateline;
    }
  }
  return HeaderLine::kNone;
}

void MarkArticleHeader(const PageMetadata& meta,
                       const std::vector<ContentLine>& lines,
                       Segmentation* seg) {
  struct Mark {
    Block* block;
    int32_t line;
  };
  std::vector<Mark> marks;
  int scanned = 0;
  bool body_follows = false;  // a line after the header stays in the text
  for (Block& b : seg->blocks) b.header_lines.clear();
  // A page of records (a forum thread, a blog's front page) is no article:
  // the first record's author and date are its own, like every other's.
  if (HoldsRecords(*seg)) return;
  // A page control above the story ("Share", "Print", "小字号") is the
  // page around it, as it is below (quark/article_footer.h).
  auto is_header = [&](absl::string_view text) {
    return ClassifyHeaderLine(text, meta) != HeaderLine::kNone ||
           IsPageControl(text);
  };
  // The first lines a reader sees, in page order.
  bool dek_seen = false;
  for (size_t i = 0; i < lines.size(); ++i) {
    const ContentLine& l = lines[i];
    if (absl::StripAsciiWhitespace(l.text).empty()) continue;
    if (scanned >= kMaxHeaderScan) {
      body_follows = true;
      break;
    }
    ++scanned;
    if (is_header(l.text)) {
      marks.push_back(Mark{&seg->blocks[l.block], l.line});
    } else if (HeaderWords(l.text).size() > kMaxLabelWords) {
      // One long line with a header line right after it is the standfirst
      // between the headline and the byline: kept, and the scan goes on.
      size_t next = i + 1;
      while (next < lines.size() &&
             absl::StripAsciiWhitespace(lines[next].text).empty()) {
        ++next;
      }
      if (!dek_seen && next < lines.size() && is_header(lines[next].text)) {
        dek_seen = true;
        continue;
      }
      body_follows = true;
      break;
    }
  }
  // A page whose whole text is its header (a photo page, a stub) keeps it.
  if (!body_follows) return;
  for (const Mark& m : marks) m.block->header_lines.push_back(m.line);
}

}  // namespace fcrawl::quark
