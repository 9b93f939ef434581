// WiredTiger row-store files (format: wt_file.h).
#include "stores/wiredtiger/wt_file.h"

#include <algorithm>
#include <bit>
#include <map>
#include <memory>
#include <numeric>
#include <set>

#include <fmt/format.h>

#include "codecs/registry.h"
#include "stores/shared/crc32c.h"
#include "stores/shared/file_bytes.h"
#include "stores/shared/inflate.h"

namespace kvz {

namespace {

constexpr uint32_t kDescMagic = 120897;
constexpr size_t kHeaders = 40;           // page header 28 + block header 12
constexpr size_t kSkip = 64;              // WT_BLOCK_COMPRESS_SKIP: stored as is in a compressed page
constexpr size_t kUnit = 512;             // the smallest allocation size
constexpr uint64_t kMaxPage = 64u << 20;  // past a real page (32 KiB leaves by default): a bomb
enum : uint8_t { kOverflow = 5, kRowInternal = 6, kRowLeaf = 7 };

// intpack.i: an unsigned integer in 1 (0..63), 2 (..8255) or 1 + n bytes (big-endian + 8256).
bool unpack_uint(std::span<const uint8_t> b, size_t& at, uint64_t& v) {
  if (at >= b.size()) return false;
  const uint8_t first = b[at];
  if ((first & 0xC0) == 0x80) {
    v = first & 0x3F;
    at += 1;
  } else if ((first & 0xE0) == 0xC0) {
    if (b.size() - at < 2) return false;
    v = ((uint64_t{first & 0x1Fu} << 8) | b[at + 1]) + 64;
    at += 2;
  } else if ((first & 0xF0) == 0xE0) {
    const size_t n = first & 0x0F;
    if (n > 8 || b.size() - at < 1 + n) return false;
    v = 0;
    for (size_t i = 1; i <= n; ++i) v = v << 8 | b[at + i];
    v += (1u << 13) + 64;
    at += 1 + n;
  } else {
    return false;  // a negative or reserved marker: not a length or an address
  }
  return true;
}

struct Cell {
  uint8_t type = 0;  // long type (desc & 0xF0), or the short type's long equivalent
  uint8_t prefix = 0;
  std::span<const uint8_t> data;
};
enum : uint8_t {
  kAddrDel = 0x00,
  kAddrInt = 0x10,
  kAddrLeaf = 0x20,
  kAddrLeafNo = 0x30,
  kDel = 0x40,
  kKey = 0x50,
  kKeyOvfl = 0x60,
  kKeyPfx = 0x70,
  kValue = 0x80,
  kValueCopy = 0x90,
  kValueOvfl = 0xA0,
  kValueOvflRm = 0xB0,
  kKeyOvflRm = 0xC0,
};

// One cell at `at` (cell.i __wt_cell_unpack); `at` moves past it. A short cell (key, prefixed
// key, value) holds its length in the descriptor; a long one: [RLE count], [prefix], length.
bool next_cell(std::span<const uint8_t> page, size_t& at, Cell& c) {
  if (at >= page.size()) return false;
  const uint8_t desc = page[at++];
  const bool short_cell = desc & 0x03;
  uint64_t len = desc >> 2;
  if (short_cell) {
    c.type = (desc & 0x03) == 1 ? kKey : (desc & 0x03) == 2 ? kKeyPfx : kValue;
  } else {
    c.type = desc & 0xF0;
    uint64_t rle = 0;
    if ((desc & 0x04) && !unpack_uint(page, at, rle)) return false;  // an RLE count or record number
  }
  c.prefix = 0;
  if (c.type == kKeyPfx) {
    if (at >= page.size()) return false;
    c.prefix = page[at++];
  }
  if (!short_cell) {
    if (c.type == kDel) return true;
    if (c.type == kValueCopy) return false;  // dictionary cells: not written with WiredTiger's defaults
    if (!unpack_uint(page, at, len)) return false;
    if (c.type == kKey || c.type == kKeyPfx || c.type == kValue) len += 64;  // WT_CELL_SIZE_ADJUST
  }
  if (len > page.size() - at) return false;
  c.data = page.subspan(at, static_cast<size_t>(len));
  at += static_cast<size_t>(len);
  return true;
}

struct Addr {
  uint64_t offset = 0, size = 0, checksum = 0;
};

class WtParser {
 public:
  WtParser(std::span<const uint8_t> file, const std::string& name, WtFile& out, std::string& error, uint64_t max_raw,
           const MappedFile* mapped = nullptr)
      : file_(file), name_(name), out_(out), error_(error), max_raw_(max_raw), mapped_(mapped) {}

