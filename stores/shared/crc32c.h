#pragma once
// CRC32C (Castagnoli, reflected polynomial 0x82F63B78): the checksum of LevelDB and RocksDB
// block trailers (masked) and of HBase HFile blocks.
#include <array>
#include <cstdint>
#include <span>

namespace kvz {

inline uint32_t crc32c(std::span<const uint8_t> data, uint32_t crc = 0) {
  static const auto table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = c & 1 ? (c >> 1) ^ 0x82F63B78u : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  crc = ~crc;
  for (uint8_t b : data) crc = table[(crc ^ b) & 0xFF] ^ (crc >> 8);
  return ~crc;
}

// LevelDB's and RocksDB's stored form (util/crc32c.h Mask): rotate right by 15, add a constant.
inline uint32_t mask_crc32c(uint32_t crc) { return ((crc >> 15) | (crc << 17)) + 0xa282ead8u; }

}  // namespace kvz
