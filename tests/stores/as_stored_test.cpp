// A store file's own blocks (layout "as-stored") and its codec as the baseline row: for tables
// written here with librocksdb 7.8 and libleveldb 1.23 for every codec they have (with and
// without a dictionary), and for the real Cassandra, ScyllaDB and HBase files of
// shared/fixtures/stores, the current-codec row kvzbench measures stores exactly the file's
// data bytes, block for block.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "bench/engine.h"
#include "blockgen/layouts.h"
#include "blockgen/source_registry.h"
#include "commands/run_plan.h"
#include "real_stores.h"
#include "store_runs.h"
#include "stores/rocksdb/table_file.h"

namespace kvz {
namespace {

namespace fs = std::filesystem;
using real_stores::load_records;
using real_stores::TempFile;

using store_runs::fixtures_dir;

TEST(AsStored, RocksDbCurrentRowIsTheFilesDataBytes) {
  const RecordSet rs = load_records("json/twitter.json", "auto", 1 << 20);
  real_stores::for_each_written_sst(rs, "as_stored", [](const real_stores::WrittenSst& w) {
    const std::string& what = w.what;
    TableFile t;
    std::string error;
    ASSERT_TRUE(read_table_file(w.path, t, error)) << error;
    std::string label;
    const CellResult cur = store_runs::current_row(w.path, label);
    EXPECT_EQ(label, w.c.row) << what;
    EXPECT_EQ(cur.status, CellStatus::Ok) << what << ": " << cur.failure;
    EXPECT_EQ(cur.blocks, w.props.num_data_blocks) << what;
    const uint64_t dict_block = w.c.dict ? t.dict_bytes : 0;
    ASSERT_TRUE(cur.on_disk_bytes.has_value()) << what;
    EXPECT_EQ(*cur.on_disk_bytes, w.props.data_size + dict_block) << what;
    EXPECT_EQ(cur.stored_bytes, w.props.data_size + dict_block) << what << ": the current row is the file's bytes";
    EXPECT_EQ(cur.key.layout, "as-stored");
    EXPECT_EQ(cur.key.profile, "rocksdb");
  });
}

TEST(AsStored, LevelDbCurrentRowIsTheFilesDataBytes) {
  const RecordSet rs = load_records("logs/apache_access_logs.log", "auto", 1 << 20);
  for (bool snappy : {false, true}) {
    const auto real = real_stores::leveldb_real(rs, snappy, 4096);
    // leveldb_real removes its file: write the same table again to read it.
    TempFile file(std::string("as_stored_") + (snappy ? "snappy" : "none") + ".ldb");
    ASSERT_GT(real_stores::write_leveldb_table(rs, snappy, 4096, file.path), 0u);
    std::string label;
    const CellResult cur = store_runs::current_row(file.path, label);
    EXPECT_EQ(label, snappy ? "snappy 0" : "memcpy 0");
    EXPECT_EQ(cur.blocks, real.blocks);
    EXPECT_EQ(cur.stored_bytes, real.bytes) << (snappy ? "snappy" : "none");
    EXPECT_EQ(cur.on_disk_bytes.value_or(0), real.bytes);
  }
}

// The real files: the current row's file bytes are the Data.db size (every chunk and its
// checksum) or the HFile's data blocks; measured, they are the same bytes where the store's
// compressor and Debian's library agree (tests/stores/sstable_fixtures_test.cpp has the rest).
TEST(AsStored, FixtureFilesTheirOwnCodecFirst) {
  struct Set {
    const char* file;
    const char* row;
    const char* profile;
  };
  const std::vector<Set> sets = {
      {"cassandra/legacy_nb_clust/nb-1-big-Data.db", "lz4 1", "cassandra"},
      {"scylladb/zstd-pk_different_types-mc/mc-1-big-Data.db", "zstd 1:fresh",
       "cassandra"},  // its level, zstd-jni's call
      {"scylladb/deflate-pk_different_types-mc/mc-1-big-Data.db", "zlib 6:zlib", "cassandra"},
      {"hbase/hudi_1_0_hbase_2_4_9_16KB_GZ_20000/hudi_1_0_hbase_2_4_9_16KB_GZ_20000.hfile", "zlib 6:zlib", "hbase"},
  };
  for (const auto& s : sets) {
    const std::string path = (fixtures_dir() / s.file).string();
    ASSERT_TRUE(fs::exists(path)) << path;
    std::string label;
    const CellResult cur = store_runs::current_row(path, label);
    EXPECT_EQ(label, s.row) << s.file;
    EXPECT_EQ(cur.key.profile, s.profile) << s.file;
    ASSERT_TRUE(cur.on_disk_bytes.has_value()) << s.file;
    if (std::string(s.file).find("Data.db") != std::string::npos) {
      EXPECT_EQ(*cur.on_disk_bytes, fs::file_size(path)) << s.file;
    }
    EXPECT_EQ(cur.stored_bytes, *cur.on_disk_bytes) << s.file;
  }
}

TEST(AsStored, RefusedForACorpusFileAndUnderAnotherStoresProfile) {
  RecordSet rs;
  rs.source = "notes.txt";
  rs.raw = {'a', 'b'};
  std::string error;
  build_blocks(rs, "as-stored", 4096, error);
  EXPECT_EQ(error,
            "layout as-stored takes a store file (an SST/LDB table, a *-Data.db, an HFile): notes.txt is not "
            "one (use raw or a record layout)");
  const std::string data_db = (fixtures_dir() / "cassandra/legacy_nb_clust/nb-1-big-Data.db").string();
  RecordSet cass;
  ASSERT_TRUE(SourceRegistry::global().read(data_db, 0, cass, error)) << error;
  cass.source = "nb-1-big-Data.db";
  error.clear();
  BlockSet blocks = build_blocks(cass, "as-stored", 4096, error);
  RunPlan plan;
  plan.store = find_store_profile("rocksdb");
  BlockGroup group;
  std::vector<std::string> warnings;
  EXPECT_FALSE(make_group(plan, std::move(blocks), CodecRegistry::instance(), group, warnings, error));
  EXPECT_EQ(error,
            "nb-1-big-Data.db is a cassandra file: --profile rocksdb cannot frame its own blocks (-l as-stored); drop "
            "--profile");
}

}  // namespace
}  // namespace kvz
