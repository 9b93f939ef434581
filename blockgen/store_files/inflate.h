#pragma once
// One zlib-family stream inflated into a buffer of the exact expected size. Bytes after the
// stream's end are ignored: stores pad blocks (WiredTiger to its allocation unit).
#include <zlib.h>

#include <cstdint>
#include <span>

namespace kvz {

// window_bits as inflateInit2 takes them: 15 a zlib stream, 16 + 15 a gzip member.
inline bool inflate_exact(std::span<const uint8_t> in, std::span<uint8_t> out, int window_bits) {
  z_stream z{};
  if (inflateInit2(&z, window_bits) != Z_OK) return false;
  z.next_in = const_cast<Bytef*>(in.data());  // zlib's API is not const-correct
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = out.data();
  z.avail_out = static_cast<uInt>(out.size());
  const int r = inflate(&z, Z_FINISH);
  const bool ok = r == Z_STREAM_END && z.total_out == out.size();
  inflateEnd(&z);
  return ok;
}

}  // namespace kvz
