// LevelDB 1.23 table (snappy validated against libleveldb 1.23 in
// tests/stores/validate_stores.cpp; zstd follows upstream after 1.23).
#include <string>

#include "stores/framing.h"
#include "stores/store.h"

namespace kvz {
namespace {

using framing::kBlockTrailer;

constexpr WritableCodec kCodecs[] = {{"snappy", ""}, {"zstd", ""}};

class LevelDb final : public Store {
 public:
  StoreProfile profile() const override {
    StoreProfile p;
    p.name = "leveldb";
    p.description = "LevelDB 1.23 table: 4 KiB data blocks, snappy (zstd: upstream after 1.23)";
    p.layout = "leveldb";
    p.block_size = 4096;
    p.codecs = "snappy/zstd:1";  // Options::zstd_compression_level = 1 upstream
    p.sources =
        "leveldb 1.23 table/table_builder.cc (TableBuilder::WriteBlock), include/leveldb/options.h; "
        "zstd: upstream leveldb table_builder.cc kZstdCompression (2023)";
    return p;
  }

  std::string rules(const StoreProfile&) const override {
    return "no size prefix + 5-byte trailer; raw unless compressed < raw - raw/8";
  }

  std::span<const WritableCodec> writable_codecs() const override { return kCodecs; }

  // table_builder.cc WriteBlock: snappy (and upstream zstd) output as is, kept only when
  // compressed < raw - raw/8; every block gets the 5-byte trailer.
  StoredBlock store_block(const StoreProfile&, const BlockCodec& codec, size_t raw, size_t compressed) const override {
    if (codec.uncompressed) return framing::stored_uncompressed(raw, kBlockTrailer);
    return compressed < raw - raw / 8 ? framing::stored_compressed(compressed, kBlockTrailer)
                                      : framing::stored_raw(raw, kBlockTrailer);
  }
};

}  // namespace

const Store& leveldb_store() {
  static const LevelDb store;
  return store;
}

}  // namespace kvz
