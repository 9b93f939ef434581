// A RocksDB or LevelDB DB directory as it stands (stores/rocksdb/table_reader.h parts_in,
// read_group): its MANIFEST's live version (stores/rocksdb/manifest.h) gives each column
// family's levels and their files; each level is one source, its files' data blocks as stored.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <set>

#include "stores/rocksdb/manifest.h"
#include "stores/rocksdb/table_file.h"
#include "stores/rocksdb/table_reader.h"
#include "stores/shared/store_source.h"
#include "stores/shared/table_name.h"

namespace kvz {

namespace {

namespace fs = std::filesystem;

// The directory's table files by number (RocksDB "000123.sst"; LevelDB "000123.ldb", or ".sst"
// before 1.14), and the store their magic names.
struct TableFiles {
  std::map<uint64_t, std::string> by_number;
  std::string store;
};

TableFiles table_files(const std::string& dir, const SourceRegistry& readers) {
  TableFiles out;
  for (const auto& path : readers.files_in(dir)) {
    const fs::path p(path);
    const std::string stem = p.stem().string();
    if ((p.extension() != ".sst" && p.extension() != ".ldb") || stem.empty() || stem.size() > 19 ||
        stem.find_first_not_of("0123456789") != std::string::npos)
      continue;
    out.by_number[std::stoull(stem)] = path;
    if (out.store.empty()) out.store = readers.store_of(path);
  }
  return out;
}

// The options of a column family that shape its levels and codecs, as its OPTIONS file holds them.
std::string family_options(const ColumnFamilyOptionsText& options, const std::string& family) {
  static const char* const kKeys[] = {"compaction_style",
                                      "level_compaction_dynamic_level_bytes",
                                      "num_levels",
                                      "write_buffer_size",
                                      "level0_file_num_compaction_trigger",
                                      "max_bytes_for_level_base",
                                      "max_bytes_for_level_multiplier",
                                      "target_file_size_base",
                                      "compression",
                                      "bottommost_compression",
                                      "compression_per_level"};
  const auto cf = options.find(family);
  std::string out;
  if (cf == options.end()) return out;
  for (const char* key : kKeys) {
    const auto v = cf->second.find(key);
    if (v == cf->second.end()) continue;
    if (!out.empty()) out += ';';
    out.append(key).append("=").append(v->second);
  }
  return out;
}

std::string level_name(const std::string& store, const ColumnFamilyVersion& cf, int level) {
  return store == "leveldb" ? fmt::format("L{}", level) : fmt::format("{}/L{}", cf.name, level);
}

// The groups of a live version: a column family's level each, its files in the level's order.
// False with a note when a live file is not in the directory (it then reads file by file).
bool groups_of(const DbVersion& v, const TableFiles& tables, const std::string& store,
               const ColumnFamilyOptionsText& options, DirectoryParts& out) {
  std::set<uint64_t> live;
  uint64_t elsewhere = 0;
  for (const auto& cf : v.families)
    for (const auto& l : cf.levels) {
      FileGroup g;
      g.name = level_name(store, cf, l.level);
      g.level = l.level;
      g.options = family_options(options, cf.name);
      for (const auto& f : l.files) {
        live.insert(f.number);
        const auto it = tables.by_number.find(f.number);
        if (it != tables.by_number.end()) {
          g.files.push_back(it->second);
        } else if (f.path_id) {
          ++elsewhere;  // in another of the DB's db_paths, which only its options name
        } else {
          out.notes.push_back(
              fmt::format("{} names table {} ({}), not in the directory: its table files are read "
                          "one by one, levels unknown",
                          v.manifest, f.number, g.name));
          out.groups.clear();
          return false;
        }
      }
      if (g.files.empty()) continue;
      g.table = store == "leveldb" ? leveldb_table_name(g.files.front()) : rocksdb_table_name(g.files.front(), cf.name);
      out.groups.push_back(std::move(g));
    }
  if (elsewhere)
    out.notes.push_back(
        fmt::format("{} live table files are in other db_paths (RocksDB's path ids): not read", elsewhere));
  const size_t stale = static_cast<size_t>(std::count_if(tables.by_number.begin(), tables.by_number.end(),
                                                         [&](const auto& t) { return !live.count(t.first); }));
  if (stale)
    out.notes.push_back(
        fmt::format("{} table file{} the MANIFEST does not name (not live: obsolete, or left by a "
                    "crash) left out",
                    stale, stale == 1 ? "" : "s"));
  return true;
}

// What a group's files hold, summed while each file is read.
struct GroupSums {
  uint64_t raw = 0, source = 0, on_disk = 0, data = 0, file_bytes = 0, blocks = 0, blocks_total = 0;
  size_t dictionaries = 0;
  std::map<std::string, uint64_t> codecs;
  std::set<int> checksums;
  bool cut = false;
};

void add_table(TableFile& t, const std::string& path, uint64_t file_size, StoredBlocksBuilder& stored, RecordSet& set,
               GroupSums& sums) {
  const uint64_t raw = t.data_raw.size();
  size_t at = 0;
  for (const auto& b : t.data_blocks) {
    stored.add(std::span<const uint8_t>(t.data_raw).subspan(at, b.raw_size), b.on_disk);
    at += b.raw_size;
  }
  sums.raw += raw;
  sums.source += t.cut() ? cut_source_bytes(path, raw) : raw;
  sums.data += t.on_disk_total + t.dict_bytes;
  sums.file_bytes += file_size;
  sums.blocks += t.data_blocks.size();
  sums.blocks_total += t.blocks_total;
  sums.cut = sums.cut || t.cut();
  sums.checksums.insert(t.checksum_type);
  const std::string spec = table_codec_spec(t);
  ++sums.codecs[spec.empty() ? "mixed" : spec];
  if (!t.dictionary.empty()) {
    ++sums.dictionaries;
    set.origin.dictionary = std::move(t.dictionary);
    set.origin.dictionary_on_disk = t.dict_bytes;
  }
  if (set.origin.store.empty()) set.origin.store = t.store;
}

std::string codecs_text(const std::map<std::string, uint64_t>& codecs) {
  std::string s;
  for (const auto& [codec, n] : codecs) s += fmt::format("{}{} ×{}", s.empty() ? "" : ", ", codec, n);
  return s;
}

std::string group_detail(const FileGroup& g, const RecordSet& set, const GroupSums& sums, bool records_cut) {
  static const char* const kChecksums[] = {"no", "CRC32C", "xxHash", "xxHash64", "XXH3"};
  const int checksum = sums.checksums.size() == 1 ? *sums.checksums.begin() : 1;
  return fmt::format(
      "{} {} ({}): {} file{}, {} bytes on disk (data blocks {}); {} data blocks{}; {} records; {} checksums "
      "verified{}",
      set.origin.store, g.name, codecs_text(sums.codecs), g.files.size(), g.files.size() == 1 ? "" : "s",
      sums.file_bytes, sums.data, sums.blocks_total,
      sums.blocks < sums.blocks_total ? fmt::format(" (the first {} read, for {} raw)", sums.blocks, sums.raw)
                                      : fmt::format(" for {} raw", sums.raw),
      set.records.size(), kChecksums[std::clamp(checksum, 0, 4)],
      records_cut || sums.cut ? "; a sample of each file (--max-bytes)" : "");
}

}  // namespace

bool TableFileReader::parts_in(const std::string& dir, DirectoryParts& out) const {
  std::error_code ec;
  if (!fs::is_regular_file(fs::path(dir) / "CURRENT", ec)) return false;  // no DB: its tables one by one
  const SourceRegistry& readers = SourceRegistry::global();
  const TableFiles tables = table_files(dir, readers);
  if (tables.store != store()) return false;
  DbVersion v;
  std::string error;
  if (!read_db_version(dir, v, error)) {
    out.notes.push_back(error + ": its table files are read one by one, levels unknown");
    return true;
  }
  groups_of(v, tables, tables.store, read_db_options(dir), out);
  return true;
}

bool TableFileReader::read_group(const FileGroup& group, size_t max_bytes, RecordSet& set, std::string& error) const {
  std::vector<uint64_t> sizes;
  uint64_t total = 0;
  for (const auto& f : group.files) {
    std::error_code ec;
    sizes.push_back(static_cast<uint64_t>(fs::file_size(f, ec)));
    total += sizes.back();
  }
  StoredBlocksBuilder stored(set, 0);
  GroupSums sums;
  std::vector<Record> records;
  bool records_cut = false;
  for (size_t i = 0; i < group.files.size(); ++i) {
    // --max-bytes shared by size: a sample of every file, so of the level's whole key range.
    const uint64_t budget =
        max_bytes ? std::max<uint64_t>(
                        1, static_cast<uint64_t>(static_cast<double>(max_bytes) * static_cast<double>(sizes[i]) /
                                                 static_cast<double>(std::max<uint64_t>(total, 1))))
                  : 0;
    TableFile t;
    if (!read_table_file(group.files[i], t, error, budget)) return false;
    add_table(t, group.files[i], sizes[i], stored, set, sums);
    RecordSet kept;
    bool cut = false;
    keep_records(std::move(t.records), budget, kept, cut);
    records_cut = records_cut || cut;
    std::move(kept.records.begin(), kept.records.end(), std::back_inserter(records));
  }
  stored.finish(0);
  bool cut = false;
  keep_records(std::move(records), 0, set, cut);
  set.record_mode = set.origin.store + "-table";
  set.source_bytes = sums.source;
  const bool one_codec = sums.codecs.size() == 1 && !sums.codecs.count("mixed");
  // Each file has its own dictionary: the level's blocks have no one codec call to repeat.
  const bool one_call = sums.dictionaries == 0 || group.files.size() == 1;
  set.origin.codec = one_codec && one_call ? sums.codecs.begin()->first : "";
  if (!one_call) set.origin.dictionary.clear();
  set.origin.table = group.table;
  set.origin.files = group.files.size();
  set.origin.file_bytes = sums.file_bytes;
  set.origin.data_bytes = sums.data;
  set.origin.level = group.level;
  set.origin.file_codecs = sums.codecs;
  set.origin.options = group.options;
  set.detail = group_detail(group, set, sums, records_cut);
  return true;
}

}  // namespace kvz
