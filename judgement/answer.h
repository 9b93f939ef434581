#pragma once
// The answer of a run, as data (results/recommendations.h): the picks the console prints, per
// workload group and workload, in the run's store's terms when it had a store profile, with the
// line per store. `run` stores it in the results file (kvzbench.recommendations), so the file and
// the console say the same; the other outputs read it from here too.
#include <vector>

#include "judgement/analysis.h"
#include "results/recommendations.h"

namespace kvz {

// One record per pick of recommend_for_run_store(run, opt), in its order.
std::vector<RecommendationRecord> recommendation_records(const RunResults& run, const RecommendOptions& opt = {});
// The same from groups already computed (recommend_for_run_store's), so a caller that prints them
// writes exactly these.
std::vector<RecommendationRecord> recommendation_records(const RunResults& run,
                                                         const std::vector<GroupRecommendations>& groups);

// Judges the run's machine load (judgement/machine_verdict.h) and stores its answer in it
// (RunResults::recommendations): what `run` does before it writes its files.
void add_answer(RunResults& run, const RecommendOptions& opt = {});

}  // namespace kvz
