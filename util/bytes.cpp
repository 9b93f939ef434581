#include "util/bytes.h"

#include <fmt/format.h>
#include <cctype>
#include <charconv>
#include <cstdint>

#include "util/text.h"

namespace kvz {

bool parse_byte_size(std::string_view text, size_t& out) {
  const std::string_view s = trim(text);
  size_t digits = 0;
  while (digits < s.size() && std::isdigit(static_cast<unsigned char>(s[digits]))) ++digits;
  if (digits == 0) return false;
  uint64_t value = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + digits, value);
  if (ec != std::errc() || p != s.data() + digits) return false;
  const std::string unit = to_lower(s.substr(digits));
  uint64_t mul = 0;
  if (unit.empty() || unit == "b")
    mul = 1;
  else if (unit == "k" || unit == "kb" || unit == "kib")
    mul = uint64_t{1} << 10;
  else if (unit == "m" || unit == "mb" || unit == "mib")
    mul = uint64_t{1} << 20;
  else if (unit == "g" || unit == "gb" || unit == "gib")
    mul = uint64_t{1} << 30;
  else
    return false;
  uint64_t bytes = 0;
  if (value == 0 || __builtin_mul_overflow(value, mul, &bytes) || bytes > SIZE_MAX) return false;
  out = static_cast<size_t>(bytes);
  return true;
}

std::string format_byte_size(size_t n) {
  if (n != 0 && n % (size_t{1} << 30) == 0) return fmt::format("{}G", n >> 30);
  if (n != 0 && n % (size_t{1} << 20) == 0) return fmt::format("{}M", n >> 20);
  if (n != 0 && n % (size_t{1} << 10) == 0) return fmt::format("{}K", n >> 10);
  return std::to_string(n);
}

}  // namespace kvz
