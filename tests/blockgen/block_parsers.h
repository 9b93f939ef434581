#pragma once
// Independent readers for the blocks blockgen builds, used to prove they decode back into
// the exact records, plus helpers to find the shared corpora.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "blockgen/block.h"
#include "blockgen/encoding.h"

namespace kvz::test {

using Entry = std::pair<std::string, std::string>;

inline std::string as_string(std::span<const uint8_t> b) {
  return std::string(reinterpret_cast<const char*>(b.data()), b.size());
}

// The corpora directory from KVZ_CORPORA (ctest sets it). A missing corpus is a failure:
// these tests are about real data.
inline std::string corpus_path(const std::string& name) {
  const char* dir = std::getenv("KVZ_CORPORA");
  EXPECT_TRUE(dir && *dir) << "KVZ_CORPORA is not set";
  const std::string p = std::string(dir ? dir : "") + "/" + name;
  EXPECT_TRUE(std::filesystem::is_regular_file(p)) << p << " missing";
  return p;
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

inline std::string temp_path(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("kvz_blockgen_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

// LevelDB/RocksDB block (prefix-compressed entries + restart array). Returns false on any
// inconsistency: truncated varints, restart points that do not start a full key, a count
// that does not match the restart interval.
inline bool parse_prefix_block(std::string_view block, std::vector<Entry>& out, int restart_interval = 16,
                               bool value_delta_handles = false) {
  if (block.size() < 4) return false;
  const uint32_t nrestarts = enc::decode_fixed32(block.data() + block.size() - 4) & 0x7fffffffu;
  if (size_t{nrestarts} * 4 + 4 > block.size()) return false;
  const size_t limit = block.size() - 4 - size_t{nrestarts} * 4;
  std::vector<uint32_t> restarts;
  for (uint32_t i = 0; i < nrestarts; ++i) restarts.push_back(enc::decode_fixed32(block.data() + limit + 4 * i));
  std::string_view in = block.substr(0, limit);
  std::string key;
  size_t index = 0, next_restart = 0;
  while (!in.empty()) {
    const size_t offset = limit - in.size();
    const bool at_restart = next_restart < restarts.size() && restarts[next_restart] == offset;
    if (at_restart) ++next_restart;
    if ((index % static_cast<size_t>(restart_interval) == 0) != at_restart) return false;
    uint32_t shared = 0, unshared = 0, vlen = 0;
    if (!enc::get_varint32(in, shared) || !enc::get_varint32(in, unshared)) return false;
    if (!value_delta_handles && !enc::get_varint32(in, vlen)) return false;
    if (shared > key.size() || (at_restart && shared != 0) || unshared > in.size()) return false;
    key.resize(shared);
    key.append(in.substr(0, unshared));
    in.remove_prefix(unshared);
    std::string value;
    if (value_delta_handles) {  // RocksDB index block: a BlockHandle as two varint64s
      std::string_view before = in;
      uint64_t off = 0, size = 0;
      if (shared != 0 || !enc::get_varint64(in, off) || !enc::get_varint64(in, size)) return false;
      value.assign(before.substr(0, before.size() - in.size()));
    } else {
      if (vlen > in.size()) return false;
      value.assign(in.substr(0, vlen));
      in.remove_prefix(vlen);
    }
    out.emplace_back(key, std::move(value));
    ++index;
  }
  return next_restart == restarts.size() && (restarts.empty() || restarts[0] == 0);
}

struct Cell {
  std::string row, family, qualifier, value;
  uint64_t timestamp = 0;
  uint8_t type = 0;
};

inline bool parse_hbase_block(std::string_view b, std::vector<Cell>& out) {
  while (!b.empty()) {
    if (b.size() < 8) return false;
    const uint64_t keylen = enc::decode_be(b.data(), 4), vallen = enc::decode_be(b.data() + 4, 4);
    b.remove_prefix(8);
    if (keylen < 12 || keylen + vallen > b.size()) return false;
    std::string_view key = b.substr(0, keylen);
    Cell c;
    const uint64_t rowlen = enc::decode_be(key.data(), 2);
    if (2 + rowlen + 1 > keylen) return false;
    c.row.assign(key.substr(2, rowlen));
    const auto famlen = static_cast<uint8_t>(key[2 + rowlen]);
    const size_t fam_at = 3 + rowlen;
    if (fam_at + famlen + 9 > keylen) return false;
    c.family.assign(key.substr(fam_at, famlen));
    c.qualifier.assign(key.substr(fam_at + famlen, keylen - 9 - fam_at - famlen));
    c.timestamp = enc::decode_be(key.data() + keylen - 9, 8);
    c.type = static_cast<uint8_t>(key[keylen - 1]);
    c.value.assign(b.substr(keylen, vallen));
    b.remove_prefix(keylen + vallen);
    out.push_back(std::move(c));
  }
  return true;
}

struct Handle {
  uint64_t offset = 0, size = 0;
};

inline bool decode_handle(std::string_view v, Handle& h) {
  return enc::get_varint64(v, h.offset) && enc::get_varint64(v, h.size);
}

}  // namespace kvz::test
