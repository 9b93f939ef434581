// LevelDB table data blocks (leveldb table/table_builder.cc, TableBuilder::Add): the entry
// is added first, and the block is cut once BlockBuilder::CurrentSizeEstimate() reaches
// options.block_size, so blocks overshoot the target by up to one entry.
#include "blockgen/layouts/layout_impl.h"
#include "blockgen/layouts/prefix_block.h"

namespace kvz::layouts {

void build_leveldb(const RecordSet& in, size_t block_size, BlockSet& out) {
  PrefixBlock block(16);
  for (const Record& r : in.records) {
    out.table_keys.add(r.key, r.key.size(), r.value.size(), block.empty());
    block.add(r.key, r.value, r.key.size(), out.composition);
    if (block.size_estimate() >= block_size) flush_prefix_block(block, out);
  }
  if (!block.empty()) flush_prefix_block(block, out);
}

}  // namespace kvz::layouts
