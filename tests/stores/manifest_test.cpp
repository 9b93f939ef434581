// A DB directory's MANIFEST replayed (stores/rocksdb/manifest.h) against what RocksDB 7.8 and
// LevelDB 1.23 say of their own DBs: every live file on its level and column family, with its
// size, exactly; the log's fragments, a tail cut short, and damage.
#include <gtest/gtest.h>

#include "blockgen/encoding.h"
#include "real_db_dirs.h"
#include "store_runs.h"
#include "stores/rocksdb/manifest.h"
#include "stores/shared/crc32c.h"
#include "stores/shared/file_bytes.h"

namespace kvz {
namespace {

using namespace real_dbs;

// The MANIFEST's version in the shape of RocksDB's own account, sizes as the MANIFEST records them.
Layout manifest_layout(const DbVersion& v, bool leveldb) {
  Layout out;
  for (const auto& cf : v.families)
    for (const auto& l : cf.levels) {
      LevelMeta& m = out[{leveldb ? "" : cf.name, l.level}];
      for (const auto& f : l.files) m.files.insert(f.number);
      m.bytes = l.bytes();
    }
  return out;
}

void expect_same_files(const Layout& real, const Layout& read) {
  ASSERT_EQ(real.size(), read.size());
  for (const auto& [key, l] : real) {
    const auto it = read.find(key);
    ASSERT_NE(it, read.end()) << key.first << " L" << key.second;
    EXPECT_EQ(it->second.files, l.files) << key.first << " L" << key.second;
    EXPECT_EQ(it->second.bytes, l.bytes) << key.first << " L" << key.second;
  }
}

const std::vector<FamilyLayout> kLayout = {
    {"default", "lz4", {6, 4, 0}},
    {"users", "zstd", {5, 3, 1, 0}},
    {"logs", "snappy", {2}},
};

RecordSet test_records() { return load_records("logs/apache_access_logs.log", "lines", 400 << 10); }

TEST(Manifest, RocksDbFamiliesAndLevelsAreRocksDbsOwn) {
  TempDir dir("manifest_layers");
  write_layered_db(dir.path, test_records(), kLayout);
  const Layout real = rocksdb_layout(dir.path);
  // The layout asked for: every family on its levels, several files on a level.
  EXPECT_EQ(real.size(), 8u);
  EXPECT_GT(real.at({"default", 6}).files.size(), 1u);
  DbVersion v;
  std::string error;
  ASSERT_TRUE(read_db_version(dir.path, v, error)) << error;
  expect_same_files(real, manifest_layout(v, false));
  ASSERT_EQ(v.families.size(), 3u);
  EXPECT_EQ(v.families[1].name, "users");  // by id: default 0, then in the order added
  EXPECT_EQ(v.comparator, "leveldb.BytewiseComparator");
  // Deeper levels in key order, files apart.
  for (const auto& cf : v.families)
    for (const auto& l : cf.levels)
      for (size_t i = 1; l.level > 0 && i < l.files.size(); ++i)
        EXPECT_LT(l.files[i - 1].largest, l.files[i].smallest) << cf.name << " L" << l.level;
  // The sizes the MANIFEST records are the files' sizes on disk.
  for (const auto& cf : v.families)
    for (const auto& l : cf.levels)
      for (const auto& f : l.files)
        EXPECT_EQ(fs::file_size(fs::path(dir.path) / fmt::format("{:06}.sst", f.number)), f.size);
}

TEST(Manifest, LevelDbLevelsAreLevelDbsOwn) {
  TempDir dir("manifest_leveldb");
  write_leveldb_db(dir.path, test_records(), 3);
  const Layout real = leveldb_layout(dir.path);
  EXPECT_GE(real.size(), 2u);  // flushes and compactions left more than one level
  DbVersion v;
  std::string error;
  ASSERT_TRUE(read_db_version(dir.path, v, error)) << error;
  expect_same_files(real, manifest_layout(v, true));
  ASSERT_EQ(v.families.size(), 1u);
}

TEST(Manifest, FixtureLevelDbHoldsItsOneTableOnLevelTwo) {
  DbVersion v;
  std::string error;
  const std::string dir = (store_runs::fixtures_dir() / "leveldb/dfindexeddb_100k_keys").string();
  ASSERT_TRUE(read_db_version(dir, v, error)) << error;
  ASSERT_EQ(v.families.size(), 1u);
  ASSERT_EQ(v.families[0].levels.size(), 1u);
  EXPECT_EQ(v.families[0].levels[0].level, 2);
  ASSERT_EQ(v.families[0].levels[0].files.size(), 1u);
  EXPECT_EQ(v.families[0].levels[0].files[0].number, 5u);
  EXPECT_EQ(v.families[0].levels[0].files[0].size, fs::file_size(dir + "/000005.ldb"));
}

// --- The log, by hand: records framed as RocksDB's log writer frames them ----------------------

// `payloads` as a log: each record cut into fragments at 32 KiB block ends, a block's last
// fewer-than-7 bytes zero.
std::string log_of(const std::vector<std::string>& payloads) {
  std::string out;
  for (const auto& p : payloads) {
    size_t at = 0;
    bool first = true;
    do {
      size_t left = 32768 - out.size() % 32768;
      if (left < 7) {
        out.append(left, '\0');
        left = 32768;
      }
      const size_t n = std::min(p.size() - at, left - 7);
      const bool last = at + n == p.size();
      const uint8_t type = first && last ? 1 : first ? 2 : last ? 4 : 3;
      std::string body(1, static_cast<char>(type));
      body += p.substr(at, n);
      const uint32_t crc = mask_crc32c(crc32c({reinterpret_cast<const uint8_t*>(body.data()), body.size()}));
      enc::put_fixed32(out, crc);
      out.push_back(static_cast<char>(n & 0xff));
      out.push_back(static_cast<char>(n >> 8));
      out += body;
      at += n;
      first = false;
    } while (at < p.size());
  }
  return out;
}

std::string internal_key(const std::string& user) { return user + std::string(8, '\1'); }

// A RocksDB NewFile4 edit: `files` (number, level) with keys `key_bytes` long.
std::string new_files_edit(const std::vector<std::pair<uint64_t, int>>& files, size_t key_bytes, uint32_t family = 0) {
  std::string e;
  if (family) enc::put_varint32(e, 200), enc::put_varint32(e, family);
  for (const auto& [number, level] : files) {
    enc::put_varint32(e, 103);
    enc::put_varint32(e, static_cast<uint32_t>(level));
    enc::put_varint64(e, number);
    enc::put_varint64(e, 1000 + number);
    for (const char c : {'a', 'b'}) {
      const std::string k = internal_key(std::string(key_bytes, c) + std::to_string(number));
      enc::put_varint32(e, static_cast<uint32_t>(k.size()));
      e += k;
    }
    enc::put_varint64(e, 1);
    enc::put_varint64(e, 2);
    enc::put_varint32(e, 6);  // a custom field: the file's creation time
    enc::put_varint32(e, 1);
    e.push_back('\x05');
    enc::put_varint32(e, 1);  // the end of the custom fields
  }
  return e;
}

bool parse(const std::string& log, DbVersion& v, std::string& error) {
  return parse_manifest({reinterpret_cast<const uint8_t*>(log.data()), log.size()}, "MANIFEST-000001", v, error);
}

TEST(Manifest, RecordsCutIntoFragmentsAcrossBlocksJoin) {
  // 60 files with 1 KiB keys: one edit of ~125 KB, a first fragment, two middle, a last.
  std::vector<std::pair<uint64_t, int>> files;
  for (uint64_t n = 10; n < 70; ++n) files.emplace_back(n, n % 2 ? 6 : 5);
  std::string family_add;
  enc::put_varint32(family_add, 200), enc::put_varint32(family_add, 1);
  enc::put_varint32(family_add, 201), enc::put_varint32(family_add, 3), family_add += "hot";
  const std::string log = log_of({family_add, new_files_edit(files, 1024), new_files_edit({{80, 0}}, 10, 1)});
  ASSERT_GT(log.size(), 3 * 32768u);
  DbVersion v;
  std::string error;
  ASSERT_TRUE(parse(log, v, error)) << error;
  ASSERT_EQ(v.families.size(), 2u);
  ASSERT_EQ(v.families[0].levels.size(), 2u);
  EXPECT_EQ(v.families[0].levels[0].files.size(), 30u);
  EXPECT_EQ(v.families[0].levels[1].bytes(), 30 * 1000u + (11 + 69) * 30 / 2);
  EXPECT_EQ(v.families[1].name, "hot");
  EXPECT_EQ(v.families[1].levels[0].files[0].number, 80u);
  EXPECT_EQ(v.edits, 3u);
}

TEST(Manifest, TailCutShortEndsTheReplayAsRocksDbDoes) {
  std::string deleted;  // the last edit moves file 10 from L5 to L6
  enc::put_varint32(deleted, 6), enc::put_varint32(deleted, 5), enc::put_varint64(deleted, 10);
  deleted += new_files_edit({{10, 6}}, 10);
  const std::string log = log_of({new_files_edit({{10, 5}, {11, 6}}, 10), deleted});
  DbVersion whole, cut;
  std::string error;
  ASSERT_TRUE(parse(log, whole, error)) << error;
  EXPECT_EQ(whole.families[0].levels.size(), 1u);  // both on L6
  ASSERT_TRUE(parse(log.substr(0, log.size() - 3), cut, error)) << error;
  EXPECT_EQ(cut.edits, 1u);
  ASSERT_EQ(cut.families[0].levels.size(), 2u);
  EXPECT_EQ(cut.families[0].levels[0].level, 5);
}

TEST(Manifest, DamageIsOneLineNamingTheOffset) {
  const std::string log = log_of({new_files_edit({{10, 5}}, 10), new_files_edit({{11, 6}}, 10)});
  DbVersion v;
  std::string error;
  std::string flipped = log;
  flipped[log.size() - 2] ^= 1;
  EXPECT_FALSE(parse(flipped, v, error));
  EXPECT_EQ(error.find("MANIFEST-000001: offset "), 0u) << error;
  EXPECT_NE(error.find("CRC32C"), std::string::npos) << error;
  EXPECT_EQ(error.find('\n'), std::string::npos);
  // A file deleted from a level that does not hold it, a file added twice, an unknown tag.
  std::string bad_delete;
  enc::put_varint32(bad_delete, 6), enc::put_varint32(bad_delete, 4), enc::put_varint64(bad_delete, 10);
  EXPECT_FALSE(parse(log_of({new_files_edit({{10, 5}}, 10), bad_delete}), v, error));
  EXPECT_NE(error.find("does not hold it"), std::string::npos) << error;
  EXPECT_FALSE(parse(log_of({new_files_edit({{10, 5}}, 10), new_files_edit({{10, 6}}, 10)}), v, error));
  EXPECT_NE(error.find("live on L5 already"), std::string::npos) << error;
  EXPECT_FALSE(parse(log_of({std::string("\x63\x01", 2)}), v, error));
  EXPECT_NE(error.find("tag"), std::string::npos) << error;
  EXPECT_FALSE(parse("", v, error));
  EXPECT_NE(error.find("no VersionEdit"), std::string::npos) << error;
}

TEST(Manifest, OptionsFileGivesEachFamilysOptions) {
  const auto opts = parse_options_file(
      "[Version]\n  rocksdb_version=7.8.3\n[DBOptions]\n  max_open_files=-1\n"
      "[CFOptions \"default\"]\n  num_levels=7\n  level_compaction_dynamic_level_bytes=false\n"
      "[TableOptions/BlockBasedTable \"default\"]\n  block_size=4096\n"
      "[CFOptions \"hot\"]\n  compaction_style=kCompactionStyleUniversal\n");
  ASSERT_EQ(opts.size(), 2u);
  EXPECT_EQ(opts.at("default").at("num_levels"), "7");
  EXPECT_EQ(opts.at("default").count("block_size"), 0u);  // another section's
  EXPECT_EQ(opts.at("hot").at("compaction_style"), "kCompactionStyleUniversal");
}

}  // namespace
}  // namespace kvz
