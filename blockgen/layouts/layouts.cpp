// Layout dispatch and the checks shared by every layout.
#include "blockgen/layouts.h"

#include <algorithm>

#include "blockgen/layouts/layout_impl.h"

namespace kvz {

const std::vector<std::string>& layout_names() {
  static const std::vector<std::string> names = {"raw",   "leveldb", "rocksdb",
                                                 "hbase", "values",  "values:single"};
  return names;
}

bool is_valid_layout(const std::string& name) {
  const auto& n = layout_names();
  return std::find(n.begin(), n.end(), name) != n.end();
}

BlockSet build_blocks(const RecordSet& records, const std::string& layout, size_t block_size,
                      std::string& error) {
  BlockSet out;
  out.source = records.source;
  out.record_mode = records.record_mode;
  out.layout = layout;
  out.block_size = block_size;
  out.warnings = records.warnings;
  if (!is_valid_layout(layout)) {
    error = "unknown layout '" + layout + "' (one of raw, leveldb, rocksdb, hbase, values, values:single)";
    return out;
  }
  if (layout != "values:single" && (block_size < kMinBlockSize || block_size > kMaxBlockSize)) {
    error = "block size " + std::to_string(block_size) + " out of range (1K..1M)";
    return out;
  }
  if (layout != "raw" && records.records.empty() && !records.raw.empty()) {
    error = "layout " + layout + " needs records, but " + records.source +
            " was read as raw bytes (record mode " + records.record_mode +
            "): use -l raw or a record mode such as -m fixed:100";
    return out;
  }
  if (layout == "leveldb" || layout == "rocksdb" || layout == "values" || layout == "values:single") {
    size_t estimate = 0;
    for (const Record& r : records.records) estimate += r.key.size() + r.value.size() + 8 + 3 + 4;
    out.bytes.reserve(estimate + estimate / 16);
  }
  if (layout == "raw") {
    layouts::build_raw(records, block_size, out);
  } else if (layout == "leveldb") {
    layouts::build_leveldb(records, block_size, out);
  } else if (layout == "rocksdb") {
    layouts::build_rocksdb(records, block_size, out);
  } else if (layout == "hbase") {
    if (!layouts::build_hbase(records, block_size, out, error)) return out;
  } else {
    layouts::build_values(records, block_size, layout == "values:single", out);
  }
  if (out.offsets.empty()) out.offsets.push_back(0);  // zero blocks: count() == 0
  return out;
}

}  // namespace kvz
