#include "worker/crawl_log.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <charconv>
#include <cmath>
#include <utility>

#include "absl/strings/str_cat.h"

namespace fcrawl::worker {
namespace json {
namespace {

constexpr char kHex[] = "0123456789abcdef";

void AppendUnicodeEscape(std::string* out, uint32_t cp) {
  out->append("\\u");
  for (int shift = 12; shift >= 0; shift -= 4) {
    out->push_back(kHex[(cp >> shift) & 0xF]);
  }
}

constexpr absl::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

}  // namespace

void AppendQuoted(std::string* out, absl::string_view s) {
  out->reserve(out->size() + s.size() + 2);
  out->push_back('"');
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const size_t n = s.size();
  size_t i = 0;
  while (i < n) {
    const unsigned char c = p[i];
    if (c < 0x80) {
      switch (c) {
        case '"':
          out->append("\\\"");
          break;
        case '\\':
          out->append("\\\\");
          break;
        case '\b':
          out->append("\\b");
          break;
        case '\f':
          out->append("\\f");
          break;
        case '\n':
          out->append("\\n");
          break;
        case '\r':
          out->append("\\r");
          break;
        case '\t':
          out->append("\\t");
          break;
        default:
          if (c < 0x20 || c == 0x7F) {
            AppendUnicodeEscape(out, c);
          } else {
            out->push_back(static_cast<char>(c));
          }
      }
      ++i;
      continue;
    }
    // Multi-byte sequence, per the Unicode Standard table 3-7 of well-formed
    // UTF-8. An ill-formed sequence is replaced by one U+FFFD per maximal
    // subpart.
    size_t len;
    unsigned char lo = 0x80, hi = 0xBF;  // range of the second byte
    if (c >= 0xC2 && c <= 0xDF) {
      len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      len = 3;
      if (c == 0xE0) lo = 0xA0;
      if (c == 0xED) hi = 0x9F;  // no surrogates
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4;
      if (c == 0xF0) lo = 0x90;
      if (c == 0xF4) hi = 0x8F;  // nothing beyond U+10FFFF
    } else {
      out->append(kReplacement.data(), kReplacement.size());
      ++i;
      continue;
    }
    size_t k = 1;
    for (; k < len && i + k < n; ++k) {
      const unsigned char b = p[i + k];
      const unsigned char blo = k == 1 ? lo : 0x80;
      const unsigned char bhi = k == 1 ? hi : 0xBF;
      if (b < blo || b > bhi) break;
    }
    if (k < len) {
      out->append(kReplacement.data(), kReplacement.size());
      i += k;
      continue;
    }
    if (len == 3 && c == 0xE2 && p[i + 1] == 0x80 &&
        (p[i + 2] == 0xA8 || p[i + 2] == 0xA9)) {
      // U+2028, U+2029: valid JSON, but not valid in JavaScript strings.
      AppendUnicodeEscape(out, p[i + 2] == 0xA8 ? 0x2028 : 0x2029);
    } else {
      out->append(reinterpret_cast<const char*>(p + i), len);
    }
    i += len;
  }
  out->push_back('"');
}

std::string Quote(absl::string_view s) {
  std::string out;
  AppendQuoted(&out, s);
  return out;
}

std::string Number(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[64];
  const std::to_chars_result r = std::to_chars(buf, buf + sizeof(buf), v);
  return std::string(buf, r.ptr);
}

std::string Rfc3339Millis(absl::Time t) {
  // %E3S truncates, so a time never moves into the next second.
  return absl::FormatTime("%Y-%m-%dT%H:%M:%E3SZ", t, absl::UTCTimeZone());
}

}  // namespace json

namespace {

std::string OptionalNumber(const std::optional<double>& v) {
  return v.has_value() ? json::Number(*v) : "null";
}

absl::Status FileError(int err, absl::string_view what,
                       absl::string_view path) {
  return absl::ErrnoToStatus(err, absl::StrCat(what, " ", path));
}

}  // namespace

CrawlLog::CrawlLog(std::string folder)
    : fetch_path_(absl::StrCat(folder, "/", kFetchLogName)),
      pages_path_(absl::StrCat(folder, "/", kPagesName)) {}

CrawlLog::~CrawlLog() { Close().IgnoreError(); }

absl::StatusOr<std::unique_ptr<CrawlLog>> CrawlLog::Open(
    const std::string& folder) {
  std::unique_ptr<CrawlLog> log(new CrawlLog(folder.empty() ? "." : folder));
  {
    absl::MutexLock lock(&log->fetch_mu_);
    log->fetch_.path = log->fetch_path_;
    if (absl::Status s = OpenFile(log->fetch_); !s.ok()) return s;
  }
  {
    absl::MutexLock lock(&log->pages_mu_);
    log->pages_.path = log->pages_path_;
    if (absl::Status s = OpenFile(log->pages_); !s.ok()) return s;
  }
  return log;
}

absl::Status CrawlLog::OpenFile(File& f) {
  f.fd = ::open(f.path.c_str(), O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (f.fd < 0) return FileError(errno, "cannot open", f.path);
  struct stat st;
  if (::fstat(f.fd, &st) != 0) return FileError(errno, "cannot stat", f.path);
  // Cut off a partial last line (a run killed in the middle of a write).
  off_t end = st.st_size;
  off_t keep = end;
  char buf[4096];
  while (keep > 0) {
    const off_t start = keep > static_cast<off_t>(sizeof(buf))
                            ? keep - static_cast<off_t>(sizeof(buf))
                            : 0;
    const ssize_t got =
        ::pread(f.fd, buf, static_cast<size_t>(keep - start), start);
    if (got < 0) {
      if (errno == EINTR) continue;
      return FileError(errno, "cannot read", f.path);
    }
    if (got != keep - start) {
      return absl::DataLossError(absl::StrCat("short read of ", f.path));
    }
    ssize_t j = got - 1;
    while (j >= 0 && buf[j] != '\n') --j;
    if (j >= 0) {
      keep = start + j + 1;
      break;
    }
    keep = start;
  }
  if (keep != end && ::ftruncate(f.fd, keep) != 0) {
    return FileError(errno, "cannot truncate partial line of", f.path);
  }
  f.size = static_cast<uint64_t>(keep);
  return absl::OkStatus();
}

absl::Status CrawlLog::AppendLine(File& f, absl::string_view line) {
  if (f.fd < 0) {
    return absl::FailedPreconditionError(
        absl::StrCat("crawl log is closed: ", f.path));
  }
  const char* p = line.data();
  size_t n = line.size();
  while (n > 0) {
    const ssize_t w = ::write(f.fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      const absl::Status s = FileError(errno, "cannot write", f.path);
      // Keep whole lines only; best effort.
      if (::ftruncate(f.fd, static_cast<off_t>(f.size)) != 0) {
        // The next successful line still starts after a partial one;
        // readers skip lines that do not parse.
      }
      return s;
    }
    p += w;
    n -= static_cast<size_t>(w);
  }
  f.size += line.size();
  return absl::OkStatus();
}

absl::Status CrawlLog::AppendFetch(const FetchLogEntry& e) {
  std::string line = "{\"url\":";
  json::AppendQuoted(&line, e.url);
  line.append(",\"final_url\":");
  json::AppendQuoted(&line, e.final_url);
  const double fetch_ms =
      std::round(absl::ToDoubleMilliseconds(e.fetch_time) * 1000) / 1000;
  absl::StrAppend(&line, ",\"status\":", e.status, ",\"fetched_at\":\"",
                  json::Rfc3339Millis(e.fetched_at),
                  "\",\"fetch_ms\":", json::Number(fetch_ms),
                  ",\"depth\":", e.depth, ",\"content_type\":");
  json::AppendQuoted(&line, e.content_type);
  absl::StrAppend(&line, ",\"bytes\":", e.bytes,
                  ",\"relevance\":", OptionalNumber(e.relevance),
                  ",\"score\":", OptionalNumber(e.score), ",\"error\":");
  if (e.error.has_value()) {
    json::AppendQuoted(&line, *e.error);
  } else {
    line.append("null");
  }
  line.append("}\n");
  absl::MutexLock lock(&fetch_mu_);
  return AppendLine(fetch_, line);
}

absl::Status CrawlLog::AppendPage(const PageRecord& page) {
  std::string line = "{\"url\":";
  json::AppendQuoted(&line, page.url);
  line.append(",\"title\":");
  json::AppendQuoted(&line, page.title);
  line.append(",\"main_text\":");
  json::AppendQuoted(&line, page.main_text);
  absl::StrAppend(&line, ",\"relevance\":", OptionalNumber(page.relevance),
                  ",\"fetched_at\":\"", json::Rfc3339Millis(page.fetched_at),
                  "\"}\n");
  absl::MutexLock lock(&pages_mu_);
  return AppendLine(pages_, line);
}

absl::Status CrawlLog::Sync() {
  {
    absl::MutexLock lock(&fetch_mu_);
    if (fetch_.fd >= 0 && ::fsync(fetch_.fd) != 0) {
      return FileError(errno, "cannot sync", fetch_.path);
    }
  }
  absl::MutexLock lock(&pages_mu_);
  if (pages_.fd >= 0 && ::fsync(pages_.fd) != 0) {
    return FileError(errno, "cannot sync", pages_.path);
  }
  return absl::OkStatus();
}

absl::Status CrawlLog::Close() {
  absl::Status result;
  {
    absl::MutexLock lock(&fetch_mu_);
    if (fetch_.fd >= 0 && ::close(fetch_.fd) != 0) {
      result = FileError(errno, "cannot close", fetch_.path);
    }
    fetch_.fd = -1;
  }
  absl::MutexLock lock(&pages_mu_);
  if (pages_.fd >= 0 && ::close(pages_.fd) != 0 && result.ok()) {
    result = FileError(errno, "cannot close", pages_.path);
  }
  pages_.fd = -1;
  return result;
}

}  // namespace fcrawl::worker
