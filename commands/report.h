#pragma once
namespace CLI {
class App;
}  // namespace CLI

namespace kvz {
// `kvzbench report RESULTS.json... -o report.html [--md F] [--csv F]`
int report_main(int argc, char** argv);
// `kvzbench check --baseline BASE.json CURRENT.json`: exit 0 pass, 1 fail, 2 unusable input.
int check_main(int argc, char** argv);
// `kvzbench merge A.json B.json -o all.json`
int merge_main(int argc, char** argv);
// Fill `app` as each command does to parse (commands/command_table.h).
void describe_report(CLI::App& app);
void describe_check(CLI::App& app);
void describe_merge(CLI::App& app);
}  // namespace kvz
