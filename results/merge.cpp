// `merge` with its inputs in memory (the streaming one, for files: merge_stream.cpp); the rules
// both follow are merge_plan.cpp's.
#include <map>

#include "results/merge_plan.h"
#include "results/results.h"
#include "results/results_checks.h"

namespace kvz {

bool merge_results(std::vector<RunResults> runs, RunResults& out, std::string& error, bool one_sweep) {
  MergePlan plan(one_sweep);
  for (const auto& r : runs) plan.add_input(r.schema_version, r.meta);
  error = plan.finish();
  if (!error.empty()) return false;
  RunResults m;
  m.schema_version = plan.schema_version();
  m.meta = plan.meta();
  std::map<std::string, size_t> cell_owner;
  for (size_t i = 0; i < runs.size(); ++i) {
    for (auto& c : runs[i].cells) {
      plan.qualify(i, c.key);
      error = plan.partial_set_error(i, c.key, c.partial_set);
      if (!error.empty()) return false;
      auto [it, inserted] = cell_owner.emplace(c.key.id(), i);
      if (!inserted) {
        error = "cell " + c.key.id() + " is in input " + std::to_string(it->second + 1) + " and input " +
                std::to_string(i + 1) + ": merge joins disjoint results only";
        return false;
      }
      m.cells.push_back(std::move(c));  // moved: a 50,000-cell merge holds each cell once
    }
  }
  // Inputs valid alone can still disagree together (two current-codec rows of one block set).
  error = results_consistency_error(m);
  if (!error.empty()) return false;
  out = std::move(m);
  return true;
}

}  // namespace kvz
