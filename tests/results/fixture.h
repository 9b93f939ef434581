#pragma once
// Synthetic runs for results, judgement and report tests: a memcpy row plus a few codecs, with per-repetition speeds
// drawn from a seeded noisy distribution (no bench needed).
#include <fmt/format.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "results/results.h"

namespace kvz::testing {

// A file of `text` in the temporary directory, removed with the object.
struct TempFile {
  std::string path;
  explicit TempFile(const std::string& text) {
    std::string tmpl = (std::filesystem::temp_directory_path() / "kvz_results_XXXXXX").string();
    const int fd = ::mkstemp(tmpl.data());
    ::close(fd);
    path = tmpl;
    std::ofstream(path, std::ios::binary) << text;
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  ~TempFile() { std::filesystem::remove(path); }
};

struct FixtureCodec {
  const char* codec;
  int level;
  double ratio;
  double c_mbps;
  double d_mbps;
};

inline CellResult make_cell(const FixtureCodec& fc, uint64_t block, std::mt19937_64& rng, int reps, double noise,
                            const std::string& source = "synthetic") {
  CellResult c;
  c.key.source = source;
  c.key.record_mode = "dataset";
  c.key.layout = "rocksdb";
  c.key.block_size = block;
  c.key.codec = fc.codec;
  c.reference = std::string(fc.codec) == "memcpy";
  c.key.level = fc.level;
  c.key.params = std::to_string(fc.level);
  c.blocks = 256;
  c.input_bytes = 256 * block;
  c.compressed_bytes = static_cast<uint64_t>(static_cast<double>(c.input_bytes) / fc.ratio);
  c.stored_bytes = c.compressed_bytes + 5 * c.blocks;
  std::normal_distribution<double> n(1.0, noise);
  for (int i = 0; i < reps; ++i) {
    c.compress_mbps.push_back(fc.c_mbps * n(rng));
    c.decompress_mbps.push_back(fc.d_mbps * n(rng));
    c.compress_cpu_mbps.push_back(c.compress_mbps.back());
    c.decompress_cpu_mbps.push_back(c.decompress_mbps.back());
  }
  for (auto* l : {&c.compress_latency, &c.decompress_latency}) {
    l->calls = c.blocks * 10;  // 2,560: every percentile is supported
    const double p50 = 1e9 * static_cast<double>(block) / (fc.c_mbps * 1e6);
    // Each block's fastest call, added up: one pass at the codec's speed, exactly.
    const double mbps = l == &c.compress_latency ? fc.c_mbps : fc.d_mbps;
    l->intrinsic.fastest_sum_ns = 1e9 * static_cast<double>(c.input_bytes) / (mbps * 1e6);
    l->p50_ns = p50;
    l->p90_ns = p50 * 1.2;
    l->p99_ns = p50 * 1.5;
    l->p999_ns = p50 * 2;
    l->max_ns = p50 * 10;
    l->mean_ns = p50 * 1.1;
    l->stalls = {{500000, l->max_ns >= 500000 ? 1u : 0u}, {1000000, l->max_ns >= 1000000 ? 1u : 0u}};
    l->preempted_stalls = {{500000, 0u}, {1000000, 0u}};
    l->preempted_calls = c.blocks % 3 + 1;
    IntrinsicCost& ic = l->intrinsic;
    ic.blocks = c.blocks;
    ic.calls_per_block = 10;
    ic.median_block_ns = p50 * 0.95;
    ic.worst_block_ns = p50 * 1.4;
    ic.worst_block = c.blocks / 2;
    ic.worst_block_bytes = block;
    ic.worst_block_compressed = static_cast<uint64_t>(static_cast<double>(block) / fc.ratio);
    ic.stall_blocks = {{500000, ic.worst_block_ns >= 500000 ? 1u : 0u},
                       {1000000, ic.worst_block_ns >= 1000000 ? 1u : 0u}};
  }
  c.compress_context_bytes = 1000 + static_cast<uint64_t>(fc.level) * 100;
  c.decompress_context_bytes = 500;
  return c;
}

inline const std::vector<FixtureCodec>& fixture_codecs() {
  static const std::vector<FixtureCodec> v = {{"memcpy", 0, 1.0, 8000, 8000}, {"lz4", 1, 2.1, 700, 3500},
                                              {"snappy", 1, 2.0, 600, 1800},  {"zstd", 1, 2.8, 450, 1200},
                                              {"zstd", 3, 3.0, 300, 1100},    {"zlib", 6, 3.1, 40, 350},
                                              {"xz", 6, 3.6, 4, 90}};
  return v;
}

// One run: every fixture codec at each block size.
inline RunResults make_run(uint64_t seed, int reps = 9, double noise = 0.03) {
  std::mt19937_64 rng(seed);
  RunResults r;
  r.meta.kvzbench_version = "0.1.0";
  r.meta.git_revision = "abc123";
  r.meta.cpu_model = "Test CPU @ 2.0GHz";
  r.meta.cores = 2;
  r.meta.repetitions = reps;
  r.meta.command_line = "kvzbench run --profile quick";
  r.meta.started_at = "2026-01-01T00:00:00Z";
  r.meta.codec_versions = {{"lz4", "liblz4", "1.9.4"},
                           {"snappy", "snappy", "1.1.9"},
                           {"zstd", "libzstd", "1.5.4"},
                           {"zlib", "zlib", "1.2.13"},
                           {"xz", "liblzma", "5.4.1"}};
  for (uint64_t block : {4096u, 65536u})
    for (const auto& fc : fixture_codecs()) {
      FixtureCodec f = fc;
      if (block == 65536) f.ratio *= 1.15;  // bigger blocks compress better
      r.cells.push_back(make_cell(f, block, rng, reps, noise));
    }
  return r;
}

// A codec's call under a store profile: the fixture codec and the params the store's run records.
struct StoreCall {
  FixtureCodec fc;
  const char* params;
};

// A run of a noiseless cell per call under `profile`, as `run --profile` measures the store's calls.
inline RunResults store_run(const std::string& profile, const std::vector<StoreCall>& calls, uint64_t block,
                            uint64_t seed) {
  std::mt19937_64 rng(seed);
  RunResults r;
  for (const auto& call : calls) {
    CellResult c = make_cell(call.fc, block, rng, 3, 0);
    c.key.profile = profile;
    c.key.params = call.params;
    r.cells.push_back(c);
  }
  return r;
}

// `sources` copies of make_run's cells, each under its own source name (src0, src1, ...): a sweep
// of many block sets, several batches of a streamed load.
inline RunResults make_sweep(uint64_t seed, size_t sources, int reps = 3) {
  RunResults r = make_run(seed, reps);
  const std::vector<CellResult> one = r.cells;
  r.cells.clear();
  for (size_t s = 0; s < sources; ++s)
    for (CellResult c : one) {
      c.key.source = "src" + std::to_string(s);
      c.input_bytes += 4096 * s;  // a later source is larger: the block sets differ in size
      r.cells.push_back(std::move(c));
    }
  return r;
}

// Shard 0 of 2 of `base` as `run --shard 0/2` might write it: every other cell, no memcpy row.
inline RunResults first_of_two_shards(const RunResults& base) {
  RunResults shard = base;
  shard.meta.extra["shard"] = "0/2";
  shard.cells.clear();
  for (size_t i = 0; i < base.cells.size(); ++i)
    if (i % 2 == 0 && !base.cells[i].reference) shard.cells.push_back(base.cells[i]);
  return shard;
}

// Scale every codec's speeds (not the reference row's): a baseline "doctored" to be faster.
inline RunResults scaled(RunResults r, double factor) {
  for (auto& c : r.cells) {
    if (c.reference) continue;
    for (auto* speeds : {&c.compress_mbps, &c.decompress_mbps, &c.compress_cpu_mbps, &c.decompress_cpu_mbps})
      for (auto& v : *speeds) v *= factor;
  }
  return r;
}

// One cell with given speeds and a latency profile: 300 calls (a p99, no p99.9), one preempted
// 4 ms call, the worst block #17 at `worst_block_us`.
inline CellResult latency_cell(const std::string& codec, int level, double ratio, std::vector<double> c_mbps,
                               std::vector<double> d_mbps, double worst_block_us = 50) {
  CellResult c;
  c.key = CellKey{.source = std::string("s"),
                  .layout = std::string("rocksdb"),
                  .block_size = 4096,
                  .codec = codec,
                  .level = level,
                  .params = fmt::format("{}", level)};
  c.blocks = 100;
  c.input_bytes = 409600;
  c.compressed_bytes = static_cast<uint64_t>(409600 / ratio);
  c.stored_bytes = c.compressed_bytes;
  c.compress_mbps = std::move(c_mbps);
  c.decompress_mbps = std::move(d_mbps);
  for (LatencyStats* l : {&c.compress_latency, &c.decompress_latency}) {
    l->calls = 300;  // p99, no p99.9
    l->p50_ns = l->p90_ns = l->p99_ns = worst_block_us * 500;
    l->max_ns = 4e6;  // a preempted call: 4 ms
    l->stalls = {{500'000, 1}};
    l->preempted_stalls = {{500'000, 1}};
    l->intrinsic.calls_per_block = 3;
    l->intrinsic.worst_block_ns = worst_block_us * 1e3;
    l->intrinsic.worst_block = 17;
    l->intrinsic.worst_block_bytes = 4096;
    l->intrinsic.worst_block_compressed = 1203;
    l->intrinsic.stall_blocks = {{500'000, worst_block_us >= 500 ? 1u : 0u}};
  }
  return c;
}

}  // namespace kvz::testing
