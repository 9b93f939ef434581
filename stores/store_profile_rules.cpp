// store_block(): what one block costs on disk under each store's rules. Pure arithmetic on
// sizes (the codec already ran), no allocation. Each rule cites the code it reproduces; the
// RocksDB and LevelDB ones are checked against the real libraries in
// tests/bench/validate_*.cpp.
#include <cmath>
#include <initializer_list>
#include <string>

#include "stores/store_profile.h"

namespace kvz {
namespace {

constexpr size_t kBlockTrailer = 5;  // leveldb/rocksdb: 1-byte type + 4-byte masked CRC32C

size_t varint32_length(size_t v) {
  size_t n = 1;
  while (v >= 128) {
    v >>= 7;
    ++n;
  }
  return n;
}

size_t round_up(size_t n, size_t unit) { return (n + unit - 1) / unit * unit; }

bool is_one_of(const std::string& s, std::initializer_list<const char*> names) {
  for (const char* n : names) {
    if (s == n) return true;
  }
  return false;
}

StoredBlock stored_raw(size_t raw, size_t overhead) { return {raw + overhead, raw, true}; }
StoredBlock stored_compressed(size_t payload, size_t overhead) {
  return {payload + overhead, payload, false};
}

// RocksDB 7.8, format_version >= 2 (default 5): util/compression.h compresses into an output
// that starts with PutDecompressedSizeInfo's varint32 of the raw size for zlib, bzip2, LZ4,
// LZ4HC, xpress and ZSTD; snappy carries its own length. block_based_table_builder.cc keeps the
// compressed form only when GoodCompressionRatio(compressed incl. prefix, raw):
//   compressed < raw - raw / 8
// (strict; confirmed by experiment: a 2,989-byte block compressing to exactly 2,616 = raw -
// raw/8 bytes with its prefix is stored raw). RocksDB >= 8 replaced it with
// max_compressed_bytes_per_kb: compressed <= (N * raw) >> 10.
StoredBlock rocksdb_block(const StoreProfile& p, const std::string& codec, size_t raw, size_t c) {
  if (codec == "memcpy") return {raw + kBlockTrailer, raw, false};  // kNoCompression
  const size_t payload = codec == "snappy" ? c : c + varint32_length(raw);
  const bool good = p.max_compressed_bytes_per_kb > 0
                        ? payload <= (static_cast<size_t>(p.max_compressed_bytes_per_kb) * raw) >> 10
                        : payload < raw - raw / 8;
  return good ? stored_compressed(payload, kBlockTrailer) : stored_raw(raw, kBlockTrailer);
}

// LevelDB table_builder.cc WriteBlock: snappy (and upstream zstd) output as is, kept only
// when compressed < raw - raw/8; every block gets the 5-byte trailer.
StoredBlock leveldb_block(const std::string& codec, size_t raw, size_t c) {
  if (codec == "memcpy") return {raw + kBlockTrailer, raw, false};
  return c < raw - raw / 8 ? stored_compressed(c, kBlockTrailer) : stored_raw(raw, kBlockTrailer);
}

// Cassandra CompressedSequentialWriter.flushData: the compressor's output (LZ4Compressor
// prepends the raw length as 4 bytes), then a 4-byte CRC32 of what was written. With
// min_compress_ratio R > 0, maxCompressedLength = ceil(chunk_length / R); a chunk whose
// compressed length reaches it is written raw (a short last chunk padded up to it).
// ScyllaDB writes the same Data.db format (lz4_processor also prepends 4 LE bytes) and has no
// min_compress_ratio: every chunk is stored compressed.
StoredBlock sstable_chunk(const StoreProfile& p, const std::string& codec, size_t raw, size_t c) {
  constexpr size_t kChunkChecksum = 4;
  if (codec == "memcpy") return {raw + kChunkChecksum, raw, false};
  const size_t payload = is_one_of(codec, {"lz4", "lz4hc"}) ? c + 4 : c;
  if (p.min_compress_ratio > 0) {
    const size_t chunk_length = raw > p.block_size ? raw : p.block_size;
    const auto max_len =
        static_cast<size_t>(std::ceil(static_cast<double>(chunk_length) / p.min_compress_ratio));
    if (payload >= max_len) return {(raw >= max_len ? raw : max_len) + kChunkChecksum, raw, true};
  }
  return stored_compressed(payload, kChunkChecksum);
}

// HBase HFileBlock.Writer: 33-byte header (magic 8, on-disk size 4, uncompressed size 4,
// prev offset 8, checksum type 1, bytes per checksum 4, on-disk data size 4), the codec stream,
// then a 4-byte CRC32C per 16 KiB (hbase.hstore.bytes.per.checksum) of header + data.
// Codec streams: GZ is one gzip member (10-byte header + deflate + 8-byte trailer = the zlib
// container's 2 + 4 bytes replaced by 18); SNAPPY/LZ4/LZO/ZSTD/BROTLI/LZMA go through Hadoop's
// BlockCompressorStream: 4-byte raw length + 4-byte compressed length per chunk, and a 64 KiB
// block is one chunk under the 256 KiB buffers. HBase always writes the compressed block.
StoredBlock hbase_block(const std::string& codec, size_t raw, size_t c) {
  constexpr size_t kHeader = 33, kBytesPerChecksum = 16384, kChecksum = 4;
  size_t payload = raw;
  if (codec == "zlib") {
    payload = c + 12;  // profile spec is zlib:6:zlib (container) -> gzip member
  } else if (codec != "memcpy") {
    payload = c + 8;
  }
  const size_t on_disk = kHeader + payload;
  const size_t checksums = (on_disk + kBytesPerChecksum - 1) / kBytesPerChecksum * kChecksum;
  return {on_disk + checksums, payload, false};
}

// WiredTiger __wt_bt_write: the first WT_BLOCK_COMPRESS_SKIP (64) bytes stay uncompressed,
// the compressor writes its own prefix (snappy and zstd: 8-byte length, lz4: 16-byte
// LZ4_PREFIX, zlib: none), and the compressed image is used only if
//   raw / allocsize > compressed_image / allocsize
// (it saves at least one allocation unit). The block manager then writes the image rounded
// up to allocation_size (4 KiB). kvz compresses the whole page, WT all but the 64 skipped
// bytes: a small approximation.
StoredBlock wiredtiger_page(const std::string& codec, size_t raw, size_t c) {
  constexpr size_t kSkip = 64, kAlloc = 4096;
  if (codec == "memcpy") return {round_up(raw, kAlloc), raw, false};
  size_t prefix = 0;
  if (is_one_of(codec, {"snappy", "zstd"})) prefix = 8;
  if (codec == "lz4") prefix = 16;
  const size_t image = kSkip + prefix + c;
  if (raw / kAlloc <= image / kAlloc) return {round_up(raw, kAlloc), raw, true};
  return {round_up(image, kAlloc), image, false};
}

// MsgPack sizes for the Tarantool field encoding.
size_t mp_uint_size(size_t v) {
  if (v < 128) return 1;
  if (v < 256) return 2;
  if (v < 65536) return 3;
  if (v <= 0xffffffffULL) return 5;
  return 9;
}
size_t mp_ext_header_size(size_t len) {
  if (len == 1 || len == 2 || len == 4 || len == 8 || len == 16) return 2;  // fixext
  if (len < 256) return 3;                                                   // ext 8
  if (len < 65536) return 4;                                                 // ext 16
  return 6;                                                                  // ext 32
}

// Tarantool EE per-field compression: the field becomes a MsgPack extension holding the
// compression type, the original size and the compressed bytes (inferred, see README).
StoredBlock tarantool_field(const std::string& codec, size_t raw, size_t c) {
  if (codec == "memcpy") return {raw, raw, false};
  const size_t body = 1 + mp_uint_size(raw) + c;
  const size_t field = mp_ext_header_size(body) + body;
  return field < raw ? stored_compressed(field, 0) : stored_raw(raw, 0);
}

}  // namespace

std::vector<std::span<const uint8_t>> store_dictionary_samples(const StoreProfile& p,
                                                               const BlockSet& blocks,
                                                               size_t dict_size) {
  std::vector<std::span<const uint8_t>> samples;
  const size_t n = blocks.count();
  if (p.base != "rocksdb" || n == 0 || dict_size == 0) return samples;
  const size_t budget = 100 * dict_size;  // zstd_max_train_bytes as the RocksDB wiki advises
  const size_t step = static_cast<size_t>(545055921143ull % n);  // kPrimeGenerator
  size_t taken = 0;
  for (size_t i = 0, idx = n / 2; i < n && taken < budget; ++i) {
    const auto b = blocks.block(idx);
    const size_t len = budget - taken < b.size() ? budget - taken : b.size();
    samples.push_back(b.subspan(0, len));
    taken += len;
    idx += step;
    if (idx >= n) idx -= n;
  }
  return samples;
}

bool store_supports_codec(const StoreProfile& p, const std::string& codec) {
  if (codec == "memcpy") return true;  // every store can write uncompressed blocks
  if (p.base == "rocksdb") return is_one_of(codec, {"snappy", "zlib", "lz4", "lz4hc", "zstd"});
  if (p.base == "leveldb") return is_one_of(codec, {"snappy", "zstd"});
  if (p.base == "cassandra") return is_one_of(codec, {"lz4", "lz4hc", "snappy", "zlib", "zstd"});
  if (p.base == "scylla") return is_one_of(codec, {"lz4", "zstd", "zlib", "snappy"});
  if (p.base == "hbase")
    return is_one_of(codec, {"zlib", "snappy", "lzo", "lz4", "zstd", "brotli", "xz"});
  if (p.base == "wiredtiger") return is_one_of(codec, {"snappy", "zstd", "zlib", "lz4"});
  if (p.base == "tarantool") return is_one_of(codec, {"zstd", "lz4"});
  return false;
}

StoredBlock store_block(const StoreProfile& p, const std::string& codec, size_t raw_size,
                        size_t compressed_size) {
  if (p.base == "rocksdb") return rocksdb_block(p, codec, raw_size, compressed_size);
  if (p.base == "leveldb") return leveldb_block(codec, raw_size, compressed_size);
  if (p.base == "cassandra" || p.base == "scylla")
    return sstable_chunk(p, codec, raw_size, compressed_size);
  if (p.base == "hbase") return hbase_block(codec, raw_size, compressed_size);
  if (p.base == "wiredtiger") return wiredtiger_page(codec, raw_size, compressed_size);
  if (p.base == "tarantool") return tarantool_field(codec, raw_size, compressed_size);
  // A hand-made profile without a known base: the plain 12.5 % rule, no framing.
  return compressed_size < raw_size - raw_size / 8 ? stored_compressed(compressed_size, 0)
                                                   : stored_raw(raw_size, 0);
}

StoredBlock store_block(const StoreProfile& p, const BlockCodec& codec, size_t raw_size, size_t compressed_size) {
  return store_block(p, codec.uncompressed ? std::string("memcpy") : codec.name, raw_size, compressed_size);
}

}  // namespace kvz
