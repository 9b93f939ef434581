#include "judgement/level_model.h"

#include <algorithm>
#include <cmath>

namespace kvz {

namespace {

// File bytes per data byte: the data blocks as stored, their index entries, and a file's own
// blocks per target_file of file bytes.
struct FileRate {
  double per_data = 1;  // file bytes per data byte, before the per-file bytes
  double per_file = 0;  // the per-file bytes' share of a file's bytes
};
FileRate file_rate(double ratio, const LsmOptions& o) {
  FileRate r;
  r.per_data = ratio > 0 ? 1 / ratio : 1;
  if (o.block_size <= 0) return r;
  r.per_data += kIndexBytesPerBlock / o.block_size;
  r.per_file = o.target_file > 0 ? std::min(0.5, kTableFileBytes / o.target_file) : 0;
  return r;
}

}  // namespace

double memtable_arena_bytes(double write_buffer) {
  constexpr double kInlineBlock = 2048, kAlign = 4096;
  const double block = std::ceil(std::min(1048576.0, std::floor(write_buffer / 8)) / kAlign) * kAlign;
  const double blocks = std::max(1.0, std::ceil((write_buffer - 0.4 * block - kInlineBlock) / block));
  return kInlineBlock + (blocks - 0.25) * block;
}

double memtable_data(const LsmOptions& o) {
  if (o.record_bytes <= 0) return o.write_buffer * kMemtableFill;
  return memtable_arena_bytes(o.write_buffer) * o.record_bytes / (o.record_bytes + kMemtableEntryBytes);
}

double with_table_files(double data, double ratio, const LsmOptions& o) {
  const FileRate r = file_rate(ratio, o);
  return data * r.per_data / (1 - r.per_file);
}

double data_in_files(double file_bytes, double ratio, const LsmOptions& o) {
  const FileRate r = file_rate(ratio, o);
  return file_bytes * (1 - r.per_file) / r.per_data;
}

namespace {

LevelShare level_of(int level, double data, double ratio, const LsmOptions& o) {
  LevelShare s;
  s.level = level;
  s.data_bytes = data;
  s.stored_bytes = with_table_files(data, ratio, o);
  return s;
}

// L0 when the load ends and compaction has settled. An ascending load's flushes overlap nothing:
// each L0 compaction at the trigger moves them down at once, and L0 keeps 0 .. trigger - 1 of
// them, (trigger - 1) / 2 on average (the real loads: 3 of trigger 4). A shuffled load's
// compactions take longer than its flushes: when it ends, one is still behind and takes every L0
// file, the last flush's too (the real loads: L0 empty).
double l0_data(const LsmOptions& o) {
  if (o.order == LoadOrder::Shuffled) return 0;
  return std::min(o.data_bytes, (o.l0_trigger - 1) / 2.0 * memtable_data(o));
}

void static_levels(const LsmOptions& o, const LevelRatio& ratio, LsmShape& shape) {
  double remaining = o.data_bytes - shape.levels.front().data_bytes;
  double target = o.level_base;
  for (int level = 1; level < o.num_levels && remaining > 0; ++level, target *= o.multiplier) {
    const double r = ratio(level);
    const bool last = level == o.num_levels - 1;
    const double held = std::max(target - o.target_file / 2, target / 2);  // a file can be the whole level
    const double data = last ? remaining : std::min(remaining, data_in_files(held, r, o));
    shape.levels.push_back(level_of(level, data, r, o));
    remaining -= data;
  }
}

// The deepest level holds X stored bytes, level `last - k` X / multiplier^k; the base level is
// the first, going up, whose target fits max_bytes_for_level_base (L1 at the latest).
void dynamic_levels(const LsmOptions& o, const LevelRatio& ratio, LsmShape& shape) {
  const double remaining = o.data_bytes - shape.levels.front().data_bytes;
  if (remaining <= 0) return;
  const int last = o.num_levels - 1;
  double data_per_x = 0;  // data held per stored byte of the deepest level, levels b..last
  for (int b = last; b >= 1; --b) {
    const double scale = std::pow(o.multiplier, last - b);
    data_per_x += data_in_files(1, ratio(b), o) / scale;
    const double x = remaining / data_per_x;
    if (x / scale > o.level_base && b > 1) continue;
    shape.base_level = b;
    for (int level = b; level <= last; ++level) {
      const double r = ratio(level);
      shape.levels.push_back(level_of(level, data_in_files(x / std::pow(o.multiplier, last - level), r, o), r, o));
    }
    return;
  }
}

// The deepest level's stored bytes with an ascending load's first flush in L0's codec (the model
// above). The levels above are sized as before: under dynamic sizes the deepest's extra bytes would
// raise their targets by as much in proportion (well under 1 % of their bytes at the 100 MB loads).
void first_flush_in_l0_codec(const LsmOptions& o, const LevelRatio& ratio, LsmShape& shape) {
  if (o.order != LoadOrder::Ascending || shape.levels.size() < 2) return;
  LevelShare& deepest = shape.levels.back();
  const double flush = std::min(memtable_data(o), deepest.data_bytes);
  const double r0 = ratio(0), rd = ratio(deepest.level);
  if (r0 <= 0 || rd <= 0) return;
  deepest.stored_bytes += flush / r0 - flush / rd;
}

// Per level: whether the bytes arriving from above are rewritten (1) or moved as files (0), and
// how much of the level's own data each arriving byte rewrites (the rules in level_model.h).
struct LevelFlow {
  double arrival = 1;
  double overlap = 0;
};

LevelFlow shuffled_flow(const LsmOptions& o, const LsmShape& shape, size_t i) {
  const auto& levels = shape.levels;
  const LevelShare& s = levels[i];
  if (i == 1) return {1, s.data_bytes / (o.l0_trigger * memtable_data(o))};
  const bool remainder = !o.dynamic && i + 1 == levels.size() && i >= 2;
  if (remainder) return {0, 0};
  const double above = levels[i - 1].data_bytes;
  return {1, above > 0 ? kOverlapShare * s.data_bytes / above : 0};
}

LevelFlow ascending_flow(const LsmShape& shape, size_t i, const LevelCodecId& codec) {
  const int level = shape.levels[i].level, above = shape.levels[i - 1].level;
  const bool same = codec && codec(level) == codec(above);
  return {same ? 0.0 : 1.0, 0};
}

void flows(const LsmOptions& o, LsmShape& shape, const LevelCodecId& codec) {
  auto& levels = shape.levels;
  std::vector<LevelFlow> flow(levels.size());
  for (size_t i = 1; i < levels.size(); ++i)
    flow[i] = o.order == LoadOrder::Ascending ? ascending_flow(shape, i, codec) : shuffled_flow(o, shape, i);
  for (size_t i = 0; i < levels.size(); ++i) {
    LevelShare& s = levels[i];
    s.rewrites = i == 0 ? 1 : flow[i].arrival + flow[i].overlap;  // L0's: the flush
    s.compaction_reads = flow[i].overlap + (i + 1 < levels.size() ? flow[i + 1].arrival : 0);
    s.read_share = o.data_bytes > 0 ? s.data_bytes / o.data_bytes : 0;
  }
}

}  // namespace

LsmShape lsm_shape(const LsmOptions& o, const LevelRatio& stored_ratio, const LevelCodecId& codec) {
  LsmShape shape;
  shape.levels.push_back(level_of(0, l0_data(o), stored_ratio(0), o));
  if (o.dynamic)
    dynamic_levels(o, stored_ratio, shape);
  else
    static_levels(o, stored_ratio, shape);
  // A level the data does not reach is not part of the shape.
  while (shape.levels.size() > 1 && shape.levels.back().data_bytes <= 0) shape.levels.pop_back();
  first_flush_in_l0_codec(o, stored_ratio, shape);
  flows(o, shape, codec);
  return shape;
}

LsmShape lsm_shape_of_levels(const LsmOptions& o, std::vector<LevelShare> levels) {
  LsmShape shape;
  if (levels.empty() || levels.front().level != 0) levels.insert(levels.begin(), level_of(0, 0, 1, o));
  shape.levels = std::move(levels);
  shape.base_level = shape.levels.size() > 1 ? shape.levels[1].level : 1;
  LsmOptions held = o;
  held.data_bytes = 0;
  for (const auto& s : shape.levels) held.data_bytes += s.data_bytes;
  flows(held, shape, {});
  return shape;
}

}  // namespace kvz
