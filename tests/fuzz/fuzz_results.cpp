// libFuzzer target: the result file loaders — kvz::results_from_json on the text, and the
// streaming loaders that `report`, `merge` and `check` use on a file (load_results,
// load_compact_results and stream_results, all over results/json_scan.h's scanner).
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "results/results.h"
#include "results/results_compact.h"
#include "results/results_stream.h"

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
  std::string whole_error;
  const bool whole = kvz::load_results(path, streamed, whole_error);
  if (whole) use(streamed);
  kvz::CompactRun compact;
  // The compact loader reads less of each cell, so it refuses no file the whole loader reads.
  if (!kvz::load_compact_results(path, compact, error) && whole) std::abort();
  // The streamed load (report at scale) reads what the whole loader reads, cell for cell, and
  // refuses what it refuses with the same line; each cell's place reads the same cell back.
  std::string stream_error;
  std::vector<kvz::CellPlace> places;
  kvz::ResultsStream stream;
  stream.on_cell = [&](kvz::CellResult& c, const std::string& id, kvz::CellPlace place) {
    if (whole && (places.size() >= streamed.cells.size() || streamed.cells[places.size()].key.id() != id)) std::abort();
    (void)c.compress_median();
    places.push_back(place);
  };
  const bool stream_ok = kvz::stream_results(path, stream, stream_error);
  if (stream_ok != whole || (whole && places.size() != streamed.cells.size()) ||
      (!whole && stream_error != whole_error))
    std::abort();
  size_t again = 0;
  if (whole && !kvz::read_cells_at(
                   path, places,
                   [&](kvz::CellResult& c) {
                     if (c.key.id() != streamed.cells[again++].key.id()) std::abort();
                   },
                   stream_error))
    std::abort();
  return 0;
}
