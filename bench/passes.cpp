#include "bench/passes.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <map>
#include <string>

#include "bench/timer.h"

namespace kvz {

namespace {

const char* direction_name(Direction d) { return d == Direction::Compress ? "compress" : "decompress"; }

// Everything the benchmark lambdas of one batch share. Lives until the batch is timed.
struct GroupRun {
  const EngineOptions* opt = nullptr;
  const EngineHooks* hooks = nullptr;
  std::vector<CellState*> cells;
  std::vector<std::vector<uint8_t>> scratch;     // per worker output buffer
  std::vector<std::vector<uint8_t>> cold_arena;  // per worker cold copies
  std::map<std::string, std::pair<size_t, Direction>> by_name;
  std::function<void()> tick;  // progress, called from worker 0
  double min_time = 0;         // GB min_time of one repetition
};

// Where a repetition without warm-up starts its pass (see run_pass): a prime, so successive
// repetitions start far apart whatever the block count.
constexpr size_t kRotateStride = 7919;

// The timed loop of one GB entry: whole passes over `jobs`. The interrupt flag is read once
// per pass, and with kCheckEachCall after every call too (see run_pass). With kTimeEachCall
// each call is also timed alone into `times` (slow calls only: see kTimedPassCallSeconds).
template <bool kCheckEachCall, bool kTimeEachCall, class Call>
void timed_loop(benchmark::State& state, const std::vector<Job>& jobs, const std::atomic<bool>& stop, bool& failed,
                IntrinsicTimes& times, Call call) {
  for (auto _ : state) {
    for (const Job& j : jobs) {
      if constexpr (kTimeEachCall) {
        const uint64_t t0 = read_ticks();
        const CallResult r = call(j);
        const uint64_t ticks = read_ticks() - t0;
        if (j.block < times.positions()) times.add(j.block, ticks);
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

// Warm-up: one untimed pass so caches and branch predictors hold this cell, not the cell
// interleaving ran before it (GB times only the loop after it). Cold mode wants them cold.
// A pass much longer than a GB repetition gains nothing from it and only costs time. False
// when a warm-up call failed.
bool warm_up_or_rotate(const CellState& cell, Direction dir, int w, const GroupRun& g, double est_pass,
                       std::vector<Job>& jobs, Session& s, std::vector<uint8_t>& out) {
  bool ok = true;
  if (g.opt->cache != "cold" && est_pass < g.min_time) {
    for (const Job& j : jobs) {
      const CallResult r = dir == Direction::Compress
                               ? s.compress(ByteView(j.in, j.in_size), MutableByteView(out.data(), cell.scratch_bytes))
                               : s.decompress(ByteView(j.in, j.in_size), MutableByteView(out.data(), j.out_size));
      ok &= r.ok();
    }
  } else if (w == 0 && jobs.size() > 1) {
    // No warm-up: the pass's first call runs cold (interleaving ran another cell just before).
    // Each repetition starts at another block, so that call falls on a different block each
    // time and every block's fastest call (its intrinsic cost) is a warm one; the pass still
    // walks every block once, in order.
    const size_t start = (static_cast<size_t>(cell.entries[static_cast<int>(dir)]) * kRotateStride) % jobs.size();
    std::rotate(jobs.begin(), jobs.begin() + static_cast<std::ptrdiff_t>(start), jobs.end());
  }
  return ok;
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
  const double est_pass = cell.est_call_seconds[static_cast<int>(dir)] * static_cast<double>(jobs.size());
  failed |= !warm_up_or_rotate(cell, dir, w, g, est_pass, jobs, s, out);
  // A pass long enough to delay a stop reads the interrupt flag after every call; a short one
  // only once per pass, so the calls being timed carry no extra branch.
  const bool check_each_call = est_pass > 0.1;
  // Slow calls are timed one by one too: their blocks' intrinsic cost then has calls from every
  // repetition. Only worker 0 records (it owns distinct blocks, but the counts are not atomic).
  const bool time_each_call = w == 0 && cell.est_call_seconds[static_cast<int>(dir)] >= kTimedPassCallSeconds;
  IntrinsicTimes& times = cell.intrinsic[static_cast<int>(dir)];
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
      DirectionFigures& figures = cell.figures.dirs[static_cast<int>(dir)];
      figures.wall_mbps.push_back(wall_mbps);
      figures.cpu_mbps.push_back(cpu_mbps);
      cell.figures.wall_seconds += run.real_accumulated_time;
      cell.figures.cpu_seconds += run.cpu_accumulated_time;
    }
  }

 private:
  GroupRun& g_;
};

}  // namespace

void time_batch(const std::vector<CellState*>& cells, const EngineOptions& opt, const EngineHooks& hooks,
                const std::function<void()>& tick) {
  const int reps = std::max(1, opt.repetitions);
  const int workers = std::max(1, opt.threads);
  GroupRun run;
  run.opt = &opt;
  run.hooks = &hooks;
  run.cells = cells;
  run.scratch.resize(static_cast<size_t>(workers));
  run.cold_arena.resize(static_cast<size_t>(workers));
  run.tick = tick;
  run.min_time = std::max(0.001, opt.seconds_per_cell * 0.8 / (2.0 * reps));
  for (size_t ci = 0; ci < cells.size(); ++ci) {
    CellState& cell = *cells[ci];
    if (!cell.ok) continue;
    for (Direction dir : {Direction::Compress, Direction::Decompress}) {
      cell.pass_bytes[static_cast<int>(dir)].assign(static_cast<size_t>(workers), 0);
      const std::string name = cell.id + "/" + direction_name(dir);
      run.by_name[name] = {ci, dir};
      auto* b = benchmark::RegisterBenchmark(name.c_str(),
                                             [&run, ci, dir](benchmark::State& st) { run_pass(st, run, ci, dir); });
      b->Repetitions(reps)
          ->MinTime(run.min_time)
          ->UseRealTime()
          ->MeasureProcessCPUTime()
          ->Unit(benchmark::kMicrosecond);
      if (workers > 1) b->Threads(workers);
    }
  }
  CaptureReporter reporter(run);
  if (!run.by_name.empty()) benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::ClearRegisteredBenchmarks();
}

double passes_seconds(const CellState& cell, const EngineOptions& opt) {
  if (!cell.ok) return 0;
  const int reps = std::max(1, opt.repetitions);
  const double min_time = std::max(0.001, opt.seconds_per_cell * 0.8 / (2.0 * reps));
  const double calls = static_cast<double>(cell.measured.size()) / std::max(1, opt.threads);
  double total = 0;
  for (const double call : cell.est_call_seconds) {
    const double pass = call * calls;
    total += reps * (pass < min_time ? min_time + pass : pass);  // the warm-up pass, or one long pass
  }
  return total;
}

}  // namespace kvz
