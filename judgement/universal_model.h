#pragma once
// RocksDB 7.8 universal compaction, as its options shape it: the sorted runs an insert-only load
// leaves, the bytes compaction writes into and reads back from each output level per byte
// ingested, where point reads land, and the space a compaction needs free. Pure arithmetic;
// judgement/universal_plan.h puts codecs and prices on it.
//
// The model replays the picker (db/compaction/compaction_picker_universal.cc at v7.8.3) on the
// runs' stored sizes, one flush of a memtable's data at a time (memtable_data) (the last one
// partial, as a final Flush() writes it):
// - sorted runs: every L0 file, then each non-empty level 1..num_levels-1, newest first;
// - nothing happens below level0_file_num_compaction_trigger runs; at or above it, in order:
//   size amplification (the runs but the oldest sum to max_size_amplification_percent of the
//   oldest or more): all runs into level num_levels-1;
//   size ratio: from the newest run, the first stretch of >= min_merge_width (and at most
//   max_merge_width) runs in which each next run is at most (100 + size_ratio) % of the sum
//   before it (stop style total size);
//   otherwise the newest (runs - trigger + 1) runs;
//   the output goes to the level just above the next older run (L0 when that run is an L0 file),
//   or to num_levels-1 when the stretch reaches the oldest run;
// - the picker looks again after every compaction, until nothing is picked.
// A run's stored bytes are its data over the stored ratio of its codec on the blocks it holds,
// with one table file's own bytes when the block size is known (judgement/level_model.h
// with_table_files' constants: the picker compares file sizes, often within its 1 % size ratio),
// and the picker compares stored bytes (file sizes), so the codec plan changes the runs.
//
// Time: the load writes at the workload's ingest rate, and compaction runs beside it, one at a
// time (max_background_jobs 2 gives one flush and one compaction thread: db/db_impl/
// db_impl_compaction_flush.cc GetBGJobLimits). A compaction takes its input's data over each
// input codec's decompress speed, plus the output over the output codec's compress speed, plus
// kUniversalRecordNs per record and its table file's bytes at kUniversalFileMBps (reading, merging
// and writing around the codec; without a record size, the data over kCompactionMergeMBps);
// flushes keep arriving meanwhile, and the picker sees them all when it next looks. Writes slow
// to delayed_write_rate at level0_slowdown_writes_trigger sorted runs and stop at
// level0_stop_writes_trigger (db/column_family.cc GetWriteStallConditionAndCause; universal
// counts every sorted run: db/version_set.cc ComputeCompactionScore sets
// l0_delay_trigger_count). When the load ends, the compactions go on until nothing is picked.
// An ingest rate of 0 replays each flush's compactions before the next flush.
// Where the load ends in the cycle of merges decides what the runs hold (a full merge may or may
// not have run just before the end), and that turns on how long each compaction took, how many
// flushes the load made and stored sizes a percent apart (the picker compares them): the same
// load on the same machine ended with 48 % or 92-99 % of its data in the last run (auth.log,
// 100 MB, 8 MB/s, shuffled). So a paced load is replayed kPaceReplays times, each compaction
// taking pace_time_factor(i) x its estimated time (kUniversalRecordNs below: the loads' big
// compactions took 0.82-1.27 x their estimate, 10th to 90th percentile), at the memtable's data a
// flush (memtable_data, judgement/level_model.h: six 100 MB loads flushed 116, 140 and 207 times
// where it gives 116, 141 and 207, so the replays keep that count; replayed at 0.9-1.1 x the
// memtable's data, their mean put amazon_cellphones.ndjson's shuffled L4 30 % off the shape all
// three of its loads reached, which the replays at its own count reach), and the shape is their
// mean per level, with the range of each level's stored bytes beside it. Each replay draws its flushes' jitter
// (kFlushJitter) from its own seed, 1..kPaceReplays: the same inputs always give the same shape. Sequence numbers (what
// each run's records cost; judgement/universal_cut.h cuts the records): a flush keeps them; a compaction zeroes them
// when it is bottommost (db/compaction/compaction_iterator.cc PrepareOutput; Compaction::IsBottommostLevel,
// VersionStorageInfo::RangeMightExistAfterSortedRun): its stretch reaches the oldest run, or it
// writes below L0 and no older run overlaps its keys. A shuffled load's runs all span the key
// space, so only merges into the oldest run zero them; an ascending load's older runs hold only
// smaller keys, so every merge below L0 zeroes them.
// Not modelled: overwrites and deletions (no bytes drop out of a merge), trivial moves
// (allow_trivial_move is off by default), compaction_size_percent (kept at -1), the WAL, the
// block cache, the delayed write rate's own adjustments. A load of more than 2^14 flushes is
// replayed with 2^14 flushes of a larger size.
#include <cstdint>
#include <functional>
#include <vector>

#include "judgement/level_model.h"

