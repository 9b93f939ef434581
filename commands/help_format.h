#pragma once
// `--help` within the console's width (util/text.h console_columns): CLI11 2.1 (Debian's) pads
// the option names to a column and prints each description on one line, however long.
#include <CLI/CLI.hpp>

#include <cstddef>
#include <string>

namespace kvz {

// CLI11's formatter with each description filled into the room the name column leaves, its own
// line breaks kept, and the command's description filled to the width.
class FittingFormatter : public CLI::Formatter {
 public:
  explicit FittingFormatter(size_t width);
  std::string make_option_desc(const CLI::Option* opt) const override;
  std::string make_description(const CLI::App* app) const override;

 private:
  size_t width_;
};

// Gives `app` a FittingFormatter for the console's width.
void fit_help(CLI::App& app);

}  // namespace kvz
