// Apache Cassandra 4.x / 5.0 compressed SSTable Data.db: profile, min_compress_ratio option,
// chunk framing (framing::sstable_data_chunk, shared with ScyllaDB) and codecs.
// Sources: cassandra io/compress/CompressedSequentialWriter.java (flushData), LZ4Compressor.java,
//  DeflateCompressor.java, ZstdCompressor.java, schema/CompressionParams.java (DEFAULT_CHUNK_LENGTH
//  16K, DEFAULT_MIN_COMPRESS_RATIO 0.0, calcMaxCompressedLength)

#include <string>

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
// ZstdCompressor (compression_level 3).
constexpr WritableCodec kCodecs[] = {
    {"lz4", ""}, {"lz4hc", "9"}, {"snappy", ""}, {"zlib", "6:zlib"}, {"zstd", "3"},
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

}  // namespace

// The store as one data row (kept as written: clang-format would put one field per line).
// clang-format off
const Store& cassandra_store() {
  static const Store store{
      .profile = {.name = "cassandra", .description = "Cassandra 4.x/5.0 compressed SSTable Data.db: 16 KiB chunks",
                  .layout = "raw", .block_size = 16 * 1024, .rules = std::string(kRules)},
      .codecs = kCodecs, .store_block = cassandra_chunk, .options = kOptions, .rules = cassandra_rules};
  return store;
}
// clang-format on

}  // namespace kvz
