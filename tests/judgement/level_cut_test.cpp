// Which writes each level holds when a load ends, and which keep their sequence numbers
// (judgement/level_cut.h).
#include <gtest/gtest.h>

#include "judgement/level_cut.h"

namespace kvz {
namespace {

constexpr double kCutMiB = 1024.0 * 1024;

double shape_data(const LsmShape& s) {
  double sum = 0;
  for (const auto& l : s.levels) sum += l.data_bytes;
  return sum;
}

LsmOptions small_lsm(bool dynamic, LoadOrder order, double data) {
  LsmOptions o;
  o.data_bytes = data;
  o.dynamic = dynamic;
  o.order = order;
  o.num_levels = 5;
  o.multiplier = 4;
  o.level_base = 16 * kCutMiB;
  o.write_buffer = 4 * kCutMiB;
  o.target_file = 4 * kCutMiB;
  return o;
}

TEST(LevelCut, ShuffledDynamicDeepestFirstAndZeroed) {
  const LsmOptions o = small_lsm(true, LoadOrder::Shuffled, 400 * kCutMiB);
  const LsmShape shape = lsm_shape(o, [](int) { return 3.0; });
  const auto cuts = level_cuts(shape, o);
  ASSERT_EQ(shape.levels.front().data_bytes, 0);  // L0 empty when a shuffled load ends: no cut
  ASSERT_EQ(cuts.size(), shape.levels.size() - 1);
  EXPECT_EQ(cuts.front().first, shape.deepest());
  EXPECT_DOUBLE_EQ(cuts.front().slice.from, 0);
  EXPECT_DOUBLE_EQ(cuts.front().slice.kept, 0);  // bottommost compactions zero them
  EXPECT_NEAR(cuts.back().slice.to, 1, 1e-12);
  EXPECT_EQ(cuts.back().first, shape.levels[1].level);
  for (size_t i = 1; i < cuts.size(); ++i) {
    EXPECT_DOUBLE_EQ(cuts[i].slice.from, cuts[i - 1].slice.to);
    EXPECT_DOUBLE_EQ(cuts[i].slice.kept, 1) << "L" << cuts[i].first;
  }
  const double total = shape_data(shape);
  for (const auto& c : cuts) {
    const auto level =
        std::find_if(shape.levels.begin(), shape.levels.end(), [&](const LevelShare& s) { return s.level == c.first; });
    ASSERT_NE(level, shape.levels.end());
    EXPECT_NEAR(c.slice.to - c.slice.from, level->data_bytes / total, 1e-12);
  }
}

// Trivial moves keep an ascending load's numbers above the deepest level; the deepest level's
// own cut takes them zeroed. Each level below L0 is followed by its slice the other way, for the
// plan whose codecs decide; under static sizes too, the levels hold apart slices and are not paired.
TEST(LevelCut, AscendingLevelsAreCutBothWays) {
  for (const bool dynamic : {true, false}) {
    const LsmOptions o = small_lsm(dynamic, LoadOrder::Ascending, 300 * kCutMiB);
    const LsmShape shape = lsm_shape(o, [](int) { return 3.0; });
    const auto cuts = level_cuts(shape, o);
    ASSERT_EQ(cuts.size(), 2 * shape.levels.size() - 1) << dynamic;  // L0 once
    for (size_t i = 0; i + 1 < cuts.size(); i += 2) {
      const LevelCut &own = cuts[i], &other = cuts[i + 1];
      EXPECT_EQ(own.first, own.last);
      EXPECT_EQ(own.numbers, CutNumbers::Own);
      const bool deepest = own.first == shape.deepest();
      EXPECT_DOUBLE_EQ(own.slice.kept, deepest ? 0 : 1) << "L" << own.first;
      EXPECT_EQ(other.numbers, deepest ? CutNumbers::AllKept : CutNumbers::AllZeroed);
      EXPECT_DOUBLE_EQ(other.slice.kept, deepest ? 1 : 0);
      EXPECT_EQ(other.first, own.first);
      EXPECT_DOUBLE_EQ(other.slice.from, own.slice.from);
      EXPECT_DOUBLE_EQ(other.slice.to, own.slice.to);
    }
    EXPECT_EQ(cuts.back().first, 0);
    EXPECT_DOUBLE_EQ(cuts.back().slice.kept, 1);
    EXPECT_NEAR(cuts.back().slice.to, 1, 1e-12);
  }
}

// After an ascending load a level keeps every number while the codecs from L0 down to it are one
// (trivial moves), and none from the first change down (each rewrite is bottommost).
TEST(LevelCut, AscendingNumbersFollowTheCodecsFromL0) {
  const LsmOptions o = small_lsm(false, LoadOrder::Ascending, 300 * kCutMiB);
  const LsmShape shape = lsm_shape(o, [](int) { return 3.0; });
  ASSERT_EQ(shape.deepest(), 3);
  const auto one = numbers_by_codec(shape, o, [](int) { return 1; });
  ASSERT_EQ(one.size(), 3u);
  for (const auto& [level, n] : one) EXPECT_EQ(n, CutNumbers::AllKept) << "L" << level;
  // L2 changes codec: L1 keeps them, L2 and L3 (L2's codec again) do not.
  const auto changed = numbers_by_codec(shape, o, [](int level) { return level >= 2 ? 2 : 1; });
  EXPECT_EQ(changed.at(1), CutNumbers::AllKept);
  EXPECT_EQ(changed.at(2), CutNumbers::AllZeroed);
  EXPECT_EQ(changed.at(3), CutNumbers::AllZeroed);
  EXPECT_EQ(changed.count(0), 0u);  // L0 is its own cut: flushes keep them
  // A shuffled load, or no codecs: each level's own cut.
  LsmOptions shuffled = o;
  shuffled.order = LoadOrder::Shuffled;
  EXPECT_TRUE(numbers_by_codec(shape, shuffled, [](int) { return 1; }).empty());
  EXPECT_TRUE(numbers_by_codec(shape, o, {}).empty());
}

// L0 when the load ends: empty after a shuffled load, (trigger - 1) / 2 flushes after an ascending one.
TEST(LevelCut, L0WhenTheLoadEnds) {
  const LsmOptions shuffled = small_lsm(true, LoadOrder::Shuffled, 400 * kCutMiB);
  EXPECT_DOUBLE_EQ(lsm_shape(shuffled, [](int) { return 3.0; }).levels.front().data_bytes, 0);
  const LsmOptions ascending = small_lsm(true, LoadOrder::Ascending, 400 * kCutMiB);
  EXPECT_DOUBLE_EQ(lsm_shape(ascending, [](int) { return 3.0; }).levels.front().data_bytes,
                   1.5 * 4 * kCutMiB * kMemtableFill);
}

// Static sizes: the level above a small deepest level lost most of its numbers while it was the
// deepest: the two are cut together.
TEST(LevelCut, StaticLevelAboveASmallDeepestIsCutWithIt) {
  const LsmOptions o = small_lsm(false, LoadOrder::Shuffled, 300 * kCutMiB);
  const LsmShape shape = lsm_shape(o, [](int) { return 3.0; });
  ASSERT_EQ(shape.deepest(), 3);  // L1 16 MiB, L2 64 MiB of files at 3:1, the rest in L3
  const double l2 = shape.levels[2].data_bytes, l3 = shape.levels[3].data_bytes;
  ASSERT_LT(l3, l2);
  const auto cuts = level_cuts(shape, o);
  ASSERT_EQ(cuts.size(), 2u);  // L2-3, L1 (L0 empty)
  EXPECT_EQ(cuts[0].first, 2);
  EXPECT_EQ(cuts[0].last, 3);
  EXPECT_NEAR(cuts[0].slice.to, (l2 + l3) / shape_data(shape), 1e-12);
  const double l2_kept = kStaticSplitKeptSlope * l3 / (l2 + l3);
  EXPECT_NEAR(cuts[0].slice.kept, l2_kept * l2 / (l2 + l3), 1e-12);
  EXPECT_DOUBLE_EQ(cuts[1].slice.kept, 1);
  EXPECT_EQ(level_cut_layout("rocksdb", cuts[0].first, cuts[0].last), "rocksdb@L2-3");
}

// ... but the base level, rewritten by every L0 compaction, keeps them all.
TEST(LevelCut, StaticBaseLevelAboveTheDeepestKeepsItsNumbers) {
  const LsmOptions o = small_lsm(false, LoadOrder::Shuffled, 60 * kCutMiB);
  const LsmShape shape = lsm_shape(o, [](int) { return 3.0; });
  ASSERT_EQ(shape.deepest(), 2);
  const auto cuts = level_cuts(shape, o);
  ASSERT_EQ(cuts.size(), 2u);
  EXPECT_EQ(cuts[0].first, 2);
  EXPECT_DOUBLE_EQ(cuts[0].slice.kept, 0);
  EXPECT_EQ(cuts[1].first, 1);
  EXPECT_DOUBLE_EQ(cuts[1].slice.kept, 1);
}

// Unpaced flushes of a byte each, every codec 1:1.
UniversalShape unit_universal(int flushes) {
  LsmOptions o;
  o.data_bytes = flushes;
  o.write_buffer = 1 / kMemtableFill;
  return universal_shape(o, UniversalOptions{}, [](int) { return 1.0; });
}

TEST(LevelCut, UniversalRunsAreCutByLevelDeepestFirst) {
  // 8 flushes: L0 [7/8, 1) kept, L5 [4/8, 7/8) kept, L6 [0, 4/8) zeroed.
  const auto cuts = universal_level_cuts(unit_universal(8));
  ASSERT_EQ(cuts.size(), 3u);
  EXPECT_EQ(cuts[0].first, 6);
  EXPECT_DOUBLE_EQ(cuts[0].slice.to, 0.5);
  EXPECT_DOUBLE_EQ(cuts[0].slice.kept, 0);
  EXPECT_EQ(cuts[1].first, 5);
  EXPECT_DOUBLE_EQ(cuts[1].slice.from, 0.5);
  EXPECT_DOUBLE_EQ(cuts[1].slice.kept, 1);
  EXPECT_EQ(cuts[2].first, 0);
  EXPECT_EQ(cuts[2].last, 0);
  EXPECT_DOUBLE_EQ(cuts[2].slice.from, 7 / 8.0);
  EXPECT_DOUBLE_EQ(cuts[2].slice.to, 1);
}

TEST(LevelCut, UniversalL0FilesAreOneCut) {
  // 6 flushes: L6 holds the first 4 (merged at flush 4), L0 flushes 5 and 6 (3 runs, under the
  // trigger), cut as one slice of the newest writes.
  const UniversalShape s = unit_universal(6);
  ASSERT_EQ(s.runs.size(), 3u);
  const auto cuts = universal_level_cuts(s);
  ASSERT_EQ(cuts.size(), 2u);
  EXPECT_EQ(cuts[0].first, 6);
  EXPECT_EQ(cuts[1].first, 0);
  EXPECT_DOUBLE_EQ(cuts[1].slice.from, 4 / 6.0);
  EXPECT_DOUBLE_EQ(cuts[1].slice.to, 1);
  EXPECT_DOUBLE_EQ(cuts[1].slice.kept, 1);
}

TEST(LevelCut, UniversalL0IsTheLastFlushWhenNoneIsLeft) {
  // 4 flushes merge into L6: no L0 file at the end, but flushes were L0 files.
  const auto cuts = universal_level_cuts(unit_universal(4));
  ASSERT_EQ(cuts.size(), 2u);
  EXPECT_EQ(cuts[0].first, 6);
  EXPECT_EQ(cuts[1].first, 0);
  EXPECT_DOUBLE_EQ(cuts[1].slice.from, 0.75);
  EXPECT_DOUBLE_EQ(cuts[1].slice.to, 1);
  EXPECT_DOUBLE_EQ(cuts[1].slice.kept, 1);
}

// A shuffled load's cuts end with the last flush again, its numbers zeroed: a sample beside L0's.
TEST(LevelCut, UniversalZeroedFlushIsASampleBesideL0) {
  const auto cuts = universal_level_cuts(unit_universal(4), true);
  ASSERT_EQ(cuts.size(), 3u);
  EXPECT_EQ(cuts[1].numbers, CutNumbers::Own);
  EXPECT_EQ(cuts[2].numbers, CutNumbers::AllZeroed);
  EXPECT_EQ(cuts[2].first, 0);
  EXPECT_DOUBLE_EQ(cuts[2].slice.from, cuts[1].slice.from);
  EXPECT_DOUBLE_EQ(cuts[2].slice.to, 1);
  EXPECT_DOUBLE_EQ(cuts[2].slice.kept, 0);
}

TEST(LevelCut, LayoutNamesParse) {
  std::string layout;
  int first = -1, last = -1;
  ASSERT_TRUE(parse_level_cut("rocksdb@L2-3", layout, first, last));
  EXPECT_EQ(layout, "rocksdb");
  EXPECT_EQ(first, 2);
  EXPECT_EQ(last, 3);
  ASSERT_TRUE(parse_level_cut(level_cut_layout("rocksdb", 6, 6), layout, first, last));
  EXPECT_EQ(first, 6);
  EXPECT_EQ(last, 6);
  for (const char* bad : {"rocksdb", "rocksdb@L", "rocksdb@L3-2", "rocksdb@Lx", "rocksdb@L3x", "rocksdb@L99"})
    EXPECT_FALSE(parse_level_cut(bad, layout, first, last)) << bad;
  EXPECT_FALSE(is_level_cut("rocksdb"));
  EXPECT_TRUE(is_level_cut("rocksdb@L0"));
  // A sample of every number zeroed or kept: its own name, which only the five-argument parse reads.
  EXPECT_EQ(level_cut_layout("rocksdb", 0, 0, CutNumbers::AllZeroed), "rocksdb@L0z");
  EXPECT_EQ(level_cut_layout("rocksdb", 6, 6, CutNumbers::AllKept), "rocksdb@L6k");
  EXPECT_FALSE(parse_level_cut("rocksdb@L0z", layout, first, last));
  EXPECT_FALSE(parse_level_cut("rocksdb@L6k", layout, first, last));
  CutNumbers numbers = CutNumbers::Own;
  ASSERT_TRUE(parse_level_cut("rocksdb@L0z", layout, first, last, numbers));
  EXPECT_EQ(numbers, CutNumbers::AllZeroed);
  EXPECT_EQ(first, 0);
  ASSERT_TRUE(parse_level_cut("rocksdb@L6k", layout, first, last, numbers));
  EXPECT_EQ(numbers, CutNumbers::AllKept);
  EXPECT_EQ(first, 6);
  ASSERT_TRUE(parse_level_cut("rocksdb@L6", layout, first, last, numbers));
  EXPECT_EQ(numbers, CutNumbers::Own);
  for (const char* bad : {"rocksdb@L6kz", "rocksdb@L6zk", "rocksdb@L6kk", "rocksdb@L6y"})
    EXPECT_FALSE(parse_level_cut(bad, layout, first, last, numbers)) << bad;
  EXPECT_TRUE(is_level_cut("rocksdb@L0z"));
}

}  // namespace
}  // namespace kvz
