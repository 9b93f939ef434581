#pragma once
#include <cstddef>
#include <string>

namespace CLI {
class App;
}  // namespace CLI

namespace kvz {
// `kvzbench blocks -l LAYOUT -b SIZE [-d DATASET | FILE...] (--out DIR | --stats)`.
int blocks_main(int argc, char** argv);
// Fills `app` as `blocks` does to parse (commands/command_table.h).
void describe_blocks(CLI::App& app);
}  // namespace kvz
