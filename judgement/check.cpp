// `check`: a run against a baseline. Sizes must not change, round trips must not fail,
// and a speed only FAILs when the slowdown is both large and statistically clear.
#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <ostream>
#include <set>

#include <fmt/format.h>

#include "judgement/analysis.h"
#include "judgement/check.h"
#include "results/results.h"
#include "util/stats.h"

namespace kvz {
namespace {

// Per status, in enum order: its name and how much it weighs when statuses combine.
struct StatusRow {
  const char* name;
  int severity;
};
constexpr StatusRow kStatusRows[] = {{"PASS", 1},    {"FAIL", 5}, {"UNSTABLE", 4},
                                     {"SKIPPED", 2}, {"NEW", 0},  {"MISSING", 0}};

static_assert(std::size(kStatusRows) == static_cast<size_t>(CheckStatus::Missing) + 1, "one row per status");

int severity(CheckStatus s) { return kStatusRows[static_cast<int>(s)].severity; }

}  // namespace

const char* to_string(CheckStatus s) { return kStatusRows[static_cast<int>(s)].name; }

const std::vector<double>& cell_speeds(const CellResult& c, bool compress, bool cpu) {
  if (cpu) return compress ? c.compress_cpu_mbps : c.decompress_cpu_mbps;
  return compress ? c.compress_mbps : c.decompress_mbps;
}

namespace {

CheckStatus worse(CheckStatus a, CheckStatus b) { return severity(a) >= severity(b) ? a : b; }

std::map<std::string, std::string> versions_of(const RunMeta& m) {
  std::map<std::string, std::string> v;
  for (const auto& cv : m.codec_versions) v[cv.codec] = cv.library + " " + cv.version;
  return v;
}

// The run's memcpy speed: the geometric mean over its memcpy rows of each row's median (both
// directions pooled: both are the same copy). Run-wide rather than per block set, because one
// small-block memcpy row is the noisiest figure of a run on a busy machine (it lives in L1/L2).
double memcpy_speed(const RunResults& r, bool cpu) {
  std::vector<double> medians;
  for (const auto& m : r.cells) {
    if (!is_reference(m) || m.status != CellStatus::Ok) continue;
    std::vector<double> pooled = cell_speeds(m, true, cpu);
    const auto& d = cell_speeds(m, false, cpu);
    pooled.insert(pooled.end(), d.begin(), d.end());
    if (!pooled.empty()) medians.push_back(median(pooled));
  }
  return geomean(medians);
}

// What judging a cell needs of its whole run, computed once per run (per cell, it made
// `check` quadratic in cells: > 60 s at 40,000).
struct RunFacts {
  double memcpy_wall = 0, memcpy_cpu = 0;
  bool references_have_cpu = true;  // every OK reference row has CPU-time speeds
};

bool has_full_cpu_speeds(const CellResult& x) {
  return !x.compress_cpu_mbps.empty() && x.compress_cpu_mbps.size() == x.compress_mbps.size() &&
         x.decompress_cpu_mbps.size() == x.decompress_mbps.size();
}

RunFacts facts_of(const RunResults& r) {
  RunFacts f;
  f.memcpy_wall = memcpy_speed(r, false);
  f.memcpy_cpu = memcpy_speed(r, true);
  for (const auto& m : r.cells)
    if (is_reference(m) && m.status == CellStatus::Ok && !has_full_cpu_speeds(m)) f.references_have_cpu = false;
  return f;
}

// Per-repetition speeds divided by the run's memcpy speed, so a uniformly faster or slower
// machine state cancels out.
std::vector<double> normalised(const RunFacts& r, const CellResult& c, bool compress, bool cpu, bool& ok) {
  const double ref = cpu ? r.memcpy_cpu : r.memcpy_wall;
  ok = ref > 0;
  std::vector<double> out;
  for (double x : cell_speeds(c, compress, cpu)) out.push_back(ok ? x / ref : x);
  return out;
}

// A block set a stop cut short (bench: partial_set) is no whole result, whatever meta says
// (a merge or an edit can lose `interrupted`).
bool has_partial_set(const RunResults& r) {
  return std::any_of(r.cells.begin(), r.cells.end(), [](const CellResult& c) { return c.partial_set; });
}

bool has_cpu_speeds(const RunFacts& r, const CellResult& c) { return has_full_cpu_speeds(c) && r.references_have_cpu; }

// The verdict on one pair of samples (baseline b, current c).
CheckStatus judge_samples(const std::vector<double>& b, const std::vector<double>& c, const CheckOptions& opt,
                          double& slowdown, double& p) {
  const double bm = median(b);
  slowdown = 1.0 - median(c) / bm;
  p = mann_whitney_less(c, b).p;
  // The spread, as slowdowns: at best the current's upper quartile against the baseline's lower
  // quartile (both runs' noise), at worst the current's lower quartile against the baseline median.
  const double spread_lo = 1.0 - quantile(c, 0.75) / quantile(b, 0.25);
  const double spread_hi = 1.0 - quantile(c, 0.25) / bm;
  const bool enough = b.size() >= opt.min_repetitions && c.size() >= opt.min_repetitions;
  if (enough && spread_lo > opt.slowdown_threshold && p < opt.p_value) return CheckStatus::Fail;
  if (spread_hi > opt.slowdown_threshold) return CheckStatus::Unstable;  // straddles, p too large, too few
  return CheckStatus::Pass;
}

SpeedVerdict judge_speed(const RunFacts& base_run, const CellResult& base, const RunFacts& cur_run,
                         const CellResult& cur, bool compress, const CheckOptions& opt) {
  SpeedVerdict v;
  bool base_norm = false, cur_norm = false;
  const bool cpu = opt.use_cpu_time && has_cpu_speeds(base_run, base) && has_cpu_speeds(cur_run, cur);
  v.cpu_time = cpu;
  const auto b = normalised(base_run, base, compress, cpu, base_norm);
  const auto c = normalised(cur_run, cur, compress, cpu, cur_norm);
  auto add_note = [&](const std::string& n) { v.note += (v.note.empty() ? "" : "; ") + n; };
  if (!cpu) add_note("wall time");
  if (b.empty() || c.empty()) {
    v.status = CheckStatus::Skipped;
    v.note = "no speeds";
    return v;
  }
  v.compared = true;
  if (base_norm != cur_norm) {
    // One run lacks a usable memcpy row (a shard, an old file): compare the raw speeds, which
    // are comparable on the same CPU and build; normalising only one side would not be.
    v.status = judge_samples(cell_speeds(base, compress, cpu), cell_speeds(cur, compress, cpu), opt, v.slowdown, v.p);
    add_note("memcpy row in only one run: raw speeds");
    return v;
  }
  v.status = judge_samples(b, c, opt, v.slowdown, v.p);
  if (!cur_norm) add_note("no memcpy row: not normalised");
  if (b.size() < opt.min_repetitions || c.size() < opt.min_repetitions)
    add_note(fmt::format("{} vs {} repetitions (< {}): cannot FAIL", b.size(), c.size(), opt.min_repetitions));
  if (v.status == CheckStatus::Fail && cur_norm) {
    // Normalising cancels a whole-machine change but adds the memcpy row's own noise. A codec
    // regression shows in the raw speeds too (the gate only runs on the same CPU model), so
    // FAIL needs both; a change seen only after normalising is UNSTABLE.
    double raw_slowdown = 0, raw_p = 1;
    const auto& rb = cell_speeds(base, compress, cpu);
    const auto& rc = cell_speeds(cur, compress, cpu);
    if (judge_samples(rb, rc, opt, raw_slowdown, raw_p) != CheckStatus::Fail) {
      v.status = CheckStatus::Unstable;
      add_note(fmt::format("raw speed {:+.1f} %: not a FAIL before normalising", -raw_slowdown * 100));
    }
  }
  return v;
}

// What judging the cells needs of both runs, computed once.
struct RunPair {
  std::map<std::string, std::string> base_versions, cur_versions;  // codec -> "library version"
  RunFacts base_facts, cur_facts;
  std::map<std::string, const CellResult*> base_cells;  // by id
};

// Whether speeds can compare at all (same CPU model, same build), and which codec libraries changed.
void compare_runs(const RunResults& baseline, const RunResults& current, const RunPair& runs, CheckReport& rep) {
  rep.cpu_match = !baseline.meta.cpu_model.empty() && baseline.meta.cpu_model == current.meta.cpu_model;
  // A Debug or sanitizer build is not slower code, it is other code: speeds compare only
  // between builds of the same type and flags.
  rep.build_match =
      baseline.meta.build_type == current.meta.build_type && baseline.meta.cxx_flags == current.meta.cxx_flags;
  for (const auto& [codec, ver] : runs.cur_versions) {
    auto it = runs.base_versions.find(codec);
    if (it != runs.base_versions.end() && it->second != ver)
      rep.version_changes.push_back(codec + ": " + it->second + " -> " + ver);
  }
}

// Sizes: equal under the same library version; under another, a ratio loss within tolerance.
void check_sizes(const RunPair& runs, const CellResult& base, const CellResult& cur, const CheckOptions& opt,
                 CellCheck& cc) {
  const auto& bv = runs.base_versions;
  const auto& cv = runs.cur_versions;
  const bool same_lib = bv.count(cur.key.codec) == cv.count(cur.key.codec) &&
                        (!cv.count(cur.key.codec) || bv.at(cur.key.codec) == cv.at(cur.key.codec));
  cc.size_ratio = base.compressed_bytes
                      ? static_cast<double>(cur.compressed_bytes) / static_cast<double>(base.compressed_bytes)
                      : 0;
  if (cur.input_bytes != base.input_bytes) {
    cc.status = cc.size_status = CheckStatus::Fail;
    cc.size_note = "input differs";
    cc.note =
        fmt::format("input bytes {} vs baseline {}: the data changed, re-baseline", cur.input_bytes, base.input_bytes);
  } else if (same_lib) {
    if (cur.compressed_bytes == base.compressed_bytes && cur.stored_bytes == base.stored_bytes) {
      cc.size_note = "=";
      return;
    }
    cc.status = cc.size_status = CheckStatus::Fail;
    cc.size_note = fmt::format("{:+.3f} %", (cc.size_ratio - 1) * 100);
    cc.note = fmt::format("compressed {} vs baseline {}, stored {} vs {} (same library version: must be equal)",
                          cur.compressed_bytes, base.compressed_bytes, cur.stored_bytes, base.stored_bytes);
  } else {
    const double loss = 1.0 - cur.ratio() / base.ratio();
    cc.size_note = fmt::format("{:+.3f} %", (cc.size_ratio - 1) * 100);
    if (loss <= opt.ratio_tolerance) return;
    cc.status = cc.size_status = CheckStatus::Fail;
    cc.note = fmt::format("ratio {:.4f} vs baseline {:.4f}: loss {:.2f} % > {:.2f} % (library version changed)",
                          cur.ratio(), base.ratio(), loss * 100, opt.ratio_tolerance * 100);
  }
}

// Speeds: the reference passes, a gate that cannot compare skips, else both directions judged.
void check_speeds(const RunPair& runs, const CheckReport& rep, const CellResult& base, const CellResult& cur,
                  const CheckOptions& opt, CellCheck& cc) {
  if (is_reference(cur)) {
    cc.compress.note = cc.decompress.note = "reference";
    cc.compress.status = cc.decompress.status = CheckStatus::Pass;
  } else if (!opt.speed_gate || !rep.cpu_match || !rep.build_match) {
    cc.compress.note = cc.decompress.note = !opt.speed_gate  ? "speed gate off"
                                            : !rep.cpu_match ? "CPU differs"
                                                             : "build differs";
    cc.status = worse(cc.status, CheckStatus::Skipped);
  } else {
    cc.compress = judge_speed(runs.base_facts, base, runs.cur_facts, cur, true, opt);
    cc.decompress = judge_speed(runs.base_facts, base, runs.cur_facts, cur, false, opt);
    cc.status = worse(cc.status, worse(cc.compress.status, cc.decompress.status));
  }
}

// One cell of the current run: a failed round trip, a cell new to the baseline, or its sizes
// and speeds against the baseline's.
CellCheck check_cell(const RunPair& runs, const CheckReport& rep, const CellResult& cur, const CheckOptions& opt) {
  CellCheck cc;
  cc.id = cur.key.id();
  const auto it = runs.base_cells.find(cc.id);
  if (cur.status != CellStatus::Ok) {
    cc.status = CheckStatus::Fail;
    cc.note = "round trip failed: " + cur.failure;
  } else if (it == runs.base_cells.end()) {
    cc.status = CheckStatus::New;
    cc.note = "not in the baseline";
  } else if (it->second->status != CellStatus::Ok) {
    cc.status = CheckStatus::New;
    cc.note = "baseline cell had failed; now OK";
  } else {
    check_sizes(runs, *it->second, cur, opt, cc);
    check_speeds(runs, rep, *it->second, cur, opt, cc);
  }
  return cc;
}

// Run-to-run noise: repetitions inside one run share its machine state, so the U test cannot
// see a whole run being slower for some cells (observed: 20 % on a busy 2-core machine while
// memcpy did not move). The scatter of the cells' slowdowns around their median estimates it
// (1.4826 x MAD, per direction); a FAIL must clear the threshold by two of those, else it is
// UNSTABLE. A uniform shift (every cell slower alike) has no scatter and still FAILs.
void apply_run_noise(CheckReport& rep, bool compress, const CheckOptions& opt) {
  std::vector<double> s;
  for (const auto& cc : rep.cells) {
    const auto& v = compress ? cc.compress : cc.decompress;
    if (v.compared) s.push_back(v.slowdown);
  }
  if (s.size() < 8) return;
  const double m = median(s);
  std::vector<double> dev;
  for (double x : s) dev.push_back(std::fabs(x - m));
  const double noise = 1.4826 * median(dev);
  (compress ? rep.compress_noise : rep.decompress_noise) = noise;
  for (auto& cc : rep.cells) {
    auto& v = compress ? cc.compress : cc.decompress;
    if (v.status != CheckStatus::Fail || v.slowdown > opt.slowdown_threshold + 2 * noise) continue;
    v.status = CheckStatus::Unstable;
    v.note += fmt::format("{}within run-to-run noise (+-{:.1f} %)", v.note.empty() ? "" : "; ", noise * 100);
  }
}

// Baseline cells this run lacks: MISSING, or SKIPPED in a shard, which holds only its share
// of the cells (the rest are not missing, just elsewhere).
void add_missing(const RunResults& baseline, const RunResults& current, CheckReport& rep) {
  std::set<std::string> seen;
  for (const auto& c : current.cells) seen.insert(c.key.id());
  const auto shard = current.meta.extra.find("shard");
  const bool is_shard = shard != current.meta.extra.end();
  for (const auto& c : baseline.cells) {
    if (seen.count(c.key.id())) continue;
    CellCheck cc;
    cc.id = c.key.id();
    cc.status = is_shard ? CheckStatus::Skipped : CheckStatus::Missing;
    cc.note = is_shard ? "not in shard " + shard->second : "in the baseline, not in this run";
    rep.cells.push_back(cc);
  }
}

// The exit code: 1 for a FAIL (or a MISSING with --fail-missing), and for a gate that compared
// nothing or compared a run cut short: it has not passed.
void settle_exit_code(const RunResults& baseline, const RunResults& current, const CheckOptions& opt,
                      CheckReport& rep) {
  for (const auto& c : rep.cells) rep.compared += c.size_status != CheckStatus::New && !c.size_note.empty();
  rep.exit_code = 0;
  for (const auto& c : rep.cells) {
    if (c.status == CheckStatus::Fail || (c.status == CheckStatus::Missing && opt.fail_on_missing)) rep.exit_code = 1;
  }
  if (current.meta.interrupted)
    rep.refusal = "the current run was interrupted: its results are incomplete";
  else if (baseline.meta.interrupted)
    rep.refusal = "the baseline run was interrupted: re-baseline from a full run";
  else if (has_partial_set(current))
    rep.refusal = "the current run has block sets cut short (partial_set): its results are incomplete";
  else if (has_partial_set(baseline))
    rep.refusal = "the baseline has block sets cut short (partial_set): re-baseline from a full run";
  else if (rep.compared == 0)
    rep.refusal = "no cell of the current run is in the baseline: nothing was compared";
  if (!rep.refusal.empty()) rep.exit_code = 1;
}

}  // namespace

CheckReport check_cells(const RunResults& baseline, const RunResults& current, const CheckOptions& opt) {
  RunPair runs{versions_of(baseline.meta), versions_of(current.meta), facts_of(baseline), facts_of(current), {}};
  for (const auto& c : baseline.cells) runs.base_cells[c.key.id()] = &c;
  CheckReport rep;
  compare_runs(baseline, current, runs, rep);
  for (const auto& cur : current.cells) rep.cells.push_back(check_cell(runs, rep, cur, opt));
  for (const bool compress : {true, false}) apply_run_noise(rep, compress, opt);
  for (auto& cc : rep.cells) {
    if (!cc.compress.compared && !cc.decompress.compared) continue;
    cc.status = worse(cc.size_status, worse(cc.compress.status, cc.decompress.status));
  }
  add_missing(baseline, current, rep);
  settle_exit_code(baseline, current, opt, rep);
  return rep;
}

int check_results(const RunResults& baseline, const RunResults& current, const CheckOptions& opt, std::ostream& out) {
  const CheckReport rep = check_cells(baseline, current, opt);
  print_check_text(baseline.meta, current.meta, opt, rep, out);
  return rep.exit_code;
}

}  // namespace kvz
