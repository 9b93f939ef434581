#include "commands/command_table.h"

#include "commands/blocks.h"
#include "commands/list.h"
#include "commands/report.h"
#include "commands/run.h"

namespace kvz {

namespace {

constexpr Command kCommands[] = {
    {"run", run_main, "run the benchmark matrix (default)", describe_run},
    {"list", list_main, "list codecs, levels, library versions", describe_list},
    {"blocks", blocks_main, "build blocks: --stats or --out DIR", describe_blocks},
    {"report", report_main, "write HTML/Markdown/CSV from result files", describe_report},
    {"check", check_main, "check a run against a baseline", describe_check},
    {"merge", merge_main, "merge result files", describe_merge},
};

}  // namespace

std::span<const Command> commands() { return kCommands; }

const Command* find_command(std::string_view name) {
  for (const auto& c : kCommands)
    if (name == c.name) return &c;
  return nullptr;
}

}  // namespace kvz
