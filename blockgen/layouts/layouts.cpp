// The layout table and the checks shared by every layout. One row per layout drives
// validation, the name lists, `--help` and the errors; each builder lives in its own file.
#include "blockgen/layouts.h"

#include "blockgen/layouts/layout_impl.h"
#include "blockgen/table.h"
#include "util/bytes.h"
#include "util/text.h"

namespace kvz {

namespace {

bool raw(const RecordSet& in, size_t block_size, BlockSet& out, std::string&) {
  layouts::build_raw(in, block_size, out);
  return true;
}
bool leveldb(const RecordSet& in, size_t block_size, BlockSet& out, std::string&) {
  layouts::build_leveldb(in, block_size, out);
  return true;
}
bool rocksdb(const RecordSet& in, size_t block_size, BlockSet& out, std::string& error) {
  if (!in.sequences.empty() && in.sequences.size() != in.records.size()) {
    error = in.source + ": " + std::to_string(in.sequences.size()) + " sequence numbers for " +
            std::to_string(in.records.size()) + " records";
    return false;
  }
  layouts::build_rocksdb(in, block_size, out);
  return true;
}
bool wiredtiger(const RecordSet& in, size_t block_size, BlockSet& out, std::string&) {
  layouts::build_wiredtiger(in, block_size, false, out);
  return true;
}
bool wiredtiger_insert(const RecordSet& in, size_t block_size, BlockSet& out, std::string&) {
  layouts::build_wiredtiger(in, block_size, true, out);
  return true;
}
bool values(const RecordSet& in, size_t block_size, BlockSet& out, std::string&) {
  layouts::build_values(in, block_size, false, out);
  return true;
}
bool values_single(const RecordSet& in, size_t block_size, BlockSet& out, std::string&) {
  layouts::build_values(in, block_size, true, out);
  return true;
}

}  // namespace

const std::vector<LayoutInfo>& layout_table() {
  static const std::vector<LayoutInfo> table = {
      {"raw", "fixed-size chunks of the source bytes (Cassandra/ScyllaDB chunks, lzbench)", false, false, raw},
      {"leveldb", "LevelDB 1.23 data blocks: prefix-compressed keys, restart points", true, false, leveldb},
      {"rocksdb", "RocksDB 7.8 data blocks: internal keys, restarts, size-deviation cut", true, false, rocksdb},
      {"hbase", "HBase HFile KeyValue cells, one cell per value column", true, false, layouts::build_hbase},
      {"values", "values back to back, keys apart (BlobDB/WiscKey blob files)", true, false, values},
      {"values:single", "one block per value (Tarantool field compression)", true, true, values_single},
      {"wiredtiger", "WiredTiger 3.2.1 row-store leaf pages of a bulk load with a compressor (-b: leaf_page_max)", true,
       false, wiredtiger},
      {"wiredtiger:insert",
       "WiredTiger 3.2.1 row-store leaf pages of a table filled by ordinary inserts, reconciled from memory "
       "(-b: leaf_page_max)",
       true, false, wiredtiger_insert},
      {"as-stored", "a store file's own data blocks, as the file holds them (its codec is the baseline row)", false,
       true, layouts::build_as_stored, true},
  };
  return table;
}

const LayoutInfo* find_layout(std::string_view name) { return find_row(layout_table(), name); }

const std::vector<std::string>& layout_names() {
  static const std::vector<std::string> names = row_names(layout_table());
  return names;
}

BlockSet build_blocks(const RecordSet& records, const std::string& layout, size_t block_size, std::string& error) {
  BlockSet out;
  out.source = records.source;
  out.record_mode = records.record_mode;
  out.layout = layout;
  out.block_size = block_size;
  out.warnings = records.warnings;
  const LayoutInfo* info = find_layout(layout);
  if (!info) {
    error = unknown_name_error("layout", layout, layout_names());
    return out;
  }
  if (!info->ignores_block_size && (block_size < kMinBlockSize || block_size > kMaxBlockSize)) {
    error = "block size " + std::to_string(block_size) + " out of range (" + format_byte_size(kMinBlockSize) + ".." +
            format_byte_size(kMaxBlockSize) + ")";
    return out;
  }
  if (info->needs_records && records.records.empty() && !records.raw.empty()) {
    // A store file's chunks are read as the file says, whatever -r is: only layouts work there.
    const bool stored = !records.origin.store.empty();
    error = "layout " + layout + " needs records, but " + records.source + " was read as raw bytes (record mode " +
            records.record_mode + "): " +
            (stored ? "a " + records.origin.store + " file's chunks hold no records to read: use -l as-stored or -l raw"
                    : "use -l raw or a record mode such as -r fixed:100");
    return out;
  }
  if (info->needs_records) {
    size_t estimate = 0;
    for (const Record& r : records.records) estimate += r.key.size() + r.value.size() + 8 + 3 + 4;
    out.bytes.reserve(estimate + estimate / 16);
  }
  if (!info->build(records, block_size, out, error)) return out;
  if (out.offsets.empty()) out.offsets.push_back(0);  // zero blocks: count() == 0
  return out;
}

}  // namespace kvz
