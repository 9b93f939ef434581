// The late check (bench/late_check.h): each cell's blocks called again at the end of the run
// lower a fastest call that the cell's own passes all inflated, and the intrinsic figures are
// recomputed from the lowered times, the worst block named as the block set numbers it.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>

#include "bench/late_check.h"
#include "bench/timer.h"
#include "bench_test_codecs.h"

namespace kvz {
namespace {

// Six blocks of runs; the check measures blocks 1..5 of the set (positions 0..4).
struct LateFixture {
  testing::RleCodec codec{"rle", testing::Fault::None};
  BlockSet blocks;
  LateCheck check;
  std::vector<CellResult> results{1};
  LateFixture() {
    for (int b = 0; b < 6; ++b) {
      std::vector<uint8_t> block(4096, static_cast<uint8_t>(b));
      for (size_t i = 0; i < block.size(); i += 7) block[i] = static_cast<uint8_t>(i);
      blocks.add_block(block, 1);
    }
    check.codec = &codec;
    LateCheck::Direction& d = check.dirs[0];
    d.on = true;
    d.blocks = &blocks;
    d.times = BlockTimes(5);
    // As if every call of position 1 (block 3) had been inflated to a second: its fastest.
    const auto second = static_cast<uint64_t>(1e9 / tick_clock_info().ns_per_tick);
    for (size_t k = 0; k < 5; ++k) {
      for (int c = 0; c < 3; ++c) d.times.add(k, k == 1 ? second : 1);
      d.set_index.push_back(k + 1);
      d.raw_bytes.push_back(4096);
      d.packed_bytes.push_back(100 + k);
    }
    d.scratch = 2 * 4096 + 2;
    results[0].compress_latency.intrinsic.worst_block_ns = 1e9;
  }
};

TEST(LateCheck, LowersAnInflatedBlockAndRenamesTheWorst) {
  LateFixture s;
  std::vector<LateCheck> checks{s.check};
  run_late_checks(checks, s.results, EngineOptions{}, nullptr);
  const IntrinsicCost& ic = s.results[0].compress_latency.intrinsic;
  EXPECT_LT(ic.worst_block_ns, 1e8);  // a 4 KiB run-length call, not the inflated second
  EXPECT_GT(ic.worst_block_ns, 0);
  // Every block got one more call (the round over all), the three slowest two more besides:
  // the fewest is 3 + 1, and the once-inflated block has 3 + 1 + 2.
  EXPECT_EQ(ic.calls_per_block, 4u);
  EXPECT_EQ(checks[0].dirs[0].times.calls[1], 6u);
  EXPECT_EQ(ic.blocks, 5u);
  EXPECT_GE(ic.worst_block, 1u);  // named as the block set numbers it: 1..5, never position 0
  EXPECT_LE(ic.worst_block, 5u);
  EXPECT_EQ(ic.worst_block_bytes, 4096u);
  // The decompress direction was not checked: its figures stay.
  EXPECT_EQ(s.results[0].decompress_latency.intrinsic.calls_per_block, 0u);
}

TEST(LateCheck, AStoppedRunKeepsTheFiguresItHas) {
  LateFixture s;
  std::atomic<bool> stop{true};
  std::vector<LateCheck> checks{s.check};
  run_late_checks(checks, s.results, EngineOptions{}, &stop);
  EXPECT_EQ(s.results[0].compress_latency.intrinsic.worst_block_ns, 1e9);
}

}  // namespace
}  // namespace kvz
