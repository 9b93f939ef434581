#include "bench/cell.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "bench/stats.h"
#include "bench/timer.h"
#include "codecs/spec.h"

namespace kvz {

namespace {

std::string open_error(const Codec& codec, const std::string& what) {
  return fmt::format("{}: {}", codec.info().name, what);
}

// Round trip every measured block once. Each call is timed: it is the block's first call for
// its intrinsic cost (stream mode), and the pass sizes the latency passes.
bool verify_blocks(CellState& cell, const EngineOptions& opt) {
  Session& s = *cell.sessions[0];
  const BlockSet& bs = cell.group->blocks;
  CellResult& res = cell.result;
  size_t max_block = 0, bound_total = 0;
  for (size_t i : cell.measured) {
    max_block = std::max(max_block, bs.block(i).size());
    bound_total += s.bound(bs.block(i).size());
  }
  cell.scratch_bytes = std::max(max_block, s.bound(max_block));
  cell.packed.resize(bound_total);
  cell.packed_offsets.assign(1, 0);
  cell.stored_block_bytes.clear();
  std::vector<uint8_t> back(max_block);

  size_t pos = 0;
  std::vector<uint64_t>& cticks = cell.verify_ticks[static_cast<int>(Direction::Compress)];
  std::vector<uint64_t>& dticks = cell.verify_ticks[static_cast<int>(Direction::Decompress)];
  cticks.assign(cell.measured.size(), 0);
  dticks.assign(cell.measured.size(), 0);
  for (size_t k = 0; k < cell.measured.size(); ++k) {
    if (cell.stopped()) return false;  // interrupted: the engine drops this block set
    const ByteView in = bs.block(cell.measured[k]);
    const size_t cap = s.bound(in.size());
    const uint64_t t0 = read_ticks();
    const CallResult r = s.compress(in, MutableByteView(cell.packed.data() + pos, cap));
    cticks[k] = read_ticks() - t0;
    if (!r.ok()) {
      res.failure = fmt::format("compress failed at block {}: {}", cell.measured[k], r.error);
      return false;
    }
    pos += r.size;
    cell.packed_offsets.push_back(pos);
  }
  for (size_t k = 0; k < cell.measured.size(); ++k) {
    if (cell.stopped()) return false;
    const size_t idx = cell.measured[k];
    const ByteView in = bs.block(idx);
    const ByteView packed(cell.packed.data() + cell.packed_offsets[k],
                          cell.packed_offsets[k + 1] - cell.packed_offsets[k]);
    std::fill(back.begin(), back.begin() + static_cast<std::ptrdiff_t>(in.size()), uint8_t{0xA5});
    const uint64_t t0 = read_ticks();
    const CallResult r = s.decompress(packed, MutableByteView(back.data(), in.size()));
    dticks[k] = read_ticks() - t0;
    if (!r.ok()) {
      res.failure = fmt::format("decompress failed at block {}: {}", idx, r.error);
      return false;
    }
    if (r.size != in.size()) {
      res.failure = fmt::format("round trip mismatch at block {} (size {} != {})", idx, r.size, in.size());
      return false;
    }
    if (!in.empty() && std::memcmp(back.data(), in.data(), in.size()) != 0) {
      size_t off = 0;
      while (back[off] == in[off]) ++off;
      res.failure = fmt::format("round trip mismatch at block {} (offset {})", idx, off);
      return false;
    }
  }
  // A typical call: the median, so a first call that sizes the library's context does not
  // make a 90 µs codec look like a 100 µs one.
  for (int d = 0; d < 2; ++d) {
    std::vector<uint64_t> ticks = cell.verify_ticks[d];
    cell.est_call_seconds[d] =
        ticks.empty() ? 0
                      : static_cast<double>(percentile_nearest_rank(ticks, 0.5)) * tick_clock_info().ns_per_tick * 1e-9;
  }

  // Sizes and the keep-raw rule (or the store profile's framing and rule).
  res.blocks = cell.measured.size();
  res.min_saving = opt.min_saving;
  // The codec as the store sees it: once per cell, not once per block (label() allocates).
  const BlockCodec as_stored{cell.codec->info().name, cell.params.label(), cell.codec->info().is_reference};
  for (size_t k = 0; k < cell.measured.size(); ++k) {
    const size_t raw = bs.block(cell.measured[k]).size();
    const size_t comp = cell.packed_offsets[k + 1] - cell.packed_offsets[k];
    res.input_bytes += raw;
    res.compressed_bytes += comp;
    if (cell.group->store) {
      const StoredBlock sb = store_block(*cell.group->store, as_stored, raw, comp);
      cell.stored_block_bytes.push_back(sb.bytes);
      res.stored_bytes += sb.bytes;
      res.blocks_kept_raw += sb.kept_raw;
    } else {
      const bool raw_kept = keep_raw(raw, comp, opt.min_saving);
      res.stored_bytes += raw_kept ? raw : comp;
      res.blocks_kept_raw += raw_kept;
    }
  }
  res.stored_bytes += res.dict_block_bytes;  // a dictionary kept in the file is written once per file
  if (cell.current) res.on_disk_bytes = bs.origin.on_disk + (res.dict_bytes ? bs.origin.dictionary_on_disk : 0);
  cell.packed.resize(pos);
  return true;
}

// The worst block as the block set numbers it, with its sizes, so it can be exported.
void name_worst_block(const CellState& cell, IntrinsicCost& ic) {
  if (ic.calls_per_block == 0) return;
  const auto k = static_cast<size_t>(ic.worst_block);
  ic.worst_block = cell.measured[k];
  ic.worst_block_bytes = cell.group->blocks.block(cell.measured[k]).size();
  ic.worst_block_compressed = cell.packed_offsets[k + 1] - cell.packed_offsets[k];
}

// Time every call with the tick clock, in whole rounds over the blocks; between calls (never
// inside the timed span) read the thread's context-switch count, so a call the scheduler
// interrupted is known as such.
LatencyStats latency_pass(CellState& cell, Direction dir, const EngineOptions& opt) {
  std::vector<uint8_t> arena;
  EngineOptions one = opt;
  one.threads = 1;
  const std::vector<Job> jobs = make_jobs(cell, dir, 0, 1, one, arena);
  LatencySample sample;
  for (const Job& job : jobs) sample.blocks = std::max<size_t>(sample.blocks, job.block + size_t{1});
  // In stream mode the verification pass made the same calls in the same order: its timing
  // is each block's first call, so two more rounds give every block three. (Hot and cold
  // calls see other caches than verification did: they make all three here.)
  const std::vector<uint64_t>& verified = cell.verify_ticks[static_cast<int>(dir)];
  if (opt.cache == "stream" && verified.size() == sample.blocks) sample.earlier = verified;
  const size_t rounds = kMinCallsPerBlock - (sample.earlier.empty() ? 0 : 1);
  size_t calls = latency_calls(sample.blocks, cell.est_call_seconds[static_cast<int>(dir)], rounds, opt);
  std::vector<uint8_t> out(cell.scratch_bytes);
  Session& s = *cell.sessions[0];
  bool failed = false;
  size_t j = 0, done = 0;
  // One untimed call first, of the block before the first: the first timed call then follows a
  // call of its own direction on this session, as every later one does, not the other
  // direction's pass (a cold first call would be block 0's only sample in this pass).
  if (!jobs.empty()) {
    const Job& warm = jobs.back();
    const CallResult r =
        dir == Direction::Compress
            ? s.compress(ByteView(warm.in, warm.in_size), MutableByteView(out.data(), out.size()))
            : s.decompress(ByteView(warm.in, warm.in_size), MutableByteView(out.data(), warm.out_size));
    failed |= !r.ok();
  }
  uint64_t switches = context_switches();
  auto make_calls = [&]() {
    sample.ticks.resize(calls);
    sample.block.resize(calls);
    sample.switched.resize(calls);
    for (; done < calls && !cell.stopped(); ++done) {
      const Job& job = jobs[j];
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
      j = (j + 1 == jobs.size()) ? 0 : j + 1;
    }
  };
  make_calls();
  // The verification pass only estimated the call (first touches and context sizing make it
  // slower): when the calls made show a median of 100 µs (opt.fast_call_seconds) or less,
  // p99.9 gets its 1,000.
  const size_t wanted = std::min(opt.latency_calls, static_cast<size_t>(kMinCallsP999));
  if (done == calls && calls < wanted && calls > 0) {
    std::vector<uint64_t> made(sample.ticks.begin(), sample.ticks.end());
    const double median_s =
        static_cast<double>(percentile_nearest_rank(made, 0.5)) * tick_clock_info().ns_per_tick * 1e-9;
    if (median_s <= opt.fast_call_seconds) {
      calls = (wanted + sample.blocks - 1) / sample.blocks * sample.blocks;
      make_calls();
    }
  }
  // Interrupted: summarize the calls made (whole rounds or not, the intrinsic figure says how
  // many calls its blocks got).
  sample.ticks.resize(done);
  sample.block.resize(done);
  sample.switched.resize(done);
  if (failed) cell.pass_error = true;
  cell.block_times[static_cast<int>(dir)] = block_times(sample);
  LatencyStats stats = summarize_latency(sample, tick_clock_info().ns_per_tick, opt.stall_thresholds_ns);
  name_worst_block(cell, stats.intrinsic);
  return stats;
}

}  // namespace

void finish_intrinsic(CellState& cell, const EngineOptions& opt) {
  const double ns_per_tick = tick_clock_info().ns_per_tick;
  LatencyStats* dirs[2] = {&cell.result.compress_latency, &cell.result.decompress_latency};
  for (int d = 0; d < 2; ++d) {
    if (cell.block_times[d].fastest.empty()) continue;
    dirs[d]->intrinsic = intrinsic_cost(cell.block_times[d], ns_per_tick, opt.stall_thresholds_ns);
    name_worst_block(cell, dirs[d]->intrinsic);
  }
}

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

uint64_t cold_working_set_bytes(const EngineOptions& opt) {
  const uint64_t llc = opt.llc_bytes ? opt.llc_bytes : (16ull << 20);
  return 4 * llc;
}

std::vector<Job> make_jobs(const CellState& cell, Direction dir, int worker, int workers, const EngineOptions& opt,
                           std::vector<uint8_t>& arena) {
  const BlockSet& bs = cell.group->blocks;
  const size_t n = cell.measured.size();
  auto job_for = [&](size_t k) {
    Job j;
    j.block = static_cast<uint32_t>(k);
    const ByteView raw = bs.block(cell.measured[k]);
    if (dir == Direction::Compress) {
      j.in = raw.data();
      j.in_size = raw.size();
    } else {
      j.in = cell.packed.data() + cell.packed_offsets[k];
      j.in_size = cell.packed_offsets[k + 1] - cell.packed_offsets[k];
      j.out_size = raw.size();
    }
    return j;
  };
  std::vector<Job> jobs;
  if (opt.cache == "hot") {
    // One block, called as many times as the worker's share of the sample has blocks.
    const size_t k = static_cast<size_t>(worker) % n;
    const size_t share = std::max<size_t>(1, n / static_cast<size_t>(workers));
    jobs.assign(share, job_for(k));
    return jobs;
  }
  for (size_t k = static_cast<size_t>(worker); k < n; k += static_cast<size_t>(workers)) jobs.push_back(job_for(k));
  if (opt.cache != "cold" || jobs.empty()) return jobs;

  // Cold: copy the worker's inputs again and again so one pass walks a working set several
  // times the last-level cache; every call then starts from memory, not cache.
  size_t one_copy = 0;
  for (const Job& j : jobs) one_copy += j.in_size;
  const uint64_t target = cold_working_set_bytes(opt) / static_cast<uint64_t>(workers);
  const size_t copies =
      std::max<size_t>(1, static_cast<size_t>((target + one_copy - 1) / std::max<size_t>(one_copy, 1)));
  arena.resize(one_copy * copies);
  std::vector<Job> cold;
  cold.reserve(jobs.size() * copies);
  size_t pos = 0;
  for (size_t c = 0; c < copies; ++c) {
    for (const Job& j : jobs) {
      if (j.in_size) std::memcpy(arena.data() + pos, j.in, j.in_size);
      cold.push_back({arena.data() + pos, j.in_size, j.out_size, j.block});
      pos += j.in_size;
    }
  }
  return cold;
}

void prepare_cell(CellState& cell, DictCache& dicts, const EngineOptions& opt) {
  const double w0 = wall_seconds();
  const double cpu0 = process_cpu_seconds();
  cell.ok = false;
  CellResult& res = cell.result;
  res.status = CellStatus::Failed;
  std::shared_ptr<const PreparedDict> dict;
  if (!choose_blocks(cell, dicts, opt, dict)) return;
  if (cell.measured.size() < static_cast<size_t>(opt.threads)) {
    cell.skipped = fmt::format("{} blocks cannot be shared by {} threads", cell.measured.size(), opt.threads);
    return;
  }
  cell.dict = dict;
  for (int t = 0; t < opt.threads; ++t) {
    auto s = cell.codec->open(cell.params, dict);
    if (!s.ok()) {
      res.failure = open_error(*cell.codec, s.error);
      return;
    }
    cell.sessions.push_back(std::move(s.value));
  }
  if (!verify_blocks(cell, opt)) {
    cell.cut_short = res.failure.empty() && cell.stopped();  // not a failure: the run was stopped
    return;
  }
  if (dict) {
    uint64_t plain = 0;
    const uint64_t with = res.dict_method == "file" ? res.stored_bytes : res.compressed_bytes;
    if (size_without_dict(cell, opt, plain) && with > 0)
      res.dict_gain = static_cast<double>(plain) / static_cast<double>(with);
  }
  predict_store_file(cell);
  res.compress_latency = latency_pass(cell, Direction::Compress, opt);
  res.decompress_latency = latency_pass(cell, Direction::Decompress, opt);
  // Read after the calls: libraries size their contexts on first use (zstd's CCtx, the
  // brotli/xz arenas), so a fresh session reports the same figure at every level, or 0.
  const ContextMemory memory = cell.sessions[0]->context_memory();
  res.compress_context_bytes = memory.compress;
  res.decompress_context_bytes = memory.decompress;
  if (cell.pass_error) {
    res.failure = "a call failed during the latency pass after the round trip had verified";
    return;
  }
  res.status = CellStatus::Ok;
  cell.ok = true;
  res.wall_seconds += wall_seconds() - w0;
  res.cpu_seconds += process_cpu_seconds() - cpu0;
}

}  // namespace kvz
