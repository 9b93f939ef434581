// RocksDB and LevelDB table files read back (stores/rocksdb/table_file.cpp): files written
// here with librocksdb 7.8's SstFileWriter and libleveldb 1.23's TableBuilder for every codec
// they have, and the real files of shared/fixtures/stores.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <rocksdb/slice_transform.h>

#include "real_stores.h"
#include "store_runs.h"
#include "stores/rocksdb/table_file.h"

namespace kvz {
namespace {

using real_stores::load_records;
using real_stores::TempFile;

using store_runs::fixtures_dir;

void expect_same_records(const std::vector<Record>& got, const std::vector<Record>& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_EQ(got[i].key, want[i].key) << what << " record " << i;
    ASSERT_EQ(got[i].value, want[i].value) << what << " record " << i;
  }
}

// Every codec RocksDB 7.8 has here, with and without a dictionary, at two block sizes: the
// records read back are the records written; the data blocks' bytes and count are the file's
// own (TableProperties); every checksum is verified.
TEST(TableFile, RocksDbFilesReadBackExactly) {
  const RecordSet rs = load_records("json/twitter.json", "auto", 1 << 20);
  ASSERT_GT(rs.records.size(), 50u);
  real_stores::for_each_written_sst(rs, "table", [&rs](const real_stores::WrittenSst& w) {
    const std::string& what = w.what;
    TableFile t;
    std::string error;
    ASSERT_TRUE(read_table_file(w.path, t, error)) << error;
    EXPECT_EQ(t.store, "rocksdb");
    EXPECT_EQ(t.format_version, 5) << what;
    EXPECT_TRUE(t.checksums_verified) << what;
    EXPECT_EQ(t.compression, w.c.codec) << what;
    EXPECT_EQ(t.data_blocks.size(), w.props.num_data_blocks) << what;
    EXPECT_EQ(t.data_bytes(), w.props.data_size) << what;
    EXPECT_EQ(t.dict_bytes > 0, w.c.dict > 0) << what;
    EXPECT_EQ(t.checksum_type, 4) << what;  // RocksDB 7.8's default: XXH3
    expect_same_records(t.records, rs.records, what);
    // A flipped bit in the last data block: its XXH3 checksum names it.
    std::string err;
    auto bytes = real_stores::read_file_bytes(w.path, err);
    std::vector<uint8_t> flipped(bytes.begin(), bytes.end());
    const uint64_t last = t.data_blocks.back().offset;  // `t` is reset by the parse below
    flipped[last + 3] ^= 0x04;
    EXPECT_FALSE(parse_table_file(flipped, "x.sst", t, err));
    EXPECT_EQ(err, fmt::format("x.sst: offset {}: block fails its XXH3 checksum", last)) << what;
  });
}

// Every format_version RocksDB 7.8 writes (1: the older compressed framing, lz4's 8-byte size
// header and zlib without a size; 0 is written as 1), and every index type
// but hash (partitioned into many partitions, and with first keys): records, block count and
// data bytes are the file's own.
TEST(TableFile, EveryFormatVersionAndIndexType) {
  const RecordSet rs = load_records("json/twitter.json", "auto", 256 << 10);
  using IT = rocksdb::BlockBasedTableOptions::IndexType;
  struct Case {
    uint32_t format_version;
    IT index;
  };
  std::vector<Case> cases;
  for (uint32_t fv = 0; fv <= 5; ++fv) cases.push_back({fv, IT::kBinarySearch});
  cases.push_back({5, IT::kTwoLevelIndexSearch});
  cases.push_back({2, IT::kTwoLevelIndexSearch});
  cases.push_back({5, IT::kBinarySearchWithFirstKey});
  cases.push_back({5, IT::kHashSearch});
  for (const Case& c : cases) {
    for (const char* codec : {"none", "snappy", "zlib", "lz4", "lz4hc", "zstd"}) {
      const std::string what =
          fmt::format("format_version {} index {} {}", c.format_version, static_cast<int>(c.index), codec);
      TempFile file(fmt::format("table_fv{}_{}_{}.sst", c.format_version, static_cast<int>(c.index), codec));
      rocksdb::Options options;
      rocksdb::BlockBasedTableOptions table;
      table.format_version = c.format_version;
      table.index_type = c.index;
      table.metadata_block_size = 256;  // many index partitions
      options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
      options.compression = real_stores::rocksdb_type(codec);
      options.prefix_extractor.reset(rocksdb::NewFixedPrefixTransform(4));  // the hash index's prefixes
      rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), options);
      ASSERT_TRUE(writer.Open(file.path).ok()) << what;
      for (const auto& r : rs.records) ASSERT_TRUE(writer.Put(r.key, r.value).ok()) << what;
      rocksdb::Status st = writer.Finish();
      ASSERT_TRUE(st.ok()) << what << ": " << st.ToString();
      rocksdb::SstFileReader reader(options);
      ASSERT_TRUE(reader.Open(file.path).ok()) << what;
      const auto props = reader.GetTableProperties();
      TableFile t;
      std::string error;
      ASSERT_TRUE(read_table_file(file.path, t, error)) << what << ": " << error;
      EXPECT_EQ(t.store, "rocksdb") << what;
      // RocksDB 7.8 writes format_version 1 when 0 is asked (0 is read-only since 7.0).
      EXPECT_EQ(t.format_version, static_cast<int>(std::max(1u, c.format_version))) << what;
      EXPECT_EQ(t.compression, codec) << what;
      EXPECT_EQ(t.data_blocks.size(), props->num_data_blocks) << what;
      EXPECT_EQ(t.data_bytes(), props->data_size) << what;
      if (c.index == IT::kTwoLevelIndexSearch) {
        EXPECT_GT(props->index_partitions, 1u) << what;
      }
      expect_same_records(t.records, rs.records, what);
    }
  }
}

