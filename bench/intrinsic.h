#pragma once
// The intrinsic cost (results/latency.h IntrinsicCost, JSON `intrinsic`): each measured block's
// fastest call over its repeats, what the block costs on this CPU when nothing else interferes
// (the scheduler can only make a call slower). Its maximum over the blocks is the worst block
// (`worst_block_ns`, the console's "worst blk", reports' "worst block"), named by its index in
// the block set with its sizes, so `kvzbench blocks --out` exports it.
//
// IntrinsicTimes is the one owner of the figure: the latency pass starts it (with the
// verification pass's calls in stream mode), the throughput passes add their slow calls
// (kTimedPassCallSeconds), the late check adds its calls at the end of the run
// (bench/late_check.h), and cost() computes the figures and names the worst block. Internal
// to bench/.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "results/latency.h"

namespace kvz {

// Calls of at least this long are also timed one by one inside the throughput passes (two
// timestamps, about 50 ns, cost at most 0.25 % of such a call): their blocks' fastest calls then
// come from repetitions seconds apart, which a machine slowed for a moment cannot all inflate.
// The late check calls again only the directions with a block this slow.
inline constexpr double kTimedPassCallSeconds = 20e-6;

// Each timed block's fastest call and its calls so far, per position 0 .. positions()-1 (the
// position is the cell's measured block, Job::block), and which block of the set each
// position is.
struct IntrinsicTimes {
  std::vector<uint64_t> fastest;  // ticks
  std::vector<uint64_t> calls;
  std::vector<uint64_t> set_index;     // the block's index in the block set
  std::vector<uint64_t> raw_bytes;     // its uncompressed size
  std::vector<uint64_t> packed_bytes;  // its compressed size

  IntrinsicTimes() = default;
  // `blocks` positions, none timed yet and none named: name() each before cost().
  explicit IntrinsicTimes(size_t blocks)
      : fastest(blocks, UINT64_MAX),
        calls(blocks, 0),
        set_index(blocks, 0),
        raw_bytes(blocks, 0),
        packed_bytes(blocks, 0) {}
  size_t positions() const { return fastest.size(); }
  void name(size_t position, uint64_t index_in_set, uint64_t raw, uint64_t packed) {
    set_index[position] = index_in_set;
    raw_bytes[position] = raw;
    packed_bytes[position] = packed;
  }
  void add(size_t position, uint64_t ticks) {
    if (ticks < fastest[position]) fastest[position] = ticks;
    ++calls[position];
  }
  uint64_t slowest_ticks() const;  // the worst block's fastest call (0 without positions)

  // The intrinsic figures: blocks, the fewest calls any block got, the median and worst block
  // (named as the block set numbers it), the blocks at or above each stall threshold. Without
  // a call for every block (calls_per_block 0) only the counts: no figure.
  IntrinsicCost cost(double ns_per_tick, const std::vector<uint64_t>& stall_thresholds_ns) const;
};

}  // namespace kvz
