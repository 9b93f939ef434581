// Values only (key-value separation). `values`: values back to back, cut once a block
// reaches the target (like the other layouts, the value that crosses it stays). Blob files
// (BlobDB, WiscKey's vLog) hold values apart from the keys. `values:single`: one block per
// value, as Tarantool compresses a single field of one tuple; empty values are skipped
// (nothing to compress) and reported.
#include <string>

#include "blockgen/layouts/layout_impl.h"

namespace kvz::layouts {

void build_values(const RecordSet& in, size_t block_size, bool one_per_value, BlockSet& out) {
  std::string block;
  uint32_t n = 0;
  uint64_t skipped = 0;
  auto flush = [&] {
    out.add_block({reinterpret_cast<const uint8_t*>(block.data()), block.size()}, n);
    block.clear();
    n = 0;
  };
  for (const Record& r : in.records) {
    if (one_per_value && r.value.empty()) {
      ++skipped;
      continue;
    }
    block.append(r.value);
    ++n;
    out.composition.value_bytes += r.value.size();
    out.composition.records += 1;
    if (one_per_value || block.size() >= block_size) flush();
  }
  if (n > 0) flush();
  if (skipped) {
    out.warnings.push_back("values:single: skipped " + std::to_string(skipped) +
                           " empty values (no block to compress)");
  }
}

}  // namespace kvz::layouts
