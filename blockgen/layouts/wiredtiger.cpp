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
// (tests/stores/wt_layout_test.cpp).
#include <algorithm>
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

}  // namespace

void build_wiredtiger(const RecordSet& in, size_t leaf_page_max, BlockSet& out) {
  const size_t memory_image_max = 4 * std::max<size_t>(leaf_page_max, 4096);
  const size_t page_size = leaf_page_max >= 16 * 1024 ? memory_image_max : leaf_page_max;
  const size_t split_size = split_page_size(90, page_size);
  const size_t leaf_split = split_page_size(90, leaf_page_max);
  const size_t key_max = leaf_split / 10, value_max = leaf_split / 2;

  std::string page(kHeader, '\0');
  size_t space = split_size - kHeader;
  uint32_t records = 0;
  uint64_t page_bytes = 0;  // every page whole, headers and the 64 uncompressed bytes included
  auto flush = [&] {
    const auto* p = reinterpret_cast<const uint8_t*>(page.data());
    if (page.size() > kSkip) out.add_block({p + kSkip, page.size() - kSkip}, records);
    page_bytes += page.size();
    page.assign(kHeader, '\0');
    space = split_size - kHeader;
    records = 0;
  };
  for (const Record& r : in.records) {
    const size_t next = cell_size(r.key.size(), key_max) + (r.value.empty() ? 0 : cell_size(r.value.size(), value_max));
    if (next > space) {
      if (page.size() >= split_size / 2) flush();
      // An item larger than what is left grows the page (__rec_split_grow: to allocation units).
      if (next > space) space = (page.size() + next + kHeader + kAlloc - 1) / kAlloc * kAlloc - page.size();
    }
    append_cell(page, true, r.key, key_max);
    if (!r.value.empty()) append_cell(page, false, r.value, value_max);
    space -= next;
    ++records;
    out.composition.key_bytes += r.key.size();
    out.composition.value_bytes += r.value.size();
    ++out.composition.records;
  }
  if (records) flush();
  // Page headers, cell descriptors and lengths: everything but the keys and values.
  const uint64_t payload = out.composition.key_bytes + out.composition.value_bytes;
  out.composition.overhead_bytes = page_bytes > payload ? page_bytes - payload : 0;
}

}  // namespace kvz::layouts
