// RocksDB's dictionaries as kvzbench measures them (`--dict-method file`, the default), against
// real SST files: the same records written by SstFileWriter (librocksdb 7.8) with
// max_dict_bytes 16 KiB and zstd_max_train_bytes 100x, for every codec RocksDB gives a
// dictionary. The engine's stored bytes for the dictionary row must equal the file's data
// blocks plus its compression-dictionary meta block, byte for byte, and its net gain must have
// the sign the two real files show (with the dictionary's block against without).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "bench/engine.h"
#include "blockgen/layouts.h"
#include "codecs/registry.h"
#include "codecs/spec.h"
#include "real_stores.h"
#include "results/cell_view.h"
#include "stores/store_profile.h"

namespace kvz {
namespace {

using namespace real_stores;

constexpr size_t kDict = 16 * 1024;

// The rocksdb profile's rows of `codec` with a kDict dictionary (the store's call, and for
// lz4/zlib the best possible call beside it), run through the engine.
std::vector<CellResult> engine_dictionary_rows(const RecordSet& rs, const StoreProfile& profile,
                                               const std::string& codec) {
  std::string error;
  BlockSet blocks = build_blocks(rs, profile.layout, profile.block_size, error);
  EXPECT_TRUE(error.empty()) << error;
  std::vector<CodecChoice> rows;
  for (auto c : parse_codec_spec(profile.codecs, CodecRegistry::instance(), error)) {
    if (c.codec->info().name != codec) continue;
    c.params.dict_size = kDict;
    rows.push_back(c);
  }
  EXPECT_GE(rows.size(), 1u) << codec << " in " << profile.codecs;
  EngineOptions opt;
  opt.seconds_per_cell = 0.002;
  opt.repetitions = 1;
  opt.latency_calls = 10;
  std::vector<BlockGroup> groups;
  groups.push_back({std::move(blocks), &profile});
  const EngineOutcome o = run_matrix(build_matrix(std::move(groups), rows, CodecRegistry::instance()), opt);
  std::vector<CellResult> cells;
  for (const auto& c : o.cells)
    if (c.key.codec == codec) cells.push_back(c);
  EXPECT_EQ(cells.size(), rows.size());
  return cells;
}

// JSON documents and log lines (dictionaries pay), a binary map tile cut in 200-byte records,
// and a small file where the dictionary's 16 KiB block costs more than it saves.
const Corpus kDictCorpora[] = {
    {"json/twitter.json", "auto", 1 << 20},
    {"logs/apache_access_logs.log", "lines", 1 << 20},
    {"brotli/mapsdatazrh", "fixed:200", 1 << 20},
    {"csv/world-cities.csv", "lines", 96 << 10},
};

class RocksDbFileDictionary : public ::testing::TestWithParam<const char*> {};

TEST_P(RocksDbFileDictionary, StoredBytesAreTheFilesDataBlocksPlusItsDictionaryBlock) {
  const std::string codec = GetParam();
  const StoreProfile* profile = find_store_profile("rocksdb");
  ASSERT_NE(profile, nullptr);
  for (const auto& c : kDictCorpora) {
    SCOPED_TRACE(c.path);
    RecordSet rs = load_records(c.path, c.mode, c.max_bytes);
    const StoreBytes real = rocksdb_real(rs, codec, profile->block_size, kDict);
    const StoreBytes plain = rocksdb_real(rs, codec, profile->block_size);
    for (const CellResult& cell : engine_dictionary_rows(rs, *profile, codec)) {
      SCOPED_TRACE(cell.key.params);
      ASSERT_EQ(cell.status, CellStatus::Ok) << cell.failure;
      std::printf("[validate] rocksdb %-6s %-20s %-30s real %8llu B data + %6llu B dict | kvz %8llu B | %s\n",
                  codec.c_str(), cell.key.params.c_str(), c.path, static_cast<unsigned long long>(real.bytes),
                  static_cast<unsigned long long>(real.dict_block), static_cast<unsigned long long>(cell.stored_bytes),
                  dictionary_text(cell).c_str());
      ASSERT_GT(real.dict_block, 0u);  // RocksDB did write a dictionary
      EXPECT_EQ(cell.dict_method, "file");
      EXPECT_EQ(cell.blocks, real.blocks);
      EXPECT_EQ(cell.dict_block_bytes, real.dict_block);
      EXPECT_EQ(cell.stored_bytes, real.bytes + real.dict_block);
      // The net effect, as the two real files show it.
      ASSERT_TRUE(cell.dict_gain.has_value());
      EXPECT_EQ(cell.dict_loses(), real.bytes + real.dict_block > plain.bytes);
      EXPECT_DOUBLE_EQ(*cell.dict_gain,
                       static_cast<double>(plain.bytes) / static_cast<double>(real.bytes + real.dict_block));
    }
  }
}

// zstd trains on the samples; lz4 and zlib get the same trained dictionary (RocksDB 7.8 trains
// whenever zstd_max_train_bytes > 0, whatever the codec).
INSTANTIATE_TEST_SUITE_P(Codecs, RocksDbFileDictionary, ::testing::Values("zstd", "lz4", "zlib"));

}  // namespace
}  // namespace kvz
