#pragma once
// Mode options (`--cache stream`, `--sort ratio`, `-o csv`): each is one row of {the option as
// errors name it, its accepted values, the enum each value parses to}. The value is parsed
// once, into the enum; the error message and the help's list are made from the same row, so
// the accepted values are written once.
#include <fmt/format.h>

#include <span>
#include <string>
#include <string_view>
#include <utility>

namespace kvz {

// One accepted value: its name on the command line and the enum it stands for.
template <class E>
using OptionValue = std::pair<std::string_view, E>;

template <class E>
struct OptionRow {
  std::string_view option;                 // "--cache", "-o/--format"
  std::span<const OptionValue<E>> values;  // in the order errors and help list them
};

// The accepted names: "stream, hot or cold" (or "stream | hot | cold" with separator " | ").
template <class E>
std::string accepted_values(const OptionRow<E>& row, std::string_view separator = ", ",
                            std::string_view last = " or ") {
  std::string s;
  for (size_t i = 0; i < row.values.size(); ++i)
    s += std::string(i == 0 ? "" : i + 1 == row.values.size() ? last : separator) + std::string(row.values[i].first);
  return s;
}

// The enum `text` names; false with "invalid --cache 'warm': expected stream, hot or cold".
template <class E>
bool parse_option(const OptionRow<E>& row, std::string_view text, E& out, std::string& error) {
  for (const auto& [name, value] : row.values) {
    if (name != text) continue;
    out = value;
    return true;
  }
  error = fmt::format("invalid {} '{}': expected {}", row.option, text, accepted_values(row));
  return false;
}

// The name `value` has on the command line ("" for a value the row does not list).
template <class E>
std::string_view option_name(const OptionRow<E>& row, E value) {
  for (const auto& [name, v] : row.values)
    if (v == value) return name;
  return "";
}

}  // namespace kvz
