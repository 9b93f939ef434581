// The shared statistics: medians, both percentile kinds, spreads, Mann-Whitney U.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "util/stats.h"

namespace kvz {
namespace {

std::vector<uint64_t> shuffled_1_to(uint64_t n, uint64_t seed) {
  std::vector<uint64_t> v(n);
  std::iota(v.begin(), v.end(), uint64_t{1});
  std::shuffle(v.begin(), v.end(), std::mt19937_64(seed));
  return v;
}

TEST(Percentile, NearestRankOnOneToThousand) {
  auto v = shuffled_1_to(1000, 7);
  EXPECT_EQ(percentile_nearest_rank(v, 0.50), 500u);
  EXPECT_EQ(percentile_nearest_rank(v, 0.90), 900u);
  EXPECT_EQ(percentile_nearest_rank(v, 0.99), 990u);
  EXPECT_EQ(percentile_nearest_rank(v, 0.999), 999u);
  EXPECT_EQ(percentile_nearest_rank(v, 1.0), 1000u);
  EXPECT_EQ(percentile_nearest_rank(v, 0.0), 1u);
}

TEST(Percentile, SmallSamplesRoundUp) {
  std::vector<uint64_t> v{30, 10, 20};
  EXPECT_EQ(percentile_nearest_rank(v, 0.5), 20u);   // rank ceil(1.5) = 2
  EXPECT_EQ(percentile_nearest_rank(v, 0.99), 30u);  // rank 3
  std::vector<uint64_t> one{42};
  EXPECT_EQ(percentile_nearest_rank(one, 0.999), 42u);
  std::vector<uint64_t> none;
  EXPECT_EQ(percentile_nearest_rank(none, 0.5), 0u);
}

TEST(Repetitions, MedianBestSpreadCv) {
  EXPECT_DOUBLE_EQ(median({3, 1, 2}), 2.0);
  EXPECT_DOUBLE_EQ(median({4, 1, 3, 2}), 2.5);
  EXPECT_DOUBLE_EQ(median({}), 0.0);
  EXPECT_DOUBLE_EQ(max_of({1, 5, 3}), 5.0);
  EXPECT_DOUBLE_EQ(relative_spread({90, 100, 110}), 0.2);
  EXPECT_NEAR(coefficient_of_variation({90, 100, 110}), 0.1, 1e-12);
  EXPECT_DOUBLE_EQ(coefficient_of_variation({5}), 0.0);
}

TEST(Stats, MedianAndQuantile) {
  EXPECT_DOUBLE_EQ(median({3, 1, 2}), 2);
  EXPECT_DOUBLE_EQ(median({4, 1, 2, 3}), 2.5);
  EXPECT_DOUBLE_EQ(quantile({10, 20, 30, 40, 50}, 0.25), 20);
  EXPECT_DOUBLE_EQ(quantile({10, 20}, 0.75), 17.5);
  EXPECT_DOUBLE_EQ(median({}), 0);
  EXPECT_NEAR(stddev({2, 4, 4, 4, 5, 5, 7, 9}), 2.138089935, 1e-9);
  EXPECT_NEAR(geomean({1, 4, 16}), 4, 1e-12);
}

// Exact p-values by counting: with no ties every one of C(n1+n2, n1) arrangements is equally likely.
TEST(MannWhitney, ExactSmallSamples) {
  // x entirely below y: U = 0, P(U <= 0) = 1 / C(6,3) = 1/20.
  auto r = mann_whitney_less({1, 2, 3}, {4, 5, 6});
  EXPECT_TRUE(r.exact);
  EXPECT_DOUBLE_EQ(r.u, 0);
  EXPECT_NEAR(r.p, 0.05, 1e-12);
  // One inversion: U = 1; arrangements with U <= 1 are 2 of 20.
  r = mann_whitney_less({1, 2, 4}, {3, 5, 6});
  EXPECT_DOUBLE_EQ(r.u, 1);
  EXPECT_NEAR(r.p, 0.10, 1e-12);
  // Nine against nine, fully separated: 1 / C(18,9) = 1/48620.
  std::vector<double> lo, hi;
  for (int i = 0; i < 9; ++i) {
    lo.push_back(i);
    hi.push_back(100 + i);
  }
  r = mann_whitney_less(lo, hi);
  EXPECT_NEAR(r.p, 1.0 / 48620, 1e-15);
  // The other direction is the upper tail: P(U <= 81) = 1.
  EXPECT_NEAR(mann_whitney_less(hi, lo).p, 1.0, 1e-12);
  // n1=2, n2=2, U=2 (middle): arrangements with U<=2 are 4 of 6 (U distribution 1,1,2,1,1).
  r = mann_whitney_less({1, 4}, {2, 3});
  EXPECT_DOUBLE_EQ(r.u, 2);
  EXPECT_NEAR(r.p, 4.0 / 6.0, 1e-12);
}

// With ties: normal approximation with tie and continuity correction, worked by hand.
TEST(MannWhitney, TiesUseCorrectedNormalApproximation) {
  // x = {1,2,2}, y = {2,3,4}. Pooled ranks: 1->1, 2,2,2->3 (avg of 2..4), 3->5, 4->6.
  // R_x = 1+3+3 = 7, U = 7 - 6 = 1. Tie term: one group of 3 -> 27-3 = 24.
  // var = 9/12 * (7 - 24/30) = 0.75 * 6.2 = 4.65; z = (1 - 4.5 + 0.5)/sqrt(4.65) = -1.391209...
  // p = Phi(z) = 0.0820848...
  auto r = mann_whitney_less({1, 2, 2}, {2, 3, 4});
  EXPECT_FALSE(r.exact);
  EXPECT_DOUBLE_EQ(r.u, 1);
  const double z = -3.0 / std::sqrt(4.65);
  EXPECT_NEAR(r.p, 0.5 * std::erfc(-z / std::sqrt(2.0)), 1e-12);
  EXPECT_NEAR(r.p, 0.08208, 1e-4);
  // All values equal: no evidence.
  EXPECT_DOUBLE_EQ(mann_whitney_less({5, 5}, {5, 5}).p, 1.0);
}

TEST(MannWhitney, LargeSamplesUseNormalApproximation) {
  std::vector<double> x, y;
  for (int i = 0; i < 30; ++i) {
    x.push_back(i);
    y.push_back(i + 0.5);
  }
  const auto r = mann_whitney_less(x, y);
  EXPECT_FALSE(r.exact);
  // U = sum over x_i of y_j below it = 0+1+...+29 = 435; mu = 450; var = 900*61/12 = 4575.
  EXPECT_DOUBLE_EQ(r.u, 435);
  const double z = (435 - 450 + 0.5) / std::sqrt(4575.0);
  EXPECT_NEAR(r.p, 0.5 * std::erfc(-z / std::sqrt(2.0)), 1e-12);
}

}  // namespace
}  // namespace kvz
