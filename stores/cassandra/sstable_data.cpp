// Cassandra / ScyllaDB Data.db through CompressionInfo.db (format: sstable_data.h).
#include "stores/cassandra/sstable_data.h"

#include <zlib.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>

#include <fmt/format.h>

#include "codecs/registry.h"
#include "stores/shared/file_bytes.h"
#include "stores/shared/inflate.h"
#include "util/text.h"

namespace kvz {

namespace {

// Sizes a well-formed file stays within; anything larger is corruption, not a plan.
constexpr uint32_t kMaxChunkLength = 64u << 20;
constexpr uint64_t kMaxDataLength = uint64_t{1} << 40;
constexpr uint64_t kMaxInfoBytes = uint64_t{64} << 20;  // 8M chunk offsets: 512 GiB of 64 KiB chunks

// A big-endian reader over CompressionInfo.db that remembers the first failure.
struct Reader {
  std::span<const uint8_t> bytes;
  size_t pos = 0;
  bool failed = false;
  uint64_t be(size_t n) {
    if (failed || bytes.size() - pos < n) {
      failed = true;
      return 0;
    }
    const uint64_t v = read_be(bytes, pos, n);
    pos += n;
    return v;
  }
  std::string text() {
    const auto n = static_cast<size_t>(be(2));
    if (failed || bytes.size() - pos < n) {
      failed = true;
      return {};
    }
    std::string s(reinterpret_cast<const char*>(bytes.data() + pos), n);
    pos += n;
    return s;
  }
};

struct Compressor {
  const char* codec;
  const char* options;  // CodecParams::options for decoding (zlib container)
  int level;            // the store's default level
};
const std::map<std::string, Compressor>& compressors() {
  static const std::map<std::string, Compressor> m = {{"LZ4Compressor", {"lz4", "", 1}},
                                                      {"SnappyCompressor", {"snappy", "", 0}},
                                                      {"DeflateCompressor", {"zlib", ":zlib", 6}},
                                                      {"ZstdCompressor", {"zstd", "", 3}}};
  return m;
}

std::string short_class(const std::string& name) {
  const size_t dot = name.rfind('.');
  return dot == std::string::npos ? name : name.substr(dot + 1);
}

// The table's level options, checked as Cassandra's CompressionParams and ScyllaDB check them
// (a whole number in the codec's range, the LZ4 type a known word): "abc" was read as level 0
// and 99999999999 wrapped into a level.
bool apply_level_options(SstableData& out, const std::string& info_name, std::string& error) {
  const Codec* zstd = CodecRegistry::instance().find("zstd");
  for (const auto& [k, v] : out.options) {
    int level = 0, lo = 1, hi = 17;  // lz4_high_compressor_level: LZ4HC's 1..17
    if (k == "compression_level" && out.codec == "zstd") {
      lo = zstd ? zstd->info().min_level : -131072;
      hi = zstd ? zstd->info().max_level : 22;
    } else if (k == "lz4_compressor_type" && v != "fast" && v != "high") {
      error = fmt::format("{}: option lz4_compressor_type '{}' is neither fast nor high", info_name, one_line(v));
      return false;
    } else if (k != "lz4_high_compressor_level") {
      continue;
    }
    if (!parse_int(v, level) || level < lo || level > hi) {
      error = fmt::format("{}: option {} '{}' is not a level of {} ({}..{})", info_name, k, one_line(v), out.compressor,
                          lo, hi);
      return false;
    }
    if (k == "compression_level") out.level = level;
  }
  return true;
}

// CompressionInfo.db's header, everything before the chunk offsets, checked to agree with
// itself; `count`: the chunks it names.
bool parse_header(Reader& r, const std::string& format, const std::string& info_name, SstableData& out, uint64_t& count,
                  std::string& error) {
  out.compressor = short_class(r.text());
  const auto options = static_cast<int64_t>(static_cast<int32_t>(r.be(4)));
  for (int64_t i = 0; i < options && !r.failed; ++i) {
    std::string key = r.text();
    out.options.emplace_back(std::move(key), r.text());
  }
  out.chunk_length = static_cast<uint32_t>(r.be(4));
  if (!format.empty() && format >= "na") r.be(4);  // max compressed length (na, nb and later)
  out.data_length = r.be(8);
  count = r.be(4);
  if (r.failed || options < 0) {
    error = fmt::format("{}: offset {}: truncated header", info_name, r.pos);
    return false;
  }
  if (out.chunk_length == 0 || out.chunk_length > kMaxChunkLength || out.data_length > kMaxDataLength ||
      count != (out.data_length + out.chunk_length - 1) / out.chunk_length) {
    error = fmt::format("{}: offset {}: chunk length {}, data length {} and {} chunks do not agree", info_name, r.pos,
                        out.chunk_length, out.data_length, count);
    return false;
  }
  return true;
}

// The compressor the header names: its codec and default level, then the table's level
// options. Null with one line for an unknown one or a bad option.
const Compressor* find_compressor(SstableData& out, const std::string& info_name, std::string& error) {
  const auto found = compressors().find(out.compressor);
  if (found == compressors().end()) {
    error = fmt::format(
        "{}: offset 2: unknown compressor '{}' (LZ4Compressor, SnappyCompressor, DeflateCompressor, "
        "ZstdCompressor)",
        info_name, out.compressor);
    return nullptr;
  }
  out.codec = found->second.codec;
  out.level = found->second.level;
  return apply_level_options(out, info_name, error) ? &found->second : nullptr;
}

// The `count` chunk offsets into Data.db after the header.
bool parse_offsets(Reader& r, uint64_t count, const std::string& info_name, std::vector<uint64_t>& offsets,
                   std::string& error) {
  if (count > (r.bytes.size() - r.pos) / 8) {  // checked first: a huge count must not loop
    error = fmt::format("{}: offset {}: {} chunk offsets do not fit in the file", info_name, r.pos, count);
    return false;
  }
  for (uint64_t i = 0; i < count; ++i) offsets.push_back(r.be(8));
  if (r.failed) {
    error = fmt::format("{}: offset {}: truncated chunk offsets", info_name, r.pos);
    return false;
  }
  return true;
}

// A session of the codec that decodes the compressor's chunks; null with one line.
std::unique_ptr<Session> open_session(const SstableData& out, const Compressor& compressor, const std::string& name,
                                      std::string& error) {
  const Codec* codec = CodecRegistry::instance().find(out.codec);
  if (!codec) {
    error =
        fmt::format("{}: compressor {} needs codec {}, which this build leaves out", name, out.compressor, out.codec);
    return nullptr;
  }
  auto session = codec->open({.level = compressor.level, .options = compressor.options}, nullptr);
  if (!session.ok()) {
    error = name + ": " + session.error;
    return nullptr;
  }
  return std::move(session.value);
}

// Data.db's chunks: each one's checksum verified, then decoded to its raw bytes.
struct ChunkReader {
  std::span<const uint8_t> data;
  const SstableData& out;
  const std::string& name;
  Session& session;
  std::string& error;

