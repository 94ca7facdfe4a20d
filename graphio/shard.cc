#include "graphio/shard.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "core/file.h"

namespace fcrawl::graphio {
namespace {

constexpr size_t kWriteBuffer = size_t{1} << 20;
constexpr size_t kReadBuffer = size_t{1} << 20;
// Header and footer are a few bytes; anything larger is a damaged file.
constexpr size_t kMaxSmallRecord = size_t{1} << 20;

void AppendVarint(uint64_t v, std::string* out) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>((v & 0x7F) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

}  // namespace

// ---------------------------------------------------------------- writer

absl::Status ShardWriter::Open(const std::string& path,
                               absl::string_view worker) {
  if (file_.is_open()) {
    return absl::FailedPreconditionError("writer already open");
  }
  path_ = path;
  if (absl::Status s = file_.Open(path); !s.ok()) return s;
  pages_ = 0;
  links_ = 0;
  buffer_.clear();
  buffer_.reserve(kWriteBuffer + 64);
  buffer_.append(kShardMagic.data(), kShardMagic.size());
  proto::GraphShardHeader header;
  header.set_version(kShardVersion);
  header.set_worker(std::string(worker));
  header.set_created_at_ms(absl::ToUnixMillis(absl::Now()));
  std::string bytes;
  header.SerializeToString(&bytes);
  return WriteRecord(bytes);
}

absl::Status ShardWriter::WriteRecord(const std::string& bytes) {
  AppendVarint(bytes.size(), &buffer_);
  if (bytes.size() >= kWriteBuffer) {
    if (absl::Status s = Flush(); !s.ok()) return s;
    return file_.Write(bytes);
  }
  buffer_.append(bytes);
  if (buffer_.size() >= kWriteBuffer) return Flush();
  return absl::OkStatus();
}

absl::Status ShardWriter::Flush() {
  if (absl::Status s = file_.Write(buffer_); !s.ok()) return s;
  buffer_.clear();
  return absl::OkStatus();
}

absl::Status ShardWriter::Add(const proto::GraphPage& page) {
  if (!file_.is_open()) return absl::FailedPreconditionError("writer not open");
  const size_t size = page.ByteSizeLong();
  if (size > kDefaultMaxRecordBytes) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "%s: page %s is %d bytes, over the %d-byte record limit", path_,
        page.url().substr(0, 200), size, kDefaultMaxRecordBytes));
  }
  record_.clear();
  page.SerializeToString(&record_);
  if (absl::Status s = WriteRecord(record_); !s.ok()) return s;
  ++pages_;
  links_ += page.links_size();
  return absl::OkStatus();
}

absl::Status ShardWriter::Close() {
  if (!file_.is_open()) return absl::FailedPreconditionError("writer not open");
  proto::GraphShardFooter footer;
  footer.set_pages(pages_);
  footer.set_links(links_);
  std::string bytes;
  footer.SerializeToString(&bytes);
  if (absl::Status s = WriteRecord(bytes); !s.ok()) return s;
  if (absl::Status s = Flush(); !s.ok()) return s;
  return file_.Commit();
}

// ---------------------------------------------------------------- reader

ShardReader::~ShardReader() {
  if (fd_ >= 0) ::close(fd_);
}

absl::Status ShardReader::Error(absl::string_view what) const {
  if (in_header_) {
    return absl::DataLossError(absl::StrFormat("%s: header (byte %d): %s",
                                               path_, record_offset_, what));
  }
  return absl::DataLossError(absl::StrFormat(
      "%s: record %d (byte %d): %s", path_, pages_ + 1, record_offset_, what));
}

absl::Status ShardReader::Fill() {
  if (pos_ < end_ || at_eof_) return absl::OkStatus();
  offset_ += end_;
  pos_ = 0;
  end_ = 0;
  for (;;) {
    const ssize_t r = ::read(fd_, buffer_.data(), buffer_.size());
    if (r < 0) {
      if (errno == EINTR) continue;
      return file::ErrnoStatus("read", path_);
    }
    if (r == 0) at_eof_ = true;
    end_ = static_cast<size_t>(r);
    return absl::OkStatus();
  }
}

absl::Status ShardReader::ReadExact(char* out, size_t n, bool* short_read) {
  *short_read = false;
  while (n > 0) {
    if (absl::Status s = Fill(); !s.ok()) return s;
    if (pos_ == end_) {
      *short_read = true;
      return absl::OkStatus();
    }
    const size_t take = std::min(n, end_ - pos_);
    std::memcpy(out, buffer_.data() + pos_, take);
    pos_ += take;
    out += take;
    n -= take;
  }
  return absl::OkStatus();
}

absl::Status ShardReader::Open(const std::string& path,
                               ShardReaderOptions options) {
  if (fd_ >= 0) return absl::FailedPreconditionError("reader already open");
  path_ = path;
  options_ = options;
  in_header_ = true;
  failed_ = ReadHeader();
  in_header_ = false;
  return failed_;
}

