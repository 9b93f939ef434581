// HBase HFile v1, v2 and v3 (format: hfile.h).
#include "stores/hbase/hfile.h"

#include <zlib.h>

#include <algorithm>
#include <functional>

#include "stores/shared/crc32c.h"
#include "stores/shared/file_bytes.h"
#include "stores/shared/inflate.h"

#include <fmt/format.h>

namespace kvz {

namespace {

constexpr size_t kHeader = 33;
constexpr uint64_t kMaxBlock = 64u << 20;  // a larger block is corruption
constexpr int kMaxPlausibleVersion = 255;  // HBase has written 1, 2 and 3

// Sets the one-line error ("NAME: offset AT: WHAT") and returns false.
using FailFn = std::function<bool(uint64_t, std::string)>;

// The trailer protobuf's fields 12 (compressionCodec) and 7 (entryCount): varint fields read,
// others skipped.
bool trailer_fields(std::span<const uint8_t> pb, int& codec, uint64_t& entries) {
  size_t i = 0;
  auto varint = [&](uint64_t& v) {
    v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (i >= pb.size()) return false;
      const uint8_t b = pb[i++];
      v |= uint64_t{b & 0x7Fu} << shift;
      if (!(b & 0x80)) return true;
    }
    return false;
  };
  while (i < pb.size()) {
    uint64_t key = 0, v = 0;
    if (!varint(key)) return false;
    switch (key & 7) {
      case 0:
        if (!varint(v)) return false;
        // Clamped, not wrapped: 2^32 + 1 must not read as codec 1 (GZ).
        if (key >> 3 == 12) codec = static_cast<int>(std::min<uint64_t>(v, INT32_MAX));
        if (key >> 3 == 7) entries = v;
        break;
      case 1:
        if (pb.size() - i < 8) return false;
        i += 8;
        break;
      case 2:
        if (!varint(v) || v > pb.size() - i) return false;
        i += static_cast<size_t>(v);
        break;
      case 5:
        if (pb.size() - i < 4) return false;
        i += 4;
        break;
      default:
        return false;
    }
  }
  return true;
}

// Hadoop WritableUtils vlong: its size from the first byte (decodeVIntSize).
size_t vlong_size(uint8_t first) {
  const auto b = static_cast<int8_t>(first);
  if (b >= -112) return 1;
  return b < -120 ? static_cast<size_t>(-119 - b) : static_cast<size_t>(-111 - b);
}

bool gunzip(std::span<const uint8_t> in, std::vector<uint8_t>& out) { return inflate_exact(in, out, 16 + MAX_WBITS); }

// HFile v1 (HBase 0.9x; shared/fixtures/stores/README.md): a 60-byte trailer (magic, file-info
// offset, data-index offset and count, meta-index offset and count, total uncompressed bytes,
// entry count, codec, version; big-endian), a data index "IDXBLK)+" of (i64 offset, i32
// uncompressed size, vint-prefixed first key) entries, and data blocks that are one
// compressed stream each of "DATABLK*" + cells, running to the next block (the last to the
// data index). No block headers and no checksums.
bool parse_v1(std::span<const uint8_t> file, Hfile& out, uint64_t max_raw, const FailFn& fail) {
  if (file.size() < 60) return fail(0, "shorter than its trailer");
  const size_t trailer = file.size() - 60;
  const auto t = file.subspan(trailer);
  if (std::string(t.begin(), t.begin() + 8) != "TRABLK\"$") return fail(trailer, "no trailer magic TRABLK\"$");
  const uint64_t index_at = read_be(t, 16, 8), index_count = read_be(t, 24, 4);
  out.entries = read_be(t, 48, 4);
  out.codec_id = static_cast<int>(read_be(t, 52, 4));
  static const char* const kVersion1Codecs[] = {"LZO", "GZ", "NONE"};
  out.codec =
      out.codec_id >= 0 && out.codec_id < 3 ? kVersion1Codecs[out.codec_id] : fmt::format("codec {}", out.codec_id);
  if (out.codec != "GZ" && out.codec != "NONE")
    return fail(trailer, fmt::format("compression {}: this reader decodes GZ and NONE", out.codec));
  if (index_at > trailer || trailer - index_at < 8 ||
      std::string(file.begin() + static_cast<long>(index_at), file.begin() + static_cast<long>(index_at) + 8) !=
          "IDXBLK)+")
    return fail(trailer + 16, "the data index is not where the trailer says");
  std::vector<std::pair<uint64_t, uint64_t>> index;  // offset, uncompressed size
  size_t at = index_at + 8;
  for (uint64_t i = 0; i < index_count; ++i) {
    if (trailer - at < 13) return fail(at, "the data index runs into the trailer");
    index.emplace_back(read_be(file, at, 8), read_be(file, at + 8, 4));
    at += 12;
    const auto first = static_cast<int8_t>(file[at]);  // Hadoop vint: the first key's length
    const size_t n = vlong_size(file[at]);
    if (n > trailer - at) return fail(at, "the data index runs into the trailer");
    uint64_t klen = first >= -112 ? static_cast<uint64_t>(first) : read_be(file, at + 1, n - 1);
    if (first < -120 || (first >= -112 && first < 0)) return fail(at, "a negative key length in the data index");
    at += n;
    if (klen > trailer - at) return fail(at, "the data index runs into the trailer");
    at += klen;
  }
  uint64_t decoded = 0;
  for (size_t i = 0; i < index.size(); ++i) {
    if (max_raw && decoded >= max_raw) return out.cut = true;  // the sample is full
    const uint64_t from = index[i].first, to = i + 1 < index.size() ? index[i + 1].first : index_at;
    const uint64_t raw = index[i].second;
    if (from >= to || to > index_at || raw < 8 || raw > kMaxBlock) return fail(from, "a data block outside the file");
    HfileBlock b;
    b.magic = "DATABLK*";
    b.offset = from;
    b.on_disk = to - from;
    const auto data = file.subspan(from, to - from);
    if ((out.codec == "NONE" && data.size() != raw) || !expansion_ok("zlib", data.size(), raw))
      return fail(from, "a data block whose sizes disagree");
    b.raw.resize(raw);
    if (out.codec == "NONE") {
      std::copy(data.begin(), data.end(), b.raw.begin());
    } else if (!gunzip(data, b.raw)) {
      return fail(from, fmt::format("data block does not decompress to its {} bytes", raw));
    }
    if (std::string(b.raw.begin(), b.raw.begin() + 8) != "DATABLK*") return fail(from, "a data block without DATABLK*");
    decoded += raw;
    out.blocks.push_back(std::move(b));
  }
  return true;
}

// The v2/v3 trailer, the last 212 or 4096 bytes: its magic, then a varint-length-prefixed
// protobuf holding the codec and the entry count. `trailer`: where it starts.
bool parse_trailer(std::span<const uint8_t> file, Hfile& out, size_t& trailer, const FailFn& fail) {
  const size_t trailer_size = out.major == 2 ? 212 : 4096;
  if (file.size() < trailer_size) return fail(0, "shorter than its trailer");
  trailer = file.size() - trailer_size;
  const auto t = file.subspan(trailer);
  if (std::string(t.begin(), t.begin() + 8) != "TRABLK\"$") return fail(trailer, "no trailer magic TRABLK\"$");
  size_t i = 8;
  uint64_t len = 0;
  for (int shift = 0; i < t.size() && shift < 35; shift += 7) {
    len |= uint64_t{t[i] & 0x7Fu} << shift;
    if (!(t[i++] & 0x80)) break;
  }
  if (len > t.size() - i || !trailer_fields(t.subspan(i, static_cast<size_t>(len)), out.codec_id, out.entries))
    return fail(trailer, "malformed trailer");
  static const char* const kCodecNames[] = {"LZO", "GZ", "NONE", "SNAPPY", "LZ4", "BZIP2", "ZSTD"};
  out.codec = out.codec_id >= 0 && out.codec_id < 7 ? kCodecNames[out.codec_id] : fmt::format("codec {}", out.codec_id);
  if (out.codec != "GZ" && out.codec != "NONE")
    return fail(trailer, fmt::format("compression {}: this reader decodes GZ and NONE", out.codec));
  return true;
}

// The v2/v3 block at `at`, before the trailer: its header's sizes inside the file, and one
// checksum (ChecksumType 0 none, 1 CRC32, 2 CRC32C: HBase's default) per `bytes per checksum`
// of header + data, after the data. `data_with_header`: the header and the data's bytes.
bool check_block(std::span<const uint8_t> file, uint64_t at, uint64_t trailer, HfileBlock& b,
                 uint64_t& data_with_header, const FailFn& fail) {
  b.magic.assign(file.begin() + static_cast<long>(at), file.begin() + static_cast<long>(at) + 8);
  const uint64_t on_disk_wo_header = read_be(file, at + 8, 4), raw = read_be(file, at + 12, 4);
  const uint64_t per_checksum = read_be(file, at + 29 - 4, 4);
  data_with_header = read_be(file, at + 29, 4);
  if (on_disk_wo_header > trailer - at - kHeader || data_with_header < kHeader ||
      data_with_header > kHeader + on_disk_wo_header || raw > kMaxBlock || per_checksum == 0)
    return fail(at, fmt::format("block {} has sizes outside the file", b.magic));
  b.offset = at;
  b.on_disk = kHeader + on_disk_wo_header;
  const auto covered = file.subspan(at, data_with_header);
  const uint64_t chunks = (data_with_header + per_checksum - 1) / per_checksum;
  if (data_with_header + chunks * 4 != b.on_disk) return fail(at, "checksum area does not match the block size");
  const uint64_t checksum_type = read_be(file, at + 24, 1);
  if (checksum_type > 2) return fail(at + 24, fmt::format("unknown checksum type {}", checksum_type));
  for (uint64_t c = 0; c < chunks && checksum_type != 0; ++c) {
    const uint64_t from = c * per_checksum, n = std::min<uint64_t>(per_checksum, data_with_header - from);
    const auto piece = covered.subspan(from, n);
    const uint64_t got =
        checksum_type == 1 ? crc32(crc32(0, nullptr, 0), piece.data(), static_cast<uInt>(n)) : crc32c(piece);
    if (got != read_be(file, at + data_with_header + c * 4, 4))
      return fail(at + from, fmt::format("block {} fails its {}", b.magic, checksum_type == 1 ? "CRC32" : "CRC32C"));
  }
  return true;
}

// A v2/v3 data block's data (after its header) decompressed into `b.raw`, `raw` bytes.
bool decode_data_block(std::span<const uint8_t> data, uint64_t raw, const Hfile& out, HfileBlock& b,
                       const FailFn& fail) {
  // Checked before allocating: deflate expands at most ~1032:1.
  if ((out.codec == "NONE" && data.size() != raw) || !expansion_ok("zlib", data.size(), raw))
    return fail(b.offset, "a data block whose sizes disagree");
  b.raw.resize(raw);
  if (out.codec == "NONE") {
    std::copy(data.begin(), data.end(), b.raw.begin());
  } else if (!gunzip(data, b.raw)) {
    return fail(b.offset + kHeader, fmt::format("data block does not decompress to its {} bytes", raw));
  }
  return true;
}

}  // namespace

