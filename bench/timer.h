#pragma once
// Clocks for the measurement engine. Throughput passes read steady_clock and CPU time only
// at pass edges (Google Benchmark does that for us); latency passes read a cycle counter
// around every call: rdtscp on x86_64 with an invariant TSC, steady_clock otherwise.
#include <chrono>
#include <cstdint>
#include <string>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace kvz {

struct TickClockInfo {
  std::string name;          // "rdtscp" or "steady_clock"
  double ns_per_tick = 1.0;  // calibrated against steady_clock
  double ghz = 0;            // tick frequency for rdtscp, 0 for steady_clock
  double overhead_ns = 0;    // median cost of one back-to-back timestamp pair
};

namespace detail {
extern bool g_use_tsc;  // decided once by tick_clock_info(); read on the hot path
}

// One timestamp for the latency pass. rdtscp waits for earlier instructions to retire,
// so the call being timed cannot leak past it.
inline uint64_t read_ticks() noexcept {
#if defined(__x86_64__)
  if (detail::g_use_tsc) {
    unsigned aux;
    return __rdtscp(&aux);
  }
#endif
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
          .count());
}

// Calibrates on first use (about 50 ms), then returns the cached figures.
const TickClockInfo& tick_clock_info();

double process_cpu_seconds();
double wall_seconds();  // steady_clock, seconds since an arbitrary epoch
// Context switches of the calling thread so far, voluntary and involuntary (getrusage
// RUSAGE_THREAD). About 1 µs per call on a VM: read between timed calls, never inside one.
uint64_t context_switches();

}  // namespace kvz
