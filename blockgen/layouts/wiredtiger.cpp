// WiredTiger 3.2.1 row-store leaf pages as a bulk load writes them, for a table with a block
// compressor (WiredTiger's tag 3.2.1: src/reconcile/rec_row.c __wt_bulk_insert_row,
// rec_write.c __wt_rec_split_init, __wt_rec_split, __wt_split_page_size, src/btree/bt_handle.c
// __btree_page_sizes, src/include/cell.i). The block size is leaf_page_max.
//
// - A page is a 40-byte header (page header 28 + block header 12), then per record a key cell
//   and, unless the value is empty, a value cell: a descriptor byte holding the length when it
//   is at most 63 bytes, else a descriptor and the length - 64 packed (1, 2 or 1 + n bytes),
//   then the bytes. prefix_compression is off by default: keys are whole.
// - With a compressor and leaf_page_max >= 16 KiB the page may hold memory_page_image_max =
//   4 x max(leaf_page_max, internal_page_max 4 KiB) before compression; otherwise
//   leaf_page_max. A page is cut at the split size: 90 % of that (split_pct), rounded to the
//   nearest 4 KiB unit (unrounded when rounding gives the whole page), once the next key and
//   value do not fit; an item that does not fit an empty page grows it.
// - Keys over leaf_split_size / 10 and values over leaf_split_size / 2 are overflow items: a
//   cell with a block address here (8 bytes assumed), their own pages not counted.
// The block is what WiredTiger compresses: the page minus its first 64 bytes (stores/wiredtiger/wiredtiger.cpp
// adds them back). Checked page by page against tables libwiredtiger 3.2.1 bulk-loads
// (tests/stores/wt_layout_test.cpp). `insert`: a table filled by ordinary inserts, split in
// memory and reconciled page by page (InMemoryPage, finish_insert_page; within 2 % of real
// tables, tests/stores/wt_insert_test.cpp).
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "blockgen/layouts/layout_impl.h"