uint64_t Hfile::data_blocks() const {
  uint64_t n = 0;
  for (const auto& b : blocks) n += b.magic == "DATABLK*";
  return n;
}

bool parse_hfile(std::span<const uint8_t> file, const std::string& name, Hfile& out, std::string& error,
                 uint64_t max_raw) {
  out = Hfile{};
  const FailFn fail = [&](uint64_t at, const std::string& what) {
    error = fmt::format("{}: offset {}: {}", name, at, what);
    return false;
  };
  if (file.size() < 4) return fail(0, "too short for an HFile");
  const uint64_t version = read_be(file, file.size() - 4, 4);
  out.major = static_cast<int>(version & 0xFFFFFF);
  out.minor = static_cast<int>(version >> 24);
  if (out.major == 1) return parse_v1(file, out, max_raw, fail);
  // A version HBase could have written (a small number) is one this reader does not take;
  // anything else means the trailer is not where the file ends.
  if (out.major > kMaxPlausibleVersion)
    return fail(file.size() - 4, "no HFile trailer: the last 4 bytes are no HFile version (a truncated file?)");
  if (out.major != 2 && out.major != 3)
    return fail(file.size() - 4,
                fmt::format("HFile version {}.{}: this reader takes v1, v2 and v3", out.major, out.minor));
  size_t trailer = 0;
  if (!parse_trailer(file, out, trailer, fail)) return false;
  uint64_t decoded = 0;
  for (uint64_t at = 0; at < trailer;) {
    if (trailer - at < kHeader) return fail(at, "a block header runs into the trailer");
    // The sample is full: stop at the next data block (index and meta blocks may follow the last).
    if (max_raw && decoded >= max_raw &&
        std::equal(file.begin() + static_cast<long>(at), file.begin() + static_cast<long>(at) + 8, "DATABLK*"))
      return out.cut = true;
    HfileBlock b;
    uint64_t data_with_header = 0;
    if (!check_block(file, at, trailer, b, data_with_header, fail)) return false;
    if (b.magic == "DATABLK*") {
      const uint64_t raw = read_be(file, at + 12, 4);
      if (!decode_data_block(file.subspan(at + kHeader, data_with_header - kHeader), raw, out, b, fail)) return false;
      decoded += raw;
    }
    at += b.on_disk;
    out.blocks.push_back(std::move(b));
  }
  return true;
}

