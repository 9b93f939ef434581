// The man page and shell completions (commands/cli_export.h): made from every command's own
// CLI11 App and the codec registry, escaped for roff and the shells; bash completes with them.
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <fstream>

#include "codecs/registry.h"
#include "commands/cli_export.h"
#include "commands/command_table.h"
#include "tests/blockgen/block_parsers.h"

namespace kvz {
namespace {

const CliOption* find_option(const CliCommand& c, const std::string& name) {
  for (const auto& o : c.options)
    if (std::find(o.names.begin(), o.names.end(), name) != o.names.end()) return &o;
  return nullptr;
}

const CliCommand& command(const CliModel& m, const std::string& name) {
  for (const auto& c : m.commands)
    if (c.name == name) return c;
  throw std::runtime_error("no command " + name);
}

TEST(CliExport, ModelHasEveryCommandAsItParses) {
  const CliModel m = describe_cli();
  ASSERT_EQ(m.commands.size(), commands().size());
  for (size_t i = 0; i < m.commands.size(); ++i) {
    EXPECT_EQ(m.commands[i].name, commands()[i].name);
    EXPECT_FALSE(m.commands[i].description.empty()) << m.commands[i].name;
    EXPECT_NE(find_option(m.commands[i], "--help"), nullptr) << m.commands[i].name;
  }
  const CliCommand& run = command(m, "run");
  const CliOption* codecs = find_option(run, "-c");
  ASSERT_NE(codecs, nullptr);
  EXPECT_EQ(codecs->names, (std::vector<std::string>{"-c", "-e", "--codecs"}));
  EXPECT_EQ(codecs->completes, "codecs");
  EXPECT_EQ(find_option(run, "--profile")->completes, "profiles");
  EXPECT_EQ(find_option(run, "--time")->completes, "");  // a number
  EXPECT_FALSE(find_option(run, "--time")->value.empty());
  EXPECT_TRUE(find_option(run, "--quiet")->value.empty());  // a flag
  EXPECT_EQ(find_option(run, "--csv")->completes, "file");
  const CliOption* files = find_option(run, "files");
  ASSERT_NE(files, nullptr);
  EXPECT_TRUE(files->positional && files->repeatable);
  EXPECT_TRUE(find_option(command(m, "check"), "--baseline")->required);
}

TEST(CliExport, CodecNamesAreTheRegistrys) {
  const CliModel m = describe_cli();
  const auto set =
      std::find_if(m.values.begin(), m.values.end(), [](const CliValues& v) { return v.name == "codecs"; });
  ASSERT_NE(set, m.values.end());
  EXPECT_EQ(set->words, CodecRegistry::instance().names());
  EXPECT_EQ(set->separators, "/+");
  ASSERT_EQ(m.codecs.size(), CodecRegistry::instance().codecs().size());
}

TEST(CliExport, ManPageHasEveryCommandAndOptionEscaped) {
  const CliModel m = describe_cli();
  const std::string page = man_page(m);
  EXPECT_EQ(page.rfind(".\\\"", 0), 0u);
  EXPECT_NE(page.find(".TH KVZBENCH 1 "), std::string::npos);
  for (const auto& c : m.commands) {
    EXPECT_NE(page.find(".SS \"kvzbench " + c.name + "\""), std::string::npos) << c.name;
    for (const auto& o : c.options) {
      if (o.positional) continue;
      std::string escaped;
      for (char ch : o.names.back()) escaped += ch == '-' ? std::string("\\-") : std::string(1, ch);
      EXPECT_NE(page.find("\\fB" + escaped + "\\fR"), std::string::npos) << c.name << " " << o.names.back();
    }
  }
  for (const auto& c : m.codecs) EXPECT_NE(page.find(".B " + c.name + "\n"), std::string::npos) << c.name;
}

TEST(CliExport, RoffAndShellsGetTextTheyCannotMisread) {
  CliModel m;
  m.version = "1.0";
  m.commands.push_back({"x", "it's x", "does x", {}});
  m.commands[0].options.push_back({{"-y", "--why"}, false, false, false, "TEXT", ".dot \\back [it]: 'q'", "", "file"});
  const std::string page = man_page(m);
  EXPECT_NE(page.find("\\&.dot \\eback [it]: 'q'"), std::string::npos) << page;
  const std::string zsh = zsh_completion(m);
  EXPECT_NE(zsh.find("'(-y --why)'{-y,--why}'[.dot \\\\back \\[it\\]\\: '\\''q'\\'']:file:_files'"), std::string::npos)
      << zsh;
  EXPECT_NE(zsh.find("'x:it'\\''s x'"), std::string::npos) << zsh;
  EXPECT_NE(bash_completion(m).find("'x -y' | 'x --why') echo file ;;"), std::string::npos);
}

// Sources the bash completion in a plain bash and completes WORDS (shell words) as readline would.
std::string complete(const std::string& file, const std::string& words) {
  const std::string cmd =
      "cd / && bash --norc --noprofile -c 'source \"$0\"; COMP_WORDS=(\"$@\"); COMP_CWORD=$(($# - 1)); _kvzbench; "
      "echo \"${COMPREPLY[*]}\"' " +
      file + " " + words;
  std::string out;
  if (FILE* p = popen(cmd.c_str(), "r")) {
    char buf[4096];
    while (size_t n = std::fread(buf, 1, sizeof buf, p)) out.append(buf, n);
    pclose(p);
  }
  return out;
}

TEST(CliExport, BashCompletesCommandsOptionsAndCodecs) {
  const std::string file = test::temp_path("kvzbench.bash");
  std::ofstream(file) << bash_completion(describe_cli());
  EXPECT_EQ(complete(file, "kvzbench ru"), "run\n");
  EXPECT_EQ(complete(file, "kvzbench run --pro"), "--profile\n");
  EXPECT_EQ(complete(file, "kvzbench run -c zs"), "zstd\n");
  EXPECT_EQ(complete(file, "kvzbench run -c lz4/zs"), "lz4/zstd\n");
  EXPECT_EQ(complete(file, "kvzbench -c zs"), "zstd\n");  // `run` implied
  EXPECT_EQ(complete(file, "kvzbench blocks -l rocks"), "rocksdb\n");
  EXPECT_EQ(complete(file, "kvzbench list --j"), "--json\n");
  EXPECT_EQ(complete(file, "kvzbench run --time ''"), "\n");  // a number: nothing to offer
}

TEST(CliExport, HiddenCommandsTakeOnlyTheirArguments) {
  EXPECT_TRUE(is_cli_export("--man"));
  EXPECT_TRUE(is_cli_export("--completions"));
  EXPECT_FALSE(is_cli_export("--help"));
  std::string fish = "fish", flag = "--completions";
  char* argv[] = {flag.data(), fish.data()};
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(cli_export_main(2, argv), 2);
  EXPECT_NE(::testing::internal::GetCapturedStderr().find("--completions bash|zsh"), std::string::npos);
}

}  // namespace
}  // namespace kvz
