// The RocksDB tuning of the link state (compression, bloom filters, block
// cache, compaction of popped queue entries), kept apart from what the data
// means. Internal to storage: RocksDB types stay inside it.
#ifndef FCRAWL_STORAGE_ROCKS_OPTIONS_H_
#define FCRAWL_STORAGE_ROCKS_OPTIONS_H_

#include "rocksdb/options.h"
#include "storage/link_db.h"

namespace fcrawl::storage {

// The options LinkDb opens RocksDB with, for `o`.
rocksdb::Options MakeRocksOptions(const LinkDbOptions& o);

}  // namespace fcrawl::storage

#endif  // FCRAWL_STORAGE_ROCKS_OPTIONS_H_
