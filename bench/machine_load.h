#pragma once
// How busy the machine is while a run measures (results/run_meta.h MachineLoad): load averages,
// the CPU time the rest of the machine used and the steal the hypervisor took (/proc/stat deltas),
// the CPU frequency where the kernel shows it (cpufreq), sampled at the start and end of the
// measuring, never inside it. Judged by judgement/machine_verdict.h.
#include <string>
#include <vector>

#include "results/run_meta.h"

namespace kvz {

struct LoadSample {
  double wall = 0, process_cpu = 0;  // seconds (bench/timer.h clocks)
  double load_avg[3] = {-1, -1, -1};
  bool stat_read = false;                                   // the aggregate "cpu" line of /proc/stat was read
  double busy_ticks = 0, total_ticks = 0, steal_ticks = 0;  // USER_HZ ticks over every CPU
  std::vector<double> mhz;                                  // per CPU, where cpufreq shows it
};

LoadSample sample_machine_load(const std::string& proc = "/proc", const std::string& sys = "/sys");
// The span between two samples, for a run of `threads` worker threads; /proc/stat counts
// `ticks_per_second` (USER_HZ, sysconf(_SC_CLK_TCK)).
MachineLoad machine_load_between(const LoadSample& start, const LoadSample& end, int threads, double ticks_per_second);
MachineLoad machine_load_between(const LoadSample& start, const LoadSample& end, int threads);

// The "cpu" line of /proc/stat: busy (user, nice, system, irq, softirq; guest time is in user),
// all (every field up to steal) and steal ticks. False when the line is not there.
bool parse_proc_stat_cpu(const std::string& text, double& busy, double& total, double& steal);
// "0.52 0.58 0.59 1/467 12345": the three load averages. False on garbage.
bool parse_loadavg(const std::string& text, double (&avg)[3]);

}  // namespace kvz
