#pragma once
namespace CLI {
class App;
}  // namespace CLI

namespace kvz {
// `kvzbench run [options] [CORPUS...]`, also what a bare `kvzbench` runs.
int run_main(int argc, char** argv);
// Fills `app` as `run` does to parse (commands/command_table.h).
void describe_run(CLI::App& app);
}  // namespace kvz
