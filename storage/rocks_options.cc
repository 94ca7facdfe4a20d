// The RocksDB options of storage/rocks_options.h.
#include "storage/rocks_options.h"

#include <initializer_list>
#include <memory>
#include <vector>

#include "rocksdb/cache.h"
#include "rocksdb/convenience.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/slice_transform.h"
#include "rocksdb/table.h"
#include "rocksdb/utilities/table_properties_collectors.h"
#include "storage/link_keys.h"

namespace fcrawl::storage {
namespace {

// The prefix of a near-duplicate band key, "D" band(1) band_key(8)
// (storage/link_keys.h): what LinkDb::NearDuplicate seeks. Other keys are
// outside its domain, so their Gets and scans filter as before (whole
// keys). Most bands of a page match no other page's; with their prefixes
// in the bloom filters (memtable and tables) such a seek ends at the
// filters instead of searching the memtable and every file.
class BandPrefixTransform : public rocksdb::SliceTransform {
 public:
  // Kept in every table's properties: under a new name, tables written with
  // the old one are read without their prefix filter (never wrongly).
  const char* Name() const override { return "fcrawl.NearDuplicateBand.1"; }
  rocksdb::Slice Transform(const rocksdb::Slice& key) const override {
    return rocksdb::Slice(key.data(), keys::kBandPrefixBytes);
  }
  bool InDomain(const rocksdb::Slice& key) const override {
    return key.size() >= keys::kBandPrefixBytes && key[0] == keys::kBandTag;
  }
};

// "H" host "\0" tag (keys::HostRangePrefixSize): the key range of one
// host's records, queue or in-flight set. The memtable keeps where it last
// inserted into each such range and starts the next insert there instead
// of at the top of the skiplist: a page's new links mostly go to its own
// host's ranges (a quarter fewer instructions in memtable inserts, 2% of a
// bfs crawl's, under callgrind).
//
// Only keys with something after the tag are in the domain. RocksDB 7.8
// (Debian 12) keeps one hint map for the point keys' skiplist and the range
// deletions' (facebook/rocksdb#5118, fixed in 9.x), so a range deletion
// that used a hint would search the other skiplist from a node of this
// one. LinkDb's only range deletion (DropHost) starts at HostSubKey(host,
// tag), with nothing after the tag, so it is inserted without a hint.
class HostRangePrefixTransform : public rocksdb::SliceTransform {
 public:
  const char* Name() const override { return "fcrawl.HostRange.1"; }
  rocksdb::Slice Transform(const rocksdb::Slice& key) const override {
    return rocksdb::Slice(key.data(),
                          keys::HostRangePrefixSize({key.data(), key.size()}));
  }
  bool InDomain(const rocksdb::Slice& key) const override {
    const size_t prefix = keys::HostRangePrefixSize({key.data(), key.size()});
    return prefix != 0 && prefix < key.size();
  }
};

rocksdb::CompressionType PickCompression(
    const std::vector<rocksdb::CompressionType>& supported,
    std::initializer_list<rocksdb::CompressionType> wanted) {
  for (rocksdb::CompressionType c : wanted) {
    for (rocksdb::CompressionType s : supported) {
      if (s == c) return c;
    }
  }
  return rocksdb::kNoCompression;
}

}  // namespace

rocksdb::Options MakeRocksOptions(const LinkDbOptions& o) {
  rocksdb::Options opts;
  opts.create_if_missing = o.create_if_missing;
  // Two cores: one flush and one compaction at a time.
  opts.max_background_jobs = 2;
  // Memtables absorb ~1000 small batches/s; 64 MiB (RocksDB's default) keeps
  // a few minutes of crawl in memory and makes L0 files of useful size.
  opts.write_buffer_size = 64 << 20;
  opts.max_write_buffer_number = 3;
  opts.target_file_size_base = 64 << 20;
  opts.max_bytes_for_level_base = 256 << 20;
  opts.level_compaction_dynamic_level_bytes = true;
  opts.bytes_per_sync = 1 << 20;
  opts.wal_bytes_per_sync = 1 << 20;
  opts.keep_log_file_num = 4;
  opts.max_log_file_size = 16 << 20;
  // A bloom filter in the memtable too: most Gets are of out-links never
  // seen, and they should not have to search the skiplist.
  opts.memtable_whole_key_filtering = true;
  opts.memtable_prefix_bloom_size_ratio = 0.05;
  opts.prefix_extractor = std::make_shared<BandPrefixTransform>();
  opts.memtable_insert_with_hint_prefix_extractor =
      std::make_shared<HostRangePrefixTransform>();
  const std::vector<rocksdb::CompressionType> supported =
      rocksdb::GetSupportedCompressions();
  opts.compression = PickCompression(
      supported, {rocksdb::kLZ4Compression, rocksdb::kSnappyCompression});
  opts.bottommost_compression = PickCompression(
      supported,
      {rocksdb::kZSTD, rocksdb::kLZ4Compression, rocksdb::kSnappyCompression});
  // Popped queue entries leave tombstones in the "Q" ranges; files dense in
  // them are compacted early so that neither refills nor Open pay for them.
  opts.table_properties_collector_factories.emplace_back(
      rocksdb::NewCompactOnDeletionCollectorFactory(
          /*sliding_window_size=*/128, /*deletion_trigger=*/64));

  rocksdb::BlockBasedTableOptions table;
  if (o.block_cache_bytes == 0) {
    table.no_block_cache = true;
  } else {
    table.block_cache = rocksdb::NewLRUCache(o.block_cache_bytes);
  }
  // Whole-key bloom filter (10 bits/key, ~1% false positives): a Get of an
  // unknown URL touches no data block.
  table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
  table.whole_key_filtering = true;
  table.optimize_filters_for_memory = true;
  table.format_version = 5;
  table.block_size = 16 << 10;
  opts.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  return opts;
}

}  // namespace fcrawl::storage
