#include "judgement/universal_model.h"

#include <algorithm>
#include <cmath>

namespace kvz {

namespace {

// Beyond this many flushes a flush stands for several memtables (the replay stays fast enough to
// price every codec plan).
constexpr double kMaxFlushes = 16384;

struct Run {
  int level = 0;  // where the run sits (0: an L0 file)
  int slot = 0;   // the compression_per_level entry it was written with (num_levels - 1: bottommost)
  double data = 0;
  double stored = 0;
};

struct Range {
  size_t begin = 0, end = 0;  // runs [begin, end), newest first
};

class Replay {
 public:
  Replay(const LsmOptions& o, const UniversalOptions& u, const LevelRatio& ratio)
      : o_(o), u_(u), ratio_(ratio), written_(static_cast<size_t>(o.num_levels)), read_(written_.size()) {}

  void flush(double data) {
    runs_.insert(runs_.begin(), Run{0, 0, data, data / ratio_(0)});
    written_[0] += data;
    for (Range r; pick(r);) compact(r);
  }
  UniversalShape shape(double ingested) const;

 private:
  double total_stored() const {
    double sum = 0;
    for (const auto& r : runs_) sum += r.stored;
    return sum;
  }
  // PickCompactionToReduceSizeAmp: the runs but the oldest against the oldest.
  bool size_amplification(Range& r) const {
    const double newer = total_stored() - runs_.back().stored;
    if (runs_.size() < 2 || newer * 100 < u_.max_size_amplification_percent * runs_.back().stored) return false;
    r = {0, runs_.size()};
    return true;
  }
  // PickCompactionToReduceSortedRuns: the first stretch from the newest run whose next run is at
  // most (100 + ratio) % of the stretch's sum, of min_merge_width runs or more.
  bool size_ratio(double ratio, size_t max_runs, Range& r) const {
    const size_t widest = std::min<size_t>(u_.max_merge_width, max_runs);
    const size_t narrowest = std::max(u_.min_merge_width, 2u);
    for (size_t start = 0; start < runs_.size(); ++start) {
      double sum = runs_[start].stored;
      size_t count = 1;
      for (size_t i = start + 1; count < widest && i < runs_.size(); ++i, ++count) {
        if (sum * (100.0 + ratio) / 100.0 < runs_[i].stored) break;
        sum += runs_[i].stored;
      }
      if (count >= narrowest) {
        r = {start, start + count};
        return true;
      }
    }
    return false;
  }
  bool pick(Range& r) const {
    const auto trigger = static_cast<size_t>(o_.l0_trigger);
    if (runs_.size() < trigger) return false;
    if (size_amplification(r) || size_ratio(u_.size_ratio, SIZE_MAX, r)) return true;
    return runs_.size() > trigger && size_ratio(INFINITY, runs_.size() - trigger + 1, r);
  }
  int output_level(const Range& r) const {
    if (r.end == runs_.size()) return o_.num_levels - 1;
    return runs_[r.end].level == 0 ? 0 : runs_[r.end].level - 1;
  }
  // GetCompressionType: bottommost_compression when the output level is at or below the deepest
  // non-empty level, else compression_per_level[level] (base level 1 under universal).
  int slot_of(int level) const {
    const int deepest = runs_.back().level;
    return level >= deepest ? o_.num_levels - 1 : level;
  }
  void compact(const Range& r) {
    Run out;
    out.level = output_level(r);
    out.slot = slot_of(out.level);
    for (size_t i = r.begin; i < r.end; ++i) {
      out.data += runs_[i].data;
      read_[static_cast<size_t>(runs_[i].slot)] += runs_[i].data;
    }
    out.stored = out.data / ratio_(out.slot);
    written_[static_cast<size_t>(out.slot)] += out.data;
    peak_ = std::max(peak_, total_stored() + out.stored);
    runs_.erase(runs_.begin() + static_cast<std::ptrdiff_t>(r.begin),
                runs_.begin() + static_cast<std::ptrdiff_t>(r.end));
    runs_.insert(runs_.begin() + static_cast<std::ptrdiff_t>(r.begin), out);
  }

  const LsmOptions& o_;
  const UniversalOptions& u_;
  const LevelRatio& ratio_;
  std::vector<Run> runs_;
  std::vector<double> written_, read_;  // data bytes per slot
  double peak_ = 0;
};

UniversalShape Replay::shape(double ingested) const {
  UniversalShape s;
  for (const auto& r : runs_) s.runs.push_back({r.level, r.data, r.stored});
  for (size_t slot = 0; slot < written_.size(); ++slot) {
    LevelShare l;
    l.level = static_cast<int>(slot);
    for (const auto& r : runs_) {
      if (static_cast<size_t>(r.slot) != slot) continue;
      l.data_bytes += r.data;
      l.stored_bytes += r.stored;
    }
    if (l.data_bytes <= 0 && written_[slot] <= 0) continue;
    l.rewrites = written_[slot] / ingested;
    l.compaction_reads = read_[slot] / ingested;
    l.read_share = l.data_bytes / ingested;
    s.levels.push_back(l);
  }
  const double stored = s.stored_bytes();
  if (runs_.size() > 1) s.size_amplification = (stored - runs_.back().stored) / runs_.back().stored;
  s.peak_stored_bytes = std::max(peak_, stored);
  return s;
}

}  // namespace

double UniversalShape::stored_bytes() const {
  double sum = 0;
  for (const auto& r : runs) sum += r.stored_bytes;
  return sum;
}

double UniversalShape::write_amplification() const {
  double sum = 0;
  for (const auto& l : levels) sum += l.rewrites;
  return sum;
}

UniversalShape universal_shape(const LsmOptions& o, const UniversalOptions& u, const LevelRatio& stored_ratio) {
  const double flush = std::max(memtable_data(o), o.data_bytes / kMaxFlushes);
  Replay replay(o, u, stored_ratio);
  // Whole flushes, then the rest (a remainder within rounding of 0 is none).
  const auto whole = static_cast<int>(std::floor(o.data_bytes / flush * (1 + 1e-12)));
  const double rest = std::max(0.0, o.data_bytes - whole * flush);
  for (int i = 0; i < whole; ++i) replay.flush(flush);
  if (rest > flush * 1e-9) replay.flush(rest);
  const int flushes = whole + (rest > flush * 1e-9 ? 1 : 0);
  UniversalShape s = replay.shape(o.data_bytes);
  s.flush_bytes = flush;
  s.flushes = flushes;
  return s;
}

}  // namespace kvz
