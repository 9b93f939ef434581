// libFuzzer target: WiredTiger files (kvz::parse_wt_file): the input is the whole file. Seeds:
// two small tables libwiredtiger 3.2.1 wrote (snappy, zlib).
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "blockgen/store_files/wt_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 1024 * 1024) return 0;
  kvz::WtFile file;
  std::string error;
  (void)kvz::parse_wt_file(std::span<const uint8_t>(data, size), "fuzz.wt", file, error);
  return 0;
}
