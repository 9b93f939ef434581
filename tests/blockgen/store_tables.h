#pragma once
// Writes the same records with the stores' own table builders (compression off) and returns
// the data blocks found through the table's footer and index block, without trailers.
#include <leveldb/env.h>
#include <leveldb/options.h>
#include <leveldb/table_builder.h>
#include <rocksdb/db.h>
#include <rocksdb/env.h>
#include <rocksdb/metadata.h>
#include <rocksdb/options.h>
#include <rocksdb/sst_file_reader.h>
#include <rocksdb/sst_file_writer.h>
#include <rocksdb/table.h>
#include <rocksdb/table_properties.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "block_parsers.h"
#include "blockgen/block.h"

namespace kvz::test {

constexpr size_t kBlockTrailer = 5;  // compression type + crc32c, in both stores

// Data blocks from an index block's handles; also checks they tile the file from 0.
inline bool blocks_from_index(const std::string& file, const Handle& index, bool rocksdb_index,
                              std::vector<std::string>& blocks, std::string& why) {
  if (index.offset + index.size > file.size()) return (why = "index handle out of range", false);
  std::vector<Entry> entries;
  if (!parse_prefix_block(std::string_view(file).substr(index.offset, index.size), entries, 1, rocksdb_index))
    return (why = "index block does not parse", false);
  uint64_t expect = 0;
  for (const auto& e : entries) {
    Handle h;
    if (!decode_handle(e.second, h)) return (why = "bad block handle", false);
    if (h.offset != expect || h.offset + h.size > file.size()) return (why = "data blocks not contiguous", false);
    blocks.push_back(file.substr(h.offset, h.size));
    expect = h.offset + h.size + kBlockTrailer;
  }
  return true;
}

// LevelDB: TableBuilder with compression off; footer = 48 bytes (two handles padded to 40,
// magic 0xdb4775248b80fb57).
inline bool leveldb_data_blocks(const RecordSet& set, size_t block_size, std::vector<std::string>& blocks,
                                std::string& why) {
  const std::string path = temp_path("leveldb.ldb");
  leveldb::Options opt;
  opt.compression = leveldb::kNoCompression;
  opt.block_size = block_size;
  opt.block_restart_interval = 16;
  leveldb::WritableFile* raw_file = nullptr;
  if (!leveldb::Env::Default()->NewWritableFile(path, &raw_file).ok()) return (why = "cannot create " + path, false);
  std::unique_ptr<leveldb::WritableFile> file(raw_file);
  leveldb::TableBuilder builder(opt, file.get());
  for (const auto& r : set.records) builder.Add(r.key, r.value);
  if (!builder.Finish().ok() || !file->Close().ok()) return (why = "leveldb TableBuilder failed", false);
  const std::string data = read_file(path);
  std::remove(path.c_str());
  if (data.size() < 48 || enc::decode_fixed64(data.data() + data.size() - 8) != 0xdb4775248b80fb57ull)
    return (why = "bad leveldb footer", false);
  std::string_view footer = std::string_view(data).substr(data.size() - 48);
  Handle meta, index;
  if (!enc::get_varint64(footer, meta.offset) || !enc::get_varint64(footer, meta.size) ||
      !enc::get_varint64(footer, index.offset) || !enc::get_varint64(footer, index.size))
    return (why = "bad leveldb footer handles", false);
  return blocks_from_index(data, index, false, blocks, why);
}

// A RocksDB 7.8 table file's data blocks, through its footer (format_version 5: 53 bytes:
// checksum type, two handles padded to 40, format_version (4), magic (8)) and its index block
// (restart interval 1, value delta encoding: full handles).
inline bool rocksdb_file_blocks(const std::string& data, std::vector<std::string>& blocks, std::string& why) {
  if (data.size() < 53 || enc::decode_fixed64(data.data() + data.size() - 8) != 0x88e241b785f4cff7ull)
    return (why = "bad rocksdb footer magic", false);
  if (enc::decode_fixed32(data.data() + data.size() - 12) != 5) return (why = "format_version is not 5", false);
  std::string_view footer = std::string_view(data).substr(data.size() - 53 + 1);
  Handle meta, index;
  if (!enc::get_varint64(footer, meta.offset) || !enc::get_varint64(footer, meta.size) ||
      !enc::get_varint64(footer, index.offset) || !enc::get_varint64(footer, index.size))
    return (why = "bad rocksdb footer handles", false);
  return blocks_from_index(data, index, true, blocks, why);
}

// The table options both RocksDB writers below use: compression off, no filter.
inline rocksdb::Options rocksdb_plain_options(size_t block_size) {
  rocksdb::Options options;
  options.compression = rocksdb::kNoCompression;
  rocksdb::BlockBasedTableOptions t;
  t.block_size = block_size;
  t.block_restart_interval = 16;
  t.block_size_deviation = 10;
  t.filter_policy = nullptr;
  options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(t));
  return options;
}

