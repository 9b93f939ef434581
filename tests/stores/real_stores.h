#pragma once
// Real store files for the store tests: the same records written with RocksDB's SstFileWriter
// (librocksdb 7.8) and LevelDB's TableBuilder (libleveldb 1.23), and what their files hold.
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

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <set>
#include <string>

#include <fmt/format.h>

#include "blockgen/records.h"

namespace kvz::real_stores {

namespace fs = std::filesystem;

// The on-disk bytes of a file's data blocks, each with its 5-byte trailer.
struct StoreBytes {
  uint64_t bytes = 0;
  uint64_t blocks = 0;
  uint64_t kept_raw = 0;    // prediction only
  uint64_t dict_block = 0;  // RocksDB: the compression dictionary meta block, trailer included (0: none)
  uint64_t file_bytes = 0;  // the whole file
};

inline std::string corpus_path(const std::string& rel) {
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
// A corpus file as the store tests read it: its path under KVZ_CORPORA, record mode and prefix.
struct Corpus {
  const char* path;
  const char* mode;
  size_t max_bytes;
};

inline RecordSet load_records(const std::string& rel, const std::string& mode, size_t max_bytes) {
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

inline rocksdb::CompressionType rocksdb_type(const std::string& codec) {
  if (codec == "snappy") return rocksdb::kSnappyCompression;
  if (codec == "zlib") return rocksdb::kZlibCompression;
  if (codec == "lz4") return rocksdb::kLZ4Compression;
  if (codec == "lz4hc") return rocksdb::kLZ4HCCompression;
  if (codec == "zstd") return rocksdb::kZSTD;
  if (codec == "bzip2") return rocksdb::kBZip2Compression;
  return rocksdb::kNoCompression;
}

// The whole file, or "" with `error` set.
inline std::string read_file_bytes(const std::string& path, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in.good() && !in.eof()) error = "cannot read " + path;
  return bytes;
}

inline bool get_varint(const std::string& s, size_t& pos, uint64_t& v) {
  v = 0;
  for (int shift = 0; shift <= 63 && pos < s.size(); shift += 7) {
    const auto b = static_cast<uint8_t>(s[pos++]);
    v |= static_cast<uint64_t>(b & 0x7f) << shift;
    if (!(b & 0x80)) return true;
  }
  return false;
}

// Where a RocksDB block-based table (format_version 2..5, as 7.8 writes) keeps its blocks, read
// from the file's own bytes: the 53-byte footer (checksum type, metaindex handle, index
// handle, padding, version, magic) gives the metaindex and index blocks; the metaindex's
// entries are name -> BlockHandle(offset, size). Sizes exclude the 5-byte trailer. Facts from
// RocksDB's table/format.cc and table/block_based/block_builder.cc; the metaindex is never
// compressed.
struct SstLayout {
  uint64_t index_offset = 0, index_size = 0;
  uint64_t metaindex_offset = 0, metaindex_size = 0;
  std::map<std::string, std::pair<uint64_t, uint64_t>> meta;  // name -> (offset, size)
};

inline bool sst_layout(const std::string& sst, SstLayout& out, std::string& error) {
  constexpr size_t kFooter = 53;
  if (sst.size() < kFooter) {
    error = "file shorter than a footer";
    return false;
  }
  size_t pos = sst.size() - kFooter + 1;  // after the checksum type
  if (!get_varint(sst, pos, out.metaindex_offset) || !get_varint(sst, pos, out.metaindex_size) ||
      !get_varint(sst, pos, out.index_offset) || !get_varint(sst, pos, out.index_size) ||
      out.metaindex_offset + out.metaindex_size > sst.size() || out.metaindex_size < 4) {
    error = "bad footer handles";
    return false;
  }
  const std::string block = sst.substr(out.metaindex_offset, out.metaindex_size);
  uint32_t restarts = 0;
  std::memcpy(&restarts, block.data() + block.size() - 4, 4);  // little-endian fixed32
  const size_t entries_end = block.size() - 4 - 4 * static_cast<size_t>(restarts);
  std::string key;
  for (size_t p = 0; p < entries_end;) {
    uint64_t shared = 0, non_shared = 0, value_len = 0;
    if (!get_varint(block, p, shared) || !get_varint(block, p, non_shared) || !get_varint(block, p, value_len) ||
        p + non_shared + value_len > entries_end || shared > key.size()) {
      error = "bad metaindex entry";
      return false;
    }
    key = key.substr(0, shared) + block.substr(p, non_shared);
    p += non_shared;
    size_t v = p;
    p += value_len;
    uint64_t offset = 0, size = 0;
    if (!get_varint(block, v, offset) || !get_varint(block, v, size)) {
      error = "bad metaindex handle";
      return false;
    }
    out.meta[key] = {offset, size};
  }
  return true;
}

// The size of the meta block named `name` (trailer excluded), 0 when the file has none.
inline uint64_t meta_block_size(const std::string& sst, const std::string& name, std::string& error) {
  SstLayout layout;
  if (!sst_layout(sst, layout, error)) return 0;
  const auto it = layout.meta.find(name);
  return it == layout.meta.end() ? 0 : it->second.second;
}

// The SSTs the tests write: every codec RocksDB 7.8 has here (Debian's librocksdb links libbz2),
// and with a 16 KiB dictionary the three that take one. `row`: the current row RocksDB's own
// call for it is (stores/rocksdb/rocksdb.cpp; bzip2 at blockSize100k 1 whatever the level).
struct SstCase {
  const char* codec;
  uint32_t dict;
  const char* row;
};
inline constexpr SstCase kSstCases[] = {
    {"none", 0, "memcpy 0"},
    {"snappy", 0, "snappy 0"},
    {"zlib", 0, "zlib 6:fresh"},
    {"lz4", 0, "lz4 1:stream:fresh"},
    {"lz4hc", 0, "lz4hc 9:fresh"},
    {"zstd", 0, "zstd 3"},
    {"bzip2", 0, "bzip2 1"},
    {"zstd", 16384, "zstd 3:dict=16K"},
    {"lz4", 16384, "lz4 1:stream:fresh:dict=16K"},
    {"zlib", 16384, "zlib 6:fresh:dict=16K"},
};

// Writes `rs` to `path` with SstFileWriter; `options` gets the table and compression settings.
// `level` > 0 sets compression_opts.level (as kvzbench's configuration line does); 0 keeps
// kDefaultCompressionLevel. A dictionary is trained (zstd_max_train_bytes 100 x) unless
// `raw_dict`: max_dict_bytes alone, RocksDB's raw samples.
inline void write_sst(const RecordSet& rs, const std::string& codec, size_t block_size, uint32_t max_dict_bytes,
                      const std::string& path, rocksdb::Options& options, int level = 0, bool raw_dict = false) {
  rocksdb::BlockBasedTableOptions table;
  table.block_size = block_size;
  options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  options.compression = rocksdb_type(codec);
  if (level > 0) options.compression_opts.level = level;
  if (max_dict_bytes > 0) {
    options.compression_opts.max_dict_bytes = max_dict_bytes;
    options.compression_opts.zstd_max_train_bytes = raw_dict ? 0 : 100 * max_dict_bytes;
  }
  rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), options);
  rocksdb::Status s = writer.Open(path);
  EXPECT_TRUE(s.ok()) << s.ToString();
  for (const auto& r : rs.records) {
    s = writer.Put(r.key, r.value);
    if (!s.ok()) break;
  }
  EXPECT_TRUE(s.ok()) << s.ToString();
  s = writer.Finish();
  EXPECT_TRUE(s.ok()) << s.ToString();
}

