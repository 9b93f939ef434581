// LevelDB 1.23 table (snappy validated against libleveldb 1.23 in
// tests/stores/validate_stores.cpp), and its table reader; `leveldb:version=main` adds the zstd
// of upstream's unreleased main branch. Sources: leveldb 1.23 table/table_builder.cc
//  (TableBuilder::WriteBlock), include/leveldb/options.h (1.23: kNoCompression and
//  kSnappyCompression only); zstd: upstream commit 1d6e8d6 (2023-02-15, "Add support for
//  Zstd-based compression"), in no release tag (main's CMakeLists.txt still says 1.23.0).

#include <string>

#include <fmt/format.h>

#include "stores/framing.h"
#include "stores/rocksdb/table_reader.h"
#include "stores/store.h"

namespace kvz {
namespace {

using framing::kBlockTrailer;

// 1.23 writes snappy (and uncompressed blocks); main adds zstd at Options::zstd_compression_level
// = 1. Debian ships 1.23, so main's zstd framing is read in upstream's source, not checked.
constexpr WritableCodec kLeveldbCodecs[] = {
    {"snappy", ""},
    {.name = "zstd",
     .params = "1",
     .unchecked = "framing from upstream's table_builder.cc, not validated: Debian ships 1.23",
     .since = "main"},
};
constexpr StoreVersion kVersions[] = {{"1.23", "LevelDB 1.23"}, {"main", "LevelDB main (unreleased)"}};

// table_builder.cc WriteBlock: snappy (and main's zstd) output as is, kept only when
// compressed < raw - raw/8; every block gets the 5-byte trailer.
StoredBlock leveldb_block(const StoreProfile&, const BlockCodec& codec, size_t raw, size_t compressed) {
  if (codec.uncompressed) return framing::stored_uncompressed(raw, kBlockTrailer);
  return compressed < raw - raw / 8 ? framing::stored_compressed(compressed, kBlockTrailer)
                                    : framing::stored_raw(raw, kBlockTrailer);
}

// include/leveldb/options.h: Options::compression, Options::block_size (and main's
// zstd_compression_level; store_config_line offers zstd only under version=main).
ConfigLine leveldb_config(const ConfigChoice& c) {
  if (c.dict_size) return {false, "LevelDB has no compression dictionary"};
  std::string type;
  if (is_uncompressed(c.codec)) type = "leveldb::kNoCompression";
  if (c.codec == "snappy") type = "leveldb::kSnappyCompression";
  if (c.codec == "zstd") type = fmt::format("leveldb::kZstdCompression; options.zstd_compression_level = {}", c.level);
  if (type.empty()) return {false, "LevelDB cannot write " + c.codec};
  return {true, fmt::format("options.compression = {}; options.block_size = {};", type, c.block_size)};
}

// LevelDB's tables: the table reader (stores/rocksdb/table_reader.h, which reads both formats)
// taking the files with LevelDB's magic, also RocksDB format_version 0 tables (the file then
// reads as RocksDB's). Asked before RocksDB's reader, which takes the tables' names.
class LevelDbTableReader final : public TableFileReader {
 public:
  std::string_view store() const override { return "leveldb"; }
  Claim claim(const std::string& path) const override {
    return magic_store(path) == "leveldb" ? Claim::file : Claim::none;
  }
};

}  // namespace

std::unique_ptr<StoreFileReader> leveldb_reader() { return std::make_unique<LevelDbTableReader>(); }

// The store as one data row (kept as written: clang-format would put one field per line).
// clang-format off
const Store& leveldb_store() {
  static const Store store{
      .profile = {.name = "leveldb", .description = "LevelDB 1.23 table: 4 KiB data blocks, snappy (zstd: version=main)",
                  .version = "LevelDB 1.23", .layout = "leveldb", .block_size = 4096,
                  .rules = "no size prefix + 5-byte trailer; raw unless compressed < raw - raw/8"},
      .codecs = kLeveldbCodecs, .versions = kVersions, .store_block = leveldb_block,
      .file_parts = leveldb_file_parts, .config_line = leveldb_config};
  return store;
}
// clang-format on

}  // namespace kvz
