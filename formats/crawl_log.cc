#include "formats/crawl_log.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <utility>

#include "absl/strings/str_cat.h"
#include "core/file.h"
#include "core/json.h"
#include "formats/corpus.h"

namespace fcrawl::formats {
namespace {

std::string OptionalNumber(const std::optional<double>& v) {
  return v.has_value() ? json::Number(*v) : "null";
}

absl::string_view OptionalBool(const std::optional<bool>& v) {
  if (!v.has_value()) return "null";
  return *v ? "true" : "false";
}

}  // namespace

CrawlLog::CrawlLog(std::string folder, NoSpaceHook no_space)
    : fetch_path_(absl::StrCat(folder, "/", kFetchLogName)),
      pages_path_(absl::StrCat(folder, "/", kPagesName)),
      no_space_(std::move(no_space)) {}

CrawlLog::~CrawlLog() { Close().IgnoreError(); }

absl::StatusOr<std::unique_ptr<CrawlLog>> CrawlLog::Open(
    const std::string& folder, NoSpaceHook no_space) {
  std::unique_ptr<CrawlLog> log(
      new CrawlLog(folder.empty() ? "." : folder, std::move(no_space)));
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
  if (f.fd < 0) return file::ErrnoStatus("cannot open", f.path);
  struct stat st;
  if (::fstat(f.fd, &st) != 0) return file::ErrnoStatus("cannot stat", f.path);
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
      return file::ErrnoStatus("cannot read", f.path);
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
    return file::ErrnoStatus("cannot cut off the partial last line", f.path);
  }
  f.size = static_cast<uint64_t>(keep);
  return absl::OkStatus();
}

absl::Status CrawlLog::AppendLine(File& f, absl::string_view line) {
  absl::Status s = WriteLine(f, line);
  // The disk is full: space held back for this is freed, and the line (cut
  // off again by WriteLine) is written once more.
  if (absl::IsResourceExhausted(s) && no_space_ && no_space_()) {
    s = WriteLine(f, line);
  }
  return s;
}

absl::Status CrawlLog::WriteLine(File& f, absl::string_view line) {
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
      const absl::Status s = file::ErrnoStatus("cannot write", f.path);
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
                  ",\"score\":", OptionalNumber(e.score),
                  ",\"topic_score\":", OptionalNumber(e.topic_score),
                  ",\"on_topic\":", OptionalBool(e.on_topic), ",\"error\":");
  if (e.error.has_value()) {
    json::AppendQuoted(&line, *e.error);
  } else {
    line.append("null");
  }
  if (!e.kind.empty()) {
    line.append(",\"kind\":");
    json::AppendQuoted(&line, e.kind);
  }
  if (!e.change.empty()) {
    line.append(",\"change\":");
    json::AppendQuoted(&line, e.change);
  }
  line.append("}\n");
  absl::MutexLock lock(&fetch_mu_);
  return AppendLine(fetch_, line);
}

absl::Status CrawlLog::AppendPage(const proto::CorpusRecord& page) {
  std::string line = CorpusJson(page);
  line.push_back('\n');
  absl::MutexLock lock(&pages_mu_);
  return AppendLine(pages_, line);
}

absl::Status CrawlLog::Sync() {
  {
    absl::MutexLock lock(&fetch_mu_);
    if (fetch_.fd >= 0 && ::fsync(fetch_.fd) != 0) {
      return file::ErrnoStatus("cannot sync", fetch_.path);
    }
  }
  absl::MutexLock lock(&pages_mu_);
  if (pages_.fd >= 0 && ::fsync(pages_.fd) != 0) {
    return file::ErrnoStatus("cannot sync", pages_.path);
  }
  return absl::OkStatus();
}

absl::Status CrawlLog::Close() {
  absl::Status result;
  {
    absl::MutexLock lock(&fetch_mu_);
    if (fetch_.fd >= 0 && ::close(fetch_.fd) != 0) {
      result = file::ErrnoStatus("cannot close", fetch_.path);
    }
    fetch_.fd = -1;
  }
  absl::MutexLock lock(&pages_mu_);
  if (pages_.fd >= 0 && ::close(pages_.fd) != 0 && result.ok()) {
    result = file::ErrnoStatus("cannot close", pages_.path);
  }
  pages_.fd = -1;
  return result;
}

}  // namespace fcrawl::formats
