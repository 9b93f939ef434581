#pragma once
// A codec per output level for RocksDB universal compaction (`--workload ...,size=500G,style=universal`):
// the universal model (judgement/universal_model.h) with this run's measured rows on it, priced as
// the leveled plan prices a level (judgement/level_plan.h), the cheapest plan per workload group
// and the options line that applies it.
//
// What RocksDB 7.8 honours under universal compaction (db/compaction/compaction_picker.cc
// GetCompressionType, db/db_impl/db_impl.cc GetCompressionFlush): a flush takes
// compression_per_level[0]; a compaction's output level L takes bottommost_compression when L is
// at or below the deepest non-empty level (a merge into the last level, or an L0 merge while only
// L0 holds data), else compression_per_level[L] (the base level is 1: entry L is level L).
// compaction_options_universal.compression_size_percent is honoured too (>= 0: flushes and
// size-ratio merges whose older runs hold that share of the data are not compressed) but is one
// codec or none by age; the plan sets compression_per_level and bottommost_compression and leaves
// it at -1. Storage is priced at the peak the load reaches (every run plus a compaction's output
// in flight, a full merge doubling the DB): the free space universal compaction needs is disk
// that must be paid for. The leveled plan's headroom (one compaction's output) is not priced.
#include <string>
#include <vector>

#include "judgement/level_plan.h"
#include "judgement/universal_model.h"

namespace kvz {

struct UniversalPlan {
  std::string group;  // "rocksdb 16K stream T1"
  LsmOptions lsm;
  UniversalOptions options;
  UniversalShape shape;             // the runs under the plan
  std::vector<LevelChoice> levels;  // per output level the plan writes (its entry of compression_per_level)
  PlanTotals totals;                // storage at the peak stored bytes
  // compaction_style=kCompactionStyleUniversal;compaction_options_universal={...};compression_per_level=...;
  // bottommost_compression=...;num_levels=...;block_based_table_factory={block_size=...}
  std::string line;
  std::string single_label;  // the cheapest plan with one codec everywhere, its totals and line
  PlanTotals single;
  UniversalShape single_shape;
  std::string single_line;
};

// One plan per workload group measured under a RocksDB profile; none when w.lsm.data_bytes is 0.
std::vector<UniversalPlan> universal_plans(const RunResults& run, const Workload& w);
// compaction_style=kCompactionStyleUniversal;compaction_options_universal={...};num_levels=...
// (and write_buffer_size, level0_file_num_compaction_trigger when not 7.8's defaults)
std::string universal_options_line(const LsmOptions& o, const UniversalOptions& u);
// "500 GiB, universal, 7 levels, size ratio 1 %, size amplification 200 %"
std::string universal_text(const LsmOptions& o, const UniversalOptions& u);

}  // namespace kvz
