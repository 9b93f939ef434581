#pragma once
// WiredTiger files (`*.wt`, row-store tables) as a source: the live leaf pages, each block's
// checksum verified, each page image decompressed, and their key/value cells read back as
// records.
//
// Format (WiredTiger 3.2.1, the version Debian ships; src/include/block.h, btmem.h, cell.i,
// intpack.i, src/block/block_addr.c, src/btree/bt_io.c; verified on files written by
// libwiredtiger 3.2.1 in tests/stores/wt_file_test.cpp): the file opens with a block-manager
// descriptor (u32 magic 120897, u16 major 1, u16 minor 0, checksum), one allocation unit long.
// Every block starts on an allocation unit with a 28-byte page header (u64 recno, u64
// write_gen, u32 mem_size, u32 entries or overflow length, u8 type, u8 flags) and a 12-byte
// block header (u32 disk_size, u32 CRC32C, u8 flags), little-endian. The checksum covers the
// block with its checksum field zeroed, all of it when the block-header flag 0x01 says so,
// else its first 64 bytes. A compressed page (page flag 0x01) keeps its first 64 bytes as they
// are; the rest is the compressor's output: snappy and zstd behind an 8-byte length, zlib as a
// zlib stream. Cells: a descriptor byte (short key/value cells hold their length in its top six
// bits), a prefix byte for prefix-compressed keys, a packed length (minus 64 for long key and
// value cells), the data; internal pages hold key and address cells, an address being packed
// (offset / allocation size - 1, size / allocation size, checksum).
//
// The live tree: the newest internal page no other page references is the root (its
// write_gen is the highest); its address cells, walked in order, give the leaves in key order.
// A file copied while its store runs may hold pages evicted after the last checkpoint: those
// can read as a newer root.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "blockgen/block.h"

namespace kvz {

struct WtPage {
  uint64_t offset = 0;
  uint64_t on_disk = 0;  // disk_size: whole allocation units
  uint64_t write_gen = 0;
  uint8_t type = 0;            // 5 overflow, 6 row internal, 7 row leaf
  std::string codec = "none";  // how its image is stored ("none" when uncompressed)
  std::vector<uint8_t> image;  // the page in memory (mem_size bytes, headers included)
};

struct WtFile {
  uint32_t allocation_size = 0;
  std::string compression;     // the leaves' codec: "snappy", "zlib", "zstd", "none" (all raw), "mixed"
  std::vector<WtPage> leaves;  // the live row-store leaf pages, in key order
  std::vector<Record> records;
  uint64_t blocks_scanned = 0;  // valid blocks found in the file (live and free)
  uint64_t internal_pages = 0;  // live internal pages
  uint64_t overflow_items = 0;  // keys and values read from overflow pages
  bool cut = false;             // the walk stopped at max_raw: the first leaves only
  uint64_t leaf_bytes() const;  // the live leaves' bytes on disk
};

// The block-manager descriptor at the start of the file.
bool is_wt_file(std::span<const uint8_t> head8);
// False with one line naming the file and byte offset: no descriptor, a truncated file, no
// live root, a checksum mismatch on a live page, a compressed page this reader cannot decode or
// whose in-memory size is past the codec's expansion cap, a page referenced twice (a shared
// child or a cycle), a malformed cell, a column-store file. `max_raw` > 0: the walk stops once
// the records hold that many key and value bytes (whole leaves).
bool parse_wt_file(std::span<const uint8_t> file, const std::string& name, WtFile& out, std::string& error,
                   uint64_t max_raw = 0);
bool read_wt_file(const std::string& path, WtFile& out, std::string& error, uint64_t max_raw = 0);

}  // namespace kvz
