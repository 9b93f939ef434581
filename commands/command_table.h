#pragma once
// The subcommands, one row each: main.cpp dispatches on it and lists it in the usage, and the
// man page and shell completions (commands/cli_export.h) walk each row's CLI11 App, so what
// they document is what the command parses.
#include <span>
#include <string_view>

namespace CLI {
class App;
}  // namespace CLI

namespace kvz {

struct Command {
  const char* name;
  int (*main)(int, char**);
  const char* help;
  void (*describe)(CLI::App& app);  // the description and options the command parses with
};

// In the order the usage lists them; `run` first (what a bare `kvzbench` runs).
std::span<const Command> commands();
const Command* find_command(std::string_view name);  // null if none

}  // namespace kvz
