#pragma once
// RocksDB 7.8 leveled compaction, as its options shape it: how much of the data each level holds,
// how many times compaction writes a byte into each level, what compaction reads back from it,
// and where point reads land. Pure arithmetic; judgement/level_plan.h puts codecs and prices on it.
//
// The model (steady state of an insert-only load, keys spread over the whole key space):
// - Level targets are in bytes as stored (file bytes), as RocksDB sizes them
//   (VersionStorageInfo::CalculateBaseBytes); a level's data = its stored bytes x its codec's
//   stored ratio, less what its table files carry beside the data blocks (with_table_files), so
//   the codec plan moves data between levels.
// - Static sizes (level_compaction_dynamic_level_bytes=false, 7.8's default): L1's target is
//   max_bytes_for_level_base, each next level's `multiplier` times more; a level above the
//   deepest holds its target less half a file (RocksDB moves a file down once the level passes
//   its target, so the level sits between target - one file and target); the deepest level (or
//   the last of num_levels) holds what is left.
// - Dynamic sizes: the last level holds X, each level above X / multiplier^k; the base level
//   (where L0 compacts to) is the deepest level whose target is at most max_bytes_for_level_base;
//   levels between L0 and it are empty. X solves sum(data) = size.
// - L0, when the load ends: an ascending load's 0 .. level0_file_num_compaction_trigger - 1
//   flushes, half of that on average, each the data a memtable of write_buffer_size holds
//   (memtable_data); none after a shuffled load (its last compaction takes every L0 file).
// - An ascending load's first flush stays in L0's codec and reaches the deepest level so: a file
//   moves down without a rewrite when its start level's codec matches the output's
//   (db/compaction/compaction.cc IsTrivialMove, InputCompressionMatchesOutput), and a start
//   level counts as bottommost, taking bottommost_compression, when no level below it holds data
//   (db/compaction/compaction_picker.cc GetCompressionType). So the file that opens each new level
//   is moved there, the first flush first; its keys are the smallest, so nothing merges it later
//   (the real 100 MB loads at 8 MB/s: one flush-sized file in L0's codec in every ascending
//   bottom, 0.67-0.95 MB). The deepest level stores that flush at L0's ratio (first_flush_in_l0_codec).
// - Writes into a level per byte ingested, L0's 1 being the flush. A shuffled load: the base
//   level 1 + its data over one L0 compaction's input (trigger flushes: L0 files span every key,
//   so each L0 compaction rewrites the whole base level); a deeper level 1 + kOverlapShare x its
//   data over the level above's (the overlap one byte moving down meets there, where RocksDB's
//   default compaction_pri kMinOverlappingRatio picks the files that overlap least:
//   db/version_set.cc SortFileByOverlappingRatio); static sizes' remainder level 0 (it takes the
//   level above's codec, and a file moves into its sparse key space whole: trivial moves). An
//   ascending load's files overlap nothing below, so a file moves down whole unless the level's
//   codec differs from the level above's (IsTrivialMove, above): 1 into a level where the codec
//   changes, 0 elsewhere (when the codecs are not known, every level changes).
//   One load of each 100 MB line of bench/scripts/lsm_real.sh at 8 MB/s, 2026-12-07, by its
//   EVENT_LOG: shuffled, 1 + 0.00-0.33 x the raw bytes' ratio below the base, a remainder 0.00-0.02;
//   ascending, 0.86-1.00 in all, where the line changes codec.
// - Compaction reads from a level per byte ingested: what it rewrites there (writes less its
//   arrivals) plus the bytes moving on down that the level below rewrites.
// - Point reads of uniformly chosen keys land where the key lives: the level's share of the data.
// Not modelled: overwrites and deletions (space amplification), the WAL, the block cache.
#include <functional>
#include <vector>

#include "blockgen/load_order.h"

