// The configuration line each store profile prints for a recommendation: exact text per
// store, refusals for what a store cannot write, and RocksDB's line applied to a real DB.
#include <gtest/gtest.h>
#include <rocksdb/convenience.h>
#include <rocksdb/db.h>
#include <rocksdb/table.h>
#include <rocksdb/table_properties.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <utility>

#include "report/console.h"
#include "stores/store_profile.h"

namespace kvz {
namespace {

ConfigLine line(const std::string& store, const ConfigChoice& c) {
  const StoreProfile* p = find_store_profile(store);
  EXPECT_NE(p, nullptr) << store;
  return p ? store_config_line(*p, c) : ConfigLine{};
}

// Cassandra's statement names the table the run read (CorpusInfo::table); a directory path
// (the fallback name for a file outside a keyspace's directory) is no CQL name: the placeholder.
TEST(ConfigLine, CassandraNamesTheRealTableWhenKnown) {
  ConfigChoice lz4{.codec = "lz4", .level = 1, .params = "1", .block_size = 16384, .table = "ks.events"};
  EXPECT_EQ(line("cassandra", lz4).text,
            "ALTER TABLE ks.events WITH compression = {'class': 'LZ4Compressor', 'chunk_length_in_kb': 16};");
  EXPECT_EQ(line("scylla", lz4).text.rfind("ALTER TABLE ks.events WITH", 0), 0u);
  lz4.table = "/var/lib/cassandra/legacy_nb_clust";
  EXPECT_EQ(line("cassandra", lz4).text.rfind("ALTER TABLE ks.tbl WITH", 0), 0u);
}

TEST(ConfigLine, EachStoreInItsOwnSyntax) {
  const ConfigChoice zstd3{.codec = "zstd", .level = 3, .params = "3", .block_size = 16384};
  const std::pair<const char*, const char*> zstd3_lines[] = {
      {"rocksdb",
       "compression=kZSTD;bottommost_compression=kZSTD;compression_opts={level=3};"
       "block_based_table_factory={block_size=16384}"},
      {"cassandra",
       "ALTER TABLE ks.tbl WITH compression = {'class': 'ZstdCompressor', 'compression_level': 3, "
       "'chunk_length_in_kb': 16};"},
      {"scylla",
       "ALTER TABLE ks.tbl WITH compression = {'sstable_compression': 'ZstdCompressor', 'compression_level': 3, "
       "'chunk_length_in_kb': 16};"},
      {"hbase",
       "alter 'tbl', {NAME => 'cf', COMPRESSION => 'ZSTD', BLOCKSIZE => '16384', "
       "CONFIGURATION => {'hbase.io.compress.zstd.level' => '3'}}"},
      {"tarantool", "{name = 'value', type = 'string', compression = 'zstd'}"},
      {"wiredtiger",
       "block_compressor=zstd,leaf_page_max=16KB (wiredtiger_open: "
       "extensions=[libwiredtiger_zstd.so=(config=(compression_level=3))])"},
      {"leveldb:version=main",
       "options.compression = leveldb::kZstdCompression; options.zstd_compression_level = 3; "
       "options.block_size = 16384;  (LevelDB main (unreleased) only)"},
  };
  for (const auto& [store, text] : zstd3_lines) EXPECT_EQ(line(store, zstd3).text, text) << store;
  EXPECT_EQ(line("wiredtiger", {.codec = "snappy", .block_size = 32768}).text,
            "block_compressor=snappy,leaf_page_max=32KB");
  EXPECT_EQ(line("leveldb", {.codec = "snappy", .block_size = 4096}).text,
            "options.compression = leveldb::kSnappyCompression; options.block_size = 4096;");
  EXPECT_EQ(line("cassandra", {.codec = "lz4hc", .level = 9, .block_size = 4096}).text,
            "ALTER TABLE ks.tbl WITH compression = {'class': 'LZ4Compressor', 'lz4_compressor_type': 'high', "
            "'lz4_high_compressor_level': 9, 'chunk_length_in_kb': 4};");
}

TEST(ConfigLine, RefusesWhatTheStoreCannotWrite) {
  const auto xz = line("rocksdb", {.codec = "xz", .level = 6, .block_size = 4096});
  EXPECT_FALSE(xz.writable);
  EXPECT_EQ(xz.text, "rocksdb cannot write xz");
  EXPECT_FALSE(line("leveldb", {.codec = "lz4", .level = 1, .block_size = 4096}).writable);
  EXPECT_FALSE(line("cassandra", {.codec = "zstd", .level = 3, .dict_size = 16384, .block_size = 4096}).writable);
  EXPECT_FALSE(line("cassandra", {.codec = "zlib", .level = 9, .block_size = 4096}).writable);
  EXPECT_FALSE(line("cassandra", {.codec = "zstd", .level = 3, .block_size = 3072}).writable);
  EXPECT_FALSE(line("tarantool", {.codec = "zstd", .level = 19, .block_size = 4096}).writable);
  EXPECT_TRUE(line("rocksdb", {.codec = "memcpy", .block_size = 4096}).writable);
}

// The reference codec (CodecInfo::is_reference) is written as plain blocks, each store saying
// so in its own syntax; the text is the one the by-name comparison gave.
TEST(ConfigLine, TheUncompressedReferenceInEachStoresSyntax) {
  const std::map<std::string, std::string> expected = {
      {"rocksdb",
       "compression=kNoCompression;bottommost_compression=kNoCompression;block_based_table_factory={block_size=4096}"},
      {"leveldb", "options.compression = leveldb::kNoCompression; options.block_size = 4096;"},
      {"cassandra", "ALTER TABLE ks.tbl WITH compression = {'enabled': false};"},
      {"scylla", "ALTER TABLE ks.tbl WITH compression = {'sstable_compression': ''};"},
      {"hbase", "alter 'tbl', {NAME => 'cf', COMPRESSION => 'NONE', BLOCKSIZE => '4096'}"},
      {"wiredtiger", "block_compressor=,leaf_page_max=4KB"},
      {"tarantool", "{name = 'value', type = 'string'}"}};
  for (const StoreProfile& p : store_profiles()) {
    const ConfigLine l = line(p.name, {.codec = "memcpy", .block_size = 4096});
    EXPECT_TRUE(l.writable) << p.name << ": " << l.text;
    ASSERT_TRUE(expected.count(p.name)) << p.name << " has no expected line here";
    EXPECT_EQ(l.text, expected.at(p.name));
    std::string options;
    EXPECT_EQ(store_codec_options(p, "memcpy", options), "") << p.name;
    EXPECT_FALSE(line(p.name, {.codec = "nocodec", .block_size = 4096}).writable) << p.name;
  }
}

// bzip2 (kBZip2Compression): RocksDB's parser takes the line; the level it carries is the row's,
// which RocksDB 7.8's BZip2_Compress ignores (blockSize100k 1).
TEST(ConfigLine, RocksDbTakesTheBzip2Line) {
  const ConfigLine cfg = line("rocksdb", {.codec = "bzip2", .level = 1, .params = "1", .block_size = 16384});
  ASSERT_TRUE(cfg.writable) << cfg.text;
  EXPECT_EQ(cfg.text,
            "compression=kBZip2Compression;bottommost_compression=kBZip2Compression;compression_opts={level=1};"
            "block_based_table_factory={block_size=16384}");
  rocksdb::ConfigOptions parse;
  parse.ignore_unknown_options = false;
  rocksdb::ColumnFamilyOptions cf;
  const rocksdb::Status parsed = rocksdb::GetColumnFamilyOptionsFromString(parse, {}, cfg.text, &cf);
  ASSERT_TRUE(parsed.ok()) << parsed.ToString();
  EXPECT_EQ(cf.compression, rocksdb::kBZip2Compression);
  EXPECT_EQ(cf.bottommost_compression, rocksdb::kBZip2Compression);
}

// The console wraps a long line between its options (report/console.h wrap_config_line). Copied
// as it is printed, its line breaks and indents included, RocksDB 7.8's parser gives the same
// options as from the line whole: it trims the white space around each option and value.
TEST(ConfigLine, RocksDbTakesTheLineTheConsoleWrapped) {
  const ConfigLine cfg =
      line("rocksdb", {.codec = "lz4hc", .level = 9, .params = "9:dict=16K", .dict_size = 16384, .block_size = 16384});
  const std::string lead = "    rocksdb: ";
  const std::string printed = wrap_config_line(lead, cfg.text, 60);
  ASSERT_GE(std::count(printed.begin(), printed.end(), '\n'), 2) << printed;  // inside {...} too
  const std::string copied = printed.substr(lead.size());
  rocksdb::ConfigOptions parse;
  parse.ignore_unknown_options = false;
  rocksdb::ColumnFamilyOptions whole, wrapped;
  ASSERT_TRUE(rocksdb::GetColumnFamilyOptionsFromString(parse, {}, cfg.text, &whole).ok());
  const rocksdb::Status parsed = rocksdb::GetColumnFamilyOptionsFromString(parse, {}, copied, &wrapped);
  ASSERT_TRUE(parsed.ok()) << parsed.ToString() << " for\n" << copied;
  EXPECT_EQ(wrapped.compression, rocksdb::kLZ4HCCompression);
  EXPECT_EQ(wrapped.bottommost_compression, whole.bottommost_compression);
  EXPECT_EQ(wrapped.compression_opts.level, 9);
  EXPECT_EQ(wrapped.compression_opts.max_dict_bytes, whole.compression_opts.max_dict_bytes);
  EXPECT_EQ(wrapped.compression_opts.zstd_max_train_bytes, whole.compression_opts.zstd_max_train_bytes);
  const auto* table = wrapped.table_factory->GetOptions<rocksdb::BlockBasedTableOptions>();
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->block_size, 16384U);
}

// The RocksDB line, given to RocksDB 7.8's own options parser and used to open a DB: the
// file it flushes says the codec, level, dictionary and block size the line asked for.
TEST(ConfigLine, RocksDbOpensWithTheLineAndWritesWhatItSays) {
  const ConfigChoice choice{
      .codec = "zstd", .level = 5, .params = "5:dict=16K", .dict_size = 16384, .block_size = 8192};
  const ConfigLine cfg = line("rocksdb", choice);
  ASSERT_TRUE(cfg.writable) << cfg.text;
  rocksdb::ConfigOptions parse;
  parse.ignore_unknown_options = false;
  rocksdb::ColumnFamilyOptions cf;
  const rocksdb::Status parsed = rocksdb::GetColumnFamilyOptionsFromString(parse, {}, cfg.text, &cf);
  ASSERT_TRUE(parsed.ok()) << parsed.ToString() << " for " << cfg.text;
  EXPECT_EQ(cf.compression, rocksdb::kZSTD);
  EXPECT_EQ(cf.bottommost_compression, rocksdb::kZSTD);
  EXPECT_EQ(cf.compression_opts.level, 5);
  EXPECT_EQ(cf.compression_opts.max_dict_bytes, 16384U);
  EXPECT_EQ(cf.compression_opts.zstd_max_train_bytes, 1638400U);

  const auto dir = std::filesystem::temp_directory_path() / ("kvz_cfg_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  rocksdb::Options options(rocksdb::DBOptions(), cf);
  options.create_if_missing = true;
  rocksdb::DB* raw = nullptr;
  ASSERT_TRUE(rocksdb::DB::Open(options, dir.string(), &raw).ok());
  std::unique_ptr<rocksdb::DB> db(raw);
  for (int i = 0; i < 20000; ++i)
    ASSERT_TRUE(db->Put({}, "key" + std::to_string(100000 + i), "value of record " + std::to_string(i * 7)).ok());
  ASSERT_TRUE(db->Flush({}).ok());
  rocksdb::TablePropertiesCollection props;
  ASSERT_TRUE(db->GetPropertiesOfAllTables(&props).ok());
  ASSERT_EQ(props.size(), 1U);
  const auto& p = *props.begin()->second;
  EXPECT_EQ(p.compression_name, "ZSTD");
  EXPECT_NE(p.compression_options.find("level=5;"), std::string::npos) << p.compression_options;
  EXPECT_NE(p.compression_options.find("max_dict_bytes=16384;"), std::string::npos) << p.compression_options;
  EXPECT_NE(p.compression_options.find("zstd_max_train_bytes=1638400;"), std::string::npos) << p.compression_options;
  const auto* table = db->GetOptions().table_factory->GetOptions<rocksdb::BlockBasedTableOptions>();
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->block_size, 8192U);
  // Blocks of ~8 KiB (not the 4 KiB default): raw keys and values per block, prefix-shared
  // keys counted in full, land between 6 and 12 KB.
  ASSERT_GT(p.num_data_blocks, 1U);
  const double per_block =
      static_cast<double>(p.raw_key_size + p.raw_value_size) / static_cast<double>(p.num_data_blocks);
  EXPECT_GT(per_block, 6000.0);
  EXPECT_LT(per_block, 12000.0);
  db.reset();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace kvz
