// The ranker's URL table: every URL of the graph once, by dense id, in
// large arenas. Owned by Graph (graph.h) and saved by graph_cache.h.
#ifndef FCRAWL_RANKER_URL_TABLE_H_
#define FCRAWL_RANKER_URL_TABLE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace fcrawl::ranker {

// Stores URLs back to back (each behind a varint length) in large chunks and
// finds them again through a hash set of ids: about 13 bytes of overhead per
// URL (5 of them only while the index lives) instead of a std::string and a
// map node.
class UrlTable {
 public:
  UrlTable();
  ~UrlTable();
  UrlTable(UrlTable&&) noexcept;
  UrlTable& operator=(UrlTable&&) noexcept;

  // The id of `url`, adding it if new. Fails past 2^32-2 URLs.
  absl::StatusOr<uint32_t> Intern(absl::string_view url);
  // The id of `url`, or kNone.
  uint32_t Find(absl::string_view url) const;
  // Starts loading the index slots `url` hashes to, so that a run of
  // Intern/Find calls overlaps its cache misses.
  void Prefetch(absl::string_view url) const;
  absl::string_view Get(uint32_t id) const;
  uint32_t size() const { return static_cast<uint32_t>(starts_.size()); }
  // Frees the lookup index; Get() keeps working.
  void DropIndex();
  // Appends `url` as id size() without looking it up: restores a table
  // saved in id order (graph_cache.h; ids 0..size()-1 with Get() are the
  // way to save one). Drops the index first, since Find() would miss the
  // URLs appended after it. Fails past 2^32-2 URLs.
  absl::Status AppendForLoad(absl::string_view url);
  size_t MemoryBytes() const;

  static constexpr uint32_t kNone = 0xFFFFFFFFu;

 private:
  struct Index;

  // Copies `url` into the arena as id size().
  uint32_t Append(absl::string_view url);

  std::vector<std::unique_ptr<char[]>> chunks_;
  size_t chunk_used_ = 0;
  std::vector<uint64_t> starts_;  // chunk << 32 | offset of the length prefix
  std::unique_ptr<Index> index_;
};

}  // namespace fcrawl::ranker

#endif  // FCRAWL_RANKER_URL_TABLE_H_