namespace {

// The cells of one unencoded data block (KeyValue: i32 key length, i32 value length, key,
// value, then [u16 tags length + tags] with tags and [vlong memstore timestamp] with MVCC):
// false unless the block is consumed exactly.
bool parse_cells(std::span<const uint8_t> raw, bool tags, bool mvcc, std::vector<Record>* out, uint64_t& cells) {
  size_t at = 0;
  while (at < raw.size()) {
    if (raw.size() - at < 8) return false;
    const uint64_t klen = read_be(raw, at, 4), vlen = read_be(raw, at + 4, 4);
    at += 8;
    if (klen > raw.size() - at || vlen > raw.size() - at - klen) return false;
    if (out)
      out->push_back(
          {std::string(raw.begin() + static_cast<long>(at), raw.begin() + static_cast<long>(at + klen)),
           std::string(raw.begin() + static_cast<long>(at + klen), raw.begin() + static_cast<long>(at + klen + vlen))});
    at += klen + vlen;
    if (tags) {
      if (raw.size() - at < 2) return false;
      const uint64_t tlen = read_be(raw, at, 2);
      at += 2;
      if (tlen > raw.size() - at) return false;
      at += tlen;
    }
    if (mvcc) {
      if (at >= raw.size()) return false;
      const size_t n = vlong_size(raw[at]);
      if (n > raw.size() - at) return false;
      at += n;
    }
    ++cells;
  }
  return true;
}

}  // namespace

