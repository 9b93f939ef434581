#include "bench/latency_pass.h"

#include <algorithm>

#include "bench/stats.h"
#include "bench/timer.h"
#include "util/stats.h"

namespace kvz {

namespace {

// One latency pass: the calls it cycles through (one worker's jobs in cache-mode order), the
// job of the next call, and what the calls recorded.
struct LatencyCalls {
  CellState& cell;
  Direction dir;
  std::vector<uint8_t> arena;  // cold mode: the copies the jobs point into
  std::vector<Job> jobs;
  std::vector<uint8_t> out;
  LatencySample sample;
  size_t next = 0;  // index into jobs
  size_t done = 0;  // calls made
  bool failed = false;
  uint64_t switches = 0;  // the thread's context switches after the last call

  LatencyCalls(CellState& c, Direction d, const EngineOptions& opt) : cell(c), dir(d) {
    EngineOptions one = opt;
    one.threads = 1;
    jobs = make_jobs(cell, dir, 0, 1, one, arena);
    for (const Job& job : jobs) sample.blocks = std::max<size_t>(sample.blocks, job.block + size_t{1});
  }

  // One untimed call first, of the block before the first: the first timed call then follows a
  // call of its own direction on this session, as every later one does, not the other
  // direction's pass (a cold first call would be block 0's only sample in this pass).
  void warm_up() {
    out.resize(cell.scratch_bytes);
    if (jobs.empty()) return;
    Session& s = *cell.sessions[0];
    const Job& warm = jobs.back();
    const CallResult r =
        dir == Direction::Compress
            ? s.compress(ByteView(warm.in, warm.in_size), MutableByteView(out.data(), out.size()))
            : s.decompress(ByteView(warm.in, warm.in_size), MutableByteView(out.data(), warm.out_size));
    failed |= !r.ok();
  }

  // Calls until `calls` are made or the run is stopped, each timed alone; between calls (never
  // inside the timed span) the thread's context-switch count, so a call the scheduler
  // interrupted is known as such.
  void make_calls(size_t calls) {
    Session& s = *cell.sessions[0];
    sample.ticks.resize(calls);
    sample.block.resize(calls);
    sample.switched.resize(calls);
    for (; done < calls && !cell.stopped(); ++done) {
      const Job& job = jobs[next];
      const ByteView in(job.in, job.in_size);
      uint64_t t0 = 0, t1 = 0;
      if (dir == Direction::Compress) {
        t0 = read_ticks();
        const CallResult r = s.compress(in, MutableByteView(out.data(), out.size()));
        t1 = read_ticks();
        failed |= !r.ok();
      } else {
        t0 = read_ticks();
        const CallResult r = s.decompress(in, MutableByteView(out.data(), job.out_size));
        t1 = read_ticks();
        failed |= !r.ok();
      }
      const uint64_t now = context_switches();
      sample.ticks[done] = t1 - t0;
      sample.block[done] = job.block;
      sample.switched[done] = now != switches;
      switches = now;
      next = (next + 1 == jobs.size()) ? 0 : next + 1;
    }
  }

  // Interrupted: the calls made are the sample (whole rounds or not, the intrinsic figure says
  // how many calls its blocks got).
  void keep_calls_made() {
    sample.ticks.resize(done);
    sample.block.resize(done);
    sample.switched.resize(done);
  }
};

// The verification pass only estimated the call (first touches and context sizing make it
// slower): when the `calls` made show a median of 100 µs (opt.fast_call_seconds) or less,
// p99.9 gets its 1,000, in whole rounds. Otherwise `calls`.
size_t calls_for_p999(const LatencyCalls& lc, size_t calls, const EngineOptions& opt) {
  const size_t wanted = std::min(opt.latency_calls, static_cast<size_t>(kMinCallsP999));
  if (lc.done != calls || calls >= wanted || calls == 0) return calls;
  std::vector<uint64_t> made(lc.sample.ticks.begin(), lc.sample.ticks.end());
  const double median_s =
      static_cast<double>(percentile_nearest_rank(made, 0.5)) * tick_clock_info().ns_per_tick * 1e-9;
  if (median_s > opt.fast_call_seconds) return calls;
  return (wanted + lc.sample.blocks - 1) / lc.sample.blocks * lc.sample.blocks;
}

// The pass's blocks, named, with their calls in the pass and (`verified`, when given) each
// block's verification call.
IntrinsicTimes pass_intrinsic(const CellState& cell, const LatencySample& sample,
                              const std::vector<uint64_t>* verified) {
  IntrinsicTimes times(sample.blocks);
  for (size_t k = 0; k < sample.blocks; ++k)
    times.name(k, cell.measured[k], cell.group->blocks.block(cell.measured[k]).size(), cell.packed_size(k));
  if (verified)
    for (size_t k = 0; k < sample.blocks; ++k) times.add(k, (*verified)[k]);
  for (size_t c = 0; c < sample.ticks.size(); ++c) times.add(sample.block[c], sample.ticks[c]);
  return times;
}

}  // namespace

size_t latency_calls(size_t blocks, double est_call_seconds, size_t min_rounds, const EngineOptions& opt) {
  blocks = std::max<size_t>(blocks, 1);
  // What one call costs the pass: the call plus the context-switch reading after it.
  const double per_call = std::max(est_call_seconds, 0.0) + kSwitchReadSeconds;
  const double affordable = opt.latency_seconds / per_call;
  size_t calls =
      affordable < static_cast<double>(opt.latency_calls) ? static_cast<size_t>(affordable) : opt.latency_calls;
  // p99.9 wherever a call takes 100 µs or less, unless the user asked for fewer calls.
  if (est_call_seconds <= opt.fast_call_seconds)
    calls = std::max(calls, std::min<size_t>(opt.latency_calls, kMinCallsP999));
  calls = std::max(calls, min_rounds * blocks);
  return (calls + blocks - 1) / blocks * blocks;  // whole rounds: every block equally often
}

LatencyStats latency_pass(CellState& cell, Direction dir, const EngineOptions& opt) {
  const auto d = static_cast<int>(dir);
  LatencyCalls lc(cell, dir, opt);
  // In stream mode the verification pass made the same calls in the same order: its timing
  // is each block's first call, so two more rounds give every block three. (Hot and cold
  // calls see other caches than verification did: they make all three here.)
  const std::vector<uint64_t>& verified = cell.verify_ticks[d];
  const bool with_verified = opt.cache == "stream" && verified.size() == lc.sample.blocks;
  const size_t rounds = kMinCallsPerBlock - (with_verified ? 1 : 0);
  const size_t calls = latency_calls(lc.sample.blocks, cell.est_call_seconds[d], rounds, opt);
  lc.warm_up();
  lc.switches = context_switches();
  lc.make_calls(calls);
  const size_t more = calls_for_p999(lc, calls, opt);
  if (more != calls) lc.make_calls(more);
  lc.keep_calls_made();
  if (lc.failed) cell.pass_error = true;
  // Before the summary, which reorders the ticks.
  cell.intrinsic[d] = pass_intrinsic(cell, lc.sample, with_verified ? &verified : nullptr);
  return summarize_latency(lc.sample, tick_clock_info().ns_per_tick, opt.stall_thresholds_ns);
}

}  // namespace kvz
