// WARC 1.1 output (ISO 28500:2017): the crawl's fetches as request and
// response records, one gzip member per record, readable by standard WARC
// tools (warcio, pywb, jwat, Heritrix's readers). Optionally (
// WarcOptions::compression) one zstd frame per record instead, `.warc.zst`
// as the IIPC's zstd WARC proposal has it (without a dictionary, so any
// zstd decoder reads it; fewer tools read such files than .warc.gz).
//
// Files are named `<prefix>-<UTC timestamp yyyyMMddHHmmssSSS>-<serial>.warc.gz`
// (serial: 5 digits, counting from 00000 per writer) and each begins with a
// `warcinfo` record. Every later record names it in WARC-Warcinfo-ID. A record
// is one complete gzip member (RFC 1952), so a reader can seek to any record
// offset and `gunzip` of a whole file yields the uncompressed WARC.
//
// A revisit (WarcExchange::revisit_profile) is a request record and a
// `revisit` record, as Heritrix writes them, in place of the response.
//
// Each record carries WARC-Type, WARC-Record-ID (<urn:uuid:...>, random v4),
// WARC-Date (UTC, microseconds), WARC-Target-URI, Content-Type, Content-Length
// (exact byte count of the block), WARC-Block-Digest and, for responses,
// WARC-Payload-Digest (both `sha1:` + RFC 4648 base32), WARC-IP-Address when
// known, and WARC-Concurrent-To linking a request with its response.
//
// Thread-safety: WriteExchange and Close may be called from many threads at
// once; records are compressed outside the writer's lock and appended under
// it, so exchanges never interleave. current_path() and paths() are for the
// owning thread after the writing is done. Files are never overwritten: an
// existing name is skipped.
//
// Errors (missing folder, permission, disk full) come back as a Status naming
// the file. A failed WriteExchange truncates the file back to its last whole
// record, so the file stays valid and the writer stays usable; if even that
// fails, every later call returns the same error.
//
// Beside each file, when it is closed (rollover or Close), its CDXJ index
// `<name>.cdxj` (protocol/cdxj.h: one sorted line per response record, as
// pywb and warcio index), written atomically; a file whose writer was
// killed has none (warcio's `cdx-index` or pywb's indexer rebuild it).
//
// No standard WARC tool is packaged in Debian 12; tests/warc_check.py is a
// strict standalone WARC 1.1 reader that stands in for one (CTest:
// warc_check_test), and crawl_warc_test's WarcEcosystemTest reads a crawl's
// files with Webrecorder's warcio (npm) when Node.js is there.

#ifndef FCRAWL_PROTOCOL_WARC_H_
#define FCRAWL_PROTOCOL_WARC_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/random/random.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "core/disk_reserve.h"

namespace fcrawl::protocol {

struct WarcOptions {
  // A new file is started before an exchange that would take the current
  // file beyond this many (compressed) bytes. A file always holds at least
  // one exchange, so a single exchange larger than this gets a file of its
  // own; a request and its response are never split across files.
  size_t max_file_bytes = 1 << 30;
  // The `software` field of each file's warcinfo record.
  std::string software = "fcrawl";
  // Write `<name>.cdxj` beside each file when it is closed.
  bool cdxj = true;
  // ISA-L igzip level of each record's gzip member, 0 (fastest) to 3
  // (smallest). 1 because a crawler writes every byte it fetches: on real
  // pages igzip's level 1 runs at about 4 times zlib's level 1 for files a
  // little smaller, and its level 3 at half its level 1 for 4% smaller
  // files (bench/gzip.py, docs/benchmarks.md).
  int compression_level = 1;
  // gzip (`.warc.gz`, every WARC tool reads it) or zstd (`.warc.zst`: one
  // independent frame per record, with its size and a checksum).
  enum class Compression { kGzip, kZstd };
  Compression compression = Compression::kGzip;
  // zstd level of each record's frame (1 to 19).
  int zstd_level = 3;
  // Called when a write finds the disk full (thread-safe; see
  // core/disk_reserve.h); when it freed space, the record is written once
  // more. Empty: the write fails.
  NoSpaceHook no_space;
};

// One HTTP exchange, as sent and received.
struct WarcExchange {
  std::string url;  // WARC-Target-URI; no whitespace or control characters
  std::string ip;   // WARC-IP-Address; empty when unknown
  absl::Time fetched_at;  // WARC-Date of both records
  // The raw request bytes: method line + headers (+ CRLF CRLF, + body if any).
  std::string request;
  // The status line + headers as received, ending with CRLF CRLF.
  std::string response_head;
  // The message body following the head. WARC-Payload-Digest is computed over
  // these bytes. If the fetcher removed a chunked transfer coding (libcurl
  // does), the head should no longer say `Transfer-Encoding: chunked`, or
  // readers will try to de-chunk the body again.
  std::string body;
  // WARC-Truncated of the response record when `body` is not the whole
  // payload: "length" (size cap), "time" (timeout), "disconnect" or
  // "unspecified"; empty when the body is complete (WARC 1.1 §5.13).
  std::string truncated;
  // WARC-Protocol of both records (the IIPC proposal for WARC 1.1
  // extensions): "h2" for an HTTP/2 exchange, whose heads are written in
  // HTTP/1.1 form (protocol/fetcher.h); empty: not written (HTTP/1.x).
  std::string protocol;
  // A revisit of a page archived before (WARC 1.1 §6.7): the answer is
  // written as a `revisit` record whose block is the response head alone,
  // with WARC-Profile http://netpreserve.org/warc/1.1/revisit/ + this:
  // "server-not-modified" (a 304 to a conditional request) or
  // "identical-payload-digest" (a body the earlier capture had: `body` is
  // still given, for WARC-Payload-Digest, and not written). Empty: a
  // response record.
  std::string revisit_profile;
  // The earlier capture of a revisit: its URL (WARC-Refers-To-Target-URI)
  // and date (WARC-Refers-To-Date; not written when InfinitePast).
  std::string refers_to_url;
  absl::Time refers_to_date = absl::InfinitePast();
};

class WarcWriter {
 public:
  // Creates the first file in `folder` (which must exist) and writes its
  // warcinfo record. `prefix` must be non-empty and contain no '/'.
  static absl::StatusOr<std::unique_ptr<WarcWriter>> Open(
      const std::string& folder, absl::string_view prefix,
      const WarcOptions& options);

