#pragma once
// Cassandra and ScyllaDB compressed SSTables as a source: `*-Data.db` read chunk by chunk
// through its `*-CompressionInfo.db`, each chunk's checksum verified and the chunk
// decompressed with kvzbench's own codec session for the file's compressor. The decompressed
// stream is what those stores compress, in chunks of the file's chunk length.
//
// Formats (verified on the fixtures in shared/fixtures/stores, see its README; Cassandra's
// CompressionMetadata and CompressedSequentialWriter, ScyllaDB's sstables/compress.cc):
// CompressionInfo.db, big-endian: class name (u16 length + UTF-8), options (i32 count, then
// key/value strings), i32 chunk length, [i32 max compressed length: formats na and later],
// i64 data length, i32 chunk count, chunk count x i64 offsets into Data.db. A chunk is the
// compressor's output and a 4-byte big-endian checksum of it: CRC32 from format ma on,
// Adler32 before. LZ4Compressor output is a 4-byte little-endian raw length + an LZ4 block;
// Snappy a raw block; Deflate a zlib stream; Zstd one frame.
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace kvz {

struct SstableChunk {
  uint64_t offset = 0;       // in Data.db
  uint64_t stored = 0;       // bytes on disk: compressor output + 4-byte checksum
  std::vector<uint8_t> raw;  // decompressed
};

struct SstableData {
  std::string format;      // "nb", "mc", ... from the file name ("" when unknown)
  std::string compressor;  // class name as stored: "LZ4Compressor", "ZstdCompressor", ...
  std::vector<std::pair<std::string, std::string>> options;  // e.g. {"compression_level", "5"}
  uint32_t chunk_length = 0;
  uint64_t data_length = 0;  // uncompressed bytes of the whole Data.db stream
  std::string checksum;      // "crc32" or "adler32"
  std::vector<SstableChunk> chunks;
  std::string codec;               // kvzbench codec of the compressor: "lz4", "snappy", "zlib", "zstd"
  int level = 0;                   // the level the file names (zstd compression_level; else the store's default)
  uint64_t data_db_bytes() const;  // the Data.db size: every chunk's stored bytes
};

// `data_db`: the path of a `*-Data.db`; its `*-CompressionInfo.db` is found beside it. False
// with a one-line error naming the file and byte offset: a missing CompressionInfo.db, a bad
// checksum, an unknown compressor, a chunk that decompresses to the wrong length, ...
// `max_raw` > 0: once that much is decoded, the remaining chunks are checksummed but not
// decoded (their `raw` stays empty).
bool read_sstable_data(const std::string& data_db, SstableData& out, std::string& error, uint64_t max_raw = 0);
// The same on bytes in memory (fuzzing): `name` prefixes errors; `format` as in the file name.
bool parse_sstable_data(std::span<const uint8_t> compression_info, std::span<const uint8_t> data,
                        const std::string& format, const std::string& name, SstableData& out, std::string& error,
                        uint64_t max_raw = 0);

}  // namespace kvz
