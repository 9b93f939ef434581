#include "judgement/plan_agreement.h"

#include <fmt/format.h>

namespace kvz {

namespace {

// The ranking's cheapest row ("uncompressed" too: it is a row like the others).
const CostRow* cheapest(const GroupCosts& ranking) { return ranking.rows.empty() ? nullptr : &ranking.rows.front(); }

// The row has a dictionary, which no level of the plan takes.
bool plan_cannot_take(const std::string& label) { return label.find("dict=") != std::string::npos; }

}  // namespace

std::string ranking_plan_difference(const GroupCosts& ranking, const LevelPlan& plan) {
  const CostRow* top = cheapest(ranking);
  if (!top || plan.single_label.empty() || top->label == plan.single_label ||
      (top->label == "uncompressed" && plan.single_label == "none"))
    return "";
  std::string why = plan_cannot_take(top->label)
                        ? "the plan takes each codec at RocksDB's default call without a dictionary (compression_opts "
                          "is shared by every level), and "
                        : "";
  return fmt::format(
      "the ranking's cheapest, {} (${:.2f}), is not the plan's best single codec, {} (${:.2f}): {}the plan charges "
      "compaction's rewrites and reads on every level, the ranking one compression per byte written",
      top->label, top->total_usd, plan.single_label, plan.single.total_usd(), why);
}

}  // namespace kvz
