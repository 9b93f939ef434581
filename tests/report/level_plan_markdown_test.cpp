// The plans in the Markdown report (report/level_plan_markdown.cpp): with --workload's size= the
// leveled plan, with style=universal the universal one, with family= a row per family, each with
// the line that applies it.
#include <gtest/gtest.h>

#include <random>

#include <fmt/format.h>

#include "judgement/family_plan.h"
#include "report/writers.h"
#include "tests/results/fixture.h"

namespace kvz {
namespace {

RunResults markdown_rocksdb_run() {
  return testing::store_run(
      "rocksdb", {{{"lz4", 1, 2.0, 800, 4000}, "1:stream:fresh"}, {{"zstd", 3, 4.0, 200, 900}, "3"}}, 4096, 5);
}

std::string markdown(const RunResults& run, const std::string& workload) {
  Workload w;
  std::string error;
  EXPECT_TRUE(parse_workload(workload, default_devices(), w, error)) << error;
  ReportOptions opt;
  opt.workload = w;
  return markdown_summary(run, opt);
}

TEST(LevelPlanMarkdown, LeveledAndUniversalPlansCarryTheirLinesAndLevels) {
  const RunResults run = markdown_rocksdb_run();
  const std::string base = "write=2,read=50,storage=0.1,cpu=0.05,size=200G";
  const std::string leveled = markdown(run, base);
  Workload w;
  std::string error;
  ASSERT_TRUE(parse_workload(base, default_devices(), w, error));
  EXPECT_NE(leveled.find("### Per-level plan ("), std::string::npos) << leveled;
  EXPECT_NE(leveled.find("`" + level_plans(run, w).at(0).line + "`"), std::string::npos) << leveled;
  EXPECT_NE(leveled.find("| level | data GiB | share |"), std::string::npos) << leveled;
  const std::string universal = markdown(run, base + ",style=universal");
  ASSERT_TRUE(parse_workload(base + ",style=universal", default_devices(), w, error));
  EXPECT_NE(universal.find("### Universal compaction plan ("), std::string::npos) << universal;
  EXPECT_NE(universal.find("`" + universal_plans(run, w).at(0).line + "`"), std::string::npos) << universal;
  EXPECT_EQ(universal.find("### Per-level plan"), std::string::npos) << universal;
}

TEST(LevelPlanMarkdown, SaysHowBusyCompactionIsAndWarnsPastOneThread) {
  const RunResults run = markdown_rocksdb_run();
  for (const std::string write : {"2", "5000"}) {
    const std::string spec = "write=" + write + ",read=50,storage=0.1,cpu=0.05,size=200G";
    Workload w;
    std::string error;
    ASSERT_TRUE(parse_workload(spec, default_devices(), w, error));
    const double load = level_plans(run, w).at(0).compaction_load;
    const std::string text = markdown(run, spec);
    if (load <= 1)
      EXPECT_NE(text.find(fmt::format("Compaction at the workload's write rate keeps its one thread {:.0f} % busy.",
                                      load * 100)),
                std::string::npos)
          << text;
    else
      EXPECT_NE(text.find(fmt::format("**Warning:** compaction at the workload's write rate needs {:.2g} times its one "
                                      "thread",
                                      load)),
                std::string::npos)
          << text;
    EXPECT_EQ(load > 1, write == "5000") << load;
  }
}

TEST(LevelPlanMarkdown, FamiliesGetARowWithTheirPickAndLine) {
  const RunResults run = markdown_rocksdb_run();
  const std::string text =
      "storage=0.1,cpu=0.05,family=hot:write=40:read=100:size=2G,family=cold:write=0.1:read=1:size=2T";
  const std::string md = markdown(run, text);
  Workload w;
  std::string error;
  ASSERT_TRUE(parse_workload(text, default_devices(), w, error));
  EXPECT_NE(md.find("### Column family plans ("), std::string::npos) << md;
  for (const auto& p : family_plans(run, w))
    EXPECT_NE(
        md.find(fmt::format("| {} | {} | {} |", p.family.name, p.group, p.universal_wins ? "universal" : "leveled")),
        std::string::npos)
        << md;
  for (const auto& p : family_plans(run, w)) EXPECT_NE(md.find("`" + p.line() + "` |"), std::string::npos) << md;
}

TEST(LevelPlanMarkdown, NoSizeNoPlan) {
  const std::string md = markdown(markdown_rocksdb_run(), "write=2,read=50,storage=0.1,cpu=0.05");
  EXPECT_EQ(md.find("plan ("), std::string::npos) << md;
}

}  // namespace
}  // namespace kvz
