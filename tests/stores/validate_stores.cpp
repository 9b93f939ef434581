// Validation of the rocksdb and leveldb store profiles against the real libraries: the same
// records are written with RocksDB's SstFileWriter (librocksdb 7.8) and LevelDB's TableBuilder
// (libleveldb 1.23), the data-block bytes in the files are summed, and kvzbench's prediction
// (blockgen blocks -> kvz codec session -> store_block) must equal them byte for byte.
#include <gtest/gtest.h>
#include <leveldb/env.h>
#include <leveldb/options.h>
#include <leveldb/table.h>
#include <leveldb/table_builder.h>
#include <rocksdb/options.h>
#include <rocksdb/sst_file_reader.h>
#include <rocksdb/sst_file_writer.h>
#include <rocksdb/table.h>
#include <rocksdb/table_properties.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "blockgen/layouts.h"
#include "blockgen/records.h"
#include "codecs/dictionary.h"
#include "codecs/registry.h"
#include "codecs/spec.h"
#include "stores/store_profile.h"

namespace kvz {
namespace {

namespace fs = std::filesystem;

// The on-disk bytes of a file's data blocks, each with its 5-byte trailer.
struct StoreBytes {
  uint64_t bytes = 0;
  uint64_t blocks = 0;
  uint64_t kept_raw = 0;  // prediction only
};

std::string corpus_path(const std::string& rel) {
  const char* dir = std::getenv("KVZ_CORPORA");
  return std::string(dir ? dir : KVZ_SOURCE_DIR "/../shared/corpora") + "/" + rel;
}

// A temp file removed on scope exit.
struct TempFile {
  std::string path;
  explicit TempFile(const std::string& tag) {
    path = (fs::temp_directory_path() / ("kvz_validate_" + std::to_string(::getpid()) + "_" + tag)).string();
  }
  ~TempFile() {
    std::error_code ec;
    fs::remove(path, ec);
  }
};

// Records from a real corpus, keys strictly increasing (both stores require it).
RecordSet load_records(const std::string& rel, const std::string& mode, size_t max_bytes) {
  std::string error;
  RecordSet rs = read_corpus(corpus_path(rel), mode, max_bytes, error);
  EXPECT_TRUE(error.empty()) << error;
  std::vector<Record> unique;
  for (auto& r : rs.records) {
    if (!unique.empty() && unique.back().key >= r.key) continue;
    unique.push_back(std::move(r));
  }
  rs.records = std::move(unique);
  return rs;
}

rocksdb::CompressionType rocksdb_type(const std::string& codec) {
  if (codec == "snappy") return rocksdb::kSnappyCompression;
  if (codec == "zlib") return rocksdb::kZlibCompression;
  if (codec == "lz4") return rocksdb::kLZ4Compression;
  if (codec == "lz4hc") return rocksdb::kLZ4HCCompression;
  if (codec == "zstd") return rocksdb::kZSTD;
  return rocksdb::kNoCompression;
}

// RocksDB: SstFileWriter with the defaults a user gets (format_version 5, level
// kDefaultCompressionLevel), 4 KiB blocks. TableProperties::data_size counts every data block
// with its trailer, which is what store_block's `bytes` counts.
StoreBytes rocksdb_real(const RecordSet& rs, const std::string& codec, size_t block_size, uint32_t max_dict_bytes = 0) {
  TempFile file("rocksdb_" + codec + ".sst");
  rocksdb::Options options;
  rocksdb::BlockBasedTableOptions table;
  table.block_size = block_size;
  options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  options.compression = rocksdb_type(codec);
  if (max_dict_bytes > 0) {
    options.compression_opts.max_dict_bytes = max_dict_bytes;
    options.compression_opts.zstd_max_train_bytes = 100 * max_dict_bytes;
  }
  rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), options);
  rocksdb::Status s = writer.Open(file.path);
  EXPECT_TRUE(s.ok()) << s.ToString();
  for (const auto& r : rs.records) {
    s = writer.Put(r.key, r.value);
    if (!s.ok()) break;
  }
  EXPECT_TRUE(s.ok()) << s.ToString();
  s = writer.Finish();
  EXPECT_TRUE(s.ok()) << s.ToString();
  rocksdb::SstFileReader reader(options);
  s = reader.Open(file.path);
  EXPECT_TRUE(s.ok()) << s.ToString();
  auto props = reader.GetTableProperties();
  EXPECT_NE(props, nullptr);
  if (!props) return {};
  EXPECT_EQ(props->compression_name, codec == "zlib"    ? "Zlib"
                                     : codec == "zstd"  ? "ZSTD"
                                     : codec == "lz4"   ? "LZ4"
                                     : codec == "lz4hc" ? "LZ4HC"
                                                        : "Snappy");
  return {props->data_size, props->num_data_blocks, 0};
}