absl::Status ShardReader::ReadHeader() {
  fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) return file::ErrnoStatus("cannot open", path_);
  buffer_.resize(kReadBuffer);
  char magic[16];
  bool short_read = false;
  if (absl::Status s = ReadExact(magic, kShardMagic.size(), &short_read);
      !s.ok()) {
    return s;
  }
  if (short_read ||
      absl::string_view(magic, kShardMagic.size()) != kShardMagic) {
    return absl::DataLossError(
        absl::StrCat(path_, ": not a graph shard (bad magic)"));
  }
  bool eof = false;
  const size_t limit = options_.max_record_bytes;
  options_.max_record_bytes = std::min(limit, kMaxSmallRecord);
  absl::Status s = ReadRecord(&eof);
  options_.max_record_bytes = limit;
  if (!s.ok()) return s;
  if (eof) return Error("missing");
  if (!header_.ParseFromString(record_)) {
    return Error("not a GraphShardHeader");
  }
  if (header_.version() != kShardVersion) {
    return absl::DataLossError(
        absl::StrFormat("%s: unsupported shard version %d (expected %d)", path_,
                        header_.version(), kShardVersion));
  }
  return absl::OkStatus();
}

absl::Status ShardReader::ReadRecord(bool* eof) {
  *eof = false;
  if (absl::Status s = Fill(); !s.ok()) return s;
  record_offset_ = offset_ + pos_;
  if (pos_ == end_) {
    *eof = true;
    return absl::OkStatus();
  }
  uint64_t len = 0;
  for (int shift = 0;; shift += 7) {
    if (shift > 63) return Error("length prefix is not a valid varint");
    if (absl::Status s = Fill(); !s.ok()) return s;
    if (pos_ == end_) return Error("file ends inside a length prefix");
    const unsigned char b = static_cast<unsigned char>(buffer_[pos_++]);
    len |= static_cast<uint64_t>(b & 0x7F) << shift;
    if ((b & 0x80) == 0) break;
  }
  if (len > options_.max_record_bytes) {
    return Error(absl::StrFormat("record of %d bytes exceeds the %d-byte limit",
                                 len, options_.max_record_bytes));
  }
  record_.resize(len);
  bool short_read = false;
  if (absl::Status s = ReadExact(record_.data(), len, &short_read); !s.ok()) {
    return s;
  }
  if (short_read) {
    return Error(absl::StrFormat(
        "file ends inside a %d-byte record (file truncated?)", len));
  }
  return absl::OkStatus();
}

absl::StatusOr<bool> ShardReader::Next(proto::GraphPage* page) {
  if (!failed_.ok()) return failed_;
  if (fd_ < 0) return absl::FailedPreconditionError("reader not open");
  if (done_) return false;
  bool eof = false;
  absl::Status s = ReadRecord(&eof);
  if (s.ok() && eof) s = Error("footer missing (file truncated?)");
  if (s.ok()) s = Fill();
  if (!s.ok()) {
    failed_ = s;
    return s;
  }
  if (pos_ == end_) {
    // The last record of the file: the footer.
    if (!footer_.ParseFromString(record_) ||
        !footer_.GetReflection()->GetUnknownFields(footer_).empty()) {
      failed_ = Error("last record is not a footer (file truncated?)");
      return failed_;
    }
    if (footer_.pages() != pages_ || footer_.links() != links_) {
      failed_ = Error(absl::StrFormat(
          "footer counts %d pages and %d links, the file holds %d and %d "
          "(file truncated?)",
          footer_.pages(), footer_.links(), pages_, links_));
      return failed_;
    }
    done_ = true;
    return false;
  }
  if (!page->ParseFromString(record_)) {
    failed_ = Error("not a valid GraphPage");
    return failed_;
  }
  ++pages_;
  links_ += page->links_size();
  return true;
}

// ---------------------------------------------------------------- listing

bool NaturalLess(absl::string_view a, absl::string_view b) {
  auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (is_digit(a[i]) && is_digit(b[j])) {
      size_t ie = i, je = j;
      while (ie < a.size() && is_digit(a[ie])) ++ie;
      while (je < b.size() && is_digit(b[je])) ++je;
      absl::string_view da = a.substr(i, ie - i), db = b.substr(j, je - j);
      while (da.size() > 1 && da[0] == '0') da.remove_prefix(1);
      while (db.size() > 1 && db[0] == '0') db.remove_prefix(1);
      if (da.size() != db.size()) return da.size() < db.size();
      if (da != db) return da < db;
      i = ie;
      j = je;
      continue;
    }
    if (a[i] != b[j]) return a[i] < b[j];
    ++i;
    ++j;
  }
  if (a.size() - i != b.size() - j) return a.size() - i < b.size() - j;
  return a < b;  // e.g. "x01" and "x1": any fixed order
}

absl::StatusOr<std::vector<std::string>> ListShards(
    const std::vector<std::string>& inputs) {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  for (const std::string& input : inputs) {
    std::error_code ec;
    const fs::file_status st = fs::status(input, ec);
    if (ec || !fs::exists(st)) {
      return absl::NotFoundError(
          absl::StrCat(input, ": no such file or folder"));
    }
    if (fs::is_directory(st)) {
      for (fs::directory_iterator it(input, ec), end; !ec && it != end;
           it.increment(ec)) {
        const std::string p = it->path().string();
        if (absl::string_view(p).size() > kShardSuffix.size() &&
            absl::string_view(p).substr(p.size() - kShardSuffix.size()) ==
                kShardSuffix &&
            it->is_regular_file(ec)) {
          out.push_back(p);
        }
      }
      if (ec) {
        return absl::InternalError(
            absl::StrCat(input, ": cannot list: ", ec.message()));
      }
    } else {
      out.push_back(input);
    }
  }
  std::sort(out.begin(), out.end(),
            [](const std::string& a, const std::string& b) {
              return NaturalLess(a, b);
            });
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace fcrawl::graphio
