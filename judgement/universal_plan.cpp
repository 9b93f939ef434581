#include "judgement/universal_plan.h"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <map>

#include "judgement/run_density.h"
#include "util/text.h"

namespace kvz {

namespace {

// A codec index per compression_per_level entry (num_levels entries; the last is bottommost).
using Pick = std::vector<size_t>;

struct PricedRuns {
  UniversalShape shape;
  PlanTotals totals;
};

// The codec's row on the blocks a run at `level` holds: its level's cut; for a level the cuts
// missed (the replay under this plan placed a run where the cuts' replay did not) the nearest
// cut above the deepest one (its runs keep or lose their numbers alike); the whole set's below it.
const Candidate& on_run(const LevelCodec& c, int level) {
  if (c.at_level.empty()) return c.row;
  if (const auto it = c.at_level.find(level); it != c.at_level.end()) return it->second;
  const int deepest = c.at_level.rbegin()->first;
  if (level > deepest) return c.row;
  const Candidate* nearest = nullptr;
  int gap = INT_MAX;
  for (const auto& [l, row] : c.at_level) {
    if (l == deepest || std::abs(l - level) >= gap) continue;
    gap = std::abs(l - level);
    nearest = &row;
  }
  return nearest ? *nearest : c.row;
}

// A row's sample (judgement/run_density.h): the share of the load its blocks hold and whether
// their sequence numbers were zeroed (in a shuffled load the deepest level's run, the zeroed flush
// and the whole set; every run above the bottom keeps its numbers).
RatioSample sample_of(const LevelCodec& c, const Candidate& row, const LsmOptions& o) {
  const double whole = c.row.input_bytes;
  if (&row == &c.row || whole <= 0) return {1, 1, row.stored_ratio};
  if (&row == c.zeroed_flush()) return {row.input_bytes / whole, 1, row.stored_ratio};
  for (const auto& [level, cut] : c.at_level)
    if (&cut == &row) return {row.input_bytes / whole, level >= o.num_levels - 1 ? 1.0 : 0.0, row.stored_ratio};
  return {1, 1, row.stored_ratio};
}

// A codec's ratios by share and state, from its rows; none for a load that is not shuffled (its
// runs hold contiguous keys, as dense as any: a run's level cut prices it).
RunDensity density_of(const LevelCodec& c, const LsmOptions& o) {
  if (o.order != LoadOrder::Shuffled) return {};
  std::vector<RatioSample> samples{sample_of(c, c.row, o)};
  for (const auto& [level, row] : c.at_level) samples.push_back(sample_of(c, row, o));
  if (const Candidate* zeroed = c.zeroed_flush()) samples.push_back(sample_of(c, *zeroed, o));
  return RunDensity(samples);
}

// Replays and prices assignments, each once (coordinate descent asks for the same one often).
class Pricer {
 public:
  Pricer(const std::vector<LevelCodec>& codecs, const Workload& w, const GroupRecommendations& g)
      : codecs_(codecs), w_(w), threads_(std::max(1, g.threads)), lsm_(w.lsm) {
    lsm_.block_size = static_cast<double>(g.block_size);  // table files counted
    lsm_.record_bytes = g.record_bytes;                   // what a flush holds
    for (const auto& c : codecs) {
      densities_.push_back(density_of(c, lsm_));
      rows_.emplace_back();
      for (int level = 0; level < lsm_.num_levels; ++level)
        rows_.back().push_back(run_row(c, densities_.back(), level));
    }
  }
  const PricedRuns& price(const Pick& pick) {
    auto it = cache_.find(pick);
    if (it != cache_.end()) return it->second;
    PricedRuns out;
    out.shape = universal_shape(
        lsm_, w_.universal_options,
        [&](int slot, int level, const RunSample& run) {
          const size_t k = pick[static_cast<size_t>(slot)];
          const RunRow& r = rows_[k][static_cast<size_t>(level)];
          const double modelled = r.per_modelled > 0 ? densities_[k].modelled(run.share, run.zeroed) : 0;
          const double ratio = modelled > 0 ? r.per_modelled * modelled : r.row->stored_ratio;
          // A compaction runs on one thread: the row's speeds are its threads' total.
          return RunCodec{ratio, r.row->compress_mbps / threads_, r.row->decompress_mbps / threads_};
        },
        w_.write_mbps);
    out.totals.stored_bytes = out.shape.stored_bytes();
    for (const auto& s : out.shape.levels)
      out.totals.cores += level_cores(s, codecs_[pick[static_cast<size_t>(s.level)]].row, w_, threads_);
    out.totals.storage_usd = out.shape.peak_stored_bytes / 1e9 * w_.storage_usd_gb_month;
    out.totals.cpu_usd = out.totals.cores * w_.cpu_usd_core_hour * kHoursPerMonth;
    return cache_.emplace(pick, std::move(out)).first->second;
  }
  double total(const Pick& pick) { return price(pick).totals.total_usd(); }

