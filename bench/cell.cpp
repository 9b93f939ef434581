#include "bench/cell.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "bench/stats.h"
#include "bench/timer.h"
#include "codecs/spec.h"

namespace kvz {

namespace {

constexpr size_t kLatencyMinCalls = 32;

std::string open_error(const Codec& codec, const std::string& what) {
  return fmt::format("{}: {}", codec.info().name, what);
}

// Dictionary cells measure only the blocks the dictionary was not trained on.
bool choose_blocks(CellState& cell, DictCache& dicts, const EngineOptions& opt,
                   std::shared_ptr<const PreparedDict>& dict) {
  const BlockSet& bs = cell.group->blocks;
  if (cell.params.dict_size == 0) {
    cell.measured.resize(bs.count());
    for (size_t i = 0; i < bs.count(); ++i) cell.measured[i] = i;
    return true;
  }
  if (!dicts.split_done) {
    dicts.split_done = true;
    BlockSplit split;
    if (!split_train_test(bs.count(), opt.dict_train_fraction, opt.seed, split)) {
      dicts.split_error = fmt::format("dictionary needs at least 2 blocks, the sample has {}", bs.count());
    }
    dicts.train = std::move(split.train);
    dicts.test = std::move(split.test);
  }
  if (!dicts.split_error.empty()) {
    cell.skipped = dicts.split_error;
    return false;
  }
  auto it = dicts.trained.find(cell.params.dict_size);
  if (it == dicts.trained.end()) {
    std::vector<ByteView> samples;
    for (size_t i : dicts.train) samples.push_back(bs.block(i));
    std::string note;
    it = dicts.trained.emplace(cell.params.dict_size, train_dictionary(samples, cell.params.dict_size, &note)).first;
    if (!note.empty())
      dicts.notes.push_back(fmt::format("{} {}: dictionary {}: {}", bs.source, format_byte_size(bs.block_size),
                                        format_byte_size(cell.params.dict_size), note));
  }
  const TrainedDict& td = it->second;
  if (!td.ok()) {
    cell.result.failure = "dictionary training failed: " + td.error;
    return false;
  }
  auto prepared = cell.codec->prepare_dict(ByteView(td.bytes.data(), td.bytes.size()), cell.params);
  if (!prepared.ok()) {
    cell.result.failure = open_error(*cell.codec, prepared.error);
    return false;
  }
  dict = prepared.value;
  cell.result.dict_bytes = td.bytes.size();
  cell.result.dict_train_seconds = td.train_seconds;
  cell.measured = dicts.test;
  return true;
}

// Compressed size of the measured blocks without a dictionary: the base of dict_gain.
bool size_without_dict(CellState& cell, uint64_t& total) {
  CodecParams plain = cell.params;
  plain.dict_size = 0;
  auto s = cell.codec->open(plain, nullptr);
  if (!s.ok()) return false;
  std::vector<uint8_t> out;
  total = 0;
  for (size_t i : cell.measured) {
    const ByteView in = cell.group->blocks.block(i);
    out.resize(s.value->bound(in.size()));
    const CallResult r = s.value->compress(in, MutableByteView(out.data(), out.size()));
    if (!r.ok()) return false;
    total += r.size;
  }
  return true;
}

// Round trip every measured block once, untimed except for a whole-pass estimate.
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
  std::vector<uint8_t> back(max_block);

