#pragma once
// The throughput passes of one batch of a block set's cells, through Google Benchmark: one
// benchmark per cell and direction, repetitions interleaved across the batch. Internal to bench/.
#include <functional>
#include <vector>

#include "bench/cell.h"
#include "bench/hooks.h"

namespace kvz {

// Times every verified cell of `cells` (all of one block set) and appends each finished
// repetition's speeds to its result; a repetition cut short by the stop flag marks the cell
// incomplete. `tick` is called once per repetition entered (progress).
void time_batch(const std::vector<CellState*>& cells, const EngineOptions& opt, const EngineHooks& hooks,
                const std::function<void()>& tick);

// Wall seconds the throughput passes of a verified cell will take: its budget, or more when a
// pass outlasts a repetition (every repetition makes at least one whole pass).
double passes_seconds(const CellState& cell, const EngineOptions& opt);

}  // namespace kvz
