#include "judgement/universal_model.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <optional>
#include <random>

namespace kvz {

namespace {

// Beyond this many flushes a flush stands for several memtables (the replay stays fast enough to
// price every codec plan).
constexpr double kMaxFlushes = 16384;

// What a compaction's time asks its codecs for: their speeds, not a run's ratio.
constexpr RunSample kSpeedsOnly{0, 0};

struct Run {
  int level = 0;  // where the run sits (0: an L0 file)
  int slot = 0;   // the compression_per_level entry it was written with (num_levels - 1: bottommost)
  double data = 0;
  double stored = 0;
  double from = 0, to = 0;  // the writes it holds, in data bytes of the load
  double kept = 0;          // its data that keeps its sequence numbers
  double scale = 1;         // its stored bytes against its codec's ratio on its level (jitter)
};

struct Range {
  size_t begin = 0, end = 0;  // runs [begin, end), newest first
};

// A compaction under way: its runs counted from the oldest (flushes arrive at the newest end).
struct Job {
  size_t after = 0;  // runs older than its stretch
  size_t count = 0;
  Run out;                  // its level and slot, decided when picked
  bool bottommost = false;  // decided when picked too: the merge zeroes sequence numbers
  double ends = 0;          // seconds
};

class Replay {
 public:
  Replay(const LsmOptions& o, const UniversalOptions& u, const RunCodecs& codecs, double ingest_mbps,
         double time_factor)
      : o_(o),
        u_(u),
        codecs_(codecs),
        ingest_(ingest_mbps * 1e6),
        time_factor_(time_factor),
        written_(static_cast<size_t>(o.num_levels)),
        read_(written_.size()) {}

  // A flush of `data` whose file comes out `scale` x its codec's ratio on L0 says.
  void flush(double data, double scale) {
    fill(data);
    Run run{0, 0, data, 0, ingested_, ingested_ + data, data, scale};
    run.stored = file_bytes(data, codecs_(0, 0, sample(run)).stored_ratio) * scale;
    runs_.insert(runs_.begin(), run);
    ingested_ += data;
    written_[0] += data;
    load_seconds_ = now_;
    if (ingest_ <= 0)
      settle();
    else
      start();
  }
  // The load has ended: compaction goes on until nothing is picked.
  void settle() {
    for (start(); job_; start()) finish();
  }
  UniversalShape shape(double ingested) const;

 private:
  // A run is one table file (universal compaction does not cut its output by target_file_size_base):
  // its data blocks as stored, their index entries and the file's own blocks, as the picker sees it.
  double file_bytes(double data, double ratio) const {
    if (o_.block_size <= 0) return data / ratio;
    return data / ratio + data * kIndexBytesPerBlock / o_.block_size + kTableFileBytes;
  }
  RunSample sample(const Run& r) const { return {r.data / o_.data_bytes, r.data > 0 ? 1 - r.kept / r.data : 0}; }
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
  // IsBottommostLevel: nothing older, or below L0 with no older run over its keys (an ascending
  // load's older runs hold smaller keys only; a shuffled load's span them all).
  bool bottommost(const Range& r, int level) const {
    if (r.end == runs_.size()) return true;
    return level > 0 && o_.order == LoadOrder::Ascending;
  }
  double seconds(double data, const RunCodec& c, bool compress) const {
    const double mbps = compress ? c.compress_mbps : c.decompress_mbps;
    return mbps > 0 ? data / 1e6 / mbps : 0;
  }
  // A compaction's time beside its codec: its records and its table file's bytes (per byte of data
  // without a record size).
  double merge_seconds(double data, double ratio) const {
    if (o_.record_bytes <= 0) return data / 1e6 / kCompactionMergeMBps;
    return data / o_.record_bytes * kUniversalRecordNs * 1e-9 + file_bytes(data, ratio) / 1e6 / kUniversalFileMBps;
  }
  // Starts the picker's compaction when none runs.
  void start() {
    Range r;
    if (job_ || !pick(r)) return;
    Job job;
    job.after = runs_.size() - r.end;
    job.count = r.end - r.begin;
    job.out.level = output_level(r);
    job.out.slot = slot_of(job.out.level);
    job.bottommost = bottommost(r, job.out.level);
    double secs = 0;
    for (size_t i = r.begin; i < r.end; ++i) {
      job.out.data += runs_[i].data;
      secs += seconds(runs_[i].data, codecs_(runs_[i].slot, runs_[i].level, kSpeedsOnly), false);
    }
    const RunCodec out = codecs_(job.out.slot, job.out.level, kSpeedsOnly);
    secs += seconds(job.out.data, out, true) + merge_seconds(job.out.data, out.stored_ratio);
    job.ends = now_ + (ingest_ > 0 ? secs * time_factor_ : 0);
    job_ = job;
  }
  // The compaction under way ends: its runs become one.
  void finish() {
    const Job& job = *job_;
    const size_t begin = runs_.size() - job.after - job.count, end = begin + job.count;
    Run out = job.out;
    out.from = runs_[end - 1].from;
    out.to = runs_[begin].to;
    out.kept = out.scale = 0;
    for (size_t i = begin; i < end; ++i) {
      read_[static_cast<size_t>(runs_[i].slot)] += runs_[i].data;
      if (!job.bottommost) out.kept += runs_[i].kept;
      out.scale += runs_[i].scale * runs_[i].data / out.data;
    }
    out.stored = file_bytes(out.data, codecs_(out.slot, out.level, sample(out)).stored_ratio) * out.scale;
    written_[static_cast<size_t>(out.slot)] += out.data;
    peak_ = std::max(peak_, total_stored() + out.stored);
    runs_.erase(runs_.begin() + static_cast<std::ptrdiff_t>(begin), runs_.begin() + static_cast<std::ptrdiff_t>(end));
    runs_.insert(runs_.begin() + static_cast<std::ptrdiff_t>(begin), out);
    now_ = std::max(now_, job.ends);
    job_.reset();
  }
  // The write rate now (bytes a second): slowed or stopped by the sorted runs' count.
  double write_rate() const {
    const auto runs = static_cast<int>(runs_.size());
    if (runs >= kStopRuns && job_) return 0;
    if (runs >= kSlowdownRuns) return std::min(ingest_, kDelayedWriteMBps * 1e6);
    return ingest_;
  }
  // Writes a memtable's `data` while compactions end and start beside them.
  void fill(double data) {
    if (ingest_ <= 0) return;
    for (double left = data; left > 0;) {
      const double rate = write_rate();
      const double filled = rate > 0 ? now_ + left / rate : INFINITY;
      const bool stalled = rate < ingest_;
      if (job_ && job_->ends <= filled) {
        if (stalled) stalled_ += job_->ends - now_;
        left -= rate * (job_->ends - now_);
        finish();
        start();
        continue;
      }
      if (stalled) stalled_ += filled - now_;
      now_ = filled;
      left = 0;
    }
  }

