#pragma once
// Dictionary rows: which blocks a cell measures, where its dictionary comes from
// (EngineOptions::dict_method: "file" or "split") and the bytes it is compared with; the
// seeded train/test split of the "split" study. Which blocks train and which are measured is
// the benchmark's design, not the codec's (codecs/dictionary.h trains on whatever samples it
// is given), so the split lives here. Internal to bench/.
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bench/cell.h"
#include "codecs/dictionary.h"

namespace kvz {

// Dictionaries made once per (group, size, raw) and shared by that group's cells: trained, or
// raw samples of the data (CodecParams::raw_dict).
struct DictCache {
  std::map<std::pair<size_t, bool>, TrainedDict> trained;
  std::string split_error;
  bool split_done = false;
  std::vector<size_t> train, test;
  TrainedDict stored;              // the file's own dictionary (an as-stored group's current row)
  std::vector<std::string> notes;  // training fallbacks, surfaced as run warnings
};

// The blocks a dictionary-less cell measures (all), or a dictionary cell's blocks and prepared
// dictionary by EngineOptions::dict_method. False: the cell is skipped (`skipped`) or failed
// (`result.failure`).
bool choose_blocks(CellState& cell, DictCache& dicts, const EngineOptions& opt,
                   std::shared_ptr<const PreparedDict>& dict);
// The measured blocks without the dictionary, counted as the dictionary row counts them
// (stored bytes for "file", compressed bytes for "split"): the base of dict_gain.
bool size_without_dict(CellState& cell, const EngineOptions& opt, uint64_t& total);

// Disjoint split of block indices for the "split" study: a seeded `train_fraction` share (at
// least one block, and 8 when half the blocks allow) trains, the rest (at least one block) is
// measured. Both sorted.
struct BlockSplit {
  std::vector<size_t> train;
  std::vector<size_t> test;
};
// Returns false when there are fewer than two blocks.
bool split_train_test(size_t block_count, double train_fraction, uint64_t seed, BlockSplit& out);

}  // namespace kvz