namespace kvz {

// CompactionOptionsUniversal's knobs that change bytes and writes, at RocksDB 7.8's defaults
// (include/rocksdb/universal_compaction.h).
struct UniversalOptions {
  unsigned size_ratio = 1;
  unsigned min_merge_width = 2;
  unsigned max_merge_width = UINT32_MAX;
  unsigned max_size_amplification_percent = 200;
};

// Flushes' files differ in ratio: one shuffled 100 MB load's 139 full flushes (LZ4) spread by
// 0.37 % (standard deviation); uniform within +-0.5 % has 0.29 %. The picker's 1 % size ratio
// turns on less. Not the data's own: six 100 MB loads' flush files spread by 0.16-0.38 %
// shuffled, but 0.05 % (amazon_cellphones.ndjson), 0.73 % (auth.log) and 1.66 %
// (world-cities.csv) ascending, where each flush holds its own stretch of the keys.
inline constexpr double kFlushJitter = 0.005;
// The replays of a paced load: compactions at 0.7 to 1.4 x their estimate, in even steps of its log.
inline constexpr int kPaceReplays = 15;
inline constexpr double kPaceTimeLow = 0.7, kPaceTimeHigh = 1.4;
double pace_time_factor(int replay);  // replay 0..kPaceReplays-1
// A universal compaction's own wall time beside its codec: kUniversalRecordNs per record it writes
// and its one table file's bytes at kUniversalFileMBps. Least squares over the 621 compactions of
// six 100 MB loads at 8 MB/s (auth.log, world-cities.csv and amazon_cellphones.ndjson, shuffled
// and ascending; this 2-core VM, 2026-12-08) in RocksDB 7.8's EVENT_LOG: compaction_time_micros
// less the codec's seconds at kvzbench's speeds on the files read and written (table_file_creation's
// raw key and value bytes), against the written files' num_entries and file_size. Each load's
// total is within -8 .. +6 % of the fit; the data over kCompactionMergeMBps was 0.71-1.56 x off.
inline constexpr double kUniversalRecordNs = 407;
inline constexpr double kUniversalFileMBps = 205;
// Write stalls at RocksDB 7.8's defaults (include/rocksdb/advanced_options.h, options.h).
inline constexpr int kSlowdownRuns = 20;                               // level0_slowdown_writes_trigger
inline constexpr int kStopRuns = 36;                                   // level0_stop_writes_trigger
inline constexpr double kDelayedWriteMBps = 16.0 * 1024 * 1024 / 1e6;  // delayed_write_rate

// The codec a run is written with, as the replay needs it: its stored ratio on the blocks the run
// holds, and its speeds on one thread (MB/s; 0: it takes no time).
struct RunCodec {
  double stored_ratio = 1;
  double compress_mbps = 0;
  double decompress_mbps = 0;
};
// What a run holds, for its codec's ratio there (judgement/run_density.h): its share of the load's
// data and the share of that whose sequence numbers were zeroed. A share of 0 asks for the codec's
// speeds alone (a compaction's time): its ratio is then the row's, unmoved.
struct RunSample {
  double share = 1;
  double zeroed = 0;
};
// By compression_per_level entry (slot: num_levels - 1 is bottommost_compression), the level the
// run sits on and what it holds.
using RunCodecs = std::function<RunCodec(int slot, int level, const RunSample& run)>;

struct SortedRunShare {
  int level = 0;  // 0 for an L0 file
  int slot = 0;   // the compression_per_level entry it was written with (num_levels - 1: bottommost)
  double data_bytes = 0;
  double stored_bytes = 0;
  double from = 0, to = 0;  // the writes it holds, [from, to) of the load as fractions
  double kept = 1;          // the share of its data that keeps its sequence numbers
  // A paced load's mean shape: the fewest and most stored bytes the replays left on the level
  // (min 0: some left none); both the stored bytes for one replay.
  double min_stored = 0, max_stored = 0;
};

struct UniversalShape {
  // Newest first. One replay: each run. A paced load's mean: one per level (L0's files together).
  std::vector<SortedRunShare> runs;
  // Per output level that holds data or was written: data, stored, rewrites and compaction reads
  // per byte ingested (over the whole load), share of point reads (its share of the data).
  std::vector<LevelShare> levels;
  double flush_bytes = 0;  // data per flush replayed (a memtable's data unless scaled)
  int flushes = 0;
  double load_seconds = 0;     // from the first write to the last flush (0 unpaced)
  double stalled_seconds = 0;  // of which writes ran slowed or stopped
  // RocksDB's own size amplification at the end: the runs but the oldest over the oldest.
  double size_amplification = 0;
  // The most stored bytes on disk during the load: all runs plus a compaction's output in flight.
  double peak_stored_bytes = 0;
  double stored_bytes() const;
  double write_amplification() const;  // bytes written (flushes and compactions) per byte ingested
};

// How one replay writes the load: `flush_bytes` of data a flush, at `ingest_mbps` MB/s (0: each
// flush's compactions before the next), each compaction taking `time_factor` x its estimate;
// with a `jitter_seed` (0: none) each flush's file is 1 +- kFlushJitter x its codec's ratio says,
// drawn from std::mt19937_64 seeded with it, and a merged run the mean of its parts.
struct ReplayPace {
  double flush_bytes = 0;
  double ingest_mbps = 0;
  double time_factor = 1;
  uint64_t jitter_seed = 0;
};
// A flush's data: a memtable's (memtable_data), or more when the load would take more than
// `max_flushes` of them.
double replay_flush_bytes(const LsmOptions& o, double max_flushes);
UniversalShape universal_replay(const LsmOptions& o, const UniversalOptions& u, const RunCodecs& codecs,
                                const ReplayPace& pace);
// The load written at `ingest_mbps` MB/s: the replays' mean (above), or the one replay when 0.
UniversalShape universal_shape(const LsmOptions& o, const UniversalOptions& u, const RunCodecs& codecs,
                               double ingest_mbps);
// Unpaced, a stored ratio per compression_per_level entry.
UniversalShape universal_shape(const LsmOptions& o, const UniversalOptions& u, const LevelRatio& stored_ratio);

}  // namespace kvz
