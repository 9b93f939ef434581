// Every built leveldb/rocksdb/hbase/values/raw block parses back into exactly the records
// it was built from, in order, with nothing lost or added.
#include <gtest/gtest.h>

#include "block_parsers.h"
#include "blockgen/layouts.h"
#include "blockgen/records.h"

namespace kvz {
namespace {

std::vector<RecordSet> inputs() {
  std::vector<RecordSet> sets;
  std::string error;
  for (const char* d : {"dbbench", "mixgraph", "cache", "json-docs", "timeseries"}) {
    sets.push_back(generate_dataset(d, 3, 256 << 10, error));
    EXPECT_EQ(error, "");
  }
  for (const char* c : {"csv/world-cities.csv", "csv/geonames_US_postal.tsv", "json/twitter.json", "logs/auth.log"}) {
    sets.push_back(read_corpus(test::corpus_path(c), "auto", 256 << 10, error));
    EXPECT_EQ(error, "") << c;
  }
  return sets;
}

TEST(BlockReaders, LevelDbAndRocksDbBlocksDecodeToTheRecords) {
  for (const auto& set : inputs()) {
    ASSERT_FALSE(set.records.empty()) << set.source;
    for (const char* layout : {"leveldb", "rocksdb"}) {
      std::string error;
      const BlockSet b = build_blocks(set, layout, 4096, error);
      ASSERT_EQ(error, "");
      std::vector<test::Entry> entries;
      for (size_t i = 0; i < b.count(); ++i) {
        const size_t before = entries.size();
        ASSERT_TRUE(test::parse_prefix_block(test::as_string(b.block(i)), entries))
            << set.source << " " << layout << " block " << i;
        EXPECT_EQ(entries.size() - before, b.records_per_block[i]);
      }
      ASSERT_EQ(entries.size(), set.records.size()) << set.source << " " << layout;
      const std::string suffix = std::string(layout) == "rocksdb" ? std::string("\x01\0\0\0\0\0\0\0", 8) : "";
      for (size_t i = 0; i < entries.size(); ++i) {
        ASSERT_EQ(entries[i].first, set.records[i].key + suffix) << set.source << " " << layout << " #" << i;
        ASSERT_EQ(entries[i].second, set.records[i].value) << set.source << " " << layout << " #" << i;
      }
      EXPECT_EQ(b.composition.records, set.records.size());
      EXPECT_EQ(b.composition.key_bytes + b.composition.value_bytes + b.composition.overhead_bytes, b.total_bytes());
    }
  }
}

TEST(BlockReaders, HBaseCellsDecodeToTheRecords) {
  for (const auto& set : inputs()) {
    std::string error;
    const BlockSet b = build_blocks(set, "hbase", 4096, error);
    ASSERT_EQ(error, "");
    std::vector<test::Cell> cells;
    for (size_t i = 0; i < b.count(); ++i) {
      ASSERT_TRUE(test::parse_hbase_block(test::as_string(b.block(i)), cells)) << set.source << " block " << i;
      // HFileWriterImpl's rule: a block is only cut once it reached the target size.
      if (i + 1 < b.count()) {
        EXPECT_GE(b.block(i).size(), 4096u);
      }
    }
    size_t c = 0;
    std::vector<std::string> fields;
    for (const auto& r : set.records) {
      if (set.field_separator) {
        split_fields(r.value, set.field_separator, fields);
      } else {
        fields = {r.value};
      }
      for (size_t f = 0; f < fields.size(); ++f, ++c) {
        ASSERT_LT(c, cells.size()) << set.source;
        EXPECT_EQ(cells[c].row, r.key);
        EXPECT_EQ(cells[c].family, "cf");
        EXPECT_EQ(cells[c].qualifier, set.field_separator ? value_column_name(set, f) : "v");
        EXPECT_EQ(cells[c].value, fields[f]);
        EXPECT_EQ(cells[c].type, 4);
      }
    }
    EXPECT_EQ(c, cells.size()) << set.source;
    EXPECT_EQ(b.composition.key_bytes + b.composition.value_bytes + b.composition.overhead_bytes, b.total_bytes());
  }
}

TEST(BlockReaders, TimeseriesRowsBecomeOneCellPerChannel) {
  std::string error;
  const RecordSet set = generate_dataset("timeseries", 1, 64 << 10, error);
  const BlockSet b = build_blocks(set, "hbase", 65536, error);
  std::vector<test::Cell> cells;
  ASSERT_TRUE(test::parse_hbase_block(test::as_string(b.block(0)), cells));
  ASSERT_GE(cells.size(), 15u);
  EXPECT_EQ(cells[0].qualifier, "power1");
  EXPECT_EQ(cells[14].qualifier, "appliance10");
  EXPECT_EQ(cells[0].row, cells[14].row);
  EXPECT_NE(cells[0].row, cells[15].row);
}

TEST(BlockReaders, ValuesAndRawConcatenateExactly) {
  for (const auto& set : inputs()) {
    std::string error, values, blocks;
    for (const auto& r : set.records) values += r.value;
    const BlockSet v = build_blocks(set, "values", 16384, error);
    for (size_t i = 0; i < v.count(); ++i) blocks += test::as_string(v.block(i));
    EXPECT_EQ(blocks, values) << set.source;

    const BlockSet single = build_blocks(set, "values:single", 0, error);
    ASSERT_EQ(error, "");
    size_t nonempty = 0, k = 0;
    for (const auto& r : set.records) {
      if (r.value.empty()) continue;
      ++nonempty;
      ASSERT_EQ(test::as_string(single.block(k++)), r.value);
    }
    EXPECT_EQ(single.count(), nonempty);

    const BlockSet raw = build_blocks(set, "raw", 4096, error);
    std::string joined;
    for (size_t i = 0; i < raw.count(); ++i) {
      if (i + 1 < raw.count()) {
        EXPECT_EQ(raw.block(i).size(), 4096u);
      }
      joined += test::as_string(raw.block(i));
    }
    if (!set.raw.empty()) {  // corpus: the file bytes as sampled
      EXPECT_EQ(joined, std::string(set.raw.begin(), set.raw.end())) << set.source;
    } else {
      std::string kv;
      for (const auto& r : set.records) kv += r.key + r.value;
      EXPECT_EQ(joined, kv) << set.source;
    }
  }
}

}  // namespace
}  // namespace kvz
