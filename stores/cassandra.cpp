// Apache Cassandra 4.x / 5.0 compressed SSTable Data.db: profile, min_compress_ratio option,
// chunk framing (framing::sstable_data_chunk, shared with ScyllaDB) and codecs.
// Sources: cassandra io/compress/CompressedSequentialWriter.java (flushData), LZ4Compressor.java,
//  DeflateCompressor.java, ZstdCompressor.java, schema/CompressionParams.java (DEFAULT_CHUNK_LENGTH
//  16K, DEFAULT_MIN_COMPRESS_RATIO 0.0, calcMaxCompressedLength)

#include <string>

#include <fmt/format.h>

#include "stores/framing.h"
#include "stores/store.h"
#include "util/text.h"

namespace kvz {
namespace {

std::string apply_min_compress_ratio(StoreProfile& p, std::string_view value) {
  double r = 0;
  // CompressionParams.validate: 0 disables the rule; otherwise it must be >= 1.
  if (!parse_double(value, r) || (r != 0 && r < 1.0))
    return "cassandra: min_compress_ratio must be 0 (off) or >= 1.0, got '" + std::string(value) + "'";
  p.min_compress_ratio = r;
  return "";
}

constexpr StoreOption kOptions[] = {
    {"min_compress_ratio", "min_compress_ratio=R  store a chunk raw unless it compresses by R (0 = off, default)",
     apply_min_compress_ratio},
};

// LZ4Compressor fast (acceleration 1) and high (lz4_high_compressor_level 9),
// SnappyCompressor, DeflateCompressor (java.util.zip.Deflater: the zlib container, level 6),
// ZstdCompressor (compression_level 3). The store's call first: ZstdCompressor calls zstd-jni's
// Zstd.compress(output, input, level, checksumFlag) and Zstd.decompress(output, input), which
// make a context for every chunk (a ZstdCompressCtx created and closed per call): ":fresh"; the
// same level on a reused context follows as the best possible call. The Deflater is a
// thread-local one reset per chunk (reused state), LZ4 and Snappy keep none.
constexpr WritableCodec kCodecs[] = {
    {"lz4", ""}, {"lz4hc", "9"}, {"snappy", ""}, {"zlib", "6:zlib"}, {"zstd", "3:fresh"}, {"zstd", "3"},
};

constexpr std::string_view kRules =
    "LZ4 4-byte length prefix; 4-byte CRC32 after each chunk; raw when compressed >= "
    "ceil(chunk/min_compress_ratio) (off by default)";

std::string cassandra_rules(const StoreProfile& p) {
  std::string line(kRules);
  if (p.min_compress_ratio > 0) line += "; min_compress_ratio=" + std::to_string(p.min_compress_ratio).substr(0, 4);
  return line;
}

StoredBlock cassandra_chunk(const StoreProfile& p, const BlockCodec& codec, size_t raw, size_t compressed) {
  return framing::sstable_data_chunk(codec, raw, compressed, p.min_compress_ratio, p.block_size);
}

// CQL table option `compression` (Cassandra 4.x/5.0 docs, "Compression"): class,
// chunk_length_in_kb (a power of two), compression_level (zstd), lz4_compressor_type and
// lz4_high_compressor_level (LZ4 high). DeflateCompressor has no level (java.util.zip default, 6).
ConfigLine cassandra_config(const ConfigChoice& c) {
  const uint64_t kb = c.block_size / 1024;
  if (c.dict_size) return {false, "Cassandra has no compression dictionary"};
  if (c.block_size % 1024 || (kb & (kb - 1))) return {false, "Cassandra chunks are a power of two KiB"};
  std::string opts;
  if (is_uncompressed(c.codec)) return {true, "ALTER TABLE ks.tbl WITH compression = {'enabled': false};"};
  if (c.codec == "lz4" && c.level == 1) opts = "'class': 'LZ4Compressor'";
  if (c.codec == "lz4hc")
    opts = fmt::format("'class': 'LZ4Compressor', 'lz4_compressor_type': 'high', 'lz4_high_compressor_level': {}",
                       c.level);
  if (c.codec == "snappy") opts = "'class': 'SnappyCompressor'";
  if (c.codec == "zlib" && c.level == 6) opts = "'class': 'DeflateCompressor'";
  if (c.codec == "zstd") opts = fmt::format("'class': 'ZstdCompressor', 'compression_level': {}", c.level);
  if (opts.empty()) return {false, fmt::format("Cassandra cannot write {} level {}", c.codec, c.level)};
  return {true, fmt::format("ALTER TABLE ks.tbl WITH compression = {{{}, 'chunk_length_in_kb': {}}};", opts, kb)};
}

}  // namespace

// The store as one data row (kept as written: clang-format would put one field per line).
// clang-format off
const Store& cassandra_store() {
  static const Store store{
      .profile = {.name = "cassandra", .description = "Cassandra 4.x/5.0 compressed SSTable Data.db: 16 KiB chunks",
                  .layout = "raw", .block_size = 16 * 1024, .rules = std::string(kRules)},
      .codecs = kCodecs, .store_block = cassandra_chunk, .options = kOptions, .rules = cassandra_rules,
      .config_line = cassandra_config};
  return store;
}
// clang-format on

}  // namespace kvz
