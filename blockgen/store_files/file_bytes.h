#pragma once
// Reading a store's file: all of it, or the bytes at a given distance from its end (magics,
// versions and trailers live there), and its fixed-width integers.
#include <cstdint>
#include <fstream>
#include <iterator>
#include <span>
#include <string>
#include <vector>

namespace kvz {

// The unsigned integer in the `n` (<= 8) bytes at `at`: little-endian (RocksDB, LevelDB,
// WiredTiger) or big-endian (HBase, Cassandra). The caller has checked the bounds.
inline uint64_t read_le(std::span<const uint8_t> b, size_t at, size_t n) {
  uint64_t v = 0;
  for (size_t i = n; i-- > 0;) v = v << 8 | b[at + i];
  return v;
}
inline uint64_t read_be(std::span<const uint8_t> b, size_t at, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < n; ++i) v = v << 8 | b[at + i];
  return v;
}

// The whole file; false with "PATH: cannot read" in `error`.
inline bool read_whole_file(const std::string& path, std::vector<uint8_t>& out, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = path + ": cannot read";
    return false;
  }
  out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return true;
}

// `n` bytes starting `from_end` bytes before the end of the file; empty when it is shorter.
inline std::vector<uint8_t> read_from_end(const std::string& path, uint64_t file_size, uint64_t from_end, size_t n) {
  std::vector<uint8_t> out(n);
  if (file_size < from_end || from_end < n) return {};
  std::ifstream in(path, std::ios::binary);
  in.seekg(static_cast<std::streamoff>(file_size - from_end));
  in.read(reinterpret_cast<char*>(out.data()), static_cast<std::streamsize>(n));
  if (in.gcount() != static_cast<std::streamsize>(n)) return {};
  return out;
}

}  // namespace kvz
