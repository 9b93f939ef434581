// `check` over whole runs: each current cell judged against its baseline cell (check.cpp), the
// run-to-run noise over all of them, the baseline cells this run lacks, and the exit code. Rows
// are kept compact (check.h CompactCellCheck), so a million-cell check fits in a few hundred MB.
#include <cmath>

#include <fmt/format.h>

#include "judgement/check.h"
#include "judgement/check_parts.h"
#include "results/results_compact.h"
#include "results/shard_mark.h"
#include "util/stats.h"

namespace kvz {

static_assert(sizeof(CompactCellCheck) == 72, "a row of a million-cell check: keep it unpadded");

uint32_t NotePool::add(const std::string& text) {
  const auto [it, added] = index_.emplace(text, static_cast<uint32_t>(texts_.size()));
  if (added) texts_.push_back(text);
  return it->second;
}

namespace {

CompactSpeed compact(const SpeedVerdict& v, NotePool& notes) {
  return {v.status, v.compared, v.cpu_time, notes.add(v.note), v.slowdown, v.p};
}

SpeedVerdict expand(const CompactSpeed& v, const NotePool& notes) {
  SpeedVerdict out;
  out.status = v.status;
  out.slowdown = v.slowdown;
  out.p = v.p;
  out.note = notes[v.note];
  out.compared = v.compared;
  out.cpu_time = v.cpu_time;
  return out;
}

CompactCellCheck compact(const CellCheck& cc, uint32_t cell, NotePool& notes) {
  CompactCellCheck row;
  row.cell = cell;
  row.status = cc.status;
  row.size_status = cc.size_status;
  row.size_note = notes.add(cc.size_note);
  row.note = notes.add(cc.note);
  row.compress = compact(cc.compress, notes);
  row.decompress = compact(cc.decompress, notes);
  row.size_ratio = cc.size_ratio;
  return row;
}

// Whether speeds can compare at all (same CPU model, same build), and which codec libraries changed.
void compare_runs(const RunMeta& baseline, const RunMeta& current, const RunPair& runs, CheckReport& rep) {
  rep.cpu_match = !baseline.cpu_model.empty() && baseline.cpu_model == current.cpu_model;
  // A Debug or sanitizer build is not slower code, it is other code: speeds compare only
  // between builds of the same type and flags.
  rep.build_match = baseline.build_type == current.build_type && baseline.cxx_flags == current.cxx_flags;
  for (const auto& [codec, ver] : runs.cur_versions) {
    auto it = runs.base_versions.find(codec);
    if (it != runs.base_versions.end() && it->second != ver)
      rep.version_changes.push_back(codec + ": " + it->second + " -> " + ver);
  }
}

// Every current cell against the baseline's cell of its id; `matched` marks the baseline cells seen.
void judge_current(const CompactRun& base, const CompactRun& cur, const RunPair& runs, const CheckOptions& opt,
                   CompactCheckReport& rep, std::vector<bool>& matched) {
  rep.rows.reserve(cur.cells.size());
  for (size_t i = 0; i < cur.cells.size(); ++i) {
    const CellFacts c = cur.cells[i];
    const auto at = base.cells.find(c.id);
    CellFacts b;
    if (at) {
      matched[*at] = true;
      b = base.cells[*at];
    }
    const CellCheck cc = check_cell(runs, rep.summary, c, at ? &b : nullptr, opt);
    rep.rows.push_back(compact(cc, static_cast<uint32_t>(i), rep.notes));
  }
}

// Run-to-run noise: repetitions inside one run share its machine state, so the U test cannot
// see a whole run being slower for some cells (observed: 20 % on a busy 2-core machine while
// memcpy did not move). The scatter of the cells' slowdowns around their median estimates it
// (1.4826 x MAD, per direction); a FAIL must clear the threshold by two of those, else it is
// UNSTABLE. A uniform shift (every cell slower alike) has no scatter and still FAILs.
void apply_run_noise(CompactCheckReport& rep, bool compress, const CheckOptions& opt) {
  std::vector<double> s;
  for (const auto& row : rep.rows) {
    const auto& v = compress ? row.compress : row.decompress;
    if (v.compared) s.push_back(v.slowdown);
  }
  if (s.size() < 8) return;
  const double m = median(s);
  for (double& x : s) x = std::fabs(x - m);
  const double noise = 1.4826 * median(std::move(s));
  (compress ? rep.summary.compress_noise : rep.summary.decompress_noise) = noise;
  for (auto& row : rep.rows) {
    auto& v = compress ? row.compress : row.decompress;
    if (v.status != CheckStatus::Fail || v.slowdown > opt.slowdown_threshold + 2 * noise) continue;
    v.status = CheckStatus::Unstable;
    const std::string& note = rep.notes[v.note];
    v.note = rep.notes.add(
        note + fmt::format("{}within run-to-run noise (+-{:.1f} %)", note.empty() ? "" : "; ", noise * 100));
  }
}

// Baseline cells this run lacks: MISSING, or SKIPPED in a shard, which holds only its share
// of the cells (the rest are not missing, just elsewhere).
void add_missing(const CompactRun& base, const CompactRun& cur, const std::vector<bool>& matched,
                 CompactCheckReport& rep) {
  const auto shard = shard_of(cur.meta);  // a merged file is whole, whatever mark it kept
  const bool is_shard = shard.has_value();
  const uint32_t note = rep.notes.add(is_shard ? "not in shard " + shard->text() : "in the baseline, not in this run");
  for (size_t i = 0; i < base.cells.size(); ++i) {
    if (matched[*base.cells.find(base.cells[i].id)]) continue;  // by id: a repeated id is one cell
    CompactCellCheck row;
    row.cell = static_cast<uint32_t>(i);
    row.from_baseline = true;
    row.status = is_shard ? CheckStatus::Skipped : CheckStatus::Missing;
    row.note = note;
    rep.rows.push_back(row);
  }
}

// A block set a stop cut short (bench: partial_set) is no whole result, whatever meta says
// (a merge or an edit can lose `interrupted`).
bool has_partial_set(const CompactCells& cells) {
  for (size_t i = 0; i < cells.size(); ++i)
    if (cells[i].partial_set) return true;
  return false;
}

std::string refusal_of(const CompactRun& base, const CompactRun& cur, size_t compared) {
  if (cur.meta.interrupted) return "the current run was interrupted: its results are incomplete";
  if (base.meta.interrupted) return "the baseline run was interrupted: re-baseline from a full run";
  if (has_partial_set(cur.cells))
    return "the current run has block sets cut short (partial_set): its results are incomplete";
  if (has_partial_set(base.cells))
    return "the baseline has block sets cut short (partial_set): re-baseline from a full run";
  if (compared == 0) return "no cell of the current run is in the baseline: nothing was compared";
  return "";
}

// The exit code: 1 for a FAIL (or a MISSING with --fail-missing), and for a gate that compared
// nothing or compared a run cut short: it has not passed.
void settle_exit_code(const CompactRun& base, const CompactRun& cur, const CheckOptions& opt, CompactCheckReport& rep) {
  CheckReport& sum = rep.summary;
  for (const auto& r : rep.rows) sum.compared += r.size_status != CheckStatus::New && !rep.notes[r.size_note].empty();
  sum.exit_code = 0;
  for (const auto& r : rep.rows)
    if (r.status == CheckStatus::Fail || (r.status == CheckStatus::Missing && opt.fail_on_missing)) sum.exit_code = 1;
  sum.refusal = refusal_of(base, cur, sum.compared);
  if (!sum.refusal.empty()) sum.exit_code = 1;
}

}  // namespace

CellCheck CompactCheckReport::cell(size_t i) const {
  const CompactCellCheck& row = rows[i];
  CellCheck cc;
  cc.id = std::string((row.from_baseline ? baseline : current)->cells[row.cell].id);
  cc.status = row.status;
  cc.size_note = notes[row.size_note];
  cc.size_status = row.size_status;
  cc.compress = expand(row.compress, notes);
  cc.decompress = expand(row.decompress, notes);
  cc.note = notes[row.note];
  cc.size_ratio = row.size_ratio;
  return cc;
}

CompactCheckReport check_compact(const CompactRun& baseline, const CompactRun& current, const CheckOptions& opt) {
  CompactCheckReport rep;
  rep.baseline = &baseline;
  rep.current = &current;
  const RunPair runs{versions_of(baseline.meta), versions_of(current.meta), run_facts_of(baseline.cells),
                     run_facts_of(current.cells)};
  compare_runs(baseline.meta, current.meta, runs, rep.summary);
  std::vector<bool> matched(baseline.cells.size());
  judge_current(baseline, current, runs, opt, rep, matched);
  for (const bool compress : {true, false}) apply_run_noise(rep, compress, opt);
  for (auto& row : rep.rows) {
    if (!row.compress.compared && !row.decompress.compared) continue;
    row.status = worse(row.size_status, worse(row.compress.status, row.decompress.status));
  }
  add_missing(baseline, current, matched, rep);
  settle_exit_code(baseline, current, opt, rep);
  return rep;
}

}  // namespace kvz
