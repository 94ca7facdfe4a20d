#include "protocol/warc.h"

#include <errno.h>
#include <fcntl.h>
#include <isa-l/igzip_lib.h>
#include <openssl/evp.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "core/file.h"
#include "protocol/cdxj.h"

namespace fcrawl::protocol {
namespace warc_internal {

struct Sha1::Context {
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  ~Context() { EVP_MD_CTX_free(ctx); }
};

Sha1::Sha1() : context_(std::make_unique<Context>()) {
  // Allocation failure of a 200-byte context: nothing sensible to do but
  // stop, as with any other allocation.
  if (context_->ctx == nullptr ||
      EVP_DigestInit_ex(context_->ctx, EVP_sha1(), nullptr) != 1) {
    std::abort();
  }
}

Sha1::~Sha1() = default;

void Sha1::Update(absl::string_view data) {
  EVP_DigestUpdate(context_->ctx, data.data(), data.size());
}

std::array<uint8_t, 20> Sha1::Final() {
  std::array<uint8_t, 20> out{};
  unsigned int n = 0;
  EVP_DigestFinal_ex(context_->ctx, out.data(), &n);
  return out;
}

std::string Sha1Hex(absl::string_view data) {
  Sha1 sha;
  sha.Update(data);
  const std::array<uint8_t, 20> digest = sha.Final();
  std::string out;
  for (uint8_t b : digest) absl::StrAppendFormat(&out, "%02x", b);
  return out;
}

std::string Base32Encode(absl::string_view data) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  std::string out;
  out.reserve((data.size() + 4) / 5 * 8);
  uint64_t bits = 0;
  int nbits = 0;
  for (unsigned char c : data) {
    bits = (bits << 8) | c;
    nbits += 8;
    while (nbits >= 5) {
      out.push_back(kAlphabet[(bits >> (nbits - 5)) & 31]);
      nbits -= 5;
    }
  }
  if (nbits > 0) out.push_back(kAlphabet[(bits << (5 - nbits)) & 31]);
  while (out.size() % 8 != 0) out.push_back('=');
  return out;
}

namespace {

std::string DigestString(Sha1& sha) {
  const std::array<uint8_t, 20> d = sha.Final();
  return absl::StrCat("sha1:",
                      Base32Encode(absl::string_view(
                          reinterpret_cast<const char*>(d.data()), d.size())));
}

}  // namespace

std::string WarcSha1Digest(absl::string_view data) {
  Sha1 sha;
  sha.Update(data);
  return DigestString(sha);
}

std::string WarcDate(absl::Time t) {
  return absl::FormatTime("%Y-%m-%dT%H:%M:%E6SZ", t, absl::UTCTimeZone());
}

absl::StatusOr<std::string> GzipMember(
    const std::vector<absl::string_view>& parts, int level) {
  // ISA-L's igzip (chosen by bench/gzip.py: level 1 compresses real pages
  // about 4 times as fast as zlib's level 1, a little smaller). Levels 0 to
  // ISAL_DEF_MAX_LEVEL (3); the larger ones need a buffer of their own,
  // one per thread (the parse threads compress at once).
  if (level < 0) level = 1;
  level = std::min(level, ISAL_DEF_MAX_LEVEL);
  thread_local std::vector<uint8_t> level_buf(ISAL_DEF_LVL3_DEFAULT);
  isal_zstream zs;
  isal_deflate_init(&zs);
  zs.level = static_cast<uint32_t>(level);
  zs.gzip_flag = IGZIP_GZIP;  // gzip header and CRC-32/ISIZE trailer
  if (level > 0) {
    zs.level_buf = level_buf.data();
    zs.level_buf_size = static_cast<uint32_t>(level_buf.size());
  }
  zs.flush = NO_FLUSH;
  std::string out;
  size_t total_in = 0;
  for (absl::string_view part : parts) total_in += part.size();
  out.reserve(total_in / 3 + 64);
  uint8_t buf[64 * 1024];
  // Compresses what zs holds; with end_of_stream set, until the member is
  // complete.
  auto pump = [&]() -> bool {
    do {
      zs.next_out = buf;
      zs.avail_out = sizeof(buf);
      if (isal_deflate(&zs) != COMP_OK) return false;
      out.append(reinterpret_cast<const char*>(buf),
                 sizeof(buf) - zs.avail_out);
    } while (zs.avail_in > 0 || zs.avail_out == 0 ||
             (zs.end_of_stream && zs.internal_state.state != ZSTATE_END));
    return true;
  };
  for (absl::string_view part : parts) {
    while (!part.empty()) {
      // avail_in is 32 bits wide: feed at most 1 GiB at a time.
      const size_t chunk = std::min<size_t>(part.size(), size_t{1} << 30);
      zs.next_in = reinterpret_cast<uint8_t*>(const_cast<char*>(part.data()));
      zs.avail_in = static_cast<uint32_t>(chunk);
      if (!pump()) return absl::InternalError("igzip deflate failed");
      part.remove_prefix(chunk);
    }
  }
  zs.next_in = nullptr;
  zs.avail_in = 0;
  zs.end_of_stream = 1;
  if (!pump()) return absl::InternalError("igzip deflate finish failed");
  return out;
}

absl::StatusOr<std::string> ZstdFrame(
    const std::vector<absl::string_view>& parts, int level) {
  // One context per thread (the parse threads compress at once), reused:
  // creating one costs more than compressing a small page.
  thread_local std::unique_ptr<ZSTD_CCtx, decltype(&ZSTD_freeCCtx)> cctx(
      ZSTD_createCCtx(), &ZSTD_freeCCtx);
  if (cctx == nullptr) return absl::InternalError("ZSTD_createCCtx failed");
  ZSTD_CCtx_reset(cctx.get(), ZSTD_reset_session_and_parameters);
  ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_compressionLevel, level);
  ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_checksumFlag, 1);
  size_t total_in = 0;
  for (absl::string_view part : parts) total_in += part.size();
  // The size goes into the frame header: readers know it up front.
  ZSTD_CCtx_setPledgedSrcSize(cctx.get(), total_in);
  std::string out(ZSTD_compressBound(total_in), '\0');
  ZSTD_outBuffer o{out.data(), out.size(), 0};
  for (size_t i = 0; i < parts.size(); ++i) {
    ZSTD_inBuffer in{parts[i].data(), parts[i].size(), 0};
    const bool last = i + 1 == parts.size();
    size_t left = 0;
    do {
      left = ZSTD_compressStream2(cctx.get(), &o, &in,
                                  last ? ZSTD_e_end : ZSTD_e_continue);
      if (ZSTD_isError(left)) {
        return absl::InternalError(
            absl::StrCat("zstd: ", ZSTD_getErrorName(left)));
      }
    } while (in.pos < in.size || (last && left != 0));
  }
  if (parts.empty()) {
    ZSTD_inBuffer in{nullptr, 0, 0};
    const size_t left = ZSTD_compressStream2(cctx.get(), &o, &in, ZSTD_e_end);
    if (ZSTD_isError(left) || left != 0) {
      return absl::InternalError("zstd: cannot end an empty frame");
    }
  }
  out.resize(o.pos);
  return out;
}

