#pragma once
// The console table of `kvzbench run`: one section per block set, memcpy first, rows sorted
// lzbench-style, each speed also relative to memcpy of the same block set.
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "report/results.h"

namespace kvz {

// sort: "cspeed" (default, compression speed, fastest first), "dspeed", "ratio", "none".
// `levelless`: codecs whose level means nothing (memcpy, snappy): their rows show no level.
void print_console_table(std::ostream& out, const std::vector<CellResult>& cells, const std::string& sort,
                         int repetitions, const std::set<std::string>& levelless = {});

}  // namespace kvz
