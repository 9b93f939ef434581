#include <map>
#include <set>

#include "results/results.h"
#include "results/results_checks.h"

namespace kvz {

bool merge_results(std::vector<RunResults> runs, RunResults& out, std::string& error) {
  if (runs.empty()) {
    error = "nothing to merge";
    return false;
  }
  RunResults m;
  m.schema_version = runs.front().schema_version;
  m.meta = runs.front().meta;
  std::map<std::string, std::string> versions;  // codec -> "library version"
  std::map<std::string, size_t> cell_owner;
  std::set<std::string> cpus;
  for (size_t i = 0; i < runs.size(); ++i) {
    auto& r = runs[i];
    if (r.schema_version != m.schema_version) {
      error = "input " + std::to_string(i + 1) + " has schema_version " + std::to_string(r.schema_version) +
              ", input 1 has " + std::to_string(m.schema_version) + ": cannot merge mixed schemas";
      return false;
    }
    for (const auto& v : r.meta.codec_versions) {
      const std::string lib = v.library + " " + v.version;
      auto [it, inserted] = versions.emplace(v.codec, lib);
      if (!inserted && it->second != lib) {
        error = "codec " + v.codec + " is " + it->second + " in one input and " + lib + " in input " +
                std::to_string(i + 1) + ": sizes would not be comparable";
        return false;
      }
      if (inserted && i > 0) m.meta.codec_versions.push_back(v);
    }
    for (auto& c : r.cells) {
      auto [it, inserted] = cell_owner.emplace(c.key.id(), i);
      if (!inserted) {
        error = "cell " + c.key.id() + " is in input " + std::to_string(it->second + 1) + " and input " +
                std::to_string(i + 1) + ": merge joins disjoint results only";
        return false;
      }
      m.cells.push_back(std::move(c));  // moved: a 50,000-cell merge holds each cell once
    }
    cpus.insert(r.meta.cpu_model);
    if (i > 0) {
      m.meta.interrupted = m.meta.interrupted || r.meta.interrupted;
      m.meta.repetitions = std::min(m.meta.repetitions, r.meta.repetitions);
      for (const auto& c : r.meta.corpora) {
        bool known = false;
        for (const auto& k : m.meta.corpora) known = known || (k.name == c.name && k.sha256 == c.sha256);
        if (!known) m.meta.corpora.push_back(c);
      }
    }
  }
  if (cpus.size() > 1) {
    std::string s = "mixed:";
    for (const auto& c : cpus) s += (s.size() > 6 ? " | " : " ") + c;
    m.meta.cpu_model = s;
  }
  m.meta.extra["merged_inputs"] = std::to_string(runs.size());
  // Inputs valid alone can still disagree together (two current-codec rows of one block set).
  error = results_consistency_error(m);
  if (!error.empty()) return false;
  out = std::move(m);
  return true;
}

}  // namespace kvz
