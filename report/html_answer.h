#pragma once
// What the HTML report opens on: per source and block size, the recommendation per workload
// for each store (among the codecs that store can write) with its configuration line; and the
// comparison of two runs with `check`'s verdicts.
#include <vector>

#include <nlohmann/json.hpp>

#include "judgement/analysis.h"
#include "report/writers.h"

namespace kvz {

// {"stores": ["any", "rocksdb", ...], "default_store": "rocksdb",
//  "groups": [{run, source, layout, block, profile, group,
//              by_store: {store: [{workload, choice, rule, why, config, writable}]}}]}
nlohmann::json answer_json(const std::vector<RunResults>& runs, const RecommendOptions& opt);

// {"rows": [{id, status, size, compress, decompress (change in %, + faster), note, ratio_base,
//  ratio_new, worst_block_base, worst_block_new}], "summary": "...", "exit_code": 0|1}
nlohmann::json compare_json(const RunResults& baseline, const RunResults& current, const CheckOptions& opt);

}  // namespace kvz
