// libFuzzer target: the result file loader (kvz::results_from_json).
#include <cstddef>
#include <cstdint>
#include <string>

#include "results/results.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  kvz::RunResults out;
  std::string error;
  if (kvz::results_from_json(text, out, error)) {
    // A loaded result must be usable by what reads it next: ids, ratios, medians, and a save.
    for (const auto& c : out.cells) {
      (void)c.key.id();
      (void)c.ratio();
      (void)c.stored_ratio();
      (void)c.saving_pct();
      (void)c.compress_median();
      (void)c.decompress_median();
    }
    (void)kvz::results_to_json(out);
  }
  return 0;
}