  const LsmOptions& o_;
  const UniversalOptions& u_;
  const RunCodecs& codecs_;
  double ingest_;       // bytes a second; 0: unpaced
  double time_factor_;  // compactions take this times their estimate
  std::vector<Run> runs_;
  std::optional<Job> job_;
  std::vector<double> written_, read_;  // data bytes per slot
  double peak_ = 0, now_ = 0, ingested_ = 0, load_seconds_ = 0, stalled_ = 0;
};

UniversalShape Replay::shape(double ingested) const {
  UniversalShape s;
  for (const auto& r : runs_)
    s.runs.push_back({r.level, r.slot, r.data, r.stored, r.from / ingested, r.to / ingested,
                      r.data > 0 ? r.kept / r.data : 0, r.stored, r.stored});
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
  s.load_seconds = load_seconds_;
  s.stalled_seconds = stalled_;
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

double pace_time_factor(int replay) {
  return kPaceTimeLow * std::pow(kPaceTimeHigh / kPaceTimeLow, replay / (kPaceReplays - 1.0));
}

double replay_flush_bytes(const LsmOptions& o, double max_flushes) {
  return std::max(memtable_data(o), o.data_bytes / max_flushes);
}

UniversalShape universal_replay(const LsmOptions& o, const UniversalOptions& u, const RunCodecs& codecs,
                                const ReplayPace& pace) {
  const double flush = pace.flush_bytes;
  Replay replay(o, u, codecs, pace.ingest_mbps, pace.time_factor);
  std::mt19937_64 rng(pace.jitter_seed);
  std::uniform_real_distribution<double> jitter(-kFlushJitter, kFlushJitter);
  const auto scale = [&] { return pace.jitter_seed ? 1 + jitter(rng) : 1.0; };
  // Whole flushes, then the rest (a remainder within rounding of 0 is none).
  const auto whole = static_cast<int>(std::floor(o.data_bytes / flush * (1 + 1e-12)));
  const double rest = std::max(0.0, o.data_bytes - whole * flush);
  for (int i = 0; i < whole; ++i) replay.flush(flush, scale());
  if (rest > flush * 1e-9) replay.flush(rest, scale());
  replay.settle();
  const int flushes = whole + (rest > flush * 1e-9 ? 1 : 0);
  UniversalShape s = replay.shape(o.data_bytes);
  s.flush_bytes = flush;
  s.flushes = flushes;
  return s;
}

namespace {

// One replay's runs by level, a level's L0 files together: data and stored summed, the slice
// from the first write to the last, the kept share weighted by data.
std::map<int, SortedRunShare> runs_by_level(const UniversalShape& s) {
  std::map<int, SortedRunShare> out;
  for (const auto& r : s.runs) {
    const auto [it, added] = out.emplace(r.level, r);
    if (added) continue;
    SortedRunShare& a = it->second;
    a.kept = (a.kept * a.data_bytes + r.kept * r.data_bytes) / (a.data_bytes + r.data_bytes);
    a.data_bytes += r.data_bytes;
    a.stored_bytes += r.stored_bytes;
    a.from = std::min(a.from, r.from);
    a.to = std::max(a.to, r.to);
  }
  return out;
}

// The replays' mean: per level its mean data and stored bytes (0 where a replay has no run
// there), the range they span, and the slice and kept share weighted by data; per entry the mean
// writes, reads and read share; the peak the highest.
class MeanShape {
 public:
  explicit MeanShape(size_t replays) : n_(static_cast<double>(replays)), replays_(replays) {}
  void add(const UniversalShape& s) {
    for (const auto& [level, r] : runs_by_level(s)) add_run(r);
    for (const auto& l : s.levels) add_entry(l);
    out_.size_amplification += s.size_amplification / n_;
    out_.load_seconds += s.load_seconds / n_;
    out_.stalled_seconds += s.stalled_seconds / n_;
    out_.peak_stored_bytes = std::max(out_.peak_stored_bytes, s.peak_stored_bytes);
  }
  UniversalShape shape() {
    for (auto& [level, a] : runs_) {
      const double data = data_[level];
      a.from /= data;
      a.to /= data;
      a.kept /= data;
      if (present_[level] < replays_) a.min_stored = 0;  // a replay without a run there
      out_.runs.push_back(a);
    }
    for (const auto& [slot, l] : entries_) out_.levels.push_back(l);
    return out_;
  }

 private:
  void add_run(const SortedRunShare& r) {
    SortedRunShare& a = runs_[r.level];
    a.min_stored = present_[r.level]++ ? std::min(a.min_stored, r.stored_bytes) : r.stored_bytes;
    a.max_stored = std::max(a.max_stored, r.stored_bytes);
    a.level = r.level;
    a.slot = r.slot;
    a.from += r.from * r.data_bytes;
    a.to += r.to * r.data_bytes;
    a.kept += r.kept * r.data_bytes;
    a.data_bytes += r.data_bytes / n_;
    a.stored_bytes += r.stored_bytes / n_;
    data_[r.level] += r.data_bytes;
  }
  void add_entry(const LevelShare& l) {
    LevelShare& a = entries_[l.level];
    a.level = l.level;
    a.data_bytes += l.data_bytes / n_;
    a.stored_bytes += l.stored_bytes / n_;
    a.rewrites += l.rewrites / n_;
    a.compaction_reads += l.compaction_reads / n_;
    a.read_share += l.read_share / n_;
  }

  double n_;
  size_t replays_;
  UniversalShape out_;
  std::map<int, SortedRunShare> runs_;  // by level: sums weighted by data until shape()
  std::map<int, double> data_;          // by level: the data the replays held there
  std::map<int, size_t> present_;       // by level: the replays with a run there
  std::map<int, LevelShare> entries_;   // by compression_per_level entry
};

}  // namespace

UniversalShape universal_shape(const LsmOptions& o, const UniversalOptions& u, const RunCodecs& codecs,
                               double ingest_mbps) {
  if (ingest_mbps <= 0) return universal_replay(o, u, codecs, {.flush_bytes = replay_flush_bytes(o, kMaxFlushes)});
  std::vector<UniversalShape> shapes;
  // The replays together take no more flushes than one unpaced replay may (kMaxFlushes): beyond
  // that a flush stands for several memtables, as it does there.
  const double replays = kPaceReplays;
  const double flush = replay_flush_bytes(o, kMaxFlushes / replays);
  for (int i = 0; i < kPaceReplays; ++i)
    shapes.push_back(universal_replay(o, u, codecs,
                                      {.flush_bytes = flush,
                                       .ingest_mbps = ingest_mbps,
                                       .time_factor = pace_time_factor(i),
                                       .jitter_seed = shapes.size() + 1}));
  MeanShape mean(shapes.size());
  for (const auto& r : shapes) mean.add(r);
  UniversalShape s = mean.shape();
  s.flushes = shapes.front().flushes;
  s.flush_bytes = flush;
  return s;
}

UniversalShape universal_shape(const LsmOptions& o, const UniversalOptions& u, const LevelRatio& stored_ratio) {
  return universal_shape(
      o, u,
      [&](int slot, int, const RunSample&) {
        return RunCodec{stored_ratio(slot), 0, 0};
      },
      0);
}

}  // namespace kvz
