#pragma once
// The data block that LevelDB and RocksDB share (table/block_builder.cc in both): entries
// `varint32 shared, varint32 unshared, varint32 value_len, key[shared:], value`, a restart
// point every `restart_interval` entries, then the restart offsets (fixed32 each) and their
// count (fixed32). RocksDB packs its data-block index type into the count's top bit; with
// the default kDataBlockBinarySearch that bit is 0, so the bytes are LevelDB's.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "blockgen/block.h"
#include "blockgen/encoding.h"

namespace kvz::layouts {

class PrefixBlock {
 public:
  explicit PrefixBlock(int restart_interval = 16) : restart_interval_(restart_interval) { reset(); }

  void reset() {
    buffer_.clear();
    restarts_.assign(1, 0);
    counter_ = 0;
    last_key_.clear();
    entries_ = 0;
  }
  bool empty() const { return buffer_.empty(); }
  uint32_t entries() const { return entries_; }

  // Both stores: buffer + restart array + restart count.
  size_t size_estimate() const { return buffer_.size() + restarts_.size() * 4 + 4; }

  // RocksDB BlockBuilder::EstimateSizeAfterKV (no value delta encoding): deliberately
  // imprecise (whole key, 4 bytes for `shared`), copied as is because the flush rule uses it.
  size_t estimate_after(std::string_view key, std::string_view value) const {
    size_t e = size_estimate() + key.size() + value.size();
    if (counter_ >= restart_interval_) e += 4;
    e += 4 + enc::varint_length(key.size()) + enc::varint_length(value.size());
    return e;
  }

  // `user_key_len`: how many leading bytes of `key` are the user key (the rest, RocksDB's
  // internal-key suffix, counts as overhead in the composition).
  void add(std::string_view key, std::string_view value, size_t user_key_len, BlockComposition& comp) {
    size_t shared = 0;
    if (counter_ >= restart_interval_) {
      restarts_.push_back(static_cast<uint32_t>(buffer_.size()));
      counter_ = 0;
    } else {
      shared = enc::shared_prefix(last_key_, key);
    }
    const size_t before = buffer_.size();
    const size_t unshared = key.size() - shared;
    enc::put_varint32(buffer_, static_cast<uint32_t>(shared));
    enc::put_varint32(buffer_, static_cast<uint32_t>(unshared));
    enc::put_varint32(buffer_, static_cast<uint32_t>(value.size()));
    const size_t header = buffer_.size() - before;
    buffer_.append(key.substr(shared));
    buffer_.append(value);
    last_key_.assign(key);
    ++counter_;
    ++entries_;
    const size_t user_written = user_key_len > shared ? user_key_len - shared : 0;
    comp.key_bytes += user_written;
    comp.value_bytes += value.size();
    comp.overhead_bytes += header + (unshared - user_written);
    comp.records += 1;
  }

  // Appends the restart array; the block is then `buffer()`. Trailer bytes count as overhead.
  const std::string& finish(BlockComposition& comp) {
    for (uint32_t r : restarts_) enc::put_fixed32(buffer_, r);
    enc::put_fixed32(buffer_, static_cast<uint32_t>(restarts_.size()));
    comp.overhead_bytes += restarts_.size() * 4 + 4;
    return buffer_;
  }

 private:
  int restart_interval_;
  std::string buffer_;
  std::vector<uint32_t> restarts_;
  int counter_ = 0;
  std::string last_key_;
  uint32_t entries_ = 0;
};

inline void flush_prefix_block(PrefixBlock& b, BlockSet& out) {
  const uint32_t n = b.entries();
  const std::string& bytes = b.finish(out.composition);
  out.add_block({reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()}, n);
  b.reset();
}

}  // namespace kvz::layouts