// RocksDB 7.8: SstFileWriter (seq 0, kTypeValue), compression off, format_version 5.
inline bool rocksdb_data_blocks(const RecordSet& set, size_t block_size, std::vector<std::string>& blocks,
                                uint64_t& reported_blocks, std::string& why) {
  const std::string path = temp_path("rocksdb.sst");
  const rocksdb::Options options = rocksdb_plain_options(block_size);
  {
    rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), options);
    if (!writer.Open(path).ok()) return (why = "cannot open " + path, false);
    for (const auto& r : set.records) {
      const auto s = writer.Put(r.key, r.value);
      if (!s.ok()) return (why = "SstFileWriter::Put: " + s.ToString(), false);
    }
    const auto s = writer.Finish();
    if (!s.ok()) return (why = "SstFileWriter::Finish: " + s.ToString(), false);
  }
  {
    rocksdb::SstFileReader reader(options);
    if (!reader.Open(path).ok()) return (why = "SstFileReader cannot open", false);
    reported_blocks = reader.GetTableProperties()->num_data_blocks;
  }
  const std::string data = read_file(path);
  std::remove(path.c_str());
  return rocksdb_file_blocks(data, blocks, why);
}

// RocksDB 7.8's own flush: a DB (WAL off, one memtable big enough for every record) takes the
// records in `write_order` (indexes into set.records), each Put given the next sequence number,
// and one flush writes them to an L0 file, sorted by key, with those numbers.
inline bool rocksdb_flush_blocks(const RecordSet& set, const std::vector<size_t>& write_order, size_t block_size,
                                 std::vector<std::string>& blocks, std::string& why) {
  const std::string dir = temp_path("flush_db");
  std::filesystem::remove_all(dir);
  rocksdb::Options options = rocksdb_plain_options(block_size);
  options.create_if_missing = true;
  options.write_buffer_size = 256 << 20;
  options.disable_auto_compactions = true;
  rocksdb::DB* raw = nullptr;
  if (!rocksdb::DB::Open(options, dir, &raw).ok()) return (why = "cannot open a DB at " + dir, false);
  std::unique_ptr<rocksdb::DB> db(raw);
  rocksdb::WriteOptions write;
  write.disableWAL = true;
  for (size_t i : write_order)
    if (!db->Put(write, set.records[i].key, set.records[i].value).ok()) return (why = "Put failed", false);
  if (!db->Flush(rocksdb::FlushOptions()).ok()) return (why = "Flush failed", false);
  std::vector<rocksdb::LiveFileMetaData> files;
  db->GetLiveFilesMetaData(&files);
  db.reset();
  if (files.size() != 1) return (why = std::to_string(files.size()) + " table files after one flush", false);
  const std::string data = read_file(files[0].db_path + files[0].name);
  std::filesystem::remove_all(dir);
  return rocksdb_file_blocks(data, blocks, why);
}

}  // namespace kvz::test
