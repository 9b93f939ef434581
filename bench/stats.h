#pragma once
// What the cell runner derives from its measurements: latency summaries and stall counts,
// the keep-raw rule and the dictionary train/test split. Generic statistics: util/stats.h.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "results/results.h"
#include "util/stats.h"

namespace kvz {

// Each block's fastest call and how many calls it got, over every pass that timed it.
struct BlockTimes {
  std::vector<uint64_t> fastest;  // ticks
  std::vector<uint64_t> calls;
  explicit BlockTimes(size_t blocks = 0) : fastest(blocks, UINT64_MAX), calls(blocks, 0) {}
  void add(size_t block, uint64_t ticks) {
    fastest[block] = std::min(fastest[block], ticks);
    ++calls[block];
  }
};

// The intrinsic cost from each block's fastest call; the worst block as an index into `times`.
IntrinsicCost intrinsic_cost(const BlockTimes& times, double ns_per_tick, const std::vector<uint64_t>& thresholds);

// What a latency pass records, one entry per timed call.
struct LatencySample {
  std::vector<uint64_t> ticks;    // the call's duration in ticks
  std::vector<uint32_t> block;    // which block it was (0 .. blocks-1)
  std::vector<uint8_t> switched;  // 1: a context switch was counted around the call
  size_t blocks = 0;              // distinct blocks the pass cycles through
  // Optional: each block's call in an earlier pass (the round-trip verification), counted for
  // the intrinsic cost only; the observed distribution is this pass's calls.
  std::vector<uint64_t> earlier;
};

// Each block's calls in the sample (the earlier pass's included).
BlockTimes block_times(const LatencySample& sample);

// Observed percentiles (only those the call count supports), stall counts (preempted ones
// apart) and the intrinsic cost per block: each block's fastest call. The worst block is
// reported as its index in 0 .. blocks-1; the caller maps it to the block set. `ticks` is
// reordered.
LatencyStats summarize_latency(LatencySample& sample, double ns_per_tick,
                               const std::vector<uint64_t>& stall_thresholds_ns);

// LevelDB/RocksDB keep-raw rule: a block is stored compressed only when it saves at least
// `min_saving` of its size (compressed < raw - floor(raw * min_saving)); 0.125 is raw/8.
bool keep_raw(size_t raw_size, size_t compressed_size, double min_saving);

// Disjoint split of block indices for dictionary cells: a seeded `train_fraction` share
// (at least one block, and 8 when half the blocks allow) trains, the rest (at least one
// block) is measured. Both sorted.
struct BlockSplit {
  std::vector<size_t> train;
  std::vector<size_t> test;
};
// Returns false when there are fewer than two blocks.
bool split_train_test(size_t block_count, double train_fraction, uint64_t seed, BlockSplit& out);

}  // namespace kvz