namespace kvz::layouts {

namespace {

constexpr size_t kAlloc = 4096, kHeader = 40, kSkip = 64, kOverflowCookie = 8;

// __wt_split_page_size with split_pct percent.
size_t split_page_size(size_t pct, size_t page) {
  const size_t a = page * pct / 100;
  const size_t nearest = (a + kAlloc / 2) / kAlloc * kAlloc;  // WT_ALIGN_NEAREST
  return nearest == 0 || nearest == page ? a : nearest;
}

// Bytes __wt_vpack_uint writes for `x`.
size_t packed_size(uint64_t x) {
  if (x < 64) return 1;
  if (x < 64 + 8192) return 2;
  x -= 64 + 8192;
  size_t n = 0;
  for (; x; x >>= 8) ++n;
  return 1 + n;
}

// A key or value cell of `size` data bytes (short, long, or an overflow address).
size_t cell_size(size_t size, size_t overflow_above) {
  if (size > overflow_above) return 1 + packed_size(kOverflowCookie) + kOverflowCookie;
  if (size <= 63) return 1 + size;
  return 1 + packed_size(size - 64) + size;
}

void append_packed(std::string& page, uint64_t x) {
  if (x < 64) {
    page.push_back(static_cast<char>(0x80 | x));
  } else if (x < 64 + 8192) {
    x -= 64;
    page.push_back(static_cast<char>(0xC0 | (x >> 8)));
    page.push_back(static_cast<char>(x & 0xFF));
  } else {
    x -= 64 + 8192;
    size_t n = 0;
    for (uint64_t t = x; t; t >>= 8) ++n;
    page.push_back(static_cast<char>(0xE0 | n));
    for (size_t i = n; i-- > 0;) page.push_back(static_cast<char>((x >> (8 * i)) & 0xFF));
  }
}

// The cell's bytes as WiredTiger writes them (an overflow item: its cell with a zero address).
void append_cell(std::string& page, bool key, const std::string& data, size_t overflow_above) {
  if (data.size() > overflow_above) {
    page.push_back(static_cast<char>(key ? 0x60 : 0xA0));  // WT_CELL_KEY_OVFL, WT_CELL_VALUE_OVFL
    append_packed(page, kOverflowCookie);
    page.append(kOverflowCookie, '\0');
    return;
  }
  if (data.size() <= 63) {
    page.push_back(static_cast<char>(data.size() << 2 | (key ? 0x01 : 0x03)));
  } else {
    page.push_back(static_cast<char>(key ? 0x50 : 0x80));  // WT_CELL_KEY, WT_CELL_VALUE
    append_packed(page, data.size() - 64);
  }
  page.append(data);
}

// One page being built (a reconciliation chunk): its image, and where the 50 % boundary fell.
struct Chunk {
  std::string image = std::string(kHeader, '\0');
  size_t min_offset = 0;  // the image size when the next item crossed min_split_size (0: not yet)
  uint32_t records = 0;
  uint32_t min_records = 0;  // records before min_offset
};

// The page sizes reconciliation works with (__wt_rec_split_init).
struct PageSizes {
  size_t page = 0;       // r->page_size: the largest image before compression
  size_t split = 0;      // split_pct 90 % of it
  size_t min_split = 0;  // WT_BTREE_MIN_SPLIT_PCT 50 % of it
};

// __rec_split_finish_process_prev, for a page reconciled from memory (not a bulk load): the last
// two chunks are one page when they fit `page`; else a last chunk under min_split takes what the
// one before holds past its 50 % boundary.
void finish_insert_page(std::vector<Chunk>& chunks, size_t first, const PageSizes& sizes) {
  if (chunks.size() < first + 2) return;
  Chunk& prev = chunks[chunks.size() - 2];
  Chunk& last = chunks.back();
  if (prev.image.size() + last.image.size() - kHeader <= sizes.page) {
    prev.image.append(last.image, kHeader);
    prev.records += last.records;
    chunks.pop_back();
  } else if (prev.min_offset != 0 && last.image.size() < sizes.min_split) {
    last.image.insert(kHeader, prev.image, prev.min_offset);
    last.records += prev.records - prev.min_records;
    prev.image.resize(prev.min_offset);
    prev.records = prev.min_records;
  }
}

// The footprint of the in-memory leaf page inserts go to (row_modify.c, btmem.h, 3.2.1 tag): a
// record adds its WT_INSERT (16 bytes, 8 per skip-list level, the key) and its WT_UPDATE
// (WT_UPDATE_MEMSIZE: 38 bytes and the value, aligned to 32). The levels come from the session's
// random numbers (support/rand.c: a multiply-with-carry generator, seeded with fixed values in
// every new session; btree.i __wt_skip_choose_depth: one more level while a draw is below 2^30,
// up to 10). Once the footprint reaches splitmempage (80 % of memory_page_max, bt_handle.c:
// memory_page_max 5 MB capped at 20/1000 of cache_size: 1,677,721 B with wiredtiger_open's
// default 100 MB cache), the page splits in memory (bt_split.c __split_insert): the last record
// opens a new page and the rest is reconciled as a page of its own. kPageBase stands for the
// page's own structures (WT_PAGE, its modify structure, insert heads): an estimate, fitted to
// the tables in tests/stores/wt_insert_test.cpp (anything from about 200 to 900 gives the same pages).
class InMemoryPage {
 public:
  // Adds `r`; true when it went to a new page, the split having closed the one before.
  bool add(const Record& r) {
    const uint64_t item = 16 + 8 * skip_depth() + r.key.size() + (38 + r.value.size() + 31) / 32 * 32;
    footprint_ += item;
    if (footprint_ < kSplitFootprint) return false;
    footprint_ = kPageBase + item;
    return true;
  }

