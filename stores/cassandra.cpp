// Apache Cassandra 4.x / 5.0 compressed SSTable Data.db: profile, min_compress_ratio option,
// chunk framing (framing::sstable_data_chunk, shared with ScyllaDB) and codecs.
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

// DeflateCompressor is java.util.zip.Deflater: the zlib container.
constexpr WritableCodec kCodecs[] = {
    {"lz4", ""}, {"lz4hc", ""}, {"snappy", ""}, {"zlib", "zlib"}, {"zstd", ""},
};

class Cassandra final : public Store {
 public:
  StoreProfile profile() const override {
    StoreProfile p;
    p.name = "cassandra";
    p.description = "Cassandra 4.x/5.0 compressed SSTable Data.db: 16 KiB chunks";
    p.layout = "raw";
    p.block_size = 16 * 1024;
    p.min_block_size = 1024;
    p.max_block_size = 1 << 20;
    // LZ4Compressor fast (acceleration 1) and high (lz4_high_compressor_level 9),
    // SnappyCompressor, DeflateCompressor (java.util.zip.Deflater: zlib wrapper, level 6),
    // ZstdCompressor (compression_level 3).
    p.codecs = "lz4/lz4hc:9/snappy/zlib:6:zlib/zstd:3";
    p.sources =
        "cassandra io/compress/CompressedSequentialWriter.java (flushData), LZ4Compressor.java, "
        "DeflateCompressor.java, ZstdCompressor.java, schema/CompressionParams.java "
        "(DEFAULT_CHUNK_LENGTH 16K, DEFAULT_MIN_COMPRESS_RATIO 0.0, calcMaxCompressedLength)";
    return p;
  }

  std::string rules(const StoreProfile& p) const override {
    std::string line =
        "LZ4 4-byte length prefix; 4-byte CRC32 after each chunk; raw when compressed >= "
        "ceil(chunk/min_compress_ratio) (off by default)";
    if (p.min_compress_ratio > 0) line += "; min_compress_ratio=" + std::to_string(p.min_compress_ratio).substr(0, 4);
    return line;
  }

  std::span<const WritableCodec> writable_codecs() const override { return kCodecs; }
  std::span<const StoreOption> options() const override { return kOptions; }

  StoredBlock store_block(const StoreProfile& p, const BlockCodec& codec, size_t raw,
                          size_t compressed) const override {
    return framing::sstable_data_chunk(codec, raw, compressed, p.min_compress_ratio, p.block_size);
  }
};

}  // namespace

const Store& cassandra_store() {
  static const Cassandra store;
  return store;
}

}  // namespace kvz
