#include "judgement/machine_verdict.h"

#include <algorithm>

#include <fmt/format.h>

#include "results/results.h"

namespace kvz {

namespace {

std::string load_text(const double (&avg)[3]) { return avg[0] < 0 ? "?" : fmt::format("{:.1f}", avg[0]); }

std::string percent(double share) {
  return share < 0 ? "not readable" : fmt::format("{:.{}f} %", share * 100, share < 0.1 ? 1 : 0);
}

// The figures behind the verdict, in the order they matter.
std::string figures_text(const RunMeta& m, double share) {
  const MachineLoad& l = m.machine_load;
  const int usable = std::max(1, std::min(l.threads, m.cores > 0 ? m.cores : l.threads));
  std::string s = fmt::format(
      "this run had {:.2f} of the {} core{} it could use; load average {} at the start, {} "
      "at the end on {} cores",
      share, usable, usable == 1 ? "" : "s", load_text(l.load_avg_start), load_text(l.load_avg_end), m.cores);
  if (l.others_cores >= 0) s += fmt::format("; other processes used {:.1f} cores", l.others_cores);
  if (l.preempted_share >= 0) s += "; " + percent(l.preempted_share) + " of timed calls preempted";
  s += "; steal " + percent(l.steal_share);
  s += l.cpu_mhz_min < 0 ? std::string("; CPU frequency not readable")
                         : fmt::format("; CPU {:.0f}–{:.0f} MHz", l.cpu_mhz_min, l.cpu_mhz_max);
  return s;
}

}  // namespace

double preempted_share(const CellResult& c) {
  const uint64_t calls = c.compress_latency.calls + c.decompress_latency.calls;
  if (c.status != CellStatus::Ok || calls == 0) return -1;
  return static_cast<double>(c.compress_latency.preempted_calls + c.decompress_latency.preempted_calls) /
         static_cast<double>(calls);
}

double preempted_share(const RunResults& r) {
  uint64_t calls = 0, preempted = 0;
  for (const auto& c : r.cells) {
    if (c.status != CellStatus::Ok) continue;
    calls += c.compress_latency.calls + c.decompress_latency.calls;
    preempted += c.compress_latency.preempted_calls + c.decompress_latency.preempted_calls;
  }
  return calls ? static_cast<double>(preempted) / static_cast<double>(calls) : -1;
}

double cpu_share(const RunMeta& m) {
  const MachineLoad& l = m.machine_load;
  if (!l.recorded || l.wall_seconds <= 0) return -1;
  const int usable = std::max(1, std::min(l.threads, m.cores > 0 ? m.cores : l.threads));
  return l.process_cpu_seconds / (l.wall_seconds * usable);
}

void judge_machine_load(RunResults& r, const LoadThresholds& t) {
  MachineLoad& l = r.meta.machine_load;
  if (!l.recorded) return;
  l.preempted_share = preempted_share(r);
  const double share = cpu_share(r.meta);
  const double steal = std::max(0.0, l.steal_share);
  const double preempted = std::max(0.0, l.preempted_share);
  if (preempted >= t.decide_max_preempted || steal >= t.decide_max_steal) {
    l.verdict = kTooBusy;
  } else if (share >= t.quiet_min_cpu_share && preempted <= t.quiet_max_preempted && steal <= t.quiet_max_steal) {
    l.verdict = kQuiet;
  } else {
    l.verdict = kBusy;
  }
  l.verdict_text = figures_text(r.meta, std::max(0.0, share));
}

std::string machine_verdict_line(const RunMeta& m) {
  const MachineLoad& l = m.machine_load;
  if (l.verdict.empty()) return "";
  const char* consequence = l.verdict == kQuiet  ? "the figures are the codecs'"
                            : l.verdict == kBusy ? "picks made on each block's fastest call, which load barely moves"
                                                 : "the picks below are not an answer: run again on a quieter machine";
  return fmt::format("machine: {} ({}): {}", l.verdict, consequence, l.verdict_text);
}

}  // namespace kvz
