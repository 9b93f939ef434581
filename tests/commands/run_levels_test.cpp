// The level cuts `run --workload ...,size=` measures under a RocksDB profile
// (commands/run_levels.h): one block set per level the data reaches, named for its levels, the
// slices together the whole load, and none for another layout or without a size.
#include <gtest/gtest.h>

#include <cstdlib>

#include "blockgen/layouts.h"
#include "blockgen/lsm_sample.h"
#include "blockgen/records.h"
#include "commands/run_levels.h"

namespace kvz {
namespace {

RecordSet cities() {
  const char* root = std::getenv("KVZ_CORPORA");
  std::string error;
  RecordSet set =
      read_corpus(std::string(root ? root : "../shared/corpora") + "/csv/world-cities.csv", "csv", 1 << 20, error);
  EXPECT_EQ(error, "");
  return set;
}

LsmOptions lsm(bool dynamic, LoadOrder order) {
  LsmOptions o;
  o.data_bytes = 8 << 20;  // the records stand for an 8 MiB DB
  o.dynamic = dynamic;
  o.order = order;
  o.num_levels = 5;
  o.multiplier = 4;
  o.level_base = 256 << 10;
  o.write_buffer = 128 << 10;
  o.target_file = 64 << 10;
  return o;
}

uint64_t records_in(const BlockSet& b) {
  uint64_t n = 0;
  for (uint32_t r : b.records_per_block) n += r;
  return n;
}

TEST(RunLevels, ACutPerLevelTogetherTheWholeLoad) {
  const RecordSet set = cities();
  std::vector<BlockSet> cuts;
  std::string error;
  ASSERT_TRUE(cut_lsm_levels(set, "rocksdb", 4096, lsm(true, LoadOrder::Shuffled), cuts, error)) << error;
  ASSERT_GE(cuts.size(), 3u);
  uint64_t records = 0;
  std::string layout;
  int first = 0, last = 0, deepest = -1;
  for (const auto& c : cuts) {
    ASSERT_TRUE(parse_level_cut(c.layout, layout, first, last)) << c.layout;
    EXPECT_EQ(layout, "rocksdb");
    EXPECT_EQ(c.block_size, 4096u);
    EXPECT_EQ(c.source, set.source);
    deepest = std::max(deepest, last);
    records += records_in(c);
  }
  EXPECT_EQ(records, set.records.size());
  EXPECT_EQ(cuts.front().layout, "rocksdb@L" + std::to_string(deepest));  // deepest first
}

// An ascending load's levels are key ranges, the oldest (the first keys) deepest, and the
// deepest's own cut has its numbers zeroed: its first block is the whole set's. Each is cut again
// with its numbers the other way, for the plan whose codecs decide. A shuffled load's deepest
// level spans the whole key range.
TEST(RunLevels, AscendingLevelsAreKeyRangesCutBothWays) {
  const RecordSet set = cities();
  std::vector<BlockSet> shuffled, ascending;
  std::string error;
  ASSERT_TRUE(cut_lsm_levels(set, "rocksdb", 4096, lsm(true, LoadOrder::Shuffled), shuffled, error));
  ASSERT_TRUE(cut_lsm_levels(set, "rocksdb", 4096, lsm(true, LoadOrder::Ascending), ascending, error));
  ASSERT_FALSE(shuffled.empty());
  // Each level below L0 cut twice: its own cut, then the same records with every number the
  // other way (the deepest's kept: "k"; the others' zeroed: "z"); L0's once.
  std::vector<const BlockSet*> own;
  std::string layout;
  int first = 0, last = 0;
  CutNumbers numbers = CutNumbers::Own;
  for (size_t i = 0; i < ascending.size(); ++i) {
    ASSERT_TRUE(parse_level_cut(ascending[i].layout, layout, first, last, numbers)) << ascending[i].layout;
    if (numbers == CutNumbers::Own) {
      own.push_back(&ascending[i]);
      continue;
    }
    ASSERT_FALSE(own.empty());
    const BlockSet& level = *own.back();
    EXPECT_EQ(ascending[i - 1].layout, level.layout);
    EXPECT_EQ(numbers, own.size() == 1 ? CutNumbers::AllKept : CutNumbers::AllZeroed) << ascending[i].layout;
    EXPECT_EQ(records_in(ascending[i]), records_in(level));
    EXPECT_EQ(ascending[i].table_keys.first.front(), level.table_keys.first.front());
    EXPECT_NE(std::string(ascending[i].block(0).begin(), ascending[i].block(0).end()),
              std::string(level.block(0).begin(), level.block(0).end()))
        << ascending[i].layout;  // the numbers differ
  }
  ASSERT_GE(own.size(), 2u);
  EXPECT_EQ(ascending.size(), 2 * own.size() - 1);
  const BlockSet whole = build_blocks(set, "rocksdb", 4096, error);
  EXPECT_EQ(std::string(own.front()->block(0).begin(), own.front()->block(0).end()),
            std::string(whole.block(0).begin(), whole.block(0).end()));
  for (size_t i = 1; i < own.size(); ++i) {
    EXPECT_GT(own[i]->table_keys.first.front(), own[i - 1]->table_keys.last.back()) << own[i]->layout;
  }
  EXPECT_EQ(shuffled.front().table_keys.first.front(), whole.table_keys.first.front());
  EXPECT_EQ(shuffled.front().table_keys.last.back(), whole.table_keys.last.back());
}

// Universal compaction: a cut per level holding a sorted run, deepest (num_levels - 1) first,
// together the whole load (L0's the last flush); none for another layout.
TEST(RunLevels, UniversalRunsAreCutPerLevel) {
  const RecordSet set = cities();
  const LsmOptions o = lsm(true, LoadOrder::Shuffled);
  std::vector<BlockSet> cuts;
  std::string error;
  ASSERT_TRUE(cut_universal_levels(set, "rocksdb", 4096, o, UniversalOptions{}, 0, cuts, error)) << error;
  ASSERT_GE(cuts.size(), 2u);
  EXPECT_EQ(cuts.front().layout, "rocksdb@L" + std::to_string(o.num_levels - 1));
  // The runs below L0 and L0's hold the load; with no run left in L0, the runs below hold it all
  // and L0's cut is the last flush again (the replay prices every flush on it).
  // The zeroed flush is a sample beside them, the last flush again.
  uint64_t below = 0, l0 = 0, zeroed = 0;
  for (const auto& c : cuts)
    (c.layout == "rocksdb@L0" ? l0 : c.layout == "rocksdb@L0z" ? zeroed : below) += records_in(c);
  EXPECT_GT(l0, 0u);
  EXPECT_GT(zeroed, 0u);
  EXPECT_LE(zeroed, l0);
  EXPECT_TRUE(below + l0 == set.records.size() || below == set.records.size()) << below << " + " << l0;
  std::string layout;
  int first = 0, last = 0;
  ASSERT_TRUE(parse_level_cut(cuts[1].layout, layout, first, last));
  EXPECT_LT(last, o.num_levels - 1);
  std::vector<BlockSet> none;
  ASSERT_TRUE(cut_universal_levels(set, "leveldb", 4096, o, UniversalOptions{}, 0, none, error));
  EXPECT_TRUE(none.empty());
}

TEST(RunLevels, NoCutForAnotherLayoutOrWithoutASize) {
  const RecordSet set = cities();
  std::vector<BlockSet> cuts;
  std::string error;
  ASSERT_TRUE(cut_lsm_levels(set, "leveldb", 4096, lsm(true, LoadOrder::Shuffled), cuts, error));
  LsmOptions none = lsm(true, LoadOrder::Shuffled);
  none.data_bytes = 0;
  ASSERT_TRUE(cut_lsm_levels(set, "rocksdb", 4096, none, cuts, error));
  EXPECT_TRUE(cuts.empty());
}

// Level targets are file bytes: the cuts follow each level's ratio (the probe's on its first cut),
// so a compressed base level holds more records than its target's bytes would uncompressed.
TEST(RunLevels, StaticCutsHoldTheirTargetsAtTheirRatio) {
  const RecordSet set = cities();
  const LsmOptions o = lsm(false, LoadOrder::Shuffled);
  std::vector<BlockSet> cuts;
  std::string error;
  ASSERT_TRUE(cut_lsm_levels(set, "rocksdb", 4096, o, cuts, error)) << error;
  ASSERT_GE(cuts.size(), 2u);
  LsmOptions at_whole = o;
  at_whole.block_size = 4096;
  const LsmShape shape = lsm_shape(at_whole, [](int) { return 1.0; });
  std::string layout;
  int first = 0, last = 0;
  for (const auto& c : cuts) {
    ASSERT_TRUE(parse_level_cut(c.layout, layout, first, last));
    if (first != 1) continue;
    const double share = static_cast<double>(records_in(c)) / static_cast<double>(set.records.size());
    EXPECT_GT(share, shape.levels[1].data_bytes / o.data_bytes);
  }
}

}  // namespace
}  // namespace kvz
