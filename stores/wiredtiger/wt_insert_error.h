#pragma once
// The measured error of the wiredtiger profile's insert-filled pages (`--profile
// wiredtiger:load=insert`, the `wiredtiger:insert` layout): predicted leaf bytes against the
// live leaf pages of tables libwiredtiger 3.2.1 filled by ordinary cursor inserts, in key order,
// then closed (bench/scripts/wt_insert_band.sh over every text corpus of shared/corpora, 1 MiB
// each, wiredtiger_open's default 100 MB cache: 728 tables of 91 corpora; the tables that set each
// bound are pinned in tests/stores/wt_insert_test.cpp). The layout models the in-memory splits and each in-memory
// page's reconciliation; not the pre-compression page size __rec_compression_adjust (rec_write.c) moves by 10 % of
// leaf_page_max after each page written (at 16 KiB and up, with a compressor) and the next reconciliation starts from:
// it depends on the codec's output, which a layout (built before any codec runs) does not know. Hence these bounds: the
// errors are whole 4 KiB units (one to eight), so the smaller the table the larger a unit's share.
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
