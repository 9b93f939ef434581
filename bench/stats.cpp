#include "bench/stats.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

namespace kvz {

uint64_t percentile_nearest_rank(std::span<uint64_t> values, double p) {
  if (values.empty()) return 0;
  const double n = static_cast<double>(values.size());
  size_t rank = static_cast<size_t>(std::ceil(std::clamp(p, 0.0, 1.0) * n));
  rank = std::clamp<size_t>(rank, 1, values.size());
  auto nth = values.begin() + static_cast<std::ptrdiff_t>(rank - 1);
  std::nth_element(values.begin(), nth, values.end());
  return *nth;
}

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

double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  const size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  if (v.size() % 2) return v[mid];
  const double upper = v[mid];
  const double lower = *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid));
  return (lower + upper) / 2;
}

double best(const std::vector<double>& v) {
  return v.empty() ? 0 : *std::max_element(v.begin(), v.end());
}

double coefficient_of_variation(const std::vector<double>& v) {
  if (v.size() < 2) return 0;
  const double mean = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
  if (mean == 0) return 0;
  double sq = 0;
  for (double x : v) sq += (x - mean) * (x - mean);
  return std::sqrt(sq / static_cast<double>(v.size() - 1)) / mean;
}

double relative_spread(const std::vector<double>& v) {
  if (v.size() < 2) return 0;
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  const double m = median_of(v);
  return m == 0 ? 0 : (*hi - *lo) / m;
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
