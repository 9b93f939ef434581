// ScyllaDB compressed SSTable Data.db: Cassandra's chunk format without min_compress_ratio,
// power-of-two chunks up to 128 KiB, and the 1 ms reactor stall line.
// Sources: scylladb compress.cc (lz4_processor::compress, deflate_processor, zstd_processor:
//  ZSTD_compressCCtx level 3, dictionaries kept in CompressionInfo options), sstables/compress.cc;
//  Seastar reactor stall detector

#include <string>

#include <fmt/format.h>

#include "stores/framing.h"
#include "stores/store.h"

namespace kvz {
namespace {

// lz4_processor, zstd_processor (ZSTD_compressCCtx level 3 on a context it keeps: one row, as
// kvzbench calls it), deflate_processor (deflateInit: the zlib container), snappy. The store's
// call first: deflate_processor (compress.cc) runs deflateInit ... deflateEnd (inflateInit ...
// inflateEnd) for every chunk: ":fresh", then the same bytes on a reused stream as the best
// possible call.
constexpr WritableCodec kCodecs[] = {
    {"lz4", ""}, {"zstd", "3"}, {"zlib", "6:zlib:fresh"}, {"snappy", ""}, {"zlib", "6:zlib"},
};

std::string power_of_two_chunk(size_t size, std::string_view value) {
  if ((size & (size - 1)) != 0) return "scylla: chunk must be a power of two, got '" + std::string(value) + "'";
  return "";
}

// lz4_processor also prepends 4 LE bytes; no min_compress_ratio: every chunk is stored
// compressed.
StoredBlock scylla_chunk(const StoreProfile& p, const BlockCodec& codec, size_t raw, size_t compressed) {
  return framing::sstable_data_chunk(codec, raw, compressed, 0, p.block_size);
}

// ScyllaDB CQL `compression` (docs "Compression"): sstable_compression (Scylla also reads
// Cassandra's 'class'), chunk_length_in_kb, compression_level for ZstdCompressor.
ConfigLine scylla_config(const ConfigChoice& c) {
  const uint64_t kb = c.block_size / 1024;
  if (c.dict_size) return {false, "kvzbench's ScyllaDB profile has no dictionary compressor"};
  if (c.block_size % 1024 || (kb & (kb - 1))) return {false, "ScyllaDB chunks are a power of two KiB"};
  if (is_uncompressed(c.codec)) return {true, "ALTER TABLE ks.tbl WITH compression = {'sstable_compression': ''};"};
  std::string opts;
  if (c.codec == "lz4" && c.level == 1) opts = "'sstable_compression': 'LZ4Compressor'";
  if (c.codec == "snappy") opts = "'sstable_compression': 'SnappyCompressor'";
  if (c.codec == "zlib" && c.level == 6) opts = "'sstable_compression': 'DeflateCompressor'";
  if (c.codec == "zstd")
    opts = fmt::format("'sstable_compression': 'ZstdCompressor', 'compression_level': {}", c.level);
  if (opts.empty()) return {false, fmt::format("ScyllaDB cannot write {} level {}", c.codec, c.level)};
  return {true, fmt::format("ALTER TABLE ks.tbl WITH compression = {{{}, 'chunk_length_in_kb': {}}};", opts, kb)};
}

}  // namespace

// The store as one data row (kept as written: clang-format would put one field per line).
// clang-format off
const Store& scylla_store() {
  // compression_parameters::validate: chunk_length <= 128 KiB. dict_sizes:
  // LZ4WithDictsCompressor / ZstdWithDictsCompressor.
  static const Store store{
      .profile = {.name = "scylla", .description = "ScyllaDB compressed SSTable Data.db: 4 KiB chunks, 1 ms stall line",
                  .layout = "raw", .block_size = 4096, .max_block_size = 128 * 1024, .dict_sizes = {16 * 1024},
                  .stall_threshold_ms = 1.0,
                  .rules = "LZ4 4-byte LE length prefix; 4-byte CRC32 after each chunk; every chunk stored as the "
                           "compressor returns it"},
      .codecs = kCodecs, .store_block = scylla_chunk, .check_block_size = power_of_two_chunk,
      .config_line = scylla_config};
  return store;
}
// clang-format on

}  // namespace kvz