 private:
  // A level's row for a codec, and its ratio over what the density lines give at its own share
  // (0: no lines): worked out once, as the replays ask for it at every flush and merge.
  struct RunRow {
    const Candidate* row = nullptr;
    double per_modelled = 0;
  };
  RunRow run_row(const LevelCodec& c, const RunDensity& d, int level) const {
    RunRow r{&on_run(c, level), 0};
    const RatioSample from = sample_of(c, *r.row, lsm_);
    const double at = d.modelled(from.share, from.zeroed);
    if (at > 0) r.per_modelled = from.ratio / at;
    return r;
  }

  const std::vector<LevelCodec>& codecs_;
  const Workload& w_;
  int threads_;
  LsmOptions lsm_;
  std::vector<RunDensity> densities_;      // by codec
  std::vector<std::vector<RunRow>> rows_;  // by codec, then level
  std::map<Pick, PricedRuns> cache_;
};

// The entries a load writes into (the others never hold data: their codec does not matter).
std::vector<size_t> written_entries(const UniversalShape& s) {
  std::vector<size_t> out;
  for (const auto& l : s.levels) out.push_back(static_cast<size_t>(l.level));
  return out;
}

// Each written entry in turn takes the codec that makes the plan cheapest, until a pass changes nothing.
Pick descend(Pick pick, size_t codecs, Pricer& pricer) {
  double best = pricer.total(pick);
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t entry : written_entries(pricer.price(pick).shape)) {
      for (size_t k = 0; k < codecs; ++k) {
        Pick trial = pick;
        trial[entry] = k;
        const double cost = pricer.total(trial);
        if (cost < best - 1e-9 * best) {
          best = cost;
          pick = trial;
          changed = true;
        }
      }
    }
  }
  return pick;
}

std::string plan_line(const Pick& pick, const std::vector<LevelCodec>& codecs, const Workload& w, uint64_t block) {
  std::vector<std::string> types;
  for (size_t k : pick) types.push_back(codecs[k].type);
  return fmt::format(
      "{};compression_per_level={};bottommost_compression={};block_based_table_factory={{block_size={}}}",
      universal_options_line(w.lsm, w.universal_options), join(types, ":"), types.back(), block);
}

// Entries the load never writes take the codec of the entry above (the line reads as a plan).
Pick tidy(Pick pick, const UniversalShape& s) {
  const auto written = written_entries(s);
  for (size_t i = 1; i + 1 < pick.size(); ++i)
    if (std::find(written.begin(), written.end(), i) == written.end()) pick[i] = pick[i - 1];
  return pick;
}

