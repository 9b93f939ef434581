#pragma once
// One zlib-family stream inflated into a buffer of the exact expected size. Bytes after the
// stream's end are ignored: stores pad blocks (WiredTiger to its allocation unit).
#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace kvz {

// The most `in_size` stored bytes of `codec` can decode to, checked before a block, page or
// chunk is allocated: each format's own ceiling (deflate ~1032:1, LZ4 ~255:1, snappy ~21:1;
// zstd's RLE blocks go further, so it gets a wider cap; bzip2's run-length stages take a
// 900 kB block to a few dozen bytes) plus 1 MiB of slack for small blocks
// of highly repetitive data. A declared size beyond it is a bomb, not data.
inline bool expansion_ok(std::string_view codec, uint64_t in_size, uint64_t out_size) {
  uint64_t ratio = 1;
  if (codec == "snappy") ratio = 24;
  if (codec == "lz4" || codec == "lz4hc") ratio = 256;
  if (codec == "zlib" || codec == "gzip" || codec == "deflate") ratio = 1040;
  if (codec == "zstd") ratio = 4096;
  if (codec == "bzip2") ratio = uint64_t{1} << 21;
  return out_size <= in_size * ratio + (uint64_t{1} << 20);
}

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

// A stream of unknown raw size (RocksDB's zlib blocks before format_version 2): `out` grows as
// the stream needs, up to `limit` bytes. Bytes after the stream's end are ignored.
inline bool inflate_grow(std::span<const uint8_t> in, std::vector<uint8_t>& out, int window_bits, size_t limit) {
  z_stream z{};
  if (inflateInit2(&z, window_bits) != Z_OK) return false;
  z.next_in = const_cast<Bytef*>(in.data());  // zlib's API is not const-correct
  z.avail_in = static_cast<uInt>(in.size());
  out.resize(std::min(limit, in.size() * 4 + 1024));
  int r = Z_OK;
  while (r == Z_OK || r == Z_BUF_ERROR) {
    z.next_out = out.data() + z.total_out;
    z.avail_out = static_cast<uInt>(out.size() - z.total_out);
    r = inflate(&z, Z_NO_FLUSH);
    if (r == Z_STREAM_END || (r != Z_OK && r != Z_BUF_ERROR)) break;
    if (z.avail_out != 0 || out.size() >= limit) break;  // input ended inside the stream, or too large
    out.resize(std::min(limit, out.size() * 2));
  }
  const bool ok = r == Z_STREAM_END;
  out.resize(ok ? z.total_out : 0);
  inflateEnd(&z);
  return ok;
}

}  // namespace kvz