  // Chunk `i`, Data.db bytes [begin, end): in the file, its checksum right; `body` without it.
  bool verify(uint64_t i, uint64_t begin, uint64_t end, std::span<const uint8_t>& body) {
    if (begin > end || end > data.size() || end - begin < 4) {
      error = fmt::format("{}: offset {}: chunk {} runs outside the file or has no checksum", name, begin, i);
      return false;
    }
    body = data.subspan(begin, end - begin - 4);
    const uint64_t want = read_be(data, end - 4, 4);
    const auto len = static_cast<uInt>(body.size());
    const uint64_t got = out.checksum == "crc32" ? crc32(crc32(0, nullptr, 0), body.data(), len)
                                                 : adler32(adler32(0, nullptr, 0), body.data(), len);
    if (got == want) return true;
    error = fmt::format("{}: offset {}: chunk {} fails its {} checksum", name, begin, i, out.checksum);
    return false;
  }

  // Chunk `i`'s body decompressed into `chunk.raw`: the chunk length (the last one: the rest).
  bool decode(uint64_t i, std::span<const uint8_t> body, SstableChunk& chunk) {
    const uint64_t begin = chunk.offset;
    const uint64_t raw = std::min<uint64_t>(out.chunk_length, out.data_length - i * out.chunk_length);
    auto in = body;
    if (out.codec == "lz4") {  // Cassandra's LZ4Compressor: 4-byte little-endian raw length first
      const uint64_t stated = in.size() < 4 ? ~uint64_t{0} : read_le(in, 0, 4);
      if (stated != raw) {
        error = fmt::format("{}: offset {}: chunk {} states {} raw bytes, {} expected", name, begin, i, stated, raw);
        return false;
      }
      in = in.subspan(4);
    }
    if (!expansion_ok(out.codec, in.size(), raw)) {  // checked before allocating
      error = fmt::format("{}: offset {}: chunk {} of {} bytes declares {} raw bytes (a bomb, or a bad length)", name,
                          begin, i, in.size(), raw);
      return false;
    }
    chunk.raw.resize(raw);
    const CallResult res = session.decompress(in, chunk.raw);
    if (res.ok() && res.size == raw) return true;
    error = fmt::format("{}: offset {}: chunk {} does not decompress to its {} bytes ({})", name, begin, i, raw,
                        res.ok() ? fmt::format("{} bytes", res.size) : std::string(res.error));
    return false;
  }
};

}  // namespace

uint64_t SstableData::data_db_bytes() const {
  uint64_t n = 0;
  for (const auto& c : chunks) n += c.stored;
  return n;
}

bool parse_sstable_data(std::span<const uint8_t> info, std::span<const uint8_t> data, const std::string& format,
                        const std::string& name, SstableData& out, std::string& error, uint64_t max_raw) {
  out = SstableData{};
  out.format = format;
  const std::string info_name = name + " (CompressionInfo.db)";
  Reader r{info};
  uint64_t count = 0;
  if (!parse_header(r, format, info_name, out, count, error)) return false;
  const Compressor* compressor = find_compressor(out, info_name, error);
  std::vector<uint64_t> offsets;
  if (!compressor || !parse_offsets(r, count, info_name, offsets, error)) return false;
  out.checksum = !format.empty() && format < "ma" ? "adler32" : "crc32";
  const std::unique_ptr<Session> session = open_session(out, *compressor, name, error);
  if (!session) return false;
  ChunkReader chunks{data, out, name, *session, error};
  uint64_t decoded = 0;
  for (uint64_t i = 0; i < count; ++i) {
    const uint64_t begin = offsets[i], end = i + 1 < count ? offsets[i + 1] : data.size();
    std::span<const uint8_t> body;
    if (!chunks.verify(i, begin, end, body)) return false;
    SstableChunk chunk{begin, end - begin, {}};
    if (!max_raw || decoded < max_raw) {  // past it: checksummed, not decoded
      if (!chunks.decode(i, body, chunk)) return false;
      decoded += chunk.raw.size();
    }
    out.chunks.push_back(std::move(chunk));
  }
  return true;
}

bool read_sstable_data(const std::string& data_db, SstableData& out, std::string& error, uint64_t max_raw) {
  const std::string suffix = "-Data.db";
  if (data_db.size() < suffix.size() || data_db.compare(data_db.size() - suffix.size(), suffix.size(), suffix) != 0) {
    error = data_db + ": not a *-Data.db file";
    return false;
  }
  const std::string info_path = data_db.substr(0, data_db.size() - suffix.size()) + "-CompressionInfo.db";
  std::error_code ec;
  if (!std::filesystem::exists(info_path, ec)) {
    error = data_db + ": no " + std::filesystem::path(info_path).filename().string() +
            " beside it (an uncompressed table, or a missing component)";
    return false;
  }
  // Data.db mapped (only the chunks read cost memory); CompressionInfo.db read whole, so it must
  // be a regular file no larger than its offsets for such a Data.db could need (8 bytes a
  // chunk of at least 4), checked before it is opened: a FIFO or /dev/zero is refused, not read.
  MappedFile data;
  if (!data.open(data_db, error)) return false;
  const uint64_t info_max = std::min<uint64_t>(kMaxInfoBytes, 2 * data.bytes().size() + (1u << 20));
  std::vector<uint8_t> info;
  if (!read_small_file(info_path, info_max, info, error)) return false;
  // "nb-1-big-Data.db" -> "nb"; Cassandra 4+ may name it "nb-1-big-Data.db" too.
  const std::string file = std::filesystem::path(data_db).filename().string();
  const size_t dash = file.find('-');
  const std::string format = dash == 2 ? file.substr(0, 2) : "";
  return parse_sstable_data(info, data.bytes(), format, data_db, out, error, max_raw);
}

}  // namespace kvz
