// The DB as it stands, level by level, and a codec per level priced on it (judgement/db_plan.h).
#include "judgement/db_plan.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "judgement/level_plan.h"
#include "results/cell_view.h"
#include "results/results.h"
#include "stores/store_profile.h"
#include "util/text.h"

namespace kvz {

namespace {

constexpr double kHoursPerMonth = 30.0 * 24;  // as judgement/cost.cpp

double total_seconds(const SecondsByCpu& s) {
  double sum = 0;
  for (const auto& [cpu, seconds] : s) sum += seconds;
  return sum;
}

// A level's row as the plans' Candidate: the call from a cell with its label, the speeds the
// level's summed seconds give (every host's files, each at its host's speed).
Candidate candidate_of(const CellResult& cell, const std::string& label, const TableTotal& t,
                       const SecondsByCpu& compress, const SecondsByCpu& decompress) {
  const CellKey& k = cell.key;
  Candidate c;
  c.label = label;
  c.codec = k.codec;
  c.level = k.level;
  c.params = k.params;
  c.dict_size = k.dict_size;
  const double input = static_cast<double>(t.input_bytes);
  const double cs = total_seconds(compress), ds = total_seconds(decompress);
  c.compress_mbps = cs > 0 ? input / cs / 1e6 : 0;
  c.decompress_mbps = ds > 0 ? input / ds / 1e6 : 0;
  return c;
}

// The cells of a table's level by label: one of each (the call is the same on every file).
std::map<std::string, const CellResult*> cells_by_label(const RunResults& run, const TableTotal& t) {
  std::map<std::string, std::string> level_sources;  // source -> table, for the level's corpora
  for (const auto& c : run.meta.corpora)
    if (c.table == t.table && c.level == t.level) level_sources[c.name] = c.table;
  std::map<std::string, const CellResult*> out;
  for (const auto& c : run.cells)
    if (level_sources.count(c.key.source) && c.key.profile == t.profile && c.status == CellStatus::Ok)
      out.emplace(cell_label(run, c), &c);
  return out;
}

std::string family_options(const RunResults& run, const TableTotal& t) {
  for (const auto& c : run.meta.corpora)
    if (c.table == t.table && c.level >= 0 && !c.options.empty()) return c.options;
  return "";
}

// "key=value;..." -> the value of `key`, or "".
std::string option(const std::string& options, const std::string& key) {
  for (const auto& item : split_list(options, ';'))
    if (item.rfind(key + "=", 0) == 0) return item.substr(key.size() + 1);
  return "";
}

// The LSM options the flows need: the family's own where its OPTIONS file says, else `w`'s.
LsmOptions lsm_of(const std::string& options, const Workload& w) {
  LsmOptions o = w.lsm;
  const auto number = [&](const char* key, double fallback) {
    const std::string v = option(options, key);
    char* end = nullptr;
    const double d = v.empty() ? 0 : std::strtod(v.c_str(), &end);
    return !v.empty() && end && *end == '\0' && d > 0 ? d : fallback;
  };
  o.write_buffer = number("write_buffer_size", o.write_buffer);
  o.l0_trigger = static_cast<int>(number("level0_file_num_compaction_trigger", o.l0_trigger));
  o.num_levels = static_cast<int>(number("num_levels", o.num_levels));
  o.dynamic = option(options, "level_compaction_dynamic_level_bytes") == "true";
  return o;
}

// Each row of the level typed and priced: the current codec first, then the candidates RocksDB
// writes at its default call without a dictionary (level_plan.h level_codecs).
std::vector<DbLevelOption> options_of(const RunResults& run, const DbLevelPlan& l, const StoreProfile& store,
                                      const Workload& w) {
  const auto cells = cells_by_label(run, l.level);
  GroupRecommendations g;
  std::vector<std::pair<std::string, uint64_t>> rows = {{l.level.current, l.level.current_bytes}};
  for (const auto& c : l.level.candidates) rows.emplace_back(c.label, c.bytes);
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto cell = cells.find(rows[i].first);
    if (cell == cells.end()) continue;
    const TableCandidate* cand = i ? &l.level.candidates[i - 1] : nullptr;
    Candidate c = candidate_of(*cell->second, rows[i].first, l.level,
                               cand ? cand->compress_seconds : l.level.current_compress_seconds,
                               cand ? cand->decompress_seconds : l.level.current_decompress_seconds);
    if (!cand) c.dict_size = 0, c.params = c.params.substr(0, c.params.find(":dict"));  // its codec's type
    g.block_size = cell->second->key.block_size;
    g.candidates.push_back(c);
  }
  std::vector<DbLevelOption> out;
  for (const auto& lc : level_codecs(g, store)) {
    const auto row = std::find_if(rows.begin(), rows.end(), [&](const auto& r) { return r.first == lc.row.label; });
    if (row == rows.end()) continue;  // "none": no row measured its bytes
    DbLevelOption o{lc.row.label, lc.type, row->second};
    o.cores = level_cores(l.share, lc.row, w, l.level.threads);
    o.storage_usd = static_cast<double>(o.bytes) / 1e9 * w.storage_usd_gb_month;
    o.cpu_usd = o.cores * w.cpu_usd_core_hour * kHoursPerMonth;
    out.push_back(o);
  }
  return out;
}

// compression_per_level: entry i is level i (static sizes), or L0 then base level .. (dynamic);
// a level with no files takes the next deeper level's pick, and trailing repeats are left out.
// bottommost_compression: the deepest level's pick.
std::string per_level_line(const DbPlan& p, const LsmOptions& o) {
  int base = 1;  // static sizes: L1; dynamic: the first level below L0 that holds files
  if (o.dynamic) {
    const auto below_l0 =
        std::find_if(p.levels.begin(), p.levels.end(), [](const DbLevelPlan& l) { return l.level.level > 0; });
    base = below_l0 != p.levels.end() ? below_l0->level.level : o.num_levels - 1;
  }
  const int entries = o.dynamic ? o.num_levels - base + 1 : o.num_levels;
  std::vector<std::string> types;
  for (int i = 0; i < entries; ++i) {
    const int level = i == 0 ? 0 : o.dynamic ? base + i - 1 : i;
    const auto at = std::find_if(p.levels.begin(), p.levels.end(),
                                 [&](const DbLevelPlan& l) { return l.level.level >= level && !l.pick.type.empty(); });
    types.push_back(at != p.levels.end() ? at->pick.type : p.levels.back().pick.type);
  }
  // A level past the list takes its last entry (GetCompressionType clamps the index): repeats go.
  while (types.size() > 1 && types.back() == types[types.size() - 2]) types.pop_back();
  return fmt::format("compression_per_level={};bottommost_compression={}", join(types, ":"), p.levels.back().pick.type);
}

// Flows and options for each level, the cheapest per level, the totals and the line.
void price(DbPlan& p, const RunResults& run, const StoreProfile& store, const Workload& w) {
  const LsmOptions o = lsm_of(p.options, w);
  std::vector<LevelShare> shares;
  for (const auto& l : p.levels) {
    LevelShare s;
    s.level = l.level.level;
    s.data_bytes = static_cast<double>(l.level.input_bytes);
    s.stored_bytes = static_cast<double>(l.level.current_bytes);
    shares.push_back(s);
  }
  const LsmShape shape = lsm_shape_of_levels(o, shares);
  for (auto& l : p.levels) {
    for (const auto& s : shape.levels)
      if (s.level == l.level.level) l.share = s;
    const auto options = options_of(run, l, store, w);
    if (options.empty() || options.front().label != l.level.current) {
      p.why_not = fmt::format("L{} is written by {}, not a codec RocksDB writes at its default level: no plan",
                              l.level.level, l.level.current);
      return;
    }
    l.now = l.pick = options.front();
    for (const auto& option : options)
      if (option.total_usd() < l.pick.total_usd() * (1 - 1e-9)) l.pick = option;
    p.now_usd += l.now.total_usd();
    p.plan_usd += l.pick.total_usd();
  }
  p.priced = true;
  p.line = per_level_line(p, o);
}

}  // namespace

