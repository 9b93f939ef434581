#pragma once
// The observed latency of a latency pass: percentiles (only those the call count supports),
// the worst and mean call, stall counts and the preempted ones among them. Generic statistics:
// util/stats.h; the intrinsic cost (each block's fastest call): bench/intrinsic.h.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "results/latency.h"

namespace kvz {

// What a latency pass records, one entry per timed call.
struct LatencySample {
  std::vector<uint64_t> ticks;    // the call's duration in ticks
  std::vector<uint32_t> block;    // which block it was (0 .. blocks-1)
  std::vector<uint8_t> switched;  // 1: a context switch was counted around the call
  size_t blocks = 0;              // distinct blocks the pass cycles through
};

// The observed figures of `sample`: every call as it happened, scheduler and all. Leaves
// LatencyStats::intrinsic empty (its owner is IntrinsicTimes). `ticks` is reordered.
LatencyStats summarize_latency(LatencySample& sample, double ns_per_tick,
                               const std::vector<uint64_t>& stall_thresholds_ns);

}  // namespace kvz
