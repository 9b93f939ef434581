// The per-level plan on the console (report/level_plan_console.cpp): the line that applies it,
// a row per level with the figures behind it, and the plan against the best single codec.
#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "judgement/level_plan.h"
#include "report/console.h"
#include "tests/results/fixture.h"

namespace kvz {
namespace {

TEST(LevelPlanConsole, PrintsTheLineEachLevelAndTheSingleCodecPlan) {
  std::mt19937_64 rng(3);
  RunResults run;
  for (const auto& [fc, params] : {std::pair{testing::FixtureCodec{"lz4", 1, 2.0, 800, 4000}, "1:stream:fresh"},
                                   std::pair{testing::FixtureCodec{"zstd", 3, 4.0, 200, 900}, "3"}}) {
    CellResult c = testing::make_cell(fc, 4096, rng, 3, 0);
    c.key.profile = "rocksdb";
    c.key.params = params;
    run.cells.push_back(c);
  }
  Workload w;
  std::string error;
  ASSERT_TRUE(parse_workload("write=2,read=50,storage=0.1,cpu=0.05,size=200G", default_devices(), w, error)) << error;
  std::ostringstream out;
  print_level_plans(out, run, w);
  const std::string text = out.str();
  const LevelPlan plan = level_plans(run, w).at(0);
  EXPECT_NE(text.find("per-level plan, "), std::string::npos) << text;
  EXPECT_NE(text.find("  rocksdb: " + plan.line + "\n"), std::string::npos) << text;
  EXPECT_NE(text.find("    rocksdb: " + plan.single_line + "\n"), std::string::npos) << text;
  for (const auto& l : plan.levels)
    EXPECT_NE(text.find("  L" + std::to_string(l.share.level) + " "), std::string::npos) << text;
  EXPECT_NE(text.find("best single codec, " + plan.single_label + ":"), std::string::npos) << text;
  for (const char* column : {"data GiB", "share", "stored GiB", "writes", "c.reads", "codec", "$ storage", "$ CPU"})
    EXPECT_NE(text.find(column), std::string::npos) << column;
}

}  // namespace
}  // namespace kvz
