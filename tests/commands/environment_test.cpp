// The man page's environment lists (commands/environment.h) against what reads the variables:
// every variable `--shard auto` asks any scheduler's environment for and every getenv in
// kvzbench's sources is listed, and every listed one is read; the launchers' list is exactly
// the variables deploy/slurm's scripts use (Slurm's own SLURM_* aside); the man page has them all.
#include "commands/environment.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "commands/cli_export.h"
#include "commands/shard_env.h"

namespace kvz {
namespace {

namespace fs = std::filesystem;

std::set<std::string> listed(std::span<const EnvVariable> vars) {
  std::set<std::string> names;
  for (const auto& v : vars) names.emplace(v.name);
  return names;
}

// What shard_from_environment asks for, in no scheduler's environment and in each scheduler's.
std::set<std::string> names_shard_auto_asks_for() {
  const std::vector<std::map<std::string, std::string>> environments = {
      {},
      {{"SLURM_ARRAY_TASK_ID", "1"},
       {"SLURM_ARRAY_TASK_COUNT", "2"},
       {"SLURM_ARRAY_TASK_MIN", "0"},
       {"SLURM_ARRAY_TASK_MAX", "1"},
       {"SLURM_ARRAY_TASK_STEP", "1"}},
      {{"SLURM_STEP_ID", "0"}, {"SLURM_PROCID", "1"}, {"SLURM_NTASKS", "2"}},
      {{"JOB_COMPLETION_INDEX", "1"}, {"KVZ_SHARD_COUNT", "2"}},
  };
  std::set<std::string> asked;
  for (const auto& vars : environments) {
    ShardAssignment shard;
    std::string error;
    shard_from_environment(
        [&](const char* name) -> const char* {
          asked.emplace(name);
          const auto it = vars.find(name);
          return it == vars.end() ? nullptr : it->second.c_str();
        },
        shard, error);
  }
  return asked;
}

std::string file_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// getenv("NAME"), and getenv(kName) where the same file says kName = "NAME", in the program's sources.
std::set<std::string> names_the_sources_getenv() {
  const std::regex literal(R"re(getenv\(\s*"([A-Z][A-Z0-9_]*)"\s*\))re");
  const std::regex by_constant(R"re(getenv\(\s*(k\w+)\s*\))re");
  std::set<std::string> names;
  for (const char* dir :
       {"util", "codecs", "blockgen", "stores", "results", "bench", "judgement", "report", "commands"}) {
    for (const auto& e : fs::recursive_directory_iterator(fs::path(KVZ_SOURCE_DIR) / dir)) {
      if (e.path().extension() != ".cpp" && e.path().extension() != ".h") continue;
      const std::string text = file_text(e.path());
      for (std::sregex_iterator m(text.begin(), text.end(), literal), end; m != end; ++m) names.insert((*m)[1]);
      for (std::sregex_iterator m(text.begin(), text.end(), by_constant), end; m != end; ++m) {
        const std::regex definition((*m)[1].str() + R"re(\s*=\s*"([A-Z][A-Z0-9_]*)")re");
        std::smatch def;
        // The constant may live in the file's header (blockgen/corpus.h: kCorporaEnv).
        fs::path header = e.path();
        const std::string both = text + file_text(header.replace_extension(".h"));
        EXPECT_TRUE(std::regex_search(both, def, definition)) << e.path() << ": getenv(" << (*m)[1] << ")";
        if (!def.empty()) names.insert(def[1]);
      }
    }
  }
  return names;
}

TEST(Environment, EveryVariableTheProgramReadsIsListedAndEveryListedOneIsRead) {
  const std::set<std::string> program = listed(program_environment());
  const std::set<std::string> asked = names_shard_auto_asks_for(), read = names_the_sources_getenv();
  EXPECT_TRUE(asked.count("SLURM_ARRAY_TASK_ID") && asked.count("KVZ_SHARD_COUNT")) << asked.size();
  EXPECT_TRUE(read.count("KVZ_NODE_NAME") && read.count("KVZ_CORPORA")) << read.size();
  for (const auto& name : asked) EXPECT_TRUE(program.count(name)) << "--shard auto reads " << name << ", not listed";
  for (const auto& name : read) EXPECT_TRUE(program.count(name)) << "the sources getenv " << name << ", not listed";
  for (const auto& name : program)
    EXPECT_TRUE(asked.count(name) || read.count(name)) << name << " is listed, never read";
}

TEST(Environment, TheLaunchersListIsWhatDeploySlurmReads) {
  const std::regex variable(R"re(\$\{?([A-Z][A-Z0-9_]*))re");
  std::set<std::string> used;
  for (const auto& e : fs::directory_iterator(fs::path(KVZ_SOURCE_DIR) / "deploy" / "slurm")) {
    const std::string text = file_text(e.path());
    for (std::sregex_iterator m(text.begin(), text.end(), variable), end; m != end; ++m)
      if ((*m)[1].str().rfind("SLURM_", 0) != 0) used.insert((*m)[1]);  // Slurm sets its own
  }
  EXPECT_EQ(used, listed(launcher_environment()));
}

TEST(Environment, TheManPageListsEveryVariable) {
  const std::string page = man_page(describe_cli());
  const size_t section = page.find(".SH ENVIRONMENT\n");
  ASSERT_NE(section, std::string::npos);
  const size_t next = page.find(".SH ", section + 1);
  for (const auto& vars : {program_environment(), launcher_environment()}) {
    for (const auto& v : vars) {
      const size_t at = page.find(".B " + std::string(v.name) + "\n", section);
      EXPECT_LT(at, next) << v.name << " is not in the man page's ENVIRONMENT";
    }
  }
}

}  // namespace
}  // namespace kvz
