#pragma once
// What a run's cells are, as two hashes in its meta (meta.extra "plan" and "plan_sources"), so
// `merge` joins only the shards of one sweep (results/README.md "One sweep").
#include <string>
#include <vector>

#include "codecs/spec.h"
#include "commands/run_plan.h"
#include "results/run_meta.h"

namespace kvz {

// The options that decide which cells exist and what they measure, one per line: the sweep and
// store profile, the codec rows (levels, parameters, dictionaries and their method), layouts,
// block sizes, record and dataset options, sample sizes, seed, the time budget and repetitions,
// the latency budget, cache mode, threads, keep-raw rule, stall thresholds, interleaving and the
// shard count. Not the shard index, the outputs, the host, pinning or how results are shown.
std::string plan_options_text(const RunPlan& plan, const std::vector<CodecChoice>& choices);
// The sources read: each dataset by name, each file by its source name, bytes and SHA-256.
std::string plan_sources_text(const RunPlan& plan, const std::vector<CorpusInfo>& corpora);
// Both, as the first 16 hex digits of their SHA-256, into meta.extra ("plan", "plan_sources").
void record_plan(RunMeta& meta, const RunPlan& plan, const std::vector<CodecChoice>& choices);

}  // namespace kvz
