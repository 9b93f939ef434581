#pragma once
namespace CLI {
class App;
}  // namespace CLI

namespace kvz {
// `kvzbench list [--json]`: every codec, level range, runtime version, dictionary support.
int list_main(int argc, char** argv);
// Fills `app` as `list` does to parse (commands/command_table.h).
void describe_list(CLI::App& app);
}  // namespace kvz
