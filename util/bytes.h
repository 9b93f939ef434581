#pragma once
// Byte sizes as the CLI and every report write them: "4096", "4K", "64KiB", "1M".
#include <cstddef>
#include <string>
#include <string_view>

namespace kvz {

// Parse "4096", "4K", "4KiB", "64kb", "1M", "2G" (binary units, case-insensitive, surrounding
// blanks allowed). False on 0, a sign, a fraction, an unknown unit or overflow.
bool parse_byte_size(std::string_view text, size_t& out);
// The shortest form parse_byte_size reads back: 4096 -> "4K", 1 << 20 -> "1M", 1000 -> "1000".
std::string format_byte_size(size_t n);

}  // namespace kvz
