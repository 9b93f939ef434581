// Validation of the rocksdb and leveldb store profiles against the real libraries: the same
// records are written with RocksDB's SstFileWriter (librocksdb 7.8) and LevelDB's TableBuilder
// (libleveldb 1.23), the data-block bytes in the files are summed, and kvzbench's prediction
// (blockgen blocks -> kvz codec session -> store_block) must equal them byte for byte.
#include <gtest/gtest.h>

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "blockgen/layouts.h"
#include "codecs/registry.h"
#include "codecs/spec.h"
#include "real_stores.h"
#include "stores/store_profile.h"

namespace kvz {
namespace {

using namespace real_stores;

// kvzbench's prediction: blockgen blocks, the kvz codec session with the profile's params,
// store_block per block. The rocksdb profile's lz4 row is `lz4:1:stream`: LZ4_compress_fast_continue
// on a freshly initialised stream, the call RocksDB 7.8's LZ4_Compress makes. kvz's plain lz4
// row is the one-shot LZ4_compress_fast_extState, which Cassandra, ScyllaDB and HBase call.
StoreBytes kvz_prediction(const RecordSet& rs, const StoreProfile& profile, const std::string& codec) {
  std::string error;
  BlockSet blocks = build_blocks(rs, profile.layout, profile.block_size, error);
  EXPECT_TRUE(error.empty()) << error;
  const CodecChoice* choice = nullptr;
  auto choices = parse_codec_spec(profile.codecs, CodecRegistry::instance(), error);
  for (const auto& c : choices) {
    if (c.codec->info().name == codec) choice = &c;
  }
  EXPECT_NE(choice, nullptr) << codec << " not in " << profile.codecs;
  if (!choice) return {};
  const BlockCodec as_stored{codec, choice->params.label(), choice->codec->info().is_reference};
  EXPECT_TRUE(store_supports_codec(profile, as_stored)) << codec << " " << as_stored.params;
  auto session = choice->codec->open(choice->params, nullptr);
  EXPECT_TRUE(session.ok()) << session.error;
  if (!session.ok()) return {};
  StoreBytes sum;
  std::vector<uint8_t> out;
  for (size_t i = 0; i < blocks.count(); ++i) {
    auto block = blocks.block(i);
    out.resize(session.value->bound(block.size()));
    CallResult r = session.value->compress(block, out);
    EXPECT_TRUE(r.ok()) << r.error;
    StoredBlock sb = store_block(profile, as_stored, block.size(), r.size);
    sum.bytes += sb.bytes;
    sum.kept_raw += sb.kept_raw;
  }
  sum.blocks = blocks.count();
  return sum;
}

double deviation_pct(uint64_t predicted, uint64_t real) {
  return 100.0 * (static_cast<double>(predicted) - static_cast<double>(real)) / static_cast<double>(real);
}

void report(const std::string& what, const StoreBytes& predicted, const StoreBytes& real) {
  std::printf("[validate] %-44s real %9llu B %5llu blocks | kvz %9llu B %5llu blocks (%llu raw) | %+.3f %%\n",
              what.c_str(), static_cast<unsigned long long>(real.bytes), static_cast<unsigned long long>(real.blocks),
              static_cast<unsigned long long>(predicted.bytes), static_cast<unsigned long long>(predicted.blocks),
              static_cast<unsigned long long>(predicted.kept_raw), deviation_pct(predicted.bytes, real.bytes));
}

struct ValidationCorpus {
  const char* path;
  const char* mode;
};

// JSON documents, log lines, and a binary file cut in 200-byte records (blocks near the
// keep-raw line, so the rule itself is exercised). About 4 MB of records in all.
const ValidationCorpus kValidationCorpora[] = {
    {"json/twitter.json", "auto"},
    {"logs/apache_access_logs.log", "lines"},
    {"brotli/mapsdatazrh", "fixed:200"},
};
constexpr size_t kMaxBytes = 2u << 20;

// Over every corpus: the store's real bytes (`write_real` with the store's block size) against
// the profile's prediction for `codec`, blocks and bytes exactly (stores/README.md: 0.000 %).
void expect_predictions_exact(const char* store, const std::string& codec,
                              const std::function<StoreBytes(const RecordSet&, size_t)>& write_real) {
  const StoreProfile* profile = find_store_profile(store);
  ASSERT_NE(profile, nullptr);
  for (const auto& c : kValidationCorpora) {
    SCOPED_TRACE(c.path);
    RecordSet rs = load_records(c.path, c.mode, kMaxBytes);
    ASSERT_GE(rs.records.size(), 50u);
    StoreBytes real = write_real(rs, profile->block_size);
    StoreBytes kvz = kvz_prediction(rs, *profile, codec);
    report(std::string(store) + " " + codec + " " + c.path, kvz, real);
    EXPECT_EQ(kvz.blocks, real.blocks);
    EXPECT_EQ(kvz.bytes, real.bytes);
  }
}

class RocksDbProfile : public ::testing::TestWithParam<const char*> {};

TEST_P(RocksDbProfile, PredictionEqualsSstFileWriter) {
  const std::string codec = GetParam();
  expect_predictions_exact("rocksdb", codec,
                           [&codec](const RecordSet& rs, size_t block) { return rocksdb_real(rs, codec, block); });
}

INSTANTIATE_TEST_SUITE_P(Codecs, RocksDbProfile, ::testing::Values("snappy", "zlib", "lz4", "lz4hc", "zstd", "bzip2"));

// Dictionary rows (RocksDB's per-file dictionary, its meta block included): rocksdb_dictionary_test.cpp.

TEST(LevelDbProfile, PredictionEqualsTableBuilder) {
  expect_predictions_exact("leveldb", "snappy",
                           [](const RecordSet& rs, size_t block) { return leveldb_real(rs, true, block); });
}

// The uncompressed file is the check on the harness itself: blocks + trailers, exactly.
TEST(LevelDbProfile, UncompressedDataBytesMatchExactly) {
  const StoreProfile* profile = find_store_profile("leveldb");
  ASSERT_NE(profile, nullptr);
  RecordSet rs = load_records("json/twitter.json", "auto", kMaxBytes);
  StoreBytes real = leveldb_real(rs, false, profile->block_size);
  StoreBytes kvz = kvz_prediction(rs, *profile, "snappy");
  std::string error;
  BlockSet blocks = build_blocks(rs, "leveldb", profile->block_size, error);
  EXPECT_EQ(real.bytes, blocks.total_bytes() + 5 * blocks.count());
  EXPECT_EQ(real.blocks, kvz.blocks);
}

}  // namespace
}  // namespace kvz
