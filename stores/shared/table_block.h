#pragma once
// The blocks of RocksDB and LevelDB tables (format: table_file.h): a cursor over a block's
// bytes, its entries, its trailer's checksum and its compression type.
#include <cstdint>
#include <functional>
#include <span>
#include <string>

namespace kvz::table {

// A cursor over a block's bytes; `ok` turns false on the first read past the end.
struct Cursor {
  std::span<const uint8_t> b;
  size_t pos = 0;
  bool ok = true;
  uint64_t varint(int max_bytes = 10) {
    uint64_t v = 0;
    for (int i = 0, shift = 0; i < max_bytes; ++i, shift += 7) {
      if (pos >= b.size()) break;
      const uint8_t c = b[pos++];
      v |= uint64_t{c & 0x7Fu} << shift;
      if (!(c & 0x80)) return v;
    }
    ok = false;
    return 0;
  }
  std::span<const uint8_t> take(uint64_t n) {
    if (!ok || n > b.size() - pos) {
      ok = false;
      return {};
    }
    const auto s = b.subspan(pos, static_cast<size_t>(n));
    pos += static_cast<size_t>(n);
    return s;
  }
};

// Entries of one block: `fn(key, value, at_restart)`. `delta_values`: RocksDB index blocks of
// format_version >= 4 (no value length; the caller decodes the handle). False on a malformed block.
using EntryFn = std::function<bool(const std::string& key, Cursor& value, bool at_restart)>;
bool for_each_entry(std::span<const uint8_t> block, bool delta_values, const EntryFn& fn);

// The checksum of a block and its type byte (1 masked CRC32C, 2 XXH32, 3 XXH64, 4 XXH3), and its name.
uint32_t checksum(int type, std::span<const uint8_t> block_and_type);
const char* checksum_name(int type);

// kvzbench's codec for a block's compression type byte; nullptr when unknown.
const char* codec_of(uint8_t type, const std::string& store, std::span<const uint8_t> payload);

}  // namespace kvz::table
