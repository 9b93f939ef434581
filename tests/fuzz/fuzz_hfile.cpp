// libFuzzer target: HBase HFile v2/v3 (kvz::parse_hfile): the input is the whole file.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "stores/hbase/hfile.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 1024 * 1024) return 0;
  kvz::Hfile file;
  std::string error;
  // Whole, then cut at 4 KiB of raw bytes (--max-bytes): the early stop is a path of its own.
  for (const uint64_t max_raw : {uint64_t{0}, uint64_t{4096}})
    (void)kvz::parse_hfile(std::span<const uint8_t>(data, size), "fuzz.hfile", file, error, max_raw);
  return 0;
}
