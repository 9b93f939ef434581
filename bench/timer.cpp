#include "bench/timer.h"

#include <sys/resource.h>

#include <time.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

namespace kvz {
namespace detail {
bool g_use_tsc = false;
}

namespace {

// rdtscp is only a clock when the TSC ticks at a constant rate through P- and C-states.
bool invariant_tsc_available() {
#if defined(__x86_64__)
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("flags", 0) == 0) {
      auto has = [&](const char* f) { return line.find(std::string(" ") + f) != std::string::npos; };
      return has("rdtscp") && has("constant_tsc") && has("nonstop_tsc");
    }
  }
#endif
  return false;
}

TickClockInfo calibrate() {
  TickClockInfo info;
  detail::g_use_tsc = invariant_tsc_available();
  info.name = detail::g_use_tsc ? "rdtscp" : "steady_clock";
  if (detail::g_use_tsc) {
    // Best of three 15 ms windows: a preemption inside one window only lengthens it.
    double best = 0;
    for (int i = 0; i < 3; ++i) {
      const double w0 = wall_seconds();
      const uint64_t t0 = read_ticks();
      while (wall_seconds() - w0 < 0.015) {
      }
      const uint64_t t1 = read_ticks();
      const double w1 = wall_seconds();
      const double ghz = static_cast<double>(t1 - t0) / ((w1 - w0) * 1e9);
      if (i == 0 || ghz > best) best = ghz;
    }
    info.ghz = best;
    info.ns_per_tick = 1.0 / best;
  }
  std::vector<uint64_t> pairs(2001);
  for (auto& p : pairs) {
    const uint64_t a = read_ticks();
    const uint64_t b = read_ticks();
    p = b - a;
  }
  std::nth_element(pairs.begin(), pairs.begin() + pairs.size() / 2, pairs.end());
  info.overhead_ns = static_cast<double>(pairs[pairs.size() / 2]) * info.ns_per_tick;
  return info;
}

double clock_seconds(clockid_t id) {
  timespec ts{};
  clock_gettime(id, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

}  // namespace

const TickClockInfo& tick_clock_info() {
  static const TickClockInfo info = calibrate();
  return info;
}

double process_cpu_seconds() { return clock_seconds(CLOCK_PROCESS_CPUTIME_ID); }
double wall_seconds() { return clock_seconds(CLOCK_MONOTONIC); }

uint64_t context_switches() {
  rusage u{};
  if (getrusage(RUSAGE_THREAD, &u) != 0) return 0;
  return static_cast<uint64_t>(u.ru_nivcsw) + static_cast<uint64_t>(u.ru_nvcsw);
}

}  // namespace kvz
