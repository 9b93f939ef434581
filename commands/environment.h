#pragma once
// The environment variables kvzbench reads, and those the Slurm launchers in deploy/slurm read,
// each with what it does. The man page's ENVIRONMENT section is written from these lists
// (cli_man.cpp); tests/commands/environment_test.cpp holds them to the code that reads them
// (every getenv and every variable `--shard auto` asks for) and tests/install/check_install.sh
// to the launchers' scripts.
#include <span>
#include <string_view>

namespace kvz {

struct EnvVariable {
  std::string_view name;
  std::string_view meaning;
};

// What kvzbench reads: corpora, console width, address layout, the node's name, and the
// schedulers' variables `--shard auto` takes its shard from (commands/shard_env.h).
std::span<const EnvVariable> program_environment();

// What the launchers in deploy/slurm read (installed in share/kvzbench/deploy/slurm).
std::span<const EnvVariable> launcher_environment();

}  // namespace kvz
