#include "bench/stats.h"

#include <algorithm>
#include <optional>
#include <span>

#include "util/stats.h"

namespace kvz {

namespace {

std::optional<double> supported_percentile(std::span<uint64_t> ticks, double q, uint64_t min_calls,
                                           double ns_per_tick) {
  if (ticks.size() < min_calls) return std::nullopt;
  return static_cast<double>(percentile_nearest_rank(ticks, q)) * ns_per_tick;
}

}  // namespace

LatencyStats summarize_latency(LatencySample& sample, double ns_per_tick,
                               const std::vector<uint64_t>& stall_thresholds_ns) {
  LatencyStats s;
  std::vector<uint64_t>& ticks = sample.ticks;
  s.calls = ticks.size();
  for (uint64_t t : stall_thresholds_ns) s.stalls[t] = s.preempted_stalls[t] = 0;
  if (ticks.empty()) return s;
  long double sum = 0;
  uint64_t worst = 0;
  for (size_t c = 0; c < ticks.size(); ++c) {
    const uint64_t t = ticks[c];
    const bool switched = c < sample.switched.size() && sample.switched[c];
    sum += t;
    worst = std::max(worst, t);
    s.preempted_calls += switched;
    const double ns = static_cast<double>(t) * ns_per_tick;
    for (auto& [threshold, count] : s.stalls) {
      const bool stalled = ns >= static_cast<double>(threshold);
      count += stalled;
      s.preempted_stalls[threshold] += stalled && switched;
    }
  }
  s.mean_ns = static_cast<double>(sum / ticks.size()) * ns_per_tick;
  s.max_ns = static_cast<double>(worst) * ns_per_tick;
  s.p50_ns = supported_percentile(ticks, 0.50, kMinCallsP50, ns_per_tick);
  s.p90_ns = supported_percentile(ticks, 0.90, kMinCallsP90, ns_per_tick);
  s.p99_ns = supported_percentile(ticks, 0.99, kMinCallsP99, ns_per_tick);
  s.p999_ns = supported_percentile(ticks, 0.999, kMinCallsP999, ns_per_tick);
  return s;
}

}  // namespace kvz