 private:
  static constexpr uint64_t kSplitFootprint = 8 * 2097152 / 10, kPageBase = 500;
  uint64_t footprint_ = kPageBase;
  uint32_t w_ = 521288629, z_ = 362436069;

  uint32_t next_random() {
    z_ = 36969 * (z_ & 65535) + (z_ >> 16);
    w_ = 18000 * (w_ & 65535) + (w_ >> 16);
    return (z_ << 16) + (w_ & 65535);
  }
  unsigned skip_depth() {
    unsigned depth = 1;
    while (depth < 10 && next_random() < (UINT32_MAX >> 2)) ++depth;
    return depth;
  }
};

}  // namespace

void build_wiredtiger(const RecordSet& in, size_t leaf_page_max, bool insert, BlockSet& out) {
  const size_t memory_image_max = 4 * std::max<size_t>(leaf_page_max, 4096);
  PageSizes sizes;
  sizes.page = leaf_page_max >= 16 * 1024 ? memory_image_max : leaf_page_max;
  sizes.split = split_page_size(90, sizes.page);
  sizes.min_split = split_page_size(50, sizes.page);
  const size_t leaf_split = split_page_size(90, leaf_page_max);
  const size_t key_max = leaf_split / 10, value_max = leaf_split / 2;

  std::vector<Chunk> chunks(1);
  size_t space = sizes.split - kHeader, min_space = sizes.min_split - kHeader;
  InMemoryPage memory;
  size_t first = 0;  // the first chunk of the in-memory page being reconciled
  for (const Record& r : in.records) {
    const size_t next = cell_size(r.key.size(), key_max) + (r.value.empty() ? 0 : cell_size(r.value.size(), value_max));
    if (insert && memory.add(r) && chunks.back().records) {  // the record opens the split's new page
      finish_insert_page(chunks, first, sizes);
      chunks.emplace_back();
      first = chunks.size() - 1;
      space = sizes.split - kHeader, min_space = sizes.min_split - kHeader;
    }
    Chunk* cur = &chunks.back();
    const bool crossing_min = cur->min_offset == 0 && next > min_space;
    if (crossing_min && next <= space) {  // __wt_rec_split_crossing_bnd: remember the 50 % boundary
      if (cur->records) cur->min_offset = cur->image.size(), cur->min_records = cur->records;
    } else if (next > space) {  // __wt_rec_split
      if (cur->image.size() >= sizes.split / 2) {
        chunks.emplace_back();
        cur = &chunks.back();
        space = sizes.split - kHeader, min_space = sizes.min_split - kHeader;
      }
      // An item larger than what is left grows the page (__rec_split_grow: to allocation units).
      const size_t used = cur->image.size();
      if (next > space) space = (used + next + kHeader + kAlloc - 1) / kAlloc * kAlloc - used;
    }
    append_cell(cur->image, true, r.key, key_max);
    if (!r.value.empty()) append_cell(cur->image, false, r.value, value_max);
    space -= next;
    if (cur->min_offset == 0) min_space = min_space >= next ? min_space - next : 0;
    ++cur->records;
    out.composition.key_bytes += r.key.size();
    out.composition.value_bytes += r.value.size();
    ++out.composition.records;
  }
  if (insert) finish_insert_page(chunks, first, sizes);
  uint64_t page_bytes = 0;  // every page whole, headers and the 64 uncompressed bytes included
  for (const Chunk& c : chunks) {
    if (!c.records) continue;
    const auto* p = reinterpret_cast<const uint8_t*>(c.image.data());
    if (c.image.size() > kSkip) out.add_block({p + kSkip, c.image.size() - kSkip}, c.records);
    page_bytes += c.image.size();
  }
  // Page headers, cell descriptors and lengths: everything but the keys and values.
  const uint64_t payload = out.composition.key_bytes + out.composition.value_bytes;
  out.composition.overhead_bytes = page_bytes > payload ? page_bytes - payload : 0;
}

}  // namespace kvz::layouts
