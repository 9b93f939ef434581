#pragma once
// A --workload text parsed over the default devices, for the plan tests (level_plan_test.cpp,
// universal_plan_test.cpp): a text that does not parse fails the test with the parser's error.
#include <gtest/gtest.h>

#include <string>

#include "judgement/analysis.h"
#include "judgement/cost.h"

namespace kvz::testing {

inline Workload parsed_workload(const std::string& text) {
  Workload w;
  std::string error;
  EXPECT_TRUE(parse_workload(text, default_devices(), w, error)) << error;
  return w;
}

}  // namespace kvz::testing