namespace kvz {

// The options the model reads, at RocksDB 7.8's defaults (include/rocksdb/advanced_options.h,
// options.h).
struct LsmOptions {
  double data_bytes = 0;  // the data, uncompressed (kvzbench's input bytes: data blocks before compression)
  int num_levels = 7;
  double multiplier = 10;                    // max_bytes_for_level_multiplier
  bool dynamic = false;                      // level_compaction_dynamic_level_bytes
  double level_base = 256.0 * 1024 * 1024;   // max_bytes_for_level_base
  double write_buffer = 64.0 * 1024 * 1024;  // write_buffer_size
  int l0_trigger = 4;                        // level0_file_num_compaction_trigger
  double target_file = 64.0 * 1024 * 1024;   // target_file_size_base (target_file_size_multiplier 1)
  // kvzbench's: the data blocks' size, for what each table file carries beside its data blocks
  // (with_table_files); 0: level bytes are the data blocks' alone.
  double block_size = 0;
  // kvzbench's: the bytes a record takes in the data blocks, for the records a memtable holds
  // (memtable_data); 0: not known.
  double record_bytes = 0;
  // kvzbench's: the order the load wrote the data in (which records each level holds, and whether
  // they keep their sequence numbers: judgement/level_cut.h).
  LoadOrder order = LoadOrder::Shuffled;
};

// What a RocksDB 7.8 table file holds beside its data blocks (each block's trailer is in the
// codec's stored bytes): per file its footer, properties and meta-index blocks, and per data
// block an index entry (4 KiB blocks, no filter). Checked on the 166 levels of the 100 MB loads of
// bench/scripts/lsm_real.sh (2026-12-07): each level's file bytes less its data_size came within
// -7 .. +63 % of this, median +15 %, the widest on levels of 1-3 files (blocks counted as raw
// bytes / block size). It is about 1 % of a level's bytes, so that is under 0.2 % of the level.
inline constexpr double kTableFileBytes = 930;
inline constexpr double kIndexBytesPerBlock = 11;
// The file bytes a level's `data` takes at `ratio`, table files counted (a file per
// target_file of file bytes); without a block size, the data blocks alone.
double with_table_files(double data, double ratio, const LsmOptions& o);
// The data a level of `file_bytes` holds at `ratio`: with_table_files' inverse.
double data_in_files(double file_bytes, double ratio, const LsmOptions& o);

// The data one flush holds. A memtable asks for a flush once its arena has allocated the blocks
// that bring it within 0.4 of a block of write_buffer_size and the last of them is 3/4 used
// (db/memtable.cc MemTable::ShouldFlushNow), beside the arena's 2 KiB inline block
// (memory/arena.h kInlineSize); an arena block is write_buffer_size / 8, at most 1 MiB, rounded up
// to 4 KiB (db/column_family.cc SanitizeOptions). Each entry takes its skip-list node and length
// varints there beside its internal key and value: kMemtableEntryBytes more than the record takes
// in a data block. Measured in RocksDB 7.8's flush_started events (memory_usage over num_entries)
// against kvzbench's rocksdb blocks of the same records, 1 MiB memtables, 2026-12-07: 26.9 bytes
// (51-byte records), 27.0 (125) and 27.2 (364); a flush held 64, 80 and 90 % of write_buffer_size
// as block bytes. Without a record size (LsmOptions::record_bytes 0): kMemtableFill of it.
inline constexpr double kMemtableEntryBytes = 27;
inline constexpr double kMemtableFill = 0.8;
double memtable_arena_bytes(double write_buffer);  // what the arena holds when it asks for a flush
double memtable_data(const LsmOptions& o);

// The non-codec part of a compaction, in MB (10^6 B) of data per second on one thread: RocksDB
// 7.8's compaction_finished events on a 2-core VM (auth.log, 100 MB universal loads, 2026-12-07)
// ran at 80-100 MB/s of CPU into zstd 3 and 150-170 MB/s into lz4, where kvzbench measured zstd
// 3 at 277/656 MB/s and lz4 at 883/3897 MB/s on the same blocks: 185-205 MB/s left for the rest.
// A machine's own speed enters through the codecs' measured speeds; this part does not scale.
// Only where the record size is not known: records explain the time better (below, and
// judgement/universal_model.h kUniversalRecordNs).
inline constexpr double kCompactionMergeMBps = 190;
// A leveled compaction's own time beside the codec, wall time, what keeps the one compaction
// thread busy: kCompactionRecordNs per record it writes (merging, building the table) and its
// table files' bytes written at kCompactionFileMBps (writing and syncing them). Fitted by least
// squares on RocksDB 7.8's own compaction seconds (the "rocksdb.cfstats" map's CompSec below L0)
// in the ten 100 MB loads of bench/scripts/lsm_real.sh at 8 MB/s on this 2-core VM that
// compacted at all (2026-12-07; records of 51, 125 and 364 bytes), less the codec's seconds at
// kvzbench's speeds, against the records and file bytes the level model writes: each load's
// seconds within -17 .. +28 % of the fit (per byte of data alone they spread 5.7-21 ms/MB). A
// machine's own codec speed enters through the measured speeds; these two do not scale.
inline constexpr double kCompactionRecordNs = 615;
inline constexpr double kCompactionFileMBps = 133;

struct LevelShare {
  int level = 0;
  double data_bytes = 0;        // uncompressed bytes the level holds
  double stored_bytes = 0;      // the same as stored (data / the level's stored ratio)
  double rewrites = 0;          // bytes written into the level per byte ingested
  double compaction_reads = 0;  // bytes compaction reads from the level per byte ingested
  double read_share = 0;        // fraction of point reads the level answers
};

struct LsmShape {
  int base_level = 1;              // where L0 compacts to
  std::vector<LevelShare> levels;  // L0, then base level .. deepest non-empty level
  int deepest() const { return levels.empty() ? 0 : levels.back().level; }
};

// The stored ratio (uncompressed / stored) of the codec on each level, by level number.
using LevelRatio = std::function<double(int level)>;
// The codec each level is written with, as an id: levels with one id share it (a file moves between
// them whole). Empty: every level its own.
using LevelCodecId = std::function<int(int level)>;
// The share of a full-level overlap (the level's data over the level above's) that each byte moving
// down rewrites in a shuffled load: the median of the 15 measured (0.00-0.33) above.
inline constexpr double kOverlapShare = 0.15;
LsmShape lsm_shape(const LsmOptions& o, const LevelRatio& stored_ratio, const LevelCodecId& codec = {});

// A DB's own levels (each one's data and stored bytes as they stand, by level number; L0 is added
// empty when missing): the writes, compaction reads and read shares the rules above give them, the
// base level the first below L0 (judgement/db_plan.h prices a DB as it stands with them).
LsmShape lsm_shape_of_levels(const LsmOptions& o, std::vector<LevelShare> levels);

// The index of compression_per_level RocksDB uses for `level` (compaction_picker.cc
// GetCompressionType: 0 for L0, else level - base_level + 1).
inline int per_level_index(int level, int base_level) { return level == 0 ? 0 : level - base_level + 1; }

}  // namespace kvz