  bool run() {
    if (file_.size() < 8 || !is_wt_file(file_.first(8))) return fail(0, "no WiredTiger block-manager descriptor");
    scan();
    out_.blocks_scanned = blocks_.size();
    if (blocks_.empty()) return fail(0, "no valid WiredTiger block");
    // The allocation size: the largest power of two dividing every block's offset and size.
    uint64_t g = 0;
    for (const auto& [off, size] : blocks_) g = std::gcd(g, std::gcd(off, size));
    out_.allocation_size = static_cast<uint32_t>(uint64_t{1} << std::countr_zero(g));
    uint64_t root = 0;
    if (!find_root(root)) return false;
    if (!walk(root, 0)) return false;
    std::set<std::string> codecs;
    for (const auto& p : out_.leaves) codecs.insert(p.codec);
    codecs.erase("none");  // a page kept raw does not name the file's compressor
    out_.compression = codecs.empty() ? "none" : codecs.size() > 1 ? "mixed" : *codecs.begin();
    return true;
  }

 private:
  std::span<const uint8_t> file_;
  const std::string& name_;
  WtFile& out_;
  std::string& error_;
  uint64_t max_raw_ = 0;                 // stop walking once the records hold this much (0: read all)
  const MappedFile* mapped_ = nullptr;   // the file, when mapped: scanned pages are dropped
  uint64_t raw_ = 0;                     // key and value bytes read so far
  std::map<uint64_t, uint64_t> blocks_;  // offset -> disk_size of every block whose checksum holds
  std::set<uint64_t> visited_;           // pages read by the walk
  std::map<std::string, std::unique_ptr<Session>> sessions_;

  bool fail(uint64_t at, const std::string& what) {
    error_ = fmt::format("{}: offset {}: {}", name_, at, what);
    return false;
  }

  bool checksum_ok(uint64_t at, uint64_t disk_size) const {
    const auto block = file_.subspan(at, disk_size);
    const bool whole = block[36] & 0x01;  // WT_BLOCK_DATA_CKSUM
    const size_t n = whole ? block.size() : std::min<size_t>(kSkip, block.size());
    static constexpr uint8_t kZero[4] = {0, 0, 0, 0};
    uint32_t crc = crc32c(block.first(32));
    crc = crc32c(kZero, crc);
    crc = crc32c(block.subspan(36, n - 36), crc);
    return crc == read_le(block, 32, 4);
  }

  // Every block, live or free, found by its header and checksum at 512-byte steps.
  void scan() {
    for (uint64_t at = kUnit, dropped = 0; at + kHeaders <= file_.size();) {
      if (mapped_ && at - dropped >= (8u << 20)) {  // checked: those pages can leave memory
        mapped_->drop(file_.subspan(dropped, at - dropped));
        dropped = at;
      }
      const uint64_t disk_size = read_le(file_, at + 28, 4);
      const uint8_t type = file_[at + 24];
      if (disk_size >= kHeaders && disk_size % kUnit == 0 && disk_size <= file_.size() - at && type >= 1 && type <= 7 &&
          checksum_ok(at, disk_size)) {
        blocks_[at] = disk_size;
        at += disk_size;
      } else {
        at += kUnit;
      }
    }
  }

  Session* session(const std::string& codec) {
    auto& s = sessions_[codec];
    if (s) return s.get();
    const Codec* c = CodecRegistry::instance().find(codec);
    if (!c) return nullptr;
    auto opened = c->open(CodecParams{.level = c->info().default_level}, nullptr);
    if (!opened.ok()) return nullptr;
    s = std::move(opened.value);
    return s.get();
  }

