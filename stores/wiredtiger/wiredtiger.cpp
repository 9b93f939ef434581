// WiredTiger (MongoDB) leaf pages on 4 KiB allocation units: the wiredtiger layout builds the
// pages a bulk load writes (blockgen/layouts/wiredtiger.cpp), this file frames them.
// Sources: wiredtiger src/btree/bt_io.c (__wt_bt_write: WT_BLOCK_COMPRESS_SKIP, allocsize test),
//  src/block/block_write.c (WT_ALIGN to allocation_size), ext/compressors/{snappy,zstd,lz4,zlib}
//  (length prefixes, zstd level 6)

#include <algorithm>
#include <string>

#include <fmt/format.h>

#include "stores/framing.h"
#include "stores/store.h"
#include "stores/wiredtiger/wt_insert_error.h"

namespace kvz {
namespace {

// snappy (MongoDB default), zstd (extension default level 6), zlib (deflateInit: the zlib
// container, level 6), lz4 (acceleration 1). The store's call first (ext/compressors/ in the
// 3.2.1 tag): zlib sets up and ends its stream in every call (deflateInit/deflateEnd,
// inflateInit/inflateEnd) and zstd makes a context per call (ZSTD_compress, ZSTD_decompress):
// ":fresh"; the same codecs on reused state follow as the best possible call. snappy and lz4
// keep no state between calls: one row each.
constexpr std::string_view kNoExtension =
    "framing from WiredTiger's extension source, not validated: Debian ships no such extension";
constexpr WritableCodec kWiredTigerCodecs[] = {
    {"snappy", ""},
    {"zstd", "6:fresh", kNoExtension},
    {"zlib", "6:zlib:fresh"},
    {"lz4", "", kNoExtension},
    {"zstd", "6", kNoExtension},
    {"zlib", "6:zlib"},
};

// __wt_bt_write: a page is the block plus WT_BLOCK_COMPRESS_SKIP (64) bytes that stay as they
// are (the page and block headers and the first cell bytes): the block is what the compressor
// gets (a store file's pages as stored are exactly that; over other layouts a block stands for
// a page's compressed part). A page of at most one allocation unit is not compressed; the
// compressor writes its own prefix (snappy and zstd: 8-byte length, lz4: 16-byte LZ4_PREFIX,
// zlib: none), and its output is used only if it saves a whole allocation unit:
//   page / allocsize > output / allocsize
// (the output without the 64 bytes). The block manager writes the page, or the 64 bytes and
// the output, rounded up to allocation_size (4 KiB). Checked on every leaf page of tables
// libwiredtiger 3.2.1 wrote with snappy, zlib and none (tests/stores/wt_file_test.cpp).
StoredBlock wiredtiger_page(const StoreProfile&, const BlockCodec& codec, size_t raw, size_t compressed) {
  constexpr size_t kSkip = 64, kAlloc = 4096;
  const size_t page = raw + kSkip;
  if (codec.uncompressed) return {framing::round_up(page, kAlloc), page, false};
  size_t prefix = 0;
  if (codec.name == "snappy" || codec.name == "zstd") prefix = 8;
  if (codec.name == "lz4") prefix = 16;
  const size_t output = prefix + compressed;
  if (page <= kAlloc || page / kAlloc <= output / kAlloc) return {framing::round_up(page, kAlloc), page, true};
  return {framing::round_up(kSkip + output, kAlloc), kSkip + output, false};
}

// WT_SESSION::create config (WiredTiger docs, "Compressors"): block_compressor names the
// extension, leaf_page_max the page size; zstd/zlib levels are the extension's
// compression_level, set where wiredtiger_open loads it.
ConfigLine wiredtiger_config(const ConfigChoice& c) {
  if (c.dict_size) return {false, "WiredTiger has no compression dictionary"};
  const std::string page = fmt::format("leaf_page_max={}KB", c.block_size / 1024);
  if (is_uncompressed(c.codec)) return {true, "block_compressor=," + page};
  if (c.codec != "snappy" && c.codec != "lz4" && c.codec != "zstd" && c.codec != "zlib")
    return {false, "WiredTiger cannot write " + c.codec};
  std::string level;
  if (c.codec == "zstd" || c.codec == "zlib")
    level = fmt::format(" (wiredtiger_open: extensions=[libwiredtiger_{}.so=(config=(compression_level={}))])", c.codec,
                        c.level);
  return {true, fmt::format("block_compressor={},{}{}", c.codec, page, level)};
}

// Measured by tests/stores/wt_insert_test.cpp (which asserts the profile stays within them).
constexpr WtInsertError kInsertErrors[] = {
    {8192, "snappy", -2.1, 0.0},  {8192, "zlib", 0.0, 0.0},   {16384, "snappy", -4.1, 3.9}, {16384, "zlib", -4.7, 0.0},
    {32768, "snappy", -1.2, 2.0}, {32768, "zlib", -0.9, 1.6}, {65536, "snappy", -1.4, 0.0}, {65536, "zlib", -1.1, 0.0},
};

// load=bulk|insert: which pages the profile builds (the layout) and says it builds.
std::string apply_load(StoreProfile& p, std::string_view value) {
  if (value == "bulk") {
    p.layout = "wiredtiger";
  } else if (value == "insert") {
    p.layout = "wiredtiger:insert";
    p.description = "WiredTiger 3.2.1 row-store leaf pages of a table filled by ordinary inserts, on 4 KiB units";
  } else {
    return fmt::format("wiredtiger: load must be bulk or insert, got '{}'", value);
  }
  return "";
}

constexpr StoreOption kWiredTigerOptions[] = {
    {"load",
     "load=L  the pages modelled: bulk (a bulk cursor's, the default; exact) or insert (ordinary inserts; within 2 %)",
     apply_load},
};

std::string signed_percent(double x) { return x > 0 ? fmt::format("+{:.1f}", x) : fmt::format("{:.1f}", x); }

// Beside every stored-bytes figure: the load it assumes, and for inserts the error measured.
std::string wiredtiger_basis(const StoreProfile& p, const std::string& codec, size_t block_size) {
  if (p.layout != "wiredtiger:insert") return "bytes the store writes, bulk load";
  double low = 0, high = 0;
  for (const WtInsertError& e : kInsertErrors) {
    low = std::min(low, e.low), high = std::max(high, e.high);
    if (e.leaf_page_max == block_size && e.codec == codec)
      return fmt::format("insert-filled, measured error {} … {} %", signed_percent(e.low), signed_percent(e.high));
  }
  return fmt::format("insert-filled, not measured for {} at {} B (at 8-64 KiB, snappy and zlib: {} … {} %)", codec,
                     block_size, signed_percent(low), signed_percent(high));
}

}  // namespace

std::span<const WtInsertError> wiredtiger_insert_errors() { return kInsertErrors; }

// The store as one data row (kept as written: clang-format would put one field per line).
// clang-format off
const Store& wiredtiger_store() {
  // leaf_page_max >= 1 KiB; pages below 4 KiB still take an allocation unit.
  static const Store store{
      .profile = {.name = "wiredtiger",
                  .description = "WiredTiger 3.2.1 row-store leaf pages (leaf_page_max 32 KiB) on 4 KiB allocation units",
                  .version = "WiredTiger 3.2.1",
                  .layout = "wiredtiger", .block_size = 32 * 1024, .min_block_size = 4096,
                  .rules = "64 uncompressed page bytes + compressor prefix (snappy/zstd 8, lz4 16, zlib 0) + output, "
                           "rounded up to 4 KiB; raw unless the output saves a whole allocation unit"},
      .codecs = kWiredTigerCodecs, .store_block = wiredtiger_page, .options = kWiredTigerOptions, .size_option = "block",
      .config_line = wiredtiger_config, .figure_basis = wiredtiger_basis};
  return store;
}
// clang-format on

}  // namespace kvz
