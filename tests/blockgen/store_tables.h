#pragma once
// Writes the same records with the stores' own table builders (compression off) and returns
// the data blocks found through the table's footer and index block, without trailers.
#include <leveldb/env.h>
#include <leveldb/options.h>
#include <leveldb/table_builder.h>
#include <rocksdb/env.h>
#include <rocksdb/options.h>
#include <rocksdb/sst_file_reader.h>
#include <rocksdb/sst_file_writer.h>
#include <rocksdb/table.h>
#include <rocksdb/table_properties.h>

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

// RocksDB 7.8: SstFileWriter (seq 0, kTypeValue), compression off, format_version 5. Footer
// = 53 bytes: checksum type, two handles padded to 40, format_version (4), magic (8). The
// index block (restart interval 1, value delta encoding) holds full handles.
inline bool rocksdb_data_blocks(const RecordSet& set, size_t block_size, std::vector<std::string>& blocks,
                                uint64_t& reported_blocks, std::string& why) {
  const std::string path = temp_path("rocksdb.sst");
  rocksdb::Options options;
  options.compression = rocksdb::kNoCompression;
  rocksdb::BlockBasedTableOptions t;
  t.block_size = block_size;
  t.block_restart_interval = 16;
  t.block_size_deviation = 10;
  t.filter_policy = nullptr;
  options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(t));
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

}  // namespace kvz::test