  // The page at `at` as it is in memory: its first 64 bytes as stored, the rest decompressed.
  bool page(uint64_t at, WtPage& p) {
    const uint64_t disk_size = blocks_.at(at);
    const auto block = file_.subspan(at, disk_size);
    p.offset = at;
    p.on_disk = disk_size;
    p.write_gen = read_le(block, 8, 8);
    p.type = block[24];
    const uint64_t mem_size = read_le(block, 16, 4);
    if (mem_size < kHeaders) return fail(at, "a page with a bad in-memory size");
    if (mem_size > kMaxPage)
      return fail(
          at, fmt::format("a page declaring {} bytes in memory (a bomb: pages past 64 MiB are not read)", mem_size));
    if (!(block[25] & 0x01)) {  // WT_PAGE_COMPRESSED not set
      if (mem_size > disk_size) return fail(at, "an uncompressed page larger than its block");
      p.image.assign(block.begin(), block.begin() + static_cast<long>(mem_size));
      return true;
    }
    if (mem_size < kSkip || disk_size < kSkip + 12) return fail(at, "a compressed page too small");
    const auto rest = block.subspan(kSkip);
    std::span<const uint8_t> payload;
    // snappy and zstd: an 8-byte little-endian length (its high half zero), then the output;
    // zlib: a zlib header (CMF 0x78, the pair a multiple of 31).
    const uint64_t framed = read_le(rest, 0, 8);
    if (framed <= rest.size() - 8 && (framed >> 32) == 0 && read_le(rest, 8, 4) == 0xFD2FB528u) {
      p.codec = "zstd", payload = rest.subspan(8, framed);
    } else if (framed <= rest.size() - 8 && (framed >> 32) == 0) {
      p.codec = "snappy", payload = rest.subspan(8, framed);
    } else if (rest[0] == 0x78 && ((rest[0] << 8) | rest[1]) % 31 == 0) {
      p.codec = "zlib", payload = rest;
    } else {
      return fail(at, "a compressed page this reader does not decode (snappy, zlib and zstd are read)");
    }
    // Checked before allocating: a small block declaring a huge page is a bomb.
    if (!expansion_ok(p.codec, payload.size(), mem_size - kSkip))
      return fail(at, fmt::format("a {} page of {} bytes declaring {} bytes in memory (a bomb, or a bad size)", p.codec,
                                  payload.size(), mem_size));
    p.image.resize(mem_size);
    std::copy(block.begin(), block.begin() + kSkip, p.image.begin());
    const std::span<uint8_t> body = std::span<uint8_t>(p.image).subspan(kSkip);
    bool ok = false;
    if (p.codec == "zlib") {  // the stream ends before the block's padding
      ok = inflate_exact(payload, body, MAX_WBITS);
    } else {
      Session* s = session(p.codec);
      if (!s) return fail(at, fmt::format("no {} codec in this build for the page", p.codec));
      const CallResult r = s->decompress(payload, body);
      ok = r.ok() && r.size == body.size();
    }
    if (!ok) return fail(at, fmt::format("{} page does not decompress to its {} bytes", p.codec, mem_size));
    return true;
  }

  // An address cell's block: it must be one the scan found, of the same size and checksum.
  bool resolve(uint64_t at, std::span<const uint8_t> cookie, uint64_t& block) {
    size_t pos = 0;
    Addr a;
    if (!unpack_uint(cookie, pos, a.offset) || !unpack_uint(cookie, pos, a.size) ||
        !unpack_uint(cookie, pos, a.checksum))
      return fail(at, "a malformed address cell");
    const uint64_t unit = out_.allocation_size;
    block = (a.offset + 1) * unit;
    const auto it = blocks_.find(block);
    if (it == blocks_.end() || it->second != a.size * unit || read_le(file_, block + 32, 4) != a.checksum)
      return fail(at, fmt::format("an address cell names no valid block (offset {})", block));
    return true;
  }

  // The root: the internal page with the highest write_gen that no internal page references
  // (a tree of one leaf: that leaf).
  bool find_root(uint64_t& root) {
    std::set<uint64_t> referenced;
    std::vector<std::pair<uint64_t, uint64_t>> internal;  // write_gen, offset
    uint64_t newest_leaf = 0, newest_leaf_gen = 0;
    for (const auto& [at, size] : blocks_) {
      const uint8_t type = file_[at + 24];
      if (type == kRowLeaf && read_le(file_, at + 8, 8) >= newest_leaf_gen) {
        newest_leaf = at;
        newest_leaf_gen = read_le(file_, at + 8, 8);
      }
      if (type != kRowInternal) continue;
      WtPage p;
      if (!page(at, p)) continue;  // a free block that no longer decodes
      internal.emplace_back(p.write_gen, at);
      size_t pos = kHeaders;
      Cell c;
      while (pos < p.image.size() && next_cell(p.image, pos, c)) {
        size_t cpos = 0;
        Addr a;
        if ((c.type == kAddrInt || c.type == kAddrLeaf || c.type == kAddrLeafNo) && unpack_uint(c.data, cpos, a.offset))
          referenced.insert((a.offset + 1) * out_.allocation_size);
      }
    }
    error_.clear();
    std::sort(internal.rbegin(), internal.rend());
    for (const auto& [gen, at] : internal)
      if (!referenced.count(at)) return root = at, true;
    if (internal.empty() && newest_leaf) return root = newest_leaf, true;
    for (const auto& [at, size] : blocks_)
      if (file_[at + 24] >= 2 && file_[at + 24] <= 4) return fail(at, "a column-store file (not read)");
    return fail(0, "no live root page found");
  }