std::string RandomRecordId(absl::BitGen& gen) {
  uint8_t b[16];
  for (int i = 0; i < 16; i += 8) {
    const uint64_t r = absl::Uniform<uint64_t>(gen);
    for (int j = 0; j < 8; ++j) b[i + j] = static_cast<uint8_t>(r >> (8 * j));
  }
  b[6] = (b[6] & 0x0F) | 0x40;  // version 4
  b[8] = (b[8] & 0x3F) | 0x80;  // RFC 4122 variant
  // One hex conversion of the 16 bytes, cut at the dashes: a formatted
  // append per byte cost ~20,000 instructions per record.
  const std::string hex = absl::BytesToHexString(
      absl::string_view(reinterpret_cast<const char*>(b), sizeof(b)));
  const absl::string_view h(hex);
  return absl::StrCat("<urn:uuid:", h.substr(0, 8), "-", h.substr(8, 4), "-",
                      h.substr(12, 4), "-", h.substr(16, 4), "-", h.substr(20),
                      ">");
}

}  // namespace warc_internal

namespace {

using warc_internal::Sha1;

// A header value must not break the header block: no control characters
// (CR, LF, NUL...), no spaces in a URI.
bool SafeHeaderToken(absl::string_view v) {
  if (v.empty()) return false;
  for (unsigned char c : v) {
    if (c <= 0x20 || c == 0x7F) return false;
  }
  return true;
}

bool ValidIp(absl::string_view ip) {
  for (char c : ip) {
    if (!(absl::ascii_isxdigit(static_cast<unsigned char>(c)) || c == '.' ||
          c == ':')) {
      return false;
    }
  }
  return true;
}

struct RecordHeader {
  std::vector<std::pair<std::string, std::string>> fields;
  void Add(absl::string_view name, absl::string_view value) {
    fields.emplace_back(std::string(name), std::string(value));
  }
  std::string Serialize(size_t content_length) const {
    std::string out = "WARC/1.1\r\n";
    for (const auto& [name, value] : fields) {
      absl::StrAppend(&out, name, ": ", value, "\r\n");
    }
    absl::StrAppend(&out, "Content-Length: ", content_length, "\r\n\r\n");
    return out;
  }
};

constexpr absl::string_view kRecordEnd = "\r\n\r\n";

// A whole record (header, block made of `block_parts`, trailer) as one gzip
// member. Adds WARC-Block-Digest.
absl::StatusOr<std::string> CompressRecord(
    RecordHeader header, const std::vector<absl::string_view>& block_parts,
    const WarcOptions& options) {
  Sha1 sha;
  size_t length = 0;
  for (absl::string_view p : block_parts) {
    sha.Update(p);
    length += p.size();
  }
  header.Add("WARC-Block-Digest", warc_internal::DigestString(sha));
  const std::string head = header.Serialize(length);
  std::vector<absl::string_view> parts;
  parts.push_back(head);
  parts.insert(parts.end(), block_parts.begin(), block_parts.end());
  parts.push_back(kRecordEnd);
  if (options.compression == WarcOptions::Compression::kZstd) {
    return warc_internal::ZstdFrame(parts, options.zstd_level);
  }
  return warc_internal::GzipMember(parts, options.compression_level);
}

}  // namespace

