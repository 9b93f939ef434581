// The machine's load around a run (bench/machine_load.h): /proc/stat and /proc/loadavg read, the
// span between two samples computed, a missing file or cpufreq said as "not readable" (-1).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "bench/machine_load.h"

namespace kvz {
namespace {

TEST(MachineLoad, ProcStatCpuLine) {
  double busy = 0, total = 0, steal = 0;
  ASSERT_TRUE(
      parse_proc_stat_cpu("cpu  100 10 20 500 5 1 2 30 0 0\ncpu0 50 5 10 250 2 0 1 15 0 0\n", busy, total, steal));
  EXPECT_DOUBLE_EQ(busy, 100 + 10 + 20 + 1 + 2);  // user nice system irq softirq
  EXPECT_DOUBLE_EQ(total, busy + 500 + 5 + 30);   // and idle, iowait, steal
  EXPECT_DOUBLE_EQ(steal, 30);
  EXPECT_FALSE(parse_proc_stat_cpu("intr 1 2 3\n", busy, total, steal));
  double avg[3] = {-1, -1, -1};
  ASSERT_TRUE(parse_loadavg("6.91 3.02 1.10 8/301 4242\n", avg));
  EXPECT_DOUBLE_EQ(avg[0], 6.91);
  EXPECT_DOUBLE_EQ(avg[2], 1.10);
  EXPECT_FALSE(parse_loadavg("garbage", avg));
}

// Two samples 10 s apart on 2 CPUs at 100 ticks/s: this process used 3 s of CPU, the machine 15 s
// busy in all, so the others used 12 s: 1.2 cores; 40 of 2,000 ticks were stolen.
TEST(MachineLoad, TheSpanBetweenTwoSamples) {
  LoadSample a, b;
  a.wall = 100;
  b.wall = 110;
  a.process_cpu = 1;
  b.process_cpu = 4;
  a.load_avg[0] = 2.5;
  b.load_avg[0] = 7.0;
  a.stat_read = b.stat_read = true;
  a.busy_ticks = 1000;
  b.busy_ticks = 2500;
  a.total_ticks = 10000;
  b.total_ticks = 12000;
  a.steal_ticks = 10;
  b.steal_ticks = 50;
  b.mhz = {2100, 2400};
  const MachineLoad l = machine_load_between(a, b, 1, 100);
  EXPECT_TRUE(l.recorded);
  EXPECT_DOUBLE_EQ(l.wall_seconds, 10);
  EXPECT_DOUBLE_EQ(l.process_cpu_seconds, 3);
  EXPECT_DOUBLE_EQ(l.others_cores, 1.2);
  EXPECT_DOUBLE_EQ(l.steal_share, 0.02);
  EXPECT_DOUBLE_EQ(l.load_avg_start[0], 2.5);
  EXPECT_DOUBLE_EQ(l.load_avg_end[0], 7.0);
  EXPECT_DOUBLE_EQ(l.cpu_mhz_min, 2100);
  EXPECT_DOUBLE_EQ(l.cpu_mhz_max, 2400);
  // /proc/stat unread: no others, no steal; no cpufreq: no frequency. Each is "not readable".
  a.stat_read = false;
  b.mhz.clear();
  const MachineLoad none = machine_load_between(a, b, 1, 100);
  EXPECT_LT(none.others_cores, 0);
  EXPECT_LT(none.steal_share, 0);
  EXPECT_LT(none.cpu_mhz_min, 0);
}

// A fake /proc and /sys: what the sampler reads, and a cpufreq it does not find.
TEST(MachineLoad, SampleReadsProcAndSys) {
  namespace fs = std::filesystem;
  const fs::path root = fs::path(::testing::TempDir()) / "kvz_machine_load";
  fs::remove_all(root);
  fs::create_directories(root / "proc");
  fs::create_directories(root / "sys/devices/system/cpu/cpu0/cpufreq");
  std::ofstream(root / "proc/loadavg") << "1.50 1.00 0.50 2/100 7\n";
  std::ofstream(root / "proc/stat") << "cpu  10 0 5 100 0 0 0 2 0 0\n";
  std::ofstream(root / "sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq") << "2400000\n";
  const LoadSample s = sample_machine_load((root / "proc").string(), (root / "sys").string());
  EXPECT_DOUBLE_EQ(s.load_avg[0], 1.5);
  EXPECT_TRUE(s.stat_read);
  EXPECT_DOUBLE_EQ(s.busy_ticks, 15);
  EXPECT_DOUBLE_EQ(s.steal_ticks, 2);
  ASSERT_FALSE(s.mhz.empty());
  EXPECT_DOUBLE_EQ(s.mhz[0], 2400);
  const LoadSample missing = sample_machine_load((root / "absent").string(), (root / "absent").string());
  EXPECT_LT(missing.load_avg[0], 0);
  EXPECT_FALSE(missing.stat_read);
  EXPECT_TRUE(missing.mhz.empty());
  fs::remove_all(root);
}

}  // namespace
}  // namespace kvz
