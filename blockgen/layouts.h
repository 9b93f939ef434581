#pragma once
// Block layouts: how a store lays records into data blocks. One file per layout in layouts/.
#include <string>
#include <vector>

#include "blockgen/block.h"

namespace kvz {

// Names accepted by -l/--layout: raw, leveldb, rocksdb, hbase, values, values:single.
const std::vector<std::string>& layout_names();
bool is_valid_layout(const std::string& name);

// Build blocks of `block_size` target bytes from `records` (raw layout uses records.raw,
// or the records concatenated when raw is empty). `error` is set on bad input.
BlockSet build_blocks(const RecordSet& records, const std::string& layout, size_t block_size,
                      std::string& error);

}  // namespace kvz
