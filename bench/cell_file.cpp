// The whole store file for a cell's blocks (see predict_store_file in bench/cell.h): the data
// blocks as the cell stored them, and the store's meta blocks compressed by the cell's codec
// without a dictionary, as the store compresses its index.
#include <vector>

#include "bench/cell.h"
#include "stores/store_profile.h"

namespace kvz {

void predict_store_file(CellState& cell) {
  const StoreProfile* store = cell.group->store;
  const BlockSet& bs = cell.group->blocks;
  const DictFigures& dict = cell.figures.dict;
  if (!store || !store_models_file(*store) || cell.measured.size() != bs.count()) return;
  if (dict.bytes && dict.method != "file") return;  // the split study is not the file's bytes
  if (cell.stored_block_bytes.size() != cell.measured.size()) return;
  // verify_blocks framed each block already; in block-set order here.
  std::vector<uint64_t> stored(bs.count(), 0);
  for (size_t k = 0; k < cell.measured.size(); ++k) stored[cell.measured[k]] = cell.stored_block_bytes[k];
  CodecParams plain = cell.params;
  plain.dict_size = 0;
  auto session = cell.codec->open(plain, nullptr);  // a fresh one: the timed sessions keep their state
  if (!session.ok()) return;
  std::vector<uint8_t> out;
  FileInput in{.blocks = &bs,
               .stored = stored,
               .codec = {cell.codec->info().name, cell.params.label(), cell.codec->info().is_reference},
               .level = cell.params.level,
               .max_dict_bytes = dict.bytes ? cell.params.dict_size : 0,
               .raw_dict = cell.params.raw_dict,
               .dict_block = dict.block_bytes,
               .compress = [&](std::span<const uint8_t> block) -> std::optional<size_t> {
                 out.resize(session.value->bound(block.size()));
                 const CallResult r = session.value->compress(block, MutableByteView(out.data(), out.size()));
                 if (!r.ok()) return std::nullopt;
                 return r.size;
               }};
  const std::optional<FileParts> parts = store_file_parts(*store, in);
  if (!parts) return;
  SizeFigures& sizes = cell.figures.sizes;
  sizes.store_file = parts->total();
  sizes.store_file_parts = {{"data", parts->data},
                            {"index", parts->index},
                            {"dictionary", parts->dictionary},
                            {"properties", parts->properties},
                            {"metaindex", parts->metaindex},
                            {"footer", parts->footer}};
}

}  // namespace kvz