  const double c0 = wall_seconds();
  size_t pos = 0;
  for (size_t k = 0; k < cell.measured.size(); ++k) {
    if (cell.stopped()) return false;  // interrupted: the engine drops this block set
    const ByteView in = bs.block(cell.measured[k]);
    const size_t cap = s.bound(in.size());
    const CallResult r = s.compress(in, MutableByteView(cell.packed.data() + pos, cap));
    if (!r.ok()) {
      res.failure = fmt::format("compress failed at block {}: {}", cell.measured[k], r.error);
      return false;
    }
    pos += r.size;
    cell.packed_offsets.push_back(pos);
  }
  const double c1 = wall_seconds();
  for (size_t k = 0; k < cell.measured.size(); ++k) {
    if (cell.stopped()) return false;
    const size_t idx = cell.measured[k];
    const ByteView in = bs.block(idx);
    const ByteView packed(cell.packed.data() + cell.packed_offsets[k],
                          cell.packed_offsets[k + 1] - cell.packed_offsets[k]);
    std::fill(back.begin(), back.begin() + static_cast<std::ptrdiff_t>(in.size()), uint8_t{0xA5});
    const CallResult r = s.decompress(packed, MutableByteView(back.data(), in.size()));
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
  const double c2 = wall_seconds();
  const double n = static_cast<double>(std::max<size_t>(cell.measured.size(), 1));
  cell.est_call_seconds[0] = (c1 - c0) / n;
  cell.est_call_seconds[1] = (c2 - c1) / n;

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
      res.stored_bytes += sb.bytes;
      res.blocks_kept_raw += sb.kept_raw;
    } else {
      const bool raw_kept = keep_raw(raw, comp, opt.min_saving);
      res.stored_bytes += raw_kept ? raw : comp;
      res.blocks_kept_raw += raw_kept;
    }
  }
  cell.packed.resize(pos);
  return true;
}

// Time every call of separate passes with the tick clock; nothing else in the loop.
LatencyStats latency_pass(CellState& cell, Direction dir, const EngineOptions& opt) {
  std::vector<uint8_t> arena;
  EngineOptions one = opt;
  one.threads = 1;
  const std::vector<Job> jobs = make_jobs(cell, dir, 0, 1, one, arena);
  const double budget = opt.seconds_per_cell * 0.1;
  const double per_call = std::max(cell.est_call_seconds[static_cast<int>(dir)], 1e-8);
  size_t calls = static_cast<size_t>(budget / per_call);
  calls = std::clamp(calls, std::min(jobs.size(), kLatencyMinCalls), opt.max_latency_calls);
  calls = std::max<size_t>(calls, 1);
  std::vector<uint64_t> ticks(calls);
  std::vector<uint8_t> out(cell.scratch_bytes);
  Session& s = *cell.sessions[0];
  bool failed = false;
  size_t j = 0;
  const uint64_t switches_before = involuntary_context_switches();
  if (dir == Direction::Compress) {
    const MutableByteView o(out.data(), out.size());
    for (size_t c = 0; c < calls && !cell.stopped(); ++c) {
      const Job& job = jobs[j];
      const uint64_t t0 = read_ticks();
      const CallResult r = s.compress(ByteView(job.in, job.in_size), o);
      ticks[c] = read_ticks() - t0;
      failed |= !r.ok();
      j = (j + 1 == jobs.size()) ? 0 : j + 1;
    }
  } else {
    for (size_t c = 0; c < calls && !cell.stopped(); ++c) {
      const Job& job = jobs[j];
      const uint64_t t0 = read_ticks();
      const CallResult r = s.decompress(ByteView(job.in, job.in_size), MutableByteView(out.data(), job.out_size));
      ticks[c] = read_ticks() - t0;
      failed |= !r.ok();
      j = (j + 1 == jobs.size()) ? 0 : j + 1;
    }
  }
  const uint64_t preemptions = involuntary_context_switches() - switches_before;
  if (failed) cell.pass_error = true;
  LatencyStats stats = summarize_latency(ticks, tick_clock_info().ns_per_tick, opt.stall_thresholds_ns);
  stats.preemptions = preemptions;
  return stats;
}

}  // namespace

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
      cold.push_back({arena.data() + pos, j.in_size, j.out_size});
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
  for (int t = 0; t < opt.threads; ++t) {
    auto s = cell.codec->open(cell.params, dict);
    if (!s.ok()) {
      res.failure = open_error(*cell.codec, s.error);
      return;
    }
    cell.sessions.push_back(std::move(s.value));
  }
  if (!verify_blocks(cell, opt)) return;
  if (dict) {
    uint64_t plain = 0;
    if (size_without_dict(cell, plain) && res.compressed_bytes > 0)
      res.dict_gain = static_cast<double>(plain) / static_cast<double>(res.compressed_bytes);
  }
  res.compress_latency = latency_pass(cell, Direction::Compress, opt);
  res.decompress_latency = latency_pass(cell, Direction::Decompress, opt);
  // Read after the calls: libraries size their contexts on first use (zstd's CCtx, the
  // brotli/xz arenas), so a fresh session reports the same figure at every level, or 0.
  res.context_memory = cell.sessions[0]->context_memory();
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
