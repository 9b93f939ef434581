#pragma once
// RocksDB and LevelDB table files (`.sst`, `.ldb`) as a source: every data block found through
// the index, its checksum verified (masked CRC32C, xxHash, xxHash64 or XXH3, as the footer
// says), decompressed with the codec its trailer names (with the file's dictionary), and
// its entries read back as records (user key, value).
//
// Format (LevelDB table/format.cc, RocksDB 7.8 table/format.cc, block_builder.cc,
// block_based_table_builder.cc; verified on shared/fixtures/stores): the footer is the last 48
// bytes (LevelDB, and RocksDB format_version 0: metaindex and index handles padded to 40 bytes,
// magic 0xdb4775248b80fb57) or 53 bytes (RocksDB, magic 0x88e241b785f4cff7: a checksum-type
// byte, the handles padded to 40 bytes, a u32 format_version). Every block is followed by a
// 5-byte trailer: the compression type and a masked CRC32C of block + type. A block is entries
// (shared, non-shared, value-length varints; key delta; value) and a restart array; RocksDB
// index blocks of format_version >= 4 leave out the value length and delta-encode the handles
// between restart points. Compressed blocks (format_version >= 2, and zstd always) carry a
// varint32 raw length before the codec's output, except snappy; before format_version 2 an lz4
// block starts with 8 bytes (the raw length in the first 4) and a zlib block has no length. A
// partitioned index (index type 2) is a top-level index of index blocks; index type 3 follows
// each handle with the block's first key; a hash index (1) is a binary-search index plus
// prefix meta blocks. RocksDB 7.8 writes format_version 1 to 5 (0 is read-only: LevelDB's
// footer, told apart by its "rocksdb." meta-index entries); the tests write all of them.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "blockgen/block.h"

namespace kvz {

struct TableBlock {
  uint64_t offset = 0;
  uint64_t on_disk = 0;        // contents as stored + 5-byte trailer
  uint8_t compression = 0;     // the trailer's type byte
  std::string codec = "none";  // kvzbench's codec for it ("none" for a block stored raw)
  std::vector<uint8_t> raw;    // decompressed contents (a data block's: moved to TableFile::data_raw)
  uint64_t raw_size = 0;       // their size
};

struct TableFile {
  std::string store;               // "leveldb" or "rocksdb"
  int format_version = 0;          // RocksDB's; 0 for LevelDB and legacy files
  int checksum_type = 1;           // 0 none, 1 CRC32C, 2 xxHash, 3 xxHash64, 4 XXH3
  bool checksums_verified = true;  // false: the file has no checksums (type 0)
  std::string compression;         // the codec of the data blocks ("snappy", "zstd", ..., "none", "mixed")
  // The properties' "rocksdb.compression_options" ("window_bits=-14; level=32767; ...").
  std::string compression_options;
  std::string column_family;            // the property "rocksdb.column.family.name" ("" when absent)
  uint64_t dict_bytes = 0;              // the compression dictionary meta block, when there is one
  std::vector<uint8_t> dictionary;      // its contents
  std::vector<TableBlock> data_blocks;  // decoded (the first ones only when cut by max_raw)
  std::vector<uint8_t> data_raw;        // their decompressed contents, back to back
  uint64_t blocks_total = 0;            // data blocks the index names, each once
  uint64_t on_disk_total = 0;           // their bytes on disk, trailers included (<= the file)
  std::vector<Record> records;          // user key and value of every value entry, in file order
  uint64_t skipped_entries = 0;         // deletions, merges, ...: not values
  uint64_t data_bytes() const;          // the decoded data blocks' bytes on disk, trailers included
  bool cut() const { return data_blocks.size() < blocks_total; }
};

// False with one line naming the file and byte offset: a wrong magic, a truncated file, a
// handle outside the file, a block named twice or overlapping another, a checksum mismatch, an
// unknown compression type, a declared size past the codec's expansion cap, a block that
// decompresses to the wrong length, a malformed block. `max_raw` > 0: data blocks are decoded
// until that many raw bytes are read (whole blocks); the rest are checked against the file only.
bool parse_table_file(std::span<const uint8_t> file, const std::string& name, TableFile& out, std::string& error,
                      uint64_t max_raw = 0);
bool read_table_file(const std::string& path, TableFile& out, std::string& error, uint64_t max_raw = 0);
// The table magic at the end of the file: a LevelDB or RocksDB block-based table.
bool is_table_file(std::span<const uint8_t> tail8);
// Which store its magic names: "rocksdb", "leveldb" (also RocksDB format_version 0) or "".
std::string table_store(std::span<const uint8_t> tail8);

}  // namespace kvz
