#include "blockgen/store_files/store_source.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "blockgen/corpus.h"
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
  if (ec || size < 48) return false;
  std::ifstream in(path, std::ios::binary);
  std::array<uint8_t, 8> tail{};
  in.seekg(static_cast<std::streamoff>(size - 8));
  in.read(reinterpret_cast<char*>(tail.data()), 8);
  return in.gcount() == 8 && is_table_file(tail);
}

bool read_table_source(const std::string& path, size_t max_bytes, RecordSet& set, std::string& error) {
  TableFile t;
  if (!read_table_file(path, t, error)) return false;
  uint64_t raw = 0;
  for (const auto& b : t.data_blocks) raw += b.raw.size();
  set.records = std::move(t.records);
  // The records are the source (any layout re-blocks them); their bytes, in file order, are
  // the raw stream too. --max-bytes keeps the first records up to that many key+value bytes.
  uint64_t kept = 0;
  size_t n = 0;
  for (; n < set.records.size() && (!max_bytes || kept < max_bytes); ++n)
    kept += set.records[n].key.size() + set.records[n].value.size();
  const bool cut = n < set.records.size();
  set.records.resize(n);
  for (const auto& r : set.records) {
    set.raw.insert(set.raw.end(), r.key.begin(), r.key.end());
    set.raw.insert(set.raw.end(), r.value.begin(), r.value.end());
  }
  set.record_mode = t.store + "-table";
  set.source_bytes = raw;
  set.sampled_bytes = kept;
  set.sample_sha256 = sha256_hex(std::string_view(reinterpret_cast<const char*>(set.raw.data()), set.raw.size()));
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

bool is_store_file(const std::string& path) { return is_data_db(path) || has_table_magic(path); }

bool is_store_source(const RecordSet& set) {
  return set.record_mode == "sstable-data" || set.record_mode == "rocksdb-table" || set.record_mode == "leveldb-table";
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
