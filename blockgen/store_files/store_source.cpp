#include "blockgen/store_files/store_source.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>

#include "blockgen/corpus.h"
#include "blockgen/store_files/file_bytes.h"
#include "blockgen/store_files/hfile.h"
#include "blockgen/store_files/sstable_data.h"
#include "blockgen/store_files/table_file.h"
#include "blockgen/store_files/wt_file.h"
#include "util/bytes.h"

namespace kvz {

namespace fs = std::filesystem;

namespace {

// The source's size when --max-bytes stopped the decoding: the rest is not decoded, so the
// file's size on disk (or the raw bytes read, when more) stands for it.
uint64_t cut_source_bytes(const std::string& path, uint64_t raw) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  return ec ? raw : std::max<uint64_t>(raw, size);
}

// A name only a store's file has: read as one (an empty or damaged `x.sst` is bad input with
// one line saying why, not an empty text corpus).
std::string store_of_name(const std::string& path) {
  const std::string ext = fs::path(path).extension().string();
  if (ext == ".sst" || ext == ".ldb") return "table";
  if (ext == ".wt") return "wiredtiger";
  if (ext == ".hfile") return "hbase";
  return "";
}

bool is_data_db(const std::string& path) {
  const std::string name = fs::path(path).filename().string();
  const std::string suffix = "-Data.db";
  return name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// An HBase HFile v2/v3 by its trailer (the version in the last 4 bytes, the trailer magic).
bool has_hfile_trailer(const std::string& path) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (ec || size < 60) return false;
  const auto version = read_from_end(path, size, 4, 4);
  if (version.size() != 4) return false;
  const auto major = static_cast<int>(read_be(version, 1, 3));
  // v1 (HBase 0.9x) has a fixed 60-byte trailer.
  const uint64_t trailer = major == 3 ? 4096 : major == 2 ? 212 : major == 1 ? 60 : 0;
  const auto magic = trailer ? read_from_end(path, size, trailer, 8) : std::vector<uint8_t>{};
  return std::string(magic.begin(), magic.end()) == "TRABLK\"$";
}

// A Data.db is ScyllaDB's when the SSTable has ScyllaDB's own component beside it
// (`*-Scylla.db`, which Cassandra never writes); else Cassandra's (the two frame chunks alike).
std::string data_db_store(const std::string& path) {
  const std::string scylla = path.substr(0, path.size() - std::string("Data.db").size()) + "Scylla.db";
  std::error_code ec;
  return fs::exists(scylla, ec) ? "scylla" : "cassandra";
}

// The file's blocks as stored, whole blocks up to `max_bytes` raw bytes (at least one).
// `copy` false: the blocks are the raw stream itself (a Data.db's chunks), kept once.
class StoredBlocksBuilder {
 public:
  StoredBlocksBuilder(RecordSet& set, size_t max_bytes, bool copy = true, uint64_t expected = 0)
      : set_(set), max_bytes_(max_bytes), copy_(copy) {
    set_.stored_offsets.assign(1, 0);
    if (copy_) set_.stored_blocks.reserve(expected);  // no doubling past the sample (peak memory)
  }
  bool full() const { return max_bytes_ && bytes_ >= max_bytes_; }
  void add(std::span<const uint8_t> raw, uint64_t on_disk) {
    if (copy_) set_.stored_blocks.insert(set_.stored_blocks.end(), raw.begin(), raw.end());
    add(raw.size(), on_disk);
  }
  // A block whose bytes the caller puts in place (`copy` false).
  void add(size_t raw_size, uint64_t on_disk) {
    bytes_ += raw_size;
    set_.stored_offsets.push_back(bytes_);
    set_.origin.on_disk += on_disk;
    sizes_.push_back(raw_size);
  }
  // The nominal block size: the file's own (a chunk length) or the power of two nearest the
  // median block (RocksDB, LevelDB and HBase cut a block once it passes the target size).
  void finish(size_t nominal) {
    if (!nominal && !sizes_.empty()) {
      std::nth_element(sizes_.begin(), sizes_.begin() + static_cast<std::ptrdiff_t>(sizes_.size() / 2), sizes_.end());
      const size_t median = sizes_[sizes_.size() / 2];
      nominal = 1024;
      while (nominal < (size_t{1} << 20) && nominal + nominal / 2 <= median) nominal *= 2;
    }
    set_.stored_block_size = nominal;
  }

