// RocksDB block-based table data blocks (rocksdb 7.8 table/block_based/
// block_based_table_builder.cc and flush_block_policy.cc). Keys are internal keys: the user
// key plus fixed64 (seq << 8 | type); SstFileWriter writes seq 0, type kTypeValue (1).
// FlushBlockBySizePolicy::Update runs *before* an entry is added: cut when the block is
// non-empty and its estimate already reached block_size, or when adding the entry would pass
// block_size while the block is above the deviation limit (block_size_deviation = 10%).
// A record set with sequence numbers (RecordSet::sequences: what a level of a live LSM holds,
// blockgen/lsm_sample.h) packs each record's own, as a flush or compaction writes it.
#include "blockgen/encoding.h"
#include "blockgen/layouts/layout_impl.h"
#include "blockgen/layouts/prefix_block.h"

namespace kvz::layouts {

namespace {
constexpr int kBlockSizeDeviation = 10;  // BlockBasedTableOptions default
constexpr uint64_t kTypeValue = 1;
}  // namespace

void build_rocksdb(const RecordSet& in, size_t block_size, BlockSet& out) {
  const size_t deviation_limit = (block_size * (100 - kBlockSizeDeviation) + 99) / 100;
  PrefixBlock block(16);
  std::string ikey;
  const bool sequenced = !in.sequences.empty();
  for (size_t i = 0; i < in.records.size(); ++i) {
    const Record& r = in.records[i];
    ikey.assign(r.key);
    enc::put_fixed64(ikey, ((sequenced ? in.sequences[i] : 0) << 8) | kTypeValue);
    if (!block.empty()) {
      const size_t now = block.size_estimate();
      const bool almost_full = block.estimate_after(ikey, r.value) > block_size && now > deviation_limit;
      if (now >= block_size || almost_full) flush_prefix_block(block, out);
    }
    out.table_keys.add(r.key, ikey.size(), r.value.size(), block.empty());
    block.add(ikey, r.value, r.key.size(), out.composition);
  }
  if (!block.empty()) flush_prefix_block(block, out);
}

}  // namespace kvz::layouts
