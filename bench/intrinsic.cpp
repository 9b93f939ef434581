#include "bench/intrinsic.h"

#include <algorithm>

#include "util/stats.h"

namespace kvz {

uint64_t IntrinsicTimes::slowest_ticks() const {
  return fastest.empty() ? 0 : *std::max_element(fastest.begin(), fastest.end());
}

IntrinsicCost IntrinsicTimes::cost(double ns_per_tick, const std::vector<uint64_t>& stall_thresholds_ns) const {
  IntrinsicCost out;
  out.blocks = positions();
  out.calls_per_block = calls.empty() ? 0 : *std::min_element(calls.begin(), calls.end());
  for (uint64_t t : stall_thresholds_ns) out.stall_blocks[t] = 0;
  if (out.calls_per_block == 0) return out;  // some block was never timed: no intrinsic figure
  const auto k = static_cast<size_t>(std::max_element(fastest.begin(), fastest.end()) - fastest.begin());
  out.worst_block_ns = static_cast<double>(fastest[k]) * ns_per_tick;
  out.worst_block = set_index[k];
  out.worst_block_bytes = raw_bytes[k];
  out.worst_block_compressed = packed_bytes[k];
  for (uint64_t t : fastest)
    for (auto& [threshold, count] : out.stall_blocks)
      count += static_cast<double>(t) * ns_per_tick >= static_cast<double>(threshold);
  double sum = 0;
  for (uint64_t t : fastest) sum += static_cast<double>(t);
  out.fastest_sum_ns = sum * ns_per_tick;
  std::vector<uint64_t> sorted = fastest;
  out.median_block_ns = static_cast<double>(percentile_nearest_rank(sorted, 0.50)) * ns_per_tick;
  return out;
}

}  // namespace kvz
