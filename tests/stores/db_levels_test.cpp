// A DB directory as a source (blockgen/pipeline.h load_sources, stores/rocksdb/db_reader.cpp):
// one source per column family and level, its files and bytes on disk exactly what RocksDB 7.8
// and LevelDB 1.23 say their levels hold; a MANIFEST that does not read gives one line and the
// files one by one.
#include <gtest/gtest.h>

#include <fstream>

#include "blockgen/pipeline.h"
#include "real_db_dirs.h"

namespace kvz {
namespace {

using namespace real_dbs;

const std::vector<FamilyLayout> kDbLayout = {
    {"default", "lz4", {6, 4, 0}},
    {"users", "zstd", {5, 1}},
};

RecordSet db_records() { return load_records("logs/apache_access_logs.log", "lines", 300 << 10); }

bool load(const std::string& dir, std::vector<Source>& sources, std::vector<std::string>& warnings,
          size_t max_bytes = 0) {
  SourceRequest request;
  request.files = {dir};
  request.file_max_bytes = max_bytes;
  std::string error;
  const bool ok = load_sources(request, sources, warnings, error);
  EXPECT_TRUE(ok) << error;
  return ok;
}

const Source* source_named(const std::vector<Source>& sources, const std::string& name) {
  for (const auto& s : sources)
    if (s.name == name) return &s;
  ADD_FAILURE() << "no source " << name;
  return nullptr;
}

std::string kvz_codec(const std::string& rocksdb_name) {
  return rocksdb_name == "LZ4" ? "lz4" : rocksdb_name == "ZSTD" ? "zstd" : rocksdb_name == "Snappy" ? "snappy" : "?";
}

TEST(DbLevels, EachFamilysLevelIsASourceOfExactlyItsFiles) {
  TempDir dir("levels_rocksdb");
  write_layered_db(dir.path, db_records(), kDbLayout);
  const Layout real = rocksdb_layout(dir.path);
  std::vector<Source> sources;
  std::vector<std::string> warnings;
  ASSERT_TRUE(load(dir.path, sources, warnings));
  EXPECT_TRUE(warnings.empty()) << warnings.front();
  ASSERT_EQ(sources.size(), real.size());
  const std::string db = fs::path(dir.path).filename().string();
  for (const auto& [key, l] : real) {
    const Source* s = source_named(sources, fmt::format("{}:{}/L{}", db, key.first, key.second));
    if (!s) continue;
    const StoredOrigin& o = s->records.origin;
    EXPECT_EQ(o.level, key.second);
    EXPECT_EQ(o.files, l.files.size());
    EXPECT_EQ(o.file_bytes, l.bytes) << "stat sum against GetLiveFilesMetaData";
    EXPECT_EQ(s->file_bytes, l.bytes);
    EXPECT_EQ(o.data_bytes, l.data_bytes) << "data blocks against TableProperties::data_size";
    EXPECT_EQ(o.on_disk, l.data_bytes) << "read whole: every data block";
    ASSERT_EQ(l.codecs.size(), 1u);
    ASSERT_EQ(o.file_codecs.size(), 1u);
    EXPECT_EQ(o.file_codecs.begin()->first, kvz_codec(*l.codecs.begin()));
    EXPECT_EQ(o.file_codecs.begin()->second, l.files.size());
    EXPECT_EQ(o.table, fs::absolute(dir.path).lexically_normal().string() + ":" + key.first);
    EXPECT_NE(s->records.detail.find(fmt::format("{}/L{}", key.first, key.second)), std::string::npos);
  }
}

TEST(DbLevels, MaxBytesSamplesEveryFileOfALevel) {
  TempDir dir("levels_sample");
  write_layered_db(dir.path, db_records(), {{"default", "lz4", {6}}});
  const Layout real = rocksdb_layout(dir.path);
  const LevelMeta& l6 = real.at({"default", 6});
  ASSERT_GT(l6.files.size(), 2u);
  std::vector<Source> sources;
  std::vector<std::string> warnings;
  ASSERT_TRUE(load(dir.path, sources, warnings, 30 << 10));
  ASSERT_EQ(sources.size(), 1u);
  const StoredOrigin& o = sources[0].records.origin;
  EXPECT_EQ(o.file_bytes, l6.bytes);  // the level's bytes whatever was read
  EXPECT_EQ(o.data_bytes, l6.data_bytes);
  EXPECT_LT(o.on_disk, l6.data_bytes);  // only some blocks read
  // Every file gave blocks: more records than the first file's share alone would.
  EXPECT_GE(sources[0].records.stored_offsets.size() - 1, l6.files.size());
}

TEST(DbLevels, LevelDbDirectoryIsOneSourcePerLevel) {
  TempDir dir("levels_leveldb");
  write_leveldb_db(dir.path, db_records(), 3);
  const Layout real = leveldb_layout(dir.path);
  std::vector<Source> sources;
  std::vector<std::string> warnings;
  ASSERT_TRUE(load(dir.path, sources, warnings));
  ASSERT_EQ(sources.size(), real.size());
  const std::string db = fs::path(dir.path).filename().string();
  for (const auto& [key, l] : real) {
    const Source* s = source_named(sources, fmt::format("{}:L{}", db, key.second));
    if (!s) continue;
    EXPECT_EQ(s->records.origin.files, l.files.size());
    EXPECT_EQ(s->records.origin.file_bytes, l.bytes);
    EXPECT_EQ(s->records.origin.store, "leveldb");
  }
}

// A copy of a DB directory whose MANIFEST is damaged, or gone: its tables are read one by one,
// and one line says why.
TEST(DbLevels, DamagedOrMissingManifestReadsTheFilesOneByOneWithOneLine) {
  TempDir dir("levels_damaged");
  write_layered_db(dir.path, db_records(), {{"default", "snappy", {6, 0}}});
  std::string manifest;
  for (const auto& e : fs::directory_iterator(dir.path))
    if (e.path().filename().string().rfind("MANIFEST-", 0) == 0) manifest = e.path().string();
  ASSERT_FALSE(manifest.empty());
  size_t tables = 0;
  for (const auto& e : fs::directory_iterator(dir.path)) tables += e.path().extension() == ".sst";
  {
    std::fstream f(manifest, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(20);
    f.put('\x7f');
  }
  for (const bool gone : {false, true}) {
    if (gone) fs::remove(manifest);
    std::vector<Source> sources;
    std::vector<std::string> warnings;
    ASSERT_TRUE(load(dir.path, sources, warnings));
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find(gone ? "cannot read" : "offset"), std::string::npos) << warnings[0];
    EXPECT_NE(warnings[0].find("read one by one, levels unknown"), std::string::npos) << warnings[0];
    EXPECT_EQ(warnings[0].find('\n'), std::string::npos);
    EXPECT_EQ(sources.size(), tables);
    for (const auto& s : sources) EXPECT_EQ(s.records.origin.level, -1) << s.name;
  }
}

}  // namespace
}  // namespace kvz
