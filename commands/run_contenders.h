#pragma once
// Ties measured again before they are called ties (issue 36): after the run, the cells of every
// pick the evidence could not separate from another (judgement's ties) are measured a second time,
// interleaved with each other, and each keeps the intrinsic figures of the window with the lower
// fastest-call sum, the other sum beside it (results/latency.h IntrinsicCost::fastest_sum_other_ns);
// its repetitions stay the first window's, as many as every other cell's. The picks are then made
// again on speeds known to within what the two windows showed; a tie that remains is said to be
// one. Bounded: at most kMaxContenderCells cells, at two repetitions each (judgement/README.md
// "Ties, and measuring again").
#include <string>
#include <vector>

#include "bench/engine.h"

namespace kvz {

inline constexpr size_t kMaxContenderCells = 12;

// The ids of the cells behind every tie of the run's picks (its store's terms when it had a
// store profile), in the run's order, at most kMaxContenderCells.
std::vector<std::string> contender_cells(const RunResults& run);

// The second window of `again` (cells measured again) folded into `cells`: each direction's
// intrinsic figures the window with the lower fastest-call sum, the other sum beside it, and the
// time spent. Cells not in `again` are left alone.
void fold_second_window(std::vector<CellResult>& cells, const std::vector<CellResult>& again);

// Measures the contenders of `run` again (the matrix it was measured from, its engine options)
// and folds them in; returns how many cells were measured again. Nothing after a stop.
size_t measure_contenders(const Matrix& matrix, const EngineOptions& engine, const EngineHooks& hooks, RunResults& run,
                          std::vector<std::string>& warnings);

}  // namespace kvz