TEST(TableFile, LevelDbTablesReadBackExactly) {
  const RecordSet rs = load_records("logs/apache_access_logs.log", "lines", 1 << 20);
  for (bool snappy : {false, true}) {
    TempFile file(snappy ? "table_leveldb_snappy.ldb" : "table_leveldb_none.ldb");
    ASSERT_GT(real_stores::write_leveldb_table(rs, snappy, 4096, file.path), 0u);
    TableFile t;
    std::string error;
    ASSERT_TRUE(read_table_file(file.path, t, error)) << error;
    EXPECT_EQ(t.store, "leveldb");
    EXPECT_EQ(t.compression, snappy ? "snappy" : "none");
    expect_same_records(t.records, rs.records, snappy ? "leveldb snappy" : "leveldb none");
    const auto real = real_stores::leveldb_real(rs, snappy, 4096);
    EXPECT_EQ(t.data_blocks.size(), real.blocks);
    EXPECT_EQ(t.data_bytes(), real.bytes);
  }
}

// The fixtures (written by RocksDB's SstFileWriter and C++ LevelDB for other projects' tests):
// the counts their MANIFEST and README state. The pebble files' properties say 1727 entries: 17
// of them are range deletions, kept in their own meta block, not in the data blocks.
TEST(TableFile, FixtureFilesReadWithTheirStatedCounts) {
  struct Set {
    const char* file;
    size_t blocks, raw_blocks, records;
    const char* codec;
  };
  const Set sets[] = {
      {"rocksdb/pebble_h_snappy/h.sst", 14, 0, 1710, "snappy"},
      {"rocksdb/pebble_h_zstd/h.zstd-compression.sst", 14, 0, 1710, "zstd"},
      {"rocksdb/pebble_h_none/h.no-compression.sst", 14, 14, 1710, "none"},
      {"rocksdb/pebble_h_table_bloom_snappy/h.table-bloom.sst", 14, 0, 1710, "snappy"},
      {"leveldb/golang_h_snappy/h.ldb", 4, 1, 0, "snappy"},
      {"leveldb/golang_h_none/h.no-compression.ldb", 4, 4, 0, "none"},
      {"leveldb/dfindexeddb_100k_keys/000005.ldb", 566, 1, 0, "snappy"},
  };
  std::vector<Record> pebble;
  for (const auto& set : sets) {
    TableFile t;
    std::string error;
    ASSERT_TRUE(read_table_file((fixtures_dir() / set.file).string(), t, error)) << error;
    EXPECT_EQ(t.data_blocks.size(), set.blocks) << set.file;
    size_t raw = 0;
    for (const auto& b : t.data_blocks) raw += b.compression == 0;
    EXPECT_EQ(raw, set.raw_blocks) << set.file;
    EXPECT_EQ(t.compression, set.codec) << set.file;
    if (set.records) {
      EXPECT_EQ(t.records.size(), set.records) << set.file;
      if (pebble.empty()) pebble = t.records;
      expect_same_records(t.records, pebble, set.file);  // the same keys in every codec
    }
    std::printf("%-50s %-8s %s fv%d: %zu data blocks (%zu raw), %llu bytes, %zu records, %llu skipped\n", set.file,
                t.compression.c_str(), t.store.c_str(), t.format_version, t.data_blocks.size(), raw,
                static_cast<unsigned long long>(t.data_bytes()), t.records.size(),
                static_cast<unsigned long long>(t.skipped_entries));
  }
}

TEST(TableFile, BadInputNamesTheOffset) {
  const std::string path = (fixtures_dir() / "rocksdb/pebble_h_snappy/h.sst").string();
  std::string error;
  auto bytes = real_stores::read_file_bytes(path, error);
  ASSERT_TRUE(error.empty()) << error;
  std::vector<uint8_t> file(bytes.begin(), bytes.end());
  ASSERT_GT(file.size(), 53u);
  TableFile t;
  ASSERT_TRUE(parse_table_file(file, "h.sst", t, error)) << error;
  const uint64_t second = t.data_blocks[1].offset;
  auto flipped = file;
  flipped[second + 10] ^= 0x01;
  EXPECT_FALSE(parse_table_file(flipped, "h.sst", t, error));
  EXPECT_EQ(error, fmt::format("h.sst: offset {}: block fails its CRC32C checksum", second));
  auto magic = file;
  magic[magic.size() - 1] ^= 0xFF;
  EXPECT_FALSE(parse_table_file(magic, "h.sst", t, error));
  EXPECT_EQ(error, fmt::format("h.sst: offset {}: no table footer: the last 8 bytes are neither LevelDB's nor "
                               "RocksDB's table magic (a truncated table?)",
                               file.size() - 8));
  const std::vector<uint8_t> cut(file.begin(), file.begin() + static_cast<long>(file.size() / 2));
  EXPECT_FALSE(parse_table_file(cut, "h.sst", t, error));
  EXPECT_EQ(error.rfind("h.sst: offset ", 0), 0u) << error;
}

}  // namespace
}  // namespace kvz
