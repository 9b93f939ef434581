#pragma once
// What `kvzbench run` prints: the console table: one section per block set, memcpy first, rows sorted
// lzbench-style, each speed also relative to memcpy of the same block set.
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "judgement/cost.h"
#include "results/results.h"

namespace kvz {

// sort: "cspeed" (default, compression speed, fastest first), "dspeed", "ratio", "none".
// Codecs whose level means nothing (meta.codec_versions has_levels false) show no level.
void print_console_table(std::ostream& out, const RunResults& results, const std::string& sort, bool wide = false);
// With a store profile: what that store would write, per codec (nothing without one).
void print_store_table(std::ostream& out, const RunResults& results);
// The recommendations per workload group, one line each.
void print_recommendations(std::ostream& out, const RunResults& results);
// The cost model (--workload): per workload group, the three cheapest candidates with their
// monthly storage and CPU cost, and "uncompressed" for reference.
void print_costs(std::ostream& out, const RunResults& results, const Workload& workload,
                 const std::vector<Device>& devices);

}  // namespace kvz
