// HBase 2.5 HFile v3 data blocks: 33-byte header, codec stream framing, CRC32C per 16 KiB.
// Sources: hbase io/hfile/HFileBlock.java (Writer.finishBlock, HEADER_SIZE 33,
//  ChecksumUtil.numBytes, bytes.per.checksum 16384), hbase-compression-* codecs (BrotliCodec level
//  6, ZstdCodec level 3, LzmaCodec level 6, buffer 256 KiB), hadoop
//  io/compress/BlockCompressorStream.java

#include <map>
#include <string>

#include <fmt/format.h>

#include "stores/framing.h"
#include "stores/store.h"

namespace kvz {
namespace {

// GZ: level 6 deflate in a gzip member, modelled from the zlib container (see hbase_block);
// SNAPPY/LZO/LZ4/ZSTD(3)/BROTLI(6)/LZMA(6) through Hadoop's BlockCompressorStream with the
// codecs' plain calls.
constexpr WritableCodec kHbaseCodecs[] = {
    {"zlib", "6:zlib"}, {"snappy", ""}, {"lzo", ""}, {"lz4", ""}, {"zstd", "3"}, {"brotli", "6"}, {"xz", "6"},
};

// HFileBlock.Writer: 33-byte header (magic 8, on-disk size 4, uncompressed size 4, prev
// offset 8, checksum type 1, bytes per checksum 4, on-disk data size 4), the codec stream,
// then a 4-byte CRC32C per 16 KiB (hbase.hstore.bytes.per.checksum) of header + data.
// Codec streams: GZ is one gzip member (10-byte header + deflate + 8-byte trailer = the zlib
// container's 2 + 4 bytes replaced by 18); SNAPPY/LZ4/LZO/ZSTD/BROTLI/LZMA go through
// Hadoop's BlockCompressorStream: 4-byte raw length + 4-byte compressed length per chunk, and
// a 64 KiB block is one chunk under the 256 KiB buffers. HBase always writes the compressed
// block.
StoredBlock hbase_block(const StoreProfile&, const BlockCodec& codec, size_t raw, size_t compressed) {
  constexpr size_t kHeader = 33, kBytesPerChecksum = 16384, kChecksum = 4;
  size_t payload = compressed + 8;  // BlockCompressorStream
  if (codec.uncompressed) {
    payload = raw;
  } else if (codec.name == "zlib") {
    payload = compressed + 12;  // profile spec is zlib:6:zlib (container) -> gzip member
  }
  const size_t on_disk = kHeader + payload;
  const size_t checksums = framing::round_up(on_disk, kBytesPerChecksum) / kBytesPerChecksum * kChecksum;
  return {on_disk + checksums, payload, false};
}

// HBase shell `alter` (reference guide, "Compression and Data Block Encoding"): COMPRESSION
// names of Compression.Algorithm, BLOCKSIZE in bytes; levels through the column family's
// CONFIGURATION (hbase.io.compress.{zstd,brotli,lzma}.level, HBase 2.5 codecs).
ConfigLine hbase_config(const ConfigChoice& c) {
  static const std::map<std::string, std::string> kNames = {{"zlib", "GZ"}, {"snappy", "SNAPPY"}, {"lzo", "LZO"},
                                                            {"lz4", "LZ4"}, {"zstd", "ZSTD"},     {"brotli", "BROTLI"},
                                                            {"xz", "LZMA"}};
  const bool plain = is_uncompressed(c.codec);
  const auto name = kNames.find(c.codec);
  if (!plain && name == kNames.end()) return {false, "HBase cannot write " + c.codec};
  if (c.dict_size) return {false, "kvzbench's HBase profile has no dictionary"};
  std::string level;
  if (c.codec == "zstd" || c.codec == "brotli" || c.codec == "xz")
    level = fmt::format(", CONFIGURATION => {{'hbase.io.compress.{}.level' => '{}'}}",
                        c.codec == "xz" ? "lzma" : c.codec, c.level);
  return {true, fmt::format("alter 'tbl', {{NAME => 'cf', COMPRESSION => '{}', BLOCKSIZE => '{}'{}}}",
                            plain ? "NONE" : name->second, c.block_size, level)};
}

}  // namespace

// The store as one data row (kept as written: clang-format would put one field per line).
// clang-format off
const Store& hbase_store() {
  static const Store store{
      .profile = {.name = "hbase", .description = "HBase 2.5 HFile v3: 64 KiB data blocks with HDFS-style checksums",
                  .version = "HBase 2.5",
                  .layout = "hbase", .block_size = 64 * 1024,
                  .rules = "33-byte block header + codec framing (8 bytes BlockCompressorStream, gzip +18) + 4-byte "
                           "CRC32C per 16 KiB of header+data; never kept raw"},
      .codecs = kHbaseCodecs, .store_block = hbase_block,
      .config_line = hbase_config};
  return store;
}
// clang-format on

}  // namespace kvz