// LevelDB has no table properties: Table::ApproximateOffsetOf(key) is the offset of the data
// block holding `key`, and past the last key it is the metaindex offset = the end of the data
// blocks (no filter policy), so it gives both the block count and the data bytes.
StoreBytes leveldb_real(const RecordSet& rs, bool snappy, size_t block_size) {
  TempFile file(std::string("leveldb_") + (snappy ? "snappy" : "none") + ".ldb");
  leveldb::Options options;
  options.block_size = block_size;
  options.compression = snappy ? leveldb::kSnappyCompression : leveldb::kNoCompression;
  leveldb::Env* env = leveldb::Env::Default();
  leveldb::WritableFile* out = nullptr;
  EXPECT_TRUE(env->NewWritableFile(file.path, &out).ok());
  std::unique_ptr<leveldb::WritableFile> out_owner(out);
  leveldb::TableBuilder builder(options, out);
  for (const auto& r : rs.records) builder.Add(r.key, r.value);
  EXPECT_TRUE(builder.Finish().ok());
  EXPECT_TRUE(out->Close().ok());
  const uint64_t size = builder.FileSize();

  leveldb::RandomAccessFile* in = nullptr;
  EXPECT_TRUE(env->NewRandomAccessFile(file.path, &in).ok());
  std::unique_ptr<leveldb::RandomAccessFile> in_owner(in);
  leveldb::Table* table = nullptr;
  leveldb::Status s = leveldb::Table::Open(options, in, size, &table);
  EXPECT_TRUE(s.ok()) << s.ToString();
  std::unique_ptr<leveldb::Table> table_owner(table);
  if (!table) return {};
  std::set<uint64_t> starts;
  for (const auto& r : rs.records) starts.insert(table->ApproximateOffsetOf(r.key));
  // Index keys are shortened successors (the last one can exceed last key + "\xff"): only
  // an all-0xff key longer than every key sorts after all of them.
  const std::string past_end(rs.records.back().key.size() + 1, '\xff');
  return {table->ApproximateOffsetOf(past_end), starts.size(), 0};
}

// kvzbench's prediction: blockgen blocks, the kvz codec session with the profile's params,
// store_block per block. The rocksdb profile's lz4 row is `lz4:1:stream`: LZ4_compress_fast_continue
// on a freshly initialised stream, the call RocksDB 7.8's LZ4_Compress makes. kvz's plain lz4
// row is the one-shot LZ4_compress_fast_extState, which Cassandra, ScyllaDB and HBase call.
// RocksDB's per-file dictionary: store_dictionary_samples (the EnterUnbuffered sampling)
// trained by ZDICT_trainFromBuffer, as ZSTD_TrainDictionary does.
std::vector<uint8_t> rocksdb_file_dictionary(const StoreProfile& profile, const BlockSet& blocks,
                                             size_t max_dict_bytes) {
  TrainedDict d = train_dictionary(store_dictionary_samples(profile, blocks, max_dict_bytes), max_dict_bytes);
  EXPECT_TRUE(d.ok()) << d.error;
  return d.bytes;
}

