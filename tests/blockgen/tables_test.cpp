// The layout, dataset and record-mode tables: every row works, and unknown names are errors
// that list the table (never a silent fallback).
#include <gtest/gtest.h>

#include "blockgen/layouts.h"
#include "blockgen/records.h"

namespace kvz {
namespace {

TEST(Tables, EveryLayoutRowBuildsBlocksFromADataset) {
  std::string error;
  const RecordSet records = generate_dataset("dbbench", 1, 64 << 10, error);
  ASSERT_EQ(error, "");
  ASSERT_EQ(layout_table().size(), layout_names().size());
  for (const auto& layout : layout_table()) {
    if (layout.needs_store_file) {  // a dataset is no store file: one line, no blocks
      EXPECT_EQ(build_blocks(records, layout.name, 4096, error).count(), 0u);
      EXPECT_NE(error.find("dbbench is not one"), std::string::npos) << error;
      error.clear();
      continue;
    }
    const BlockSet blocks = build_blocks(records, layout.name, 4096, error);
    EXPECT_EQ(error, "") << layout.name;
    EXPECT_GT(blocks.count(), 0u) << layout.name;
    EXPECT_EQ(blocks.layout, layout.name);
    EXPECT_EQ(find_layout(layout.name), &layout);
    EXPECT_EQ(find_layout(layout.name), &layout);
  }
}

TEST(Tables, UnknownNamesAreErrorsThatListTheTable) {
  std::string error;
  const RecordSet set = generate_dataset("timeserie", 1, 4096, error);  // one letter short
  EXPECT_TRUE(set.records.empty());
  EXPECT_EQ(error,
            "unknown dataset 'timeserie': did you mean 'timeseries'? (expected one of dbbench, mixgraph, cache, "
            "json-docs, timeseries)");
  error.clear();
  generate_dataset("tpcc", 1, 4096, error);  // nothing close: the list alone
  EXPECT_EQ(error, "unknown dataset 'tpcc': expected one of dbbench, mixgraph, cache, json-docs, timeseries");
  error.clear();
  build_blocks(set, "sst", 4096, error);
  EXPECT_EQ(error,
            "unknown layout 'sst': expected one of raw, leveldb, rocksdb, hbase, values, values:single, wiredtiger, "
            "wiredtiger:insert, "
            "as-stored");
  error.clear();
  records_from_bytes("a\nb\n", "x", "xml", {}, error);
  EXPECT_EQ(error, "unknown record mode 'xml' (auto, lines, jsonl, json, csv, tsv, kv, kv-hex, fixed:N, bytes)");
  error.clear();
  records_from_bytes("a\nb\n", "x", "jsnl", {}, error);
  EXPECT_EQ(
      error,
      "unknown record mode 'jsnl': did you mean 'jsonl'? (auto, lines, jsonl, json, csv, tsv, kv, kv-hex, fixed:N, "
      "bytes)");
  EXPECT_EQ(find_dataset("timeserie"), nullptr);
  EXPECT_EQ(find_layout(""), nullptr);
}

TEST(Tables, EveryDatasetRowGeneratesItsOwnRecords) {
  for (const auto& d : dataset_infos()) {
    std::string error;
    const RecordSet set = generate_dataset(d.name, 7, 32 << 10, error);
    EXPECT_EQ(error, "") << d.name;
    EXPECT_EQ(set.source, d.name);
    EXPECT_GE(set.source_bytes, 32u << 10) << d.name;
  }
}

TEST(Tables, RecordModeRowsMatchWhatIsAccepted) {
  for (const auto& m : record_mode_table()) {
    const std::string name = m.name == std::string("fixed:N") ? "fixed:16" : m.name;
    EXPECT_TRUE(is_valid_record_mode(name)) << name;
  }
  EXPECT_FALSE(is_valid_record_mode("fixed:N"));
  EXPECT_FALSE(is_valid_record_mode("fixed:0"));
}

TEST(Tables, UnfitModeFallsBackAlongItsChainAndSaysSo) {
  std::string error;
  const RecordSet set = records_from_bytes("not json\nat all\n", "x", "json", {}, error);
  EXPECT_EQ(error, "");
  EXPECT_EQ(set.record_mode, "lines");
  ASSERT_EQ(set.records.size(), 2u);
  bool json_note = false, jsonl_note = false;
  for (const auto& w : set.warnings) {
    json_note |= w == "json: not one valid JSON document: read as jsonl instead";
    jsonl_note |= w == "jsonl: most lines are not JSON documents: read as lines instead";
  }
  EXPECT_TRUE(json_note);
  EXPECT_TRUE(jsonl_note);
}

}  // namespace
}  // namespace kvz
