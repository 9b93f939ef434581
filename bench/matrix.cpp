#include "bench/matrix.h"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <memory>

#include "bench/cell.h"
#include "bench/late_check.h"
#include "bench/timer.h"

namespace kvz {

namespace {

const char* direction_name(Direction d) { return d == Direction::Compress ? "compress" : "decompress"; }

// Everything the benchmark lambdas of one group share. Lives until the group is done.
struct GroupRun {
  const EngineOptions* opt = nullptr;
  const EngineHooks* hooks = nullptr;
  std::vector<std::unique_ptr<CellState>> cells;
  std::vector<std::vector<uint8_t>> scratch;     // per worker output buffer
  std::vector<std::vector<uint8_t>> cold_arena;  // per worker cold copies
  std::map<std::string, std::pair<size_t, Direction>> by_name;
  std::function<void()> tick;  // progress, called from worker 0
  double min_time = 0;         // GB min_time of one repetition
};

// Where a repetition without warm-up starts its pass (see run_pass): a prime, so successive
// repetitions start far apart whatever the block count.
constexpr size_t kRotateStride = 7919;

bool stop_requested(const EngineHooks& h) { return h.stop && h.stop->load(std::memory_order_relaxed); }

// The timed loop of one GB entry: whole passes over `jobs`. The interrupt flag is read once
// per pass, and with kCheckEachCall after every call too (see run_pass). With kTimeEachCall
// each call is also timed alone into `times` (slow calls only: see kTimedPassCallSeconds).
template <bool kCheckEachCall, bool kTimeEachCall, class Call>
void timed_loop(benchmark::State& state, const std::vector<Job>& jobs, const std::atomic<bool>& stop, bool& failed,
                BlockTimes& times, Call call) {
  for (auto _ : state) {
    for (const Job& j : jobs) {
      if constexpr (kTimeEachCall) {
        const uint64_t t0 = read_ticks();
        const CallResult r = call(j);
        const uint64_t ticks = read_ticks() - t0;
        if (j.block < times.fastest.size()) times.add(j.block, ticks);
        failed |= !r.ok();
        benchmark::DoNotOptimize(r.size);
      } else {
        const CallResult r = call(j);
        failed |= !r.ok();
        benchmark::DoNotOptimize(r.size);
      }
      if constexpr (kCheckEachCall) {
        if (stop.load(std::memory_order_relaxed)) break;
      }
    }
    if (stop.load(std::memory_order_relaxed)) {
      state.SkipWithError("interrupted");
      break;
    }
  }
}

// One GB entry = one or more whole passes; GB reads its clocks only around the loop.
void run_pass(benchmark::State& state, GroupRun& g, size_t ci, Direction dir) {
  CellState& cell = *g.cells[ci];
  if (stop_requested(*g.hooks)) {
    state.SkipWithError("interrupted");
    // Entering the loop (it runs no iteration) makes GB report this repetition with the
    // same iteration count as the others, which its statistics code insists on.
    for (auto _ : state) {
    }
    return;
  }
  const int w = state.thread_index();
  const int workers = state.threads();
  if (w == 0) {
    ++cell.entries[static_cast<int>(dir)];
    if (g.tick) g.tick();
  }
  std::vector<Job> jobs = make_jobs(cell, dir, w, workers, *g.opt, g.cold_arena[static_cast<size_t>(w)]);
  uint64_t bytes = 0;
  for (const Job& j : jobs) bytes += dir == Direction::Compress ? j.in_size : j.out_size;
  cell.pass_bytes[static_cast<int>(dir)][static_cast<size_t>(w)] = bytes;
  Session& s = *cell.sessions[static_cast<size_t>(w)];
  std::vector<uint8_t>& out = g.scratch[static_cast<size_t>(w)];
  if (out.size() < cell.scratch_bytes) out.resize(cell.scratch_bytes);
  bool failed = false;
  static const std::atomic<bool> kNever{false};
  const std::atomic<bool>& stop = g.hooks->stop ? *g.hooks->stop : kNever;
  // Warm-up: one untimed pass so caches and branch predictors hold this cell, not the cell
  // interleaving ran before it (GB times only the loop below). Cold mode wants them cold.
  // A pass much longer than a GB repetition gains nothing from it and only costs time.
  const double est_pass = cell.est_call_seconds[static_cast<int>(dir)] * static_cast<double>(jobs.size());
  if (g.opt->cache != "cold" && est_pass < g.min_time) {
    for (const Job& j : jobs) {
      const CallResult r = dir == Direction::Compress
                               ? s.compress(ByteView(j.in, j.in_size), MutableByteView(out.data(), cell.scratch_bytes))
                               : s.decompress(ByteView(j.in, j.in_size), MutableByteView(out.data(), j.out_size));
      failed |= !r.ok();
    }
  } else if (w == 0 && jobs.size() > 1) {
    // No warm-up: the pass's first call runs cold (interleaving ran another cell just before).
    // Each repetition starts at another block, so that call falls on a different block each
    // time and every block's fastest call (its intrinsic cost) is a warm one; the pass still
    // walks every block once, in order.
    const size_t start = (static_cast<size_t>(cell.entries[static_cast<int>(dir)]) * kRotateStride) % jobs.size();
    std::rotate(jobs.begin(), jobs.begin() + static_cast<std::ptrdiff_t>(start), jobs.end());
  }
  // A pass long enough to delay a stop reads the interrupt flag after every call; a short one
  // only once per pass, so the calls being timed carry no extra branch.
  const bool check_each_call = est_pass > 0.1;
  // Slow calls are timed one by one too: their blocks' intrinsic cost then has calls from every
  // repetition. Only worker 0 records (it owns distinct blocks, but the counts are not atomic).
  const bool time_each_call = w == 0 && cell.est_call_seconds[static_cast<int>(dir)] >= kTimedPassCallSeconds;
  BlockTimes& times = cell.block_times[static_cast<int>(dir)];
  auto run = [&](auto call) {
    if (check_each_call) {
      if (time_each_call) {
        timed_loop<true, true>(state, jobs, stop, failed, times, call);
      } else {
        timed_loop<true, false>(state, jobs, stop, failed, times, call);
      }
    } else if (time_each_call) {
      timed_loop<false, true>(state, jobs, stop, failed, times, call);
    } else {
      timed_loop<false, false>(state, jobs, stop, failed, times, call);
    }
  };
  if (dir == Direction::Compress) {
    const MutableByteView o(out.data(), cell.scratch_bytes);
    run([&](const Job& j) { return s.compress(ByteView(j.in, j.in_size), o); });
  } else {
    run([&](const Job& j) { return s.decompress(ByteView(j.in, j.in_size), MutableByteView(out.data(), j.out_size)); });
  }
  if (failed) cell.pass_error = true;
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
}

// Collects every repetition of every benchmark into the cells' per-repetition speeds.
class CaptureReporter : public benchmark::BenchmarkReporter {
 public:
  explicit CaptureReporter(GroupRun& g) : g_(g) {}
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      if (run.run_type != Run::RT_Iteration) continue;
      auto it = g_.by_name.find(run.run_name.function_name);
      if (it == g_.by_name.end()) continue;
      CellState& cell = *g_.cells[it->second.first];
      const Direction dir = it->second.second;
      if (run.error_occurred) {
        cell.incomplete = true;
        continue;
      }
      // Bytes come from the counter every worker fed with SetBytesProcessed: GB sums it over
      // threads and divides by the wall time, so it is the aggregate rate however GB counts
      // iterations of threaded runs (1.7.1 reports them summed over threads).
      const auto counter = run.counters.find("bytes_per_second");
      const double bytes = counter != run.counters.end() ? counter->second.value * run.real_accumulated_time : 0;
      const double wall_mbps = run.real_accumulated_time > 0 ? bytes / run.real_accumulated_time / 1e6 : 0;
      const double cpu_mbps = run.cpu_accumulated_time > 0 ? bytes / run.cpu_accumulated_time / 1e6 : 0;
      CellResult& r = cell.result;
      (dir == Direction::Compress ? r.compress_mbps : r.decompress_mbps).push_back(wall_mbps);
      (dir == Direction::Compress ? r.compress_cpu_mbps : r.decompress_cpu_mbps).push_back(cpu_mbps);
      r.wall_seconds += run.real_accumulated_time;
      r.cpu_seconds += run.cpu_accumulated_time;
    }
  }

