// The plan: block sets x codec rows (memcpy first, then the file's own codec), and the
// options' budget scaling. Running it: bench/engine.cpp.
#include "bench/matrix.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

namespace kvz {

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
    const size_t first = m.cells.size();
    if (current && !current->codec->info().is_reference) m.cells.push_back({g, current->codec, current->params, true});
    auto planned = [&](const CodecChoice& c) {
      return std::any_of(m.cells.begin() + static_cast<std::ptrdiff_t>(first), m.cells.end(),
                         [&](const MatrixCell& mc) { return mc.codec == c.codec && mc.params == c.params; });
    };
    for (const auto& c : choices) {
      // A row asked for twice (`-c zstd:3/zstd:3:dict=16K` under a profile that adds the
      // dictionary row itself) is one cell: two would share a benchmark name and one set of
      // repetitions.
      if (planned(c)) continue;
      m.cells.push_back({g, c.codec, c.params, is_current(c.codec, c.params)});
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

namespace {

// The share of a set's positions that repeat 4 bytes seen earlier in the same block: how much an
// LZ codec finds to match, and the slow levels (zstd 19, xz) spend their time extending matches.
// Deterministic (the bytes only), so every shard computes the same figure; sampled (the first
// kRepeatSampleBytes of blocks) so planning stays a few milliseconds.
double repeat_fraction(const BlockSet& blocks) {
  constexpr size_t kRepeatSampleBytes = 256 * 1024;
  std::vector<uint32_t> last(4096);
  size_t positions = 0, repeats = 0;
  for (size_t b = 0; b < blocks.count() && positions < kRepeatSampleBytes; ++b) {
    const uint8_t* p = blocks.bytes.data() + blocks.offsets[b];
    const size_t n = blocks.offsets[b + 1] - blocks.offsets[b];
    std::fill(last.begin(), last.end(), UINT32_MAX);
    for (size_t i = 0; i + 4 <= n; ++i, ++positions) {
      uint32_t v = 0;
      std::memcpy(&v, p + i, 4);
      uint32_t& seen = last[(v * 2654435761U) >> 20];
      if (seen != UINT32_MAX && std::memcmp(p + seen, p + i, 4) == 0) ++repeats;
      seen = static_cast<uint32_t>(i);
    }
  }
  return positions ? static_cast<double>(repeats) / static_cast<double>(positions) : 0.0;
}

}  // namespace

double estimated_group_seconds(const Matrix& matrix, size_t group, const EngineOptions& opt) {
  const double rows = static_cast<double>(
      std::count_if(matrix.cells.begin(), matrix.cells.end(), [&](const MatrixCell& c) { return c.group == group; }));
  const BlockSet& blocks = matrix.groups[group].blocks;
  const double bytes = static_cast<double>(blocks.total_bytes());
  // Measured on the default sweep (bench/scripts/shard_balance.py): a set's seconds grow with its
  // bytes, its block size (larger windows slow the slow levels) and how much of it repeats.
  const double block = static_cast<double>(std::max<size_t>(blocks.block_size, 1));
  const double work = bytes * std::pow(block / 4096.0, 0.1) * (1.0 + repeat_fraction(blocks));
  const double per_row = opt.seconds_per_cell + 2 * opt.latency_seconds + 2 * work / kEstimateBytesPerSecond;
  return rows * per_row;
}

std::vector<int> assign_shards(const Matrix& matrix, const EngineOptions& opt) {
  const size_t shards = static_cast<size_t>(std::max(1, opt.shard_count));
  std::vector<double> cost(matrix.groups.size());
  for (size_t g = 0; g < cost.size(); ++g) cost[g] = estimated_group_seconds(matrix, g, opt);
  std::vector<size_t> order(cost.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return cost[a] > cost[b]; });
  std::vector<double> load(shards, 0);
  std::vector<int> shard_of(cost.size(), 0);
  for (const size_t g : order) {
    const auto lightest = static_cast<size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    shard_of[g] = static_cast<int>(lightest);
    load[lightest] += cost[g];
  }
  return shard_of;
}

void scale_latency_budget(EngineOptions& opt, double scale) {
  if (!(scale > 0 && scale < 1)) return;
  opt.latency_seconds *= scale;
  // At the sweeps' caps (0.02 s and up) the 1,000-call floor may cost 5 x the cap (1,000 calls
  // of 100 us); below them it keeps that ratio: 20 us calls at a 0.004 s cap.
  opt.fast_call_seconds = std::min(kFastCallSeconds, kFastCallSeconds * opt.latency_seconds / kFastFloorCapSeconds);
  opt.late_rounds_seconds = kLateRoundsSeconds * scale;
}

}  // namespace kvz
