#include "bench/late_check.h"

#include <algorithm>

#include "bench/timer.h"

namespace kvz {

bool make_late_check(const CellState& cell, size_t result, const EngineOptions& opt, LateCheck& out) {
  if (opt.cache != "stream" || !cell.ok) return false;
  const BlockSet& bs = cell.group->blocks;
  const double slow_ticks = kTimedPassCallSeconds * 1e9 / tick_clock_info().ns_per_tick;
  bool any = false;
  for (int d = 0; d < 2; ++d) {
    const IntrinsicTimes& times = cell.intrinsic[d];
    const size_t n = times.positions();
    if (n == 0 || n != cell.measured.size()) continue;
    if (static_cast<double>(times.slowest_ticks()) < slow_ticks) continue;
    LateCheck::Direction& ld = out.dirs[d];
    ld.on = any = true;
    ld.times = times;
    if (d == 0) {
      ld.blocks = &bs;
    } else {
      ld.packed = cell.packed;
    }
    ld.scratch = cell.scratch_bytes;
  }
  if (!any) return false;
  out.result = result;
  out.codec = cell.codec;
  out.params = cell.params;
  out.dict = cell.dict;
  return true;
}

namespace {

bool stopped(const std::atomic<bool>* stop) { return stop && stop->load(std::memory_order_relaxed); }

// One direction of one check: rounds over every block, in the order of the passes. False when
// a call failed or the run was stopped (the times are then not used).
bool late_calls(Session& s, int dir, LateCheck::Direction& ld, std::vector<uint8_t>& out, double max_seconds,
                const std::atomic<bool>* stop) {
  const IntrinsicTimes& times = ld.times;
  const size_t n = times.positions();
  // A fresh copy: another place in memory than the timed passes used, so a block that was
  // slow only where it lay (the cache sets its pages map to) is not slow again for that.
  std::vector<uint8_t> inputs;
  std::vector<size_t> at(n + 1, 0);
  for (size_t k = 0; k < n; ++k) at[k + 1] = at[k] + (dir == 0 ? times.raw_bytes[k] : times.packed_bytes[k]);
  inputs.resize(at[n]);
  for (size_t k = 0; k < n; ++k) {
    const uint8_t* src =
        dir == 0 ? ld.blocks->block(static_cast<size_t>(times.set_index[k])).data() : ld.packed.data() + at[k];
    std::copy(src, src + (at[k + 1] - at[k]), inputs.begin() + static_cast<std::ptrdiff_t>(at[k]));
  }
  out.resize(ld.scratch);
  // The direction is chosen outside the timestamps: only the call itself is timed.
  auto call = [&](size_t k, uint64_t& ticks) {
    const ByteView in(inputs.data() + at[k], at[k + 1] - at[k]);
    const MutableByteView dst(out.data(), dir == 0 ? out.size() : times.raw_bytes[k]);
    uint64_t t0 = 0;
    CallResult r;
    if (dir == 0) {
      t0 = read_ticks();
      r = s.compress(in, dst);
    } else {
      t0 = read_ticks();
      r = s.decompress(in, dst);
    }
    ticks = read_ticks() - t0;
    return r;
  };
  uint64_t untimed = 0;
  if (!call(n - 1, untimed).ok()) return false;  // not counted: block 0's call then follows one of its kind
  uint64_t round_ticks = 0;
  for (const uint64_t t : times.fastest) round_ticks += t;
  const size_t rounds =
      late_rounds(n, static_cast<double>(round_ticks) * tick_clock_info().ns_per_tick * 1e-9, max_seconds);
  for (size_t round = 0; round < rounds; ++round) {
    for (size_t k = 0; k < n; ++k) {
      if (stopped(stop)) return false;
      uint64_t ticks = 0;
      if (!call(k, ticks).ok()) return false;
      ld.times.add(k, ticks);
    }
  }
  return true;
}

}  // namespace

void run_late_checks(std::vector<LateCheck>& checks, const EngineOptions& opt, const std::atomic<bool>* stop) {
  std::vector<uint8_t> out;
  for (LateCheck& check : checks) {
    if (stopped(stop)) return;
    auto session = check.codec->open(check.params, check.dict);
    if (!session.ok()) continue;  // it opened before: keep the figures the cell has
    for (int d = 0; d < 2; ++d) {
      LateCheck::Direction& ld = check.dirs[d];
      if (ld.on && late_calls(*session.value, d, ld, out, opt.late_rounds_seconds, stop))
        ld.refined = ld.times.cost(tick_clock_info().ns_per_tick, opt.stall_thresholds_ns);
    }
  }
}

}  // namespace kvz
