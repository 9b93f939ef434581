#pragma once
// What `kvzbench run` prints: the console table: one section per block set, memcpy first, rows sorted
// lzbench-style, each speed also relative to memcpy of the same block set.
#include <ostream>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "judgement/cost.h"
#include "results/results_fwd.h"

namespace kvz {

// The table's order within a block set (memcpy and the current codec first): compression speed
// (fastest first, the default), decompression speed, ratio, or as measured.
enum class TableSort { CompressSpeed, DecompressSpeed, Ratio, None };
// Their names, as `run --sort` takes them.
inline constexpr std::pair<std::string_view, TableSort> kTableSorts[] = {{"cspeed", TableSort::CompressSpeed},
                                                                         {"dspeed", TableSort::DecompressSpeed},
                                                                         {"ratio", TableSort::Ratio},
                                                                         {"none", TableSort::None}};

// Codecs whose level means nothing (meta.codec_versions has_levels false) show no level.
void print_console_table(std::ostream& out, const RunResults& results, TableSort sort, bool wide = false);
// The same with the order by its name in kTableSorts (an unknown name: compression speed).
void print_console_table(std::ostream& out, const RunResults& results, std::string_view sort, bool wide = false);
// With a store profile: what that store would write, per codec (nothing without one).
void print_store_table(std::ostream& out, const RunResults& results);
// The recommendations per workload group, one line each.
void print_recommendations(std::ostream& out, const RunResults& results);
// The cost model (--workload): per workload group, the three cheapest candidates with their
// monthly storage and CPU cost, and "uncompressed" for reference.
void print_costs(std::ostream& out, const RunResults& results, const Workload& workload,
                 const std::vector<Device>& devices);

// The per-level plan (--workload with size=, under a RocksDB profile): per workload group the
// options line and each level's data, writes, reads, codec and cost (judgement/level_plan.h);
// with style=universal the universal plan (its sorted runs too, judgement/universal_plan.h); with
// family= a plan per column family, leveled or universal (judgement/family_plan.h).
void print_level_plans(std::ostream& out, const RunResults& results, const Workload& workload);

}  // namespace kvz
