#pragma once
// The man page and the bash and zsh completions, made from the program itself: each
// subcommand's CLI11 App (commands/command_table.h), the codec registry and the name tables
// the options accept. The build writes them with the hidden `kvzbench --man` and
// `kvzbench --completions bash|zsh` (cmake/Install.cmake), so they cannot drift from the CLI.
#include <string>
#include <string_view>
#include <vector>

namespace kvz {

struct CliOption {
  std::vector<std::string> names;  // "-c", "-e", "--codecs"; a positional's one name ("files")
  bool positional = false;
  bool repeatable = false;  // takes several values or may be given again
  bool required = false;
  std::string value;  // what it takes, as its help names it ("TEXT", "FLOAT"); "" for a flag
  std::string help;
  std::string default_value;
  std::string completes;  // a CliValues name, "file", or "" (no value, or a number)
};

struct CliCommand {
  std::string name, summary, description;
  std::vector<CliOption> options;  // in the order the command's help lists them
};

// Names an option accepts; a list continues after any of `separators` ("lz4/zs", "rocksdb,hb").
struct CliValues {
  std::string name;
  std::string separators;
  std::vector<std::string> words;
};

struct CliCodec {
  std::string name, library, levels;
  bool dictionary = false;
};

struct CliModel {
  std::string version;
  std::vector<CliCommand> commands;
  std::vector<CliValues> values;
  std::vector<CliCodec> codecs;
};

// Every subcommand as it parses, the codecs this build has and the names options accept.
CliModel describe_cli();

// One writer per format (commands/cli_man.cpp, cli_bash.cpp, cli_zsh.cpp).
std::string man_page(const CliModel& model);
std::string bash_completion(const CliModel& model);
std::string zsh_completion(const CliModel& model);

// The hidden generator commands: `--man`, `--completions bash|zsh` (argv[0] is the flag).
bool is_cli_export(std::string_view arg);
int cli_export_main(int argc, char** argv);

}  // namespace kvz
