#pragma once
// The measured error of the wiredtiger profile's insert-filled pages (`--profile
// wiredtiger:load=insert`, the `wiredtiger:insert` layout): predicted leaf bytes against the
// live leaf pages of tables libwiredtiger 3.2.1 filled by ordinary cursor inserts, in key order,
// then closed (tests/stores/wt_insert_test.cpp: five corpora, 512 KiB each, cache_size 64 MB).
// The layout reconciles the table as one in-memory page; WiredTiger splits it in memory once
// its footprint reaches memory_page_max (bt_handle.c: capped at eviction_dirty_trigger 20 / 1000
// of cache_size, 1.34 MB at 64 MB; the page forced out then splits, evict.c, bt_split.c
// __split_insert), and adjusts the pre-compression page size between reconciliations
// (__rec_compression_adjust): neither is modelled, hence these bounds.
#include <span>
#include <string_view>

namespace kvz {

struct WtInsertError {
  size_t leaf_page_max = 0;
  std::string_view codec;    // "snappy", "zlib": the extensions Debian ships
  double low = 0, high = 0;  // percent, (predicted - real) / real, rounded outward to 0.1
};

// One row per measured page size and codec.
std::span<const WtInsertError> wiredtiger_insert_errors();

}  // namespace kvz
