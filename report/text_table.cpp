#include "report/text_table.h"

#include <algorithm>
#include <numeric>

#include "util/text.h"

namespace kvz {

namespace {

// The columns shown: every one, less the droppable ones (lowest `drop` first) until a row of
// the widest cells fits `width`.
std::vector<size_t> shown_columns(const std::vector<TextColumn>& columns, const std::vector<size_t>& widths,
                                  size_t indent, size_t width) {
  std::vector<size_t> shown(columns.size());
  std::iota(shown.begin(), shown.end(), 0);
  auto total = [&] {
    size_t n = indent;
    for (size_t c : shown) n += widths[c] + 1;
    return n - 1;
  };
  while (total() > width) {
    auto next = std::min_element(shown.begin(), shown.end(), [&](size_t a, size_t b) {
      const int da = columns[a].drop ? columns[a].drop : 1 << 30, db = columns[b].drop ? columns[b].drop : 1 << 30;
      return da < db;
    });
    if (next == shown.end() || !columns[*next].drop) break;
    shown.erase(next);
  }
  return shown;
}

std::string padded(const std::string& text, size_t width, bool left) {
  const std::string pad(width - std::min(width, display_width(text)), ' ');
  return left ? text + pad : pad + text;
}

}  // namespace

void print_text_table(std::ostream& out, std::string_view indent, const std::vector<TextColumn>& columns,
                      const std::vector<TextRow>& rows, size_t width) {
  std::vector<size_t> widths(columns.size());
  for (size_t c = 0; c < columns.size(); ++c) {
    widths[c] = display_width(columns[c].title);
    for (const auto& r : rows) widths[c] = std::max(widths[c], display_width(r.cells.at(c)));
  }
  const std::vector<size_t> shown = shown_columns(columns, widths, indent.size(), width);
  auto line = [&](auto&& text_of) {
    std::string s(indent);
    for (size_t i = 0; i < shown.size(); ++i) {
      const size_t c = shown[i];
      const bool last = i + 1 == shown.size();
      if (i) s += ' ';
      s += last && columns[c].left ? text_of(c) : padded(text_of(c), widths[c], columns[c].left);
    }
    return s + "\n";
  };
  out << line([&](size_t c) { return columns[c].title; });
  for (const auto& r : rows) {
    out << line([&](size_t c) { return r.cells[c]; });
    for (const auto& note : r.notes) out << wrap_words(std::string(indent) + " ", note, width) << "\n";
  }
  std::vector<std::string> left_out;
  for (size_t c = 0; c < columns.size(); ++c)
    if (std::find(shown.begin(), shown.end(), c) == shown.end()) left_out.push_back(columns[c].title);
  if (!left_out.empty()) out << left_out_text(indent, left_out, width) << "\n";
}

std::string left_out_text(std::string_view indent, const std::vector<std::string>& titles, size_t width) {
  return wrap_words(std::string(indent) + "(left out at " + std::to_string(width) + " columns:",
                    join(titles, ", ") + "; results.md has them)", width);
}

}  // namespace kvz
