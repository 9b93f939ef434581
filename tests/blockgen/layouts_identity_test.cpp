// The leveldb and rocksdb layouts must be byte-identical to the data blocks the stores' own
// table builders write for the same records (compression off), on real corpora and datasets.
#include <gtest/gtest.h>

#include "blockgen/layouts.h"
#include "blockgen/records.h"
#include "store_tables.h"

namespace kvz {
namespace {

struct Input {
  std::string name;  // corpus path under KVZ_CORPORA, or "dataset:<name>"
  std::string mode;
  size_t max_bytes = 512 << 10;  // samples keep the test fast and exercise the sampler
};

RecordSet load(const Input& in) {
  std::string error;
  RecordSet set;
  if (in.name.rfind("dataset:", 0) == 0) {
    set = generate_dataset(in.name.substr(8), 7, 512 << 10, error);
  } else {
    set = read_corpus(test::corpus_path(in.name), in.mode, in.max_bytes, error);
  }
  EXPECT_EQ(error, "") << in.name;
  EXPECT_FALSE(set.records.empty()) << in.name;
  return set;
}

const std::vector<Input> kInputs = {
    {"json/twitter.json", "auto", 1 << 20},
    {"csv/world-cities.csv", "auto"},
    {"logs/auth.log", "lines"},
    {"json/elasticoffee-data.bulk.ndjson", "jsonl"},
    {"sql/chinook-mysql.sql", "lines"},
    {"snappy/geo.protodata", "fixed:100"},
    {"dataset:dbbench", ""},
    {"dataset:mixgraph", ""},
    {"dataset:json-docs", ""},
    {"dataset:cache", ""},
};
const std::vector<size_t> kSizes = {1024, 4096, 16384, 65536};

void expect_same_blocks(const BlockSet& ours, const std::vector<std::string>& theirs, const std::string& what) {
  ASSERT_EQ(ours.count(), theirs.size()) << what;
  for (size_t i = 0; i < theirs.size(); ++i) {
    ASSERT_EQ(test::as_string(ours.block(i)), theirs[i]) << what << " block " << i;
  }
}

TEST(LayoutIdentity, LevelDbTableBuilderDataBlocksMatch) {
  for (const auto& in : kInputs) {
    const RecordSet set = load(in);
    for (size_t size : kSizes) {
      std::string error, why;
      const BlockSet ours = build_blocks(set, "leveldb", size, error);
      ASSERT_EQ(error, "");
      std::vector<std::string> theirs;
      ASSERT_TRUE(test::leveldb_data_blocks(set, size, theirs, why)) << why;
      expect_same_blocks(ours, theirs, in.name + " @" + std::to_string(size));
    }
  }
}

TEST(LayoutIdentity, RocksDbSstFileWriterDataBlocksMatch) {
  for (const auto& in : kInputs) {
    const RecordSet set = load(in);
    for (size_t size : kSizes) {
      std::string error, why;
      const BlockSet ours = build_blocks(set, "rocksdb", size, error);
      ASSERT_EQ(error, "");
      std::vector<std::string> theirs;
      uint64_t reported = 0;
      ASSERT_TRUE(test::rocksdb_data_blocks(set, size, theirs, reported, why)) << why;
      EXPECT_EQ(reported, theirs.size()) << "table properties disagree with the index";
      expect_same_blocks(ours, theirs, in.name + " @" + std::to_string(size));
    }
  }
}

// A record larger than the block: both stores emit one oversized block for it.
TEST(LayoutIdentity, OversizedRecordMatchesBothStores) {
  RecordSet set;
  set.records = {{"a", std::string(100, 'x')}, {"b", std::string(5000, 'y')}, {"c", "z"}};
  for (const char* layout : {"leveldb", "rocksdb"}) {
    std::string error, why;
    const BlockSet ours = build_blocks(set, layout, 1024, error);
    ASSERT_EQ(error, "");
    std::vector<std::string> theirs;
    uint64_t reported = 0;
    const bool ok = std::string(layout) == "leveldb" ? test::leveldb_data_blocks(set, 1024, theirs, why)
                                                     : test::rocksdb_data_blocks(set, 1024, theirs, reported, why);
    ASSERT_TRUE(ok) << why;
    expect_same_blocks(ours, theirs, layout);
    bool has_oversized = false;
    for (size_t i = 0; i < ours.count(); ++i) has_oversized |= ours.block(i).size() > 5000;
    EXPECT_TRUE(has_oversized) << layout;
  }
}

}  // namespace
}  // namespace kvz
