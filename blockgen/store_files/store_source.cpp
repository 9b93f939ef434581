#include "blockgen/store_files/store_source.h"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "blockgen/corpus.h"
#include "blockgen/store_files/sstable_data.h"
#include "util/bytes.h"

namespace kvz {

namespace fs = std::filesystem;

bool is_store_file(const std::string& path) {
  const std::string name = fs::path(path).filename().string();
  const std::string suffix = "-Data.db";
  return name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
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
