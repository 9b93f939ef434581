#pragma once
// Lookups over blockgen's name tables (layouts, datasets, record modes): one row per name,
// the table drives parsing, --help, `list` and errors.
#include <string>
#include <string_view>
#include <vector>

#include "util/text.h"

namespace kvz {

// The row named `name`, or null.
template <class Row>
const Row* find_row(const std::vector<Row>& table, std::string_view name) {
  for (const auto& row : table)
    if (name == row.name) return &row;
  return nullptr;
}

// The rows' names, in table order.
template <class Row>
std::vector<std::string> row_names(const std::vector<Row>& table) {
  std::vector<std::string> names;
  for (const auto& row : table) names.emplace_back(row.name);
  return names;
}

// The one-line error for a name not in a table: "unknown layout 'sst': expected one of raw, ...",
// or for a typo "unknown dataset 'timeserie': did you mean 'timeseries'? (expected one of ...)".
inline std::string unknown_name_error(std::string_view kind, std::string_view name,
                                      const std::vector<std::string>& names) {
  const std::string known = join(names);
  const std::string head = "unknown " + std::string(kind) + " '" + std::string(name) + "': ";
  const std::string hint = did_you_mean(name, names);
  return hint.empty() ? head + "expected one of " + known : head + hint + " (expected one of " + known + ")";
}

}  // namespace kvz
