#include "bench/stats.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

namespace kvz {

LatencyStats summarize_latency(std::span<uint64_t> ticks, double ns_per_tick,
                               const std::vector<uint64_t>& stall_thresholds_ns) {
  LatencyStats s;
  s.calls = ticks.size();
  for (uint64_t t : stall_thresholds_ns) s.stalls[t] = 0;
  if (ticks.empty()) return s;
  long double sum = 0;
  uint64_t worst = 0;
  for (uint64_t t : ticks) {
    sum += t;
    worst = std::max(worst, t);
    const double ns = static_cast<double>(t) * ns_per_tick;
    for (auto& [threshold, count] : s.stalls) count += ns >= static_cast<double>(threshold);
  }
  s.mean_ns = static_cast<double>(sum / ticks.size()) * ns_per_tick;
  s.max_ns = static_cast<double>(worst) * ns_per_tick;
  s.p50_ns = static_cast<double>(percentile_nearest_rank(ticks, 0.50)) * ns_per_tick;
  s.p90_ns = static_cast<double>(percentile_nearest_rank(ticks, 0.90)) * ns_per_tick;
  s.p99_ns = static_cast<double>(percentile_nearest_rank(ticks, 0.99)) * ns_per_tick;
  s.p999_ns = static_cast<double>(percentile_nearest_rank(ticks, 0.999)) * ns_per_tick;
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
