// libFuzzer target: WiredTiger files (kvz::parse_wt_file): the input is the whole file. Seeds:
// two small tables libwiredtiger 3.2.1 wrote (snappy, zlib).
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "stores/wiredtiger/wt_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 1024 * 1024) return 0;
  kvz::WtFile file;
  std::string error;
  // Whole, then cut at 4 KiB of raw bytes (--max-bytes): the early stop is a path of its own.
  for (const uint64_t max_raw : {uint64_t{0}, uint64_t{4096}})
    (void)kvz::parse_wt_file(std::span<const uint8_t>(data, size), "fuzz.wt", file, error, max_raw);
  return 0;
}
