// How busy the machine was, judged (judgement/machine_verdict.h): quiet, busy, too busy to
// decide, on the stated thresholds, and the line that says it with the figures behind it.
#include <gtest/gtest.h>

#include "judgement/machine_verdict.h"
#include "results/results.h"
#include "tests/results/fixture.h"

namespace kvz {
namespace {

RunResults with_load(double cpu_share, double steal, double load_start) {
  RunResults r = testing::make_run(3, 3);
  r.meta.cores = 2;
  MachineLoad& l = r.meta.machine_load;
  l.recorded = true;
  l.wall_seconds = 100;
  l.process_cpu_seconds = 100 * cpu_share;
  l.threads = 1;
  l.load_avg_start[0] = load_start;
  l.load_avg_end[0] = load_start + 0.5;
  l.others_cores = 2 - cpu_share;
  l.steal_share = steal;
  for (auto& c : r.cells)
    for (auto* lat : {&c.compress_latency, &c.decompress_latency}) lat->preempted_calls = 0;
  return r;
}

TEST(MachineVerdict, QuietBusyTooBusyOnTheStatedThresholds) {
  RunResults quiet = with_load(0.97, 0.001, 0.3);
  judge_machine_load(quiet);
  EXPECT_EQ(quiet.meta.machine_load.verdict, "quiet");
  EXPECT_DOUBLE_EQ(quiet.meta.machine_load.preempted_share, 0);
  // Six CPU-bound processes beside one thread on 2 cores: it had ~2/7 of a core.
  RunResults busy = with_load(0.29, 0.001, 6.9);
  judge_machine_load(busy);
  EXPECT_EQ(busy.meta.machine_load.verdict, "busy");
  // A twentieth of a core beside 24 runnable threads is busy, not too busy: each block's fastest
  // call still stands while few calls are switched out ...
  RunResults starved = with_load(0.05, 0.001, 24.0);
  judge_machine_load(starved);
  EXPECT_EQ(starved.meta.machine_load.verdict, "busy");
  // ... and is too busy once a quarter of the timed calls are.
  RunResults too_busy = with_load(0.05, 0.001, 24.0);
  for (auto& c : too_busy.cells)
    for (auto* lat : {&c.compress_latency, &c.decompress_latency}) lat->preempted_calls = lat->calls / 3;
  judge_machine_load(too_busy);
  EXPECT_EQ(too_busy.meta.machine_load.verdict, "too busy to decide");
  RunResults stolen = with_load(0.97, 0.35, 0.3);  // the hypervisor took a third of the time
  judge_machine_load(stolen);
  EXPECT_EQ(stolen.meta.machine_load.verdict, "too busy to decide");
  // Every CPU share the run asked for, but a sixth of its timed calls were switched out: busy.
  RunResults preempted = with_load(0.95, 0.0, 1.0);
  for (auto& c : preempted.cells) c.compress_latency.preempted_calls = c.compress_latency.calls / 3;
  judge_machine_load(preempted);
  EXPECT_EQ(preempted.meta.machine_load.verdict, "busy");
  EXPECT_NEAR(preempted.meta.machine_load.preempted_share, 1.0 / 6, 0.01);
}

TEST(MachineVerdict, TheLineSaysTheVerdictAndItsFigures) {
  RunResults busy = with_load(0.29, 0.001, 6.9);
  judge_machine_load(busy);
  const std::string line = machine_verdict_line(busy.meta);
  EXPECT_EQ(line.rfind("machine: busy (", 0), 0u) << line;
  for (const char* part : {"0.29 of the 1 core it could use",
                           "load average 6.9 at the start, 7.4 at the end on 2 cores", "other processes used 1.7 cores",
                           "0.0 % of timed calls preempted", "steal 0.1 %", "CPU frequency not readable"})
    EXPECT_NE(line.find(part), std::string::npos) << part << " in " << line;
  // A file written before the record: no verdict, no line.
  RunResults old = testing::make_run(3, 3);
  judge_machine_load(old);
  EXPECT_EQ(old.meta.machine_load.verdict, "");
  EXPECT_EQ(machine_verdict_line(old.meta), "");
}

// Per cell: the share of its latency calls switched out.
TEST(MachineVerdict, PreemptedSharePerCell) {
  CellResult c = testing::make_run(3, 3).cells[1];
  c.compress_latency.calls = 1000;
  c.decompress_latency.calls = 1000;
  c.compress_latency.preempted_calls = 300;
  c.decompress_latency.preempted_calls = 100;
  EXPECT_DOUBLE_EQ(preempted_share(c), 0.2);
  c.status = CellStatus::Failed;
  EXPECT_LT(preempted_share(c), 0);
}

}  // namespace
}  // namespace kvz
