// libFuzzer target: RocksDB / LevelDB table files (kvz::parse_table_file): the input is the
// whole file.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "stores/rocksdb/table_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 1024 * 1024) return 0;
  kvz::TableFile table;
  std::string error;
  // Whole, then cut at 4 KiB of raw bytes (--max-bytes): the early stop is a path of its own.
  for (const uint64_t max_raw : {uint64_t{0}, uint64_t{4096}})
    (void)kvz::parse_table_file(std::span<const uint8_t>(data, size), "fuzz.sst", table, error, max_raw);
  return 0;
}
