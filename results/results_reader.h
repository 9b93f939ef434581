#pragma once
// A results file's structure, read front to back one cell at a time (internal to results/): the
// whole-run loader (results_load.cpp) and the compact one (results_compact_load.cpp) differ only
// in what they keep of a cell, so both refuse the same files with the same one-line errors.
#include <cstdint>
#include <exception>
#include <functional>
#include <stdexcept>
#include <string>

#include "results/run_meta.h"

namespace kvz {

// A message that is the whole error (not "malformed kvzbench result: ...").
struct LoadRefusal : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct ResultsFileSink {
  int* schema_version = nullptr;
  RunMeta* meta = nullptr;
  std::function<void()> on_meta;  // optional: after `meta` is read
  // One cell's JSON text, in file order; throws on a malformed cell (std::runtime_error).
  std::function<void(const std::string& cell_text)> on_cell;
  // Optional: the `recommendations` array's text (results/recommendations.h); skipped when unset.
  std::function<void(const std::string& text)> on_recommendations;
  uint64_t cell_offset = 0;  // during on_cell: the byte of the file the cell's text starts at
  // After the last cell: "" or the first cell that breaks results_checks.h's rules.
  std::function<std::string()> consistency_error;
};

// Reads `path` into `sink`; false with `error` = "<path>: <one line>" when it cannot.
bool read_results_file(const std::string& path, ResultsFileSink& sink, std::string& error);
// The one line (without the path) for what reading a file threw: a refusal, a scan or parse
// error, a malformed cell.
std::string load_failure_text(const std::exception_ptr& failure);

}  // namespace kvz
