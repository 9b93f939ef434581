#pragma once
// `run --workload ...,size=` under a RocksDB profile (leveled or universal compaction): each source's records
// as each level of the LSM holds them when the load ends (judgement/level_cut.h cuts,
// blockgen/lsm_sample.h slices), as block sets of their own (layout "rocksdb@L3", or
// "rocksdb@L2-3" for two levels cut together), measured beside the whole set. The per-level plan
// prices each level on them (judgement/level_plan.h LevelCodec::at_level); recommendations and
// store totals leave them out.
//
// Levels hold data in proportion to their bytes on disk times their ratio, and upper levels
// compress worse (sparse keys, kept sequence numbers), so the cut is made twice: once with one
// probe codec's ratio on the whole set, then with the probe's ratio on each first cut.
#include <optional>
#include <string>
#include <vector>

#include "blockgen/block.h"
#include "blockgen/pipeline.h"
#include "commands/run_plan.h"
#include "judgement/cost.h"
#include "judgement/level_model.h"
#include "judgement/universal_model.h"

namespace kvz {

// The codec the cuts are probed with: RocksDB's default compression (snappy), else the first
// of lz4 and zstd this build has; none: every level at the whole set's ratio 1.
inline constexpr const char* kProbeCodecs[] = {"snappy", "lz4", "zstd"};

// The level cuts of `records` under `layout` at `block_size` for the LSM `lsm` (its data_bytes
// the whole DB's: the records stand for it, each level a sample of the key space). Empty when
// the layout is not RocksDB's or a level's slice holds no record (that level is then priced on
// the whole set). False with a one-line `error` when a block set cannot be built.
bool cut_lsm_levels(const RecordSet& records, const std::string& layout, size_t block_size, const LsmOptions& lsm,
                    std::vector<BlockSet>& out, std::string& error);

// The same under universal compaction (`style=universal`): each level's sorted runs as the replay
// leaves them (judgement/universal_model.h, at the workload's ingest rate, the probe's speeds
// timed on the whole set), cut twice as above.
bool cut_universal_levels(const RecordSet& records, const std::string& layout, size_t block_size, const LsmOptions& lsm,
                          const UniversalOptions& u, double ingest_mbps, std::vector<BlockSet>& out,
                          std::string& error);

// `run`'s level cuts: with --workload ...,size= (one column family) under a RocksDB
// profile, each record source's cuts for every layout and block size, appended to `sets` after
// the whole sets. False with a one-line `error` naming the source.
bool cut_run_levels(const RunPlan& plan, const std::optional<Workload>& workload, const std::vector<Source>& sources,
                    std::vector<BlockSet>& sets, std::string& error);

}  // namespace kvz
