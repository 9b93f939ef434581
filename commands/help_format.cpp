#include "commands/help_format.h"

#include <algorithm>
#include <memory>

#include "util/text.h"

namespace kvz {

namespace {

// The name column: CLI11's 30, narrower on a narrow console so a description keeps 40 columns.
constexpr size_t kNameColumn = 30;

// Each of `text`'s lines filled to `width`, joined by '\n' (CLI11 indents what follows one).
std::string fill(const std::string& text, size_t width) {
  std::string out;
  for (const auto& paragraph : split(text, "\n")) {
    const auto lines = fill_lines(paragraph, width);
    for (const auto& line : lines.empty() ? std::vector<std::string>{""} : lines)
      out += (out.empty() ? "" : "\n") + line;
  }
  return out;
}

}  // namespace

FittingFormatter::FittingFormatter(size_t width) : width_(width) {
  column_width(std::min(kNameColumn, width_ > 40 ? width_ - 40 : kNameColumn));
}

std::string FittingFormatter::make_option_desc(const CLI::Option* opt) const {
  const size_t room = width_ > get_column_width() ? width_ - get_column_width() : 40;
  return fill(CLI::Formatter::make_option_desc(opt), room);
}

std::string FittingFormatter::make_description(const CLI::App* app) const {
  const std::string text = CLI::Formatter::make_description(app);  // ends in "\n"
  return text.empty() ? text : fill(text, width_) + "\n";
}

void fit_help(CLI::App& app) { app.formatter(std::make_shared<FittingFormatter>(console_columns())); }

}  // namespace kvz
