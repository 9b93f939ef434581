// Percentile math, stall counting, the intrinsic cost and its worst block, the keep-raw rule
// (stores/framing.h) and the dictionary split.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <set>
#include <tuple>

#include "bench/cell_dict.h"
#include "bench/intrinsic.h"
#include "bench/stats.h"
#include "bench/sysinfo.h"
#include "stores/framing.h"

namespace kvz {
namespace {

// A sample of calls cycling over `blocks` blocks, no context switches.
LatencySample cycling(std::vector<uint64_t> ticks, size_t blocks) {
  LatencySample s;
  s.blocks = blocks;
  for (size_t c = 0; c < ticks.size(); ++c) s.block.push_back(static_cast<uint32_t>(c % blocks));
  s.switched.assign(ticks.size(), 0);
  s.ticks = std::move(ticks);
  return s;
}

// The sample's calls as intrinsic times, position k named as block 10 + k of the set, 100 + k
// bytes, compressed to 50 + k.
IntrinsicTimes intrinsic_of(const LatencySample& s) {
  IntrinsicTimes times(s.blocks);
  for (size_t k = 0; k < s.blocks; ++k) times.name(k, 10 + k, 100 + k, 50 + k);
  for (size_t c = 0; c < s.ticks.size(); ++c) times.add(s.block[c], s.ticks[c]);
  return times;
}

TEST(Latency, SummaryConvertsTicksAndFindsWorst) {
  std::vector<uint64_t> v(2000);  // ticks 1..2000, shuffled
  std::iota(v.begin(), v.end(), uint64_t{1});
  std::shuffle(v.begin(), v.end(), std::mt19937_64(3));
  LatencySample sample = cycling(v, 1);
  const LatencyStats s = summarize_latency(sample, 0.5, {});
  EXPECT_EQ(s.calls, 2000u);
  EXPECT_DOUBLE_EQ(s.p50_ns.value(), 500.0);   // tick 1000 * 0.5 ns
  EXPECT_DOUBLE_EQ(s.p99_ns.value(), 990.0);   // tick 1980
  EXPECT_DOUBLE_EQ(s.p999_ns.value(), 999.0);  // tick 1998
  EXPECT_DOUBLE_EQ(s.max_ns, 1000.0);
  EXPECT_NEAR(s.mean_ns, 500.25, 1e-9);
}

// p99 needs 100 calls and p99.9 1,000: with fewer, the "percentile" is the slowest call.
TEST(Latency, PercentilesNeedTheirCalls) {
  for (const auto& [calls, p90, p99, p999] :
       std::vector<std::tuple<size_t, bool, bool, bool>>{{9, false, false, false},
                                                         {10, true, false, false},
                                                         {99, true, false, false},
                                                         {100, true, true, false},
                                                         {999, true, true, false},
                                                         {1000, true, true, true}}) {
    LatencySample sample = cycling(std::vector<uint64_t>(calls, 7), 1);
    const LatencyStats s = summarize_latency(sample, 1.0, {});
    EXPECT_EQ(s.p90_ns.has_value(), p90) << calls;
    EXPECT_EQ(s.p99_ns.has_value(), p99) << calls;
    EXPECT_EQ(s.p999_ns.has_value(), p999) << calls;
    EXPECT_DOUBLE_EQ(s.max_ns, 7.0);
  }
}

// Each block's intrinsic cost is its fastest call: a preempted call cannot inflate it.
TEST(Intrinsic, EachBlocksFastestCall) {
  // Three rounds over four blocks costing 10, 40, 20, 30 ticks; round two preempts block 0
  // (5,000 ticks) and round three slows block 2 a little.
  LatencySample sample = cycling({10, 40, 20, 30, 5000, 41, 20, 30, 11, 40, 25, 31}, 4);
  sample.switched[4] = 1;
  const IntrinsicCost ic = intrinsic_of(sample).cost(100.0, {500'000, 1'000'000});
  const LatencyStats s = summarize_latency(sample, 100.0, {500'000, 1'000'000});
  EXPECT_EQ(ic.blocks, 4u);
  EXPECT_EQ(ic.calls_per_block, 3u);
  EXPECT_DOUBLE_EQ(ic.worst_block_ns, 4000.0);
  EXPECT_DOUBLE_EQ(ic.median_block_ns, 2000.0);  // nearest rank of {1000, 2000, 3000, 4000}
  EXPECT_EQ(ic.stall_blocks.at(500'000), 0u);    // no block stalls on its own...
  EXPECT_EQ(s.stalls.at(500'000), 1u);           // ...one call did, and it was preempted
  EXPECT_EQ(s.preempted_stalls.at(500'000), 1u);
  EXPECT_EQ(s.preempted_calls, 1u);
  EXPECT_DOUBLE_EQ(s.max_ns, 500'000.0);
  EXPECT_EQ(s.intrinsic.blocks, 0u);  // the observed summary leaves the intrinsic cost to its owner
}

// The worst block is named as the block set numbers it, with its sizes: never its position.
TEST(Intrinsic, NamesTheWorstBlockAsTheSetNumbersIt) {
  const IntrinsicCost ic = intrinsic_of(cycling({10, 40, 20, 30, 10, 41, 20, 30, 11, 40, 25, 31}, 4)).cost(1.0, {});
  EXPECT_EQ(ic.worst_block, 11u);  // position 1
  EXPECT_EQ(ic.worst_block_bytes, 101u);
  EXPECT_EQ(ic.worst_block_compressed, 51u);
}

// A later window's calls lower a block's fastest call and may move the worst block.
TEST(Intrinsic, LaterCallsLowerTheFastestAndMoveTheWorst) {
  LatencySample sample = cycling({10, 40, 20, 30, 10, 40, 20, 30, 10, 40, 20, 30}, 4);
  IntrinsicTimes times = intrinsic_of(sample);
  EXPECT_EQ(times.slowest_ticks(), 40u);
  times.add(1, 15);  // position 1 was inflated in every earlier call
  const IntrinsicCost ic = times.cost(1.0, {});
  EXPECT_EQ(ic.calls_per_block, 3u);  // the fewest: position 1 has four
  EXPECT_EQ(ic.worst_block, 13u);     // position 3, 30 ticks
  EXPECT_DOUBLE_EQ(ic.worst_block_ns, 30.0);
}

TEST(Intrinsic, AnUntimedBlockGivesNoFigure) {
  IntrinsicTimes times(3);
  times.add(0, 5);
  times.add(2, 7);
  const IntrinsicCost ic = times.cost(1.0, {500'000});
  EXPECT_EQ(ic.blocks, 3u);
  EXPECT_EQ(ic.calls_per_block, 0u);
  EXPECT_EQ(ic.worst_block_ns, 0.0);
  EXPECT_EQ(ic.stall_blocks.at(500'000), 0u);
}

TEST(Intrinsic, StallBlocksAreBlocksWhoseFastestCallStalls) {
  LatencySample sample = cycling({600, 100, 700, 100, 600, 100}, 2);  // block 0: 600, 700, 600
  const IntrinsicCost ic = intrinsic_of(sample).cost(1000.0, {500'000, 1'000'000});
  const LatencyStats s = summarize_latency(sample, 1000.0, {500'000, 1'000'000});
  EXPECT_EQ(ic.stall_blocks.at(500'000), 1u);
  EXPECT_EQ(ic.stall_blocks.at(1'000'000), 0u);
  EXPECT_EQ(s.stalls.at(500'000), 3u);
  EXPECT_EQ(s.preempted_stalls.at(500'000), 0u);
}

TEST(Latency, StallsCountCallsAtOrAboveEachThreshold) {
  LatencySample ticks = cycling({100, 499'999, 500'000, 999'999, 1'000'000, 2'000'000}, 1);
  LatencySample copy = ticks;
  const LatencyStats s = summarize_latency(ticks, 1.0, {500'000, 1'000'000});
  ASSERT_EQ(s.stalls.size(), 2u);
  EXPECT_EQ(s.stalls.at(500'000), 4u);
  EXPECT_EQ(s.stalls.at(1'000'000), 2u);
  // The same calls on a 2-tick-per-ns clock: half the nanoseconds, fewer stalls.
  const LatencyStats h = summarize_latency(copy, 0.5, {500'000, 1'000'000});
  EXPECT_EQ(h.stalls.at(500'000), 2u);
  EXPECT_EQ(h.stalls.at(1'000'000), 1u);
}

TEST(Latency, NoCallsGivesZeroCountsForEveryThreshold) {
  LatencySample none;
  const LatencyStats s = summarize_latency(none, 1.0, {500'000});
  EXPECT_EQ(s.calls, 0u);
  EXPECT_EQ(s.stalls.at(500'000), 0u);
  EXPECT_FALSE(s.p50_ns.has_value());
  EXPECT_EQ(IntrinsicTimes(0).cost(1.0, {500'000}).calls_per_block, 0u);
}

TEST(KeepRaw, MatchesLevelDbRuleAtOneEighth) {
  // LevelDB: keep compressed only if compressed < raw - raw/8.
  std::mt19937 rng(1);
  for (int i = 0; i < 20000; ++i) {
    const size_t raw = 1 + rng() % 70000;
    const size_t comp = rng() % (raw + 50);
    EXPECT_EQ(framing::keep_raw(raw, comp, 0.125), !(comp < raw - raw / 8)) << raw << " " << comp;
  }
  EXPECT_TRUE(framing::keep_raw(4096, 3584, 0.125));
  EXPECT_FALSE(framing::keep_raw(4096, 3583, 0.125));
}

TEST(KeepRaw, ZeroSavingKeepsOnlyBlocksThatDoNotShrink) {
  EXPECT_FALSE(framing::keep_raw(4096, 4095, 0.0));
  EXPECT_TRUE(framing::keep_raw(4096, 4096, 0.0));
  EXPECT_TRUE(framing::keep_raw(4096, 5000, 0.0));
}

TEST(DictSplit, DisjointCoveringSortedAndSeeded) {
  BlockSplit a, b, c;
  ASSERT_TRUE(split_train_test(100, 0.2, 42, a));
  ASSERT_TRUE(split_train_test(100, 0.2, 42, b));
  ASSERT_TRUE(split_train_test(100, 0.2, 43, c));
  EXPECT_EQ(a.train.size(), 20u);
  EXPECT_EQ(a.test.size(), 80u);
  EXPECT_TRUE(std::is_sorted(a.train.begin(), a.train.end()));
  EXPECT_TRUE(std::is_sorted(a.test.begin(), a.test.end()));
  std::set<size_t> all(a.train.begin(), a.train.end());
  for (size_t t : a.test) EXPECT_TRUE(all.insert(t).second) << "block " << t << " in both splits";
  EXPECT_EQ(all.size(), 100u);
  EXPECT_EQ(a.train, b.train);
  EXPECT_NE(a.train, c.train);
}

TEST(DictSplit, TinySamplesKeepOneBlockEachSide) {
  BlockSplit s;
  ASSERT_TRUE(split_train_test(2, 0.2, 1, s));
  EXPECT_EQ(s.train.size(), 1u);
  EXPECT_EQ(s.test.size(), 1u);
  ASSERT_TRUE(split_train_test(3, 0.99, 1, s));
  EXPECT_EQ(s.test.size(), 1u);
  ASSERT_TRUE(split_train_test(20, 0.2, 1, s));
  EXPECT_EQ(s.train.size(), 8u);  // enough samples for zstd's trainer
  EXPECT_EQ(s.test.size(), 12u);
  EXPECT_FALSE(split_train_test(1, 0.2, 1, s));
  EXPECT_FALSE(split_train_test(0, 0.2, 1, s));
}

TEST(SysInfo, ParsesSysfsCacheSizes) {
  EXPECT_EQ(parse_sysfs_cache_size("32768K"), 32ull << 20);
  EXPECT_EQ(parse_sysfs_cache_size("1M"), 1ull << 20);
  EXPECT_EQ(parse_sysfs_cache_size("512"), 512u);
  EXPECT_EQ(parse_sysfs_cache_size("garbage"), 0u);
}

}  // namespace
}  // namespace kvz
