// A WiredTiger file as a `run`/`blocks` source (found by its descriptor, or by a `.wt` name):
// its live leaf pages' key/value cells are the records; as stored, each leaf page's image after
// its first 64 bytes, what WiredTiger compresses (stores/wiredtiger/wt_file.h).
#include <filesystem>

#include <fmt/format.h>

#include "blockgen/source_registry.h"
#include "stores/shared/file_bytes.h"
#include "stores/shared/store_source.h"
#include "stores/shared/table_name.h"
#include "stores/wiredtiger/wt_file.h"

namespace kvz {

namespace {

class WtReader final : public StoreFileReader {
 public:
  std::string_view store() const override { return "wiredtiger"; }
  Claim claim(const std::string& path) const override {
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (!ec && size >= 48 && is_wt_file(read_from_end(path, size, size, 8))) return Claim::file;
    return std::filesystem::path(path).extension() == ".wt" ? Claim::name : Claim::none;
  }
  // WiredTiger's own metadata, lookaside and history files are not tables of the user's.
  bool hides(const std::string& name) const override { return name.rfind("WiredTiger", 0) == 0; }
  bool made(const RecordSet& set) const override { return set.record_mode == "wiredtiger-table"; }

  bool read(const std::string& path, size_t max_bytes, RecordSet& set, std::string& error) const override {
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
    set.origin.table = wiredtiger_table_name(path);
    set.origin.codec = f.compression == "none" ? "memcpy" : f.compression == "mixed" ? "" : f.compression;
    set.detail = fmt::format(
        "WiredTiger file ({}): {}{} leaf pages, {} bytes on disk for {} in memory; {} records; {} internal pages, "
        "{}-byte allocation units; checksums verified{}",
        f.compression, f.cut ? "the first " : "", f.leaves.size(), f.leaf_bytes(), raw, set.records.size(),
        f.internal_pages, f.allocation_size, cut ? "; the first records only (--max-bytes)" : "");
    return true;
  }
};

}  // namespace

std::unique_ptr<StoreFileReader> wiredtiger_reader() { return std::make_unique<WtReader>(); }

}  // namespace kvz
