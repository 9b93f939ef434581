#include "bench/stats.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>
#include <random>

namespace kvz {

namespace {

std::optional<double> supported_percentile(std::span<uint64_t> ticks, double q, uint64_t min_calls,
                                           double ns_per_tick) {
  if (ticks.size() < min_calls) return std::nullopt;
  return static_cast<double>(percentile_nearest_rank(ticks, q)) * ns_per_tick;
}

}  // namespace

IntrinsicCost intrinsic_cost(const BlockTimes& times, double ns_per_tick, const std::vector<uint64_t>& thresholds) {
  IntrinsicCost out;
  const size_t blocks = times.fastest.size();
  out.blocks = blocks;
  out.calls_per_block = blocks ? *std::min_element(times.calls.begin(), times.calls.end()) : 0;
  for (uint64_t t : thresholds) out.stall_blocks[t] = 0;
  if (out.calls_per_block == 0) return out;  // some block was never timed: no intrinsic figure
  const auto worst = std::max_element(times.fastest.begin(), times.fastest.end());
  out.worst_block = static_cast<uint64_t>(worst - times.fastest.begin());
  out.worst_block_ns = static_cast<double>(*worst) * ns_per_tick;
  for (uint64_t t : times.fastest)
    for (auto& [threshold, count] : out.stall_blocks)
      count += static_cast<double>(t) * ns_per_tick >= static_cast<double>(threshold);
  std::vector<uint64_t> fastest = times.fastest;
  out.median_block_ns = static_cast<double>(percentile_nearest_rank(fastest, 0.50)) * ns_per_tick;
  return out;
}

BlockTimes block_times(const LatencySample& sample) {
  BlockTimes times(sample.blocks);
  if (sample.earlier.size() == sample.blocks)
    for (size_t b = 0; b < sample.blocks; ++b) times.add(b, sample.earlier[b]);
  for (size_t c = 0; c < sample.ticks.size(); ++c) times.add(sample.block[c], sample.ticks[c]);
  return times;
}

LatencyStats summarize_latency(LatencySample& sample, double ns_per_tick,
                               const std::vector<uint64_t>& stall_thresholds_ns) {
  LatencyStats s;
  std::vector<uint64_t>& ticks = sample.ticks;
  s.calls = ticks.size();
  for (uint64_t t : stall_thresholds_ns) s.stalls[t] = s.preempted_stalls[t] = 0;
  s.intrinsic = intrinsic_cost(block_times(sample), ns_per_tick, stall_thresholds_ns);
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

bool keep_raw(size_t raw_size, size_t compressed_size, double min_saving) {
  const auto must_save = static_cast<size_t>(static_cast<double>(raw_size) * min_saving);
  return !(compressed_size < raw_size - std::min(must_save, raw_size));
}

bool split_train_test(size_t block_count, double train_fraction, uint64_t seed, BlockSplit& out) {
  out = {};
  if (block_count < 2) return false;
  // zstd's trainer wants several samples (fastCover keeps 75 % and needs 5): take at least
  // 8 when that still leaves half the blocks to measure.
  auto n_train = static_cast<size_t>(static_cast<double>(block_count) * train_fraction);
  n_train = std::max(n_train, std::min<size_t>(8, block_count / 2));
  n_train = std::clamp<size_t>(n_train, 1, block_count - 1);
  std::vector<size_t> order(block_count);
  std::iota(order.begin(), order.end(), size_t{0});
  std::mt19937_64 rng(seed);
  std::shuffle(order.begin(), order.end(), rng);
  out.train.assign(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(n_train));
  out.test.assign(order.begin() + static_cast<std::ptrdiff_t>(n_train), order.end());
  std::sort(out.train.begin(), out.train.end());
  std::sort(out.test.begin(), out.test.end());
  return true;
}

}  // namespace kvz
