// The per-level plan on the console (report/level_plan_console.cpp): the line that applies it,
// a row per level with the figures behind it, and the plan against the best single codec.
#include <gtest/gtest.h>

#include <random>
#include <regex>
#include <sstream>

#include <fmt/format.h>

#include "judgement/family_plan.h"
#include "report/console.h"
#include "tests/results/fixture.h"
#include "util/text.h"

namespace kvz {
namespace {

RunResults rocksdb_run() {
  return testing::store_run(
      "rocksdb", {{{"lz4", 1, 2.0, 800, 4000}, "1:stream:fresh"}, {{"zstd", 3, 4.0, 200, 900}, "3"}}, 4096, 3);
}

// The console's text with the lines wrap_words continued (a break and four spaces) joined again.
std::string joined(const std::string& text) { return std::regex_replace(text, std::regex("\n    (?=\\S)"), " "); }

// Every line within 100 columns, counted in code points.
void expect_fits(const std::string& text) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) EXPECT_LE(display_width(line), 100u) << line;
}

Workload parsed(const std::string& text) {
  Workload w;
  std::string error;
  EXPECT_TRUE(parse_workload(text, default_devices(), w, error)) << error;
  return w;
}

// A run with level cuts says which levels were priced on their own blocks; one without says nothing.
TEST(LevelPlanConsole, SaysWhichLevelsWerePricedOnTheirOwnBlocks) {
  const Workload w = parsed("write=2,read=50,storage=0.1,cpu=0.05,size=200G");
  RunResults run = rocksdb_run();
  std::ostringstream whole;
  print_level_plans(whole, run, w);
  EXPECT_EQ(whole.str().find("priced on the blocks"), std::string::npos) << whole.str();
  const std::vector<CellResult> cells = run.cells;
  for (const auto& c : cells) {
    CellResult cut = c;
    cut.key.layout = "rocksdb@L4";
    run.cells.push_back(cut);
  }
  std::ostringstream out;
  print_level_plans(out, run, w);
  const std::string text = joined(out.str());
  EXPECT_NE(text.find("L4 priced on the blocks each holds when the load ends (rocksdb@L<k>); L0, L1, L2, L3 on the "
                      "whole set's"),
            std::string::npos)
      << text;
}

TEST(LevelPlanConsole, PrintsTheLineEachLevelAndTheSingleCodecPlan) {
  const RunResults run = rocksdb_run();
  Workload w;
  std::string error;
  ASSERT_TRUE(parse_workload("write=2,read=50,storage=0.1,cpu=0.05,size=200G", default_devices(), w, error)) << error;
  std::ostringstream out;
  print_level_plans(out, run, w);
  const std::string raw = out.str();
  expect_fits(raw);
  const std::string text = joined(raw);
  const LevelPlan plan = level_plans(run, w).at(0);
  EXPECT_NE(text.find("per-level plan, "), std::string::npos) << text;
  // The lines wrapped between their options (report/console_answer.cpp wrap_config_line).
  EXPECT_NE(raw.find(wrap_config_line("  rocksdb: ", plan.line, 100) + "\n"), std::string::npos) << raw;
  EXPECT_NE(raw.find(wrap_config_line("    rocksdb: ", plan.single_line, 100) + "\n"), std::string::npos) << raw;
  for (const auto& l : plan.levels)
    EXPECT_NE(text.find("  L" + std::to_string(l.share.level) + " "), std::string::npos) << text;
  EXPECT_NE(text.find("best single codec, " + plan.single_label + ":"), std::string::npos) << text;
  for (const char* column : {"data GiB", "share", "stored GiB", "writes", "c.reads", "codec", "$ storage", "$ CPU"})
    EXPECT_NE(text.find(column), std::string::npos) << column;
}

