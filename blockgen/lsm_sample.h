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
#include "blockgen/load_order.h"

namespace kvz {

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

// Which sequence numbers a level cut's records carry: the slice's own share (LevelSlice::kept),
// or every one kept or zeroed, a sample beside the level's own cut for a plan whose codecs decide
// which (judgement/level_cut.h).
enum class CutNumbers { Own, AllKept, AllZeroed };

// A level cut's layout name: the layout and the levels its blocks stand for, "rocksdb@L3", or
// "rocksdb@L2-3" for two levels cut together, with "k" or "z" after a sample of every number kept
// ("rocksdb@L6k") or zeroed ("rocksdb@L0z"). Results keep the cut's cells apart from the whole
// set's: recommendations and store totals leave them out; the per-level plan prices each level
// on them (judgement/level_plan.h LevelCodec::at_level).
std::string level_cut_layout(const std::string& layout, int first, int last, CutNumbers numbers = CutNumbers::Own);
// The layout and levels of a level cut's name, and which numbers it carries; false for any other
// layout.
bool parse_level_cut(const std::string& name, std::string& layout, int& first, int& last, CutNumbers& numbers);
// The same for a level's own cut only (false for a sample beside it too).
bool parse_level_cut(const std::string& name, std::string& layout, int& first, int& last);
inline bool is_level_cut(const std::string& layout) { return layout.find("@L") != std::string::npos; }

}  // namespace kvz
