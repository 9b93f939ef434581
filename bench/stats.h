#pragma once
// What the cell runner derives from its measurements: latency summaries and stall counts,
// the keep-raw rule and the dictionary train/test split. Generic statistics: util/stats.h.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "report/results.h"
#include "util/stats.h"

namespace kvz {

// Latency summary of per-call tick counts (reordered in place), converted with ns_per_tick.
// `stall_thresholds_ns`: each threshold counts calls at or above it.
LatencyStats summarize_latency(std::span<uint64_t> ticks, double ns_per_tick,
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