  // Each page is read once: a page named by two cells (a shared child, a cycle) is refused,
  // so a crafted tree cannot be walked exponentially or counted twice.
  bool visit(uint64_t at) {
    return visited_.insert(at).second || fail(at, "a page referenced twice (a shared child or a cycle)");
  }

  bool walk(uint64_t at, int depth) {
    if (depth > 64) return fail(at, "a tree deeper than 64 levels");
    if (max_raw_ && raw_ >= max_raw_) return out_.cut = true;  // the sample is full: stop decoding
    WtPage p;
    if (!visit(at) || !page(at, p)) return false;
    if (p.type == kRowLeaf) return leaf(std::move(p));
    if (p.type != kRowInternal) return fail(at, fmt::format("a page of type {} in the tree (a column store?)", p.type));
    ++out_.internal_pages;
    size_t pos = kHeaders;
    Cell c;
    while (pos < p.image.size()) {
      if (!next_cell(p.image, pos, c)) return fail(at, "a malformed cell in an internal page");
      if (c.type != kAddrInt && c.type != kAddrLeaf && c.type != kAddrLeafNo) continue;  // keys, deleted children
      uint64_t child = 0;
      if (!resolve(at, c.data, child) || !walk(child, depth + 1)) return false;
    }
    return true;
  }

  // An overflow item's bytes: its page's data after the headers, `entries` bytes long.
  bool overflow(uint64_t at, std::span<const uint8_t> cookie, std::string& out) {
    uint64_t block = 0;
    WtPage p;
    if (!resolve(at, cookie, block) || !visit(block) || !page(block, p)) return false;
    const uint64_t len = read_le(p.image, 20, 4);
    if (p.type != kOverflow || len > p.image.size() - kHeaders) return fail(block, "a malformed overflow page");
    out.assign(p.image.begin() + kHeaders, p.image.begin() + static_cast<long>(kHeaders + len));
    ++out_.overflow_items;
    return true;
  }

  bool leaf(WtPage p) {
    size_t pos = kHeaders;
    std::string key;
    bool have_key = false;
    Cell c;
    while (pos < p.image.size()) {
      if (!next_cell(p.image, pos, c)) return fail(p.offset, "a malformed cell in a leaf page");
      if (c.type == kKey || c.type == kKeyPfx || c.type == kKeyOvfl) {
        if (have_key) out_.records.push_back({key, ""});  // no value cell: an empty value
        if (c.type == kKeyOvfl) {
          if (!overflow(p.offset, c.data, key)) return false;
        } else {
          if (c.prefix > key.size()) return fail(p.offset, "a key prefix longer than the previous key");
          key.resize(c.prefix);
          key.append(c.data.begin(), c.data.end());
        }
        have_key = true;
      } else if (c.type == kValue || c.type == kValueOvfl) {
        if (!have_key) return fail(p.offset, "a value cell without a key");
        std::string value;
        if (c.type == kValueOvfl) {
          if (!overflow(p.offset, c.data, value)) return false;
        } else {
          value.assign(c.data.begin(), c.data.end());
        }
        raw_ += key.size() + value.size();
        out_.records.push_back({key, std::move(value)});
        have_key = false;
      } else if (c.type == kDel || c.type == kValueOvflRm || c.type == kKeyOvflRm) {
        have_key = false;  // a removed item: no record
      } else {
        return fail(p.offset, fmt::format("an unexpected cell type {:#x} in a leaf page", c.type));
      }
    }
    if (have_key) out_.records.push_back({key, ""});
    out_.leaves.push_back(std::move(p));
    return true;
  }
};

}  // namespace

uint64_t WtFile::leaf_bytes() const {
  uint64_t n = 0;
  for (const auto& p : leaves) n += p.on_disk;
  return n;
}

bool is_wt_file(std::span<const uint8_t> head8) {
  return head8.size() >= 8 && read_le(head8, 0, 4) == kDescMagic && read_le(head8, 4, 2) == 1;
}

bool parse_wt_file(std::span<const uint8_t> file, const std::string& name, WtFile& out, std::string& error,
                   uint64_t max_raw) {
  out = WtFile{};
  return WtParser(file, name, out, error, max_raw).run();
}

bool read_wt_file(const std::string& path, WtFile& out, std::string& error, uint64_t max_raw) {
  MappedFile bytes;
  if (!bytes.open(path, error)) return false;
  out = WtFile{};
  return WtParser(bytes.bytes(), path, out, error, max_raw, &bytes).run();
}

}  // namespace kvz