// How busy the plan keeps RocksDB's one compaction thread at the write rate; past its whole time, a
// warning that the DB will not hold the levels printed.
TEST(LevelPlanConsole, SaysHowBusyCompactionIsAndWarnsPastOneThread) {
  const RunResults run = rocksdb_run();
  for (const std::string write : {"2", "5000"}) {
    const Workload w = parsed("write=" + write + ",read=50,storage=0.1,cpu=0.05,size=200G");
    const LevelPlan plan = level_plans(run, w).at(0);
    std::ostringstream out;
    print_level_plans(out, run, w);
    expect_fits(out.str());
    const std::string text = joined(out.str());
    if (write == "2") {
      ASSERT_LE(plan.compaction_load, 1);
      EXPECT_NE(text.find(fmt::format("compaction at 2 MB/s written keeps its one thread {:.0f} % busy",
                                      plan.compaction_load * 100)),
                std::string::npos)
          << text;
      EXPECT_EQ(text.find("WARNING"), std::string::npos) << text;
    } else {
      ASSERT_GT(plan.compaction_load, 1);
      EXPECT_NE(text.find(fmt::format("WARNING: compaction at 5000 MB/s written needs {:.2g} times its one thread: "
                                      "RocksDB falls behind",
                                      plan.compaction_load)),
                std::string::npos)
          << text;
    }
  }
}

TEST(LevelPlanConsole, UniversalPrintsItsLineRunsAmplificationAndEachLevel) {
  const RunResults run = rocksdb_run();
  const Workload w = parsed("write=2,read=50,storage=0.1,cpu=0.05,size=200G,style=universal");
  std::ostringstream out;
  print_level_plans(out, run, w);
  const std::string raw = out.str();
  expect_fits(raw);
  const std::string text = joined(raw);
  const UniversalPlan plan = universal_plans(run, w).at(0);
  EXPECT_EQ(text.find("per-level plan, "), std::string::npos) << text;  // universal instead of leveled
  EXPECT_NE(text.find("universal plan, " + plan.group + " (" + universal_text(plan.lsm, plan.options)),
            std::string::npos)
      << text;
  // The lines wrapped between their options (report/console_answer.cpp wrap_config_line).
  EXPECT_NE(raw.find(wrap_config_line("  rocksdb: ", plan.line, 100) + "\n"), std::string::npos) << raw;
  EXPECT_NE(raw.find(wrap_config_line("    rocksdb: ", plan.single_line, 100) + "\n"), std::string::npos) << raw;
  // Paced at 2 MB/s: the replays' mean per level, and how long the load takes.
  EXPECT_NE(text.find("  sorted runs by level, newest first (stored GiB, the mean of the replays and their range): L"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find(fmt::format("the load takes {:.3g} s at the write rate", plan.shape.load_seconds)),
            std::string::npos)
      << text;
  EXPECT_NE(text.find(fmt::format("write amplification {:.2f} per byte ingested", plan.shape.write_amplification())),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("size amplification"), std::string::npos) << text;
  for (const auto& l : plan.levels)
    EXPECT_NE(text.find("  L" + std::to_string(l.share.level) + " "), std::string::npos) << text;
}

TEST(LevelPlanConsole, FamiliesPrintTheirPickBothStylesAndALineNamingTheFamily) {
  const RunResults run = rocksdb_run();
  const Workload w =
      parsed("storage=0.1,cpu=0.05,family=hot:write=40:read=100:size=2G,family=cold:write=0.1:read=1:size=2T");
  std::ostringstream out;
  print_level_plans(out, run, w);
  const std::string raw = out.str();
  expect_fits(raw);
  const std::string text = joined(raw);
  const auto plans = family_plans(run, w);
  ASSERT_EQ(plans.size(), 2u);
  EXPECT_NE(text.find("column family plans, "), std::string::npos) << text;
  for (const auto& p : plans) {
    EXPECT_NE(text.find(fmt::format("  {} (", p.family.name)), std::string::npos) << text;
    EXPECT_NE(text.find(fmt::format("): {}, ${:.2f}/month", p.universal_wins ? "universal" : "leveled", p.total_usd())),
              std::string::npos)
        << text;
    EXPECT_NE(raw.find(wrap_config_line(fmt::format("    rocksdb [CFOptions \"{}\"]: ", p.family.name), p.line(), 100) +
                       "\n"),
              std::string::npos)
        << raw;
  }
  EXPECT_NE(raw.find("\n    leveled   $"), std::string::npos) << raw;
  EXPECT_NE(raw.find("\n    universal $"), std::string::npos) << raw;
}

}  // namespace
}  // namespace kvz
