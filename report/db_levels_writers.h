#pragma once
// A DB as it stands, level by level (judgement/db_plan.h): for each table read through its
// MANIFEST, its levels (files, bytes on disk, the codec in use, the candidate that saves the
// most on the level's own blocks) and a codec per level priced on them, with its line.
#include <cstddef>
#include <ostream>

#include "results/results_fwd.h"

namespace kvz {

struct Workload;
// Console; nothing when no source is a DB's level. `w`: the --workload (null, or one without
// rates: the plan is priced at default_db_workload(), and the output says so). Every line within
// `width` columns, continued four columns in.
void print_db_levels(std::ostream& out, const RunResults& run, const Workload* w, size_t width = 100);

}  // namespace kvz
