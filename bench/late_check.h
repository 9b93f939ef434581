#pragma once
// The late check: a second look at each cell's blocks at the end of the run. A block's
// intrinsic cost is its fastest call, but all of a cell's calls fall within its group's few
// seconds, and on a shared VM a whole group can run 20-30 % slow (another tenant, the host):
// then every call of a block is inflated and the worst block moves between identical runs.
// At the end of the run, minutes later, each cell's blocks are called again on a fresh session
// from a fresh copy (another place in memory), in rounds over every block in the passes' order;
// each block's fastest call is the lower of the two windows' and the intrinsic figures are
// recomputed (IntrinsicTimes, bench/intrinsic.h). Every other block of the set comes between
// two calls of one, as in the passes: the branch predictor remembers a block for a dozen or
// more calls of others, and a block repeated sooner would be timed faster than any pass (or
// store) sees it. A small set gets several rounds (kLateMinCalls calls in all, within
// EngineOptions::late_rounds_seconds: 0.04 s, less under a small budget): its few late calls
// would otherwise be one sample each, at the mercy of one slow moment. Only directions with a
// block of kTimedPassCallSeconds or more (the faster ones get their calls from many passes
// already) and stream cache mode (hot and cold calls mean other caches). Internal to bench/.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "bench/cell.h"

namespace kvz {

inline constexpr size_t kLateMinCalls = 64;  // calls of a direction, in whole rounds
inline constexpr size_t kLateMaxRounds = 8;  // ... never more rounds than this
// ... nor more rounds than fit kLateRoundsSeconds (but one): EngineOptions::late_rounds_seconds'
// default (bench/matrix.h).

// Rounds over a set of `blocks` blocks whose fastest calls add up to `round_seconds`: a slow
// small set (64 KiB blocks of xz) gets one: more would add seconds to the sweep.
inline size_t late_rounds(size_t blocks, double round_seconds, double max_seconds = kLateRoundsSeconds) {
  if (blocks == 0) return 0;
  size_t rounds = std::min(kLateMaxRounds, (kLateMinCalls + blocks - 1) / blocks);
  if (round_seconds * static_cast<double>(rounds) > max_seconds)
    rounds = static_cast<size_t>(max_seconds / round_seconds);
  return std::max<size_t>(rounds, 1);
}

struct LateCheck {
  size_t result = 0;  // index into EngineOutcome::cells
  const Codec* codec = nullptr;
  CodecParams params;
  std::shared_ptr<const PreparedDict> dict;
  struct Direction {
    bool on = false;
    IntrinsicTimes times;                  // every measured block's fastest call so far, and which block it is
    const BlockSet* blocks = nullptr;      // compress: the inputs (the group's blocks outlive the run)
    std::vector<uint8_t> packed;           // decompress: the compressed blocks, back to back
    size_t scratch = 0;                    // output buffer a call needs
    std::optional<IntrinsicCost> refined;  // the late calls' intrinsic figures (run_late_checks)
  } dirs[2];
};

// What the late check needs of a finished, verified cell (its result at `result`); false when
// no direction qualifies.
bool make_late_check(const CellState& cell, size_t result, const EngineOptions& opt, LateCheck& out);

// Calls each check's blocks again, adds the calls to its IntrinsicTimes (lowering the fastest
// calls) and sets each direction's `refined` intrinsic figures (IntrinsicTimes::cost), which
// replace the cell's. Stops between calls when `stop` is set (the cells then keep what was
// measured).
void run_late_checks(std::vector<LateCheck>& checks, const EngineOptions& opt, const std::atomic<bool>* stop);

}  // namespace kvz
