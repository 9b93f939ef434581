// The stores' readers as registered (stores/store_readers.cpp): every program linking kvz_stores
// has them; the order decides which reader takes a file whose name and bytes disagree; ScyllaDB
// is Cassandra's format with its own component; the LevelDB and RocksDB readers split the tables
// by magic.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "blockgen/source_registry.h"
#include "commands/run_plan.h"
#include "stores/store_readers.h"

namespace kvz {
namespace {

namespace fs = std::filesystem;

constexpr uint64_t kLevelDbMagic = 0xdb4775248b80fb57ull;
constexpr uint64_t kRocksDbMagic = 0x88e241b785f4cff7ull;

// 100 bytes of filler, then `magic` little-endian (the last 8 bytes of a table).
std::string ending_in(uint64_t magic) {
  std::string s(100, 'x');
  for (int i = 0; i < 8; ++i, magic >>= 8) s.push_back(static_cast<char>(magic & 0xff));
  return s;
}

struct Dir {
  fs::path path = fs::temp_directory_path() / ("kvz_readers_" + std::to_string(::getpid()));
  Dir() { fs::create_directories(path); }
  ~Dir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  std::string file(const std::string& name, const std::string& bytes) const {
    std::ofstream(path / name, std::ios::binary) << bytes;
    return (path / name).string();
  }
};

std::string taker(const std::string& path) {
  const StoreFileReader* r = SourceRegistry::global().reader_for(path);
  return r ? std::string(r->store()) : "none";
}

TEST(StoreReaders, EveryStoreReaderIsRegisteredInItsOrder) {
  std::vector<std::string> stores;
  for (const auto& r : SourceRegistry::global().readers()) stores.emplace_back(r->store());
  EXPECT_EQ(stores, (std::vector<std::string>{"hbase", "scylla", "cassandra", "wiredtiger", "leveldb", "rocksdb"}));
  SourceRegistry again;  // the list alone fills a registry of one's own the same way
  register_store_readers(again);
  EXPECT_EQ(again.readers().size(), stores.size());
}

TEST(StoreReaders, BytesAndNamesDecideWhichReaderTakesAFile) {
  Dir dir;
  EXPECT_EQ(taker(dir.file("a.sst", ending_in(kLevelDbMagic))), "leveldb");  // the magic, not the name
  EXPECT_EQ(SourceRegistry::global().store_of((dir.path / "a.sst").string()), "leveldb");
  EXPECT_EQ(taker(dir.file("b.ldb", ending_in(kRocksDbMagic))), "rocksdb");
  EXPECT_EQ(taker(dir.file("c", ending_in(kRocksDbMagic))), "rocksdb");  // any name
  const std::string empty = dir.file("d.ldb", "");
  EXPECT_EQ(taker(empty), "rocksdb");  // a table's name without a magic: the table reader says why
  EXPECT_EQ(SourceRegistry::global().store_of(empty), "");
  EXPECT_EQ(taker(dir.file("e.hfile", ending_in(kRocksDbMagic))), "hbase");  // an HFile's name first
  EXPECT_EQ(taker(dir.file("f.wt", ending_in(kLevelDbMagic))), "wiredtiger");
  EXPECT_EQ(taker(dir.file("g.txt", "text")), "none");
  // An HFile's first block magic with no trailer (a truncated copy, any name): the HFile reader
  // takes it, to say what is missing, but no store is named for it.
  const std::string cut_hfile = dir.file("0123abcd", "DATABLK*" + std::string(100, 'x'));
  EXPECT_EQ(taker(cut_hfile), "hbase");
  EXPECT_EQ(SourceRegistry::global().store_of(cut_hfile), "");
  EXPECT_EQ(taker(dir.file("h", "DATABLK" + std::string(100, 'x'))), "none");
}

TEST(StoreReaders, ScyllaDbIsCassandrasFormatWithItsOwnComponent) {
  Dir dir;
  const std::string data = dir.file("nb-1-big-Data.db", "");
  EXPECT_EQ(SourceRegistry::global().store_of(data), "cassandra");
  dir.file("nb-1-big-Scylla.db", "");
  EXPECT_EQ(SourceRegistry::global().store_of(data), "scylla");
  EXPECT_EQ(SourceRegistry::global().base_of("scylla"), "cassandra");
  EXPECT_EQ(SourceRegistry::global().base_of("cassandra"), "cassandra");
  EXPECT_EQ(SourceRegistry::global().base_of("leveldb"), "leveldb");  // its own format, not RocksDB's
  // WiredTiger's own files are no tables of the user's: left out of a directory's listing.
  dir.file("WiredTiger.wt", "");
  dir.file("t.wt", "");
  EXPECT_EQ(SourceRegistry::global().files_in(dir.path.string()),
            (std::vector<std::string>{data, (dir.path / "t.wt").string()}));
}

}  // namespace
}  // namespace kvz
