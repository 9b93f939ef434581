#include "judgement/analysis.h"

#include "blockgen/lsm_sample.h"

#include "results/cell_view.h"
#include "results/results.h"
#include "results/run_summary.h"
#include "stores/store_profile.h"
#include "util/bytes.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include <fmt/format.h>

#include "judgement/workload_rules.h"
#include "util/stats.h"

namespace kvz {

bool is_reference(const CellResult& c) { return c.reference; }

uint64_t total_stalls(const LatencyStats& l) {
  // Calls at or above the lowest threshold include those above the higher ones.
  return l.stalls.empty() ? 0 : l.stalls.begin()->second;
}

namespace {

std::string group_name(const CellKey& k) {
  std::string g = (k.layout.empty() ? std::string("raw") : k.layout) + " " + format_byte_size(k.block_size) + " " +
                  k.cache + " T" + std::to_string(k.threads);
  if (!k.profile.empty()) g = k.profile + ": " + g;
  return g;
}

struct Acc {
  CellKey key;  // the first cell's: codec, level, params, dictionary
  uint64_t input = 0, stored = 0, compressed = 0;
  uint64_t records = 0, recorded_input = 0;  // over the cells that say how many records they hold
  double ctime = 0, dtime = 0, worst = 0, worst_block = 0;
  double ctime_cpu = 0, dtime_cpu = 0;    // input over the cells' CPU-time medians
  double ctime_fast = 0, dtime_fast = 0;  // the cells' fastest-call sums, in seconds
  bool cpu_missing = false, fast_missing = false;
  // How far two measurements of the fastest-call sum lay apart, per direction (the largest over
  // the cells); -1 once a cell was measured only once.
  double c_apart = 0, d_apart = 0;
  std::vector<double> crep_time, drep_time;  // per repetition index
  std::vector<double> cspread, dspread;      // each cell's repetition spread, (max - min) / median
  std::optional<double> p999 = 0.0;
  uint64_t stall_blocks = 0, observed_stalls = 0, calls = 0, preempted = 0;
  size_t dict_losses = 0, cells = 0;
};

uint64_t lowest(const std::map<uint64_t, uint64_t>& by_threshold) {
  return by_threshold.empty() ? 0 : by_threshold.begin()->second;
}

void add_times(std::vector<double>& acc, const std::vector<double>& mbps, uint64_t input, bool first) {
  if (first) acc.assign(mbps.size(), 0.0);
  acc.resize(std::min(acc.size(), mbps.size()));  // an interrupted cell has fewer repetitions
  for (size_t i = 0; i < acc.size(); ++i) acc[i] += mbps[i] > 0 ? static_cast<double>(input) / mbps[i] : 0;
}

// A cell's repetition spread (util/stats.h relative_spread), when it has one to give.
void add_spread(std::vector<double>& acc, const std::vector<double>& mbps, double median) {
  if (mbps.size() >= 2 && median > 0) acc.push_back(relative_spread(mbps));
}

// The load-robust sums of one direction: CPU-time seconds for the input at the cell's median
// CPU-time speed (per core: GB's process CPU time counts every worker), and the fastest-call sum.
void add_robust(Acc& a, const CellResult& c, const std::vector<double>& cpu_mbps, const LatencyStats& l, double& cpu,
                double& fast, double& apart) {
  const double cpu_median = median(cpu_mbps);
  if (cpu_median > 0) {
    cpu += static_cast<double>(c.input_bytes) / cpu_median;
  } else {
    a.cpu_missing = true;
  }
  if (l.intrinsic.fastest_sum_ns > 0 && l.intrinsic.calls_per_block > 0) {
    fast += l.intrinsic.fastest_sum_ns * 1e-9;
  } else {
    a.fast_missing = true;
  }
  const double one = l.intrinsic.fastest_sum_ns, other = l.intrinsic.fastest_sum_other_ns;
  apart = other > 0 && one > 0 && apart >= 0 ? std::max(apart, std::fabs(one - other) / std::min(one, other)) : -1;
}

void accumulate(Acc& a, const CellResult& c) {
  const bool first = a.cells == 0;
  if (first) a.key = c.key;
  a.input += c.input_bytes;
  a.stored += c.stored_bytes ? c.stored_bytes : c.compressed_bytes;
  a.compressed += c.compressed_bytes;
  if (c.records) {
    a.records += c.records;
    a.recorded_input += c.input_bytes;
  }
  a.ctime += static_cast<double>(c.input_bytes) / c.compress_median();
  a.dtime += static_cast<double>(c.input_bytes) / c.decompress_median();
  add_robust(a, c, c.compress_cpu_mbps, c.compress_latency, a.ctime_cpu, a.ctime_fast, a.c_apart);
  add_robust(a, c, c.decompress_cpu_mbps, c.decompress_latency, a.dtime_cpu, a.dtime_fast, a.d_apart);
  add_times(a.crep_time, c.compress_mbps, c.input_bytes, first);
  add_times(a.drep_time, c.decompress_mbps, c.input_bytes, first);
  add_spread(a.cspread, c.compress_mbps, c.compress_median());
  add_spread(a.dspread, c.decompress_mbps, c.decompress_median());
  for (const LatencyStats* l : {&c.compress_latency, &c.decompress_latency}) {
    a.p999 = a.p999 && l->p999_ns ? std::optional<double>(std::max(*a.p999, *l->p999_ns / 1e3)) : std::nullopt;
    a.worst = std::max(a.worst, l->max_ns / 1e3);
    a.worst_block = std::max(a.worst_block, l->intrinsic.worst_block_ns / 1e3);
    a.stall_blocks += lowest(l->intrinsic.stall_blocks);
    a.observed_stalls += lowest(l->stalls) - lowest(l->preempted_stalls);
    a.calls += l->calls;
    a.preempted += l->preempted_calls;
  }
  a.dict_losses += c.dict_loses();
  ++a.cells;
}

// The speeds the rules decide on, for `threads` workers: by the basis asked for, or the next
// one down when a cell lacks it (a file written before fastest_sum_ns existed: CPU time).
void decision_speeds(Candidate& c, const Acc& a, SpeedBasis basis, int threads) {
  const auto in = static_cast<double>(a.input);
  const double t = std::max(1, threads);
  if (basis == SpeedBasis::FastestCalls && !a.fast_missing && a.ctime_fast > 0 && a.dtime_fast > 0) {
    // A fastest-call sum is one worker's: T workers, each on a core of its own, do T times that.
    c.compress_mbps = t * in / a.ctime_fast / 1e6;
    c.decompress_mbps = t * in / a.dtime_fast / 1e6;
    c.basis = to_string(SpeedBasis::FastestCalls);
  } else if (basis != SpeedBasis::WallTime && !a.cpu_missing && a.ctime_cpu > 0 && a.dtime_cpu > 0) {
    c.compress_mbps = t * in / a.ctime_cpu;
    c.decompress_mbps = t * in / a.dtime_cpu;
    c.basis = to_string(SpeedBasis::CpuTime);
  } else {
    c.compress_mbps = c.compress_wall_mbps;
    c.decompress_mbps = c.decompress_wall_mbps;
    c.basis = to_string(SpeedBasis::WallTime);
  }
}

Candidate candidate(const std::string& label, const Acc& a, SpeedBasis basis, int threads) {
  Candidate c;
  c.label = label;
  c.codec = a.key.codec;
  c.level = a.key.level;
  c.params = a.key.params;
  c.dict_size = a.key.dict_size;
  const auto in = static_cast<double>(a.input);
  c.input_bytes = in;
  c.stored_ratio = a.stored ? in / static_cast<double>(a.stored) : 0;
  c.ratio = a.compressed ? in / static_cast<double>(a.compressed) : 0;
  c.compress_wall_mbps = in / a.ctime;
  c.decompress_wall_mbps = in / a.dtime;
  // The slowest repetition gives the low end of the range.
  auto range = [&](const std::vector<double>& times, double median, double& lo, double& hi) {
    lo = hi = median;
    for (double t : times) {
      if (t <= 0) continue;
      lo = std::min(lo, in / t);
      hi = std::max(hi, in / t);
    }
  };
  range(a.crep_time, c.compress_wall_mbps, c.compress_min, c.compress_max);
  range(a.drep_time, c.decompress_wall_mbps, c.decompress_min, c.decompress_max);
  c.compress_noise = median(a.cspread);
  c.decompress_noise = median(a.dspread);
  decision_speeds(c, a, basis, threads);
  if (c.basis == to_string(SpeedBasis::FastestCalls)) {
    // Measured twice: known to within how far the two lay apart (but never better than 1 %).
    if (a.c_apart >= 0) c.compress_known_within = std::max(a.c_apart, 0.01);
    if (a.d_apart >= 0) c.decompress_known_within = std::max(a.d_apart, 0.01);
  }
  c.p999_us = a.p999;
  c.worst_us = a.worst;
  c.worst_block_us = a.worst_block;
  c.stall_blocks = a.stall_blocks;
  c.observed_stalls = a.observed_stalls;
  c.preempted_share = a.calls ? static_cast<double>(a.preempted) / static_cast<double>(a.calls) : 0;
  c.dict_losses = a.dict_losses;
  c.cells = a.cells;
  return c;
}

// The cells of one workload group, per codec configuration (its label).
struct Group {
  CellKey first;
  std::map<std::string, Acc> codecs;
};
// Ordered by store, layout, block size as a number (4K before 16K), then source.
using GroupKey = std::tuple<std::string, std::string, uint64_t, std::string, int, std::string>;

using WorkloadGroups = std::map<GroupKey, Group>;

// An OK cell with both speeds, memcpy aside, into its workload group: a level cut's cells
// (blockgen/lsm_sample.h) only into the level cuts' groups, and only there.
void add_to_group(WorkloadGroups& groups, const RunResults& r, const CellResult& c, bool per_source,
                  bool level_cuts = false) {
  if (c.status != CellStatus::Ok || is_reference(c) || is_level_cut(c.key.layout) != level_cuts) return;
  if (c.compress_median() <= 0 || c.decompress_median() <= 0 || !c.input_bytes) return;
  const auto& k = c.key;
  // Per source, a fleet's hosts apart: 000009.sst on two nodes is two files.
  auto& g = groups[{k.profile, k.layout, k.block_size, k.cache, k.threads, per_source ? source_label(k) : ""}];
  if (g.codecs.empty()) g.first = k;
  accumulate(g.codecs[cell_label(r, c)], c);
}

WorkloadGroups workload_groups(const RunResults& r, bool per_source, bool level_cuts) {
  WorkloadGroups groups;
  for (const auto& c : r.cells) add_to_group(groups, r, c, per_source, level_cuts);
  return groups;
}

// The group's name and key fields, and a candidate per codec configuration; no picks yet.
GroupRecommendations group_candidates(const Group& group, const RecommendOptions& opt) {
  const bool per_source = opt.per_source;
  GroupRecommendations g;
  const CellKey& k = group.first;
  g.group = per_source ? source_label(k) + " · " + group_name(k) : group_name(k);
  g.source = per_source ? k.source : "";
  g.host = per_source ? k.host : "";
  g.layout = k.layout.empty() ? "raw" : k.layout;
  g.profile = k.profile;
  g.block_size = k.block_size;
  g.threads = k.threads;
  for (const auto& [label, a] : group.codecs) {
    g.candidates.push_back(candidate(label, a, opt.basis, k.threads));
    if (a.records && !g.record_bytes)
      g.record_bytes = static_cast<double>(a.recorded_input) / static_cast<double>(a.records);
  }
  return g;
}

// store_table's sums per store profile and codec, one cell at a time.
class StoreRows {
 public:
  void add(const RunResults& r, const CellResult& c);
  std::vector<StoreRow> rows() const;

