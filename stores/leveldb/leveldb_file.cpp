// LevelDB 1.23's whole table file around its data blocks, as TableBuilder::Finish writes it
// (leveldb 1.23 table/table_builder.cc, table/format.h): no filter block (Options::filter_policy
// is null by default), an empty metaindex block, the index block (restart interval 1; one
// entry per data block: FindShortestSeparator(last key, next block's first key), the last
// block FindShortSuccessor(last key) -> BlockHandle), both through WriteBlock (compressed by
// the table's codec when that saves 1/8), and the 48-byte footer.
#include "stores/framing.h"
#include "stores/shared/table_meta_blocks.h"
#include "stores/store.h"

namespace kvz {

namespace {
constexpr uint64_t kFooter = 48;  // Footer::kEncodedLength: two padded handles + magic
}  // namespace

// A meta block as WriteBlock stores it: compressed under the table's rule, trailer included.
std::optional<uint64_t> stored_meta_block(const StoreProfile& p, const FileInput& in, const std::string& raw) {
  if (in.codec.uncompressed) return raw.size() + framing::kBlockTrailer;
  const auto bytes = std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(raw.data()), raw.size());
  const std::optional<size_t> compressed = in.compress(bytes);
  if (!compressed) return std::nullopt;
  return store_block(p, in.codec, raw.size(), *compressed).bytes;
}

std::optional<FileParts> leveldb_file_parts(const StoreProfile& p, const FileInput& in) {
  const TableKeys& keys = in.blocks->table_keys;
  const size_t n = keys.first.size();
  FileParts f;
  table::BlockWriter index(1);
  for (size_t i = 0; i < n; ++i) {
    const std::string key =
        i + 1 < n ? table::leveldb_separator(keys.last[i], keys.first[i + 1]) : table::leveldb_successor(keys.last[i]);
    index.add(key, table::block_handle(f.data, in.stored[i] - framing::kBlockTrailer));
    f.data += in.stored[i];
  }
  table::BlockWriter metaindex(1);  // no filter: no entries
  const auto meta = stored_meta_block(p, in, metaindex.finish());
  const auto idx = stored_meta_block(p, in, index.finish());
  if (!meta || !idx) return std::nullopt;
  f.metaindex = *meta;
  f.index = *idx;
  f.footer = kFooter;
  return f;
}

}  // namespace kvz
