#pragma once
// The measurement engine: runs a plan (bench/matrix.h) cell by cell through Google Benchmark
// (throughput passes) plus separately timed per-call latency passes, and yields the cells'
// results (results/results.h).
#include <string>
#include <vector>

#include "bench/hooks.h"
#include "bench/matrix.h"
#include "results/results.h"

namespace kvz {

struct EngineOutcome {
  std::vector<CellResult> cells;
  bool interrupted = false;
  size_t failed = 0;
  std::vector<std::string> warnings;
};

EngineOutcome run_matrix(const Matrix& matrix, const EngineOptions& options, const EngineHooks& hooks = {});

// Call once before run_matrix: passes Google Benchmark the flags the engine relies on.
void init_benchmark_library(bool random_interleaving);

}  // namespace kvz
