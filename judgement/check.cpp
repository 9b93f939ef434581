// `check`: a run against a baseline. Sizes must not change, round trips must not fail,
// and a speed only FAILs when the slowdown is both large and statistically clear. This file
// judges one cell; check_compact.cpp the run around it.
#include <cmath>
#include <iterator>
#include <ostream>

#include <fmt/format.h>

#include "judgement/check.h"
#include "judgement/check_parts.h"
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

CheckStatus worse(CheckStatus a, CheckStatus b) { return severity(a) >= severity(b) ? a : b; }

namespace {

std::vector<double> speeds_of(const CellFacts& c, bool compress, bool cpu) {
  const std::span<const double> s =
      cpu ? (compress ? c.compress_cpu_mbps : c.decompress_cpu_mbps) : (compress ? c.compress_mbps : c.decompress_mbps);
  return {s.begin(), s.end()};
}

bool has_full_cpu_speeds(const CellFacts& x) {
  return !x.compress_cpu_mbps.empty() && x.compress_cpu_mbps.size() == x.compress_mbps.size() &&
         x.decompress_cpu_mbps.size() == x.decompress_mbps.size();
}

// The run's memcpy speed: the geometric mean over its memcpy rows of each row's median (both
// directions pooled: both are the same copy). Run-wide rather than per block set, because one
// small-block memcpy row is the noisiest figure of a run on a busy machine (it lives in L1/L2).
double memcpy_speed(const CompactCells& cells, bool cpu) {
  std::vector<double> medians;
  for (size_t i = 0; i < cells.size(); ++i) {
    const CellFacts m = cells[i];
    if (!m.reference || !m.ok) continue;
    std::vector<double> pooled = speeds_of(m, true, cpu);
    const auto d = speeds_of(m, false, cpu);
    pooled.insert(pooled.end(), d.begin(), d.end());
    if (!pooled.empty()) medians.push_back(median(pooled));
  }
  return geomean(medians);
}

// Per-repetition speeds divided by the run's memcpy speed, so a uniformly faster or slower
// machine state cancels out.
std::vector<double> normalised(const RunFacts& r, const CellFacts& c, bool compress, bool cpu, bool& ok) {
  const double ref = cpu ? r.memcpy_cpu : r.memcpy_wall;
  ok = ref > 0;
  std::vector<double> out = speeds_of(c, compress, cpu);
  if (ok)
    for (double& x : out) x /= ref;
  return out;
}

bool has_cpu_speeds(const RunFacts& r, const CellFacts& c) { return has_full_cpu_speeds(c) && r.references_have_cpu; }

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

void add_note(SpeedVerdict& v, const std::string& n) { v.note += (v.note.empty() ? "" : "; ") + n; }

// Normalising cancels a whole-machine change but adds the memcpy row's own noise. A codec
// regression shows in the raw speeds too (the gate only runs on the same CPU model), so FAIL
// needs both; a change seen only after normalising is UNSTABLE.
void confirm_on_raw_speeds(const CellFacts& base, const CellFacts& cur, bool compress, bool cpu,
                           const CheckOptions& opt, SpeedVerdict& v) {
  double raw_slowdown = 0, raw_p = 1;
  if (judge_samples(speeds_of(base, compress, cpu), speeds_of(cur, compress, cpu), opt, raw_slowdown, raw_p) ==
      CheckStatus::Fail)
    return;
  v.status = CheckStatus::Unstable;
  add_note(v, fmt::format("raw speed {:+.1f} %: not a FAIL before normalising", -raw_slowdown * 100));
}

SpeedVerdict judge_speed(const RunFacts& base_run, const CellFacts& base, const RunFacts& cur_run, const CellFacts& cur,
                         bool compress, const CheckOptions& opt) {
  SpeedVerdict v;
  bool base_norm = false, cur_norm = false;
  const bool cpu = opt.use_cpu_time && has_cpu_speeds(base_run, base) && has_cpu_speeds(cur_run, cur);
  v.cpu_time = cpu;
  const auto b = normalised(base_run, base, compress, cpu, base_norm);
  const auto c = normalised(cur_run, cur, compress, cpu, cur_norm);
  if (!cpu) add_note(v, "wall time");
  if (b.empty() || c.empty()) {
    v.status = CheckStatus::Skipped;
    v.note = "no speeds";
    return v;
  }
  v.compared = true;
  if (base_norm != cur_norm) {
    // One run lacks a usable memcpy row (a shard, an old file): compare the raw speeds, which
    // are comparable on the same CPU and build; normalising only one side would not be.
    v.status = judge_samples(speeds_of(base, compress, cpu), speeds_of(cur, compress, cpu), opt, v.slowdown, v.p);
    add_note(v, "memcpy row in only one run: raw speeds");
    return v;
  }
  v.status = judge_samples(b, c, opt, v.slowdown, v.p);
  if (!cur_norm) add_note(v, "no memcpy row: not normalised");
  if (b.size() < opt.min_repetitions || c.size() < opt.min_repetitions)
    add_note(v, fmt::format("{} vs {} repetitions (< {}): cannot FAIL", b.size(), c.size(), opt.min_repetitions));
  if (v.status == CheckStatus::Fail && cur_norm) confirm_on_raw_speeds(base, cur, compress, cpu, opt, v);
  return v;
}

// A size change under another library version: a ratio loss within tolerance passes.
void check_ratio_loss(const CellFacts& base, const CellFacts& cur, const CheckOptions& opt, CellCheck& cc) {
  const double loss = 1.0 - cur.ratio() / base.ratio();
  cc.size_note = fmt::format("{:+.3f} %", (cc.size_ratio - 1) * 100);
  if (loss <= opt.ratio_tolerance) return;
  cc.status = cc.size_status = CheckStatus::Fail;
  cc.note = fmt::format("ratio {:.4f} vs baseline {:.4f}: loss {:.2f} % > {:.2f} % (library version changed)",
                        cur.ratio(), base.ratio(), loss * 100, opt.ratio_tolerance * 100);
}

// Sizes: equal under the same library version; under another, a ratio loss within tolerance.
void check_sizes(const RunPair& runs, const CellFacts& base, const CellFacts& cur, const CheckOptions& opt,
                 CellCheck& cc) {
  const auto b = runs.base_versions.find(cur.codec);
  const auto c = runs.cur_versions.find(cur.codec);
  const bool in_base = b != runs.base_versions.end(), in_cur = c != runs.cur_versions.end();
  const bool same_lib = in_base == in_cur && (!in_cur || b->second == c->second);
  cc.size_ratio = base.compressed_bytes
                      ? static_cast<double>(cur.compressed_bytes) / static_cast<double>(base.compressed_bytes)
                      : 0;
  if (cur.input_bytes != base.input_bytes) {
    cc.status = cc.size_status = CheckStatus::Fail;
    cc.size_note = "input differs";
    cc.note =
        fmt::format("input bytes {} vs baseline {}: the data changed, re-baseline", cur.input_bytes, base.input_bytes);
  } else if (!same_lib) {
    check_ratio_loss(base, cur, opt, cc);
  } else if (cur.compressed_bytes == base.compressed_bytes && cur.stored_bytes == base.stored_bytes) {
    cc.size_note.assign(1, '=');  // not = "=": GCC 12 misreads it here as an overlapping copy (-Wrestrict)
  } else {
    cc.status = cc.size_status = CheckStatus::Fail;
    cc.size_note = fmt::format("{:+.3f} %", (cc.size_ratio - 1) * 100);
    cc.note = fmt::format("compressed {} vs baseline {}, stored {} vs {} (same library version: must be equal)",
                          cur.compressed_bytes, base.compressed_bytes, cur.stored_bytes, base.stored_bytes);
  }
}

// Speeds: the reference passes, a gate that cannot compare skips, else both directions judged.
void check_speeds(const RunPair& runs, const CheckReport& rep, const CellFacts& base, const CellFacts& cur,
                  const CheckOptions& opt, CellCheck& cc) {
  if (cur.reference) {
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

}  // namespace

RunFacts run_facts_of(const CompactCells& cells) {
  RunFacts f;
  f.memcpy_wall = memcpy_speed(cells, false);
  f.memcpy_cpu = memcpy_speed(cells, true);
  for (size_t i = 0; i < cells.size(); ++i) {
    const CellFacts m = cells[i];
    if (m.reference && m.ok && !has_full_cpu_speeds(m)) f.references_have_cpu = false;
  }
  return f;
}

CodecVersions versions_of(const RunMeta& m) {
  CodecVersions v;
  for (const auto& cv : m.codec_versions) v[cv.codec] = cv.library + " " + cv.version;
  return v;
}

// One cell of the current run: a failed round trip, a cell new to the baseline, or its sizes
// and speeds against the baseline's.
CellCheck check_cell(const RunPair& runs, const CheckReport& rep, const CellFacts& cur, const CellFacts* base,
                     const CheckOptions& opt) {
  CellCheck cc;
  cc.id = std::string(cur.id);
  if (!cur.ok) {
    cc.status = CheckStatus::Fail;
    cc.note = "round trip failed: " + std::string(cur.failure);
  } else if (!base) {
    cc.status = CheckStatus::New;
    cc.note = "not in the baseline";
  } else if (!base->ok) {
    cc.status = CheckStatus::New;
    cc.note = "baseline cell had failed; now OK";
  } else {
    check_sizes(runs, *base, cur, opt, cc);
    check_speeds(runs, rep, *base, cur, opt, cc);
  }
  return cc;
}

CheckReport check_cells(const RunResults& baseline, const RunResults& current, const CheckOptions& opt) {
  const CompactRun base = compact_run(baseline), cur = compact_run(current);
  const CompactCheckReport compact = check_compact(base, cur, opt);
  CheckReport rep = compact.summary;
  rep.cells.reserve(compact.size());
  for (size_t i = 0; i < compact.size(); ++i) rep.cells.push_back(compact.cell(i));
  return rep;
}

int check_results(const RunResults& baseline, const RunResults& current, const CheckOptions& opt, std::ostream& out) {
  const CheckReport rep = check_cells(baseline, current, opt);
  print_check_text(baseline.meta, current.meta, opt, rep, out);
  return rep.exit_code;
}

}  // namespace kvz
