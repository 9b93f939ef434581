#pragma once
// The one list of cell columns that the console table, CSV, Markdown and the HTML cell table
// all read: a new column is one row in report/columns.cpp.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "results/cell_view.h"

namespace kvz {

// kConsole: the console's wide table (`run --wide`); kCompact: its default, within 100 columns.
enum ColumnOutput : unsigned { kCsv = 1, kMarkdown = 2, kHtml = 4, kConsole = 8, kCompact = 16 };

struct Column {
  const char* id;     // CSV header and HTML key (stable: CSV readers depend on it)
  const char* title;  // header in the console, Markdown and HTML
  unsigned outputs;   // which of kCsv | kMarkdown | kHtml | kConsole show it
  int console_width;  // right-aligned width in the console table
  // The value: a number, a string, or null when the cell has none (a FAILED cell's speeds).
  nlohmann::json (*value)(const CellView&);
  // How a number reads in the console, Markdown and HTML: digits after the point.
  int digits = 1;
  // The CSV text when it is not the value printed with six significant digits.
  std::string (*csv)(const CellView&) = nullptr;
  bool byte_size = false;  // a size in bytes: "4K" in the human outputs
};

const std::vector<Column>& cell_columns();
std::vector<const Column*> columns_for(ColumnOutput output);

// The column's text in CSV (exact) and in the human outputs (rounded to its digits).
std::string csv_text(const Column& column, const CellView& view);
// The CSV's header line and a cell's line (each ending in a newline) of `columns`.
std::string csv_header(const std::vector<const Column*>& columns);
std::string csv_row(const std::vector<const Column*>& columns, const CellView& view);
std::string display_text(const Column& column, const CellView& view);

}  // namespace kvz
