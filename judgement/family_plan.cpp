#include "judgement/family_plan.h"

#include <algorithm>

namespace kvz {

namespace {

// The workload of one family: its rates and size, the prices and knobs of the whole line.
Workload family_workload(const Workload& w, const FamilyLoad& f) {
  Workload out = w;
  out.write_mbps = f.write_mbps;
  out.read_mbps = f.read_mbps;
  out.lsm.data_bytes = f.data_bytes;
  out.families.clear();
  return out;
}

}  // namespace

std::vector<FamilyPlan> family_plans(const RunResults& run, const Workload& w) {
  std::vector<std::vector<FamilyPlan>> per_group;  // [group][family]
  for (const auto& f : w.families) {
    const Workload fw = family_workload(w, f);
    const auto leveled = level_plans(run, fw);
    const auto universal = universal_plans(run, fw);
    per_group.resize(std::min(leveled.size(), universal.size()));
    for (size_t g = 0; g < per_group.size(); ++g) {
      FamilyPlan p;
      p.family = f;
      p.group = leveled[g].group;
      p.leveled = leveled[g];
      p.universal = universal[g];
      p.universal_wins = p.universal.totals.total_usd() < p.leveled.totals.total_usd();
      per_group[g].push_back(std::move(p));
    }
  }
  std::vector<FamilyPlan> out;
  for (auto& group : per_group)
    for (auto& p : group) out.push_back(std::move(p));
  return out;
}

}  // namespace kvz
