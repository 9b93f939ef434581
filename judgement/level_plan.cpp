#include "judgement/level_plan.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "blockgen/lsm_sample.h"
#include "judgement/level_cut.h"
#include "stores/store_profile.h"
#include "util/text.h"

namespace kvz {

namespace {

// RocksDB's own call per codec: the first entry per codec of the profile's spec
// ("lz4:1:stream:fresh/snappy/zlib:6:fresh/..."), as "codec params" labels without dictionary.
std::map<std::string, std::string> default_calls(const StoreProfile& store) {
  std::map<std::string, std::string> calls;
  for (const auto& item : split_list(store.codecs, '/')) {
    const size_t colon = item.find(':');
    const std::string name = item.substr(0, colon);
    calls.emplace(name, colon == std::string::npos ? "" : item.substr(colon + 1));
  }
  return calls;
}

// "compression=kZSTD;..." -> "kZSTD"
std::string type_of(const std::string& line) {
  const std::string key = "compression=";
  const size_t at = line.find(key);
  if (at == std::string::npos) return "";
  const size_t from = at + key.size();
  return line.substr(from, line.find(';', from) - from);
}

}  // namespace

const Candidate& LevelCodec::on(int level, CutNumbers numbers) const {
  const auto& sample = numbers == CutNumbers::AllKept ? kept_at : zeroed_at;
  if (numbers != CutNumbers::Own)
    if (const auto it = sample.find(level); it != sample.end()) return it->second;
  const auto it = at_level.find(level);
  return it == at_level.end() ? row : it->second;
}

const Candidate* LevelCodec::zeroed_flush() const {
  const auto it = zeroed_at.find(0);
  return it == zeroed_at.end() ? nullptr : &it->second;
}

std::vector<LevelCodec> level_codecs(const GroupRecommendations& g, const StoreProfile& store) {
  std::vector<LevelCodec> out;
  Candidate none;
  none.label = "none";
  none.stored_ratio = 1;  // speeds 0: no CPU
  out.push_back({none, "kNoCompression"});
  const auto calls = default_calls(store);
  for (const auto& c : g.candidates) {
    const auto call = calls.find(c.codec);
    const bool default_call = call != calls.end() && (call->second.empty() ? c.params.find(':') == std::string::npos
                                                                           : c.params == call->second);
    if (c.dict_size || !default_call) continue;
    const ConfigLine line = store_config_line(
        store, {.codec = c.codec, .level = c.level, .params = c.params, .dict_size = 0, .block_size = g.block_size});
    if (line.writable) out.push_back({c, type_of(line.text)});
  }
  return out;
}

double level_cores(const LevelShare& s, const Candidate& c, const Workload& w, int threads) {
  const double write = w.write_mbps * s.rewrites;
  const double read = w.write_mbps * s.compaction_reads + w.read_mbps * s.read_share;
  return threads *
         ((c.compress_mbps > 0 ? write / c.compress_mbps : 0) + (c.decompress_mbps > 0 ? read / c.decompress_mbps : 0));
}

double compaction_seconds_per_mb(double record_bytes) {
  return record_bytes > 0 ? kCompactionRecordNs * 1e-3 / record_bytes : 1 / kCompactionMergeMBps;
}

double compaction_thread_load(const LsmShape& shape, const std::function<const Candidate&(int level)>& speed,
                              double write_mbps, int threads, double record_bytes) {
  const double per_mb = compaction_seconds_per_mb(record_bytes);
  double codec = 0, rest = 0;  // seconds per MB ingested: the codec's (on `threads`), the rest's (one thread)
  for (const auto& s : shape.levels) {
    const Candidate& c = speed(s.level);
    const double written = s.level > 0 ? s.rewrites : 0;  // L0's one write is the flush thread's
    const double ratio = c.stored_ratio > 0 ? c.stored_ratio : 1;
    rest += written * (per_mb + 1 / ratio / kCompactionFileMBps);
    if (c.compress_mbps > 0) codec += written / c.compress_mbps;
    if (c.decompress_mbps > 0) codec += s.compaction_reads / c.decompress_mbps;
  }
  return write_mbps * (threads * codec + rest);
}

namespace {

struct Pricing {
  const Workload& w;
  int threads = 1;
  LsmOptions lsm;  // the workload's, with the group's block size (table files counted)
};

double cores_of(const LevelShare& s, const Candidate& c, const Pricing& p) { return level_cores(s, c, p.w, p.threads); }

// The shape and price of one assignment (a codec index per level number).
struct Priced {
  LsmShape shape;
  std::vector<size_t> codec;          // the codec index per level number
  std::map<int, CutNumbers> numbers;  // the sequence numbers each level's records carry (level_cut.h)
  PlanTotals totals;
  bool allowed = true;  // bottom_pair_allowed
  double cost() const { return allowed ? totals.total_usd() : INFINITY; }
};

CutNumbers numbers_at(const std::map<int, CutNumbers>& numbers, int level) {
  const auto it = numbers.find(level);
  return it == numbers.end() ? CutNumbers::Own : it->second;
}

// The row a level of `plan` is priced on: its codec's, on the numbers the plan leaves there.
const Candidate& row_of(const Priced& plan, const std::vector<LevelCodec>& codecs, int level) {
  return codecs[plan.codec[static_cast<size_t>(level)]].on(level, numbers_at(plan.numbers, level));
}

// Under static sizes the level above the deepest was itself the bottommost until the deepest
// appeared, and its files were written in the bottommost codec then (compaction keeps a file's
// codec until it rewrites the file): a plan that gives the two levels different codecs is not the
// DB the line makes (a real DB came out 9-14 % larger than such a plan, 2026-11-28). So they take one codec.
bool bottom_pair_allowed(const LsmShape& shape, const std::vector<size_t>& pick, const LsmOptions& o) {
  const auto& l = shape.levels;
  return o.dynamic || l.size() < 3 ||
         pick[static_cast<size_t>(l.back().level)] == pick[static_cast<size_t>(l[l.size() - 2].level)];
}
// The shape the levels' rows give, and the numbers its codecs leave on each level: the numbers
// move the rows, the rows the level sizes (and, under dynamic sizes, the base level that starts
// the codecs' path), so a few rounds until they agree. The shape is always the one the numbers
// kept beside it were priced on, agreed or not after the last round.
void shape_of(const std::vector<size_t>& pick, const std::vector<LevelCodec>& codecs, const Pricing& p, Priced& out) {
  out.codec = pick;
  const LevelCodecId id = [&pick](int level) { return static_cast<int>(pick[static_cast<size_t>(level)]); };
  for (int round = 0;; ++round) {
    out.shape = lsm_shape(
        p.lsm, [&](int level) { return row_of(out, codecs, level).stored_ratio; }, id);
    auto numbers = numbers_by_codec(out.shape, p.lsm, id);
    if (numbers == out.numbers || round == 3) return;
    out.numbers = std::move(numbers);
  }
}

Priced price(const std::vector<size_t>& pick, const std::vector<LevelCodec>& codecs, const Pricing& p) {
  Priced out;
  shape_of(pick, codecs, p, out);
  for (const auto& s : out.shape.levels) {
    out.totals.stored_bytes += s.stored_bytes;
    out.totals.cores += cores_of(s, row_of(out, codecs, s.level), p);
  }
  out.totals.storage_usd = out.totals.stored_bytes / 1e9 * p.w.storage_usd_gb_month;
  out.totals.cpu_usd = out.totals.cores * p.w.cpu_usd_core_hour * kHoursPerMonth;
  out.allowed = bottom_pair_allowed(out.shape, out.codec, p.lsm);
  return out;
}

// Each level in turn takes the codec that makes the plan cheapest, until a pass changes nothing.
std::vector<size_t> descend(std::vector<size_t> pick, const std::vector<LevelCodec>& codecs, const Pricing& p) {
  double best = price(pick, codecs, p).cost();
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t level = 0; level < pick.size(); ++level) {
      for (size_t k = 0; k < codecs.size(); ++k) {
        std::vector<size_t> trial = pick;
        trial[level] = k;
        const double cost = price(trial, codecs, p).cost();
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

std::string per_level_line(const Priced& plan, const std::vector<LevelCodec>& codecs, const LsmOptions& o,
                           uint64_t block_size) {
  std::vector<std::string> types;
  for (const auto& s : plan.shape.levels) types.push_back(codecs[plan.codec[static_cast<size_t>(s.level)]].type);
  return fmt::format(
      "compression_per_level={};bottommost_compression={};{};block_based_table_factory={{block_size={}}}",
      join(types, ":"), types.back(), lsm_options_line(o), block_size);
}

LevelPlan plan_group(const GroupRecommendations& g, const std::vector<LevelCodec>& codecs, const Workload& w) {
  Pricing p{w, g.threads, w.lsm};
  p.lsm.block_size = static_cast<double>(g.block_size);
  p.lsm.record_bytes = g.record_bytes;
  const auto levels = static_cast<size_t>(w.lsm.num_levels);
  LevelPlan plan;
  plan.group = g.group;
  plan.lsm = p.lsm;
  std::vector<size_t> best_single(levels, 0), best(levels, 0);
  for (size_t k = 0; k < codecs.size(); ++k) {
    const std::vector<size_t> single(levels, k);
    if (price(single, codecs, p).cost() < price(best_single, codecs, p).cost()) best_single = single;
    const auto descended = descend(single, codecs, p);
    if (price(descended, codecs, p).cost() < price(best, codecs, p).cost()) best = descended;
  }
  const Priced priced = price(best, codecs, p);
  plan.base_level = priced.shape.base_level;
  plan.totals = priced.totals;
  plan.compaction_load = compaction_thread_load(
      priced.shape, [&](int level) -> const Candidate& { return row_of(priced, codecs, level); }, w.write_mbps,
      g.threads, p.lsm.record_bytes);
  for (const auto& s : priced.shape.levels) {
    const LevelCodec& c = codecs[priced.codec[static_cast<size_t>(s.level)]];
    LevelChoice lc;
    lc.share = s;
    lc.codec_label = c.row.label;
    lc.rocksdb_type = c.type;
    lc.stored_ratio = row_of(priced, codecs, s.level).stored_ratio;
    lc.own_blocks = std::any_of(codecs.begin(), codecs.end(), [&](const LevelCodec& k) {
      return k.at_level.count(s.level) + k.kept_at.count(s.level) + k.zeroed_at.count(s.level) > 0;
    });
    lc.cores = cores_of(s, row_of(priced, codecs, s.level), p);
    lc.storage_usd = s.stored_bytes / 1e9 * w.storage_usd_gb_month;
    lc.cpu_usd = lc.cores * w.cpu_usd_core_hour * kHoursPerMonth;
    plan.levels.push_back(lc);
  }
  plan.line = per_level_line(priced, codecs, w.lsm, g.block_size);
  const LevelCodec& single = codecs[best_single[0]];
  plan.single_label = single.row.label;
  plan.single = price(best_single, codecs, p).totals;
  plan.single_line =
      fmt::format("compression={0};bottommost_compression={0};{1};block_based_table_factory={{block_size={2}}}",
                  single.type, lsm_options_line(w.lsm), g.block_size);
  return plan;
}

}  // namespace

std::string lsm_options_line(const LsmOptions& o) {
  const LsmOptions defaults;
  std::string line =
      fmt::format("num_levels={};max_bytes_for_level_multiplier={};level_compaction_dynamic_level_bytes={}",
                  o.num_levels, o.multiplier, o.dynamic ? "true" : "false");
  if (o.level_base != defaults.level_base) line += fmt::format(";max_bytes_for_level_base={:.0f}", o.level_base);
  if (o.write_buffer != defaults.write_buffer) line += fmt::format(";write_buffer_size={:.0f}", o.write_buffer);
  if (o.l0_trigger != defaults.l0_trigger) line += fmt::format(";level0_file_num_compaction_trigger={}", o.l0_trigger);
  if (o.target_file != defaults.target_file) line += fmt::format(";target_file_size_base={:.0f}", o.target_file);
  return line;
}

std::string lsm_text(const LsmOptions& o) {
  return fmt::format("{:.4g} GiB, {} level sizes, {} levels, multiplier {}", o.data_bytes / (1024.0 * 1024 * 1024),
                     o.dynamic ? "dynamic" : "static", o.num_levels, o.multiplier);
}

namespace {

// "rocksdb: rocksdb@L2-3 16K stream T1" -> "rocksdb: rocksdb 16K stream T1": the group a cut's is a part of.
std::string whole_set_group(std::string group) {
  const size_t at = group.find("@L");
  if (at != std::string::npos) group.erase(at, group.find(' ', at) - at);
  return group;
}

// Each codec's rows on the group's level cuts, by the levels each cut stands for.
void add_level_rows(const GroupRecommendations& g, const std::vector<GroupRecommendations>& cuts,
                    std::vector<LevelCodec>& codecs) {
  for (const auto& cut : cuts) {
    std::string layout;
    int first = 0, last = 0;
    CutNumbers numbers = CutNumbers::Own;
    if (!parse_level_cut(cut.layout, layout, first, last, numbers) || whole_set_group(cut.group) != g.group) continue;
    for (auto& codec : codecs) {
      auto& rows = numbers == CutNumbers::Own       ? codec.at_level
                   : numbers == CutNumbers::AllKept ? codec.kept_at
                                                    : codec.zeroed_at;
      for (const auto& c : cut.candidates)
        if (c.label == codec.row.label)
          for (int level = first; level <= last; ++level) rows[level] = c;
    }
  }
}

}  // namespace

std::vector<RocksDbGroup> rocksdb_groups(const RunResults& run) {
  std::vector<RocksDbGroup> groups;
  RecommendOptions cut_options;
  cut_options.level_cuts = true;
  std::vector<GroupRecommendations> cuts;
  for (auto& g : recommend(run, RecommendOptions{})) {
    const StoreProfile* store = find_store_profile(g.profile);
    if (!store || store->base != "rocksdb") continue;
    std::vector<LevelCodec> codecs = level_codecs(g, *store);
    if (cuts.empty()) cuts = recommend(run, cut_options);
    add_level_rows(g, cuts, codecs);
    groups.push_back({std::move(g), std::move(codecs)});
  }
  return groups;
}

std::vector<LevelPlan> level_plans(const RunResults& run, const Workload& w) {
  std::vector<LevelPlan> plans;
  if (w.lsm.data_bytes <= 0) return plans;
  for (const auto& g : rocksdb_groups(run)) plans.push_back(plan_group(g.group, g.codecs, w));
  return plans;
}

}  // namespace kvz
