#pragma once
// Real DB directories with known layouts for the MANIFEST tests (manifest_test.cpp,
// db_levels_test.cpp): a RocksDB 7.8 DB whose column families each hold their records on chosen
// levels (a batch flushed, then moved by CompactFiles), what RocksDB's own metadata says each
// level holds, and a LevelDB 1.23 DB filled by ordinary writes with what it says of itself.
#include <gtest/gtest.h>
#include <leveldb/db.h>
#include <rocksdb/db.h>
#include <rocksdb/metadata.h>
#include <rocksdb/options.h>
#include <rocksdb/table_properties.h>

#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "real_stores.h"

namespace kvz::real_dbs {

using namespace real_stores;

// A directory removed on scope exit.
struct TempDir {
  std::string path;
  explicit TempDir(const std::string& tag) {
    path = (fs::temp_directory_path() / ("kvz_db_" + std::to_string(::getpid()) + "_" + tag)).string();
    fs::remove_all(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

// A column family, its codec and the level each batch of its records ends on (0: left in L0),
// deepest first (CompactFiles into a level needs the levels above it free of those keys).
struct FamilyLayout {
  std::string name;
  std::string codec;
  std::vector<int> levels;
};

// What RocksDB says one level of one family holds.
struct LevelMeta {
  std::set<uint64_t> files;
  uint64_t bytes = 0;       // SstFileMetaData::size
  uint64_t data_bytes = 0;  // TableProperties::data_size, summed
  std::set<std::string> codecs;
};
using Layout = std::map<std::pair<std::string, int>, LevelMeta>;  // (family, level) -> files

// Writes `rs` into a new DB at `dir`: each family gets every n-th record of batch k (n batches,
// one per level of its layout), each batch flushed to L0 and compacted by CompactFiles into its
// level, in 24 KiB files so a level holds several. No automatic compaction runs.
inline void write_layered_db(const std::string& dir, const RecordSet& rs, const std::vector<FamilyLayout>& layout) {
  rocksdb::DBOptions db_options;
  db_options.create_if_missing = true;
  db_options.create_missing_column_families = true;
  std::vector<rocksdb::ColumnFamilyDescriptor> families;
  for (const auto& f : layout) {
    rocksdb::ColumnFamilyOptions cf;
    cf.compression = rocksdb_type(f.codec);
    cf.disable_auto_compactions = true;
    cf.write_buffer_size = 64 << 20;
    families.emplace_back(f.name, cf);
  }
  rocksdb::DB* raw = nullptr;
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  ASSERT_TRUE(rocksdb::DB::Open(db_options, dir, families, &handles, &raw).ok());
  std::unique_ptr<rocksdb::DB> db(raw);
  for (size_t i = 0; i < layout.size(); ++i) {
    const size_t batches = layout[i].levels.size();
    for (size_t b = 0; b < batches; ++b) {
      for (size_t r = b; r < rs.records.size(); r += batches)
        ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), handles[i], rs.records[r].key, rs.records[r].value).ok());
      ASSERT_TRUE(db->Flush(rocksdb::FlushOptions(), handles[i]).ok());
      if (layout[i].levels[b] == 0) continue;
      rocksdb::ColumnFamilyMetaData meta;
      db->GetColumnFamilyMetaData(handles[i], &meta);
      std::vector<std::string> l0;
      for (const auto& f : meta.levels[0].files) l0.push_back(f.name);
      rocksdb::CompactionOptions compaction;
      compaction.output_file_size_limit = 24 << 10;  // several files a level
      const rocksdb::Status s = db->CompactFiles(compaction, handles[i], l0, layout[i].levels[b]);
      ASSERT_TRUE(s.ok()) << s.ToString();
    }
  }
  for (auto* h : handles) ASSERT_TRUE(db->DestroyColumnFamilyHandle(h).ok());
  ASSERT_TRUE(db->Close().ok());
}

// Each family's levels as RocksDB's metadata and table properties give them, the DB opened read-only.
inline Layout rocksdb_layout(const std::string& dir) {
  std::vector<std::string> names;
  EXPECT_TRUE(rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), dir, &names).ok());
  std::vector<rocksdb::ColumnFamilyDescriptor> families;
  for (const auto& n : names) families.emplace_back(n, rocksdb::ColumnFamilyOptions());
  rocksdb::DB* raw = nullptr;
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  EXPECT_TRUE(rocksdb::DB::OpenForReadOnly(rocksdb::DBOptions(), dir, families, &handles, &raw).ok());
  std::unique_ptr<rocksdb::DB> db(raw);
  Layout out;
  if (!db) return out;
  rocksdb::TablePropertiesCollection props;
  std::vector<rocksdb::LiveFileMetaData> live;
  db->GetLiveFilesMetaData(&live);
  for (auto* h : handles) {
    rocksdb::TablePropertiesCollection p;
    EXPECT_TRUE(db->GetPropertiesOfAllTables(h, &p).ok());
    props.insert(p.begin(), p.end());
  }
  for (const auto& f : live) {
    LevelMeta& l = out[{f.column_family_name, f.level}];
    l.files.insert(std::stoull(fs::path(f.name).stem().string()));
    l.bytes += f.size;
    const auto p = props.find(f.db_path + f.name);
    EXPECT_NE(p, props.end()) << f.db_path << f.name;
    if (p == props.end()) continue;
    l.data_bytes += p->second->data_size;
    l.codecs.insert(p->second->compression_name);
  }
  for (auto* h : handles) EXPECT_TRUE(db->DestroyColumnFamilyHandle(h).ok());
  return out;
}

