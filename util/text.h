#pragma once
// Text helpers every stage uses for option values and names.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kvz {

// Split at any of `separators`, keeping empty pieces ("a,,b" -> "a", "", "b"; "" -> one "").
std::vector<std::string_view> split(std::string_view text, std::string_view separators);
// A comma list as the CLI takes it: pieces trimmed, empty ones dropped ("4K, 64K," -> 4K, 64K).
std::vector<std::string> split_list(std::string_view text, char separator = ',');
std::string_view trim(std::string_view text);
std::string to_lower(std::string_view text);
// `text` made safe for a one-line message: control characters (a newline in a file name)
// become escapes like "\\n" and "\\x01".
std::string one_line(std::string_view text);
std::string join(const std::vector<std::string>& items, std::string_view separator = ", ");
// Whole-string integer parses: false on empty input, trailing bytes or overflow.
bool parse_int(std::string_view text, int& out);
bool parse_u64(std::string_view text, uint64_t& out);
// A finite double, the whole string ("1e3" yes, "nan", "inf", "1x" no).
bool parse_double(std::string_view text, double& out);

}  // namespace kvz
