// RocksDB / LevelDB table blocks (format: table_file.h).
#include "stores/shared/table_block.h"

#include <xxhash.h>

#include <vector>

#include "stores/shared/crc32c.h"
#include "stores/shared/file_bytes.h"

namespace kvz::table {

bool for_each_entry(std::span<const uint8_t> block, bool delta_values, const EntryFn& fn) {
  if (block.size() < 4) return false;
  uint32_t footer = static_cast<uint32_t>(read_le(block, block.size() - 4, 4));
  size_t end = block.size() - 4;
  if (footer >> 31) {  // RocksDB data block hash index: buckets and their count before the footer
    footer &= 0x7FFFFFFFu;
    if (end < 2) return false;
    const size_t buckets = static_cast<size_t>(read_le(block, end - 2, 2));
    if (buckets + 2 > end) return false;
    end -= 2 + buckets;
  }
  const uint64_t restarts = footer;
  if (restarts * 4 > end) return false;
  const size_t data_end = end - static_cast<size_t>(restarts) * 4;
  std::vector<uint32_t> restart_at;
  for (uint64_t i = 0; i < restarts; ++i)
    restart_at.push_back(static_cast<uint32_t>(read_le(block, data_end + i * 4, 4)));
  Cursor c{block.first(data_end)};
  std::string key;
  size_t next_restart = 0;
  while (c.ok && c.pos < data_end) {
    const bool at_restart = next_restart < restart_at.size() && restart_at[next_restart] == c.pos;
    if (at_restart) ++next_restart;
    const uint64_t shared = c.varint(5), non_shared = c.varint(5);
    const uint64_t value_len = delta_values ? 0 : c.varint(5);
    if (!c.ok || shared > key.size()) return false;
    const auto delta = c.take(non_shared);
    if (!c.ok) return false;
    key.resize(static_cast<size_t>(shared));
    key.append(delta.begin(), delta.end());
    if (delta_values) {
      if (!fn(key, c, at_restart)) return false;
    } else {
      Cursor value{c.take(value_len)};
      if (!c.ok || !fn(key, value, at_restart)) return false;
    }
  }
  return c.ok;
}

// RocksDB 7.8 table/format.cc ComputeBuiltinChecksumWithLastByte, over a block and its type
// byte: 1 masked CRC32C, 2 XXH32, 3 the low 32 bits of XXH64 (seed 0), 4 the low 32 bits of
// XXH3_64bits of the block, the type byte mixed in as `^ type * 0x6b9083d9`.
uint32_t checksum(int type, std::span<const uint8_t> block_and_type) {
  const auto* p = block_and_type.data();
  const size_t n = block_and_type.size();
  switch (type) {
    case 1:
      return mask_crc32c(crc32c(block_and_type));
    case 2:
      return XXH32(p, n, 0);
    case 3:
      return static_cast<uint32_t>(XXH64(p, n, 0));
    default:
      return static_cast<uint32_t>(XXH3_64bits(p, n - 1)) ^ (static_cast<uint32_t>(p[n - 1]) * 0x6b9083d9u);
  }
}
const char* checksum_name(int type) {
  static const char* const kNames[] = {"no", "CRC32C", "xxHash", "xxHash64", "XXH3"};
  return kNames[type];
}

const char* codec_of(uint8_t type, const std::string& store, std::span<const uint8_t> payload) {
  switch (type) {
    case 1:
      return "snappy";
    case 2:  // RocksDB: zlib; LevelDB's main branch: zstd (a zstd frame says which)
      if (store == "leveldb" && payload.size() >= 4 && read_le(payload, 0, 4) == 0xFD2FB528u) return "zstd";
      return "zlib";
    case 3:  // RocksDB's kBZip2Compression
      return "bzip2";
    case 4:
      return "lz4";
    case 5:
      return "lz4hc";
    case 7:
      return "zstd";
    default:
      return nullptr;
  }
}

}  // namespace kvz::table
