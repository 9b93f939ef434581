#pragma once
// What every store's reader shares to turn its file into a `run`/`blocks` source
// (blockgen/source_registry.h): its blocks as stored, its records kept up to --max-bytes, and
// the file's size standing for a source cut short.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "blockgen/block.h"

namespace kvz {

// The source's size when --max-bytes stopped the decoding: the rest is not decoded, so the
// file's size on disk (or the raw bytes read, when more) stands for it.
uint64_t cut_source_bytes(const std::string& path, uint64_t raw);

// The file's blocks as stored, whole blocks up to `max_bytes` raw bytes (at least one).
// `copy` false: the blocks are the raw stream itself (a Data.db's chunks), kept once.
class StoredBlocksBuilder {
 public:
  StoredBlocksBuilder(RecordSet& set, size_t max_bytes, bool copy = true, uint64_t expected = 0);
  bool full() const { return max_bytes_ && bytes_ >= max_bytes_; }
  void add(std::span<const uint8_t> raw, uint64_t on_disk);
  // A block whose bytes the caller puts in place (`copy` false).
  void add(size_t raw_size, uint64_t on_disk);
  // The nominal block size: the file's own (a chunk length) or the power of two nearest the
  // median block (RocksDB, LevelDB and HBase cut a block once it passes the target size).
  void finish(size_t nominal);

 private:
  RecordSet& set_;
  size_t max_bytes_;
  bool copy_;
  size_t bytes_ = 0;
  std::vector<size_t> sizes_;
};

// Records kept up to `max_bytes` of key+value bytes; their bytes, in file order, are the raw
// stream too. `cut`: some were left out.
void keep_records(std::vector<Record> records, size_t max_bytes, RecordSet& set, bool& cut);

// The digest of `set.raw`, as for a corpus sample: the same file read again matches.
void hash_raw(RecordSet& set);

}  // namespace kvz