 private:
  RecordSet& set_;
  size_t max_bytes_;
  bool copy_;
  size_t bytes_ = 0;
  std::vector<size_t> sizes_;
};

// The codec spec of a RocksDB/LevelDB table's blocks, level from the properties'
// compression_options (32767 = kDefaultCompressionLevel: the store's default, i.e. the plain
// codec under its profile; RocksDB 7.8's LZ4 ignores the level: acceleration 1).
std::string table_codec_spec(const TableFile& t) {
  if (t.compression == "none") return "memcpy";
  if (t.compression == "mixed") return "";
  const auto at = t.compression_options.find("level=");
  int level = 32767;
  if (at != std::string::npos) level = std::atoi(t.compression_options.c_str() + at + 6);
  if (level == 32767 || t.compression == "snappy" || t.compression == "lz4") return t.compression;
  return fmt::format("{}:{}", t.compression, level);
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
  set.raw.reserve(kept);  // exact: no doubling past the sample (peak memory)
  for (const auto& r : set.records) {
    set.raw.insert(set.raw.end(), r.key.begin(), r.key.end());
    set.raw.insert(set.raw.end(), r.value.begin(), r.value.end());
  }
  set.sampled_bytes = kept;
  set.sample_sha256 = sha256_hex(std::string_view(reinterpret_cast<const char*>(set.raw.data()), set.raw.size()));
}

bool read_hfile_source(const std::string& path, size_t max_bytes, RecordSet& set, std::string& error) {
  Hfile f;
  if (!read_hfile(path, f, error, max_bytes)) return false;
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
  cut = cut || f.cut;
  // The raw stream is the data blocks as HBase compressed them (the raw layout re-chunks it);
  // the records are the cells, in key order (a cell's key: row, family, qualifier, timestamp,
  // type), which the record layouts re-block.
  set.raw.clear();
  for (const auto& b : f.blocks)
    if (b.magic == "DATABLK*" && (!max_bytes || set.raw.size() < max_bytes))
      set.raw.insert(set.raw.end(), b.raw.begin(), b.raw.end());
  set.record_mode = "hbase-hfile";
  set.source_bytes = f.cut ? cut_source_bytes(path, raw) : raw;
  set.origin.store = "hbase";
  set.origin.codec = f.codec == "GZ" ? "zlib" : "memcpy";  // the reader decodes NONE and GZ
  StoredBlocksBuilder stored(set, max_bytes);
  for (const auto& b : f.blocks)
    if (b.magic == "DATABLK*" && !stored.full()) stored.add(b.raw, b.on_disk);
  stored.finish(0);
  set.detail =
      fmt::format("HFile v{}.{} ({}): {}{} data blocks, {} bytes on disk for {} raw; {} cells{}{}", f.major, f.minor,
                  f.codec, f.cut ? "the first " : "", f.data_blocks(), on_disk, raw, set.records.size(),
                  cut ? "; the first cells only (--max-bytes)" : "",
                  f.major == 1 ? "; v1 blocks have no header or checksums (the hbase profile frames v2/v3)" : "");
  return true;
}

// A WiredTiger file: its live leaf pages' key/value cells as the records; as stored, each
// leaf page's image after its first 64 bytes (what WiredTiger compresses).
bool read_wt_source(const std::string& path, size_t max_bytes, RecordSet& set, std::string& error) {
  WtFile f;
  if (!read_wt_file(path, f, error, max_bytes)) return false;
  uint64_t raw = 0;
  for (const auto& p : f.leaves) raw += p.image.size();
  // The pages as stored first: each image is freed once copied (peak memory).
  StoredBlocksBuilder stored(set, max_bytes, true, raw);
  for (auto& p : f.leaves) {
    if (!stored.full()) stored.add(std::span<const uint8_t>(p.image).subspan(64), p.on_disk);
    std::vector<uint8_t>().swap(p.image);
  }
  stored.finish(0);
  bool cut = false;
  keep_records(std::move(f.records), max_bytes, set, cut);
  cut = cut || f.cut;
  set.record_mode = "wiredtiger-table";
  set.source_bytes = f.cut ? cut_source_bytes(path, raw) : raw;
  set.origin.store = "wiredtiger";
  set.origin.codec = f.compression == "none" ? "memcpy" : f.compression == "mixed" ? "" : f.compression;
  set.detail = fmt::format(
      "WiredTiger file ({}): {}{} leaf pages, {} bytes on disk for {} in memory; {} records; {} internal pages, "
      "{}-byte allocation units; checksums verified{}",
      f.compression, f.cut ? "the first " : "", f.leaves.size(), f.leaf_bytes(), raw, set.records.size(),
      f.internal_pages, f.allocation_size, cut ? "; the first records only (--max-bytes)" : "");
  return true;
}

bool read_table_source(const std::string& path, size_t max_bytes, RecordSet& set, std::string& error) {
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
  set.record_mode = t.store + "-table";
  set.source_bytes = t.cut() ? cut_source_bytes(path, raw) : raw;
  set.origin.store = t.store;
  set.origin.codec = table_codec_spec(t);
  set.origin.dictionary = t.dictionary;
  set.origin.dictionary_on_disk = t.dict_bytes;
  static const char* const kChecksums[] = {"no", "CRC32C", "xxHash", "xxHash64", "XXH3"};
  set.detail = fmt::format(
      "{} table{} ({}): {} data blocks, {} bytes on disk {}; {} records{}; {} checksums verified{}", t.store,
      t.store == "rocksdb" ? fmt::format(" format_version {}", t.format_version) : "", t.compression, t.blocks_total,
      t.on_disk_total,
      t.cut() ? fmt::format("(the first {}, {} on disk, read for {} raw)", t.data_blocks.size(), t.data_bytes(), raw)
              : fmt::format("for {} raw", raw),
      set.records.size(), t.dict_bytes ? fmt::format(", dictionary block {} B", t.dict_bytes) : "",
      kChecksums[t.checksum_type], cut ? "; the first records only (--max-bytes)" : "");
  return true;
}

}  // namespace