// A LevelDB DB at `dir` filled with `rs` in `batches` passes (every batch-th record each), by
// ordinary writes with 64 KiB memtables, so that flushes and compactions spread it over levels.
inline void write_leveldb_db(const std::string& dir, const RecordSet& rs, size_t batches) {
  leveldb::Options options;
  options.create_if_missing = true;
  options.write_buffer_size = 64 << 10;
  leveldb::DB* raw = nullptr;
  ASSERT_TRUE(leveldb::DB::Open(options, dir, &raw).ok());
  std::unique_ptr<leveldb::DB> db(raw);
  for (size_t b = 0; b < batches; ++b)
    for (size_t r = b; r < rs.records.size(); r += batches)
      ASSERT_TRUE(db->Put(leveldb::WriteOptions(), rs.records[r].key, rs.records[r].value).ok());
  db->CompactRange(nullptr, nullptr);                // everything in tables, none left in the log
  for (size_t r = 0; r < rs.records.size(); r += 7)  // and a few newer writes on top
    ASSERT_TRUE(db->Put(leveldb::WriteOptions(), rs.records[r].key + "+", rs.records[r].value).ok());
}

// LevelDB's own account of its levels: the "leveldb.sstables" property (a "--- level N ---"
// line, then " NUMBER:SIZE[smallest .. largest]" per file), checked against
// "leveldb.num-files-at-level<N>".
inline Layout leveldb_layout(const std::string& dir) {
  leveldb::DB* raw = nullptr;
  EXPECT_TRUE(leveldb::DB::Open(leveldb::Options(), dir, &raw).ok());
  std::unique_ptr<leveldb::DB> db(raw);
  Layout out;
  std::string text;
  if (!db || !db->GetProperty("leveldb.sstables", &text)) return out;
  std::istringstream lines(text);
  int level = -1;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("--- level ", 0) == 0) {
      level = std::stoi(line.substr(10));
      continue;
    }
    const size_t colon = line.find(':'), bracket = line.find('[');
    if (level < 0 || colon == std::string::npos || bracket == std::string::npos) continue;
    LevelMeta& l = out[{"", level}];
    l.files.insert(std::stoull(line.substr(0, colon)));
    l.bytes += std::stoull(line.substr(colon + 1, bracket - colon - 1));
  }
  for (const auto& [key, l] : out) {
    std::string n;
    EXPECT_TRUE(db->GetProperty("leveldb.num-files-at-level" + std::to_string(key.second), &n));
    EXPECT_EQ(n, std::to_string(l.files.size())) << "L" << key.second;
  }
  return out;
}

}  // namespace kvz::real_dbs
