#include "bench/engine.h"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <optional>

#include "bench/cell.h"
#include "bench/cell_dict.h"
#include "bench/late_check.h"
#include "bench/latency_pass.h"
#include "bench/passes.h"
#include "bench/timer.h"

namespace kvz {

namespace {

CellKey make_key(const CellState& cell, const EngineOptions& opt) {
  const BlockSet& blocks = cell.group->blocks;
  CellKey k;
  k.source = blocks.source;
  k.record_mode = blocks.record_mode;
  k.layout = blocks.layout;
  k.block_size = blocks.block_size;
  k.codec = cell.codec->info().name;
  k.level = cell.params.level;
  k.params = cell.params.label();
  // The split study measures something else than the default per-file dictionary: its own id.
  if (cell.params.dict_size && opt.dict_method == "split" && !cell.current) k.params += ":split";
  k.dict_size = cell.params.dict_size;
  k.cache = opt.cache;
  k.threads = opt.threads;
  k.profile = cell.group->store ? cell.group->store->name : "";
  return k;
}

// The one place bench's figures become the result model. A failed cell keeps its sizes and
// its reason, no speeds or latencies.
CellResult to_result(const CellState& cell, const EngineOptions& opt) {
  static const DirectionFigures kNone{};
  const CellFigures& f = cell.figures;
  const SizeFigures& size = f.sizes;
  const DirectionFigures& comp = cell.ok ? f.dirs[0] : kNone;
  const DirectionFigures& decomp = cell.ok ? f.dirs[1] : kNone;
  return {.key = make_key(cell, opt),
          .status = cell.ok ? CellStatus::Ok : CellStatus::Failed,
          .failure = f.failure,
          .reference = cell.codec->info().is_reference,
          .current = cell.current,
          .on_disk_bytes = size.on_disk,
          .store_file_bytes = size.store_file,
          .store_file_parts = size.store_file_parts,
          .blocks = size.blocks,
          .input_bytes = size.input,
          .compressed_bytes = size.compressed,
          .stored_bytes = size.stored,
          .blocks_kept_raw = size.kept_raw,
          .records = size.records,
          .min_saving = size.min_saving,
          .compress_mbps = comp.wall_mbps,
          .decompress_mbps = decomp.wall_mbps,
          .compress_cpu_mbps = comp.cpu_mbps,
          .decompress_cpu_mbps = decomp.cpu_mbps,
          .compress_latency = comp.latency,
          .decompress_latency = decomp.latency,
          .compress_context_bytes = f.dirs[0].context_bytes,
          .decompress_context_bytes = f.dirs[1].context_bytes,
          .dict_bytes = f.dict.bytes,
          .dict_train_seconds = f.dict.train_seconds,
          .dict_method = f.dict.method,
          .dict_block_bytes = f.dict.block_bytes,
          .dict_gain = f.dict.gain,
          .wall_seconds = f.wall_seconds,
          .cpu_seconds = f.cpu_seconds};
}

// The late check's refined intrinsic figures in place of the cells'.
void apply_late_checks(const std::vector<LateCheck>& checks, std::vector<CellResult>& cells) {
  for (const LateCheck& check : checks) {
    CellResult& r = cells[check.result];
    LatencyStats* stats[2] = {&r.compress_latency, &r.decompress_latency};
    for (int d = 0; d < 2; ++d)
      if (check.dirs[d].refined) stats[d]->intrinsic = *check.dirs[d].refined;
  }
}

}  // namespace

void init_benchmark_library(bool random_interleaving) {
  static bool done = false;
  if (done) return;
  done = true;
  static std::string interleave =
      std::string("--benchmark_enable_random_interleaving=") + (random_interleaving ? "true" : "false");
  static char arg0[] = "kvzbench";
  char* argv[] = {arg0, interleave.data(), nullptr};
  int argc = 2;
  benchmark::Initialize(&argc, argv);
}

namespace {

// Progress in units: per cell, its preparation and every repetition of both directions.
struct Progress {
  const EngineHooks* hooks = nullptr;
  double per_cell = 1, done = 0, total = 0, t_start = 0;
  void report(const std::string& what) const {
    if (!hooks->progress) return;
    const double frac = total > 0 ? std::min(1.0, done / total) : 1.0;
    const double elapsed = wall_seconds() - t_start;
    hooks->progress(frac, frac > 0 ? elapsed * (1 - frac) / frac : 0, what);
  }
};

// The cells of group `gi` (all of them: a shard runs whole block sets).
std::vector<std::unique_ptr<CellState>> group_cells(const Matrix& matrix, size_t gi, const EngineOptions& opt,
                                                    const EngineHooks& hooks) {
  const BlockGroup& group = matrix.groups[gi];
  std::vector<std::unique_ptr<CellState>> cells;
  for (const MatrixCell& mc : matrix.cells) {
    if (mc.group != gi) continue;
    auto cell = std::make_unique<CellState>();
    cell->group = &group;
    cell->codec = mc.codec;
    cell->params = mc.params;
    cell->stop = hooks.stop;
    cell->current = mc.current;
    cell->id = make_key(*cell, opt).id();
    if (!opt.only_cells.empty() &&
        std::find(opt.only_cells.begin(), opt.only_cells.end(), cell->id) == opt.only_cells.end())
      continue;
    cells.push_back(std::move(cell));
  }
  return cells;
}

// A timed cell's result, or nothing (a skipped cell, or one stopped before a repetition finished
// in both directions). `whole` turns false when a cell is not kept with every repetition.
std::optional<CellResult> finish_cell(CellState& cell, const EngineOptions& opt, EngineOutcome& outcome, bool& whole) {
  const int reps = std::max(1, opt.repetitions);
  if (!cell.skipped.empty()) {
    outcome.warnings.push_back(fmt::format("{}: skipped: {}", cell.id, cell.skipped));
    return std::nullopt;
  }
  if (cell.cut_short) {
    whole = false;
    return std::nullopt;
  }
  if (cell.ok) {
    // Interrupted mid-batch (with interleaving, every cell of the batch is mid-way): a cell keeps
    // the repetitions that finished in both directions, and says so.
    const size_t c = cell.figures.dirs[0].wall_mbps.size(), d = cell.figures.dirs[1].wall_mbps.size();
    const bool all_reps = static_cast<int>(c) == reps && static_cast<int>(d) == reps;
    whole &= all_reps;
    if (c == 0 || d == 0) return std::nullopt;
    if (!all_reps)
      outcome.warnings.push_back(
          fmt::format("{}: interrupted: {} and {} of {} repetitions (compress, decompress)", cell.id, c, d, reps));
    finish_intrinsic(cell, opt);
    if (cell.pass_error) {
      cell.ok = false;
      cell.figures.failure = "a call failed inside a timed pass after the round trip had verified";
    }
  }
  return to_result(cell, opt);
}

// Every cell of a timed batch into the outcome (and the late checks). False when one is missing
// or short of repetitions.
bool collect_batch(const std::vector<CellState*>& batch, const EngineOptions& opt, const EngineHooks& hooks,
                   EngineOutcome& outcome, std::vector<LateCheck>& late_checks) {
  bool whole = true;
  for (CellState* cell : batch) {
    std::optional<CellResult> r = finish_cell(*cell, opt, outcome, whole);
    if (!r) continue;
    if (r->status == CellStatus::Failed) ++outcome.failed;
    outcome.cells.push_back(std::move(*r));
    LateCheck late;
    if (outcome.cells.back().status == CellStatus::Ok && make_late_check(*cell, outcome.cells.size() - 1, opt, late))
      late_checks.push_back(std::move(late));
    if (hooks.cell_done) hooks.cell_done(outcome.cells.back());
  }
  return whole;
}

// One block set, batch by batch, so a stop (a signal, `timeout`) keeps every batch that
// finished: with the whole set as one batch, `-c all` spent minutes verifying before its first
// pass and a stop kept nothing. A batch closes once its work reaches opt.batch_seconds (its
// preparation as measured plus its passes' budget): a default-sweep block set (20 rows, 4-8 s)
// stays one batch, interleaved as a whole. False when a stop cut the set short (some row
// missing or short of repetitions).
bool run_group(std::vector<std::unique_ptr<CellState>>& cells, const EngineOptions& opt, const EngineHooks& hooks,
               Progress& progress, EngineOutcome& outcome, std::vector<LateCheck>& late_checks) {
  DictCache dicts;
  bool whole = true;
  size_t next = 0;
  while (next < cells.size() && whole) {
    std::vector<CellState*> batch;
    const double t0 = wall_seconds(), units0 = progress.done;
    double passes = 0;
    auto room = [&] { return batch.empty() || wall_seconds() - t0 + passes < opt.batch_seconds; };
    while (next < cells.size() && room() && !stop_requested(hooks)) {
      CellState& cell = *cells[next++];
      progress.report("verifying " + cell.id);
      prepare_cell(cell, dicts, opt);  // only verified cells get passes
      progress.done += 1;
      passes += passes_seconds(cell, opt);
      batch.push_back(&cell);
    }
    // Stopped while verifying: the batch's passes never ran (its failed cells are still results).
    if (!stop_requested(hooks)) {
      const double end = units0 + progress.per_cell * static_cast<double>(batch.size());
      const std::string what = "measuring " + cells.front()->group->blocks.source;
      time_batch(batch, opt, hooks, [&] {
        progress.done = std::min(progress.done + 1.0, end);
        progress.report(what);
      });
      progress.done = end;
    }
    whole &= collect_batch(batch, opt, hooks, outcome, late_checks);
    whole &= !stop_requested(hooks) || next == cells.size();
  }
  outcome.warnings.insert(outcome.warnings.end(), dicts.notes.begin(), dicts.notes.end());
  return whole;
}

// A block set a stop cut short: its kept cells say so, and a warning names it.
void mark_partial(const BlockSet& set, size_t rows, size_t first, EngineOutcome& outcome) {
  if (first == outcome.cells.size()) return;  // nothing of it kept: the set is not in the results
  for (size_t i = first; i < outcome.cells.size(); ++i) outcome.cells[i].partial_set = true;
  outcome.warnings.push_back(fmt::format("{} ({} {}B): block set cut short: {} of {} rows kept, marked partial_set",
                                         set.source, set.layout, set.block_size, outcome.cells.size() - first, rows));
}

}  // namespace

EngineOutcome run_matrix(const Matrix& matrix, const EngineOptions& opt, const EngineHooks& hooks) {
  init_benchmark_library(opt.random_interleaving);
  tick_clock_info();  // calibrate before any timing
  EngineOutcome outcome;
  const std::vector<int> shard_of = assign_shards(matrix, opt);
  size_t shard_cells = 0;
  for (const MatrixCell& c : matrix.cells) shard_cells += shard_of[c.group] == opt.shard_index;
  Progress progress{&hooks, 1.0 + 2.0 * std::max(1, opt.repetitions), 0, 0, wall_seconds()};
  progress.total = progress.per_cell * static_cast<double>(shard_cells);

  std::vector<LateCheck> late_checks;  // each cell's slowest blocks, called again at the end
  for (size_t gi = 0; gi < matrix.groups.size() && !outcome.interrupted; ++gi) {
    if (shard_of[gi] != opt.shard_index) continue;
    std::vector<std::unique_ptr<CellState>> cells = group_cells(matrix, gi, opt, hooks);
    if (cells.empty()) continue;
    const size_t first = outcome.cells.size();
    if (!run_group(cells, opt, hooks, progress, outcome, late_checks))
      mark_partial(matrix.groups[gi].blocks, cells.size(), first, outcome);
    progress.done = progress.per_cell * static_cast<double>(outcome.cells.size());
    outcome.interrupted = stop_requested(hooks);
  }
  if (!outcome.interrupted && !late_checks.empty()) {
    progress.report("late check: the slow cells' blocks once more");
    run_late_checks(late_checks, opt, hooks.stop);
    apply_late_checks(late_checks, outcome.cells);
  }
  return outcome;
}

}  // namespace kvz
