#pragma once
// A compaction style and codec plan per column family (`--workload ...,family=hot:write=50:read=200:size=20G,
// family=cold:...`): each family's load priced under the leveled plan (judgement/level_plan.h) and the
// universal plan (judgement/universal_plan.h) with the workload's prices and LSM knobs, the cheaper
// one picked, and its options line for that family (RocksDB's OPTIONS file has a [CFOptions "NAME"]
// section per family; GetColumnFamilyOptionsFromString reads the line for one family).
#include <string>
#include <vector>

#include "judgement/level_plan.h"
#include "judgement/universal_plan.h"

namespace kvz {

struct FamilyPlan {
  FamilyLoad family;
  std::string group;  // the workload group the speeds come from
  LevelPlan leveled;
  UniversalPlan universal;
  bool universal_wins = false;  // universal's monthly total below leveled's
  double total_usd() const { return universal_wins ? universal.totals.total_usd() : leveled.totals.total_usd(); }
  const std::string& line() const { return universal_wins ? universal.line : leveled.line; }
};

// Per workload group measured under a RocksDB profile (groups in recommend()'s order), a plan per
// family of w.families, in their order.
std::vector<FamilyPlan> family_plans(const RunResults& run, const Workload& w);

}  // namespace kvz
