#pragma once
// Which of a load's writes each level of a live RocksDB 7.8 LSM holds when the load ends, and how
// many keep their sequence numbers: what `run` cuts from a source's records for each level
// (blockgen/lsm_sample.h) so the per-level plan prices a level on the blocks it holds.
//
// The rules, each with where RocksDB 7.8 does it (read for facts; nothing copied):
// - Compaction moves data down, never up, so the oldest writes sit deepest: levels hold
//   consecutive slices of the load, the deepest the first writes, L0 the last.
// - A flush numbers each write (db/memtable.cc: the internal key's seq << 8 | type) and a
//   compaction keeps the numbers, except into the bottommost level, where it zeroes them
//   (db/compaction/compaction_iterator.cc PrepareOutput, bottommost_level_ from
//   Compaction::IsBottommostLevel: no file below overlaps). Zeroed numbers compress better.
// - A file moved down without a rewrite keeps its numbers (trivial move:
//   db/db_impl/db_impl_compaction_flush.cc, Compaction::IsTrivialMove). An ascending load's
//   files never overlap what is below, so every file reaches its level that way and every level
//   above the deepest keeps every number.
// - In an ascending load nothing below overlaps a file's keys, so every rewrite is bottommost and
//   zeroes the numbers, and a file is rewritten only where its level's codec differs from the level
//   above's (Compaction::IsTrivialMove, InputCompressionMatchesOutput): a level keeps every number
//   while the codecs from L0 down to it are one, and none below the first change
//   (numbers_by_codec). So the cuts are measured both ways for each level below L0 (the level's
//   own cut, kept above the deepest and zeroed at it, and a sample the other way: "rocksdb@L3z",
//   "rocksdb@L6k"), and the plan prices each level on the one its codecs make. The 100 MB
//   ascending loads at 8 MB/s: where the line changed codec, 0-10 % of the bottom's bytes kept
//   their numbers (the load's first flush: level_model.h); auth.log under zstd 3 on every level,
//   static sizes, kept them all, its bottom 3.2 times the plan that took them zeroed.
//   A bottommost file is marked for a rewrite that zeroes them
//   (db/version_set.cc ComputeBottommostFilesMarkedForCompaction) only once its numbers are below
//   the oldest snapshot's, which a DB learns when a snapshot is released (db/db_impl/db_impl.cc
//   ReleaseSnapshot -> UpdateOldestSnapshot; 0 until then), so a DB that never took one keeps them.
//   Not modelled: under dynamic sizes the base level rises as the DB grows, so the deepest level's
//   oldest files came by a shorter path than the line's (L0 straight to the deepest at first).
// - A shuffled load's files overlap everything below: the deepest level is written by
//   bottommost compactions and keeps none; the levels above it keep them all (their compactions
//   have the deepest level below them).
// - Static sizes (level_compaction_dynamic_level_bytes=false) fill L1, then L2, ...: after a
//   shuffled load, the level above the deepest was itself the bottommost until the deepest
//   appeared, and lost its numbers then; what arrived since keeps them. It keeps
//   kStaticSplitKeptSlope x the deepest's share of the two levels' data, the least-squares slope
//   through the 100 MB shuffled loads of bench/scripts/lsm_real.sh at the workload's 8 MB/s
//   (auth.log, world-cities.csv, amazon_cellphones.ndjson: 41, 46 and 83 % of the level's bytes
//   in files that kept them, at shares of 43, 77 and 60 %: this gives 39, 69 and 54 %). Loaded at
//   full speed, past what one compaction thread keeps up with, the level kept 0-1, 11-15 and
//   32-37 %: a DB whose compaction falls behind keeps fewer (the slope was 0.3 on those).
//   The base level (L1) is rewritten by every L0 compaction, so it keeps them all.
//   When it keeps fewer than kMostlyZeroed, the two levels hold the same old writes mixed: they
//   are cut together, one slice standing for both.
// Universal compaction: the replay (judgement/universal_model.h) follows each sorted run's slice
// of the load and the share of it that keeps its numbers; a level's cut is its run's (L0's files
// together: the newest writes; with none left at the end, the last flush's, which every flush's
// L0 file resembles: the 100 MB shuffled loads' flushes compressed at about half the whole set's
// ratio).
// Not modelled: overwrites and deletions, snapshots (which keep numbers).
#include <map>
#include <vector>

#include "blockgen/lsm_sample.h"
#include "judgement/level_model.h"
#include "judgement/universal_model.h"

namespace kvz {

inline constexpr double kStaticSplitKeptSlope = 0.9;
inline constexpr double kMostlyZeroed = 0.5;

struct LevelCut {
  int first = 0, last = 0;  // the levels it stands for (first == last but for a static pair)
  LevelSlice slice;
  CutNumbers numbers = CutNumbers::Own;  // a sample beside the level's own cut (blockgen/lsm_sample.h)
};

// The cuts of `shape`, deepest first; levels holding no data have none. After an ascending load,
// each level below L0 is followed by a sample of its slice with its numbers the other way.
std::vector<LevelCut> level_cuts(const LsmShape& shape, const LsmOptions& o);
// By level of `shape`, the numbers its records carry when each level is written in `codec`'s:
// after an ascending load, every one kept while the codecs from L0 down are one, every one zeroed
// below the first change; the level's own cut otherwise (L0, a shuffled load, no codecs given).
std::map<int, CutNumbers> numbers_by_codec(const LsmShape& shape, const LsmOptions& o, const LevelCodecId& codec);
// The cuts of universal compaction's runs, one per level holding any, deepest first; for a
// shuffled load (`zeroed_flush`) then the last flush again with its numbers zeroed, the sparsest
// zeroed sample, which the plan fits a run's ratio by (judgement/run_density.h).
std::vector<LevelCut> universal_level_cuts(const UniversalShape& shape, bool zeroed_flush = false);

}  // namespace kvz
