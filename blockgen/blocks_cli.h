#pragma once
#include <cstddef>
#include <string>

namespace kvz {
// `kvzbench blocks -l LAYOUT -b SIZE [-d DATASET | FILE...] (--out DIR | --stats)`.
int blocks_main(int argc, char** argv);

// "4096", "4K", "4KiB", "64k", "1M", "2G" (binary multiples) -> bytes; false on junk/overflow.
// (blockgen does not link kvz_codecs, whose spec.h has its own parse_byte_size.)
bool parse_size_option(const std::string& text, size_t& bytes);
}  // namespace kvz
