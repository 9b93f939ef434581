// RocksDB and LevelDB tables as `run`/`blocks` sources (stores/rocksdb/table_reader.h).
#include "stores/rocksdb/table_reader.h"

#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>

#include "stores/rocksdb/table_file.h"
#include "stores/shared/file_bytes.h"
#include "stores/shared/store_source.h"
#include "stores/shared/table_name.h"

namespace kvz {

// The codec spec of a table's blocks, level from the properties' compression_options (32767 =
// kDefaultCompressionLevel: the store's default, i.e. the plain codec under its profile;
// RocksDB 7.8's LZ4 and bzip2 ignore the level: acceleration 1, blockSize100k 1, which the
// profile's rows are).
std::string table_codec_spec(const TableFile& t) {
  if (t.compression == "none") return "memcpy";
  if (t.compression == "mixed") return "";
  const auto at = t.compression_options.find("level=");
  int level = 32767;
  if (at != std::string::npos) level = std::atoi(t.compression_options.c_str() + at + 6);
  if (level == 32767 || t.compression == "snappy" || t.compression == "lz4" || t.compression == "bzip2")
    return t.compression;
  return fmt::format("{}:{}", t.compression, level);
}

namespace {

std::string table_detail(const TableFile& t, uint64_t raw, size_t records, bool cut) {
  static const char* const kChecksums[] = {"no", "CRC32C", "xxHash", "xxHash64", "XXH3"};
  return fmt::format(
      "{} table{} ({}): {} data blocks, {} bytes on disk {}; {} records{}; {} checksums verified{}", t.store,
      t.store == "rocksdb" ? fmt::format(" format_version {}", t.format_version) : "", t.compression, t.blocks_total,
      t.on_disk_total,
      t.cut() ? fmt::format("(the first {}, {} on disk, read for {} raw)", t.data_blocks.size(), t.data_bytes(), raw)
              : fmt::format("for {} raw", raw),
      records, t.dict_bytes ? fmt::format(", dictionary block {} B", t.dict_bytes) : "", kChecksums[t.checksum_type],
      cut ? "; the first records only (--max-bytes)" : "");
}

}  // namespace

std::string TableFileReader::magic_store(const std::string& path) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  return ec || size < 48 ? "" : table_store(read_from_end(path, size, 8, 8));
}

Claim TableFileReader::claim(const std::string& path) const {
  if (magic_store(path) == "rocksdb") return Claim::file;
  const std::string ext = std::filesystem::path(path).extension().string();
  return ext == ".sst" || ext == ".ldb" ? Claim::name : Claim::none;
}

bool TableFileReader::read(const std::string& path, size_t max_bytes, RecordSet& set, std::string& error) const {
  TableFile t;
  if (!read_table_file(path, t, error, max_bytes)) return false;
  const uint64_t raw = t.data_raw.size();
  // The blocks as stored: the reader stopped at max_bytes (whole blocks), so they are all of
  // its decoded bytes, taken over rather than copied (peak memory).
  StoredBlocksBuilder stored(set, max_bytes, false);
  for (const auto& b : t.data_blocks) stored.add(b.raw_size, b.on_disk);
  set.stored_blocks = std::move(t.data_raw);
  stored.finish(0);
  bool cut = false;
  keep_records(std::move(t.records), max_bytes, set, cut);
  cut = cut || t.cut();
  set.record_mode = t.store + "-table";  // the file's store: a LevelDB magic may hold a RocksDB table
  set.source_bytes = t.cut() ? cut_source_bytes(path, raw) : raw;
  set.origin.store = t.store;
  set.origin.codec = table_codec_spec(t);
  set.origin.dictionary = t.dictionary;
  set.origin.dictionary_on_disk = t.dict_bytes;
  set.origin.table = t.store == "rocksdb" ? rocksdb_table_name(path, t.column_family) : leveldb_table_name(path);
  set.origin.files = 1;
  set.origin.data_bytes = t.on_disk_total + t.dict_bytes;
  set.origin.file_codecs[set.origin.codec.empty() ? "mixed" : set.origin.codec] = 1;
  set.detail = table_detail(t, raw, set.records.size(), cut);
  return true;
}

std::unique_ptr<StoreFileReader> rocksdb_reader() { return std::make_unique<TableFileReader>(); }

}  // namespace kvz
