// An HBase HFile as a `run`/`blocks` source (found by its trailer; or by an `.hfile` name or its
// first block's magic, so that a broken one is refused): its
// KeyValue cells are the records, its data blocks, concatenated, the raw stream, and its data
// blocks as stored (stores/hbase/hfile.h).
#include <filesystem>

#include <fmt/format.h>

#include "blockgen/source_registry.h"
#include "stores/hbase/hfile.h"
#include "stores/shared/file_bytes.h"
#include "stores/shared/store_source.h"
#include "stores/shared/table_name.h"

namespace kvz {

namespace {

// An HBase HFile v1/v2/v3 by its trailer (the version in the last 4 bytes, the trailer magic).
bool has_hfile_trailer(const std::string& path) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec || size < 60) return false;
  const auto version = read_from_end(path, size, 4, 4);
  if (version.size() != 4) return false;
  const auto major = static_cast<int>(read_be(version, 1, 3));
  // v1 (HBase 0.9x) has a fixed 60-byte trailer.
  const uint64_t trailer = major == 3 ? 4096 : major == 2 ? 212 : major == 1 ? 60 : 0;
  const auto magic = trailer ? read_from_end(path, size, trailer, 8) : std::vector<uint8_t>{};
  return std::string(magic.begin(), magic.end()) == "TRABLK\"$";
}

// The data blocks as HBase compressed them: the raw stream (the raw layout re-chunks it) and
// the blocks as stored.
void keep_data_blocks(const Hfile& f, size_t max_bytes, RecordSet& set) {
  set.raw.clear();
  for (const auto& b : f.blocks)
    if (b.magic == "DATABLK*" && (!max_bytes || set.raw.size() < max_bytes))
      set.raw.insert(set.raw.end(), b.raw.begin(), b.raw.end());
  StoredBlocksBuilder stored(set, max_bytes);
  for (const auto& b : f.blocks)
    if (b.magic == "DATABLK*" && !stored.full()) stored.add(b.raw, b.on_disk);
  stored.finish(0);
}

// An HFile v2/v3 by its start: the first data block's magic (HBase's BlockType DATA, or
// ENCODED_DATA). Its bytes say HFile though its trailer may be gone (a truncated copy): such a
// file is refused with its reader's error, not read as a corpus.
bool starts_as_hfile(const std::string& path) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec || size < 8) return false;
  const auto head = read_from_end(path, size, size, 8);
  const std::string magic(head.begin(), head.end());
  return magic == "DATABLK*" || magic == "DATABLKE";
}

class HfileReader final : public StoreFileReader {
 public:
  std::string_view store() const override { return "hbase"; }
  Claim claim(const std::string& path) const override {
    if (has_hfile_trailer(path)) return Claim::file;
    return std::filesystem::path(path).extension() == ".hfile" || starts_as_hfile(path) ? Claim::name : Claim::none;
  }
  bool made(const RecordSet& set) const override { return set.record_mode == "hbase-hfile"; }

  bool read(const std::string& path, size_t max_bytes, RecordSet& set, std::string& error) const override {
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
    // The records are the cells, in key order (a cell's key: row, family, qualifier, timestamp,
    // type), which the record layouts re-block.
    keep_records(std::move(records), max_bytes, set, cut);
    cut = cut || f.cut;
    keep_data_blocks(f, max_bytes, set);
    set.record_mode = "hbase-hfile";
    set.source_bytes = f.cut ? cut_source_bytes(path, raw) : raw;
    set.origin.store = "hbase";
    set.origin.table = hbase_table_name(path);
    set.origin.codec = f.codec == "GZ" ? "zlib" : "memcpy";  // the reader decodes NONE and GZ
    set.detail =
        fmt::format("HFile v{}.{} ({}): {}{} data blocks, {} bytes on disk for {} raw; {} cells{}{}", f.major, f.minor,
                    f.codec, f.cut ? "the first " : "", f.data_blocks(), on_disk, raw, set.records.size(),
                    cut ? "; the first cells only (--max-bytes)" : "",
                    f.major == 1 ? "; v1 blocks have no header or checksums (the hbase profile frames v2/v3)" : "");
    return true;
  }
};

}  // namespace

std::unique_ptr<StoreFileReader> hbase_reader() { return std::make_unique<HfileReader>(); }

}  // namespace kvz
