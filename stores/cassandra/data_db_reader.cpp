// A Cassandra `*-Data.db` as a `run`/`blocks` source (stores/cassandra/cassandra.h).
#include <filesystem>

#include <fmt/format.h>

#include "stores/cassandra/cassandra.h"
#include "stores/cassandra/sstable_data.h"
#include "stores/shared/store_source.h"
#include "stores/shared/table_name.h"
#include "util/bytes.h"

namespace kvz {

Claim CassandraDataDbReader::claim(const std::string& path) const {
  const std::string name = std::filesystem::path(path).filename().string();
  const std::string suffix = "-Data.db";
  const bool data_db =
      name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
  return data_db ? Claim::file : Claim::none;
}

bool CassandraDataDbReader::read(const std::string& path, size_t max_bytes, RecordSet& set, std::string& error) const {
  SstableData t;
  if (!read_sstable_data(path, t, error, max_bytes)) return false;
  size_t used = 0;
  set.origin.store = std::string(store());
  set.origin.table = cassandra_table_name(path);
  set.origin.codec = t.codec == "zstd" ? fmt::format("zstd:{}", t.level) : t.codec;
  StoredBlocksBuilder stored(set, 0, false);
  for (const auto& c : t.chunks) {
    if (c.raw.empty()) break;  // past --max-bytes: checksummed, not decoded
    set.raw.insert(set.raw.end(), c.raw.begin(), c.raw.end());
    stored.add(c.raw, c.stored);
    ++used;
  }
  stored.finish(t.chunk_length);
  set.record_mode = "sstable-data";
  hash_raw(set);
  set.source_bytes = t.data_length;
  set.sampled_bytes = set.raw.size();
  set.detail = fmt::format("{} Data.db ({}): {}, {} chunks of {}, {} bytes on disk for {} raw{}",
                           t.format.empty() ? "SSTable" : t.format, t.codec, t.compressor, t.chunks.size(),
                           format_byte_size(t.chunk_length), t.data_db_bytes(), t.data_length,
                           used < t.chunks.size() ? fmt::format("; the first {} chunks read (--max-bytes)", used) : "");
  return true;
}

std::unique_ptr<StoreFileReader> cassandra_reader() { return std::make_unique<CassandraDataDbReader>(); }

}  // namespace kvz
