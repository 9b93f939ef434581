#pragma once
// Small statistics used by reports and `check`: order statistics over repetitions and the
// Mann-Whitney U test that decides whether a slowdown is real.
#include <vector>

namespace kvz {

double median(std::vector<double> v);          // 0 for an empty vector
double quantile(std::vector<double> v, double q);  // linear interpolation, q in [0,1]
double mean(const std::vector<double>& v);
double stddev(const std::vector<double>& v);   // sample standard deviation (n-1)
double geomean(const std::vector<double>& v);  // of positive values; 0 if none

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
