#pragma once
// What a results file must hold together beyond each field's own type (internal to results/):
// the loader and `merge` refuse a file that breaks it, so `check`, `report` and `merge` never
// judge cells no run could have written.
#include <string>

#include "results/results_fwd.h"

namespace kvz {

// "" or one line naming the first cell that breaks a rule: a codec the run does not list
// (meta.codec_versions; memcpy, the reference, always counts), 0 blocks with bytes, more
// blocks kept raw than blocks, or a second current-codec row in one block set.
std::string results_consistency_error(const RunResults& run);

}  // namespace kvz
