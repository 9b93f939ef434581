// The late check (bench/late_check.h): each cell's blocks called again at the end of the run
// lower a fastest call that the cell's own passes all inflated, and the intrinsic figures are
// recomputed from the lowered times, the worst block named as the block set numbers it (the
// engine then puts them in place of the cell's).
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>

#include "bench/late_check.h"
#include "bench/timer.h"
#include "bench_test_codecs.h"

namespace kvz {
namespace {

// Six blocks of runs, byte 0 their index; the check measures blocks 1..5 of the set (positions
// 0..4).
struct LateFixture {
  testing::SeenBlocks seen;
  testing::RleCodec codec{"rle", testing::Fault::None, &seen};
  BlockSet blocks;
  LateCheck check;
  LateFixture() {
    for (int b = 0; b < 6; ++b) {
      std::vector<uint8_t> block(4096, static_cast<uint8_t>(b));
      for (size_t i = 0; i < block.size(); i += 7) block[i] = static_cast<uint8_t>(i);
      block[0] = static_cast<uint8_t>(b);
      blocks.add_block(block, 1);
    }
    check.codec = &codec;
    LateCheck::Direction& d = check.dirs[0];
    d.on = true;
    d.blocks = &blocks;
    d.times = IntrinsicTimes(5);
    // As if every call of position 1 (block 2) had been inflated to a second: its fastest.
    const auto second = static_cast<uint64_t>(1e9 / tick_clock_info().ns_per_tick);
    for (size_t k = 0; k < 5; ++k) {
      for (int c = 0; c < 3; ++c) d.times.add(k, k == 1 ? second : 1);
      d.times.name(k, k + 1, 4096, 100 + k);
    }
    d.scratch = 2 * 4096 + 2;
  }
};

TEST(LateCheck, LowersAnInflatedBlockAndRenamesTheWorst) {
  LateFixture s;
  std::vector<LateCheck> checks{s.check};
  run_late_checks(checks, EngineOptions{}, nullptr);
  ASSERT_TRUE(checks[0].dirs[0].refined);
  const IntrinsicCost& ic = *checks[0].dirs[0].refined;
  EXPECT_LT(ic.worst_block_ns, 1e8);  // a 4 KiB run-length call, not the inflated second
  EXPECT_GT(ic.worst_block_ns, 0);
  // One round (the inflated second is more than kLateRoundsSeconds): every block one more call.
  EXPECT_EQ(ic.calls_per_block, 4u);
  EXPECT_EQ(checks[0].dirs[0].times.calls[1], 4u);
  EXPECT_EQ(ic.blocks, 5u);
  EXPECT_GE(ic.worst_block, 1u);  // named as the block set numbers it: 1..5, never position 0
  EXPECT_LE(ic.worst_block, 5u);
  EXPECT_EQ(ic.worst_block_bytes, 4096u);
  // The decompress direction was not checked: its figures stay.
  EXPECT_FALSE(checks[0].dirs[1].refined);
}

// A block called again soon after its own call runs on the branch history it left (here a
// zlib 1 compress of an 11,842-byte block took half the time back to back): the check calls
// the blocks in the passes' order, every other block between two calls of one, never the slow
// ones again on their own.
TEST(LateCheck, CallsEveryOtherBlockBetweenTwoCallsOfOne) {
  LateFixture s;
  s.seen.record_order = true;
  IntrinsicTimes& times = s.check.dirs[0].times;
  for (size_t k = 0; k < 5; ++k) times.fastest[k] = 1;  // fast blocks: a small set, so the most rounds
  std::vector<LateCheck> checks{s.check};
  run_late_checks(checks, EngineOptions{}, nullptr);
  // The untimed call of the last block, then rounds over the blocks in order.
  std::vector<uint8_t> expected{5};
  for (size_t round = 0; round < kLateMaxRounds; ++round)
    for (uint8_t b = 1; b <= 5; ++b) expected.push_back(b);
  EXPECT_EQ(s.seen.order, expected);
}

// A small set gets rounds enough for kLateMinCalls calls, at most kLateMaxRounds and as many
// as fit kLateRoundsSeconds; a large or slow one a single round.
TEST(LateCheck, RoundsScaleWithTheSetSizeAndCost) {
  EXPECT_EQ(late_rounds(0, 0), 0u);
  EXPECT_EQ(late_rounds(1, 1e-6), kLateMaxRounds);
  EXPECT_EQ(late_rounds(9, 9 * 500e-6), kLateMaxRounds);  // 64 KiB blocks, 0.5 ms a call
  EXPECT_EQ(late_rounds(33, 33 * 300e-6), 2u);
  EXPECT_EQ(late_rounds(64, 64 * 30e-6), 1u);
  EXPECT_EQ(late_rounds(5000, 5000 * 30e-6), 1u);
  EXPECT_EQ(late_rounds(9, 0.015), 2u);     // two rounds fit 0.04 s, three do not
  EXPECT_EQ(late_rounds(9, 9 * 8e-3), 1u);  // xz at 64 KiB: one round, however few blocks
}

TEST(LateCheck, AStoppedRunKeepsTheFiguresItHas) {
  LateFixture s;
  std::atomic<bool> stop{true};
  std::vector<LateCheck> checks{s.check};
  run_late_checks(checks, EngineOptions{}, &stop);
  EXPECT_FALSE(checks[0].dirs[0].refined);
}

}  // namespace
}  // namespace kvz
