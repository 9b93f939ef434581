// The table a store file belongs to (stores/shared/table_name.h), as a run records it: real
// store files laid out the way each store lays out its data directory, read through the
// registry, which fills StoredOrigin::table.
#include <gtest/gtest.h>
#include <rocksdb/db.h>
#include <rocksdb/options.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "blockgen/source_registry.h"
#include "stores/shared/table_name.h"
#include "tests/stores/real_wiredtiger.h"

namespace kvz {
namespace {

namespace fs = std::filesystem;

const fs::path kFixtures = fs::path(KVZ_SOURCE_DIR) / ".." / "shared" / "fixtures" / "stores";

struct ScratchDir {
  fs::path path = fs::temp_directory_path() / ("kvz_table_name_" + std::to_string(::getpid()));
  ScratchDir() { fs::create_directories(path); }
  ~ScratchDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

// Copies every file of a fixture set into `dir` (made as needed); returns `dir`.
fs::path copy_set(const fs::path& set, const fs::path& dir) {
  fs::create_directories(dir);
  for (const auto& e : fs::directory_iterator(set)) fs::copy_file(e.path(), dir / e.path().filename());
  return dir;
}

// The table the registry's reader records for `path`.
std::string table_read(const fs::path& path) {
  RecordSet set;
  std::string error;
  EXPECT_TRUE(SourceRegistry::global().read(path.string(), 0, set, error)) << error;
  return set.origin.table;
}

std::string absolute_dir(const fs::path& p) { return fs::absolute(p).lexically_normal().parent_path().string(); }

TEST(TableName, CassandraTableDirectoryNamesKeyspaceAndTable) {
  ScratchDir tmp;
  const fs::path dir = tmp.path / "data" / "ks" / "events-5a1c395e0b4511efa8e7a1b2c3d4e5f6";
  copy_set(kFixtures / "cassandra" / "legacy_nb_clust", dir);
  EXPECT_EQ(table_read(dir / "nb-1-big-Data.db"), "ks.events");
  // ScyllaDB keeps Cassandra's directory layout.
  const fs::path scylla = tmp.path / "scylla" / "shop" / "orders-00000000000000000000000000000001";
  copy_set(kFixtures / "scylladb" / "lz4-scylla_written-cdc_generation_descriptions_v2-me", scylla);
  for (const auto& e : fs::directory_iterator(scylla)) {
    if (e.path().string().ends_with("-Data.db")) {
      EXPECT_EQ(table_read(e.path()), "shop.orders");
    }
  }
}

TEST(TableName, CassandraElsewhereFallsBackToTheFilesDirectory) {
  const fs::path data = kFixtures / "cassandra" / "legacy_nb_clust" / "nb-1-big-Data.db";
  EXPECT_EQ(table_read(data), absolute_dir(data));
}

TEST(TableName, HBaseDataPathNamesNamespaceTableAndFamily) {
  ScratchDir tmp;
  const fs::path family = tmp.path / "hbase" / "data" / "default" / "usertable" / "0f5e4d3c2b1a" / "cf";
  copy_set(kFixtures / "hbase" / "hudi_1_0_hbase_2_4_9_16KB_GZ_20000", family);
  EXPECT_EQ(table_read(family / "hudi_1_0_hbase_2_4_9_16KB_GZ_20000.hfile"), "default:usertable/cf");
  const fs::path loose =
      kFixtures / "hbase" / "hudi_1_0_hbase_2_4_9_16KB_NONE_5000" / "hudi_1_0_hbase_2_4_9_16KB_NONE_5000.hfile";
  EXPECT_EQ(table_read(loose), absolute_dir(loose));
}

TEST(TableName, LevelDbIsItsDirectory) {
  ScratchDir tmp;
  const fs::path db = copy_set(kFixtures / "leveldb" / "golang_h_snappy", tmp.path / "db");
  EXPECT_EQ(table_read(db / "h.ldb"), absolute_dir(db / "h.ldb"));
}

// A real RocksDB 7.8 DB with a column family "events": its SST carries the family's name.
TEST(TableName, RocksDbIsTheDbDirectoryAndColumnFamily) {
  ScratchDir tmp;
  const fs::path db_dir = tmp.path / "rocks";
  rocksdb::Options options;
  options.create_if_missing = true;
  rocksdb::DB* raw = nullptr;
  ASSERT_TRUE(rocksdb::DB::Open(options, db_dir.string(), &raw).ok());
  std::unique_ptr<rocksdb::DB> db(raw);
  rocksdb::ColumnFamilyHandle* events = nullptr;
  ASSERT_TRUE(db->CreateColumnFamily(rocksdb::ColumnFamilyOptions(), "events", &events).ok());
  for (int i = 0; i < 1000; ++i)
    ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), events, "key" + std::to_string(i), std::string(100, 'v')).ok());
  ASSERT_TRUE(db->Flush(rocksdb::FlushOptions(), events).ok());
  ASSERT_TRUE(db->DestroyColumnFamilyHandle(events).ok());
  db.reset();
  std::vector<fs::path> ssts;
  for (const auto& e : fs::directory_iterator(db_dir))
    if (e.path().extension() == ".sst") ssts.push_back(e.path());
  ASSERT_EQ(ssts.size(), 1u);
  EXPECT_EQ(table_read(ssts[0]), absolute_dir(ssts[0]) + ":events");
  // A file with no family name (pebble's SstFileWriter fixtures): the directory alone.
  const fs::path pebble = kFixtures / "rocksdb" / "pebble_h_zstd" / "h.zstd-compression.sst";
  const std::string name = table_read(pebble);
  EXPECT_TRUE(name == absolute_dir(pebble) || name.starts_with(absolute_dir(pebble) + ":")) << name;
}

TEST(TableName, WiredTigerFileIsItsTable) {
  ScratchDir tmp;
  const std::vector<Record> records = {{"a", std::string(200, 'x')}, {"b", std::string(200, 'y')}};
  ASSERT_EQ(real_wiredtiger::write_table((tmp.path / "wt").string(), records, "none", 4096), "");
  EXPECT_EQ(table_read(tmp.path / "wt" / "x.wt"), "table:x");
  EXPECT_EQ(wiredtiger_table_name("/data/db/collection-7--123.wt"), "table:collection-7--123");
}

}  // namespace
}  // namespace kvz