  WarcWriter(const WarcWriter&) = delete;
  WarcWriter& operator=(const WarcWriter&) = delete;
  // Closes the file if Close() was not called (errors are lost then).
  ~WarcWriter();

  // Appends a `request` record and a `response` record (Content-Type
  // application/http;msgtype=request / ...;msgtype=response), in that order,
  // each pointing at the other with WARC-Concurrent-To. Rolls over to a new
  // file first when options.max_file_bytes would be exceeded.
  // InvalidArgument for an empty request or response head or a URL/IP that
  // would break the header block; FailedPrecondition after Close().
  absl::Status WriteExchange(const WarcExchange& x);

  // Closes the current file. Later calls of WriteExchange fail; a second
  // Close() returns OK.
  absl::Status Close();

  // The file being written (the last one after Close()).
  const std::string& current_path() const { return path_; }
  // Every file this writer has created, in order.
  const std::vector<std::string>& paths() const { return paths_; }

 private:
  WarcWriter(std::string folder, std::string prefix, WarcOptions options);

  absl::Status StartFile() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Closes the current file and writes its CDXJ index.
  absl::Status CloseFile() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Writes `bytes` at the end of the current file; on failure truncates the
  // file back to its previous size.
  absl::Status Append(absl::string_view bytes)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::Status Write(absl::string_view bytes)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  std::string NewRecordId() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const std::string folder_;
  const std::string prefix_;
  const WarcOptions options_;
  absl::Mutex mu_;
  absl::BitGen bitgen_ ABSL_GUARDED_BY(mu_);
  int fd_ = -1;
  std::string path_;
  std::vector<std::string> paths_;
  int serial_ = 0;
  uint64_t file_bytes_ = 0;
  int exchanges_in_file_ = 0;
  std::string warcinfo_id_ ABSL_GUARDED_BY(mu_);
  // The current file's CDXJ lines (options_.cdxj), sorted when written.
  std::vector<std::string> cdxj_lines_ ABSL_GUARDED_BY(mu_);
  bool closed_ ABSL_GUARDED_BY(mu_) = false;
  // Set when the file could not be repaired.
  absl::Status sticky_error_ ABSL_GUARDED_BY(mu_);
};

// Building blocks, exposed for tests.
namespace warc_internal {

// SHA-1 (FIPS 180-1), incremental: OpenSSL's libcrypto (EVP), which uses
// the CPU's SHA extensions where it has them. A hand-written SHA-1 was
// 5.4% of the worker's CPU in a crawl (issue 18's profile).
class Sha1 {
 public:
  Sha1();
  ~Sha1();
  Sha1(const Sha1&) = delete;
  Sha1& operator=(const Sha1&) = delete;
  void Update(absl::string_view data);
  // The 20-byte digest. The object must not be used afterwards.
  std::array<uint8_t, 20> Final();

 private:
  struct Context;  // libcrypto's, inside warc.cc
  std::unique_ptr<Context> context_;
};

// SHA-1 of `data` as 40 lower-case hex digits.
std::string Sha1Hex(absl::string_view data);

// RFC 4648 base32 (alphabet A-Z2-7) with '=' padding.
std::string Base32Encode(absl::string_view data);

// "sha1:" + base32 of the SHA-1 of `data`, the WARC digest form.
std::string WarcSha1Digest(absl::string_view data);

// W3C-DTF UTC with microseconds: "2024-05-01T12:34:56.789012Z".
std::string WarcDate(absl::Time t);

// One complete gzip member (RFC 1952) holding the concatenation of `parts`,
// by ISA-L's igzip: `level` 0 to 3 (more is 3), -1 for 1.
absl::StatusOr<std::string> GzipMember(
    const std::vector<absl::string_view>& parts, int level = -1);

// One complete zstd frame holding the concatenation of `parts` (its size in
// the header, a checksum at the end).
absl::StatusOr<std::string> ZstdFrame(
    const std::vector<absl::string_view>& parts, int level);

// A random (version 4) UUID as "<urn:uuid:xxxxxxxx-xxxx-4xxx-yxxx-...>".
std::string RandomRecordId(absl::BitGen& gen);

}  // namespace warc_internal
}  // namespace fcrawl::protocol

#endif  // FCRAWL_PROTOCOL_WARC_H_
