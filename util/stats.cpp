#include "util/stats.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace kvz {

double quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  const double pos = std::clamp(q, 0.0, 1.0) * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<size_t>(std::floor(pos));
  const size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (v[hi] - v[lo]) * (pos - static_cast<double>(lo));
}

double median(std::vector<double> v) { return quantile(std::move(v), 0.5); }

uint64_t percentile_nearest_rank(std::span<uint64_t> values, double p) {
  if (values.empty()) return 0;
  const double n = static_cast<double>(values.size());
  size_t rank = static_cast<size_t>(std::ceil(std::clamp(p, 0.0, 1.0) * n));
  rank = std::clamp<size_t>(rank, 1, values.size());
  auto nth = values.begin() + static_cast<std::ptrdiff_t>(rank - 1);
  std::nth_element(values.begin(), nth, values.end());
  return *nth;
}

double mean(const std::vector<double>& v) {
  if (v.empty()) return 0.0;
  return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

double stddev(const std::vector<double>& v) {
  if (v.size() < 2) return 0.0;
  const double m = mean(v);
  double s = 0;
  for (double x : v) s += (x - m) * (x - m);
  return std::sqrt(s / static_cast<double>(v.size() - 1));
}

double geomean(const std::vector<double>& v) {
  double log_sum = 0;
  size_t n = 0;
  for (double x : v) {
    if (x > 0) {
      log_sum += std::log(x);
      ++n;
    }
  }
  return n ? std::exp(log_sum / static_cast<double>(n)) : 0.0;
}

double max_of(const std::vector<double>& v) { return v.empty() ? 0 : *std::max_element(v.begin(), v.end()); }

double coefficient_of_variation(const std::vector<double>& v) {
  const double m = mean(v);
  return v.size() < 2 || m == 0 ? 0 : stddev(v) / m;
}

double relative_spread(const std::vector<double>& v) {
  if (v.size() < 2) return 0;
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  const double m = median(v);
  return m == 0 ? 0 : (*hi - *lo) / m;
}

namespace {

// P(U <= u) under H0 for sample sizes n1, n2 without ties: count of arrangements by DP.
// f[i][j][k] = arrangements of i x's and j y's with U = k; computed row by row.
double exact_cdf(size_t n1, size_t n2, double u) {
  const size_t max_u = n1 * n2;
  // counts[j][k] for the current i, as doubles (C(40,20) ~ 1.4e11 fits exactly).
  std::vector<std::vector<double>> prev(n2 + 1, std::vector<double>(max_u + 1, 0.0));
  for (size_t j = 0; j <= n2; ++j) prev[j][0] = 1.0;  // i = 0: U is 0
  for (size_t i = 1; i <= n1; ++i) {
    std::vector<std::vector<double>> cur(n2 + 1, std::vector<double>(max_u + 1, 0.0));
    cur[0][0] = 1.0;  // j = 0: U is 0
    for (size_t j = 1; j <= n2; ++j) {
      for (size_t k = 0; k <= max_u; ++k) {
        // The largest element is an x (it beats all j y's) or a y.
        double c = cur[j - 1][k];
        if (k >= j) c += prev[j][k - j];
        cur[j][k] = c;
      }
    }
    prev.swap(cur);
  }
  double below = 0, total = 0;
  for (size_t k = 0; k <= max_u; ++k) {
    total += prev[n2][k];
    if (static_cast<double>(k) <= u + 1e-9) below += prev[n2][k];
  }
  return below / total;
}

}  // namespace

MannWhitney mann_whitney_less(const std::vector<double>& x, const std::vector<double>& y) {
  MannWhitney r;
  const size_t n1 = x.size(), n2 = y.size();
  if (!n1 || !n2) return r;
  // Ranks of the pooled sample, ties get the average rank.
  std::vector<std::pair<double, int>> pooled;
  for (double v : x) pooled.emplace_back(v, 0);
  for (double v : y) pooled.emplace_back(v, 1);
  std::sort(pooled.begin(), pooled.end());
  const size_t n = pooled.size();
  double rank_sum_x = 0, tie_term = 0;
  bool ties = false;
  for (size_t i = 0; i < n;) {
    size_t j = i;
    while (j < n && pooled[j].first == pooled[i].first) ++j;
    const double avg_rank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2.0;
    const double t = static_cast<double>(j - i);
    if (t > 1) ties = true;
    tie_term += t * t * t - t;
    for (size_t k = i; k < j; ++k)
      if (pooled[k].second == 0) rank_sum_x += avg_rank;
    i = j;
  }
  const double dn1 = static_cast<double>(n1), dn2 = static_cast<double>(n2), dn = static_cast<double>(n);
  r.u = rank_sum_x - dn1 * (dn1 + 1) / 2.0;
  if (!ties && n <= 40) {
    r.exact = true;
    r.p = exact_cdf(n1, n2, r.u);
    return r;
  }
  const double mu = dn1 * dn2 / 2.0;
  const double var = dn1 * dn2 / 12.0 * ((dn + 1) - tie_term / (dn * (dn - 1)));
  if (var <= 0) return r;  // every value equal: no evidence either way
  const double z = (r.u - mu + 0.5) / std::sqrt(var);
  r.p = 0.5 * std::erfc(-z / std::sqrt(2.0));
  return r;
}

}  // namespace kvz