 private:
  std::map<std::pair<std::string, std::string>, StoreRow> rows_;
  std::map<std::pair<std::string, std::string>, std::pair<double, double>> times_;  // compress, decompress seconds
  std::set<std::pair<std::string, std::string>> partial_;  // rows with a cell that has no whole file
};

void StoreRows::add(const RunResults& r, const CellResult& c) {
  if (c.key.profile.empty() || c.status != CellStatus::Ok || is_reference(c) || is_level_cut(c.key.layout)) return;
  const double cm = c.compress_median(), dm = c.decompress_median();
  if (cm <= 0 || dm <= 0) return;
  const auto k = std::make_pair(c.key.profile, cell_label(r, c));
  StoreRow& row = rows_[k];
  row.profile = k.first;
  row.label = k.second;
  if (const StoreProfile* p = find_store_profile(c.key.profile)) {
    row.caveat = store_codec_caveat(*p, c.key.codec);
    row.basis = store_figure_basis(*p, c.key.codec, c.key.block_size);
  }
  row.input_bytes += c.input_bytes;
  row.stored_bytes += c.stored_bytes;
  row.file_bytes += c.store_file_bytes.value_or(0);
  if (!c.store_file_bytes) partial_.insert(k);
  row.worst_us = std::max({row.worst_us, c.compress_latency.max_ns / 1e3, c.decompress_latency.max_ns / 1e3});
  times_[k].first += static_cast<double>(c.input_bytes) / cm;
  times_[k].second += static_cast<double>(c.input_bytes) / dm;
}

std::vector<StoreRow> StoreRows::rows() const {
  std::vector<StoreRow> out;
  for (auto [k, row] : rows_) {
    if (partial_.count(k)) row.file_bytes = 0;
    row.stored_ratio =
        row.stored_bytes ? static_cast<double>(row.input_bytes) / static_cast<double>(row.stored_bytes) : 0;
    row.compress_mbps = static_cast<double>(row.input_bytes) / times_.at(k).first;
    row.decompress_mbps = static_cast<double>(row.input_bytes) / times_.at(k).second;
    out.push_back(row);
  }
  return out;
}

}  // namespace

struct PooledCells::Impl {
  WorkloadGroups groups;
  StoreRows stores;
};

std::string Recommendation::choice_text() const {
  if (!choice) return "none";
  std::string s = choice->label;
  for (const auto& t : ties) s += " ≈ " + t.label;
  return s;
}

std::vector<GroupRecommendations> recommend(const RunResults& r, const RecommendOptions& opt) {
  return recommend(r, opt, CandidateFilter{});
}

std::vector<GroupRecommendations> recommend(const RunResults& r, const RecommendOptions& opt,
                                            const CandidateFilter& eligible_too, const CandidateFilter& own_call) {
  // A run shown in part (RunResults::summary): the groups pooled over every cell, not those held.
  // The level cuts' groups come from the cells held.
  const PooledCells* pooled = r.summary && !opt.level_cuts ? r.summary->pooled.get() : nullptr;
  WorkloadGroups held;
  if (!pooled || opt.per_source) held = workload_groups(r, opt.per_source, opt.level_cuts);
  std::vector<GroupRecommendations> out;
  for (const auto& [key, group] : pooled && !opt.per_source ? pooled->impl_->groups : held) {
    out.push_back(group_candidates(group, opt));
    add_picks(out.back(), opt, eligible_too, own_call, r.meta.machine_load.verdict == "too busy to decide");
  }
  return out;
}

const char* to_string(SpeedBasis b) {
  switch (b) {
    case SpeedBasis::FastestCalls:
      return "fastest calls";
    case SpeedBasis::CpuTime:
      return "CPU time";
    case SpeedBasis::WallTime:
      break;
  }
  return "wall time";
}

std::vector<Device> default_devices() {
  return {{"NVMe", 3000, 80}, {"SATA SSD", 500, 120}, {"HDD", 150, 8000}, {"10GbE", 1250, 50}};
}

bool parse_device(const std::string& text, Device& out, std::string& error) {
  const auto a = text.find(':');
  const auto b = a == std::string::npos ? a : text.find(':', a + 1);
  if (a == std::string::npos || b == std::string::npos || a == 0) {
    error = "device '" + text + "': expected NAME:MBPS:LATENCY_US, e.g. nvme:3000:80";
    return false;
  }
  char* end = nullptr;
  const std::string bw = text.substr(a + 1, b - a - 1), lat = text.substr(b + 1);
  const double mbps = std::strtod(bw.c_str(), &end);
  if (bw.empty() || *end || !(mbps > 0)) {
    error = "device '" + text + "': bandwidth must be a positive number of MB/s";
    return false;
  }
  const double us = std::strtod(lat.c_str(), &end);
  if (lat.empty() || *end || !(us >= 0)) {
    error = "device '" + text + "': latency must be a non-negative number of microseconds";
    return false;
  }
  out = {text.substr(0, a), mbps, us};
  return true;
}

std::vector<IoRow> io_model(const RunResults& r, const std::vector<Device>& devices) {
  std::vector<IoRow> rows;
  for (const auto& c : r.cells) {
    if (c.status != CellStatus::Ok || !c.blocks || !c.input_bytes) continue;
    const double dm = c.decompress_median();
    if (dm <= 0) continue;
    const double block = static_cast<double>(c.input_bytes) / static_cast<double>(c.blocks);
    const double stored =
        static_cast<double>(c.stored_bytes ? c.stored_bytes : c.compressed_bytes) / static_cast<double>(c.blocks);
    for (const auto& d : devices) {
      IoRow row;
      row.cell_id = c.key.id();
      row.label = cell_label(r, c);
      row.block_size = c.key.block_size;
      row.device = d.name;
      // MB/s is bytes per microsecond.
      row.raw_us = d.latency_us + block / d.mb_per_s;
      row.effective_us = d.latency_us + stored / d.mb_per_s + (is_reference(c) ? 0.0 : block / dm);
      row.speedup = row.raw_us / row.effective_us;
      rows.push_back(row);
    }
  }
  return rows;
}

std::vector<StoreRow> store_table(const RunResults& r) {
  if (r.summary && r.summary->pooled) return r.summary->pooled->impl_->stores.rows();
  StoreRows rows;
  for (const auto& c : r.cells) rows.add(r, c);
  return rows.rows();
}

PooledCells::PooledCells() : impl_(std::make_unique<Impl>()) {}
PooledCells::~PooledCells() = default;

void PooledCells::add(const RunResults& run, const CellResult& c) {
  add_to_group(impl_->groups, run, c, false);
  impl_->stores.add(run, c);
}

}  // namespace kvz