StoreBytes kvz_prediction(const RecordSet& rs, const StoreProfile& profile, const std::string& codec,
                          size_t dict_bytes = 0) {
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
  std::shared_ptr<const PreparedDict> dict;
  if (dict_bytes > 0) {
    std::vector<uint8_t> trained = rocksdb_file_dictionary(profile, blocks, dict_bytes);
    auto d = choice->codec->prepare_dict(trained, choice->params);
    EXPECT_TRUE(d.ok()) << d.error;
    dict = d.value;
  }
  const BlockCodec as_stored{codec, choice->params.label(), choice->codec->info().is_reference};
  EXPECT_TRUE(store_supports_codec(profile, as_stored)) << codec << " " << as_stored.params;
  auto session = choice->codec->open(choice->params, dict);
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

struct Corpus {
  const char* path;
  const char* mode;
};

// JSON documents, log lines, and a binary file cut in 200-byte records (blocks near the
// keep-raw line, so the rule itself is exercised). About 4 MB of records in all.
const Corpus kCorpora[] = {
    {"json/twitter.json", "auto"},
    {"logs/apache_access_logs.log", "lines"},
    {"brotli/mapsdatazrh", "fixed:200"},
};
constexpr size_t kMaxBytes = 2u << 20;

class RocksDbProfile : public ::testing::TestWithParam<const char*> {};

TEST_P(RocksDbProfile, PredictionEqualsSstFileWriter) {
  const std::string codec = GetParam();
  const StoreProfile* profile = find_store_profile("rocksdb");
  ASSERT_NE(profile, nullptr);
  for (const auto& c : kCorpora) {
    SCOPED_TRACE(c.path);
    RecordSet rs = load_records(c.path, c.mode, kMaxBytes);
    ASSERT_GE(rs.records.size(), 50u);
    StoreBytes real = rocksdb_real(rs, codec, profile->block_size);
    StoreBytes kvz = kvz_prediction(rs, *profile, codec);
    report(std::string("rocksdb ") + codec + " " + c.path, kvz, real);
    EXPECT_EQ(kvz.blocks, real.blocks);
    EXPECT_EQ(kvz.bytes, real.bytes);  // stores/README.md: 0.000 %
  }
}

INSTANTIATE_TEST_SUITE_P(Codecs, RocksDbProfile, ::testing::Values("snappy", "zlib", "lz4", "lz4hc", "zstd"));

// Dictionary mode (max_dict_bytes 16 KiB, zstd_max_train_bytes 100x): one trained dictionary
// per file, every data block compressed with it. The dictionary itself is a meta block, not
// counted in data_size, and not in this comparison.
TEST(RocksDbProfileDictionary, ZstdDictionaryPerFileEqualsSstFileWriter) {
  const StoreProfile* profile = find_store_profile("rocksdb");
  ASSERT_NE(profile, nullptr);
  ASSERT_FALSE(profile->dict_sizes.empty());
  const size_t dict = profile->dict_sizes.front();
  for (const auto& c : kCorpora) {
    SCOPED_TRACE(c.path);
    RecordSet rs = load_records(c.path, c.mode, kMaxBytes);
    StoreBytes real = rocksdb_real(rs, "zstd", profile->block_size, static_cast<uint32_t>(dict));
    StoreBytes plain = rocksdb_real(rs, "zstd", profile->block_size);
    StoreBytes kvz = kvz_prediction(rs, *profile, "zstd", dict);
    report(std::string("rocksdb zstd dict=16K ") + c.path, kvz, real);
    EXPECT_LT(real.bytes, plain.bytes);  // the dictionary was really used by RocksDB
    EXPECT_EQ(kvz.blocks, real.blocks);
    EXPECT_EQ(kvz.bytes, real.bytes);  // stores/README.md: 0.000 %
  }
}

TEST(LevelDbProfile, PredictionEqualsTableBuilder) {
  const StoreProfile* profile = find_store_profile("leveldb");
  ASSERT_NE(profile, nullptr);
  for (const auto& c : kCorpora) {
    SCOPED_TRACE(c.path);
    RecordSet rs = load_records(c.path, c.mode, kMaxBytes);
    ASSERT_GE(rs.records.size(), 50u);
    StoreBytes real = leveldb_real(rs, true, profile->block_size);
    StoreBytes kvz = kvz_prediction(rs, *profile, "snappy");
    report(std::string("leveldb snappy ") + c.path, kvz, real);
    EXPECT_EQ(kvz.blocks, real.blocks);
    EXPECT_EQ(kvz.bytes, real.bytes);  // stores/README.md: 0.000 %
  }
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
