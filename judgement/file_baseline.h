#pragma once
// A store file's own blocks (layout "as-stored") have a baseline: the file's codec, measured
// as the row right after memcpy, and the bytes the file really holds. Every other row of the
// block set is a switch from it: what it saves on disk and what it costs in time.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "results/results_fwd.h"

namespace kvz {

struct CodecSwitch {
  const CellResult* cell = nullptr;
  std::string label;                  // "zstd 3"
  double saving_pct = 0;              // of the file's bytes on disk: 100 * (1 - stored / on disk); < 0 = more bytes
  double compress_time_x = 0;         // its compress time / the current codec's (median speeds); 0 when unknown
  double decompress_time_x = 0;       // the same for decompression
  double worst_block_us[2] = {0, 0};  // its intrinsic worst block, compress / decompress
};

struct FileBaseline {
  const CellResult* current = nullptr;  // the file's codec row
  std::string label;                    // "lz4 1"
  uint64_t on_disk = 0;                 // the file's bytes for these blocks (and its dictionary block)
  int64_t predicted_delta = 0;          // the row's stored bytes - on_disk: 0 = the store's bytes exactly
  uint64_t file_bytes = 0;              // the whole file (index, properties, footer, ...), 0 when unknown
  uint64_t files = 1;                   // the files behind the blocks (a DB's level: several)
  std::vector<CodecSwitch> switches;    // every other OK row but the reference, in result order
};

// The baseline of the block set `cell` belongs to; none when it is not a file's own blocks or
// the current row failed.
std::optional<FileBaseline> file_baseline(const RunResults& run, const CellResult& cell);

// "lz4 1: 8749 B on disk; predicted 8749 B (exact)".
std::string baseline_text(const FileBaseline& b);
// "zstd 3: 6389 B, saves 27.0 %; c time ×4.75, d time ×1.96; worst blk 6.0/3.9 µs" (times are
// the switch's over the current codec's: ×2.00 takes twice as long).
std::string switch_text(const CodecSwitch& s);

}  // namespace kvz
