// kvzbench entry: dispatches to each stage's subcommand. A bare `kvzbench` (or one whose
// first argument is an option or a corpus) is `kvzbench run`.
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include "commands/blocks.h"
#include "commands/list.h"
#include "commands/report.h"
#include "commands/run.h"

namespace {

struct Command {
  const char* name;
  int (*main)(int, char**);
  const char* help;
};

constexpr Command kCommands[] = {
    {"run", kvz::run_main, "run the benchmark matrix (default)"},
    {"list", kvz::list_main, "list codecs, levels, library versions"},
    {"blocks", kvz::blocks_main, "build blocks: --stats or --out DIR"},
    {"report", kvz::report_main, "write HTML/Markdown/CSV from result files"},
    {"check", kvz::check_main, "check a run against a baseline"},
    {"merge", kvz::merge_main, "merge result files"},
};

void usage() {
  std::printf("usage: kvzbench [COMMAND] [OPTIONS]\n\ncommands:\n");
  for (const auto& c : kCommands) std::printf("  %-8s %s\n", c.name, c.help);
  std::printf("\n`kvzbench COMMAND --help` for a command's options.\n");
}

}  // namespace

int main(int argc, char** argv) {
  try {
    if (argc > 1 && (!std::strcmp(argv[1], "help") || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h"))) {
      usage();
      return 0;
    }
    if (argc > 1) {
      for (const auto& c : kCommands) {
        if (!std::strcmp(argv[1], c.name)) return c.main(argc - 1, argv + 1);
      }
    }
    // No command word: everything is run's (argv[0] stands in for the command name).
    return kvz::run_main(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kvzbench: error: %s\n", e.what());
    return 2;
  }
}
