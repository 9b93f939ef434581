#include "commands/run_contenders.h"

#include <algorithm>
#include <map>
#include <set>

#include "judgement/store_config.h"
#include "results/cell_view.h"
#include "results/results.h"

namespace kvz {

namespace {

// A pooled group's name for a cell, as judgement/analysis.cpp names it: the cells of one label in
// one group are the candidate's.
bool in_group(const CellKey& k, const GroupRecommendations& g) {
  return k.profile == g.profile && (k.layout.empty() ? "raw" : k.layout) == g.layout && k.block_size == g.block_size;
}

// The second window's fastest calls: the repetitions stay the run's (every cell has as many, as
// the table and `check` count them); the decision stands on the intrinsic figures.
void fold_direction(LatencyStats& l, const LatencyStats& again) {
  const double first = l.intrinsic.fastest_sum_ns, second = again.intrinsic.fastest_sum_ns;
  if (first <= 0 || second <= 0) return;
  if (second < first) l.intrinsic = again.intrinsic;
  l.intrinsic.fastest_sum_other_ns = std::max(first, second);
}

}  // namespace

std::vector<std::string> contender_cells(const RunResults& run) {
  std::set<std::pair<const GroupRecommendations*, std::string>> labels;
  const auto groups = recommend_for_run_store(run, RecommendOptions{});
  for (const auto& g : groups)
    for (const auto& p : g.picks) {
      if (!p.choice || p.ties.empty()) continue;
      labels.insert({&g, p.choice->label});
      for (const auto& t : p.ties) labels.insert({&g, t.label});
    }
  std::vector<std::string> ids;
  for (const auto& c : run.cells) {
    if (c.status != CellStatus::Ok || c.reference || c.key.cache != "stream") continue;
    for (const auto& [g, label] : labels)
      if (g->source.empty() && in_group(c.key, *g) && cell_label(run, c) == label) {
        ids.push_back(c.key.id());
        break;
      }
  }
  if (ids.size() > kMaxContenderCells) ids.resize(kMaxContenderCells);
  return ids;
}

void fold_second_window(std::vector<CellResult>& cells, const std::vector<CellResult>& again) {
  std::map<std::string, const CellResult*> by_id;
  for (const auto& c : again)
    if (c.status == CellStatus::Ok) by_id[c.key.id()] = &c;
  for (auto& c : cells) {
    const auto it = by_id.find(c.key.id());
    if (it == by_id.end() || c.status != CellStatus::Ok) continue;
    const CellResult& a = *it->second;
    fold_direction(c.compress_latency, a.compress_latency);
    fold_direction(c.decompress_latency, a.decompress_latency);
    c.wall_seconds += a.wall_seconds;
    c.cpu_seconds += a.cpu_seconds;
  }
}

size_t measure_contenders(const Matrix& matrix, const EngineOptions& engine, const EngineHooks& hooks, RunResults& run,
                          std::vector<std::string>& warnings) {
  if (run.meta.interrupted || (hooks.stop && hooks.stop->load())) return 0;
  EngineOptions again = engine;
  again.only_cells = contender_cells(run);
  if (again.only_cells.empty()) return 0;
  again.repetitions = 2;  // a repetition pair of just the contenders, interleaved
  EngineHooks quiet = hooks;
  quiet.progress = nullptr;
  quiet.cell_done = nullptr;
  EngineOutcome outcome = run_matrix(matrix, again, quiet);
  if (outcome.interrupted) return 0;
  warnings.insert(warnings.end(), outcome.warnings.begin(), outcome.warnings.end());
  fold_second_window(run.cells, outcome.cells);
  return again.only_cells.size();
}

}  // namespace kvz
