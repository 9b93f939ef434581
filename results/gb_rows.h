#pragma once
// Internal to results/: the Google Benchmark part of a results file (results.cpp writes it).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "results/results_fwd.h"

namespace kvz {

// GB's context block, so GB tooling recognises the file.
nlohmann::json gb_context(const RunMeta& m);
// One OK cell's rows, each one line of JSON text: per repetition and aggregates (median, mean,
// stddev) for each direction, then `<id>/stored_bytes`; `family` counts GB families across the file.
void add_gb_cell_rows(std::vector<std::string>& rows, int& family, const CellResult& c);
// How many GB families append_gb_rows numbers for a cell (0 unless OK): a parallel writer
// numbers a batch's rows from where the batches before it end, before they are written.
int gb_family_count(const CellResult& c);

}  // namespace kvz
