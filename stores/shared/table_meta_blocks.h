#pragma once
// Internal to stores/: the blocks LevelDB 1.23 and RocksDB 7.8 write around their data blocks
// (index, metaindex, properties), built as the stores build them, for the whole-file bytes
// (stores/leveldb/leveldb_file.cpp, stores/rocksdb/rocksdb_file.cpp).
// Sources: leveldb 1.23 table/block_builder.cc, util/comparator.cc, table/format.cc; rocksdb
// 7.8 table/block_based/block_builder.cc, util/comparator.cc, table/block_based/index_builder.cc.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "blockgen/encoding.h"

namespace kvz::table {

// BlockBuilder: entries `shared non_shared [value_length] key-suffix value`, then the restart
// offsets and their count, fixed32 each. `restart_interval` 1 (index, metaindex: every entry
// a restart, nothing shared) or 0 for "never" (RocksDB's properties block: INT_MAX).
// `value_lengths` false: RocksDB's delta-encoded index values (format_version >= 4) carry no
// length; with restart interval 1 every value is the full handle.
class BlockWriter {
 public:
  explicit BlockWriter(int restart_interval, bool value_lengths = true)
      : interval_(restart_interval), value_lengths_(value_lengths) {}
  void add(std::string_view key, std::string_view value) {
    size_t shared = 0;
    if (interval_ > 0 && counter_ >= interval_) {
      restarts_.push_back(static_cast<uint32_t>(buffer_.size()));
      counter_ = 0;
    } else {
      shared = enc::shared_prefix(key, last_);
    }
    enc::put_varint32(buffer_, static_cast<uint32_t>(shared));
    enc::put_varint32(buffer_, static_cast<uint32_t>(key.size() - shared));
    if (value_lengths_) enc::put_varint32(buffer_, static_cast<uint32_t>(value.size()));
    buffer_.append(key.substr(shared));
    buffer_.append(value);
    last_.assign(key);
    ++counter_;
  }
  const std::string& finish() {
    for (uint32_t r : restarts_) enc::put_fixed32(buffer_, r);
    enc::put_fixed32(buffer_, static_cast<uint32_t>(restarts_.size()));
    return buffer_;
  }

 private:
  int interval_;
  bool value_lengths_;
  int counter_ = 0;
  std::string buffer_;
  std::string last_;
  std::vector<uint32_t> restarts_{0};
};

// BlockHandle: varint64 offset, varint64 size (the block without its trailer).
inline std::string block_handle(uint64_t offset, uint64_t size) {
  std::string h;
  enc::put_varint64(h, offset);
  enc::put_varint64(h, size);
  return h;
}

// LevelDB 1.23 BytewiseComparatorImpl::FindShortestSeparator.
inline std::string leveldb_separator(std::string start, std::string_view limit) {
  const size_t i = enc::shared_prefix(start, limit);
  if (i >= start.size() || i >= limit.size()) return start;  // one is a prefix of the other
  const auto b = static_cast<uint8_t>(start[i]);
  if (b < 0xff && b + 1 < static_cast<uint8_t>(limit[i])) {
    start[i] = static_cast<char>(b + 1);
    start.resize(i + 1);
  }
  return start;
}

// LevelDB 1.23 BytewiseComparatorImpl::FindShortSuccessor (the last block's index key).
inline std::string leveldb_successor(std::string key) {
  for (size_t i = 0; i < key.size(); ++i) {
    const auto b = static_cast<uint8_t>(key[i]);
    if (b != 0xff) {
      key[i] = static_cast<char>(b + 1);
      key.resize(i + 1);
      return key;
    }
  }
  return key;
}

// RocksDB 7.8 BytewiseComparatorImpl::FindShortestSeparator: when incrementing the first
// differing byte would pass `limit`, the first non-0xff byte after it is incremented instead.
inline std::string rocksdb_separator(std::string start, std::string_view limit) {
  size_t i = enc::shared_prefix(start, limit);
  if (i >= start.size() || i >= limit.size()) return start;
  const auto sb = static_cast<uint8_t>(start[i]);
  const auto lb = static_cast<uint8_t>(limit[i]);
  if (sb >= lb) return start;
  if (i < limit.size() - 1 || sb + 1 < lb) {
    start[i] = static_cast<char>(sb + 1);
    start.resize(i + 1);
    return start;
  }
  for (++i; i < start.size(); ++i) {
    const auto b = static_cast<uint8_t>(start[i]);
    if (b < 0xff) {
      start[i] = static_cast<char>(b + 1);
      start.resize(i + 1);
      break;
    }
  }
  return start;
}

}  // namespace kvz::table
