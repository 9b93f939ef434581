// libFuzzer target: a DB's MANIFEST (kvz::parse_manifest: the log's records, VersionEdits and
// their replay) and its OPTIONS file (kvz::parse_options_file): the input is the whole file, read
// as both.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "stores/rocksdb/manifest.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 1024 * 1024) return 0;
  kvz::DbVersion version;
  std::string error;
  (void)kvz::parse_manifest(std::span<const uint8_t>(data, size), "MANIFEST-000001", version, error);
  (void)kvz::parse_options_file(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
