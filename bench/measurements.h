#pragma once
// What bench measures of one cell, as the measuring code writes it. The engine turns it into the
// cell's CellResult (results/results.h) in one place (engine.cpp to_result), as Google
// Benchmark's runner builds its Run: the files that measure are not rebuilt when the result
// model gains a field that is not theirs. Internal to bench/.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "results/latency.h"

namespace kvz {

// One direction's figures (index: bench/cell.h Direction).
struct DirectionFigures {
  std::vector<double> wall_mbps;  // per finished repetition, decimal MB/s of uncompressed data
  std::vector<double> cpu_mbps;   // the same by process CPU time
  LatencyStats latency;           // the latency pass, with the intrinsic cost once finished
  uint64_t context_bytes = 0;     // one session's library context after every measured block
};

// The dictionary a cell used (bytes 0: none). `method` is "file" or "split" (bench/README.md
// "Dictionaries"); `block_bytes` what it takes in the file ("file" only); `gain` the measured
// blocks' bytes without it over with it.
struct DictFigures {
  uint64_t bytes = 0;
  std::string method{};
  uint64_t block_bytes = 0;
  double train_seconds = 0;
  std::optional<double> gain;
};

// Sizes of the measured blocks: the codec's output and, after the keep-raw rule (and a store
// profile's framing), what is stored; the store's whole file when its profile models one.
struct SizeFigures {
  uint64_t blocks = 0;
  uint64_t input = 0;
  uint64_t compressed = 0;
  uint64_t stored = 0;
  uint64_t kept_raw = 0;            // blocks the keep-raw rule left uncompressed
  uint64_t records = 0;             // the records the measured blocks hold (0: not known)
  double min_saving = 0;            // the keep-raw rule applied
  std::optional<uint64_t> on_disk;  // the file's real bytes for the blocks (a file's current row)
  std::optional<uint64_t> store_file;
  std::map<std::string, uint64_t> store_file_parts;
};

struct CellFigures {
  std::string failure;  // why the cell failed (empty: it did not, or it was skipped or stopped)
  SizeFigures sizes;
  DictFigures dict;
  DirectionFigures dirs[2];
  double wall_seconds = 0;  // time spent on this cell
  double cpu_seconds = 0;
};

}  // namespace kvz
