// ScyllaDB compressed SSTable Data.db: Cassandra's chunk format without min_compress_ratio,
// power-of-two chunks up to 128 KiB, and the 1 ms reactor stall line.
#include <string>

#include "stores/framing.h"
#include "stores/store.h"

namespace kvz {
namespace {

// deflate_processor uses deflateInit: the zlib container.
constexpr WritableCodec kCodecs[] = {{"lz4", ""}, {"zstd", ""}, {"zlib", "zlib"}, {"snappy", ""}};

class Scylla final : public Store {
 public:
  StoreProfile profile() const override {
    StoreProfile p;
    p.name = "scylla";
    p.description = "ScyllaDB compressed SSTable Data.db: 4 KiB chunks, 1 ms stall line";
    p.layout = "raw";
    p.block_size = 4096;
    p.min_block_size = 1024;
    p.max_block_size = 128 * 1024;  // compression_parameters::validate: chunk_length <= 128 KiB
    p.codecs = "lz4/zstd:3/zlib:6:zlib/snappy";
    p.dict_sizes = {16 * 1024};  // LZ4WithDictsCompressor / ZstdWithDictsCompressor
    p.stall_threshold_ms = 1.0;
    p.sources =
        "scylladb compress.cc (lz4_processor::compress, deflate_processor, zstd_processor: "
        "ZSTD_compressCCtx level 3, dictionaries kept in CompressionInfo options), "
        "sstables/compress.cc; Seastar reactor stall detector";
    return p;
  }

  std::string rules(const StoreProfile&) const override {
    return "LZ4 4-byte LE length prefix; 4-byte CRC32 after each chunk; every chunk stored as the "
           "compressor returns it";
  }

  std::span<const WritableCodec> writable_codecs() const override { return kCodecs; }

  std::string check_block_size(size_t size, std::string_view value) const override {
    if ((size & (size - 1)) != 0) return "scylla: chunk must be a power of two, got '" + std::string(value) + "'";
    return "";
  }

  // lz4_processor also prepends 4 LE bytes; no min_compress_ratio: every chunk is stored
  // compressed.
  StoredBlock store_block(const StoreProfile& p, const BlockCodec& codec, size_t raw,
                          size_t compressed) const override {
    return framing::sstable_data_chunk(codec, raw, compressed, 0, p.block_size);
  }
};

}  // namespace

const Store& scylla_store() {
  static const Scylla store;
  return store;
}

}  // namespace kvz