// One SST of kSstCases, written by RocksDB and opened by its own reader.
struct WrittenSst {
  const SstCase& c;
  size_t block = 0;
  const std::string& path;
  const std::string& what;  // the case in words, for failure messages
  const rocksdb::TableProperties& props;
};
// Every case of kSstCases at 4 and 16 KiB blocks: writes `rs` to a temporary file (named after
// `tag`), opens it with RocksDB's SstFileReader and hands it to `check`.
inline void for_each_written_sst(const RecordSet& rs, const std::string& tag,
                                 const std::function<void(const WrittenSst&)>& check) {
  for (const auto& c : kSstCases) {
    for (size_t block : {size_t{4096}, size_t{16384}}) {
      const std::string what = fmt::format("{} dict {} block {}", c.codec, c.dict, block);
      TempFile file(fmt::format("{}_{}_{}_{}.sst", tag, c.codec, c.dict, block));
      rocksdb::Options options;
      write_sst(rs, c.codec, block, c.dict, file.path, options);
      rocksdb::SstFileReader reader(options);
      ASSERT_TRUE(reader.Open(file.path).ok()) << what;
      check({c, block, file.path, what, *reader.GetTableProperties()});
    }
  }
}

// RocksDB: SstFileWriter with the defaults a user gets (format_version 5, level
// kDefaultCompressionLevel), 4 KiB blocks. TableProperties::data_size counts every data block
// with its trailer, which is what store_block's `bytes` counts.
inline StoreBytes rocksdb_real(const RecordSet& rs, const std::string& codec, size_t block_size,
                               uint32_t max_dict_bytes = 0) {
  TempFile file("rocksdb_" + codec + ".sst");
  rocksdb::Options options;
  write_sst(rs, codec, block_size, max_dict_bytes, file.path, options);
  rocksdb::Status s;
  std::string error;
  const std::string sst = read_file_bytes(file.path, error);
  EXPECT_TRUE(error.empty()) << error;
  const uint64_t dict = meta_block_size(sst, "rocksdb.compression_dict", error);
  EXPECT_TRUE(error.empty()) << error;
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
                                     : codec == "bzip2" ? "BZip2"
                                                        : "Snappy");
  return {props->data_size, props->num_data_blocks, 0, dict ? dict + 5 : 0, sst.size()};
}

