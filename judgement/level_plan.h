#pragma once
// A codec per level for RocksDB leveled compaction (`--workload ...,size=500G`): the level model
// (judgement/level_model.h) with this run's measured rows on it, priced by the cost model's rates
// (judgement/cost.h), the cheapest plan per workload group and the options line that applies it.
//
// Per level, with W and R the workload's write and read MB/s (uncompressed) and T the group's threads:
//   storage $ = the level's stored bytes / 1e9 x storage $/GB-month (the data as it stands, not a
//               month of writes: size= is what the store holds)
//   cores     = T x (W x rewrites / compress MB/s + (W x compaction reads + R x read share) / decompress MB/s)
//   CPU $     = cores x cpu $/core-hour x 720
// A level's codec is one RocksDB 7.8 writes at its default level with no dictionary
// (compression_opts is shared by every level, so only kDefaultCompressionLevel gives each level
// its codec's own default), or none. The plan is found by coordinate descent from every
// single-codec plan (each level in turn takes the codec that makes the whole plan cheapest,
// until no level changes): level shares depend on the codecs, so levels are not independent.
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "blockgen/lsm_sample.h"
#include "judgement/analysis.h"
#include "judgement/cost.h"
#include "judgement/level_model.h"

namespace kvz {

struct LevelChoice {
  LevelShare share;
  std::string codec_label;   // the run's row ("zstd 3"), or "none"
  std::string rocksdb_type;  // "kZSTD", "kNoCompression"
  double stored_ratio = 1;
  bool own_blocks = false;  // the level was cut: priced on the blocks it holds, not the whole set's
  double cores = 0;
  double storage_usd = 0;
  double cpu_usd = 0;
};

struct PlanTotals {
  double stored_bytes = 0;
  double cores = 0;
  double storage_usd = 0;
  double cpu_usd = 0;
  double total_usd() const { return storage_usd + cpu_usd; }
};

struct LevelPlan {
  std::string group;  // "rocksdb 16K stream T1"
  LsmOptions lsm;
  int base_level = 1;
  std::vector<LevelChoice> levels;  // L0, then base level .. deepest
  PlanTotals totals;
  // The share of its one compaction thread that compaction takes at the workload's write rate
  // (compaction_thread_load); past 1 RocksDB falls behind and holds other levels than these.
  double compaction_load = 0;
  // compression_per_level=...;bottommost_compression=...;<the LSM's options>;block_based_table_factory=...
  std::string line;
  // The cheapest plan with one codec on every level, for comparison, and its line.
  std::string single_label;
  PlanTotals single;
  std::string single_line;
};

// A codec a level can take: the run's row, and its RocksDB CompressionType name ("kZSTD").
struct LevelCodec {
  Candidate row;
  std::string type;
  // The same codec measured on the blocks each level holds (the run's level cuts: `run
  // --workload ...,size=` under a RocksDB profile), by level; a level without one takes `row`.
  std::map<int, Candidate> at_level{};
  // The same slices with every sequence number kept, or zeroed, where the run measured them (an
  // ascending load's levels; under universal compaction a shuffled load's last flush zeroed,
  // rocksdb@L0z, for judgement/run_density.h), by level.
  std::map<int, Candidate> kept_at{}, zeroed_at{};
  // The row for `level` with its records carrying `numbers`: the sample of them where there is
  // one, else the level's own cut, else `row`.
  const Candidate& on(int level, CutNumbers numbers = CutNumbers::Own) const;
  const Candidate* zeroed_flush() const;
};
struct StoreProfile;
// The rows a level can take: "none", then each codec at RocksDB's default call, no dictionary.
std::vector<LevelCodec> level_codecs(const GroupRecommendations& g, const StoreProfile& store);
// The run's workload groups measured under a RocksDB profile, each with the codecs its levels
// can take and their rows on the run's level cuts: what the leveled and the universal plans both
// choose from.
struct RocksDbGroup {
  GroupRecommendations group;
  std::vector<LevelCodec> codecs;
};
std::vector<RocksDbGroup> rocksdb_groups(const RunResults& run);
// The cores a level takes: T x (W x rewrites / compress MB/s + (W x compaction reads + R x read
// share) / decompress MB/s).
double level_cores(const LevelShare& s, const Candidate& c, const Workload& w, int threads);

// One plan per workload group measured under a RocksDB profile; none when w.lsm.data_bytes is 0.
std::vector<LevelPlan> level_plans(const RunResults& run, const Workload& w);

// RocksDB 7.8 runs one compaction at a time at its default max_background_jobs of 2 (db/db_impl/
// db_impl_compaction_flush.cc GetBGJobLimits: one flush, one compaction). The share of that
// thread's time compaction needs at `write_mbps`: per byte ingested, what it reads from each level
// over the level codec's decompress speed, what it writes into each level below L0 over its
// compress speed, and beside the codec compaction_seconds_per_mb for each MB it writes and its
// file bytes (the MB over the row's stored ratio) at kCompactionFileMBps (judgement/level_model.h).
// Past 1, compaction falls behind the writes: the upper levels fill past their targets, the
// deepest holds less than the model's shape, and L0's files stall the writes. `speed(level)` is
// the level's codec row; `threads` the threads its speeds were measured on (as level_cores: the
// codec's seconds are theirs x `threads`); `record_bytes` the bytes a record takes in the blocks
// (0: not known).
double compaction_thread_load(const LsmShape& shape, const std::function<const Candidate&(int level)>& speed,
                              double write_mbps, int threads, double record_bytes);
// What a compaction spends per MB of data it writes beside the codec and the file writes:
// kCompactionRecordNs per record, or without a record size 1 / kCompactionMergeMBps.
double compaction_seconds_per_mb(double record_bytes);
// The LSM's options in RocksDB's options string syntax (num_levels, the multiplier, dynamic,
// and the sizes that differ from 7.8's defaults).
std::string lsm_options_line(const LsmOptions& o);
// "500 GiB, static level sizes, 7 levels, multiplier 10"
std::string lsm_text(const LsmOptions& o);

}  // namespace kvz
