#include "blockgen/store_files/store_source.h"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "blockgen/corpus.h"
#include "blockgen/store_files/file_bytes.h"
#include "blockgen/store_files/hfile.h"
#include "blockgen/store_files/sstable_data.h"
#include "blockgen/store_files/table_file.h"
#include "util/bytes.h"

namespace kvz {

namespace fs = std::filesystem;

namespace {

bool is_data_db(const std::string& path) {
  const std::string name = fs::path(path).filename().string();
  const std::string suffix = "-Data.db";
  return name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// A RocksDB/LevelDB table by its magic (the last 8 bytes), whatever its name.
bool has_table_magic(const std::string& path) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  return !ec && size >= 48 && is_table_file(read_from_end(path, size, 8, 8));
}

// An HBase HFile v2/v3 by its trailer (the version in the last 4 bytes, the trailer magic).
bool has_hfile_trailer(const std::string& path) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (ec || size < 60) return false;
  const auto version = read_from_end(path, size, 4, 4);
  if (version.size() != 4) return false;
  const int major = version[3] | version[2] << 8 | version[1] << 16;
  // v1 (60-byte trailer) is recognised so that its reader can say it does not take it.
  const uint64_t trailer = major == 3 ? 4096 : major == 2 ? 212 : major == 1 ? 60 : 0;
  const auto magic = trailer ? read_from_end(path, size, trailer, 8) : std::vector<uint8_t>{};
  return std::string(magic.begin(), magic.end()) == "TRABLK\"$";
}

// Records kept up to `max_bytes` of key+value bytes; their bytes, in file order, are the raw
// stream too.
void keep_records(std::vector<Record> records, size_t max_bytes, RecordSet& set, bool& cut) {
  uint64_t kept = 0;
  size_t n = 0;
  for (; n < records.size() && (!max_bytes || kept < max_bytes); ++n)
    kept += records[n].key.size() + records[n].value.size();
  cut = n < records.size();
  records.resize(n);
  set.records = std::move(records);
  for (const auto& r : set.records) {
    set.raw.insert(set.raw.end(), r.key.begin(), r.key.end());
    set.raw.insert(set.raw.end(), r.value.begin(), r.value.end());
  }
  set.sampled_bytes = kept;
  set.sample_sha256 = sha256_hex(std::string_view(reinterpret_cast<const char*>(set.raw.data()), set.raw.size()));
}

bool read_hfile_source(const std::string& path, size_t max_bytes, RecordSet& set, std::string& error) {
  Hfile f;
  if (!read_hfile(path, f, error)) return false;
  std::vector<Record> records;
  if (!hfile_records(f, records)) {
    error = path + ": the data blocks do not read as the trailer's " + std::to_string(f.entries) +
            " KeyValue cells (an encoded data block format?)";
    return false;
  }
  uint64_t raw = 0, on_disk = 0;
  for (const auto& b : f.blocks)
    if (b.magic == "DATABLK*") raw += b.raw.size(), on_disk += b.on_disk;
  bool cut = false;
  keep_records(std::move(records), max_bytes, set, cut);
  // The raw stream is the data blocks as HBase compressed them (the raw layout re-chunks it);
  // the records are the cells, in key order (a cell's key: row, family, qualifier, timestamp,
  // type), which the record layouts re-block.
  set.raw.clear();
  for (const auto& b : f.blocks)
    if (b.magic == "DATABLK*" && (!max_bytes || set.raw.size() < max_bytes))
      set.raw.insert(set.raw.end(), b.raw.begin(), b.raw.end());
  set.record_mode = "hbase-hfile";
  set.source_bytes = raw;
  set.detail = fmt::format("HFile v{}.{} ({}): {} data blocks, {} bytes on disk for {} raw; {} cells{}", f.major,
                           f.minor, f.codec, f.data_blocks(), on_disk, raw, set.records.size(),
                           cut ? "; the first cells only (--max-bytes)" : "");
  return true;
}

bool read_table_source(const std::string& path, size_t max_bytes, RecordSet& set, std::string& error) {
  TableFile t;
  if (!read_table_file(path, t, error)) return false;
  uint64_t raw = 0;
  for (const auto& b : t.data_blocks) raw += b.raw.size();
  bool cut = false;
  keep_records(std::move(t.records), max_bytes, set, cut);
  set.record_mode = t.store + "-table";
  set.source_bytes = raw;
  static const char* const kChecksums[] = {"no", "CRC32C", "xxHash", "xxHash64", "XXH3"};
  set.detail =
      fmt::format("{} table{} ({}): {} data blocks, {} bytes on disk for {} raw; {} records{}; {} checksums verified{}",
                  t.store, t.store == "rocksdb" ? fmt::format(" format_version {}", t.format_version) : "",
                  t.compression, t.data_blocks.size(), t.data_bytes(), raw, set.records.size(),
                  t.dict_bytes ? fmt::format(", dictionary block {} B", t.dict_bytes) : "", kChecksums[t.checksum_type],
                  cut ? "; the first records only (--max-bytes)" : "");
  return true;
}

}  // namespace

bool is_store_file(const std::string& path) {
  return is_data_db(path) || has_table_magic(path) || has_hfile_trailer(path);
}

bool is_store_source(const RecordSet& set) {
  return set.record_mode == "sstable-data" || set.record_mode == "rocksdb-table" ||
         set.record_mode == "leveldb-table" || set.record_mode == "hbase-hfile";
}

std::vector<std::string> store_files_in(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.is_regular_file(ec) && is_store_file(e.path().string())) files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

bool read_store_file(const std::string& path, size_t max_bytes, RecordSet& set, std::string& error) {
  if (has_hfile_trailer(path)) return read_hfile_source(path, max_bytes, set, error);
  if (!is_data_db(path)) return read_table_source(path, max_bytes, set, error);
  SstableData t;
  if (!read_sstable_data(path, t, error, max_bytes)) return false;
  size_t used = 0;
  for (const auto& c : t.chunks) {
    if (c.raw.empty()) break;  // past --max-bytes: checksummed, not decoded
    set.raw.insert(set.raw.end(), c.raw.begin(), c.raw.end());
    ++used;
  }
  set.record_mode = "sstable-data";
  // The digest of the stream read, as for a corpus sample: the same table read again matches.
  set.sample_sha256 = sha256_hex(std::string_view(reinterpret_cast<const char*>(set.raw.data()), set.raw.size()));
  set.source_bytes = t.data_length;
  set.sampled_bytes = set.raw.size();
  set.detail = fmt::format("{} Data.db ({}): {}, {} chunks of {}, {} bytes on disk for {} raw{}",
                           t.format.empty() ? "SSTable" : t.format, t.codec, t.compressor, t.chunks.size(),
                           format_byte_size(t.chunk_length), t.data_db_bytes(), t.data_length,
                           used < t.chunks.size() ? fmt::format("; the first {} chunks read (--max-bytes)", used) : "");
  return true;
}

}  // namespace kvz
