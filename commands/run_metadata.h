#pragma once
// The metadata `kvzbench run` records with its results (commands/run_metadata.cpp).
#include "commands/run_plan.h"
#include "results/results_fwd.h"

namespace kvz {

class CodecRegistry;

// Everything RunMeta holds that is known before the first block is read.
void fill_run_meta(RunMeta& m, const RunPlan& p, const RunArgs& a, const CodecRegistry& reg, int argc, char** argv);

}  // namespace kvz
