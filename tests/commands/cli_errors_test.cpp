// Errors that help (commands/cli_errors.h): an unknown option gets the closest ones its command
// has; lzbench's and `zstd -b`'s flags get kvzbench's; what kvzbench itself accepts is never
// taken for theirs. Each on the real App a command parses with (commands/command_table.h).
#include "commands/cli_errors.h"

#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "commands/command_table.h"

namespace kvz {
namespace {

bool starts(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }

// The App `name` parses with.
void describe(const char* name, CLI::App& app) { find_command(name)->describe(app); }

std::string theirs(const char* command, std::vector<const char*> args) {
  CLI::App app;
  describe(command, app);
  args.insert(args.begin(), command);
  return foreign_flag_error(app, static_cast<int>(args.size()), args.data());
}

// The message for parsing `args` with `command`'s App, "" when they parse.
std::string parse_message(const char* command, std::vector<const char*> args) {
  CLI::App app;
  describe(command, app);
  args.insert(args.begin(), command);
  try {
    app.parse(static_cast<int>(args.size()), args.data());
  } catch (const CLI::ParseError& e) {
    return parse_error_line(app, e);
  }
  return "";
}

TEST(CliErrors, AnUnknownOptionNamesTheClosest) {
  EXPECT_EQ(parse_message("run", {"--repetiton", "3"}),
            "unknown option '--repetiton': did you mean '--repetitions'? (`kvzbench run --help` lists them)");
  EXPECT_EQ(parse_message("run", {"--repetiton=3"}),
            "unknown option '--repetiton': did you mean '--repetitions'? (`kvzbench run --help` lists them)");
  EXPECT_EQ(parse_message("check", {"--baselin", "a.json", "b.json"}),
            "unknown option '--baselin': did you mean '--baseline'? (`kvzbench check --help` lists them)");
  EXPECT_EQ(parse_message("blocks", {"--stat"}),
            "unknown option '--stat': did you mean '--stats'? (`kvzbench blocks --help` lists them)");
  EXPECT_EQ(parse_message("run", {"--frobnicate"}), "unknown option '--frobnicate' (`kvzbench run --help` lists them)");
  // Not an unknown option: CLI11's own line.
  EXPECT_NE(parse_message("run", {"--repetitions"}).find("--repetitions"), std::string::npos);
  EXPECT_EQ(parse_message("run", {"--repetitions", "3", "file.txt"}), "");
}

// Issue 35: a one-value option given twice was "--block-size: At Most 1 required but received 2".
TEST(CliErrors, AnOptionGivenTwiceSaysWhichAndItsValues) {
  EXPECT_EQ(parse_message("run", {"-b", "4K", "-b", "16K"}), "-b,--block-size given twice ('4K', '16K'): give it once");
  EXPECT_EQ(parse_message("run", {"--profile", "rocksdb", "--profile=leveldb", "--profile", "hbase"}),
            "--profile given 3 times ('rocksdb', 'leveldb', 'hbase'): give it once");
  EXPECT_EQ(parse_message("merge", {"-o", "a.json", "-o", "b.json", "x.json"}),
            "-o,--output given twice ('a.json', 'b.json'): give it once");
  EXPECT_EQ(parse_message("run", {"-q", "-q", "f"}), "");  // a flag twice is still the flag
}

TEST(CliErrors, LzbenchAndZstdFlagsGetKvzbenchs) {
  EXPECT_EQ(theirs("run", {"-b16", "f"}),
            "-b16: kvzbench's block sizes are 1K..1M (a bare number is bytes): lzbench's -b16 is 16 KB blocks, "
            "kvzbench's -b 16K; zstd's -b16 benchmarks level 16, kvzbench's -c zstd:16");
  EXPECT_PRED2(starts, theirs("run", {"-b", "16"}), "-b 16: kvzbench's block sizes are 1K..1M");
  // Past zstd's levels only lzbench's meaning; 0 and 2M are no one's: kvzbench's own error says why.
  EXPECT_EQ(theirs("run", {"-b512"}),
            "-b512: kvzbench's block sizes are 1K..1M (a bare number is bytes): lzbench's -b512 is 512 KB blocks, "
            "kvzbench's -b 512K");
  EXPECT_EQ(theirs("run", {"-b", "0"}), "");
  EXPECT_EQ(theirs("run", {"-b", "2000000"}), "");
  EXPECT_EQ(theirs("run", {"-b1e19"}), "-b1e19: zstd's -b#e# benchmarks levels 1..19: kvzbench's -c zstd:1..19");
  EXPECT_EQ(theirs("run", {"-e19"}),
            "-e19: zstd's -e19 benchmarks levels up to 19: kvzbench's -c zstd:1..19 (-e here is lzbench's codec list, "
            "e.g. -e zstd,1,3/lz4)");
  EXPECT_PRED2(starts, theirs("run", {"-c4"}),
               "-c4: lzbench's -c4 sorts by compressed size: kvzbench's --sort ratio; ");
  EXPECT_PRED2(starts, theirs("run", {"-c2"}), "-c2: lzbench's -c2 sorts by compression time: kvzbench's --sort c");
  EXPECT_PRED2(starts, theirs("run", {"-i3,5"}),
               "-i3,5: lzbench's -iX,Y sets the minimum iterations: kvzbench's --repetitions N; z");
  EXPECT_PRED2(starts, theirs("run", {"-i", "3"}), "-i 3:");
  EXPECT_NE(theirs("run", {"-t0,0"}).find("kvzbench's --time S"), std::string::npos);
  EXPECT_NE(theirs("run", {"-B64K"}).find("kvzbench's -b SIZE"), std::string::npos);
  EXPECT_NE(theirs("run", {"-j", "a.txt"}).find("-j: lzbench's -j joins files"), std::string::npos);
  EXPECT_EQ(theirs("run", {"-o4"}), "-o4: lzbench's -o4 is CSV: kvzbench's -o csv (or --csv FILE)");
  EXPECT_PRED2(starts, theirs("run", {"-o1c4"}), "-o1c4: lzbench's -o# is a format number ");
  EXPECT_NE(theirs("run", {"-m100"}).find("kvzbench's --max-bytes SIZE"), std::string::npos);
  EXPECT_EQ(theirs("run", {"-V"}), "-V: lzbench's -V: kvzbench --version");
  EXPECT_NE(theirs("blocks", {"-b", "64", "--stats"}).find("lzbench's -b64 is 64 KB blocks"), std::string::npos);
}

TEST(CliErrors, WhatKvzbenchAcceptsIsNeverTheirs) {
  for (const auto& args : std::vector<std::vector<const char*>>{
           {"-b", "4096"},      // bytes: 4 KiB, kvzbench's own
           {"-b4K,16K"},        // sizes with units
           {"-e", "zstd,1,3"},  // lzbench's -e is kvzbench's too
           {"-ezstd"},
           {"-c", "lz4/zstd:1"},
           {"-T4"},  // threads, as lzbench's -T
           {"-o", "json"},
           {"-r", "kv"},
           {"-q"},
           {"--", "-i3"},  // a file named -i3
           {"-d", "dbbench", "--time", "5"},
       }) {
    EXPECT_EQ(theirs("run", args), "") << args.front();
  }
  // A letter a command has for itself is its own: check has no -b, -i or -t of lzbench's meaning.
  EXPECT_EQ(theirs("report", {"-o", "r.html"}), "");
}

}  // namespace
}  // namespace kvz
