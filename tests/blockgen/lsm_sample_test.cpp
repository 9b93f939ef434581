// A level's records (blockgen/lsm_sample.h): the slices of a load partition it, keys sorted,
// sequence numbers as the load gave them; and the rocksdb layout over them is byte-identical to
// what RocksDB 7.8's own flush writes for the same writes.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "blockgen/layouts.h"
#include "blockgen/lsm_sample.h"
#include "blockgen/records.h"
#include "store_tables.h"

namespace kvz {
namespace {

RecordSet auth_log() {
  std::string error;
  RecordSet set = read_corpus(test::corpus_path("logs/auth.log"), "lines", 256 << 10, error);
  EXPECT_EQ(error, "");
  EXPECT_GT(set.records.size(), 1000u);
  return set;
}

// A flush of the whole load holds every write with its number: our blocks are RocksDB's.
TEST(LsmSample, RocksDbFlushDataBlocksMatch) {
  const RecordSet set = auth_log();
  for (const LoadOrder order : {LoadOrder::Shuffled, LoadOrder::Ascending}) {
    const std::vector<size_t> writes = load_order(set.records.size(), order);
    const RecordSet level = level_records(set, writes, {.from = 0, .to = 1, .kept = 1});
    for (size_t size : {size_t{4096}, size_t{16384}}) {
      std::string error, why;
      const BlockSet ours = build_blocks(level, "rocksdb", size, error);
      ASSERT_EQ(error, "");
      std::vector<std::string> theirs;
      ASSERT_TRUE(test::rocksdb_flush_blocks(set, writes, size, theirs, why)) << why;
      ASSERT_EQ(ours.count(), theirs.size());
      for (size_t i = 0; i < theirs.size(); ++i) ASSERT_EQ(test::as_string(ours.block(i)), theirs[i]) << "block " << i;
      // And the numbers matter: the same records with sequence 0 are other bytes.
      const BlockSet zeroed = build_blocks(set, "rocksdb", size, error);
      EXPECT_NE(test::as_string(zeroed.block(0)), theirs[0]);
    }
  }
}

TEST(LsmSample, SlicesPartitionTheLoadOldestFirst) {
  const RecordSet set = auth_log();
  const std::vector<size_t> writes = load_order(set.records.size(), LoadOrder::Shuffled);
  const RecordSet deep = level_records(set, writes, {.from = 0, .to = 0.9, .kept = 1});
  const RecordSet top = level_records(set, writes, {.from = 0.9, .to = 1, .kept = 1});
  EXPECT_EQ(deep.records.size() + top.records.size(), set.records.size());
  std::set<std::string> keys;
  for (const RecordSet* level : {&deep, &top}) {
    EXPECT_TRUE(std::is_sorted(level->records.begin(), level->records.end(),
                               [](const Record& a, const Record& b) { return a.key < b.key; }));
    for (const auto& r : level->records) keys.insert(r.key);
  }
  EXPECT_EQ(keys.size(), set.records.size());
  const uint64_t boundary = deep.records.size();
  EXPECT_LE(*std::max_element(deep.sequences.begin(), deep.sequences.end()), boundary);
  EXPECT_GT(*std::min_element(top.sequences.begin(), top.sequences.end()), boundary);
}

TEST(LsmSample, AscendingLoadsNumberInKeyOrder) {
  const RecordSet set = auth_log();
  const RecordSet level =
      level_records(set, load_order(set.records.size(), LoadOrder::Ascending), {.from = 0.5, .to = 1, .kept = 1});
  ASSERT_FALSE(level.records.empty());
  EXPECT_TRUE(std::is_sorted(level.sequences.begin(), level.sequences.end()));
  EXPECT_EQ(level.records.front().key, set.records[set.records.size() - level.records.size()].key);
}

// A share of kept numbers comes in runs, spread over the level; none kept is all zero.
TEST(LsmSample, KeptShareInRunsOverTheLevel) {
  const RecordSet set = auth_log();
  const std::vector<size_t> writes = load_order(set.records.size(), LoadOrder::Shuffled);
  const RecordSet zeroed = level_records(set, writes, {.from = 0, .to = 1, .kept = 0});
  EXPECT_TRUE(std::all_of(zeroed.sequences.begin(), zeroed.sequences.end(), [](uint64_t s) { return s == 0; }));
  const RecordSet part = level_records(set, writes, {.from = 0, .to = 1, .kept = 0.3});
  const auto n = static_cast<double>(part.sequences.size());
  const auto kept = static_cast<double>(
      std::count_if(part.sequences.begin(), part.sequences.end(), [](uint64_t s) { return s != 0; }));
  EXPECT_NEAR(kept / n, 0.3, 0.05);
  const size_t half = part.sequences.size() / 2;
  const auto first_half = std::count_if(part.sequences.begin(), part.sequences.begin() + static_cast<long>(half),
                                        [](uint64_t s) { return s != 0; });
  EXPECT_NEAR(static_cast<double>(first_half) / kept, 0.5, 0.1);
  for (size_t p = 0; p + 1 < part.sequences.size(); ++p) {
    if (p % kKeptRun != kKeptRun - 1) {
      EXPECT_EQ(part.sequences[p] == 0, part.sequences[p + 1] == 0) << p;
    }
  }
}

TEST(LsmSample, SequenceCountMustMatchRecords) {
  RecordSet set = auth_log();
  set.sequences.assign(3, 1);
  std::string error;
  build_blocks(set, "rocksdb", 4096, error);
  EXPECT_NE(error.find("3 sequence numbers for"), std::string::npos) << error;
}

}  // namespace
}  // namespace kvz