WarcWriter::WarcWriter(std::string folder, std::string prefix,
                       WarcOptions options)
    : folder_(std::move(folder)),
      prefix_(std::move(prefix)),
      options_(std::move(options)) {}

WarcWriter::~WarcWriter() { Close().IgnoreError(); }

absl::StatusOr<std::unique_ptr<WarcWriter>> WarcWriter::Open(
    const std::string& folder, absl::string_view prefix,
    const WarcOptions& options) {
  if (prefix.empty() || absl::StrContains(prefix, '/')) {
    return absl::InvalidArgumentError(absl::StrCat(
        "WARC file prefix must be non-empty without '/': \"", prefix, "\""));
  }
  std::unique_ptr<WarcWriter> w(new WarcWriter(folder.empty() ? "." : folder,
                                               std::string(prefix), options));
  {
    absl::MutexLock lock(&w->mu_);
    if (absl::Status s = w->StartFile(); !s.ok()) return s;
  }
  return w;
}

std::string WarcWriter::NewRecordId() {
  return warc_internal::RandomRecordId(bitgen_);
}

absl::Status WarcWriter::StartFile() {
  const absl::Time now = absl::Now();
  const std::string stamp =
      absl::FormatTime("%Y%m%d%H%M%S", now, absl::UTCTimeZone());
  const int64_t millis = absl::ToUnixMillis(now) % 1000;
  std::string name;
  // Never overwrite: O_EXCL, and on a clash the next serial.
  for (int attempts = 0;; ++attempts) {
    name = absl::StrFormat(
        "%s-%s%03d-%05d%s", prefix_, stamp, millis, serial_++,
        options_.compression == WarcOptions::Compression::kZstd ? ".warc.zst"
                                                                : ".warc.gz");
    path_ = absl::StrCat(folder_, "/", name);
    fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd_ >= 0) break;
    if (errno != EEXIST || attempts >= 1000) {
      const int err = errno;
      return file::ErrnoStatus(err, "cannot create WARC file", path_);
    }
  }
  paths_.push_back(path_);
  cdxj_lines_.clear();
  file_bytes_ = 0;
  exchanges_in_file_ = 0;
  warcinfo_id_ = NewRecordId();

  char host[256] = {0};
  if (gethostname(host, sizeof(host) - 1) != 0) host[0] = '\0';
  std::string block = absl::StrCat("software: ", options_.software, "\r\n");
  if (host[0] != '\0') absl::StrAppend(&block, "hostname: ", host, "\r\n");
  absl::StrAppend(&block,
                  "format: WARC File Format 1.1\r\n"
                  "conformsTo: http://iipc.github.io/warc-specifications/"
                  "specifications/warc-format/warc-1.1/\r\n");
  RecordHeader h;
  h.Add("WARC-Type", "warcinfo");
  h.Add("WARC-Record-ID", warcinfo_id_);
  h.Add("WARC-Date", warc_internal::WarcDate(now));
  h.Add("WARC-Filename", name);
  h.Add("Content-Type", "application/warc-fields");
  absl::StatusOr<std::string> record = CompressRecord(h, {block}, options_);
  if (!record.ok()) return record.status();
  return Append(*record);
}

