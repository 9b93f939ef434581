#pragma once
// The pieces of `check` its two files share (internal to judgement/check*.cpp): one cell judged
// (check.cpp) and the run around it (check_compact.cpp).
#include <functional>
#include <map>
#include <string>

#include "judgement/check.h"
#include "results/results_compact.h"

namespace kvz {

CheckStatus worse(CheckStatus a, CheckStatus b);

// What judging a cell needs of its whole run, computed once per run (per cell, it made
// `check` quadratic in cells: > 60 s at 40,000).
struct RunFacts {
  double memcpy_wall = 0, memcpy_cpu = 0;
  bool references_have_cpu = true;  // every OK reference row has CPU-time speeds
};
RunFacts run_facts_of(const CompactCells& cells);

using CodecVersions = std::map<std::string, std::string, std::less<>>;  // codec -> "library version"
CodecVersions versions_of(const RunMeta& m);

// What judging the cells needs of both runs, computed once.
struct RunPair {
  CodecVersions base_versions, cur_versions;
  RunFacts base_facts, cur_facts;
};

// One cell of the current run against its baseline cell (nullptr: not in the baseline).
CellCheck check_cell(const RunPair& runs, const CheckReport& rep, const CellFacts& cur, const CellFacts* base,
                     const CheckOptions& opt);

}  // namespace kvz
