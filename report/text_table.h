#pragma once
// A console table that fits the width it is given: each column as wide as its widest cell, and
// where a row would still pass the width, the columns marked droppable leave, the first to go
// first, and one line names them. The store table and the plans' level rows print with it.
#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace kvz {

struct TextColumn {
  std::string title;
  bool left = false;  // left-aligned (names); numbers align right
  int drop = 0;       // 0: always shown; else leaves, lowest first, when the width cannot hold it
};

struct TextRow {
  std::vector<std::string> cells;  // one per column
  std::vector<std::string> notes;  // lines under the row, wrapped, indented two more
};

// "(left out at 80 columns: stall blk, p99.9 µs c/d (n); results.md has them)", wrapped.
std::string left_out_text(std::string_view indent, const std::vector<std::string>& titles, size_t width);

// The header, then each row and its notes, every line starting with `indent`.
void print_text_table(std::ostream& out, std::string_view indent, const std::vector<TextColumn>& columns,
                      const std::vector<TextRow>& rows, size_t width);

}  // namespace kvz
