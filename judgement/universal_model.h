#pragma once
// RocksDB 7.8 universal compaction, as its options shape it: the sorted runs an insert-only load
// leaves, the bytes compaction writes into and reads back from each output level per byte
// ingested, where point reads land, and the space a compaction needs free. Pure arithmetic;
// judgement/universal_plan.h puts codecs and prices on it.
//
// The model replays the picker (db/compaction/compaction_picker_universal.cc at v7.8.3) on the
// runs' stored sizes, one flush of a memtable's data at a time (memtable_data) (the last one partial, as
// a final Flush() writes it), each compaction finished before the next flush:
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
// A run's stored bytes are its data over the stored ratio of its output level's codec, and the
// picker compares stored bytes (file sizes), so the codec plan changes the runs.
// Not modelled: overwrites and deletions (no bytes drop out of a merge), trivial moves
// (allow_trivial_move is off by default), compaction_size_percent (kept at -1), parallel
// compactions, the WAL, the block cache. A load of more than 2^14 flushes is replayed with 2^14
// flushes of a larger size.
#include <cstdint>
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

struct SortedRunShare {
  int level = 0;  // 0 for an L0 file
  double data_bytes = 0;
  double stored_bytes = 0;
};

struct UniversalShape {
  std::vector<SortedRunShare> runs;  // newest first
  // Per output level that holds data or was written: data, stored, rewrites and compaction reads
  // per byte ingested (over the whole load), share of point reads (its share of the data).
  std::vector<LevelShare> levels;
  double flush_bytes = 0;  // data per flush replayed (write_buffer_size unless scaled)
  int flushes = 0;
  // RocksDB's own size amplification at the end: the runs but the oldest over the oldest.
  double size_amplification = 0;
  // The most stored bytes on disk during the load: all runs plus a compaction's output in flight.
  double peak_stored_bytes = 0;
  double stored_bytes() const;
  double write_amplification() const;  // bytes written (flushes and compactions) per byte ingested
};

UniversalShape universal_shape(const LsmOptions& o, const UniversalOptions& u, const LevelRatio& stored_ratio);

}  // namespace kvz
