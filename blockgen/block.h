#pragma once
// Records and blocks: what flows from blockgen to bench. Blocks live back to back in one
// buffer (cache-friendly for stream mode, one allocation per block set).
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace kvz {

struct Record {
  std::string key;
  std::string value;
};

// A sorted run of records and where they came from.
struct RecordSet {
  std::string source;       // corpus name/path or dataset name
  std::string record_mode;  // "lines", "jsonl", "csv", "fixed:64", "bytes", or the dataset name
  std::vector<Record> records;
  std::vector<uint8_t> raw; // the raw bytes (record mode "bytes" or the raw layout)
  std::vector<std::string> warnings;  // fallbacks taken while reading
};

// Byte composition of the built blocks (for `blocks --stats`).
struct BlockComposition {
  uint64_t key_bytes = 0;       // user key bytes as written (after prefix sharing)
  uint64_t value_bytes = 0;
  uint64_t overhead_bytes = 0;  // varints, restarts, cell headers, internal-key suffixes
  uint64_t records = 0;
};

struct BlockSet {
  std::string source;
  std::string record_mode;
  std::string layout;       // "raw", "leveldb", "rocksdb", "hbase", "values", "values:single"
  size_t block_size = 0;    // target block size
  std::vector<uint8_t> bytes;
  std::vector<size_t> offsets;  // block i = bytes[offsets[i], offsets[i+1]); size() = count+1
  std::vector<uint32_t> records_per_block;
  BlockComposition composition;
  std::vector<std::string> warnings;

  size_t count() const { return offsets.empty() ? 0 : offsets.size() - 1; }
  std::span<const uint8_t> block(size_t i) const {
    return {bytes.data() + offsets[i], offsets[i + 1] - offsets[i]};
  }
  size_t total_bytes() const { return offsets.empty() ? 0 : offsets.back(); }
  void add_block(std::span<const uint8_t> b, uint32_t nrecords) {
    if (offsets.empty()) offsets.push_back(0);
    bytes.insert(bytes.end(), b.begin(), b.end());
    offsets.push_back(bytes.size());
    records_per_block.push_back(nrecords);
  }
};

}  // namespace kvz
