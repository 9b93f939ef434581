#pragma once
// The cost ranking and the per-level plan of one workload group agree, or one line says why
// they differ (issue 36): the ranking prices every row of the run (dictionaries, every level and
// call) at one compression per byte written; the plan prices only RocksDB's default call of each
// codec without a dictionary (compression_opts is shared by every level), with the rewrites and
// reads compaction adds. Both price the data held (size=) at rest.
#include <string>

#include "judgement/cost.h"
#include "judgement/level_plan.h"

namespace kvz {

// "" when the ranking's cheapest row is the plan's best single codec; else the one line.
std::string ranking_plan_difference(const GroupCosts& ranking, const LevelPlan& plan);

}  // namespace kvz
