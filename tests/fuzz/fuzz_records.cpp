// libFuzzer target: the record readers (kvz::records_from_bytes).
// Byte 0 picks the record mode, byte 1 the key/value field options; the rest is the file's bytes.
#include <cstddef>
#include <cstdint>
#include <string>

#include "blockgen/records.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 256 * 1024) return 0;
  static const char* const kModes[] = {"lines",    "jsonl", "json",  "csv", "tsv",
                                       "fixed:16", "auto",  "bytes", "kv",  "kv-hex"};
  static const char* const kKeyFields[] = {"", "id", "1"};
  if (size < 1) return 0;
  const std::string mode = kModes[data[0] % 10];
  kvz::RecordOptions options;
  size_t skip = 1;
  if (size >= 2) {
    options.key_field = kKeyFields[data[1] % 3];
    options.value_field = (data[1] & 0x40) != 0 ? "body" : "";
    options.key_columns = (data[1] / 3) % 4;  // 0..3
    options.keep_raw = (data[1] & 0x80) != 0;
    skip = 2;
  }
  std::string rest(reinterpret_cast<const char*>(data) + skip, size - skip);
  std::string error;
  const kvz::RecordSet set = kvz::records_from_bytes(std::move(rest), "fuzz", mode, options, error);
  for (size_t i = 0; i < set.columns.size() + 1; ++i) (void)kvz::value_column_name(set, i);
  return 0;
}
