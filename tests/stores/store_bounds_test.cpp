// Store readers with bounds (issue 24): --max-bytes stops the decoding of a real RocksDB table,
// WiredTiger file and HFile early while the counts stay the file's; crafted bombs
// (tests/stores/store_bombs.py) are refused naming the file and offset; companion files that
// are a FIFO or a device are refused without blocking; empty store files are errors.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include <fmt/format.h>

#include "blockgen/source_registry.h"
#include "real_stores.h"
#include "real_wiredtiger.h"
#include "store_runs.h"
#include "stores/cassandra/sstable_data.h"
#include "stores/hbase/hfile.h"
#include "stores/rocksdb/table_file.h"
#include "stores/shared/file_bytes.h"
#include "stores/wiredtiger/wt_file.h"

namespace kvz {
namespace {

namespace fs = std::filesystem;

// A fresh directory for one test, removed after it.
struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& tag)
      : path(fs::temp_directory_path() / fmt::format("kvz_bounds_{}_{}", ::getpid(), tag)) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

// The first `n` records of `cut` are those of `whole`, in order.
void expect_prefix(const std::vector<Record>& cut, const std::vector<Record>& whole) {
  ASSERT_LE(cut.size(), whole.size());
  for (size_t i = 0; i < cut.size(); ++i) ASSERT_EQ(cut[i].key, whole[i].key) << "record " << i;
}

TEST(StoreBounds, RocksdbTableStopsAtMaxBytesWithTheFilesCounts) {
  const RecordSet rs = real_stores::load_records("logs/apache_access_logs.log", "auto", 1 << 20);
  TempDir dir("sst");
  const std::string path = (dir.path / "t.sst").string();
  rocksdb::Options options;
  real_stores::write_sst(rs, "snappy", 4096, 0, path, options);
  TableFile whole, cut;
  std::string error;
  ASSERT_TRUE(read_table_file(path, whole, error)) << error;
  ASSERT_TRUE(read_table_file(path, cut, error, 16 << 10)) << error;
  ASSERT_GT(whole.data_blocks.size(), 10u);
  EXPECT_EQ(whole.blocks_total, whole.data_blocks.size());
  EXPECT_EQ(whole.on_disk_total, whole.data_bytes());
  EXPECT_FALSE(whole.cut());
  // Whole blocks until 16 KiB of raw bytes: 4 or 5 blocks of ~4 KiB, not all of them.
  EXPECT_TRUE(cut.cut());
  EXPECT_GE(cut.data_blocks.size(), 4u);
  EXPECT_LE(cut.data_blocks.size(), 5u);
  EXPECT_EQ(cut.blocks_total, whole.blocks_total);
  EXPECT_EQ(cut.on_disk_total, whole.on_disk_total);
  EXPECT_LT(cut.records.size(), whole.records.size());
  expect_prefix(cut.records, whole.records);
  // As a source: the detail names the file's blocks and the ones read.
  RecordSet set;
  ASSERT_TRUE(SourceRegistry::global().read(path, 16 << 10, set, error)) << error;
  EXPECT_NE(set.detail.find(fmt::format("{} data blocks, {} bytes on disk (the first {},", whole.blocks_total,
                                        whole.on_disk_total, cut.data_blocks.size())),
            std::string::npos)
      << set.detail;
  EXPECT_EQ(set.source_bytes, std::max<uint64_t>(fs::file_size(path), 16 << 10));
}

TEST(StoreBounds, WiredTigerWalkStopsAtMaxBytes) {
  const RecordSet rs = real_stores::load_records("logs/apache_access_logs.log", "auto", 1 << 20);
  TempDir dir("wt");
  ASSERT_EQ(real_wiredtiger::write_table(dir.path.string(), rs.records, "snappy", 8192), "");
  const std::string path = (dir.path / "x.wt").string();
  WtFile whole, cut;
  std::string error;
  ASSERT_TRUE(read_wt_file(path, whole, error)) << error;
  ASSERT_TRUE(read_wt_file(path, cut, error, 16 << 10)) << error;
  ASSERT_GT(whole.leaves.size(), 4u);
  EXPECT_FALSE(whole.cut);
  EXPECT_TRUE(cut.cut);
  EXPECT_LT(cut.leaves.size(), whole.leaves.size());
  EXPECT_GE(cut.leaves.size(), 1u);
  expect_prefix(cut.records, whole.records);
  uint64_t kept = 0;
  for (const auto& r : cut.records) kept += r.key.size() + r.value.size();
  EXPECT_GE(kept, 16u << 10);
  EXPECT_LT(kept, (16u << 10) + 8192 * 2);  // the walk stopped at the leaf that filled the sample
}

TEST(StoreBounds, HfileStopsAtTheDataBlockAfterMaxBytes) {
  const auto path = store_runs::fixtures_dir() / "hbase/hudi_1_0_hbase_2_4_9_16KB_GZ_20000" /
                    "hudi_1_0_hbase_2_4_9_16KB_GZ_20000.hfile";
  Hfile whole, cut;
  std::string error;
  ASSERT_TRUE(read_hfile(path.string(), whole, error)) << error;
  ASSERT_TRUE(read_hfile(path.string(), cut, error, 40 << 10)) << error;
  EXPECT_FALSE(whole.cut);
  EXPECT_EQ(whole.data_blocks(), 72u);
  EXPECT_TRUE(cut.cut);
  EXPECT_EQ(cut.data_blocks(), 3u);  // 16 KiB blocks: the third passes 40 KiB
  std::vector<Record> whole_cells, cut_cells;
  ASSERT_TRUE(hfile_records(whole, whole_cells));
  ASSERT_TRUE(hfile_records(cut, cut_cells));
  EXPECT_EQ(whole_cells.size(), 20000u);
  EXPECT_GT(cut_cells.size(), 0u);
  expect_prefix(cut_cells, whole_cells);
}

// The crafted files: each refused with the file, the offset and what is wrong.
TEST(StoreBounds, CraftedBombsAreRefusedNamingFileAndOffset) {
  TempDir dir("bombs");
  const std::string gen = std::string(KVZ_SOURCE_DIR) + "/tests/stores/store_bombs.py";
  ASSERT_EQ(std::system(("python3 " + gen + " " + dir.path.string()).c_str()), 0);
  const std::pair<const char*, const char*> cases[] = {
      {"wt_big_page.wt", ": offset 512: a page declaring 536870912 bytes in memory"},
      {"wt_zlib_ratio.wt", "bytes declaring 62914560 bytes in memory"},
      {"wt_shared.wt", ": offset 512: a page referenced twice (a shared child or a cycle)"},
      {"sst_repeat.sst", ": offset 0: a data block named twice"},
      {"sst_snappy_ratio.sst", ": offset 0: a snappy block of 36 bytes declaring 62914560 bytes"},
      {"cass/nb-1-big-Data.db", ": offset 0: chunk 0 of 18 bytes declares 67108864 raw bytes"},
  };
  for (const auto& [file, want] : cases) {
    const std::string path = (dir.path / file).string();
    RecordSet set;
    std::string error;
    for (const size_t max_bytes : {size_t{0}, size_t{64} << 10}) {
      EXPECT_FALSE(SourceRegistry::global().read(path, max_bytes, set, error)) << file;
      EXPECT_EQ(error.rfind(path, 0), 0u) << error;
      EXPECT_NE(error.find(want), std::string::npos) << error;
      EXPECT_EQ(error.find('\n'), std::string::npos) << error;
    }
  }
}

TEST(StoreBounds, CompanionFifoAndDeviceAreRefusedWithoutBlocking) {
  TempDir dir("companion");
  const std::string data = (dir.path / "nb-1-big-Data.db").string();
  const std::string info = (dir.path / "nb-1-big-CompressionInfo.db").string();
  std::ofstream(data) << "not read";
  ASSERT_EQ(::mkfifo(info.c_str(), 0600), 0);  // nobody writes it: open() for reading would block
  SstableData t;
  std::string error;
  EXPECT_FALSE(read_sstable_data(data, t, error));
  EXPECT_EQ(error, info + ": a FIFO, not a regular file: not read");
  fs::remove(info);
  fs::create_symlink("/dev/zero", info);
  EXPECT_FALSE(read_sstable_data(data, t, error));
  EXPECT_EQ(error, info + ": a device, not a regular file: not read");
  fs::remove(info);
  {  // larger than any CompressionInfo.db for an 8-byte Data.db could be
    std::ofstream big(info, std::ios::binary);
    big << std::string((1u << 20) + 64, 'x');
  }
  EXPECT_FALSE(read_sstable_data(data, t, error));
  EXPECT_NE(error.find("above the 1048592 this file can hold"), std::string::npos) << error;
  // The store file itself: a FIFO is never opened.
  const std::string fifo_sst = (dir.path / "f.sst").string();
  ASSERT_EQ(::mkfifo(fifo_sst.c_str(), 0600), 0);
  RecordSet set;
  EXPECT_FALSE(SourceRegistry::global().read(fifo_sst, 0, set, error));
  EXPECT_EQ(error, fifo_sst + ": a FIFO, not a regular file: not read");
}

TEST(StoreBounds, EmptyStoreFilesAreStoreFilesThatFail) {
  TempDir dir("empty");
  for (const char* name : {"e.sst", "e.ldb", "e.wt", "e.hfile"}) {
    const std::string path = (dir.path / name).string();
    std::ofstream(path).flush();
    EXPECT_TRUE(SourceRegistry::global().is_store_file(path)) << name;
    RecordSet set;
    std::string error;
    EXPECT_FALSE(SourceRegistry::global().read(path, 0, set, error)) << name;
    EXPECT_EQ(error.rfind(path + ": offset 0: ", 0), 0u) << error;
  }
  const std::string text = (dir.path / "e.txt").string();
  std::ofstream(text).flush();
  EXPECT_FALSE(SourceRegistry::global().is_store_file(text));
}

}  // namespace
}  // namespace kvz
