// Apache Cassandra 4.x / 5.0 compressed SSTable Data.db: profile, min_compress_ratio option,
// chunk framing (framing::sstable_data_chunk), codecs and CQL line, which ScyllaDB derives from
// (stores/cassandra/cassandra.h); the Data.db reader is data_db_reader.cpp.
// Sources: cassandra io/compress/CompressedSequentialWriter.java (flushData), LZ4Compressor.java,
//  DeflateCompressor.java, ZstdCompressor.java, schema/CompressionParams.java (DEFAULT_CHUNK_LENGTH
//  16K, DEFAULT_MIN_COMPRESS_RATIO 0.0, calcMaxCompressedLength)

#include <string>

#include <fmt/format.h>

#include "stores/cassandra/cassandra.h"
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
  return cql_compression_line(c, {.store = "Cassandra",
                                  .class_key = "class",
                                  .disabled = "'enabled': false",
                                  .no_dictionary = "Cassandra has no compression dictionary",
                                  .lz4_high = true});
}

}  // namespace

ConfigLine cql_compression_line(const ConfigChoice& c, const CqlCompression& words) {
  const uint64_t kb = c.block_size / 1024;
  // A real "keyspace.table" when the run read one; a directory path (the fallback name) is no CQL name.
  const bool cql_name = !c.table.empty() && c.table.find('/') == std::string::npos;
  const std::string table = cql_name ? c.table : "ks.tbl";
  if (c.dict_size) return {false, std::string(words.no_dictionary)};
  if (c.block_size % 1024 || (kb & (kb - 1)))
    return {false, fmt::format("{} chunks are a power of two KiB", words.store)};
  if (is_uncompressed(c.codec))
    return {true, fmt::format("ALTER TABLE {} WITH compression = {{{}}};", table, words.disabled)};
  const auto compressor = [&](std::string_view name) { return fmt::format("'{}': '{}'", words.class_key, name); };
  std::string opts;
  if (c.codec == "lz4" && c.level == 1) opts = compressor("LZ4Compressor");
  if (c.codec == "lz4hc" && words.lz4_high)
    opts = fmt::format("{}, 'lz4_compressor_type': 'high', 'lz4_high_compressor_level': {}",
                       compressor("LZ4Compressor"), c.level);
  if (c.codec == "snappy") opts = compressor("SnappyCompressor");
  if (c.codec == "zlib" && c.level == 6) opts = compressor("DeflateCompressor");
  if (c.codec == "zstd") opts = fmt::format("{}, 'compression_level': {}", compressor("ZstdCompressor"), c.level);
  if (opts.empty()) return {false, fmt::format("{} cannot write {} level {}", words.store, c.codec, c.level)};
  return {true, fmt::format("ALTER TABLE {} WITH compression = {{{}, 'chunk_length_in_kb': {}}};", table, opts, kb)};
}

// The store as one data row (kept as written: clang-format would put one field per line).
// clang-format off
const Store& cassandra_store() {
  static const Store store{
      .profile = {.name = "cassandra", .description = "Cassandra 4.x/5.0 compressed SSTable Data.db: 16 KiB chunks",
                  .version = "Cassandra 4.x/5.0",
                  .layout = "raw", .block_size = 16 * 1024, .rules = std::string(kRules)},
      .codecs = kCodecs, .store_block = cassandra_chunk, .options = kOptions, .rules = cassandra_rules,
      .config_line = cassandra_config};
  return store;
}
// clang-format on

}  // namespace kvz
