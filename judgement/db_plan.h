#pragma once
// The DB as it stands, level by level: a RocksDB or LevelDB DB read through its MANIFEST is one
// source per column family and level (CorpusInfo::level), so every candidate is measured on the
// level's own blocks. Per table and level: the files, their bytes on disk (the files' sizes) and
// codecs, and the candidate that saves the most (results/table_totals.h level_totals, summed
// across hosts in a fleet); for a RocksDB family under leveled compaction, a codec per level
// priced on the DB's real levels, and the compression_per_level line that applies it.
//
// The pricing is the leveled plan's (judgement/level_plan.h) on the levels as they stand: each
// level's data (its blocks uncompressed) gives its flows (judgement/level_model.h
// lsm_shape_of_levels: writes, compaction reads and read share per byte ingested), a codec's
// cores on it are level_cores at the codec's speeds measured on that level's blocks, its storage
// the level's files under it (their other parts as they are). A level picks the codec that costs
// least, the current one unless another is cheaper; the levels keep the data they hold (a codec
// that packs more moves no data between levels here, though under dynamic sizing the targets
// would follow). Options are the family's own, from the DB's OPTIONS file when it has one
// (level_compaction_dynamic_level_bytes decides which compression_per_level entry a level takes:
// compaction_picker.cc GetCompressionType), else RocksDB 7.8's defaults.
#include <string>
#include <vector>

#include "judgement/cost.h"
#include "results/table_totals.h"

namespace kvz {

// A codec a level can take, priced on it.
struct DbLevelOption {
  std::string label;   // the run's row ("zstd 3"), the current codec's included
  std::string type;    // RocksDB's CompressionType name ("kZSTD"); "" when not known
  uint64_t bytes = 0;  // the level's files under it
  double cores = 0;
  double storage_usd = 0;
  double cpu_usd = 0;
  double total_usd() const { return storage_usd + cpu_usd; }
};

struct DbLevelPlan {
  TableTotal level;  // level_totals' row: files, bytes, codecs, candidates
  LevelShare share;  // the level's flows
  DbLevelOption now;
  DbLevelOption pick;  // the current codec unless another costs less
};

struct DbPlan {
  std::string table;
  std::string profile;
  std::string options;  // the family's options as its DB wrote them ("" when not known)
  std::vector<DbLevelPlan> levels;
  // A codec per level was priced (a RocksDB family under leveled compaction); else why not.
  bool priced = false;
  std::string why_not;
  double now_usd = 0;
  double plan_usd = 0;
  std::string line;  // compression_per_level=...;bottommost_compression=...
};

// One per table of levels, in the run's order; `w`'s rates price them (its size= is the DB's own).
std::vector<DbPlan> db_plans(const RunResults& run, const Workload& w);
// What a DB's plan is priced at when --workload gives no rates: 2 MB/s written, 50 MB/s read,
// $0.08 per GB-month, $0.04 per core-hour (the README's example workload).
Workload default_db_workload();

}  // namespace kvz