bool hfile_records(const Hfile& f, std::vector<Record>& out) {
  // The cell layout (tags, MVCC timestamps) is in the file info; instead, the one that reads
  // every data block exactly into the trailer's entry count is the file's.
  for (const bool tags : {true, false}) {
    for (const bool mvcc : {true, false}) {
      uint64_t cells = 0;
      bool ok = true;
      const size_t skip = f.major == 1 ? 8 : 0;  // a v1 block starts with its DATABLK* magic
      for (const auto& b : f.blocks)
        if (b.magic == "DATABLK*" &&
            !(ok = parse_cells(std::span<const uint8_t>(b.raw).subspan(skip), tags, mvcc, nullptr, cells)))
          break;
      // Cut by max_raw: the first layout that reads every decoded block exactly.
      if (!ok || (f.cut ? cells > f.entries : cells != f.entries)) continue;
      out.clear();
      cells = 0;
      for (const auto& b : f.blocks)
        if (b.magic == "DATABLK*") parse_cells(std::span<const uint8_t>(b.raw).subspan(skip), tags, mvcc, &out, cells);
      return true;
    }
  }
  return false;
}

bool read_hfile(const std::string& path, Hfile& out, std::string& error, uint64_t max_raw) {
  MappedFile bytes;
  return bytes.open(path, error) && parse_hfile(bytes.bytes(), path, out, error, max_raw);
}

}  // namespace kvz
