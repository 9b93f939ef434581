#pragma once
// HBase HFile v1/v2/v3 data blocks, decompressed: what HBase compresses, block by block.
// (v1, HBase 0.9x: a 60-byte trailer, an "IDXBLK)+" data index, blocks of one compressed
// stream each holding "DATABLK*" + cells, no headers or checksums: hfile.cpp parse_v1.)
//
// Format (HBase io/hfile HFileBlock and FixedFileTrailer; verified on the fixtures in
// shared/fixtures/stores, see its README): the last 4 bytes hold the version (low 3 bytes
// major, top byte minor); the trailer is the last 212 (v2) or 4096 (v3) bytes: "TRABLK\"$"
// then a varint-length-prefixed protobuf whose field 12 is the codec (Compression.Algorithm
// ordinal: 0 LZO, 1 GZ, 2 NONE, 3 SNAPPY, 4 LZ4, 5 BZIP2, 6 ZSTD). Blocks run back to back
// from offset 0 to the trailer, each a 33-byte big-endian header (8-byte magic, on-disk size
// without header, uncompressed size without header, previous block offset, checksum type,
// bytes per checksum, on-disk data size with header), the compressed data, then a 4-byte
// checksum per `bytes per checksum` of header + data (type 1 CRC32, 2 CRC32C). GZ data is one
// gzip member.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "blockgen/block.h"

namespace kvz {

struct HfileBlock {
  std::string magic;  // "DATABLK*", "IDXROOT2", ...
  uint64_t offset = 0;
  uint64_t on_disk = 0;      // header + data + checksums
  std::vector<uint8_t> raw;  // decompressed data (data blocks only; empty for the others)
};

struct Hfile {
  int major = 0, minor = 0;
  int codec_id = -1;               // Compression.Algorithm ordinal
  uint64_t entries = 0;            // the trailer's entry count (cells)
  std::string codec;               // "GZ", "NONE", ...
  std::vector<HfileBlock> blocks;  // every block, in file order (up to the cut)
  bool cut = false;                // stopped at max_raw: the first data blocks only
  uint64_t data_blocks() const;
};

// False with one line naming the file and byte offset: a bad version or trailer, a block
// header that runs outside the file, a checksum mismatch, a codec this reader cannot decode
// (it decodes NONE and GZ), a block that does not decompress to its stated size. `max_raw` > 0:
// blocks are read until the data blocks hold that many raw bytes (whole blocks).
bool parse_hfile(std::span<const uint8_t> file, const std::string& name, Hfile& out, std::string& error,
                 uint64_t max_raw = 0);
bool read_hfile(const std::string& path, Hfile& out, std::string& error, uint64_t max_raw = 0);
// The cells of the data blocks as records (key = the KeyValue key: row, family, qualifier,
// timestamp, type; value = its value), in file order. False when no cell layout (with or
// without tags and MVCC timestamps) reads the blocks into the trailer's entry count (when
// cut: into at most that many).
bool hfile_records(const Hfile& file, std::vector<Record>& out);

}  // namespace kvz
