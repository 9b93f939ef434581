// libFuzzer target: HBase HFile v2/v3 (kvz::parse_hfile): the input is the whole file.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "blockgen/store_files/hfile.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 1024 * 1024) return 0;
  kvz::Hfile file;
  std::string error;
  (void)kvz::parse_hfile(std::span<const uint8_t>(data, size), "fuzz.hfile", file, error);
  return 0;
}
