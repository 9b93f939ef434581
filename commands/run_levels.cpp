#include "commands/run_levels.h"

#include <map>
#include <vector>

#include "blockgen/layouts.h"
#include "blockgen/lsm_sample.h"
#include "codecs/registry.h"
#include "judgement/level_cut.h"
#include "stores/store_profile.h"

namespace kvz {

namespace {

// The probe codec's ratio (input / compressed) over `blocks`; 1 when no probe codec is built in.
double probe_ratio(const BlockSet& blocks) {
  for (const char* name : kProbeCodecs) {
    const Codec* codec = CodecRegistry::instance().find(name);
    if (!codec) continue;
    CodecParams params;
    params.level = codec->info().default_level;
    auto session = codec->open(params, nullptr);
    if (!session.ok()) continue;
    std::vector<uint8_t> out;
    double in = 0, compressed = 0;
    for (size_t i = 0; i < blocks.count(); ++i) {
      const auto block = blocks.block(i);
      out.resize(session.value->bound(block.size()));
      const CallResult r = session.value->compress(block, out);
      if (!r.ok()) return 1;
      in += static_cast<double>(block.size());
      compressed += static_cast<double>(r.size);
    }
    return compressed > 0 ? in / compressed : 1;
  }
  return 1;
}

struct Cut {
  LevelCut cut;
  BlockSet blocks;
};

bool build_cuts(const RecordSet& records, const std::vector<size_t>& order, const LsmShape& shape,
                const LsmOptions& lsm, const std::string& layout, size_t block_size, std::vector<Cut>& out,
                std::string& error) {
  out.clear();
  for (const LevelCut& c : level_cuts(shape, lsm)) {
    const RecordSet level = level_records(records, order, c.slice);
    if (level.records.empty()) continue;
    BlockSet blocks = build_blocks(level, layout, block_size, error);
    if (!error.empty()) return false;
    blocks.layout = level_cut_layout(layout, c.first, c.last);
    out.push_back({c, std::move(blocks)});
  }
  return true;
}

}  // namespace

bool cut_lsm_levels(const RecordSet& records, const std::string& layout, size_t block_size, const LsmOptions& lsm,
                    std::vector<BlockSet>& out, std::string& error) {
  if (layout != "rocksdb" || records.records.empty() || lsm.data_bytes <= 0) return true;
  LsmOptions o = lsm;
  o.block_size = static_cast<double>(block_size);
  const std::vector<size_t> order = load_order(records.records.size(), o.order);
  const BlockSet whole = build_blocks(records, layout, block_size, error);
  if (!error.empty()) return false;
  const double whole_ratio = probe_ratio(whole);
  std::vector<Cut> cuts;
  if (!build_cuts(records, order, lsm_shape(o, [&](int) { return whole_ratio; }), o, layout, block_size, cuts, error))
    return false;
  std::map<int, double> ratio;  // by level, the probe's ratio on the level's first cut
  for (const Cut& c : cuts) {
    const double r = probe_ratio(c.blocks);
    for (int level = c.cut.first; level <= c.cut.last; ++level) ratio[level] = r;
  }
  const LsmShape shape = lsm_shape(o, [&](int level) {
    const auto it = ratio.find(level);
    return it == ratio.end() ? whole_ratio : it->second;
  });
  if (!build_cuts(records, order, shape, o, layout, block_size, cuts, error)) return false;
  for (Cut& c : cuts) out.push_back(std::move(c.blocks));
  return true;
}

bool cut_run_levels(const RunPlan& plan, const std::optional<Workload>& workload, const std::vector<Source>& sources,
                    std::vector<BlockSet>& sets, std::string& error) {
  const Workload* w = workload ? &*workload : nullptr;
  if (!w || w->lsm.data_bytes <= 0 || w->universal || !w->families.empty() || !plan.store ||
      plan.store->base != "rocksdb")
    return true;
  for (const auto& s : sources)
    for (const auto& layout : plan.layouts)
      for (size_t size : plan.block_sizes)
        if (!cut_lsm_levels(s.records, layout, size, w->lsm, sets, error)) {
          error = s.name + ": " + error;
          return false;
        }
  return true;
}

}  // namespace kvz
