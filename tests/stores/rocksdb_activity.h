#pragma once
// Whether a RocksDB runs or waits to run background work: what the real-LSM tests and
// kvz_lsm_load poll until a load has settled (no gtest here: the tool links without it).
#include <rocksdb/db.h>

#include <cstdint>

namespace kvz::real_lsm {

// Whether a flush or compaction runs (or a memtable waits to be flushed); `pending`: a compaction
// is scored as needed. A pending compaction (score >= 1) is not always one the picker takes:
// universal compaction's score is the sorted runs over the trigger, and at exactly the trigger
// the picker may find nothing to merge.
inline bool busy(rocksdb::DB& db, bool& pending) {
  uint64_t compaction = 1, running = 1, flushes = 1, immutable = 1;
  db.GetIntProperty("rocksdb.compaction-pending", &compaction);
  db.GetIntProperty("rocksdb.num-running-compactions", &running);
  db.GetIntProperty("rocksdb.num-running-flushes", &flushes);
  db.GetIntProperty("rocksdb.num-immutable-mem-table", &immutable);
  pending = compaction != 0;
  return running || flushes || immutable;
}

}  // namespace kvz::real_lsm
