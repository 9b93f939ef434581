// kvzbench entry: dispatches to each stage's subcommand. A bare `kvzbench` (or one whose
// first argument is an option or a corpus) is `kvzbench run`.
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <new>
#include <string>
#include <vector>

#include "blockgen/corpus.h"
#include "commands/address_layout.h"
#include "commands/cli_export.h"
#include "commands/command_table.h"
#include "commands/run.h"
#include "kvz_build_info.h"
#include "util/text.h"

namespace {

// A bare lowercase word with no '.' or '/' that names no file: what a command looks like.
bool looks_like_command(const char* arg) {
  const std::string a(arg);
  if (a.empty() || a[0] == '-' || a.find_first_of("./") != std::string::npos) return false;
  std::error_code ec;
  if (std::filesystem::exists(a, ec)) return false;
  for (char c : a)
    if (!(c >= 'a' && c <= 'z')) return false;
  std::string ignored;
  return kvz::resolve_corpus(a, ignored).empty();  // `kvzbench twitter` names a corpus
}

void usage() {
  std::printf("usage: kvzbench [COMMAND] [OPTIONS]\n\ncommands:\n");
  for (const auto& c : kvz::commands()) std::printf("  %-8s %s\n", c.name, c.help);
  std::printf("\n`kvzbench COMMAND --help` for a command's options; `kvzbench --version`.\n");
}

}  // namespace

int main(int argc, char** argv) {
  // A closed pipe (`| head`) or a file-size limit makes writes fail with an error the commands
  // report; neither may kill the process before its result files are complete.
  std::signal(SIGPIPE, SIG_IGN);
  std::signal(SIGXFSZ, SIG_IGN);
  try {
    if (argc > 1 && (!std::strcmp(argv[1], "help") || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h"))) {
      usage();
      return 0;
    }
    // The man page and completions the build installs (cmake/Install.cmake); not in the usage.
    if (argc > 1 && kvz::is_cli_export(argv[1])) return kvz::cli_export_main(argc - 1, argv + 1);
    if (argc > 1 && (!std::strcmp(argv[1], "--version") || !std::strcmp(argv[1], "version"))) {
      if (argc > 2) {  // `--version foo` is a mistake, not a version query
        std::fprintf(stderr, "kvzbench: error: %s takes no arguments, got '%s'\n", argv[1],
                     kvz::one_line(argv[2]).c_str());
        return 2;
      }
      std::printf("kvzbench %s (git %s, %s build)\n", KVZ_VERSION, KVZ_GIT_REV, KVZ_BUILD_TYPE);
      return 0;
    }
    // `run`, named or implied (any first word that is no other command): timings want the same
    // address-space layout in every run (commands/address_layout.h).
    const kvz::Command* command = argc > 1 ? kvz::find_command(argv[1]) : nullptr;
    if (!command || !std::strcmp(command->name, "run")) kvz::fix_address_layout(argv);
    if (command) return command->main(argc - 1, argv + 1);
    // A word that is neither a command nor a file nor a corpus-like name ("foo", "rn") is a
    // mistyped command, not a corpus to look for.
    if (argc > 1 && looks_like_command(argv[1])) {
      std::vector<std::string> names;
      for (const auto& c : kvz::commands()) names.emplace_back(c.name);
      const std::string hint = kvz::did_you_mean(argv[1], names);
      std::fprintf(stderr, "kvzbench: error: unknown command '%s'%s (commands: %s)\n", kvz::one_line(argv[1]).c_str(),
                   hint.empty() ? "" : (": " + hint).c_str(), kvz::join(names).c_str());
      return 2;
    }
    // No command word: everything is run's (argv[0] stands in for the command name).
    return kvz::run_main(argc, argv);
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "kvzbench: error: out of memory (lower --max-bytes or the block sizes)\n");
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kvzbench: error: %s\n", kvz::one_line(e.what()).c_str());
    return 2;
  }
}
