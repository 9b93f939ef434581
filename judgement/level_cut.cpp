#include "judgement/level_cut.h"

#include <algorithm>
#include <iterator>

namespace kvz {

namespace {

double data_of(const LsmShape& shape) {
  double sum = 0;
  for (const auto& s : shape.levels) sum += s.data_bytes;
  return sum;
}

// The share of the level's records that keep their numbers in its own cut; `below` is the data of
// the deepest level when `s` is the one just above it (static sizes), else 0. An ascending load's
// trivial moves keep the numbers above the deepest level (its samples cover the codecs' changes);
// after a shuffled one the level above the deepest was the deepest, and rewritten zeroed, before
// the deepest appeared.
double kept_share(const LevelShare& s, const LsmShape& shape, const LsmOptions& o, double below) {
  if (s.level == 0) return 1;
  if (s.level == shape.deepest()) return 0;
  if (o.order == LoadOrder::Ascending || o.dynamic || below <= 0 || s.level == shape.base_level) return 1;
  return kStaticSplitKeptSlope * below / (below + s.data_bytes);
}

// The level's slice with every number the other way from its own cut's.
LevelCut other_way(LevelCut cut) {
  const bool kept = cut.slice.kept >= kMostlyZeroed;
  cut.slice.kept = kept ? 0 : 1;
  cut.numbers = kept ? CutNumbers::AllZeroed : CutNumbers::AllKept;
  return cut;
}

}  // namespace

std::vector<LevelCut> level_cuts(const LsmShape& shape, const LsmOptions& o) {
  std::vector<LevelCut> cuts;
  const double total = data_of(shape);
  if (total <= 0) return cuts;
  double from = 0;
  for (auto it = shape.levels.rbegin(); it != shape.levels.rend(); ++it) {
    if (it->data_bytes <= 0) continue;
    const bool above_deepest = std::distance(shape.levels.rbegin(), it) == 1;
    const double below = above_deepest && !o.dynamic ? shape.levels.back().data_bytes : 0;
    const double kept = kept_share(*it, shape, o, below);
    const double share = it->data_bytes / total;
    if (below > 0 && kept < kMostlyZeroed && !cuts.empty() && cuts.back().numbers == CutNumbers::Own) {
      // Cut with the deepest: one slice of both levels' writes, their kept numbers pooled.
      LevelCut& pair = cuts.back();
      pair.first = it->level;
      pair.slice.to += share;
      pair.slice.kept = kept * it->data_bytes / (it->data_bytes + below);
    } else {
      cuts.push_back(
          {.first = it->level, .last = it->level, .slice = {.from = from, .to = from + share, .kept = kept}});
      if (o.order == LoadOrder::Ascending && it->level > 0) cuts.push_back(other_way(cuts.back()));
    }
    from += share;
  }
  return cuts;
}

std::vector<LevelCut> universal_level_cuts(const UniversalShape& shape, bool zeroed_flush) {
  std::vector<LevelCut> cuts;
  // Runs are newest first, so the deepest level's comes last; a level's runs are neighbours.
  for (auto it = shape.runs.rbegin(); it != shape.runs.rend(); ++it) {
    if (it->data_bytes <= 0) continue;
    if (!cuts.empty() && cuts.back().first == it->level) {
      LevelSlice& s = cuts.back().slice;
      const double before = s.to - s.from, added = it->to - it->from;
      s.kept = (s.kept * before + it->kept * added) / (before + added);
      s.from = std::min(s.from, it->from);
      s.to = std::max(s.to, it->to);
      continue;
    }
    cuts.push_back(
        {.first = it->level, .last = it->level, .slice = {.from = it->from, .to = it->to, .kept = it->kept}});
  }
  // Every L0 file is a flush: the newest memtable's records (for a shuffled load a sparse sample of
  // the keys, compressing worse than any merged run), cut even when none is left at the end, as the
  // replay sizes every flush on it.
  double data = 0;
  for (const auto& r : shape.runs) data += r.data_bytes;
  if (data <= 0) return cuts;
  const double flush = std::min(1.0, shape.flush_bytes / data);
  if (cuts.empty() || cuts.back().first != 0)
    cuts.push_back({.first = 0, .last = 0, .slice = {.from = 1 - flush, .to = 1, .kept = 1}});
  if (zeroed_flush)
    cuts.push_back(
        {.first = 0, .last = 0, .slice = {.from = 1 - flush, .to = 1, .kept = 0}, .numbers = CutNumbers::AllZeroed});
  return cuts;
}

std::map<int, CutNumbers> numbers_by_codec(const LsmShape& shape, const LsmOptions& o, const LevelCodecId& codec) {
  std::map<int, CutNumbers> numbers;
  if (o.order != LoadOrder::Ascending || !codec || shape.levels.empty()) return numbers;
  const int l0 = codec(shape.levels.front().level);
  bool one_codec = true;
  for (size_t i = 1; i < shape.levels.size(); ++i) {
    const int level = shape.levels[i].level;
    one_codec = one_codec && codec(level) == l0;
    numbers[level] = one_codec ? CutNumbers::AllKept : CutNumbers::AllZeroed;
  }
  return numbers;
}

}  // namespace kvz
