#pragma once
// One cell's working state inside the engine: sessions, the verified compressed blocks,
// and the job lists the timed passes walk. Internal to bench/.
//   cell.cpp       verification, sizes, job lists, the cell's preparation
//   cell_dict.h    dictionary rows and the train/test split
//   cell_file.cpp  the whole store file for the cell's blocks
//   latency_pass.h the latency passes
//   intrinsic.h    the intrinsic cost (each block's fastest call) and its worst block
#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "bench/intrinsic.h"
#include "bench/matrix.h"
#include "bench/measurements.h"
#include "codecs/dictionary.h"

namespace kvz {

enum class Direction { Compress = 0, Decompress = 1 };

// One call of a pass: input bytes, the exact output size (decompress) or 0 (compress), and
// which measured block it is (index into CellState::measured).
struct Job {
  const uint8_t* in = nullptr;
  size_t in_size = 0;
  size_t out_size = 0;
  uint32_t block = 0;
};

struct CellState {
  std::string id;  // the cell's key's id (results' CellKey::id): names its benchmarks and progress
  CellFigures figures;
  const BlockGroup* group = nullptr;
  const Codec* codec = nullptr;
  CodecParams params;
  bool ok = false;                                 // verified; timed passes may run
  std::string skipped;                             // not measurable here (too few blocks): a warning, not a result
  bool current = false;                            // the file's own codec (the group's origin): its dictionary
  std::vector<size_t> measured;                    // block indices measured (all, or the dictionary test split)
  std::vector<std::unique_ptr<Session>> sessions;  // one per worker thread
  std::shared_ptr<const PreparedDict> dict;        // the sessions' dictionary (null: none)
  std::vector<uint8_t> packed;                     // compressed measured blocks, back to back
  std::vector<size_t> packed_offsets;
  std::vector<uint64_t> stored_block_bytes;  // under a profile: each measured block as the store writes it
  size_t scratch_bytes = 0;                  // output buffer every worker needs
  double est_call_seconds[2] = {0, 0};       // from the verification pass, sizes the latency pass
  std::vector<uint64_t> verify_ticks[2];     // each measured block's verification call, per direction
  // The intrinsic cost per direction: each block's fastest call over verification, the latency
  // pass and (for slow calls) the throughput passes; finished after the throughput passes
  // (finish_intrinsic), refined by the late check.
  IntrinsicTimes intrinsic[2];
  std::atomic<bool> pass_error{false};      // a call failed inside a timed pass
  std::vector<uint64_t> pass_bytes[2];      // uncompressed bytes of one pass, per worker
  int entries[2] = {0, 0};                  // GB entries seen (progress)
  bool incomplete = false;                  // some repetition was skipped (interrupt): fewer speeds
  bool cut_short = false;                   // the interrupt stopped verification: no result at all
  const std::atomic<bool>* stop = nullptr;  // the run's interrupt flag: checked once per call
  bool stopped() const { return stop && stop->load(std::memory_order_relaxed); }
  size_t packed_size(size_t k) const { return packed_offsets[k + 1] - packed_offsets[k]; }  // measured block k's
};

struct DictCache;  // bench/cell_dict.h

// Verify every measured block (round trip + memcmp), fill sizes, keep-raw, dictionary
// figures and the latency passes. On failure sets status Failed with the reason.
void prepare_cell(CellState& cell, DictCache& dicts, const EngineOptions& opt);

// A block as its group stores it: the store profile's framing and keep-raw rule, or without a
// profile the keep-raw rule at `min_saving` (stores/framing.h keep_raw).
StoredBlock stored_in_group(const BlockGroup& group, const BlockCodec& codec, size_t raw, size_t compressed,
                            double min_saving);

// Under a profile with a whole-file model (stores' store_file_parts), after verification: the
// whole file the store would write for the cell's blocks, into figures.sizes.store_file*. Nothing
// when the cell measures a subset of the blocks (the dictionary split) or the layout gave no
// table keys (bench/cell_file.cpp).
void predict_store_file(CellState& cell);

// The calls one worker makes in one pass, in cache-mode order. Cold mode copies the
// worker's blocks into `arena` until the working set is several times the LLC.
std::vector<Job> make_jobs(const CellState& cell, Direction dir, int worker, int workers, const EngineOptions& opt,
                           std::vector<uint8_t>& arena);

uint64_t cold_working_set_bytes(const EngineOptions& opt);

// The intrinsic figures of both directions into the cell's result (IntrinsicTimes::cost).
// Called after the throughput passes.
void finish_intrinsic(CellState& cell, const EngineOptions& opt);

}  // namespace kvz
