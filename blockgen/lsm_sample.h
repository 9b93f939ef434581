#pragma once
// What one level of a live RocksDB LSM holds when a load ends: a slice of the load's writes (the
// oldest sit deepest: compaction moves data down, never up), sorted by key as a table file holds
// them, each record with the sequence number RocksDB gave its write, or 0 where a bottommost
// compaction zeroed it (db/compaction/compaction_iterator.cc PrepareOutput). Which slice each
// level holds and how many of its numbers survive is the level model's to say
// (judgement/level_cut.h); this only cuts.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "blockgen/block.h"

namespace kvz {

// The order a load writes the records in.
enum class LoadOrder {
  Shuffled,   // a random permutation (seeded: every run cuts the same slices)
  Ascending,  // by key, as a bulk import of sorted data
};
// The permutation a shuffled load uses (std::mt19937_64 with this seed, std::shuffle): the real
// loads the tests compare with write in the same order.
inline constexpr uint64_t kShuffleSeed = 27;
// Indexes into a key-sorted record set, in the order the load writes them.
std::vector<size_t> load_order(size_t records, LoadOrder order);

// A level's share of the load.
struct LevelSlice {
  double from = 0, to = 0;  // the writes it holds, [from, to) of the load as fractions
  double kept = 1;          // the share of them that keep their sequence numbers (0..1)
};

// The records of writes [from x n, to x n) of `order`, sorted by key, each with its write's
// sequence number (position in the load + 1) where kept, else 0. Kept numbers come in runs of
// kKeptRun records, spread evenly over the level: RocksDB keeps or zeroes a whole compaction's
// output, never single records.
inline constexpr size_t kKeptRun = 64;
RecordSet level_records(const RecordSet& in, const std::vector<size_t>& order, const LevelSlice& slice);

}  // namespace kvz
