// RocksDB's raw-sample dictionaries (`rawdict=`: max_dict_bytes without zstd_max_train_bytes)
// as kvzbench measures them, against real SST files: the same records written by
// SstFileWriter (librocksdb 7.8) with max_dict_bytes 16 KiB and zstd_max_train_bytes 0, at
// 1..64 KiB blocks, for every codec RocksDB gives a dictionary. The file's dictionary block
// must be the samples store_dictionary_samples takes, concatenated, byte for byte; the engine's
// stored bytes for the raw row must equal the file's data blocks plus that block, and its
// whole-file bytes the file's size.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "bench/engine.h"
#include "blockgen/layouts.h"
#include "codecs/registry.h"
#include "codecs/spec.h"
#include "real_stores.h"
#include "stores/store_profile.h"

namespace kvz {
namespace {

using namespace real_stores;

constexpr uint32_t kRawDict = 16 * 1024;
constexpr size_t kBlockSizes[] = {1024, 2048, 4096, 8192, 16384, 32768, 65536};

// JSON documents and log lines, and a small CSV whose 16 KiB dictionary block costs more than
// it saves (at 64 KiB blocks the file has two).
const Corpus kRawDictCorpora[] = {
    {"json/twitter.json", "auto", 1 << 20},
    {"logs/apache_access_logs.log", "lines", 1 << 20},
    {"csv/world-cities.csv", "lines", 96 << 10},
};

// The rocksdb profile's rows of `codec` with a raw kRawDict dictionary (the store's call, and for
// lz4/zlib the best possible call beside it).
std::vector<CodecChoice> raw_dictionary_rows(const StoreProfile& profile, const std::string& codec) {
  std::string error;
  std::vector<CodecChoice> rows;
  for (auto c : parse_codec_spec(profile.codecs, CodecRegistry::instance(), error)) {
    if (c.codec->info().name != codec) continue;
    c.params.dict_size = kRawDict;
    c.params.raw_dict = true;
    rows.push_back(c);
  }
  EXPECT_GE(rows.size(), 1u) << codec << " in " << profile.codecs;
  return rows;
}

// `rows` over `blocks` under `profile` through the engine: their cells (memcpy's left out).
std::vector<CellResult> run_rows(const BlockSet& blocks, const StoreProfile& profile,
                                 const std::vector<CodecChoice>& rows) {
  EngineOptions opt;
  opt.seconds_per_cell = 0.002;
  opt.repetitions = 1;
  opt.latency_calls = 10;
  std::vector<BlockGroup> groups;
  groups.push_back({blocks, &profile});
  const EngineOutcome o = run_matrix(build_matrix(std::move(groups), rows, CodecRegistry::instance()), opt);
  std::vector<CellResult> cells;
  for (const auto& c : o.cells)
    if (c.key.codec == rows.front().codec->info().name) cells.push_back(c);
  EXPECT_EQ(cells.size(), rows.size());
  return cells;
}

// The raw dictionary kvzbench predicts: the store's samples, concatenated.
std::string predicted_dictionary(const StoreProfile& profile, const BlockSet& blocks) {
  std::string dict;
  for (auto s : store_dictionary_samples(profile, blocks, kRawDict, true)) dict.append(s.begin(), s.end());
  return dict;
}

// The file's compression-dictionary meta block, trailer left out ("" when it has none).
std::string dictionary_block(const std::string& sst) {
  std::string error;
  SstLayout layout;
  EXPECT_TRUE(sst_layout(sst, layout, error)) << error;
  const auto it = layout.meta.find("rocksdb.compression_dict");
  return it == layout.meta.end() ? "" : sst.substr(it->second.first, it->second.second);
}

class RocksDbRawDictionary : public ::testing::TestWithParam<const char*> {};

TEST_P(RocksDbRawDictionary, TheRowIsTheFileAtEveryBlockSize) {
  const std::string codec = GetParam();
  const StoreProfile* profile = find_store_profile("rocksdb");
  ASSERT_NE(profile, nullptr);
  const std::vector<CodecChoice> rows = raw_dictionary_rows(*profile, codec);
  ASSERT_FALSE(rows.empty());
  for (const auto& c : kRawDictCorpora) {
    const RecordSet rs = load_records(c.path, c.mode, c.max_bytes);
    for (size_t block_size : kBlockSizes) {
      SCOPED_TRACE(fmt::format("{} {} B blocks", c.path, block_size));
      std::string error;
      const BlockSet blocks = build_blocks(rs, profile->layout, block_size, error);
      ASSERT_TRUE(error.empty()) << error;
      TempFile file(fmt::format("rawdict_{}_{}.sst", codec, block_size));
      rocksdb::Options options;
      // At the row's level, as its line sets it (the properties record it).
      write_sst(rs, codec, block_size, kRawDict, file.path, options, rows.front().params.level, true);
      const std::string sst = read_file_bytes(file.path, error);
      rocksdb::SstFileReader reader(options);
      ASSERT_TRUE(reader.Open(file.path).ok());
      const uint64_t data_bytes = reader.GetTableProperties()->data_size;
      const std::string real_dict = dictionary_block(sst);
      ASSERT_FALSE(real_dict.empty());  // RocksDB did write a dictionary
      EXPECT_TRUE(real_dict == predicted_dictionary(*profile, blocks)) << real_dict.size() << " B in the file";
      for (const CellResult& cell : run_rows(blocks, *profile, rows)) {
        SCOPED_TRACE(cell.key.params);
        ASSERT_EQ(cell.status, CellStatus::Ok) << cell.failure;
        ASSERT_TRUE(cell.store_file_bytes.has_value());
        std::printf(
            "[validate] rocksdb raw dict %-5s %-26s %-28s %5zu B blocks: real %8llu B data + %6zu B dict, "
            "file %8zu B | kvz %8llu B, file %8llu B\n",
            codec.c_str(), cell.key.params.c_str(), c.path, block_size, static_cast<unsigned long long>(data_bytes),
            real_dict.size() + 5, sst.size(), static_cast<unsigned long long>(cell.stored_bytes),
            static_cast<unsigned long long>(*cell.store_file_bytes));
        EXPECT_EQ(cell.dict_block_bytes, real_dict.size() + 5);
        EXPECT_EQ(cell.stored_bytes, data_bytes + real_dict.size() + 5);
        EXPECT_EQ(*cell.store_file_bytes, sst.size());
      }
    }
  }
}

// zstd too: RocksDB 7.8 finalizes nothing without zstd_max_train_bytes (EnterUnbuffered), so
// every codec's dictionary is the same raw samples.
INSTANTIATE_TEST_SUITE_P(Codecs, RocksDbRawDictionary, ::testing::Values("zstd", "lz4", "zlib"));

// A raw row's line sets max_dict_bytes alone (RocksDB then uses raw samples); a trained row's
// sets zstd_max_train_bytes too.
TEST(RocksDbRawDictionaryLine, SetsMaxDictBytesAlone) {
  const StoreProfile* profile = find_store_profile("rocksdb");
  ASSERT_NE(profile, nullptr);
  const ConfigLine raw = store_config_line(
      *profile, {.codec = "zstd", .level = 3, .params = "3:rawdict=16K", .dict_size = kRawDict, .block_size = 4096});
  EXPECT_TRUE(raw.writable);
  EXPECT_EQ(raw.text,
            "compression=kZSTD;bottommost_compression=kZSTD;compression_opts={level=3;max_dict_bytes=16384};"
            "block_based_table_factory={block_size=4096}");
  const ConfigLine trained = store_config_line(
      *profile, {.codec = "zstd", .level = 3, .params = "3:dict=16K", .dict_size = kRawDict, .block_size = 4096});
  EXPECT_NE(trained.text.find("max_dict_bytes=16384;zstd_max_train_bytes=1638400}"), std::string::npos) << trained.text;
}

}  // namespace
}  // namespace kvz