// Written as --workload takes it: the example is what a user would type.
Workload default_db_workload() {
  Workload w;
  std::string error;
  if (!parse_workload("write=2,read=50,storage=0.08,cpu=0.04", {}, w, error))
    throw std::logic_error("the example DB workload: " + error);
  return w;
}

std::vector<DbPlan> db_plans(const RunResults& run, const Workload& w) {
  std::vector<DbPlan> plans;
  for (auto& t : level_totals(run)) {
    auto p = std::find_if(plans.begin(), plans.end(),
                          [&](const DbPlan& d) { return d.table == t.table && d.profile == t.profile; });
    if (p == plans.end()) {
      DbPlan plan;
      plan.table = t.table;
      plan.profile = t.profile;
      plan.options = family_options(run, t);
      plans.push_back(std::move(plan));
      p = plans.end() - 1;
    }
    DbLevelPlan level;
    level.level = std::move(t);
    p->levels.push_back(std::move(level));
  }
  for (auto& p : plans) {
    std::sort(p.levels.begin(), p.levels.end(),
              [](const DbLevelPlan& a, const DbLevelPlan& b) { return a.level.level < b.level.level; });
    const StoreProfile* store = find_store_profile(p.profile);
    if (!store || store->base != "rocksdb")
      p.why_not = "LevelDB writes every level with its one options.compression";
    else if (option(p.options, "compaction_style").find("Universal") != std::string::npos)
      p.why_not = "universal compaction: --workload ...,style=universal plans its runs";
    else
      price(p, run, *store, w);
  }
  return plans;
}

}  // namespace kvz
