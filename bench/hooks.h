#pragma once
// What the caller of the engine hands it: the stop flag, a progress callback and the callback
// each finished cell's result goes to.
#include <atomic>
#include <functional>
#include <string>

#include "results/results_fwd.h"

namespace kvz {

struct EngineHooks {
  const std::atomic<bool>* stop = nullptr;  // checked between cells and inside GB entries
  std::function<void(double fraction, double eta_seconds, const std::string& what)> progress;
  std::function<void(const CellResult&)> cell_done;  // after each cell is final
};

// Whether the caller has asked the engine to stop (the engine and its passes poll it).
inline bool stop_requested(const EngineHooks& h) { return h.stop && h.stop->load(std::memory_order_relaxed); }

}  // namespace kvz
