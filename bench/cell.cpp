#include "bench/cell.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "bench/cell_dict.h"
#include "bench/latency_pass.h"
#include "bench/timer.h"
#include "codecs/spec.h"
#include "stores/framing.h"
#include "util/stats.h"

namespace kvz {

namespace {

std::string open_error(const Codec& codec, const std::string& what) {
  return fmt::format("{}: {}", codec.info().name, what);
}

// The buffers verification fills: the compressed blocks back to back (at their bounds until
// verified) and every worker's output buffer. Returns the largest measured block.
size_t size_buffers(CellState& cell) {
  Session& s = *cell.sessions[0];
  const BlockSet& bs = cell.group->blocks;
  size_t max_block = 0, bound_total = 0;
  for (size_t i : cell.measured) {
    max_block = std::max(max_block, bs.block(i).size());
    bound_total += s.bound(bs.block(i).size());
  }
  cell.scratch_bytes = std::max(max_block, s.bound(max_block));
  cell.packed.resize(bound_total);
  cell.packed_offsets.assign(1, 0);
  cell.stored_block_bytes.clear();
  return max_block;
}

// Compress every measured block once, back to back into cell.packed, each call timed.
bool compress_all(CellState& cell) {
  Session& s = *cell.sessions[0];
  const BlockSet& bs = cell.group->blocks;
  std::vector<uint64_t>& ticks = cell.verify_ticks[static_cast<int>(Direction::Compress)];
  ticks.assign(cell.measured.size(), 0);
  size_t pos = 0;
  for (size_t k = 0; k < cell.measured.size(); ++k) {
    if (cell.stopped()) return false;  // interrupted: the engine drops this block set
    const ByteView in = bs.block(cell.measured[k]);
    const size_t cap = s.bound(in.size());
    const uint64_t t0 = read_ticks();
    const CallResult r = s.compress(in, MutableByteView(cell.packed.data() + pos, cap));
    ticks[k] = read_ticks() - t0;
    if (!r.ok()) {
      cell.figures.failure = fmt::format("compress failed at block {}: {}", cell.measured[k], r.error);
      return false;
    }
    pos += r.size;
    cell.packed_offsets.push_back(pos);
  }
  return true;
}

// Decompress every compressed block once, each call timed, into `back` pre-filled with a
// pattern, and compare it with the block.
bool decompress_and_compare(CellState& cell, std::vector<uint8_t>& back) {
  Session& s = *cell.sessions[0];
  const BlockSet& bs = cell.group->blocks;
  std::vector<uint64_t>& ticks = cell.verify_ticks[static_cast<int>(Direction::Decompress)];
  ticks.assign(cell.measured.size(), 0);
  std::string& failure = cell.figures.failure;
  for (size_t k = 0; k < cell.measured.size(); ++k) {
    if (cell.stopped()) return false;
    const size_t idx = cell.measured[k];
    const ByteView in = bs.block(idx);
    const ByteView packed(cell.packed.data() + cell.packed_offsets[k], cell.packed_size(k));
    std::fill(back.begin(), back.begin() + static_cast<std::ptrdiff_t>(in.size()), uint8_t{0xA5});
    const uint64_t t0 = read_ticks();
    const CallResult r = s.decompress(packed, MutableByteView(back.data(), in.size()));
    ticks[k] = read_ticks() - t0;
    if (!r.ok()) {
      failure = fmt::format("decompress failed at block {}: {}", idx, r.error);
      return false;
    }
    if (r.size != in.size()) {
      failure = fmt::format("round trip mismatch at block {} (size {} != {})", idx, r.size, in.size());
      return false;
    }
    if (!in.empty() && std::memcmp(back.data(), in.data(), in.size()) != 0) {
      size_t off = 0;
      while (back[off] == in[off]) ++off;
      failure = fmt::format("round trip mismatch at block {} (offset {})", idx, off);
      return false;
    }
  }
  return true;
}

// A typical call per direction, which sizes the latency passes: the median, so a first call
// that sizes the library's context does not make a 90 µs codec look like a 100 µs one.
void estimate_calls(CellState& cell) {
  for (int d = 0; d < 2; ++d) {
    std::vector<uint64_t> ticks = cell.verify_ticks[d];
    cell.est_call_seconds[d] =
        ticks.empty() ? 0
                      : static_cast<double>(percentile_nearest_rank(ticks, 0.5)) * tick_clock_info().ns_per_tick * 1e-9;
  }
}

// Sizes and the keep-raw rule (or the store profile's framing and rule), per measured block.
void count_sizes(CellState& cell, const EngineOptions& opt) {
  const BlockSet& bs = cell.group->blocks;
  SizeFigures& sizes = cell.figures.sizes;
  sizes.blocks = cell.measured.size();
  sizes.min_saving = opt.min_saving;
  // The codec as the store sees it: once per cell, not once per block (label() allocates).
  const BlockCodec as_stored{cell.codec->info().name, cell.params.label(), cell.codec->info().is_reference};
  for (size_t k = 0; k < cell.measured.size(); ++k) {
    const size_t raw = bs.block(cell.measured[k]).size();
    const size_t comp = cell.packed_size(k);
    sizes.input += raw;
    sizes.compressed += comp;
    const StoredBlock sb = stored_in_group(*cell.group, as_stored, raw, comp, opt.min_saving);
    if (cell.group->store) cell.stored_block_bytes.push_back(sb.bytes);
    sizes.stored += sb.bytes;
    sizes.kept_raw += sb.kept_raw;
    if (cell.measured[k] < bs.records_per_block.size()) sizes.records += bs.records_per_block[cell.measured[k]];
  }
  const DictFigures& dict = cell.figures.dict;
  sizes.stored += dict.block_bytes;  // a dictionary kept in the file is written once per file
  if (cell.current) sizes.on_disk = bs.origin.on_disk + (dict.bytes ? bs.origin.dictionary_on_disk : 0);
}

// Round trip every measured block once. Each call is timed: it is the block's first call for
// its intrinsic cost (stream mode), and the pass sizes the latency passes.
bool verify_blocks(CellState& cell, const EngineOptions& opt) {
  std::vector<uint8_t> back(size_buffers(cell));
  if (!compress_all(cell) || !decompress_and_compare(cell, back)) return false;
  estimate_calls(cell);
  count_sizes(cell, opt);
  cell.packed.resize(cell.packed_offsets.back());
  return true;
}

}  // namespace

StoredBlock stored_in_group(const BlockGroup& group, const BlockCodec& codec, size_t raw, size_t compressed,
                            double min_saving) {
  if (group.store) return store_block(*group.store, codec, raw, compressed);
  return framing::stored_unframed(raw, compressed, min_saving);
}

void finish_intrinsic(CellState& cell, const EngineOptions& opt) {
  const double ns_per_tick = tick_clock_info().ns_per_tick;
  for (int d = 0; d < 2; ++d)
    cell.figures.dirs[d].latency.intrinsic = cell.intrinsic[d].cost(ns_per_tick, opt.stall_thresholds_ns);
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
      j.in_size = cell.packed_size(k);
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
  CellFigures& fig = cell.figures;
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
      fig.failure = open_error(*cell.codec, s.error);
      return;
    }
    cell.sessions.push_back(std::move(s.value));
  }
  if (!verify_blocks(cell, opt)) {
    cell.cut_short = fig.failure.empty() && cell.stopped();  // not a failure: the run was stopped
    return;
  }
  if (dict) {
    uint64_t plain = 0;
    const uint64_t with = fig.dict.method == "file" ? fig.sizes.stored : fig.sizes.compressed;
    if (size_without_dict(cell, opt, plain) && with > 0)
      fig.dict.gain = static_cast<double>(plain) / static_cast<double>(with);
  }
  predict_store_file(cell);
  for (const Direction dir : {Direction::Compress, Direction::Decompress})
    fig.dirs[static_cast<int>(dir)].latency = latency_pass(cell, dir, opt);
  // Read after the calls: libraries size their contexts on first use (zstd's CCtx, the
  // brotli/xz arenas), so a fresh session reports the same figure at every level, or 0.
  const ContextMemory memory = cell.sessions[0]->context_memory();
  fig.dirs[0].context_bytes = memory.compress;
  fig.dirs[1].context_bytes = memory.decompress;
  if (cell.pass_error) {
    fig.failure = "a call failed during the latency pass after the round trip had verified";
    return;
  }
  cell.ok = true;
  fig.wall_seconds += wall_seconds() - w0;
  fig.cpu_seconds += process_cpu_seconds() - cpu0;
}

}  // namespace kvz
