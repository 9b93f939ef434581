// A run's ratio by its share of the load and its numbers' state (judgement/run_density.h).
#include "judgement/run_density.h"

#include <gtest/gtest.h>

#include <cmath>

namespace kvz {
namespace {

// Kept samples on ln(ratio) = ln 2 + 0.1 ln(share / 0.01), zeroed on ln 4 + 0.12 ln(share).
std::vector<RatioSample> two_lines() {
  const auto kept = [](double share) { return RatioSample{share, 0, 2 * std::pow(share / 0.01, 0.1)}; };
  const auto zeroed = [](double share) { return RatioSample{share, 1, 4 * std::pow(share, 0.12)}; };
  return {kept(0.01), kept(0.05), kept(0.2), zeroed(0.01), zeroed(0.8), zeroed(1)};
}

TEST(RunDensity, EachStateFollowsItsOwnLineFromTheRowItMoves) {
  const RunDensity d(two_lines());
  EXPECT_NEAR(d.kept_slope(), 0.1, 1e-9);
  EXPECT_NEAR(d.zeroed_slope(), 0.12, 1e-9);
  // A row measured 10 % above its line moves along the line and stays 10 % above it.
  const RatioSample l5{0.2, 0, 1.1 * 2 * std::pow(20.0, 0.1)};
  EXPECT_NEAR(d.ratio(l5, 0.05, 0), 1.1 * 2 * std::pow(5.0, 0.1), 1e-9);
  const RatioSample l6{0.8, 1, 4 * std::pow(0.8, 0.12)};
  EXPECT_NEAR(d.ratio(l6, 0.03, 1), 4 * std::pow(0.03, 0.12), 1e-9);
  // Half zeroed: the two halves' stored bytes add up.
  const double kept = 2 * std::pow(3.0, 0.1), zeroed = 4 * std::pow(0.03, 0.12);
  EXPECT_NEAR(d.ratio(l6, 0.03, 0.5), 1 / (0.5 / zeroed + 0.5 / kept), 1e-9);
}

TEST(RunDensity, WhatTheSamplesCannotTellIsFlat) {
  // One state: the other takes its line.
  const RunDensity zeroed_only({{0.01, 1, 2}, {1, 1, 4}});
  EXPECT_NEAR(zeroed_only.kept_slope(), zeroed_only.zeroed_slope(), 1e-12);
  // One share, or a slope that comes out negative: flat.
  EXPECT_DOUBLE_EQ(RunDensity({{0.5, 0, 3}, {0.5, 0, 3.2}}).kept_slope(), 0);
  EXPECT_DOUBLE_EQ(RunDensity({{0.1, 0, 3}, {0.5, 0, 2}}).kept_slope(), 0);
  // No samples: a row prices every run as measured.
  const RatioSample row{0.3, 0, 2.5};
  EXPECT_DOUBLE_EQ(RunDensity().ratio(row, 0.01, 1), 2.5);
}

}  // namespace
}  // namespace kvz
