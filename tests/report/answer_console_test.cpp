// The console's recommendations are the answer results.json carries (judgement/answer.h): the same
// picks in the same order, each with its store's line and why; and under a ranking whose cheapest
// row the per-level plan cannot take, the line that says why they differ.
#include <gtest/gtest.h>

#include <random>
#include <sstream>
#include <vector>

#include "judgement/answer.h"
#include "report/console.h"
#include "results/results.h"
#include "tests/results/fixture.h"

namespace kvz {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

RunResults rocksdb_run(bool with_dictionary) {
  std::mt19937_64 rng(3);
  RunResults run;
  for (const auto& [fc, params] : {std::pair{testing::FixtureCodec{"lz4", 1, 2.0, 800, 4000}, "1:stream:fresh"},
                                   std::pair{testing::FixtureCodec{"zstd", 3, 4.0, 200, 900}, "3"},
                                   std::pair{testing::FixtureCodec{"zstd", 3, 5.0, 210, 950}, "3:dict=16K"}}) {
    if (!with_dictionary && std::string(params).find("dict") != std::string::npos) continue;
    CellResult c = testing::make_cell(fc, 4096, rng, 3, 0);
    c.key.profile = "rocksdb";
    c.key.params = params;
    if (std::string(params).find("dict") != std::string::npos) {
      c.key.dict_size = 16384;
      c.dict_bytes = 16384;
      c.dict_method = "file";
      c.dict_gain = 1.25;
    }
    run.cells.push_back(c);
  }
  return run;
}

TEST(AnswerConsole, TheConsolePrintsTheRecordsOfResultsJson) {
  RunResults run = rocksdb_run(true);
  add_answer(run);
  std::ostringstream out;
  print_recommendations(out, run, 1000);  // wide enough that no line wraps: each compared whole
  const auto lines = lines_of(out.str());
  size_t at = 0;
  for (const auto& rec : run.recommendations) {
    while (at < lines.size() && lines[at].rfind("  " + rec.workload + " ", 0) != 0) ++at;
    ASSERT_LT(at, lines.size()) << rec.workload << " not printed in order:\n" << out.str();
    EXPECT_NE(lines[at].find(rec.pick), std::string::npos) << lines[at];
    ASSERT_EQ(rec.config.size(), 1u);
    EXPECT_EQ(lines[at + 1], "    rocksdb: " + rec.config[0].line);
    EXPECT_EQ(lines[at + 2].rfind("    why: $", 0), 0u) << lines[at + 2];
    ++at;
  }
}

TEST(AnswerConsole, TheRankingSaysWhyThePlanDiffers) {
  const RunResults run = rocksdb_run(true);
  Workload w;
  std::string error;
  ASSERT_TRUE(parse_workload("write=2,read=50,storage=0.08,cpu=0.04,size=500G", default_devices(), w, error)) << error;
  std::ostringstream out;
  print_costs(out, run, w, default_devices());
  EXPECT_NE(out.str().find("  why the plan differs: the ranking's cheapest, zstd 3:dict=16K"), std::string::npos)
      << out.str();
  // Without the dictionary row the two agree, and nothing is said.
  std::ostringstream agree;
  print_costs(agree, rocksdb_run(false), w, default_devices());
  EXPECT_EQ(agree.str().find("why the plan differs"), std::string::npos) << agree.str();
}

}  // namespace
}  // namespace kvz
