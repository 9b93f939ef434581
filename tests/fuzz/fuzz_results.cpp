// libFuzzer target: the result file loaders — kvz::results_from_json on the text, and the
// streaming loaders that `report`, `merge` and `check` use on a file (load_results and
// load_compact_results, both over results/json_scan.h's scanner).
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "results/results.h"
#include "results/results_compact.h"

namespace {

// The input as a file the streaming loaders can open: one memory-backed file, rewritten per input.
std::string as_file(const uint8_t* data, size_t size) {
  static const int fd = memfd_create("fuzz_results", 0);
  if (fd < 0 || ftruncate(fd, 0) != 0 || (size && pwrite(fd, data, size, 0) != static_cast<ssize_t>(size)))
    std::abort();
  return "/proc/self/fd/" + std::to_string(fd);
}

void use(const kvz::RunResults& out) {
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

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  kvz::RunResults out;
  std::string error;
  if (kvz::results_from_json(text, out, error)) use(out);
  const std::string path = as_file(data, size);
  kvz::RunResults streamed;
  const bool whole = kvz::load_results(path, streamed, error);
  if (whole) use(streamed);
  kvz::CompactRun compact;
  // The compact loader reads less of each cell, so it refuses no file the whole loader reads.
  if (!kvz::load_compact_results(path, compact, error) && whole) std::abort();
  return 0;
}