bool is_store_file(const std::string& path) { return !store_of_file(path).empty() || !store_of_name(path).empty(); }

std::string store_of_file(const std::string& path) {
  if (is_data_db(path)) return data_db_store(path);
  if (has_hfile_trailer(path)) return "hbase";
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (ec || size < 48) return "";
  if (is_wt_file(read_from_end(path, size, size, 8))) return "wiredtiger";
  return table_store(read_from_end(path, size, 8, 8));
}

bool is_store_source(const RecordSet& set) {
  return set.record_mode == "sstable-data" || set.record_mode == "rocksdb-table" ||
         set.record_mode == "leveldb-table" || set.record_mode == "hbase-hfile" ||
         set.record_mode == "wiredtiger-table";
}

std::vector<std::string> store_files_in(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    // WiredTiger's own metadata, lookaside and history files are not tables of the user's.
    if (e.path().filename().string().rfind("WiredTiger", 0) == 0) continue;
    if (e.is_regular_file(ec) && is_store_file(e.path().string())) files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

bool read_store_file(const std::string& path, size_t max_bytes, RecordSet& set, std::string& error) {
  const std::string by_name = store_of_name(path);
  if (has_hfile_trailer(path) || by_name == "hbase") return read_hfile_source(path, max_bytes, set, error);
  if (store_of_file(path) == "wiredtiger" || by_name == "wiredtiger")
    return read_wt_source(path, max_bytes, set, error);
  if (!is_data_db(path)) return read_table_source(path, max_bytes, set, error);
  SstableData t;
  if (!read_sstable_data(path, t, error, max_bytes)) return false;
  size_t used = 0;
  set.origin.store = data_db_store(path);
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
