// A store file's own data blocks, exactly as the file holds them (decompressed): the file's
// block or chunk boundaries, whatever -b says. The block set carries the file's codec and
// bytes on disk, so the run can put the current codec first and compare every row with it.
#include <string>

#include "blockgen/layouts/layout_impl.h"

namespace kvz::layouts {

bool build_as_stored(const RecordSet& in, size_t, BlockSet& out, std::string& error) {
  if (in.origin.empty()) {
    error = "layout as-stored takes a store file (an SST/LDB table, a *-Data.db, an HFile): " + in.source +
            " is not one (use raw or a record layout)";
    return false;
  }
  out.block_size = in.stored_block_size;
  out.origin = in.origin;
  out.bytes = in.stored_blocks.empty() ? in.raw : in.stored_blocks;
  out.offsets = in.stored_offsets;
  out.records_per_block.assign(out.count(), 0);
  out.composition.value_bytes = out.total_bytes();  // the blocks' contents: no key/value split counted
  return true;
}

}  // namespace kvz::layouts
