#include "judgement/answer.h"

#include "judgement/machine_verdict.h"
#include "judgement/store_config.h"
#include "results/results.h"
#include "stores/store_profile.h"

namespace kvz {

namespace {

// Without a store profile a pick is kvz's call: the line of every store that writes the codec,
// each marked as not measured under that store.
std::vector<RecommendationLine> lines_per_store(const Candidate& c, uint64_t block_size) {
  std::vector<RecommendationLine> out;
  for (const auto& p : store_profiles()) {
    const ConfigLine line = store_config_line(
        p,
        {.codec = c.codec, .level = c.level, .params = c.params, .dict_size = c.dict_size, .block_size = block_size});
    if (line.writable) out.push_back({p.name, line.text, false});
  }
  return out;
}

RecommendationRecord record(const GroupRecommendations& g, const Recommendation& p) {
  RecommendationRecord r;
  r.group = g.group;
  r.workload = p.workload;
  r.decided = p.decided;
  r.rule = p.rule;
  r.reason = p.why;
  r.code_change = p.code_change;
  if (!p.choice) return r;
  const Candidate& c = *p.choice;
  r.pick = c.label;
  for (const auto& t : p.ties) r.ties.push_back(t.label);
  r.speeds_by = c.basis;
  r.stored_ratio = c.stored_ratio;
  r.compress_mbps = c.compress_mbps;
  r.decompress_mbps = c.decompress_mbps;
  r.worst_block_us = c.worst_block_us;
  r.cost_usd_month = p.cost_usd;
  if (p.config) {
    if (p.config->writable) r.config.push_back({p.config->store, p.config->line, p.config->store_call});
  } else {
    r.config = lines_per_store(c, g.block_size);
  }
  return r;
}

}  // namespace

std::vector<RecommendationRecord> recommendation_records(const RunResults&,
                                                         const std::vector<GroupRecommendations>& groups) {
  std::vector<RecommendationRecord> out;
  for (const auto& g : groups)
    for (const auto& p : g.picks) out.push_back(record(g, p));
  return out;
}

std::vector<RecommendationRecord> recommendation_records(const RunResults& run, const RecommendOptions& opt) {
  return recommendation_records(run, recommend_for_run_store(run, opt));
}

void add_answer(RunResults& run, const RecommendOptions& opt) {
  judge_machine_load(run);
  run.recommendations = recommendation_records(run, opt);
}

}  // namespace kvz
