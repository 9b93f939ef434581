#pragma once
// The answer a run gives, as its results file carries it (`kvzbench.recommendations`): per
// workload group and workload, the pick, the candidates tied with it, the figures it was chosen
// on, the rule, the reason and the configuration line per store. judgement/answer.h computes it
// (results/ never judges); `run` adds it to the run before the files are written, so the file
// holds what the console prints. A merge holds none: its answer is computed again from the cells.
#include <string>
#include <vector>

namespace kvz {

struct RecommendationLine {
  std::string store;       // "rocksdb"
  std::string line;        // the option line / statement in the store's syntax
  bool store_call = true;  // the figures are the store's own call (measured under its profile)
};

struct RecommendationRecord {
  std::string group;     // "rocksdb: rocksdb 16K stream T1"
  std::string workload;  // "write-heavy"
  std::string pick;      // the chosen label; "" when no codec meets the rule
  std::vector<std::string> ties;
  bool decided = true;    // false: a tie after measuring again, or a machine too busy to decide
  std::string speeds_by;  // what the speeds are by: "fastest calls", "CPU time" or "wall time"
  double stored_ratio = 0, compress_mbps = 0, decompress_mbps = 0, worst_block_us = 0;
  double cost_usd_month = 0;  // under the workload's terms
  std::string rule, reason;
  std::string code_change;  // a store's better call that would cost less (never the pick), or ""
  std::vector<RecommendationLine> config;
};

}  // namespace kvz
