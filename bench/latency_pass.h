#pragma once
// The latency passes: one single-threaded pass per cell and direction that times every call
// with the tick clock, in whole rounds over the measured blocks (bench/README.md "Latency
// passes"). Internal to bench/.
#include <cstddef>

#include "bench/cell.h"

namespace kvz {

// Every measured block is timed at least this often per direction: its fastest call is its
// intrinsic cost.
inline constexpr size_t kMinCallsPerBlock = 3;
// Calls of kFastCallSeconds or less always get the 1,000 calls p99.9 needs, whatever the time
// cap, unless a smaller budget brought the cap below kFastFloorCapSeconds (bench/matrix.h).

// The context-switch reading between calls (getrusage: about 1 µs on a VM), for sizing.
inline constexpr double kSwitchReadSeconds = 1.5e-6;

// Calls of one latency pass over `blocks` blocks whose calls take about `est_call_seconds`:
// the target (opt.latency_calls) where the time cap (opt.latency_seconds) allows; at least
// 1,000 wherever a call takes opt.fast_call_seconds (100 µs) or less; at least `min_rounds` per
// block; in whole rounds over the blocks.
size_t latency_calls(size_t blocks, double est_call_seconds, size_t min_rounds, const EngineOptions& opt);

// One direction's latency pass of a verified cell: its observed figures (LatencyStats without
// the intrinsic cost). Starts cell.intrinsic[dir] with the pass's calls (and in stream mode the
// verification pass's, each block's first). A failed call sets cell.pass_error.
LatencyStats latency_pass(CellState& cell, Direction dir, const EngineOptions& opt);

}  // namespace kvz
