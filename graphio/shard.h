// Graph shard files (proto/graph.proto): what a worker exports and the
// ranker reads. Apart from both, so that neither depends on the other.
//
// Layout: "FCGRAPH1\n", a length-prefixed GraphShardHeader, length-prefixed
// GraphPage records, and a length-prefixed GraphShardFooter (each prefix a
// base-128 varint). Records carry no type tag, so the footer is told apart
// by position: it is the last record of the file. Its page and link counts
// must match what was read, so a file cut short anywhere is an error.
#ifndef FCRAWL_GRAPHIO_SHARD_H_
#define FCRAWL_GRAPHIO_SHARD_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/file.h"
#include "proto/graph.pb.h"

namespace fcrawl::graphio {

inline constexpr absl::string_view kShardMagic = "FCGRAPH1\n";
inline constexpr int kShardVersion = 1;
// One GraphPage record may not be larger than this (a page with a million
// links of 60-byte URLs is about 64 MiB).
inline constexpr size_t kDefaultMaxRecordBytes = size_t{64} << 20;
inline constexpr absl::string_view kShardSuffix = ".fcg";

// Writes one shard. Thread-compatible: one writer is used by one thread at a
// time. The file is written as `path` + ".tmp" and replaced atomically by
// Close() (core/file.h AtomicFile: synced, renamed, folder synced), so a
// reader listing a folder never sees a half-written shard, also after a
// crash; a writer destroyed without Close() removes its temporary file. A
// failed write also removes it; later calls fail.
class ShardWriter {
 public:
  ShardWriter() = default;
  ShardWriter(const ShardWriter&) = delete;
  ShardWriter& operator=(const ShardWriter&) = delete;

  absl::Status Open(const std::string& path, absl::string_view worker);
  // Refuses a page whose serialised size exceeds kDefaultMaxRecordBytes
  // (readers would reject the file).
  absl::Status Add(const proto::GraphPage& page);
  // Writes the footer and puts the file in place.
  absl::Status Close();

  int64_t pages() const { return pages_; }
  int64_t links() const { return links_; }

 private:
  absl::Status WriteRecord(const std::string& bytes);
  absl::Status Flush();

  std::string path_;
  file::AtomicFile file_;
  std::string buffer_;
  std::string record_;
  int64_t pages_ = 0;
  int64_t links_ = 0;
};

struct ShardReaderOptions {
  size_t max_record_bytes = kDefaultMaxRecordBytes;
};

// Streams the pages of one shard. Errors name the file, the record (1-based
// count of page records, the footer being the one after the last page) and
// the byte offset.
class ShardReader {
 public:
  ShardReader() = default;
  ShardReader(const ShardReader&) = delete;
  ShardReader& operator=(const ShardReader&) = delete;
  ~ShardReader();

  // Opens the file and reads its magic and header.
  absl::Status Open(const std::string& path, ShardReaderOptions options = {});
  // True and *page filled: a page was read. False: the footer was read and
  // matches; every later call returns false too. An error leaves the reader
  // failed (every later call returns the same error).
  absl::StatusOr<bool> Next(proto::GraphPage* page);

  const std::string& path() const { return path_; }
  const proto::GraphShardHeader& header() const { return header_; }
  // Valid once Next() returned false.
  const proto::GraphShardFooter& footer() const { return footer_; }
  int64_t pages_read() const { return pages_; }
  int64_t links_read() const { return links_; }

 private:
  // Reads one length-prefixed record into record_. *eof is set (and OK
  // returned) when the file ends before the record starts.
  absl::Status ReadRecord(bool* eof);
  absl::Status ReadHeader();
  absl::Status Fill();  // refills buffer_ when it is empty; sets at_eof_
  absl::Status ReadExact(char* out, size_t n, bool* short_read);
  absl::Status Error(absl::string_view what) const;

  std::string path_;
  ShardReaderOptions options_;
  int fd_ = -1;
  std::vector<char> buffer_;
  size_t pos_ = 0;
  size_t end_ = 0;
  bool at_eof_ = false;
  uint64_t offset_ = 0;         // file offset of buffer_[pos_]
  uint64_t record_offset_ = 0;  // file offset of the record being read
  std::string record_;
  proto::GraphShardHeader header_;
  proto::GraphShardFooter footer_;
  int64_t pages_ = 0;
  int64_t links_ = 0;
  bool done_ = false;
  bool in_header_ = false;
  absl::Status failed_;
};

// The shard files named by `inputs`: a folder stands for its *.fcg files.
// Sorted in natural order (digit runs compare as numbers, so graph-w-2.fcg
// comes before graph-w-10.fcg); the order fixes the page ids.
absl::StatusOr<std::vector<std::string>> ListShards(
    const std::vector<std::string>& inputs);

// Natural-order comparison used by ListShards.
bool NaturalLess(absl::string_view a, absl::string_view b);

}  // namespace fcrawl::graphio

#endif  // FCRAWL_GRAPHIO_SHARD_H_
