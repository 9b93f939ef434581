#pragma once
// How busy the machine was, judged (results/run_meta.h MachineLoad holds the figures bench
// recorded): quiet, busy, or too busy to decide, on stated thresholds, with the one line every
// output prints above the answer (judgement/README.md "How busy the machine was").
#include <string>

#include "results/results_fwd.h"

namespace kvz {

struct LoadThresholds {
  // Quiet: the run had at least this share of the CPU its threads could use, and ...
  double quiet_min_cpu_share = 0.85;
  // ... at most this share of its timed calls were switched out, and at most this much steal.
  double quiet_max_preempted = 0.05;
  double quiet_max_steal = 0.05;
  // Too busy to decide: this share of the timed calls switched out (then a block's three or
  // more calls are all preempted often enough to move its fastest call, the figure the picks
  // stand on), or this much steal. A small CPU share alone is not: the picks held 15 of 15 with
  // a run that had 0.03 of a core beside 24 runnable threads (judgement/README.md).
  double decide_max_preempted = 0.25;
  double decide_max_steal = 0.30;
};

inline constexpr const char* kQuiet = "quiet";
inline constexpr const char* kBusy = "busy";
inline constexpr const char* kTooBusy = "too busy to decide";

// The share of a cell's latency calls (both directions) during which its thread was switched
// out; -1 when it made none.
double preempted_share(const CellResult& c);
// The same over every OK cell of the run.
double preempted_share(const RunResults& r);
// The CPU the run had, over what its threads could use (min(threads, cores)); -1 when unknown.
double cpu_share(const RunMeta& m);

// Fills meta.machine_load's preempted share, verdict and line from the cells and the recorded
// figures. A run without a record (an older file) gets none: verdict "".
void judge_machine_load(RunResults& r, const LoadThresholds& t = {});
// "machine: busy — ..." (the verdict line), "" when the run has no verdict.
std::string machine_verdict_line(const RunMeta& m);

}  // namespace kvz
