// `kvzbench run`'s plan, built without reading or measuring anything.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>

#include "commands/run_plan.h"

namespace kvz {
namespace {

RunPlan plan_of(RunArgs a) {
  RunPlan p;
  std::string error;
  EXPECT_TRUE(make_plan(a, p, error)) << error;
  return p;
}

std::string error_of(RunArgs a) {
  RunPlan p;
  std::string error;
  EXPECT_FALSE(make_plan(a, p, error));
  return error;
}

TEST(RunPlan, DefaultSweepIsRocksDbBlocksOfTheBuiltInSources) {
  const RunPlan p = plan_of({});
  EXPECT_EQ(p.sweep->name, "default");
  EXPECT_EQ(p.store, nullptr);
  EXPECT_EQ(p.sources.datasets, p.sweep->datasets);
  EXPECT_EQ(p.layouts, std::vector<std::string>{"rocksdb"});
  EXPECT_EQ(p.block_sizes, (std::vector<size_t>{4096, 16384, 65536}));
  EXPECT_EQ(p.dict_sizes, std::vector<size_t>{16384});
  EXPECT_EQ(p.dict_codecs, std::vector<std::string>{"zstd"});
  EXPECT_EQ(p.sources.dataset_bytes, size_t{512} << 10);
  EXPECT_TRUE(p.sources.hash_files);
  EXPECT_FALSE(p.codecs_given);
  std::vector<CodecChoice> rows;
  std::string error;
  ASSERT_TRUE(make_choices(p, CodecRegistry::instance(), rows, error)) << error;
  size_t dict_rows = 0;
  for (const auto& r : rows) dict_rows += r.params.dict_size != 0;
  EXPECT_EQ(dict_rows, 3u);  // zstd -1, 1, 3, each with a 16 KiB dictionary (not 9 or 19: the run's budget)
}

TEST(RunPlan, StoreProfileSetsLayoutBlockSizeCodecsDictionaryAndStallLine) {
  RunArgs a;
  a.profile = "scylla";
  a.sources.files = {"x.log"};
  const RunPlan p = plan_of(a);
  ASSERT_NE(p.store, nullptr);
  EXPECT_EQ(p.layouts, std::vector<std::string>{"raw"});
  EXPECT_EQ(p.block_sizes, std::vector<size_t>{4096});
  EXPECT_EQ(p.codecs, p.store->codecs);
  EXPECT_EQ(p.dict_sizes, std::vector<size_t>{16384});
  EXPECT_EQ(p.engine.stall_thresholds_ns, (std::vector<uint64_t>{500'000, 1'000'000}));
  EXPECT_DOUBLE_EQ(p.engine.seconds_per_cell, 0.5);  // named sources: a measurement, not a sweep
  EXPECT_EQ(p.engine.repetitions, 5);
}

TEST(RunPlan, NamedSourcesAreSlicedRawUnlessLayoutGiven) {
  RunArgs a;
  a.sources.datasets = "dbbench";
  EXPECT_EQ(plan_of(a).layouts, std::vector<std::string>{"raw"});
  EXPECT_TRUE(plan_of(a).sources.files.empty());
  a.sources.layouts = "leveldb,hbase";
  a.sources.layouts_given = true;
  EXPECT_EQ(plan_of(a).layouts, (std::vector<std::string>{"leveldb", "hbase"}));
  a.sources.max_bytes = "1M";
  EXPECT_EQ(plan_of(a).sources.dataset_bytes, size_t{1} << 20);
  a.sources.dataset_bytes = "2M";
  EXPECT_EQ(plan_of(a).sources.dataset_bytes, size_t{2} << 20);
}

TEST(RunPlan, BadValuesAreOneLineErrors) {
  RunArgs a;
  a.sources.layouts = "sst";
  a.sources.layouts_given = true;
  EXPECT_EQ(error_of(a),
            "unknown layout 'sst': expected one of raw, leveldb, rocksdb, hbase, values, values:single, wiredtiger, "
            "wiredtiger:insert, "
            "as-stored");
  a = {};
  a.sources.datasets = "tpcc";
  EXPECT_EQ(error_of(a), "unknown dataset 'tpcc': expected one of dbbench, mixgraph, cache, json-docs, timeseries");
  a = {};
  a.profile = "mongodb";
  EXPECT_NE(error_of(a).find("unknown profile 'mongodb': expected one of quick, default, full, rocksdb"),
            std::string::npos);
  for (double t : {0.0, -1.0, std::nan(""), 1e9}) {
    a = {};
    a.time = t;
    EXPECT_EQ(error_of(a), "--time must be > 0 and at most 3600 seconds") << t;
  }
  for (const char* d : {"2K", "200K", "abc", "16K,"}) {
    a = {};
    a.dict = d;
    EXPECT_NE(error_of(a).find("--dict"), std::string::npos) << d << ": " << error_of(a);
  }
  a = {};
  a.profile = "rocksdb";
  a.sources.layouts = "leveldb";
  a.sources.layouts_given = true;
  EXPECT_EQ(error_of(a),
            "--profile rocksdb builds rocksdb blocks; -l leveldb contradicts it (drop -l, or drop the store profile)");
  for (int r : {0, -1, 1001}) {
    a = {};
    a.repetitions = r;
    EXPECT_EQ(error_of(a), "--repetitions must be between 1 and 1000") << r;
  }
  a = {};
  a.profile = "scylla";
  a.sources.block_sizes = "256K";
  EXPECT_EQ(error_of(a), "block size 256K out of range for profile scylla: 1K..128K");
  a = {};
  a.sources.seed = "-1";
  EXPECT_EQ(error_of(a), "bad --seed '-1' (an integer 0..2^64-1)");
  a = {};
  a.sources.record_mode = "xml";
  EXPECT_EQ(error_of(a), "unknown record mode 'xml' (auto, lines, jsonl, json, csv, tsv, kv, kv-hex, fixed:N, bytes)");
  a.sources.record_mode = "fixed:0";
  EXPECT_EQ(error_of(a), "record mode 'fixed:0': the record size 0 is out of range (1..1048576 bytes)");
  a = {};
  for (const char* bad : {"0", "-1", "99999999999"}) {
    a.sources.record.key_field = bad;
    EXPECT_NE(error_of(a).find("a field number is 1..65536"), std::string::npos) << bad;
  }
}

// --cache, --dict-method and --sort: each value parsed once into its enum by its option row;
// the engine keeps the mode's name (the cell key's `cache` in the results file).
TEST(RunPlan, ModeOptionsParseIntoTheirEnums) {
  RunArgs a;
  RunPlan p = plan_of(a);
  EXPECT_EQ(p.cache, CacheMode::Stream);
  EXPECT_EQ(p.dict_method, DictMethod::File);
  EXPECT_EQ(p.sort, TableSort::CompressSpeed);
  a.cache = "cold";
  a.dict_method = "split";
  a.sort = "ratio";
  p = plan_of(a);
  EXPECT_EQ(p.cache, CacheMode::Cold);
  EXPECT_EQ(p.engine.cache, "cold");
  EXPECT_EQ(p.dict_method, DictMethod::Split);
  EXPECT_EQ(p.engine.dict_method, "split");
  EXPECT_EQ(p.sort, TableSort::Ratio);
  a.sort = "none";
  EXPECT_EQ(plan_of(a).sort, TableSort::None);
}

// The error lists the accepted values from the same row the parser reads.
TEST(RunPlan, ModeOptionErrorsListTheRowsValues) {
  RunArgs a;
  a.cache = "warm";
  EXPECT_EQ(error_of(a), "invalid --cache 'warm': expected stream, hot or cold");
  a = {};
  a.dict_method = "sample";
  EXPECT_EQ(error_of(a), "invalid --dict-method 'sample': expected file or split");
  a = {};
  a.sort = "speed";
  EXPECT_EQ(error_of(a), "invalid --sort 'speed': expected cspeed, dspeed, ratio or none");
  a.sort = "Ratio";  // names are exact
  EXPECT_EQ(error_of(a), "invalid --sort 'Ratio': expected cspeed, dspeed, ratio or none");
  EXPECT_EQ(accepted_values(kCacheOption, " | ", " | "), "stream | hot | cold");
  EXPECT_EQ(option_name(kSortOption, TableSort::DecompressSpeed), "dspeed");
}

}  // namespace
}  // namespace kvz

namespace kvz {
namespace {

// The codec rows a plan makes, or the error.
std::string rows_of(const std::string& profile, const std::string& codecs, std::vector<CodecChoice>& rows) {
  RunArgs a;
  a.profile = profile;
  a.profile_given = true;
  a.codecs = codecs;
  a.sources.files = {"x.log"};
  RunPlan p;
  std::string error;
  if (!make_plan(a, p, error)) return error;
  rows.clear();
  make_choices(p, CodecRegistry::instance(), rows, error);
  return error;
}

// Under a store profile a row is what that store writes: a codec it cannot write is refused
// with the list of those it can; a plain lz4 or zlib means the store's own call.
TEST(RunPlan, StoreProfilesWriteOnlyTheirCodecsInTheirOwnCalls) {
  std::vector<CodecChoice> rows;
  EXPECT_EQ(rows_of("leveldb", "lz4", rows),
            "leveldb writes snappy (and uncompressed blocks): not lz4; drop --profile to measure lz4 on its own");
  EXPECT_NE(rows_of("leveldb", "snappy/xz:6", rows).find("not xz"), std::string::npos);
  ASSERT_EQ(rows_of("rocksdb", "lz4/zlib:1/zstd:3", rows), "");
  std::vector<std::string> labels;
  for (const auto& r : rows)
    if (!r.params.dict_size) labels.push_back(r.params.label());
  // RocksDB's whole calls: LZ4_compress_fast_continue on a stream created per block; raw
  // deflate with the stream set up per block; zstd as given.
  EXPECT_EQ(labels, (std::vector<std::string>{"1:stream:fresh", "1:fresh", "3"}));
  ASSERT_EQ(rows_of("rocksdb", "lz4:1:stream", rows), "");  // the same bytes, a reused stream: allowed
  EXPECT_EQ(rows[0].params.label(), "1:stream");
  EXPECT_NE(rows_of("rocksdb", "zlib:6:zlib", rows).find("rocksdb writes zlib as zlib:6"), std::string::npos);
  ASSERT_EQ(rows_of("cassandra", "zlib:1", rows), "");
  EXPECT_EQ(rows[0].params.label(), "1:zlib");  // java.util.zip.Deflater: the zlib container
  ASSERT_EQ(rows_of("rocksdb", "", rows), "");  // the store's own list passes its own check
  EXPECT_FALSE(rows.empty());
  // RocksDB 7.8 writes bzip2 at blockSize100k 1 whatever its level: every level is that one row.
  ASSERT_EQ(rows_of("rocksdb", "bzip2:1..9/bzip2", rows), "");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].label(), "bzip2 1");
}

// Under --profile rocksdb each trained zstd, lz4 and zlib dictionary row has a raw-sample twin
// (RocksDB's max_dict_bytes without zstd_max_train_bytes) right after it; lz4hc has none, and
// a raw row named with -c is kept as given.
TEST(RunPlan, RocksDbDictionaryRowsHaveRawSampleTwins) {
  std::vector<CodecChoice> rows;
  ASSERT_EQ(rows_of("rocksdb", "zstd:3/lz4:1:stream:fresh/lz4hc:9:fresh", rows), "");
  std::vector<std::string> labels;
  for (const auto& r : rows) labels.push_back(r.codec->info().name + " " + r.params.label());
  EXPECT_EQ(labels, (std::vector<std::string>{"zstd 3", "zstd 3:dict=16K", "zstd 3:rawdict=16K", "lz4 1:stream:fresh",
                                              "lz4 1:stream:fresh:dict=16K", "lz4 1:stream:fresh:rawdict=16K",
                                              "lz4hc 9:fresh", "lz4hc 9:fresh:dict=16K"}));
  ASSERT_EQ(rows_of("rocksdb", "zstd:3:rawdict=8K", rows), "");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].params.label(), "3:rawdict=8K");
  ASSERT_EQ(rows_of("scylla", "zstd:3", rows), "");  // ScyllaDB's dictionaries are trained only
  for (const auto& r : rows) EXPECT_FALSE(r.params.raw_dict) << r.label();
}

// Issue 24: a text file that ends in LevelDB's table magic, named with no --profile, was told
// to "drop --profile". The store is the file's: the messages say so and name fixes that apply.
TEST(RunPlan, AStoreTheFilesChoseIsNotCalledAGivenProfile) {
  const auto path = std::filesystem::temp_directory_path() / ("kvz_magic_" + std::to_string(::getpid()) + ".txt");
  {
    std::ofstream f(path, std::ios::binary);
    f << std::string(100, 'x');
    for (uint64_t magic = 0xdb4775248b80fb57ull, i = 0; i < 8; ++i, magic >>= 8) f.put(static_cast<char>(magic & 0xff));
  }
  RunArgs a;
  a.sources.files = {path.string()};
  a.codecs = "lz4";
  RunPlan p;
  std::string error;
  ASSERT_TRUE(make_plan(a, p, error)) << error;
  ASSERT_NE(p.store, nullptr);
  EXPECT_TRUE(p.store_from_files);
  std::vector<CodecChoice> rows;
  EXPECT_FALSE(make_choices(p, CodecRegistry::instance(), rows, error));
  EXPECT_EQ(error,
            "the named files look like leveldb files, so the leveldb profile applies: leveldb writes snappy (and "
            "uncompressed blocks): not lz4 (--profile default measures lz4 without leveldb's framing)");
  a.sources.layouts = "rocksdb";
  a.sources.layouts_given = true;
  EXPECT_EQ(error_of(a),
            "the named files look like leveldb files, so the leveldb profile applies, which builds leveldb blocks; -l "
            "rocksdb contradicts it (use -l as-stored or -l leveldb)");
  a.profile = "leveldb";
  a.profile_given = true;  // named: the --profile wording stays
  EXPECT_EQ(error_of(a),
            "--profile leveldb builds leveldb blocks; -l rocksdb contradicts it (drop -l, or drop the store profile)");
  std::filesystem::remove(path);
}

// --name: one name per file, in order, the source in cell ids; anything else is refused.
TEST(RunPlan, NamesGiveTheFilesTheirSourceNames) {
  RunArgs a;
  a.sources.files = {"/x/a.log", "/y/a.log"};
  a.sources.names = "orders,users";
  EXPECT_EQ(plan_of(a).sources.names, (std::vector<std::string>{"orders", "users"}));
  a.sources.names = "orders";
  EXPECT_EQ(error_of(a), "--name gives 1 name(s) for 2 file(s): one per file, in order");
  a.sources.names = "orders,orders";
  EXPECT_NE(error_of(a).find("unique"), std::string::npos);
  a.sources.names = "a/b,c";
  EXPECT_NE(error_of(a).find("without '/'"), std::string::npos);
}

}  // namespace
}  // namespace kvz
