// libFuzzer target: Cassandra/ScyllaDB Data.db through CompressionInfo.db
// (kvz::parse_sstable_data). Byte 0 picks the format (no max-length field or one, CRC32 or
// Adler32), bytes 1-2 the CompressionInfo.db length; then CompressionInfo.db, then Data.db.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "stores/cassandra/sstable_data.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 3 || size > 256 * 1024) return 0;
  static const char* const kFormats[] = {"", "la", "mc", "nb"};
  const std::string format = kFormats[data[0] % 4];
  const size_t info_len = std::min<size_t>(size - 3, static_cast<size_t>(data[1]) << 8 | data[2]);
  const std::span<const uint8_t> info(data + 3, info_len), rest(data + 3 + info_len, size - 3 - info_len);
  kvz::SstableData table;
  std::string error;
  (void)kvz::parse_sstable_data(info, rest, format, "fuzz-Data.db", table, error, 16u << 20);
  return 0;
}