// LevelDB has no table properties: Table::ApproximateOffsetOf(key) is the offset of the data
// block holding `key`, and past the last key it is the metaindex offset = the end of the data
// blocks (no filter policy), so it gives both the block count and the data bytes.
// Writes `rs` to `path` with LevelDB's TableBuilder (snappy or none, `block_size`); the file's size.
inline uint64_t write_leveldb_table(const RecordSet& rs, bool snappy, size_t block_size, const std::string& path) {
  leveldb::Options options;
  options.block_size = block_size;
  options.compression = snappy ? leveldb::kSnappyCompression : leveldb::kNoCompression;
  leveldb::WritableFile* out = nullptr;
  EXPECT_TRUE(leveldb::Env::Default()->NewWritableFile(path, &out).ok());
  if (!out) return 0;
  std::unique_ptr<leveldb::WritableFile> out_owner(out);
  leveldb::TableBuilder builder(options, out);
  for (const auto& r : rs.records) builder.Add(r.key, r.value);
  EXPECT_TRUE(builder.Finish().ok());
  EXPECT_TRUE(out->Close().ok());
  return builder.FileSize();
}

inline StoreBytes leveldb_real(const RecordSet& rs, bool snappy, size_t block_size) {
  TempFile file(std::string("leveldb_") + (snappy ? "snappy" : "none") + ".ldb");
  const uint64_t size = write_leveldb_table(rs, snappy, block_size, file.path);
  leveldb::Options options;
  options.block_size = block_size;
  options.compression = snappy ? leveldb::kSnappyCompression : leveldb::kNoCompression;
  leveldb::Env* env = leveldb::Env::Default();

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
  return {table->ApproximateOffsetOf(past_end), starts.size(), 0, 0, size};
}

}  // namespace kvz::real_stores
