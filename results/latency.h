#pragma once
// A cell's latency figures (results/results.h CellResult::compress_latency, ...): what the
// latency passes observed and the intrinsic cost. Their own header so the code that computes
// them (bench/stats, bench/intrinsic) does not rebuild when the rest of the result model changes.
#include <cstdint>
#include <map>
#include <optional>

namespace kvz {

// Calls a percentile needs before it means anything: with fewer than 1 / (1 - q) calls the
// "p99.9" is just the slowest call. Below these counts a percentile is absent, never a number.
inline constexpr uint64_t kMinCallsP50 = 2;
inline constexpr uint64_t kMinCallsP90 = 10;
inline constexpr uint64_t kMinCallsP99 = 100;
inline constexpr uint64_t kMinCallsP999 = 1000;

// Intrinsic cost (JSON `intrinsic`): each block's fastest call over its repeats, what the block
// costs on this CPU when nothing else interferes (the scheduler can only make a call slower).
// Its distribution over blocks is the codec's deterministic worst case on this data; its
// maximum is the worst block (`worst_block_ns`, the console's "worst blk"). bench computes it
// in one place: bench/intrinsic.h IntrinsicTimes::cost.
struct IntrinsicCost {
  uint64_t blocks = 0;           // distinct blocks timed
  uint64_t calls_per_block = 0;  // fewest calls any block got (at least 3)
  double median_block_ns = 0;    // the median block's intrinsic cost
  double worst_block_ns = 0;     // the largest intrinsic cost of any block: the worst block's
  // Every block's intrinsic cost added up: one pass over the blocks at each block's fastest call.
  // The blocks' uncompressed bytes over it is the speed by fastest calls, the estimate load moves
  // least (judgement/README.md "Speeds that load does not move"). 0 without a figure.
  double fastest_sum_ns = 0;
  // When the cell was measured a second time (a contender in a tie, commands/run_contenders.h):
  // the other measurement's sum. The figures above are the window with the lower sum; how far
  // the two lie apart is how well the speed is known. 0: measured once.
  double fastest_sum_other_ns = 0;
  uint64_t worst_block = 0;             // its index in the block set: `kvzbench blocks --out` NNNNNN.blk
  uint64_t worst_block_bytes = 0;       // its uncompressed size
  uint64_t worst_block_compressed = 0;  // its compressed size (JSON worst_block_compressed_bytes)
  // Blocks whose intrinsic cost is at or above each stall threshold: threshold ns -> blocks.
  // Such a block stalls on this CPU every time it is compressed (or decompressed).
  std::map<uint64_t, uint64_t> stall_blocks;
};

struct LatencyStats {
  // Observed: every timed call, scheduler and all.
  uint64_t calls = 0;
  std::optional<double> p50_ns, p90_ns, p99_ns, p999_ns;  // present only when `calls` supports them
  double max_ns = 0, mean_ns = 0;
  // Calls at or above each stall threshold: threshold ns -> count.
  std::map<uint64_t, uint64_t> stalls;
  // Of those, calls during which the thread was switched out (a context switch was counted
  // between the readings around the call): the scheduler's stalls, not the codec's.
  std::map<uint64_t, uint64_t> preempted_stalls;
  uint64_t preempted_calls = 0;  // calls during which a context switch was counted
  IntrinsicCost intrinsic;
};

}  // namespace kvz