 private:
  GroupRun& g_;
};

CellKey make_key(const BlockGroup& g, const MatrixCell& c, const EngineOptions& opt) {
  CellKey k;
  k.source = g.blocks.source;
  k.record_mode = g.blocks.record_mode;
  k.layout = g.blocks.layout;
  k.block_size = g.blocks.block_size;
  k.codec = c.codec->info().name;
  k.level = c.params.level;
  k.params = c.params.label();
  // The split study measures something else than the default per-file dictionary: its own id.
  if (c.params.dict_size && opt.dict_method == "split" && !c.current) k.params += ":split";
  k.dict_size = c.params.dict_size;
  k.cache = opt.cache;
  k.threads = opt.threads;
  k.profile = g.store ? g.store->name : "";
  return k;
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

Matrix build_matrix(std::vector<BlockGroup> groups, const std::vector<CodecChoice>& choices,
                    const CodecRegistry& registry) {
  Matrix m;
  m.groups = std::move(groups);
  const Codec* memcpy_codec = nullptr;
  for (const auto& c : registry.codecs())
    if (c->info().is_reference) memcpy_codec = c.get();
  const bool has_memcpy =
      std::any_of(choices.begin(), choices.end(), [](const CodecChoice& c) { return c.codec->info().is_reference; });
  for (size_t g = 0; g < m.groups.size(); ++g) {
    const auto& current = m.groups[g].current;
    auto is_current = [&](const Codec* codec, const CodecParams& params) {
      return current && current->codec == codec && current->params == params;
    };
    if (memcpy_codec && !has_memcpy)
      m.cells.push_back({g, memcpy_codec, CodecParams{}, is_current(memcpy_codec, CodecParams{})});
    if (current && !current->codec->info().is_reference) m.cells.push_back({g, current->codec, current->params, true});
    for (const auto& c : choices) {
      const bool cur = is_current(c.codec, c.params);
      if (cur && !c.codec->info().is_reference) continue;  // pushed above
      m.cells.push_back({g, c.codec, c.params, cur});
    }
  }
  // memcpy first within each group, then the current codec (stable for the rest).
  std::stable_sort(m.cells.begin(), m.cells.end(), [](const MatrixCell& a, const MatrixCell& b) {
    if (a.group != b.group) return a.group < b.group;
    if (a.codec->info().is_reference != b.codec->info().is_reference) return a.codec->info().is_reference;
    return a.current > b.current;
  });
  return m;
}

EngineOutcome run_matrix(const Matrix& matrix, const EngineOptions& opt, const EngineHooks& hooks) {
  init_benchmark_library(opt.random_interleaving);
  tick_clock_info();  // calibrate before any timing
  EngineOutcome outcome;
  const int reps = std::max(1, opt.repetitions);
  const int workers = std::max(1, opt.threads);
  // Progress units per cell: preparation + every GB repetition of both directions.
  const double units_per_cell = 1.0 + 2.0 * reps;
  double units_done = 0;
  const auto shards = static_cast<size_t>(std::max(1, opt.shard_count));
  size_t owned_cells = 0;
  for (size_t ci = 0; ci < matrix.cells.size(); ++ci)
    owned_cells += ci % shards == static_cast<size_t>(opt.shard_index);
  const double total_units = units_per_cell * static_cast<double>(owned_cells);
  const double t_start = wall_seconds();
  auto report = [&](const std::string& what) {
    if (!hooks.progress) return;
    const double frac = total_units > 0 ? std::min(1.0, units_done / total_units) : 1.0;
    const double elapsed = wall_seconds() - t_start;
    const double eta = frac > 0 ? elapsed * (1 - frac) / frac : 0;
    hooks.progress(frac, eta, what);
  };

  std::vector<LateCheck> late_checks;  // each cell's slowest blocks, called again at the end
  for (size_t gi = 0; gi < matrix.groups.size() && !outcome.interrupted; ++gi) {
    const BlockGroup& group = matrix.groups[gi];
    GroupRun run;
    run.opt = &opt;
    run.hooks = &hooks;
    run.scratch.resize(static_cast<size_t>(workers));
    run.cold_arena.resize(static_cast<size_t>(workers));
    DictCache dicts;
    bool group_has_owned = false;
    for (size_t ci = 0; ci < matrix.cells.size(); ++ci) {
      const MatrixCell& mc = matrix.cells[ci];
      if (mc.group != gi) continue;
      const bool owned = ci % shards == static_cast<size_t>(opt.shard_index);
      const bool is_memcpy = mc.codec->info().is_reference;
      if (!owned && !is_memcpy) continue;  // memcpy always runs: the relative speeds need it
      group_has_owned |= owned;
      auto cell = std::make_unique<CellState>();
      cell->group = &group;
      cell->codec = mc.codec;
      cell->params = mc.params;
      cell->owned = owned;
      cell->stop = hooks.stop;
      cell->result.key = make_key(group, mc, opt);
      cell->result.reference = mc.codec->info().is_reference;
      cell->current = mc.current;
      if (mc.current) cell->result.current = true;
      run.cells.push_back(std::move(cell));
    }
    if (!group_has_owned) continue;

    // Verify, size and latency-time every cell; only verified cells get timed passes.
    for (auto& cell : run.cells) {
      if (stop_requested(hooks)) break;
      report("verifying " + cell->result.key.id());
      prepare_cell(*cell, dicts, opt);
      units_done += 1;
    }
    if (stop_requested(hooks)) {
      outcome.interrupted = true;
      break;
    }
    const double min_time = std::max(0.001, opt.seconds_per_cell * 0.8 / (2.0 * reps));
    run.min_time = min_time;
    for (size_t ci = 0; ci < run.cells.size(); ++ci) {
      CellState& cell = *run.cells[ci];
      if (!cell.ok) continue;
      for (Direction dir : {Direction::Compress, Direction::Decompress}) {
        cell.pass_bytes[static_cast<int>(dir)].assign(static_cast<size_t>(workers), 0);
        const std::string name = cell.result.key.id() + "/" + direction_name(dir);
        run.by_name[name] = {ci, dir};
        auto* b = benchmark::RegisterBenchmark(name.c_str(),
                                               [&run, ci, dir](benchmark::State& st) { run_pass(st, run, ci, dir); });
        b->Repetitions(reps)->MinTime(min_time)->UseRealTime()->MeasureProcessCPUTime()->Unit(benchmark::kMicrosecond);
        if (workers > 1) b->Threads(workers);
      }
    }
    const size_t group_cells = run.by_name.size() / 2;  // a compress and a decompress entry each
    const double group_end = units_done + 2.0 * reps * static_cast<double>(group_cells);
    run.tick = [&]() {
      units_done = std::min(units_done + 1.0, group_end);
      report("measuring " + group.blocks.source);
    };
    CaptureReporter reporter(run);
    if (!run.by_name.empty()) benchmark::RunSpecifiedBenchmarks(&reporter);
    benchmark::ClearRegisteredBenchmarks();
    if (stop_requested(hooks)) outcome.interrupted = true;

    for (auto& cellp : run.cells) {
      CellState& cell = *cellp;
      CellResult& r = cell.result;
      if (!cell.skipped.empty()) {
        if (cell.owned) outcome.warnings.push_back(fmt::format("{}: skipped: {}", r.key.id(), cell.skipped));
        continue;
      }
      if (cell.ok) {
        const bool all_reps =
            static_cast<int>(r.compress_mbps.size()) == reps && static_cast<int>(r.decompress_mbps.size()) == reps;
        // Interrupted mid-group (with interleaving, every cell of the group is mid-way): a cell
        // keeps the repetitions that finished in both directions, and says so; a cell with none
        // in one direction is no result.
        if (r.compress_mbps.empty() || r.decompress_mbps.empty()) continue;
        if (!all_reps && cell.owned)
          outcome.warnings.push_back(fmt::format("{}: interrupted: {} and {} of {} repetitions (compress, decompress)",
                                                 r.key.id(), r.compress_mbps.size(), r.decompress_mbps.size(), reps));
        if (cell.pass_error) {
          r.status = CellStatus::Failed;
          r.failure = "a call failed inside a timed pass after the round trip had verified";
        }
        finish_intrinsic(cell, opt);
      }
      if (r.status == CellStatus::Failed) {
        r.compress_mbps.clear();
        r.decompress_mbps.clear();
        r.compress_cpu_mbps.clear();
        r.decompress_cpu_mbps.clear();
        r.compress_latency = {};
        r.decompress_latency = {};
      }
      if (!cell.owned) continue;
      if (r.status == CellStatus::Failed) ++outcome.failed;
      outcome.cells.push_back(r);
      LateCheck late;
      if (r.status == CellStatus::Ok && make_late_check(cell, outcome.cells.size() - 1, opt, late))
        late_checks.push_back(std::move(late));
      if (hooks.cell_done) hooks.cell_done(outcome.cells.back());
    }
    outcome.warnings.insert(outcome.warnings.end(), dicts.notes.begin(), dicts.notes.end());
    units_done = units_per_cell * static_cast<double>(outcome.cells.size());
    if (!outcome.interrupted && stop_requested(hooks)) outcome.interrupted = true;
  }
  if (!outcome.interrupted && !late_checks.empty()) {
    report("late check: the slow cells' blocks once more");
    run_late_checks(late_checks, outcome.cells, opt, hooks.stop);
  }
  return outcome;
}

}  // namespace kvz
