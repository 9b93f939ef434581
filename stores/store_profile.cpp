// The store profile table and `NAME:key=value` option parsing. The framing and keep-raw
// rules themselves live in store_profile_rules.cpp; every figure and its source is in
// stores/README.md.
#include "stores/store_profile.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <string_view>

#include "codecs/spec.h"

namespace kvz {
namespace {

std::vector<StoreProfile> make_profiles() {
  std::vector<StoreProfile> v;
  {
    StoreProfile p;
    p.name = p.base = "rocksdb";
    p.description = "RocksDB 7.8 block-based table: 4 KiB data blocks, format_version 5";
    p.layout = "rocksdb";
    p.block_size = 4096;
    // kDefaultCompressionLevel resolves to: LZ4 acceleration 1, zlib 6 (Z_DEFAULT_COMPRESSION,
    // raw deflate -14), LZ4HC 9 (LZ4HC_CLEVEL_DEFAULT), ZSTD 3 (ZSTD_CLEVEL_DEFAULT).
    p.codecs = "lz4:1:stream/snappy/zlib:6/lz4hc:9/zstd:3";  // lz4:stream = RocksDB 7.8's LZ4_compress_fast_continue on a fresh stream
    p.dict_sizes = {16 * 1024};  // CompressionOptions::max_dict_bytes as RocksDB users set it
    p.rules =
        "varint32 size prefix (zlib/lz4/lz4hc/zstd, none for snappy) + 5-byte trailer; raw unless "
        "compressed < raw - raw/8 (7.8 GoodCompressionRatio)";
    p.sources =
        "rocksdb 7.8 table/block_based/block_based_table_builder.cc (CompressBlock, "
        "GoodCompressionRatio, WriteMaybeCompressedBlock, EnterUnbuffered), util/compression.h "
        "(PutDecompressedSizeInfo, LZ4_Compress, Zlib_Compress, ZSTD_Compress); confirmed "
        "by experiment against librocksdb 7.8.3";
    v.push_back(p);
  }
  {
    StoreProfile p;
    p.name = p.base = "leveldb";
    p.description = "LevelDB 1.23 table: 4 KiB data blocks, snappy (zstd: upstream after 1.23)";
    p.layout = "leveldb";
    p.block_size = 4096;
    p.codecs = "snappy/zstd:1";  // Options::zstd_compression_level = 1 upstream
    p.rules = "no size prefix + 5-byte trailer; raw unless compressed < raw - raw/8";
    p.sources =
        "leveldb 1.23 table/table_builder.cc (TableBuilder::WriteBlock), include/leveldb/options.h; "
        "zstd: upstream leveldb table_builder.cc kZstdCompression (2023)";
    v.push_back(p);
  }
  {
    StoreProfile p;
    p.name = p.base = "cassandra";
    p.description = "Cassandra 4.x/5.0 compressed SSTable Data.db: 16 KiB chunks";
    p.layout = "raw";
    p.block_size = 16 * 1024;
    p.min_block_size = 1024;
    p.max_block_size = 1 << 20;
    // LZ4Compressor fast (acceleration 1) and high (lz4_high_compressor_level 9),
    // SnappyCompressor, DeflateCompressor (java.util.zip.Deflater: zlib wrapper, level 6),
    // ZstdCompressor (compression_level 3).
    p.codecs = "lz4/lz4hc:9/snappy/zlib:6:zlib/zstd:3";
    p.rules =
        "LZ4 4-byte length prefix; 4-byte CRC32 after each chunk; raw when compressed >= "
        "ceil(chunk/min_compress_ratio) (off by default)";
    p.sources =
        "cassandra io/compress/CompressedSequentialWriter.java (flushData), LZ4Compressor.java, "
        "DeflateCompressor.java, ZstdCompressor.java, schema/CompressionParams.java "
        "(DEFAULT_CHUNK_LENGTH 16K, DEFAULT_MIN_COMPRESS_RATIO 0.0, calcMaxCompressedLength)";
    v.push_back(p);
  }
  {
    StoreProfile p;
    p.name = p.base = "scylla";
    p.description = "ScyllaDB compressed SSTable Data.db: 4 KiB chunks, 1 ms stall line";
    p.layout = "raw";
    p.block_size = 4096;
    p.min_block_size = 1024;
    p.max_block_size = 128 * 1024;  // compression_parameters::validate: chunk_length <= 128 KiB
    p.codecs = "lz4/zstd:3/zlib:6:zlib/snappy";
    p.dict_sizes = {16 * 1024};  // LZ4WithDictsCompressor / ZstdWithDictsCompressor
    p.stall_threshold_ms = 1.0;
    p.rules =
        "LZ4 4-byte LE length prefix; 4-byte CRC32 after each chunk; every chunk stored as the "
        "compressor returns it";
    p.sources =
        "scylladb compress.cc (lz4_processor::compress, deflate_processor, zstd_processor: "
        "ZSTD_compressCCtx level 3, dictionaries kept in CompressionInfo options), "
        "sstables/compress.cc; Seastar reactor stall detector";
    v.push_back(p);
  }
  {
    StoreProfile p;
    p.name = p.base = "hbase";
    p.description = "HBase 2.5 HFile v3: 64 KiB data blocks with HDFS-style checksums";
    p.layout = "hbase";
    p.block_size = 64 * 1024;
    // GZ: level 6 deflate in a gzip member; SNAPPY/LZ4/LZO/ZSTD(3)/BROTLI(6)/LZMA(6) through
    // Hadoop's BlockCompressorStream.
    p.codecs = "zlib:6:zlib/snappy/lzo/lz4/zstd:3/brotli:6/xz:6";
    p.rules =
        "33-byte block header + codec framing (8 bytes BlockCompressorStream, gzip +18) + 4-byte "
        "CRC32C per 16 KiB of header+data; never kept raw";
    p.sources =
        "hbase io/hfile/HFileBlock.java (Writer.finishBlock, HEADER_SIZE 33, "
        "ChecksumUtil.numBytes, bytes.per.checksum 16384), hbase-compression-* codecs "
        "(BrotliCodec level 6, ZstdCodec level 3, LzmaCodec level 6, buffer 256 KiB), "
        "hadoop io/compress/BlockCompressorStream.java";
    v.push_back(p);
  }
  {
    StoreProfile p;
    p.name = p.base = "wiredtiger";
    p.description = "WiredTiger 32 KiB leaf pages on 4 KiB allocation units";
    p.layout = "raw";
    p.block_size = 32 * 1024;
    p.min_block_size = 1024;  // leaf_page_max; pages below 4 KiB still take an allocation unit
    p.max_block_size = 1 << 20;
    // snappy (MongoDB default), zstd (extension default level 6), zlib (zlib wrapper,
    // level 6), lz4 (acceleration 1).
    p.codecs = "snappy/zstd:6/zlib:6:zlib/lz4";
    p.rules =
        "64 uncompressed header bytes + compressor prefix (snappy/zstd 8, lz4 16, zlib 0), "
        "rounded up to 4 KiB; raw unless compression saves a whole allocation unit";
    p.sources =
        "wiredtiger src/btree/bt_io.c (__wt_bt_write: WT_BLOCK_COMPRESS_SKIP, allocsize test), "
        "src/block/block_write.c (WT_ALIGN to allocation_size), ext/compressors/{snappy,zstd,lz4,"
        "zlib} (length prefixes, zstd level 6)";
    v.push_back(p);
  }
  {
    StoreProfile p;
    p.name = p.base = "tarantool";
    p.description = "Tarantool EE per-field compression: each value compressed on its own";
    p.layout = "values:single";
    p.block_size = 4096;  // values:single ignores the target size: one block per value
    p.min_block_size = 1024;
    p.max_block_size = 1 << 20;
    p.codecs = "zstd:3/lz4";
    p.rules =
        "MsgPack ext header + compression type + mp_uint original size + compressed bytes; "
        "raw when that is not smaller than the value";
    p.sources =
        "Tarantool EE docs (space_object:format compression = 'zstd' | 'lz4', 2.10+); the field "
        "encoding is inferred from the MsgPack ext spec (EE source is closed)";
    v.push_back(p);
  }
  return v;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool parse_double(std::string_view text, double& out) {
  std::string s(text);
  if (s.empty()) return false;
  char* end = nullptr;
  errno = 0;
  double d = std::strtod(s.c_str(), &end);
  if (errno != 0 || end != s.c_str() + s.size() || !std::isfinite(d)) return false;
  out = d;
  return true;
}

bool parse_int(std::string_view text, long& out) {
  std::string s(text);
  if (s.empty()) return false;
  char* end = nullptr;
  errno = 0;
  long v = std::strtol(s.c_str(), &end, 10);
  if (errno != 0 || end != s.c_str() + s.size()) return false;
  out = v;
  return true;
}

// Applies one `key=value` option to `p`; returns "" or a one-line error.
std::string apply_option(StoreProfile& p, std::string_view key, std::string_view value) {
  if (key == "min_compress_ratio" && p.base == "cassandra") {
    double r = 0;
    // CompressionParams.validate: 0 disables the rule; otherwise it must be >= 1.
    if (!parse_double(value, r) || (r != 0 && r < 1.0))
      return "cassandra: min_compress_ratio must be 0 (off) or >= 1.0, got '" + std::string(value) + "'";
    p.min_compress_ratio = r;
    return "";
  }
  if (key == "max_compressed_bytes_per_kb" && p.base == "rocksdb") {
    long n = 0;
    // RocksDB sanitizes to 1..1023; 896 = 7/8, the default since the option exists.
    if (!parse_int(value, n) || n < 1 || n > 1023)
      return "rocksdb: max_compressed_bytes_per_kb must be 1..1023, got '" + std::string(value) + "'";
    p.max_compressed_bytes_per_kb = static_cast<int>(n);
    return "";
  }
  if (key == "chunk" || key == "block") {
    size_t n = 0;
    if (!parse_byte_size(std::string(value), n) || n < p.min_block_size || n > p.max_block_size)
      return p.base + ": " + std::string(key) + " must be " + format_byte_size(p.min_block_size) +
             ".." + format_byte_size(p.max_block_size) + ", got '" + std::string(value) + "'";
    if (p.base == "scylla" && (n & (n - 1)) != 0)
      return "scylla: chunk must be a power of two, got '" + std::string(value) + "'";
    p.block_size = n;
    return "";
  }
  std::string known;
  for (const auto& line : store_profile_options(p)) {
    known += (known.empty() ? "" : ", ") + line.substr(0, line.find('='));
  }
  return p.base + ": unknown option '" + std::string(key) + "' (known: " + known + ")";
}

// Variants with options are built once and kept, so pointers stay valid.
std::mutex g_variants_mutex;
std::deque<StoreProfile>& variants() {
  static std::deque<StoreProfile> d;
  return d;
}

}  // namespace

const std::vector<StoreProfile>& store_profiles() {
  static const std::vector<StoreProfile> profiles = make_profiles();
  return profiles;
}

std::vector<std::string> store_profile_options(const StoreProfile& p) {
  std::vector<std::string> out;
  out.push_back(std::string(p.base == "wiredtiger" ? "block" : "chunk") +
                "=SIZE  block/chunk/page size (" + format_byte_size(p.min_block_size) + ".." +
                format_byte_size(p.max_block_size) + ")");
  if (p.base == "cassandra")
    out.push_back("min_compress_ratio=R  store a chunk raw unless it compresses by R (0 = off, default)");
  if (p.base == "rocksdb")
    out.push_back(
        "max_compressed_bytes_per_kb=N  RocksDB >= 8 keep-raw rule (896 = 7/8); default: the 7.8 rule");
  return out;
}

const StoreProfile* find_store_profile(const std::string& name) {
  std::string ignored;
  return find_store_profile(name, ignored);
}

const StoreProfile* find_store_profile(const std::string& name, std::string& error) {
  error.clear();
  const std::string base = name.substr(0, name.find(':'));
  const StoreProfile* found = nullptr;
  for (const auto& p : store_profiles()) {
    if (p.name == base) found = &p;
  }
  if (!found) {
    std::string known;
    for (const auto& p : store_profiles()) known += (known.empty() ? "" : ", ") + p.name;
    error = "unknown store profile '" + base + "' (known: " + known + ")";
    return nullptr;
  }
  if (base == name) return found;

  std::lock_guard<std::mutex> lock(g_variants_mutex);
  for (const auto& v : variants()) {
    if (v.name == name) return &v;
  }
  StoreProfile p = *found;
  p.name = name;
  std::string_view opts = std::string_view(name).substr(base.size() + 1);
  if (trim(opts).empty()) {
    error = base + ": empty option list after ':'";
    return nullptr;
  }
  while (!opts.empty()) {
    const size_t comma = opts.find(',');
    std::string_view item = trim(opts.substr(0, comma));
    opts = comma == std::string_view::npos ? std::string_view() : opts.substr(comma + 1);
    const size_t eq = item.find('=');
    if (eq == std::string_view::npos) {
      error = base + ": option '" + std::string(item) + "' needs key=value";
      return nullptr;
    }
    error = apply_option(p, trim(item.substr(0, eq)), trim(item.substr(eq + 1)));
    if (!error.empty()) return nullptr;
  }
  if (p.min_compress_ratio > 0)
    p.rules += "; min_compress_ratio=" + std::to_string(p.min_compress_ratio).substr(0, 4);
  if (p.max_compressed_bytes_per_kb > 0)
    p.rules = "varint32 size prefix (none for snappy) + 5-byte trailer; raw unless compressed <= " +
              std::to_string(p.max_compressed_bytes_per_kb) + "*raw/1024 (RocksDB >= 8)";
  variants().push_back(std::move(p));
  return &variants().back();
}

}  // namespace kvz