absl::Status WarcWriter::Append(absl::string_view bytes) {
  absl::Status s = Write(bytes);
  // The disk is full: space held back for this is freed, and the record
  // (cut off again by Write) is written once more.
  if (absl::IsResourceExhausted(s) && sticky_error_.ok() && options_.no_space &&
      options_.no_space()) {
    s = Write(bytes);
  }
  return s;
}

absl::Status WarcWriter::Write(absl::string_view bytes) {
  const char* p = bytes.data();
  size_t n = bytes.size();
  while (n > 0) {
    const ssize_t w = ::write(fd_, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      absl::Status s = file::ErrnoStatus(err, "cannot write WARC file", path_);
      // Drop the partial record so the file stays a sequence of whole
      // gzip members.
      if (::ftruncate(fd_, static_cast<off_t>(file_bytes_)) != 0 ||
          ::lseek(fd_, static_cast<off_t>(file_bytes_), SEEK_SET) < 0) {
        sticky_error_ = s;
      }
      return s;
    }
    p += w;
    n -= static_cast<size_t>(w);
  }
  file_bytes_ += bytes.size();
  return absl::OkStatus();
}

absl::Status WarcWriter::WriteExchange(const WarcExchange& x) {
  if (!SafeHeaderToken(x.url)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "URL unusable as WARC-Target-URI: \"", absl::CHexEscape(x.url), "\""));
  }
  if (!ValidIp(x.ip)) {
    return absl::InvalidArgumentError(
        absl::StrCat("bad IP address \"", absl::CHexEscape(x.ip), "\""));
  }
  if (!x.truncated.empty() && x.truncated != "length" &&
      x.truncated != "time" && x.truncated != "disconnect" &&
      x.truncated != "unspecified") {
    return absl::InvalidArgumentError(absl::StrCat(
        "bad WARC-Truncated reason \"", absl::CHexEscape(x.truncated), "\""));
  }
  if (!x.protocol.empty() && !SafeHeaderToken(x.protocol)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "bad WARC-Protocol \"", absl::CHexEscape(x.protocol), "\""));
  }
  if (!x.revisit_profile.empty() &&
      x.revisit_profile != "server-not-modified" &&
      x.revisit_profile != "identical-payload-digest") {
    return absl::InvalidArgumentError(absl::StrCat(
        "bad revisit profile \"", absl::CHexEscape(x.revisit_profile), "\""));
  }
  if (!x.revisit_profile.empty() && !SafeHeaderToken(x.refers_to_url)) {
    return absl::InvalidArgumentError(
        absl::StrCat("URL unusable as WARC-Refers-To-Target-URI: \"",
                     absl::CHexEscape(x.refers_to_url), "\""));
  }
  if (x.request.empty() || x.response_head.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("empty request or response head for ", x.url));
  }
  std::string request_id, response_id, warcinfo_id;
  {
    absl::MutexLock lock(&mu_);
    if (!sticky_error_.ok()) return sticky_error_;
    if (closed_) {
      return absl::FailedPreconditionError(
          absl::StrCat("WARC writer is closed: ", path_));
    }
    request_id = NewRecordId();
    response_id = NewRecordId();
    warcinfo_id = warcinfo_id_;
  }
  const std::string date = warc_internal::WarcDate(x.fetched_at);
  const std::string payload_digest = warc_internal::WarcSha1Digest(x.body);
  const bool revisit = !x.revisit_profile.empty();
  const bool not_modified = x.revisit_profile == "server-not-modified";

  // Records are built before the rollover decision (which needs their size);
  // WARC-Warcinfo-ID is therefore filled in after it.
  auto build = [&](const std::string& warcinfo_id, std::string* request,
                   std::string* response) -> absl::Status {
    RecordHeader req;
    req.Add("WARC-Type", "request");
    req.Add("WARC-Record-ID", request_id);
    req.Add("WARC-Date", date);
    req.Add("WARC-Target-URI", x.url);
    req.Add("WARC-Concurrent-To", response_id);
    req.Add("WARC-Warcinfo-ID", warcinfo_id);
    if (!x.ip.empty()) req.Add("WARC-IP-Address", x.ip);
    if (!x.protocol.empty()) req.Add("WARC-Protocol", x.protocol);
    req.Add("Content-Type", "application/http;msgtype=request");
    absl::StatusOr<std::string> r1 = CompressRecord(req, {x.request}, options_);
    if (!r1.ok()) return r1.status();

    RecordHeader resp;
    resp.Add("WARC-Type", revisit ? "revisit" : "response");
    resp.Add("WARC-Record-ID", response_id);
    resp.Add("WARC-Date", date);
    resp.Add("WARC-Target-URI", x.url);
    resp.Add("WARC-Concurrent-To", request_id);
    resp.Add("WARC-Warcinfo-ID", warcinfo_id);
    if (!x.ip.empty()) resp.Add("WARC-IP-Address", x.ip);
    if (!x.protocol.empty()) resp.Add("WARC-Protocol", x.protocol);
    if (revisit) {
      resp.Add("WARC-Profile",
               absl::StrCat("http://netpreserve.org/warc/1.1/revisit/",
                            x.revisit_profile));
      resp.Add("WARC-Refers-To-Target-URI", x.refers_to_url);
      if (x.refers_to_date != absl::InfinitePast()) {
        resp.Add("WARC-Refers-To-Date",
                 warc_internal::WarcDate(x.refers_to_date));
      }
    }
    // A 304 has no payload; an identical payload has the earlier one's.
    if (!not_modified) resp.Add("WARC-Payload-Digest", payload_digest);
    resp.Add("Content-Type", "application/http;msgtype=response");
    if (!x.truncated.empty() && !revisit) {
      resp.Add("WARC-Truncated", x.truncated);
    }
    absl::StatusOr<std::string> r2 =
        revisit ? CompressRecord(resp, {x.response_head}, options_)
                : CompressRecord(resp, {x.response_head, x.body}, options_);
    if (!r2.ok()) return r2.status();
    *request = *std::move(r1);
    *response = *std::move(r2);
    return absl::OkStatus();
  };

  // Compression (the costly part) runs outside the lock, so threads that
  // share a writer compress in parallel; only the append is serialised.
  std::string request, response;
  if (absl::Status s = build(warcinfo_id, &request, &response); !s.ok()) {
    return s;
  }
  absl::MutexLock lock(&mu_);
  if (!sticky_error_.ok()) return sticky_error_;
  if (closed_) {
    return absl::FailedPreconditionError(
        absl::StrCat("WARC writer is closed: ", path_));
  }
  if (warcinfo_id != warcinfo_id_) {
    // Another thread rolled over to a new file meanwhile.
    if (absl::Status s = build(warcinfo_id_, &request, &response); !s.ok()) {
      return s;
    }
  }
  if (exchanges_in_file_ > 0 && file_bytes_ + request.size() + response.size() >
                                    options_.max_file_bytes) {
    if (absl::Status s = CloseFile(); !s.ok()) {
      sticky_error_ = s;
      return s;
    }
    if (absl::Status s = StartFile(); !s.ok()) {
      // No usable file: later calls fail the same way.
      sticky_error_ = s;
      return s;
    }
    if (absl::Status s = build(warcinfo_id_, &request, &response); !s.ok()) {
      return s;
    }
  }
  // Both records in one write, so a failure never leaves half an exchange.
  const uint64_t response_offset = file_bytes_ + request.size();
  const uint64_t response_length = response.size();
  request.append(response);
  if (absl::Status s = Append(request); !s.ok()) return s;
  ++exchanges_in_file_;
  if (options_.cdxj) {
    CdxjRecord c;
    c.url = x.url;
    c.warc_date = date;
    c.response_head = x.response_head;
    if (!not_modified) c.payload_digest = payload_digest;
    if (revisit) c.mime = "warc/revisit";
    c.length = response_length;
    c.offset = response_offset;
    c.filename = absl::string_view(path_).substr(path_.rfind('/') + 1);
    cdxj_lines_.push_back(CdxjLine(c));
  }
  return absl::OkStatus();
}

absl::Status WarcWriter::CloseFile() {
  if (fd_ < 0) return absl::OkStatus();
  const int rc = ::close(fd_);
  fd_ = -1;
  if (rc != 0) return file::ErrnoStatus("cannot close WARC file", path_);
  if (!options_.cdxj) return absl::OkStatus();
  std::vector<std::string> lines;
  lines.swap(cdxj_lines_);
  std::sort(lines.begin(), lines.end());
  std::string index;
  for (const std::string& line : lines) absl::StrAppend(&index, line, "\n");
  std::string index_path = path_;
  for (absl::string_view ext : {".warc.gz", ".warc.zst"}) {
    if (absl::EndsWith(index_path, ext)) {
      index_path.resize(index_path.size() - ext.size());
      break;
    }
  }
  index_path.append(".cdxj");
  return file::WriteFileAtomically(index_path, index);
}

absl::Status WarcWriter::Close() {
  absl::MutexLock lock(&mu_);
  if (closed_) return absl::OkStatus();
  closed_ = true;
  return CloseFile();
}

}  // namespace fcrawl::protocol
