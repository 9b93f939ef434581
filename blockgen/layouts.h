#pragma once
// Block layouts: how a store lays records into data blocks. One file per layout in layouts/.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "blockgen/block.h"

namespace kvz {

// The default block sizes (the accepted range: kMinBlockSize..kMaxBlockSize, blockgen/block.h).
inline const std::vector<size_t> kDefaultBlockSizes = {1024, 4096, 16384, 65536};

// One row per layout: what -l/--layout accepts, `--help` and the errors list, and how to build it.
struct LayoutInfo {
  const char* name;         // "raw", "rocksdb", "values:single", ...
  const char* description;  // one line for --help and docs
  bool needs_records;       // built from records (false: the source bytes are sliced as they are)
  bool ignores_block_size;  // one block per value: -b does not apply
  // Appends the blocks to `out`; false with `error` set on input the layout cannot take.
  bool (*build)(const RecordSet& in, size_t block_size, BlockSet& out, std::string& error);
  bool needs_store_file = false;  // a store file's own blocks: any other source is refused
};
const std::vector<LayoutInfo>& layout_table();
const LayoutInfo* find_layout(std::string_view name);  // null for an unknown name
const std::vector<std::string>& layout_names();

// Build blocks of `block_size` target bytes from `records` (raw layout uses records.raw,
// or the records concatenated when raw is empty). `error` is set on bad input: unknown layout,
// size outside 1K..1M, a record layout over a corpus read as raw bytes. A record larger than
// the block makes one oversized block, as the stores do.
BlockSet build_blocks(const RecordSet& records, const std::string& layout, size_t block_size, std::string& error);

}  // namespace kvz
