// The whole file a store writes (store_file_parts: data blocks, index, dictionary, properties,
// metaindex, footer), as the engine reports it under --profile rocksdb and --profile leveldb,
// against files librocksdb 7.8 (SstFileWriter) and libleveldb 1.23 (TableBuilder) write from
// the same records: every part and the file size equal, byte for byte.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "bench/engine.h"
#include "blockgen/encoding.h"
#include "blockgen/layouts.h"
#include "codecs/registry.h"
#include "codecs/spec.h"
#include "real_stores.h"
#include "stores/rocksdb/table_file.h"
#include "stores/store_profile.h"

namespace kvz {
namespace {

using namespace real_stores;

struct WholeFileCorpus {
  const char* path;
  const char* mode;
  size_t max_bytes;
  size_t block_size;
};

// JSON documents, log lines, a binary map tile cut in 200-byte records (index blocks near the
// keep-raw line) and a small CSV (a 16 KiB dictionary block larger than its saving), at the
// profile's 4 KiB and at 16 KiB.
const WholeFileCorpus kWholeFileCorpora[] = {
    {"json/twitter.json", "auto", 1 << 20, 4096},
    {"json/twitter.json", "auto", 1 << 20, 16384},
    {"logs/apache_access_logs.log", "lines", 1 << 20, 4096},
    {"logs/apache_access_logs.log", "lines", 1 << 20, 16384},
    {"brotli/mapsdatazrh", "fixed:200", 1 << 20, 4096},
    {"csv/world-cities.csv", "lines", 96 << 10, 4096},
};

// The profile's row for `codec` (the store's own call; "none": memcpy) with `dict` bytes of
// dictionary.
CodecChoice profile_row(const StoreProfile& profile, const std::string& codec, uint32_t dict) {
  std::string error;
  const std::string spec = codec == "none" ? "memcpy" : profile.codecs;
  for (auto c : parse_codec_spec(spec, CodecRegistry::instance(), error)) {
    if (codec != "none" && c.codec->info().name != codec) continue;
    c.params.dict_size = dict;
    return c;
  }
  ADD_FAILURE() << codec << " not in " << profile.codecs << " " << error;
  return {};
}

// Runs `rows` over `rs` under `profile` at `block_size` through the engine; cells in row order.
std::vector<CellResult> run_rows(const RecordSet& rs, const StoreProfile& profile, size_t block_size,
                                 const std::vector<CodecChoice>& rows, const std::string& dict_method = "file") {
  std::string error;
  BlockSet blocks = build_blocks(rs, profile.layout, block_size, error);
  EXPECT_TRUE(error.empty()) << error;
  EngineOptions opt;
  opt.seconds_per_cell = 0.002;
  opt.repetitions = 1;
  opt.latency_calls = 10;
  opt.dict_method = dict_method;
  std::vector<BlockGroup> groups;
  groups.push_back({std::move(blocks), &profile});
  const EngineOutcome o = run_matrix(build_matrix(std::move(groups), rows, CodecRegistry::instance()), opt);
  EXPECT_EQ(o.cells.size(), rows.size());
  return o.cells;
}

uint64_t part(const CellResult& c, const char* name) {
  const auto it = c.store_file_parts.find(name);
  return it == c.store_file_parts.end() ? ~uint64_t{0} : it->second;
}

TEST(WholeFile, RocksDbEveryPartEqualsSstFileWriter) {
  const StoreProfile* profile = find_store_profile("rocksdb");
  ASSERT_NE(profile, nullptr);
  for (const auto& corpus : kWholeFileCorpora) {
    const RecordSet rs = load_records(corpus.path, corpus.mode, corpus.max_bytes);
    std::vector<CodecChoice> rows;
    for (const auto& c : kSstCases) rows.push_back(profile_row(*profile, c.codec, c.dict));
    const std::vector<CellResult> cells = run_rows(rs, *profile, corpus.block_size, rows);
    ASSERT_EQ(cells.size(), rows.size());
    for (size_t i = 0; i < rows.size(); ++i) {
      const SstCase& c = kSstCases[i];
      const CellResult& cell = cells[i];
      const std::string what = std::string(corpus.path) + " " + std::to_string(corpus.block_size) + " " +
                               cell.key.codec + " " + cell.key.params;
      SCOPED_TRACE(what);
      ASSERT_EQ(cell.status, CellStatus::Ok) << cell.failure;
      const bool leveled = std::string(c.codec) != "none" && std::string(c.codec) != "snappy";
      TempFile file("whole_" + std::to_string(i) + ".sst");
      rocksdb::Options options;
      write_sst(rs, c.codec, corpus.block_size, c.dict, file.path, options, leveled ? rows[i].params.level : 0);
      std::string error;
      const std::string sst = read_file_bytes(file.path, error);
      SstLayout layout;
      ASSERT_TRUE(sst_layout(sst, layout, error)) << error;
      ASSERT_TRUE(cell.store_file_bytes.has_value());
      const auto dict = layout.meta.find("rocksdb.compression_dict");
      std::printf("[validate] rocksdb whole file %-52s real %8zu B | kvz %8llu B (index %llu, properties %llu)\n",
                  what.c_str(), sst.size(), static_cast<unsigned long long>(*cell.store_file_bytes),
                  static_cast<unsigned long long>(part(cell, "index")),
                  static_cast<unsigned long long>(part(cell, "properties")));
      EXPECT_EQ(*cell.store_file_bytes, sst.size());
      EXPECT_EQ(part(cell, "data"), layout.index_offset);  // the data blocks end where the index starts
      EXPECT_EQ(part(cell, "index"), layout.index_size + 5);
      EXPECT_EQ(part(cell, "dictionary"), dict == layout.meta.end() ? 0 : dict->second.second + 5);
      EXPECT_EQ(part(cell, "properties"), layout.meta.at("rocksdb.properties").second + 5);
      EXPECT_EQ(part(cell, "metaindex"), layout.metaindex_size + 5);
      EXPECT_EQ(part(cell, "footer"), 53u);
      EXPECT_EQ(cell.stored_bytes, part(cell, "data") + part(cell, "dictionary"));
    }
  }
}

// Each data block of an SST as stored, its 5-byte trailer left out; `t` gets the file read back.
std::vector<std::string> stored_data_blocks(const std::string& path, TableFile& t) {
  std::string error;
  EXPECT_TRUE(read_table_file(path, t, error)) << error;
  const std::string sst = read_file_bytes(path, error);
  std::vector<std::string> out;
  for (const TableBlock& b : t.data_blocks) out.push_back(sst.substr(b.offset, b.on_disk - 5));
  return out;
}

// What kvzbench's `session` makes of each of `t`'s data blocks with RocksDB's framing: a
// varint32 of the raw size, then the codec's output (a block the file keeps raw, as is).
std::vector<std::string> framed_data_blocks(const TableFile& t, Session& session) {
  std::vector<std::string> out;
  std::vector<uint8_t> z;
  size_t at = 0;
  for (const TableBlock& b : t.data_blocks) {
    const std::span<const uint8_t> raw(t.data_raw.data() + at, b.raw_size);
    at += b.raw_size;
    std::string want(raw.begin(), raw.end());
    if (b.compression != 0) {
      z.resize(session.bound(raw.size()));
      const CallResult r = session.compress(raw, z);
      EXPECT_TRUE(r.ok()) << r.error;
      want.clear();
      enc::put_varint32(want, static_cast<uint32_t>(raw.size()));
      want.append(z.begin(), z.begin() + static_cast<long>(r.size));
    }
    out.push_back(std::move(want));
  }
  return out;
}

size_t same_count(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  size_t n = 0;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) n += a[i] == b[i];
  return n;
}

// RocksDB 7.8's BZip2_Compress calls BZ2_bzCompressInit with blockSize100k 1 whatever
// compression_opts.level says: files written at every level 1..9 have the data blocks of the
// profile's one bzip2 row (bzip2:1), byte for byte, and its whole-file size (the properties
// block records the configured level, one digit at each; kvzbench's line sets level=1). Left
// unset (level 0 here: kDefaultCompressionLevel), the data blocks are the same and the file is
// exactly 4 bytes larger: its properties' compression_options say "level=32767" for "level=1".
TEST(WholeFile, RocksDbBzip2AtEveryLevelIsTheProfilesOneRow) {
  const StoreProfile* profile = find_store_profile("rocksdb");
  ASSERT_NE(profile, nullptr);
  const CodecChoice row = profile_row(*profile, "bzip2", 0);
  ASSERT_EQ(row.label(), "bzip2 1");
  auto session = row.codec->open(row.params, nullptr);
  ASSERT_TRUE(session.ok()) << session.error;
  size_t files = 0, exact = 0;
  for (const auto& corpus : kWholeFileCorpora) {
    const RecordSet rs = load_records(corpus.path, corpus.mode, corpus.max_bytes);
    const std::vector<CellResult> cells =
        run_rows(rs, *profile, corpus.block_size, {profile_row(*profile, "none", 0), row});
    ASSERT_EQ(cells.size(), 2u);
    const CellResult& cell = cells[1];
    ASSERT_EQ(cell.status, CellStatus::Ok) << cell.failure;
    ASSERT_TRUE(cell.store_file_bytes.has_value());
    std::vector<std::string> framed;  // kvzbench's row, framed as RocksDB stores it
    for (int level = 1; level <= 10; ++level) {
      const bool unset = level == 10;  // written last: the data blocks framed at level 1 to compare with
      const std::string what =
          fmt::format("{} {} bzip2 level {}", corpus.path, corpus.block_size, unset ? "unset" : std::to_string(level));
      SCOPED_TRACE(what);
      TempFile file(fmt::format("bzip2_{}.sst", level));
      rocksdb::Options options;
      write_sst(rs, "bzip2", corpus.block_size, 0, file.path, options, unset ? 0 : level);
      std::string error;
      const std::string sst = read_file_bytes(file.path, error);
      SstLayout layout;
      ASSERT_TRUE(sst_layout(sst, layout, error)) << error;
      EXPECT_EQ(sst.find("level=32767") != std::string::npos, unset);
      TableFile t;
      const std::vector<std::string> stored = stored_data_blocks(file.path, t);
      if (level == 1) framed = framed_data_blocks(t, *session.value);  // the same raw blocks at every level
      const size_t blocks = stored.size(), same = same_count(stored, framed);
      std::printf(
          "[validate] rocksdb bzip2 %-52s data %8llu B | kvz %8llu B; file %8zu B | kvz %8llu B; %zu/%zu "
          "blocks identical\n",
          what.c_str(), static_cast<unsigned long long>(layout.index_offset),
          static_cast<unsigned long long>(cell.stored_bytes), sst.size(),
          static_cast<unsigned long long>(*cell.store_file_bytes), same, blocks);
      EXPECT_EQ(same, blocks);
      EXPECT_EQ(cell.blocks, blocks);
      EXPECT_EQ(cell.stored_bytes, layout.index_offset);  // the data blocks end where the index starts
      EXPECT_EQ(*cell.store_file_bytes + (unset ? 4 : 0), sst.size());
      if (unset) continue;
      ++files;
      exact += same == blocks && cell.stored_bytes == layout.index_offset && *cell.store_file_bytes == sst.size();
    }
  }
  std::printf("[validate] rocksdb bzip2: %zu of %zu files exact (levels 1..9, 4 and 16 KiB)\n", exact, files);
  EXPECT_EQ(files, 9 * std::size(kWholeFileCorpora));
}

TEST(WholeFile, LevelDbEqualsTableBuilder) {
  const StoreProfile* profile = find_store_profile("leveldb");
  ASSERT_NE(profile, nullptr);
  for (const auto& corpus : kWholeFileCorpora) {
    const RecordSet rs = load_records(corpus.path, corpus.mode, corpus.max_bytes);
    const std::vector<CodecChoice> rows = {profile_row(*profile, "none", 0), profile_row(*profile, "snappy", 0)};
    const std::vector<CellResult> cells = run_rows(rs, *profile, corpus.block_size, rows);
    ASSERT_EQ(cells.size(), rows.size());
    for (size_t i = 0; i < rows.size(); ++i) {
      const StoreBytes real = leveldb_real(rs, i == 1, corpus.block_size);
      const std::string what =
          std::string(corpus.path) + " " + std::to_string(corpus.block_size) + " " + cells[i].key.codec;
      SCOPED_TRACE(what);
      ASSERT_TRUE(cells[i].store_file_bytes.has_value());
      std::printf("[validate] leveldb whole file %-52s real %8llu B | kvz %8llu B\n", what.c_str(),
                  static_cast<unsigned long long>(real.file_bytes),
                  static_cast<unsigned long long>(*cells[i].store_file_bytes));
      EXPECT_EQ(part(cells[i], "data"), real.bytes);
      EXPECT_EQ(*cells[i].store_file_bytes, real.file_bytes);
      EXPECT_EQ(part(cells[i], "footer"), 48u);
    }
  }
}

// No whole file where the model does not hold: a store without one, or the dictionary
// split study (a subset of the blocks).
TEST(WholeFile, OnlyUnderAStoreWithAFileModel) {
  const RecordSet rs = load_records("logs/apache_access_logs.log", "lines", 256 << 10);
  const StoreProfile* cassandra = find_store_profile("cassandra");
  ASSERT_NE(cassandra, nullptr);
  EXPECT_FALSE(store_models_file(*cassandra));
  EXPECT_TRUE(store_models_file(*find_store_profile("rocksdb")));
  const auto cells =
      run_rows(rs, *cassandra, 16384, {profile_row(*cassandra, "none", 0), profile_row(*cassandra, "lz4", 0)});
  ASSERT_EQ(cells.size(), 2u);
  for (const CellResult& c : cells) {
    EXPECT_EQ(c.status, CellStatus::Ok) << c.failure;
    EXPECT_FALSE(c.store_file_bytes.has_value());
    EXPECT_TRUE(c.store_file_parts.empty());
  }
  const StoreProfile* rocksdb = find_store_profile("rocksdb");
  const std::vector<CodecChoice> rows = {profile_row(*rocksdb, "none", 0), profile_row(*rocksdb, "zstd", 16384)};
  const auto split = run_rows(rs, *rocksdb, 4096, rows, "split");
  ASSERT_EQ(split.size(), 2u);
  EXPECT_EQ(split[1].dict_method, "split");
  EXPECT_FALSE(split[1].store_file_bytes.has_value());
  const auto file = run_rows(rs, *rocksdb, 4096, rows);
  ASSERT_EQ(file.size(), 2u);
  EXPECT_TRUE(file[1].store_file_bytes.has_value());
}

}  // namespace
}  // namespace kvz
