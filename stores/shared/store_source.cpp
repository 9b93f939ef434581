// What the store readers share (stores/shared/store_source.h).
#include "stores/shared/store_source.h"

#include <algorithm>
#include <filesystem>

#include "blockgen/corpus.h"

namespace kvz {

uint64_t cut_source_bytes(const std::string& path, uint64_t raw) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  return ec ? raw : std::max<uint64_t>(raw, size);
}

StoredBlocksBuilder::StoredBlocksBuilder(RecordSet& set, size_t max_bytes, bool copy, uint64_t expected)
    : set_(set), max_bytes_(max_bytes), copy_(copy) {
  set_.stored_offsets.assign(1, 0);
  if (copy_) set_.stored_blocks.reserve(expected);  // no doubling past the sample (peak memory)
}

void StoredBlocksBuilder::add(std::span<const uint8_t> raw, uint64_t on_disk) {
  if (copy_) set_.stored_blocks.insert(set_.stored_blocks.end(), raw.begin(), raw.end());
  add(raw.size(), on_disk);
}

void StoredBlocksBuilder::add(size_t raw_size, uint64_t on_disk) {
  bytes_ += raw_size;
  set_.stored_offsets.push_back(bytes_);
  set_.origin.on_disk += on_disk;
  sizes_.push_back(raw_size);
}

void StoredBlocksBuilder::finish(size_t nominal) {
  if (!nominal && !sizes_.empty()) {
    std::nth_element(sizes_.begin(), sizes_.begin() + static_cast<std::ptrdiff_t>(sizes_.size() / 2), sizes_.end());
    const size_t median = sizes_[sizes_.size() / 2];
    nominal = 1024;
    while (nominal < (size_t{1} << 20) && nominal + nominal / 2 <= median) nominal *= 2;
  }
  set_.stored_block_size = nominal;
}

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
  hash_raw(set);
}

void hash_raw(RecordSet& set) {
  set.sample_sha256 = sha256_hex(std::string_view(reinterpret_cast<const char*>(set.raw.data()), set.raw.size()));
}

}  // namespace kvz
