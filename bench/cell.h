#pragma once
// One cell's working state inside the engine: sessions, the verified compressed blocks,
// and the job lists the timed passes walk. Internal to bench/.
#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bench/matrix.h"
#include "bench/stats.h"
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
  CellResult result;
  const BlockGroup* group = nullptr;
  const Codec* codec = nullptr;
  CodecParams params;
  bool ok = false;                                 // verified; timed passes may run
  std::string skipped;                             // not measurable here (too few blocks): a warning, not a result
  bool owned = true;                               // false: measured for relative speeds, not this shard's
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
  // Each block's fastest call over verification, the latency pass and (for slow calls) the
  // throughput passes, per direction: the intrinsic cost, finished after the throughput passes.
  BlockTimes block_times[2];
  std::atomic<bool> pass_error{false};      // a call failed inside a timed pass
  std::vector<uint64_t> pass_bytes[2];      // uncompressed bytes of one pass, per worker
  int entries[2] = {0, 0};                  // GB entries seen (progress)
  bool incomplete = false;                  // some repetition was skipped (interrupt): fewer speeds
  bool cut_short = false;                   // the interrupt stopped verification: no result at all
  const std::atomic<bool>* stop = nullptr;  // the run's interrupt flag: checked once per call
  bool stopped() const { return stop && stop->load(std::memory_order_relaxed); }
};

// Dictionaries trained once per (group, size) and shared by that group's cells.
struct DictCache {
  std::map<size_t, TrainedDict> trained;
  std::string split_error;
  bool split_done = false;
  std::vector<size_t> train, test;
  TrainedDict stored;              // the file's own dictionary (an as-stored group's current row)
  std::vector<std::string> notes;  // training fallbacks, surfaced as run warnings
};

// The blocks a dictionary-less cell measures (all), or a dictionary cell's blocks and prepared
// dictionary by EngineOptions::dict_method (bench/cell_dict.cpp). False: the cell is skipped
// (`skipped`) or failed (`result.failure`).
bool choose_blocks(CellState& cell, DictCache& dicts, const EngineOptions& opt,
                   std::shared_ptr<const PreparedDict>& dict);
// The measured blocks without the dictionary, counted as the dictionary row counts them
// (stored bytes for "file", compressed bytes for "split"): the base of dict_gain.
bool size_without_dict(CellState& cell, const EngineOptions& opt, uint64_t& total);

// Under a profile with a whole-file model (stores' store_file_parts), after verification: the
// whole file the store would write for the cell's blocks, into result.store_file_*. Nothing
// when the cell measures a subset of the blocks (the dictionary split) or the layout gave no
// table keys (bench/cell_file.cpp).
void predict_store_file(CellState& cell);

// Verify every measured block (round trip + memcmp), fill sizes, keep-raw, dictionary
// figures and the latency passes. On failure sets status Failed with the reason.
void prepare_cell(CellState& cell, DictCache& dicts, const EngineOptions& opt);

// The calls one worker makes in one pass, in cache-mode order. Cold mode copies the
// worker's blocks into `arena` until the working set is several times the LLC.
std::vector<Job> make_jobs(const CellState& cell, Direction dir, int worker, int workers, const EngineOptions& opt,
                           std::vector<uint8_t>& arena);

uint64_t cold_working_set_bytes(const EngineOptions& opt);

// Calls of at least this long are also timed one by one inside the throughput passes (two
// timestamps, about 50 ns, cost at most 0.25 % of such a call): their blocks' fastest calls then come from
// repetitions seconds apart, which a machine slowed for a moment cannot all inflate.
inline constexpr double kTimedPassCallSeconds = 20e-6;

// The intrinsic cost of both directions from the cell's block times, the worst block named by
// its index in the block set with its sizes. Called after the throughput passes.
void finish_intrinsic(CellState& cell, const EngineOptions& opt);

// Every measured block is timed at least this often per direction: its fastest call is its
// intrinsic cost.
inline constexpr size_t kMinCallsPerBlock = 3;
// Calls this fast always get the 1,000 calls p99.9 needs, whatever the time cap (the default
// of EngineOptions::fast_call_seconds) ...
inline constexpr double kFastCallSeconds = 100e-6;
// ... unless a smaller budget brought the cap below this (scale_latency_budget).
inline constexpr double kFastFloorCapSeconds = 0.02;
// The context-switch reading between calls (getrusage: about 1 µs on a VM), for sizing.
inline constexpr double kSwitchReadSeconds = 1.5e-6;

// Calls of one latency pass over `blocks` blocks whose calls take about `est_call_seconds`:
// the target (opt.latency_calls) where the time cap (opt.latency_seconds) allows; at least
// 1,000 wherever a call takes opt.fast_call_seconds (100 µs) or less; at least `min_rounds` per
// block; in whole rounds over the blocks.
size_t latency_calls(size_t blocks, double est_call_seconds, size_t min_rounds, const EngineOptions& opt);

}  // namespace kvz
