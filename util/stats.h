#pragma once
// The statistics every stage shares: one median, the two percentiles (nearest rank for
// per-call latencies, interpolated quantiles for repetitions), one spread, and the
// Mann-Whitney U test that `check` uses to decide whether a slowdown is real.
#include <cstdint>
#include <span>
#include <vector>

namespace kvz {

// a / b, or 0 when b is not positive (a rate or ratio of nothing measured).
inline double safe_div(double a, double b) { return b > 0 ? a / b : 0.0; }

double median(std::vector<double> v);  // mean of the two middle values when even; 0 for empty
// Linear interpolation between order statistics, q in [0,1]; 0 for empty.
double quantile(std::vector<double> v, double q);
// Nearest-rank percentile (p in [0,1]): the smallest value with at least p*n values at or
// below it, so a latency percentile is always a call that happened. Reorders `values`.
uint64_t percentile_nearest_rank(std::span<uint64_t> values, double p);
double mean(const std::vector<double>& v);     // 0 for empty
double stddev(const std::vector<double>& v);   // sample standard deviation (n-1); 0 below 2 values
double geomean(const std::vector<double>& v);  // of the positive values; 0 if none
double max_of(const std::vector<double>& v);   // 0 for empty
// Coefficient of variation (sample stddev / mean), 0 when fewer than two values.
double coefficient_of_variation(const std::vector<double>& v);
// (max - min) / median: the spread printed beside a median.
double relative_spread(const std::vector<double>& v);

// One-sided Mann-Whitney U test, H1: values in `x` tend to be smaller than those in `y`.
// Exact distribution when there are no ties and both samples are small (n1+n2 <= 40);
// otherwise the normal approximation with tie correction and continuity correction
// (as scipy.stats.mannwhitneyu(x, y, alternative="less", method="asymptotic")).
struct MannWhitney {
  double u = 0;        // U statistic of x: pairs (xi, yj) with xi > yj, ties counting 1/2
  double p = 1;        // one-sided p-value
  bool exact = false;  // true when the exact distribution was used
};
MannWhitney mann_whitney_less(const std::vector<double>& x, const std::vector<double>& y);

}  // namespace kvz