std::vector<LevelChoice> choices(const PricedRuns& p, const Pick& pick, const std::vector<LevelCodec>& codecs,
                                 const Workload& w, int threads) {
  std::vector<LevelChoice> out;
  for (const auto& s : p.shape.levels) {
    const LevelCodec& c = codecs[pick[static_cast<size_t>(s.level)]];
    LevelChoice lc;
    lc.share = s;
    lc.codec_label = c.row.label;
    lc.rocksdb_type = c.type;
    // The runs the entry wrote, each on its own blocks: their data over their stored bytes.
    lc.stored_ratio = s.stored_bytes > 0 ? s.data_bytes / s.stored_bytes : c.row.stored_ratio;
    lc.cores = level_cores(s, c.row, w, threads);
    for (const auto& r : p.shape.runs)
      lc.own_blocks = lc.own_blocks || (r.slot == s.level && c.at_level.count(r.level) > 0);
    lc.storage_usd = s.stored_bytes / 1e9 * w.storage_usd_gb_month;
    lc.cpu_usd = lc.cores * w.cpu_usd_core_hour * kHoursPerMonth;
    out.push_back(lc);
  }
  return out;
}

UniversalPlan universal_group_plan(const GroupRecommendations& g, const std::vector<LevelCodec>& codecs,
                                   const Workload& w) {
  Pricer pricer(codecs, w, g);
  const auto entries = static_cast<size_t>(w.lsm.num_levels);
  Pick best_single(entries, 0), best(entries, 0);
  for (size_t k = 0; k < codecs.size(); ++k) {
    const Pick single(entries, k);
    if (pricer.total(single) < pricer.total(best_single)) best_single = single;
    const Pick descended = descend(single, codecs.size(), pricer);
    if (pricer.total(descended) < pricer.total(best)) best = descended;
  }
  UniversalPlan plan;
  plan.group = g.group;
  plan.lsm = w.lsm;
  plan.options = w.universal_options;
  const PricedRuns& priced = pricer.price(best);
  plan.shape = priced.shape;
  plan.totals = priced.totals;
  plan.levels = choices(priced, best, codecs, w, g.threads);
  plan.line = plan_line(tidy(best, priced.shape), codecs, w, g.block_size);
  plan.single_label = codecs[best_single[0]].row.label;
  plan.single = pricer.price(best_single).totals;
  plan.single_shape = pricer.price(best_single).shape;
  plan.single_line =
      fmt::format("{0};compression={1};bottommost_compression={1};block_based_table_factory={{block_size={2}}}",
                  universal_options_line(w.lsm, w.universal_options), codecs[best_single[0]].type, g.block_size);
  return plan;
}

}  // namespace

std::string universal_options_line(const LsmOptions& o, const UniversalOptions& u) {
  const LsmOptions defaults;
  std::string line = fmt::format(
      "compaction_style=kCompactionStyleUniversal;compaction_options_universal={{size_ratio={};min_merge_width={};"
      "max_merge_width={};max_size_amplification_percent={};compression_size_percent=-1}};num_levels={}",
      u.size_ratio, u.min_merge_width, u.max_merge_width, u.max_size_amplification_percent, o.num_levels);
  if (o.write_buffer != defaults.write_buffer) line += fmt::format(";write_buffer_size={:.0f}", o.write_buffer);
  if (o.l0_trigger != defaults.l0_trigger) line += fmt::format(";level0_file_num_compaction_trigger={}", o.l0_trigger);
  return line;
}

std::string universal_text(const LsmOptions& o, const UniversalOptions& u) {
  return fmt::format("{:.4g} GiB, universal, {} levels, size ratio {} %, size amplification {} %",
                     o.data_bytes / (1024.0 * 1024 * 1024), o.num_levels, u.size_ratio,
                     u.max_size_amplification_percent);
}

std::vector<UniversalPlan> universal_plans(const RunResults& run, const Workload& w) {
  std::vector<UniversalPlan> plans;
  if (w.lsm.data_bytes <= 0) return plans;
  for (const auto& g : rocksdb_groups(run)) plans.push_back(universal_group_plan(g.group, g.codecs, w));
  return plans;
}

}  // namespace kvz
