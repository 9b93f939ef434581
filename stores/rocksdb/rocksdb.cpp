// RocksDB 7.8 block-based table (validated against librocksdb 7.8.3 in
// tests/stores/validate_stores.cpp): profile, max_compressed_bytes_per_kb option, framing and
// keep-raw rule, codecs, and the in-file dictionary sampling.
// Sources: rocksdb 7.8 table/block_based/block_based_table_builder.cc (CompressBlock,
//  GoodCompressionRatio, WriteMaybeCompressedBlock, EnterUnbuffered), util/compression.h
//  (PutDecompressedSizeInfo, LZ4_Compress, Zlib_Compress, BZip2_Compress, ZSTD_Compress); confirmed by
//  experiment against librocksdb 7.8.3

#include <map>
#include <string>

#include <fmt/format.h>

#include "blockgen/encoding.h"
#include "stores/framing.h"
#include "stores/store.h"
#include "util/text.h"

namespace kvz {
namespace {

using framing::kBlockTrailer;

std::string apply_max_compressed_bytes_per_kb(StoreProfile& p, std::string_view value) {
  int n = 0;
  // RocksDB sanitizes to 1..1023; 896 = 7/8, the default since the option exists.
  if (!parse_int(value, n) || n < 1 || n > 1023)
    return "rocksdb: max_compressed_bytes_per_kb must be 1..1023, got '" + std::string(value) + "'";
  p.max_compressed_bytes_per_kb = n;
  return "";
}

constexpr StoreOption kRocksdbOptions[] = {
    {"max_compressed_bytes_per_kb",
     "max_compressed_bytes_per_kb=N  RocksDB >= 8 keep-raw rule (896 = 7/8); default: the 7.8 rule",
     apply_max_compressed_bytes_per_kb},
};

// The codecs in `--profile` order, as RocksDB 7.8 calls them. kDefaultCompressionLevel
// resolves to: LZ4 acceleration 1 through LZ4_compress_fast_continue on a fresh stream
// (lz4:stream), zlib 6 (Z_DEFAULT_COMPRESSION, raw deflate -14), LZ4HC 9
// (LZ4HC_CLEVEL_DEFAULT), ZSTD 3 (ZSTD_CLEVEL_DEFAULT). util/compression.h sets up the zlib,
// LZ4 and LZ4HC state for every block (deflateInit2/End, LZ4_createStream/free with the
// dictionary loaded, inflateInit2/End, LZ4_createStreamDecode/free): those rows are ":fresh",
// the store's call, first, so a plain `-c zlib` means it; the same codec without ":fresh"
// follows as the best possible call for the same bytes (a state reused across blocks). zstd's
// contexts are cached per table builder and per thread, and snappy has none: one row each.
// BZip2_Compress (kBZip2Compression, Debian's librocksdb links libbz2) calls
// BZ2_bzCompressInit(&stream, 1, 0, 30) whatever compression_opts.level says: blockSize100k 1,
// a stream set up and ended per block as libbz2 always does; one row, at any level asked for.
constexpr WritableCodec kRocksdbCodecs[] = {
    {"lz4", "1:stream:fresh"}, {"snappy", ""}, {"zlib", "6:fresh"},
    {"lz4hc", "9:fresh"},      {"zstd", "3"},  {.name = "bzip2", .params = "1", .fixed_level = true},
    {"lz4", "1:stream"},       {"zlib", "6"},  {"lz4hc", "9"},
};

// Format_version >= 2 (default 5): util/compression.h compresses into an output that starts
// with PutDecompressedSizeInfo's varint32 of the raw size for zlib, bzip2, LZ4, LZ4HC, xpress
// and ZSTD; snappy carries its own length. block_based_table_builder.cc keeps the compressed
// form only when GoodCompressionRatio(compressed incl. prefix, raw):
//   compressed < raw - raw / 8
// (strict; confirmed by experiment: a 2,989-byte block compressing to exactly 2,616 = raw -
// raw/8 bytes with its prefix is stored raw). RocksDB >= 8 replaced it with
// max_compressed_bytes_per_kb: compressed <= (N * raw) >> 10.
StoredBlock rocksdb_block(const StoreProfile& p, const BlockCodec& codec, size_t raw, size_t compressed) {
  if (codec.uncompressed) return framing::stored_uncompressed(raw, kBlockTrailer);  // kNoCompression
  const size_t payload = codec.name == "snappy" ? compressed : compressed + enc::varint_length(raw);
  const bool good = p.max_compressed_bytes_per_kb > 0
                        ? payload <= (static_cast<size_t>(p.max_compressed_bytes_per_kb) * raw) >> 10
                        : payload < raw - raw / 8;
  return good ? framing::stored_compressed(payload, kBlockTrailer) : framing::stored_raw(raw, kBlockTrailer);
}

// Data blocks are buffered until the file is finished or their raw bytes pass the buffer limit:
// min(target_file_size, max_dict_buffer_bytes), i.e. target_file_size_base (64 MiB) in a
// compaction; SstFileWriter has no target and buffers the whole file. The block that passes
// the limit is still buffered.
constexpr size_t kDictBufferLimit = size_t{64} << 20;

// 7.8 BlockBasedTableBuilder::EnterUnbuffered: samples start at buffered block n/2 and step by
// 545055921143 % n (each block at most once) until kSampleBytes are taken, the last one cut
// short. kSampleBytes is zstd_max_train_bytes when it is > 0 (100 x dict_size, kvzbench's
// line): ZSTD_TrainDictionary trains on them, for every codec. With zstd_max_train_bytes 0 (a
// raw row) it is max_dict_bytes and the samples, concatenated in that order, are the
// dictionary itself, for zstd too (no ZDICT_finalizeDictionary in 7.8 on that path; zstd then
// reads it as raw content). The one dictionary serves the whole file.
std::vector<std::span<const uint8_t>> rocksdb_dictionary_samples(const BlockSet& blocks, size_t dict_size, bool raw) {
  std::vector<std::span<const uint8_t>> samples;
  size_t n = 0, buffered = 0;
  while (n < blocks.count() && buffered <= kDictBufferLimit) buffered += blocks.block(n++).size();
  if (n == 0 || dict_size == 0) return samples;
  const size_t budget = raw ? dict_size : 100 * dict_size;       // zstd_max_train_bytes as the RocksDB wiki advises
  const size_t step = static_cast<size_t>(545055921143ull % n);  // kPrimeGenerator
  size_t taken = 0;
  for (size_t i = 0, idx = n / 2; i < n && taken < budget; ++i) {
    const auto block = blocks.block(idx);
    const size_t len = budget - taken < block.size() ? budget - taken : block.size();
    samples.push_back(block.subspan(0, len));
    taken += len;
    idx += step;
    if (idx >= n) idx -= n;
  }
  return samples;
}

// WriteCompressionDictBlock: the raw dictionary as a meta block (kNoCompression) + trailer.
size_t rocksdb_dictionary_block(size_t dict_bytes) { return dict_bytes + framing::kBlockTrailer; }

constexpr std::string_view kRules78 =
    "varint32 size prefix (zlib/lz4/lz4hc/zstd/bzip2, none for snappy) + 5-byte trailer; raw unless "
    "compressed < raw - raw/8 (7.8 GoodCompressionRatio)";

std::string rocksdb_rules(const StoreProfile& p) {
  if (p.max_compressed_bytes_per_kb == 0) return std::string(kRules78);
  return "varint32 size prefix (none for snappy) + 5-byte trailer; raw unless compressed <= " +
         std::to_string(p.max_compressed_bytes_per_kb) + "*raw/1024 (RocksDB >= 8)";
}

// A ColumnFamilyOptions string (rocksdb::GetColumnFamilyOptionsFromString, as the OPTIONS file
// and `ldb --options` read it): include/rocksdb/advanced_options.h CompressionOptions field
// names. bottommost_compression repeats the choice: with bottommost_compression_opts left
// disabled, the bottommost level uses compression_opts. Dictionaries: max_dict_bytes, trained
// from zstd_max_train_bytes = 100 × for every codec: the dictionary kvzbench measured (RocksDB
// 7.8 trains whenever zstd_max_train_bytes > 0); a raw row (`rawdict=`) sets max_dict_bytes
// alone, so that RocksDB uses raw samples, for every codec.
ConfigLine rocksdb_config(const ConfigChoice& c) {
  static const std::map<std::string, std::string> kNames = {{"snappy", "kSnappyCompression"},
                                                            {"zlib", "kZlibCompression"},
                                                            {"lz4", "kLZ4Compression"},
                                                            {"lz4hc", "kLZ4HCCompression"},
                                                            {"zstd", "kZSTD"},
                                                            {"bzip2", "kBZip2Compression"}};
  const bool plain = is_uncompressed(c.codec);
  const auto name = kNames.find(c.codec);
  if (!plain && name == kNames.end()) return {false, "RocksDB 7.8 cannot write " + c.codec};
  std::string opts = plain || c.codec == "snappy" ? "" : fmt::format("level={}", c.level);
  if (c.dict_size && c.params.find("rawdict=") != std::string::npos) {
    opts += fmt::format(";max_dict_bytes={}", c.dict_size);
  } else if (c.dict_size) {
    opts += fmt::format(";max_dict_bytes={};zstd_max_train_bytes={}", c.dict_size, c.dict_size * 100);
  }
  std::string line = fmt::format("compression={0};bottommost_compression={0}", plain ? "kNoCompression" : name->second);
  if (!opts.empty()) line += ";compression_opts={" + opts + "}";
  return {true, fmt::format("{};block_based_table_factory={{block_size={}}}", line, c.block_size)};
}

}  // namespace

// The store as one data row (kept as written: clang-format would put one field per line).
// clang-format off
const Store& rocksdb_store() {
  // dict_sizes: CompressionOptions::max_dict_bytes as RocksDB users set it.
  static const Store store{
      .profile = {.name = "rocksdb", .description = "RocksDB 7.8 block-based table: 4 KiB data blocks, format_version 5",
                  .version = "RocksDB 7.8", .layout = "rocksdb", .block_size = 4096, .dict_sizes = {16 * 1024},
                  .raw_dict_codecs = {"zstd", "lz4", "zlib"}, .rules = std::string(kRules78)},
      .codecs = kRocksdbCodecs, .store_block = rocksdb_block, .options = kRocksdbOptions, .rules = rocksdb_rules,
      .dictionary_samples = rocksdb_dictionary_samples, .dictionary_block = rocksdb_dictionary_block,
      .file_parts = rocksdb_file_parts, .config_line = rocksdb_config};
  return store;
}
// clang-format on

}  // namespace kvz
